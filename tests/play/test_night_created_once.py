"""Duplicate nights: the night form carries a one-time token, so the same form sent
twice (a double-click, a POST resent over a slow link) creates one night; a player already seated
at another open night that day is warned about before a second night seats them; and two nights
on one day get names that tell them apart."""

from __future__ import annotations

import datetime as dt
import re
import threading
import uuid

import pytest
from django.db import connections
from django.urls import reverse

from club.clubs.models import AuditEvent
from club.play.models import Night
from club.play.services.night_setup import create_night, create_night_once, distinct_title

pytestmark = (
    pytest.mark.slow
)  # a race, an outage or a transaction: seconds, real threads or processes

DATE = dt.date(2026, 11, 20)


def form_data(client, club, seats: list, title: str = "") -> dict:
    """The blank form as the page draws it (its one-time token included), filled in."""
    page = client.get(reverse("night_create", args=[club.slug])).content.decode()
    token = re.search(r'name="form_token" value="([0-9a-f-]+)"', page)
    assert token, "the form carries a one-time token"
    data = {
        "form_token": token.group(1),
        "date": DATE.isoformat(),
        "season": "",
        "title": title,
        "new_players": "",
        "tables-TOTAL_FORMS": "1",
        "tables-INITIAL_FORMS": "0",
        "tables-MIN_NUM_FORMS": "0",
        "tables-MAX_NUM_FORMS": "8",
        "tables-0-first_dealer": "1",
        "action": "create",
    }
    for n, player in enumerate(seats, start=1):
        data[f"tables-0-seat_{n}"] = str(player.pk)
    return data


@pytest.mark.parametrize("role", ["secretary", "scorer"])
def test_the_same_form_sent_twice_makes_one_night(client, club, season, players, role, request):
    client.force_login(request.getfixturevalue(role))
    data = form_data(client, club, players[:4])
    first = client.post(reverse("night_create", args=[club.slug]), data)
    again = client.post(reverse("night_create", args=[club.slug]), data, follow=True)
    nights = list(Night.objects.filter(season__club=club))
    assert len(nights) == 1
    assert first.status_code == 302 and first["Location"].endswith(f"/nights/{nights[0].pk}/")
    assert again.redirect_chain[-1][0].endswith(f"/nights/{nights[0].pk}/")
    assert "already created by this form" in again.content.decode()
    # One night, one audit event: the resent form recorded nothing.
    assert AuditEvent.objects.filter(night=nights[0], action="create").count() == 1
    # A fresh form (a new token) is a new night, named apart from the first.
    fresh = form_data(client, club, players[4:8])
    client.post(reverse("night_create", args=[club.slug]), fresh)
    names = sorted(str(n) for n in Night.objects.filter(season__club=club))
    assert names == ["Club night 20 Nov 2026", "Club night 20 Nov 2026 (2)"]


def test_a_resend_that_finds_the_night_made_meanwhile_goes_to_it_not_to_a_clash(
    client, club, season, players, secretary, monkeypatch
):
    """A double-click: the second send looks for its form's night before the first send has
    committed it, and finds its players seated when the first has. That night is its own, not a
    clash: the second send goes to it, as any resend does."""
    from club.play.queries import night_clashes
    from club.play.views import nights as views

    client.force_login(secretary)
    data = form_data(client, club, players[:4])

    def first_send_commits_meanwhile(*args, **kwargs):
        create_night_once(
            season, DATE, [(players[:4], 1)], form_token=uuid.UUID(data["form_token"])
        )
        return night_clashes.seated_elsewhere(*args, **kwargs)

    monkeypatch.setattr(views, "seated_elsewhere", first_send_commits_meanwhile)
    again = client.post(reverse("night_create", args=[club.slug]), data, follow=True)
    nights = list(Night.objects.filter(season__club=club))
    assert len(nights) == 1
    assert again.redirect_chain[-1][0].endswith(f"/nights/{nights[0].pk}/")
    assert "already created by this form" in again.content.decode()


def test_a_different_night_under_a_used_form_is_refused_never_taken_for_a_resend(
    client, club, season, players, secretary
):
    """Back after creating a night, another night typed into the same form, Create: the form's
    token was used, but this is not the same night sent again. Nothing is made, the page says
    so and keeps what was typed, with a fresh token, so that Create makes it."""
    client.force_login(secretary)
    url = reverse("night_create", args=[club.slug])
    data = form_data(client, club, players[:4])
    client.post(url, data)
    first = Night.objects.get(season__club=club)
    changed = {**data, **{f"tables-0-seat_{n}": str(p.pk) for n, p in enumerate(players[4:8], 1)}}
    refused = client.post(url, changed)
    assert refused.status_code == 200
    page = refused.content.decode()
    assert f"This form already set up {first}" in page and "was not created" in page
    assert list(Night.objects.filter(season__club=club)) == [first]
    token = re.search(r'name="form_token" value="([0-9a-f-]+)"', page).group(1)
    assert token != data["form_token"]
    made = client.post(url, {**changed, "form_token": token})
    assert made.status_code == 302
    second = Night.objects.filter(season__club=club).exclude(pk=first.pk).get()
    seats = [s.player for s in second.tables.get().seats.order_by("position")]
    assert seats == list(players[4:8])


def test_the_token_survives_adding_players_and_tables(client, club, season, players, secretary):
    client.force_login(secretary)
    data = form_data(client, club, players[:4])
    token = data["form_token"]
    added = client.post(
        reverse("night_create", args=[club.slug]),
        {**data, "action": "add_players", "new_players": "Zoe Quinn"},
    ).content.decode()
    assert f'name="form_token" value="{token}"' in added
    more = client.post(
        reverse("night_create", args=[club.slug]), {**data, "action": "add_table"}
    ).content.decode()
    assert f'name="form_token" value="{token}"' in more
    assert not Night.objects.exists()


def test_another_club_cannot_reach_a_night_by_its_token(
    client, club, other_club, season, players, outsider
):
    """The token is looked up within the asking club only: another club's night is never shown
    for it, and a tampered form still creates the asker's own night."""
    from club.clubs.models import Player, Season

    night = create_night(season, DATE, [(players[:4], 0)], form_token=uuid.uuid4())
    Season.objects.create(
        club=other_club, name="S", start=season.start, end=season.end, rule_set=season.rule_set
    )
    client.force_login(outsider)
    own = [Player.objects.create(club=other_club, name=n) for n in ("W", "X", "Y", "Z")]
    data = form_data(client, other_club, own)
    data["form_token"] = str(night.form_token)
    response = client.post(reverse("night_create", args=[other_club.slug]), data)
    theirs = Night.objects.get(season__club=other_club)
    assert response.status_code == 302
    assert response["Location"].endswith(f"/c/{other_club.slug}/nights/{theirs.pk}/")
    assert theirs.form_token not in (None, night.form_token)
    assert list(Night.objects.filter(season__club=club)) == [night]


def test_players_seated_at_another_open_night_that_day_are_warned_about(
    client, club, season, players, secretary
):
    earlier = create_night(season, DATE, [(players[:4], 0)])
    client.force_login(secretary)
    data = form_data(client, club, [players[2], players[3], *players[4:6]])
    response = client.post(reverse("night_create", args=[club.slug]), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert Night.objects.count() == 1, "nothing is created before the secretary says so"
    assert "Cat is seated at table 1 of" in page and "Dan is seated at table 1 of" in page
    assert "Eve is seated" not in page
    assert f"/nights/{earlier.pk}/" in page
    # Going ahead creates it, once.
    response = client.post(
        reverse("night_create", args=[club.slug]), {**data, "action": "create_anyway"}
    )
    assert response.status_code == 302
    assert Night.objects.count() == 2
    # A closed night, or another day, is no clash.
    from club.play.services.nights import close_night

    for night in Night.objects.all():
        close_night(night, secretary)
    data = form_data(client, club, [players[2], players[3], *players[4:6]])
    assert client.post(reverse("night_create", args=[club.slug]), data).status_code == 302


def test_distinct_titles(club, season, players):
    assert distinct_title(club, DATE) == ""
    create_night(season, DATE, [(players[:4], 0)])
    assert distinct_title(club, DATE) == "Club night 20 Nov 2026 (2)"
    assert distinct_title(club, DATE + dt.timedelta(days=7)) == ""
    create_night(season, DATE, [(players[4:8], 0)], title="Christmas drive")
    assert distinct_title(club, DATE, "Christmas drive") == "Christmas drive (2)"
    assert distinct_title(club, DATE, "Christmas drive ") == "Christmas drive (2)"
    create_night(season, DATE, [(players[:4], 0)])
    assert distinct_title(club, DATE) == "Club night 20 Nov 2026 (3)"
    long = "x" * 80
    create_night(season, DATE, [(players[:4], 0)], title=long)
    assert distinct_title(club, DATE, long) == "x" * 76 + " (2)"


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_with_one_token_make_one_night(season, players, secretary):
    """Real threads against the test database (a file for SQLite; PostgreSQL with DATABASE_URL):
    the unique token decides, and the loser is given the winner's night."""
    token = uuid.uuid4()
    start = threading.Barrier(2)
    results: list = []
    errors: list[BaseException] = []

    def create() -> None:
        try:
            start.wait(5)
            results.append(
                create_night_once(
                    season, DATE, [(players[:4], 0)], form_token=token, user=secretary
                )
            )
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=create) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors
    assert Night.objects.count() == 1
    night = Night.objects.get()
    assert sorted(created for _, created in results) == [False, True]
    assert all(n.pk == night.pk for n, _ in results)


def test_a_tournament_form_sent_twice_makes_one_tournament(client, club, season, players, scorer):
    from club.tournaments.models import Tournament

    client.force_login(scorer)
    page = client.get(reverse("tournament_create", args=[club.slug])).content.decode()
    token = re.search(r'name="form_token" value="([0-9a-f-]+)"', page).group(1)
    data = {
        "form_token": token,
        "name": "Christmas Drive",
        "date": DATE.isoformat(),
        "season": "",
        "rounds": 3,
        "hands_per_round": 4,
        "scoring_method": "amounts",
        "counts_in_standings": "on",
        "players": [p.pk for p in players[:8]],
        "new_players": "",
    }
    url = reverse("tournament_create", args=[club.slug])
    first = client.post(url, data)
    again = client.post(url, data, follow=True)
    assert Tournament.objects.count() == 1
    made = Tournament.objects.get()
    assert first.status_code == 302
    assert again.redirect_chain[-1][0].endswith(f"/tournaments/{made.pk}/")
    assert "already created by this form" in again.content.decode()
    assert made.night.form_token == uuid.UUID(token)


def test_changing_tables_warns_about_players_at_another_open_night(
    client, club, season, players, secretary
):
    """The page for late arrivals: seating someone already at another open night that day asks
    first, as creating a night does."""
    other = create_night(season, DATE, [(players[:4], 0)])
    night = create_night(season, DATE, [(players[4:8], 0)])
    table = night.tables.get()
    client.force_login(secretary)
    url = reverse("night_tables_edit", args=[club.slug, night.pk])
    data = {
        "tables-TOTAL_FORMS": "1",
        "tables-INITIAL_FORMS": "1",
        "tables-MIN_NUM_FORMS": "0",
        "tables-MAX_NUM_FORMS": "8",
        "tables-0-table": str(table.pk),
        "tables-0-first_dealer": "1",
        "action": "save",
    }
    for n, player in enumerate([*players[4:8], players[0]], start=1):
        data[f"tables-0-seat_{n}"] = str(player.pk)
    response = client.post(url, data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Ann is seated at table 1 of" in page and f"/nights/{other.pk}/" in page
    assert table.seats.count() == 4, "nothing saved before the secretary says so"
    response = client.post(url, {**data, "action": "save_anyway"})
    assert response.status_code == 302
    assert [s.player.name for s in table.seats.order_by("position")] == [
        "Eve",
        "Fay",
        "Gus",
        "Hal",
        "Ann",
    ]
