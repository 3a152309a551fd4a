"""A player's own page, by his own link, with no log-in and no cookies, in a private club: his
nights and nets (the night totals'), his standing and grade, whom he owes and who owes him, the
debts owed to him each with a form, and a closed night's sheet for his table with its settle-up.
Every wrong token (revoked, re-issued, made up, another club's) is the bare 404 of a club that
does not exist."""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from club.clubs.models import Player
from club.grades.models import GradeOptOut, GradeSettings
from club.money.services import publish as publish_service
from club.play.models import NightTotal
from club.play.services import player_links
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night, reopen_night
from tests.kits.ledger_kit import play


@pytest.fixture(autouse=True)
def after_commit_at_once(monkeypatch):
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())


@pytest.fixture
def closed(night, table4, players, secretary):
    """Bob makes a solo at table 1: Ann, Cat and Dan each owe him 6p. Table 2 plays a hand too."""
    play(table4, secretary, players[1], "solo", 5)
    play(night.tables.get(number=2), secretary, players[4], "solo", 5)
    close_night(night, secretary)
    night.refresh_from_db()
    return night


def own(player, *args, name="player_own"):
    return reverse(name, args=[player.club.slug, player_links.token_for(player), *args])


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return response, response.content.decode()


def test_the_payees_page_in_a_private_club_with_no_cookies(closed, players):
    bob = players[1]
    assert not bob.club.is_public
    client = Client()
    response, html = page(client, own(bob))
    assert "Bob" in html and "Crown &amp; Anchor Solo School" in html
    # His night, with his net as the night totals have it, linked to its own page.
    total = NightTotal.objects.get(night=closed, player=bob)
    assert total.net == 18
    assert "+£0.18" in html
    assert own(bob, closed.pk, name="player_own_night") in html
    # Who owes him: Ann, Cat and Dan, 6p each; a form for each debt owed to him.
    assert "You are paid by" in html and "You pay" not in html
    for name in ("Ann", "Cat", "Dan"):
        assert f"{name} <strong>£0.06</strong>" in html
    assert html.count("Mark paid") == 3
    assert "On balance you are owed <strong>£0.18</strong>" in html
    # His standing: first of the players ranked, with his statement for the season.
    assert "You are <strong>1</strong> of" in html
    assert own(bob, name="player_own_statement") in html
    # The token is in the address: no cache, no referrer, no index; and no cookie is needed.
    assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert response["Referrer-Policy"] == "no-referrer"
    assert '<meta name="robots" content="noindex">' in html
    assert "sessionid" not in response.cookies


def test_a_debtors_page_has_no_pay_form(closed, players):
    ann = players[0]
    _, html = page(Client(), own(ann))
    assert "You pay" in html and "Bob <strong>£0.06</strong>" in html
    assert "On balance you owe <strong>£0.06</strong>" in html
    assert "Mark paid" not in html
    assert "-£0.06" in html  # her net for the night


def test_the_grade_shows_only_when_the_club_shows_grades(closed, players, club):
    from club.grades.queries import grades as gq
    from club.grades.services import grades as grade_service

    bob = players[1]
    _, html = page(Client(), own(bob))
    assert "No grade yet" in html  # grades are on, and not yet rated
    grade_service.rebuild(club)
    shown = gq.shown(gq.current(bob), gq.settings_for(club).min_hands)
    assert shown is not None
    _, html = page(Client(), own(bob))
    assert f"Your grade: <strong>{shown.value} ±{shown.plus_minus}</strong>" in html
    # Not graded in public: his own page still shows him his grade.
    GradeOptOut.objects.create(player=bob)
    _, html = page(Client(), own(bob))
    assert "Your grade:" in html
    GradeSettings.objects.update_or_create(club=club, defaults={"enabled": False})
    _, html = page(Client(), own(bob))
    assert "Your grade" not in html and "No grade yet" not in html


def test_a_club_with_no_season_and_a_player_with_no_nights(club, players):
    _, html = page(Client(), own(players[0]))
    assert "You have not played a night yet." in html
    assert "player_own_statement" not in html and "statement" not in html.lower()


def test_the_nights_sheet_for_his_table_and_the_settle_up(closed, players):
    bob, eve = players[1], players[4]
    _, html = page(Client(), own(bob, closed.pk, name="player_own_night"))
    assert "Table 1" in html and "Table 2" not in html
    assert "Totals after 1 hand" in html
    assert "Settle-up" in html and "Ann pays Bob £0.06" in html
    # Eve's table is hers, not Bob's; her page shows table 2.
    _, html = page(Client(), own(eve, closed.pk, name="player_own_night"))
    assert "Table 2" in html and "Table 1" not in html


def test_a_night_not_his_or_not_closed_is_a_404(closed, season, players, secretary, club):
    bob = players[1]
    # A night he did not play in.
    other = create_night(season, dt.date(2026, 11, 27), [(players[4:8], 0)])
    play(other.tables.get(), secretary, players[4], "solo", 5)
    close_night(other, secretary)
    assert Client().get(own(bob, other.pk, name="player_own_night")).status_code == 404
    # His night, reopened: not shown until it is closed again.
    reopen_night(closed, secretary)
    assert Client().get(own(bob, closed.pk, name="player_own_night")).status_code == 404
    # Another club's night id.
    assert Client().get(own(bob, 999999, name="player_own_night")).status_code == 404


def test_an_open_night_is_listed_but_not_linked(night, table4, players, secretary):
    bob = players[1]
    play(table4, secretary, bob, "solo", 5)
    _, html = page(Client(), own(bob))
    assert "In play" in html
    assert own(bob, night.pk, name="player_own_night") not in html


def _bare_404(client, url):
    """The 404 page, its address (which it names) taken out."""
    response = client.get(url)
    assert response.status_code == 404
    html = response.content.decode().replace(quote(url, safe=""), "URL").replace(url, "URL")
    return re.sub(r'"X-CSRFToken": "\w+"', "", html)  # a new mask each answer


@pytest.mark.parametrize("name", ["player_own", "player_own_statement"])
def test_wrong_tokens_are_the_404_of_a_missing_club(closed, players, secretary, other_club, name):
    bob = players[1]
    client = Client()
    missing_club = _bare_404(client, reverse(name, args=["no-such-club", "x" * 24]))
    old = player_links.token_for(bob)
    new = player_links.reissue(bob, secretary)
    assert _bare_404(client, reverse(name, args=["crown", old])) == missing_club
    assert client.get(reverse(name, args=["crown", new])).status_code == 200
    player_links.revoke(bob, secretary)
    assert _bare_404(client, reverse(name, args=["crown", new])) == missing_club
    assert _bare_404(client, reverse(name, args=["crown", "made-up-token-000000"])) == missing_club
    stranger = Player.objects.create(club=other_club, name="Zed")
    theirs = player_links.token_for(stranger)
    assert _bare_404(client, reverse(name, args=["crown", theirs])) == missing_club
    # In its own club it opens Zed's page (his club has no season: no statement to print).
    assert client.get(reverse("player_own", args=["redlion", theirs])).status_code == 200


def test_a_forgotten_players_link_opens_nothing(closed, players, secretary):
    from club.clubs.services.clubs_lifecycle import forget_player

    bob = players[1]
    url = own(bob)
    forget_player(bob, secretary)
    assert Client().get(url).status_code == 404


def _more_nights(season, players, secretary, count):
    for i in range(count):
        date = dt.date(2026, 10, 1) + dt.timedelta(days=i)
        night = create_night(season, date, [(players[:4], 0)])
        play(night.tables.get(), secretary, players[i % 4], "solo", 5)
        close_night(night, secretary)


@pytest.mark.parametrize("nights", [2, 12])
def test_the_pages_queries_do_not_grow_with_the_nights(
    season, players, secretary, nights, django_assert_max_num_queries
):
    _more_nights(season, players, secretary, nights)
    bob = players[1]
    url = own(bob)
    client = Client()
    with django_assert_max_num_queries(12):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.decode().count('<tr data-night="') == nights


@pytest.mark.parametrize("hands", [1, 8])
def test_the_night_pages_queries_do_not_grow_with_the_hands(
    night, table4, players, secretary, hands, django_assert_max_num_queries
):
    for i in range(hands):
        play(table4, secretary, players[i % 4], "solo", 5)
    close_night(night, secretary)
    url = own(players[1], night.pk, name="player_own_night")
    client = Client()
    with django_assert_max_num_queries(12):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.decode().count('<tr id="hand-') == hands
