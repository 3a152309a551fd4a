"""The tournament pages: setting up through the form, entries, starting, closing rounds (refused
with a message while a table is short, or closed anyway), the tournament page's seats and seating
figure, the table page's round and hand count, and who may do what (per role, other clubs, public
events, CSRF)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from club.clubs.models import AuditEvent, Club
from club.play.models import Table
from club.tournaments.models import Entry, Tournament
from club.tournaments.services import tournaments as services
from scoring import seating
from tests.kits.tournament_kit import (
    board_of,
    field,
    make_tournament,
    money,
    play_round,
    play_table,
    round_names,
    tables_of,
)


def url(name: str, t: Tournament, *args) -> str:
    return reverse(name, args=[t.club.slug, t.pk, *args])


def text(response) -> str:
    html = response.content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def ten(club):
    return field(club, 10)


@pytest.fixture
def running(season, ten, secretary):
    t = make_tournament(season, ten, rounds=2, hands=2, director=secretary)
    services.start(t)
    t.refresh_from_db()
    return t


# --- set-up ------------------------------------------------------------------------------------


def test_the_form_sets_up_a_tournament_with_its_players(client, club, season, players, scorer):
    Club.objects.filter(pk=club.pk).update(scorers_add_players=True)  # new names below
    client.force_login(scorer)
    page = client.get(reverse("tournament_create", args=[club.slug]))
    assert page.status_code == 200 and "Hoyle sixpences" in text(page)  # the season's rule set
    response = client.post(
        reverse("tournament_create", args=[club.slug]),
        {
            "name": "Spring Open",
            "date": "2026-12-05",
            "season": "",
            "rounds": "3",
            "hands_per_round": "6",
            "scoring_method": "table_rank",
            "is_public": "on",
            "players": [str(p.pk) for p in players[:8]],
            "new_players": "Jo Bloggs, Sam Smith",
        },
    )
    t = Tournament.objects.get(name="Spring Open")
    assert response.status_code == 302 and response["Location"] == url("tournament_detail", t)
    assert (t.rounds, t.hands_per_round, t.scoring_method, t.is_public) == (
        3,
        6,
        "table_rank",
        True,
    )
    assert t.night.season == season and t.night.counts_in_standings is False  # box left empty
    assert t.director == scorer
    assert t.entries.count() == 10
    assert set(t.entries.values_list("player__name", flat=True)) >= {"Jo Bloggs", "Sam Smith"}


def test_the_form_says_what_is_wrong(client, club, season, secretary):
    client.force_login(secretary)
    response = client.post(
        reverse("tournament_create", args=[club.slug]),
        {
            "name": "",
            "date": "2030-01-01",
            "rounds": "0",
            "hands_per_round": "8",
            "scoring_method": "amounts",
        },
    )
    body = text(response)
    assert response.status_code == 200
    assert "The tournament was not set up" in body
    assert "No season covers 01 Jan 2030" in body
    assert "greater than or equal to 1" in body
    assert not Tournament.objects.exists()


def test_the_tournament_page_before_the_start(client, club, season, ten, secretary):
    t = make_tournament(season, ten, rounds=4, seed=2)
    client.force_login(secretary)
    body = text(client.get(url("tournament_detail", t)))
    assert "Entries open" in body and "10 players" in body
    expected = seating.max_meetings(
        seating.plan(sorted((str(p.pk) for p in ten), key=int), 4, seed=2)
    )
    assert f"no two players meet at a table more than {expected} times over the 4 rounds" in body
    assert "Start round 1" in body


def test_starting_shows_round_one_seats_with_tables_of_five(client, club, season, ten, secretary):
    t = make_tournament(season, ten, rounds=2, hands=2)
    client.force_login(secretary)
    response = client.post(url("tournament_start", t), follow=True)
    body = text(response)
    assert "Round 1 is drawn" in body
    names = round_names(t, 1)
    assert [len(x) for x in names] == [5, 5]
    html = response.content.decode()
    for number, table in enumerate(names, start=1):
        section = html.split(f'id="round-1-table-{number}"')[1].split("</article>")[0]
        assert re.findall(r"<li>([^<(]+?)(?: <span|</li>)", section) == table
        assert "0 / 2 hands" in section and "one sits out each hand" in section


def test_the_table_page_names_the_round_and_counts_the_hands(client, running, scorer):
    table = tables_of(running, 1)[1]
    client.force_login(scorer)
    page = client.get(reverse("table_detail", args=[running.club.slug, table.pk]))
    body = text(page)
    assert "Round 1, table 2" in body
    link = f'<a href="{url("tournament_detail", running)}">Christmas Drive</a>'
    assert f"{link}: round 1 of 2, 2 hands a table" in page.content.decode()
    assert "Hand 1 of 2" in body


# --- entries -----------------------------------------------------------------------------------


def test_entries_page_enters_a_latecomer_for_the_next_round(client, running, club, scorer):
    play_round(running, scorer, hands=1)
    late = field(club, 11)[10]
    client.force_login(scorer)
    response = client.post(
        url("tournament_entries", running), {"players": [str(late.pk)]}, follow=True
    )
    assert f"Entered {late.name}: from round 2." in text(response)
    assert Entry.objects.get(tournament=running, player=late).joined_round == 2
    assert "from round 2" in text(client.get(url("tournament_entries", running)))


def test_entries_page_withdraws_between_rounds(client, running, ten, scorer):
    play_round(running, scorer, hands=1)
    client.force_login(scorer)
    response = client.post(url("tournament_withdraw", running, ten[3].pk), follow=True)
    assert f"{ten[3].name} withdraws after round 1." in text(response)
    assert "withdrew after round 1" in text(response)
    assert Entry.objects.get(tournament=running, player=ten[3]).withdrawn_after_round == 1


def test_entries_page_asks_for_someone(client, running, scorer):
    client.force_login(scorer)
    response = client.post(url("tournament_entries", running), {"players": []})
    assert "Choose players to enter, or type new names." in text(response)


# --- closing rounds ----------------------------------------------------------------------------


def test_closing_an_incomplete_round_is_refused_with_a_message(client, running, scorer):
    one, two = tables_of(running, 1)
    play_table(one, scorer, 2)
    play_table(two, scorer, 1)
    client.force_login(scorer)
    page = client.get(url("tournament_round_close", running))
    assert "table 2 has 1" in text(page) and "Close anyway" in text(page)
    response = client.post(url("tournament_round_close", running), {})
    assert response.status_code == 409
    assert (
        "Round 1 is not complete: each table plays 2 hands, and table 2 has 1. Enter the missing "
        "hands first, or close the round anyway." in text(response)
    )
    running.refresh_from_db()
    assert running.current_round == 1
    assert not Table.objects.filter(night=running.night, round_number=2).exists()


def test_close_anyway_when_confirmed(client, running, scorer):
    client.force_login(scorer)
    response = client.post(url("tournament_round_close", running), {"close_anyway": "on"})
    assert response.status_code == 302
    running.refresh_from_db()
    assert running.current_round == 2
    assert AuditEvent.objects.filter(subject="Round 1 (closed anyway)").exists()


def test_closing_a_complete_round_shows_the_next_rounds_seats(client, running, scorer):
    play_round(running, scorer)
    client.force_login(scorer)
    response = client.post(url("tournament_round_close", running), {}, follow=True)
    body = text(response)
    assert "Round 1 is closed. Round 2 is drawn" in body
    assert "Round 2: seats" in body
    html = response.content.decode()
    for number, table in enumerate(round_names(running, 2), start=1):
        section = html.split(f'id="round-2-table-{number}"')[1].split("</article>")[0]
        assert re.findall(r"<li>([^<(]+?)(?: <span|</li>)", section) == table
    # Closing the last round finishes the tournament.
    play_round(running, scorer)
    response = client.post(url("tournament_round_close", running), {}, follow=True)
    assert "has finished: the results are final" in text(response)
    running.refresh_from_db()
    assert running.is_finished and running.night.is_closed
    assert client.get(url("tournament_round_close", running)).status_code == 302


def test_settings_page_changes_the_event(client, running, secretary):
    client.force_login(secretary)
    response = client.post(
        url("tournament_settings", running),
        {
            "name": "Renamed",
            "rounds": "4",
            "hands_per_round": "3",
            "scoring_method": "table_rank",
            "counts_in_standings": "on",
        },
    )
    assert response.status_code == 302
    running.refresh_from_db()
    assert (running.name, running.rounds, running.hands_per_round) == ("Renamed", 4, 3)
    assert running.night.title == "Renamed" and running.is_public is False
    response = client.post(
        url("tournament_settings", running),
        {"name": "R", "rounds": "0", "hands_per_round": "3", "scoring_method": "amounts"},
    )
    assert "Ensure this value is greater than or equal to 1" in text(response)


# --- access ------------------------------------------------------------------------------------

DIRECTOR_POSTS = [
    ("tournament_start", ()),
    ("tournament_round_close", ()),
    ("tournament_entries", ()),
    ("tournament_settings", ()),
]


@pytest.mark.parametrize(("who", "allowed"), [("secretary", True), ("scorer", True)])
def test_secretaries_and_scorers_direct(client, request, running, who, allowed):
    # Two forms on each page: the log-out button in the menu and the page's own.
    client.force_login(request.getfixturevalue(who))
    for name in ("tournament_round_close", "tournament_entries", "tournament_settings"):
        response = client.get(url(name, running))
        assert response.status_code == 200, name
        assert response.content.decode().count("csrfmiddlewaretoken") >= 2, name
    response = client.get(reverse("tournament_create", args=[running.club.slug]))
    assert (
        response.status_code == 200 and response.content.decode().count("csrfmiddlewaretoken") >= 2
    )


def test_a_viewer_reads_but_cannot_direct(client, running, viewer, ten):
    client.force_login(viewer)
    assert client.get(url("tournament_detail", running)).status_code == 200
    assert client.get(url("leaderboard", running)).status_code == 200
    assert "Close round 1" not in text(client.get(url("tournament_detail", running)))
    for name in ("tournament_round_close", "tournament_entries", "tournament_settings"):
        assert client.get(url(name, running)).status_code == 403
        assert client.post(url(name, running), {"close_anyway": "on"}).status_code == 403
    assert client.post(url("tournament_withdraw", running, ten[0].pk)).status_code == 403
    assert client.get(reverse("tournament_create", args=[running.club.slug])).status_code == 403
    running.refresh_from_db()
    assert (
        running.current_round == 1
        and running.entries.filter(withdrawn_after_round__isnull=True).count() == 10
    )


def test_another_clubs_secretary_gets_404_everywhere(client, running, outsider, ten):
    client.force_login(outsider)
    names = [
        "tournament_detail",
        "leaderboard",
        "leaderboard_live",
        "tournament_round_close",
        "tournament_entries",
        "tournament_settings",
        "tournament_seats_pdf",
        "tournament_cards_pdf",
        "tournament_results_pdf",
    ]
    for name in names:
        assert client.get(url(name, running)).status_code == 404, name
    assert client.post(url("tournament_start", running)).status_code == 404
    assert client.post(url("tournament_withdraw", running, ten[0].pk)).status_code == 404
    assert client.get(reverse("tournament_list", args=[running.club.slug])).status_code == 404
    # Nor can they reach it through their own club's URL.
    wrong = reverse("tournament_detail", args=["redlion", running.pk])
    assert client.get(wrong).status_code == 404


def test_anonymous_visitors_log_in_for_a_private_event(client, running):
    for name in ("tournament_detail", "leaderboard", "leaderboard_live", "tournament_results_pdf"):
        response = client.get(url(name, running))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_public_event_is_readable_without_login_but_not_directable(client, running, scorer):
    play_round(running, scorer, hands=1)
    running.is_public = True
    running.save()
    board = client.get(url("leaderboard", running))
    assert board.status_code == 200 and "Christmas Drive" in text(board)
    assert client.get(url("leaderboard_live", running)).status_code == 200
    assert client.get(url("tournament_detail", running)).status_code == 200
    assert "Close round" not in text(client.get(url("tournament_detail", running)))
    # The club itself stays private, and the director's pages want a login.
    assert client.get(reverse("standings", args=[running.club.slug])).status_code == 302
    response = client.post(url("tournament_round_close", running), {"close_anyway": "on"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    running.refresh_from_db()
    assert running.current_round == 1


def test_every_change_needs_the_csrf_token(running, secretary, ten):
    client = Client(enforce_csrf_checks=True)
    client.force_login(secretary)
    assert client.post(url("tournament_start", running)).status_code == 403
    assert (
        client.post(url("tournament_round_close", running), {"close_anyway": "on"}).status_code
        == 403
    )
    assert client.post(url("tournament_withdraw", running, ten[0].pk)).status_code == 403
    assert client.post(url("tournament_entries", running), {"new_players": "X"}).status_code == 403
    running.refresh_from_db()
    assert running.current_round == 1 and running.entries.count() == 10


def test_the_list_shows_the_clubs_tournaments(client, club, running, viewer):
    client.force_login(viewer)
    body = text(client.get(reverse("tournament_list", args=[club.slug])))
    assert "Christmas Drive" in body and "1 of 2" in body and "Running" in body
    assert "New tournament" not in body
    assert (
        'href="/c/crown/tournaments/"'
        in client.get(reverse("club", args=[club.slug])).content.decode()
    )


def test_a_leaderboard_row_per_entrant_on_the_page(client, running, secretary, ten):
    totals = play_round(running, secretary)
    client.force_login(secretary)
    board = board_of(client.get(url("tournament_detail", running)).content.decode())
    expected = {pid: amount for table in totals.values() for pid, amount in table.items()}
    names = {p.pk: p.name for p in ten}
    assert set(board.rows) == set(names.values())
    for pid, amount in expected.items():
        assert board.rows[names[pid]][-1] == money(amount)


def test_a_public_clubs_events_are_readable_without_login(client, club, running, scorer):
    play_round(running, scorer, hands=1)
    club.is_public = True
    club.save()
    body = text(client.get(url("tournament_detail", running)))
    assert "Christmas Drive" in body and "Round 1: seats" in body
    assert "Enter hands" not in body and "View the sheet" in body
    assert client.get(reverse("tournament_list", args=[club.slug])).status_code == 200
    for name in ("tournament_round_close", "tournament_entries", "tournament_settings"):
        response = client.get(url(name, running))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
