"""Audit events outlive what they describe. Deleting a night keeps its hands' events,
which still say which night they were about; the club's audit page shows the deleted nights and
their history; the admin cannot delete scored hands through a cascade."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.clubs.models import AuditEvent
from club.play.models import Hand, Night, Table
from club.play.services.hands import delete_hand
from club.play.services.night_setup import delete_night
from tests.kits.scorebook import play


@pytest.fixture
def scored(night, players, secretary):
    ann, bob, eve = players[0], players[1], players[4]
    first = play(night, secretary, ann)
    play(night, secretary, bob, contract="misere", tricks=0)
    play(night, secretary, eve, table=2)
    return first


def test_deleting_a_night_keeps_its_hands_events_with_the_night_named(
    night, scored, secretary, club
):
    ids = set(AuditEvent.objects.filter(night=night).values_list("id", flat=True))
    assert len(ids) == 3  # three hands entered (the fixture's night has no user to record)
    delete_night(night, secretary)
    assert not Night.objects.filter(pk=night.pk).exists()
    kept = AuditEvent.objects.filter(id__in=ids)
    assert kept.count() == 3
    assert {e.night_id for e in kept} == {None}
    assert {e.night_label for e in kept} == {"Club night 20 Nov 2026"}
    assert sorted(e.subject for e in kept if e.subject.startswith("Table")) == [
        "Table 1, hand 1",
        "Table 1, hand 2",
        "Table 2, hand 1",
    ]
    deletion = AuditEvent.objects.get(action="delete", club=club)
    assert deletion.night_label == "Club night 20 Nov 2026"
    assert deletion.before["hands"] == 3


def test_a_deleted_hands_event_is_kept_too(night, scored, secretary):
    delete_hand(scored, secretary)
    assert AuditEvent.objects.filter(night=night, action="delete").count() == 1
    assert AuditEvent.objects.filter(night=night, subject="Table 1, hand 1").count() == 2


def test_club_audit_page_shows_deleted_nights_and_their_history(
    client, night, scored, secretary, club
):
    delete_night(night, secretary)
    client.force_login(secretary)
    url = reverse("club_audit", args=[club.slug])
    page = client.get(url).content.decode()
    assert "Deleted nights" in page
    assert "Club night 20 Nov 2026</a>: 4 events" in page  # 3 hands, deleted
    history = client.get(url, {"night": "Club night 20 Nov 2026"}).content.decode()
    assert "History of Club night 20 Nov 2026 (deleted)" in history
    assert history.count("<li>\n      <div><time") == 4
    assert "entered Table 2, hand 1" in history
    assert "deleted Club night 20 Nov 2026" in history


def test_club_audit_page_links_nights_that_still_exist(client, night, scored, secretary, club):
    client.force_login(secretary)
    page = client.get(reverse("club_audit", args=[club.slug])).content.decode()
    assert reverse("night_detail", args=[club.slug, night.pk]) in page
    assert "No night has been deleted." in page


def test_club_audit_page_queries_do_not_grow(
    client, night, scored, secretary, club, players, django_assert_max_num_queries
):
    client.force_login(secretary)
    url = reverse("club_audit", args=[club.slug])
    with django_assert_max_num_queries(8):
        client.get(url)
    for _ in range(10):
        play(night, secretary, players[0])
    delete_night(night, secretary)
    with django_assert_max_num_queries(8):
        response = client.get(url)
    assert response.content.decode().count("entered Table 1") == 12


@pytest.mark.parametrize(("who", "status"), [("scorer", 403), ("viewer", 403), ("outsider", 404)])
def test_only_the_clubs_secretary_reads_it(client, request, club, scored, who, status):
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("club_audit", args=[club.slug])).status_code == status


def test_anonymous_is_asked_to_log_in(client, club):
    response = client.get(reverse("club_audit", args=[club.slug]))
    assert response.status_code == 302
    assert response["Location"] == reverse("login") + f"?next=/c/{club.slug}/audit/"


@pytest.fixture
def superuser_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("root", "root@example.org", "pw-root")
    client.force_login(user)
    return client


@pytest.mark.parametrize("model", [Night, Table, Hand])
def test_admin_cannot_delete_scored_hands_by_cascade(superuser_client, scored, model):
    row = model.objects.first()
    name = model._meta.model_name
    delete_url = reverse(f"admin:{model._meta.app_label}_{name}_delete", args=[row.pk])
    assert superuser_client.post(delete_url, {"post": "yes"}).status_code == 403
    changelist = reverse(f"admin:{model._meta.app_label}_{name}_changelist")
    response = superuser_client.post(
        changelist, {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"}
    )
    assert model.objects.filter(pk=row.pk).exists()
    assert "delete_selected" not in superuser_client.get(changelist).content.decode()
    assert response.status_code in (200, 302)
    assert Hand.objects.count() == 3


def test_admin_cannot_delete_or_edit_audit_events(superuser_client, scored):
    event = AuditEvent.objects.first()
    delete_url = reverse("admin:clubs_auditevent_delete", args=[event.pk])
    assert superuser_client.post(delete_url, {"post": "yes"}).status_code == 403
    assert AuditEvent.objects.filter(pk=event.pk).exists()
