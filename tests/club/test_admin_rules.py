"""The admin keeps the app's rules. A closed night and its hands are read-only there,
a night's season is fixed once it has hands (and is always one of its own club's), and every
change to club data made there writes an audit event as the app does."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from club.clubs.models import AuditEvent, Player, Season
from club.clubs.services.setup import rule_set_from_preset
from club.play.models import Hand, Night
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.nights import close_night


@pytest.fixture
def root(django_user_model):
    return django_user_model.objects.create_superuser("root", "root@example.org", "pw-root")


@pytest.fixture
def admin_client(client, root):
    client.force_login(root)
    return client


@pytest.fixture
def hand(table4, players, secretary):
    ann, bob = players[:2]
    return record_hand(
        table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), secretary
    )


def _night_form(night, **changes) -> dict:
    data = {
        "season": night.season_id,
        "date": night.date.isoformat(),
        "title": night.title,
        "counts_in_standings": "on" if night.counts_in_standings else "",
        "status": night.status,  # ignored: read-only in the admin
        "tables-TOTAL_FORMS": "0",
        "tables-INITIAL_FORMS": "0",
    }
    return data | changes


def test_a_closed_night_and_its_hands_are_read_only_in_the_admin(
    admin_client, night, hand, secretary
):
    close_night(night, secretary)
    url = reverse("admin:play_night_change", args=[night.pk])
    response = admin_client.post(url, _night_form(night, title="Rewritten", status="open"))
    assert response.status_code == 403
    night.refresh_from_db()
    assert night.is_closed and night.title == ""
    hand_url = reverse("admin:play_hand_change", args=[hand.pk])
    assert admin_client.post(hand_url, {"notes": "changed"}).status_code == 403
    delete = reverse("admin:play_hand_delete", args=[hand.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert Hand.objects.get(pk=hand.pk).notes == ""
    night_delete = reverse("admin:play_night_delete", args=[night.pk])
    assert admin_client.post(night_delete, {"post": "yes"}).status_code == 403
    assert Night.objects.filter(pk=night.pk).exists()
    # The page still shows it.
    assert admin_client.get(url).status_code == 200


def test_the_admin_cannot_reopen_a_night(admin_client, night, secretary):
    """Status is never edited in the admin: closing and reopening lock and audit in the app."""
    url = reverse("admin:play_night_change", args=[night.pk])
    response = admin_client.post(url, _night_form(night, status="closed"))
    assert response.status_code == 302
    night.refresh_from_db()
    assert not night.is_closed


def test_a_nights_season_is_fixed_once_it_has_hands(
    admin_client, night, hand, other_club, club, hoyle
):
    theirs = Season.objects.create(
        club=other_club,
        name="Theirs",
        start=dt.date(2026, 1, 1),
        end=dt.date(2026, 12, 31),
        rule_set=rule_set_from_preset(other_club, "hoyle"),
    )
    ours = Season.objects.create(
        club=club, name="Ours", start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31), rule_set=hoyle
    )
    url = reverse("admin:play_night_change", args=[night.pk])
    for season in (theirs, ours):
        response = admin_client.post(url, _night_form(night, season=season.pk))
        assert response.status_code in (200, 302)
        night.refresh_from_db()
        assert night.season_id == hand.score_lines.first().season_id != season.pk


def test_a_night_without_hands_moves_only_within_its_club(
    admin_client, night, other_club, club, hoyle
):
    theirs = Season.objects.create(
        club=other_club,
        name="Theirs",
        start=dt.date(2026, 1, 1),
        end=dt.date(2026, 12, 31),
        rule_set=rule_set_from_preset(other_club, "hoyle"),
    )
    url = reverse("admin:play_night_change", args=[night.pk])
    response = admin_client.post(url, _night_form(night, season=theirs.pk))
    assert response.status_code == 200  # the form again, with the error
    night.refresh_from_db()
    assert night.season.club_id == club.pk
    ours = Season.objects.create(
        club=club, name="Ours", start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31), rule_set=hoyle
    )
    assert admin_client.post(url, _night_form(night, season=ours.pk)).status_code == 302
    night.refresh_from_db()
    assert night.season_id == ours.pk


def test_admin_changes_write_audit_events(admin_client, root, club, players, night):
    ann = players[0]
    url = reverse("admin:clubs_player_change", args=[ann.pk])
    form = {"club": club.pk, "name": "Ann Baxter", "active": "on", "email_results": "on"}
    response = admin_client.post(url, form)
    assert response.status_code == 302
    event = AuditEvent.objects.get(user=root, action="update")
    assert (event.club_id, event.before, event.after) == (
        club.pk,
        {"name": "Ann"},
        {"name": "Ann Baxter"},
    )
    # A night's title: the event is in the night's trail.
    url = reverse("admin:play_night_change", args=[night.pk])
    admin_client.post(url, _night_form(night, title="Christmas"))
    event = AuditEvent.objects.filter(user=root, night=night).get()
    assert event.after == {"title": "Christmas"}
    # A new player, then deleted.
    admin_client.post(reverse("admin:clubs_player_add"), form | {"name": "Zed"})
    zed = Player.objects.get(name="Zed")
    assert AuditEvent.objects.filter(user=root, action="create", subject__contains="Zed").exists()
    admin_client.post(reverse("admin:clubs_player_delete", args=[zed.pk]), {"post": "yes"})
    assert not Player.objects.filter(pk=zed.pk).exists()
    deleted = AuditEvent.objects.get(user=root, action="delete")
    assert deleted.before["name"] == "Zed" and deleted.club_id == club.pk
