"""A round of N hands a table: the table's form warns at hand N+1, the hand service
refuses it unless the director allows extra hands in the settings (audited), for every role."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from club.clubs.models import AuditEvent
from club.play.models import Hand
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import HandConflict, record_hand
from club.play.services.round_limit import refusal
from club.tournaments.services import tournaments as services
from tests.kits.tournament_kit import field, make_tournament, play_table, tables_of


def text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


@pytest.fixture
def running(season, club, secretary):
    t = make_tournament(season, field(club, 8), rounds=2, hands=2, director=secretary)
    services.start(t)
    t.refresh_from_db()
    return t


@pytest.fixture
def full_table(running, secretary):
    """Table 1 of round 1 with its two hands played."""
    table = tables_of(running, 1)[0]
    play_table(table, secretary, 2)
    return table


def next_entry(table) -> HandEntry:
    seats = [s.player for s in table.seats.order_by("position")]
    return HandEntry(dealer=seats[2 % len(seats)], contract="solo", declarer=seats[0], tricks=6)


def post_hand(client, table, number: int):
    seats = [s.player for s in table.seats.order_by("position")]
    return client.post(
        reverse("hand_create", args=[table.night.season.club.slug, table.pk]),
        {
            "contract": "solo",
            "declarer": seats[3].pk,
            "tricks": 6,
            "dealer": seats[(number - 1) % len(seats)].pk,
            "revoke_by": "",
            "trump": "",
            "notes": "",
            "expected_number": number,
        },
    )


def test_the_service_refuses_a_hand_past_the_round(full_table, secretary):
    with pytest.raises(HandConflict, match="This round is 2 hands a table"):
        record_hand(full_table, next_entry(full_table), secretary)
    assert Hand.objects.filter(table=full_table).count() == 2


def test_a_table_short_of_the_round_is_not_refused(running, secretary):
    table = tables_of(running, 1)[1]
    play_table(table, secretary, 1)
    record_hand(table, next_entry(table), secretary)
    assert Hand.objects.filter(table=table).count() == 2
    assert refusal(running, 2) == "" and refusal(running, 3) != "" and refusal(None, 99) == ""


@pytest.mark.parametrize("role", ["secretary", "scorer"])
def test_the_form_warns_and_the_save_is_refused(client, full_table, role, request):
    client.force_login(request.getfixturevalue(role))
    page = client.get(
        reverse("table_detail", args=[full_table.night.season.club.slug, full_table.pk])
    )
    assert page.status_code == 200
    assert "This round is 2 hands a table and this table has played them: hand 3 is past" in (
        text(page)
    )
    assert "will not be saved unless the director allows extra hands" in text(page)
    response = post_hand(client, full_table, 3)
    assert response.status_code == 409
    assert "hand 3 was not saved" in text(response)
    assert Hand.objects.filter(table=full_table).count() == 2


def test_the_director_allows_extra_hands_and_it_is_audited(client, running, full_table, secretary):
    client.force_login(secretary)
    settings_url = reverse("tournament_settings", args=[running.club.slug, running.pk])
    form = {
        "name": running.name,
        "rounds": running.rounds,
        "hands_per_round": running.hands_per_round,
        "scoring_method": running.scoring_method,
        "is_public": "",
        "counts_in_standings": "on",
        "extra_hands_allowed": "on",
    }
    assert client.post(settings_url, form).status_code == 302
    running.refresh_from_db()
    assert running.extra_hands_allowed
    event = AuditEvent.objects.filter(subject="Tournament settings").latest("at")
    assert event.before == {"extra_hands_allowed": False}
    assert event.after == {"extra_hands_allowed": True}
    assert event.user == secretary
    page = client.get(reverse("table_detail", args=[running.club.slug, full_table.pk]))
    assert "The director allows extra hands, so it will count." in text(page)
    response = post_hand(client, full_table, 3)
    assert response.status_code == 302
    assert Hand.objects.filter(table=full_table).count() == 3
    # Withdrawn again: the fourth is refused.
    form["extra_hands_allowed"] = ""
    client.post(settings_url, form)
    assert post_hand(client, full_table, 4).status_code == 409
    assert Hand.objects.filter(table=full_table).count() == 3


def test_viewers_and_outsiders_cannot_change_the_setting(
    client, running, viewer, outsider, full_table
):
    settings_url = reverse("tournament_settings", args=[running.club.slug, running.pk])
    for user, refused in ((viewer, 403), (outsider, 404)):
        client.force_login(user)
        response = client.post(settings_url, {"extra_hands_allowed": "on", "name": "x"})
        assert response.status_code == refused
    client.logout()
    response = client.post(settings_url, {"extra_hands_allowed": "on", "name": "x"})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    running.refresh_from_db()
    assert not running.extra_hands_allowed
