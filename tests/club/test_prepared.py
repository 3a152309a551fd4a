"""A read compiled once a process (club.core.prepared) gives exactly what its queryset gives:
the same rows, every field converted the same way (dates, times, JSON), the same related objects;
it compiles once, runs one query a call, and shares the object every row names alike."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.db.models import Model
from django.db.models.signals import post_save
from django.db.models.sql.compiler import SQLCompiler
from django.http import Http404
from django.utils import timezone

from club import access
from club.core.prepared import PreparedInsert, PreparedRead
from club.models import AuditEvent, Night, RuleSet, Seat, TableLink
from club.services import table_links as link_service
from club.services.locks import NIGHT_WITH

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict[str, object]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_a_night_read_prepared_is_the_night_its_queryset_reads(night, table4, secretary):
    Night.objects.filter(pk=night.pk).update(
        title="Crown & Anchor's 2nd night", publish_after=timezone.now()
    )
    read = PreparedRead(lambda pk: Night.objects.select_related(*NIGHT_WITH).filter(pk=pk), [int])
    (prepared,) = read.rows(night.pk)
    plain = Night.objects.select_related(*NIGHT_WITH).get(pk=night.pk)
    assert _fields(prepared) == _fields(plain)
    for path in ("season", "season.club", "season.rule_set"):
        a, b = prepared, plain
        for step in path.split("."):
            a, b = getattr(a, step), getattr(b, step)
        assert _fields(a) == _fields(b), path
    assert prepared.season.rule_set.data == plain.season.rule_set.data  # JSON, as a dict
    assert prepared.publish_after.tzinfo is not None  # a time, converted and aware
    assert isinstance(prepared.date, dt.date) and prepared.date == night.date
    assert read.rows(-1) == []


def test_it_compiles_once_and_runs_one_query_a_call(night, table4, django_assert_num_queries):
    read = PreparedRead(lambda pk: Seat.objects.select_related("player").filter(table_id=pk), [int])
    read.rows(table4.pk)
    compiling = mock.patch.object(SQLCompiler, "as_sql", side_effect=AssertionError("compiled"))
    with compiling, django_assert_num_queries(1):
        seats = read.rows(table4.pk)
    assert sorted(s.player.name for s in seats) == sorted(
        s.player.name for s in Seat.objects.filter(table=table4).select_related("player")
    )


def test_a_table_links_read_has_its_seats_and_names_one_table(
    table4, secretary, django_assert_num_queries
):
    link = link_service.night_links(table4.night, secretary)[table4.pk]
    plain = TableLink.objects.get(pk=link.pk)
    with django_assert_num_queries(1):
        found = link_service.find(link.token)
        seats = list(found.table.seats.all())
        names = [s.player.name for s in seats]
        club = found.table.night.season.club
    assert _fields(found) == _fields(plain)
    assert found.issued_at == plain.issued_at and found.revoked_at is None
    assert [s.position for s in seats] == sorted(s.position for s in seats)
    assert names == [s.player.name for s in Seat.objects.filter(table=table4).order_by("position")]
    assert all(s.table is found.table for s in seats)  # one table, not a copy a seat
    assert club.slug == "crown"


def test_a_revoked_or_made_up_token_finds_nothing(table4, secretary):
    link = link_service.night_links(table4.night, secretary)[table4.pk]
    token = link.token
    assert link_service.find(token[:-1] + ("a" if token[-1] != "a" else "b")) is None
    link_service.revoke(table4, secretary)
    assert link_service.find(token) is None


def test_a_link_to_a_table_nobody_sits_at_is_still_found(table4, secretary):
    link = link_service.night_links(table4.night, secretary)[table4.pk]
    Seat.objects.filter(table=table4).delete()
    found = link_service.find(link.token)
    assert found is not None and found.pk == link.pk and list(found.table.seats.all()) == []


def test_a_value_of_another_type_is_refused():
    read = PreparedRead(lambda pk: Night.objects.filter(pk=pk), [int])
    with pytest.raises(TypeError):
        read.rows("1")
    with pytest.raises(TypeError):
        PreparedRead(lambda day: Night.objects.filter(date=day), [object]).rows(object())


def test_a_members_table_read_has_its_seats_and_another_clubs_table_is_a_404(
    rf, club, other_club, table4, secretary, django_assert_num_queries
):
    request = rf.get("/")
    request.user = secretary
    access.can(secretary, club, access.SCORE)  # the membership, read before the table's read
    with django_assert_num_queries(1):
        table = access.get_table_with_seats(request, club, table4.pk, access.SCORE)
        names = [s.player.name for s in table.seats.all()]
        rules = table.night.season.rule_set.rules
    assert table.pk == table4.pk and table.night.season.club is club
    assert names == [s.player.name for s in Seat.objects.filter(table=table4).order_by("position")]
    assert rules == table4.night.season.rule_set.rules
    with pytest.raises(Http404):
        access.get_table_with_seats(request, other_club, table4.pk, access.READ)


def test_a_value_for_a_small_integer_column_is_prepared_on_every_database(
    table4, players, secretary
):
    """PostgreSQL's columns have ranges: a stand-in outside a column's range would compile to
    no query at all, so the stand-ins fit every integer column."""
    read = PreparedRead(
        lambda table_id, position: Seat.objects.filter(table_id=table_id, position=position),
        [int, int],
    )
    (seat,) = read.rows(table4.pk, 2)
    assert seat == Seat.objects.get(table=table4, position=2)
    assert read.rows(table4.pk, 40) == []


# -- a new row by a prepared INSERT -------------------------------------------------------------


def _stored(model, pk) -> dict[str, object]:
    row = _fields(model.objects.get(pk=pk))
    row.pop("id")
    return row


def test_a_row_created_by_a_prepared_insert_is_the_row_save_writes(night, table4, secretary):
    def event() -> AuditEvent:
        return AuditEvent(
            club_id=night.season.club_id,
            night=night,
            night_label="Monday",
            user=secretary,
            action=AuditEvent.Action.CREATE,
            subject="Table 1, hand 1",
            before=None,
            after={"amounts": {"1": -30, "2": 10}, "notes": 'Ann\'s "misère"'},
        )

    sent: list[tuple[object, bool]] = []

    def heard(sender, instance, created, **kwargs):
        sent.append((instance, created))

    post_save.connect(heard, sender=AuditEvent)
    try:
        by_save = event()
        Model.save(by_save)  # the ORM's own insert, past AuditEvent.save
        prepared = PreparedInsert(AuditEvent).create(event())
    finally:
        post_save.disconnect(heard, sender=AuditEvent)
    assert prepared.pk is not None and prepared.pk != by_save.pk
    assert not prepared._state.adding and prepared._state.db == "default"
    assert prepared.at is not None  # auto_now_add, as save sets it
    written, saved = _stored(AuditEvent, prepared.pk), _stored(AuditEvent, by_save.pk)
    assert written.pop("at") >= saved.pop("at")
    assert written == saved
    assert sent == [(by_save, True), (prepared, True)]


def test_a_prepared_insert_refuses_an_unsaved_relation_or_a_saved_row(night, players):
    events = PreparedInsert(AuditEvent)
    unsaved = Night(season=night.season, date=night.date)
    with pytest.raises(ValueError, match="unsaved related object"):
        events.create(AuditEvent(club_id=night.season.club_id, night=unsaved, action="create"))
    saved = events.create(AuditEvent(club_id=night.season.club_id, action="create"))
    with pytest.raises(TypeError):
        events.create(saved)
    assert AuditEvent.objects.count() == 1


def test_a_rule_set_read_twice_is_parsed_once_and_an_edit_is_read_again(hoyle):
    first, second = RuleSet.objects.get(pk=hoyle.pk), RuleSet.objects.get(pk=hoyle.pk)
    assert first.rules is second.rules  # one parse serves both reads
    data = second.data
    data["stakes"]["solo"]["base"] += 5
    RuleSet.objects.filter(pk=hoyle.pk).update(data=data)
    edited = RuleSet.objects.get(pk=hoyle.pk)
    assert edited.rules is not first.rules
    assert edited.rules.to_dict()["stakes"]["solo"]["base"] == data["stakes"]["solo"]["base"]
    # An edit in place of the instance's own data is seen too.
    first.data["stakes"]["solo"]["base"] += 1
    assert first.rules.to_dict()["stakes"]["solo"]["base"] == first.data["stakes"]["solo"]["base"]
