"""Keeping the Solo grade current (the arithmetic is scoring/grade.py).

Hands are rated in the order of `hand_key`: night date, night id, round, then the hand's id (the
order hands were entered: at one table that is their number order, and hands at different tables
of one round share no player, so their order changes nothing). After every rated hand each of its
players has a snapshot (`GradeLine`), so a change to a hand recomputes only from that hand on:

1. the lines from the hand on are deleted;
2. each player's rating just before it is their last line before it (for a player with no line
   after it, simply their current `Grade`);
3. the hands from it on are rated again from there and their lines, the players' night ratings
   (`GradeNight`) and current ratings (`Grade`) written back.

Recording a hand at the end of the night (nearly always the case) re-rates just that hand. None
of this happens in the hand's own request: a save writes one `GradeBacklog` row (its key) in its
transaction, and the task worker (club/operations/services/worker.py), finding the backlog between
tasks, rates the
club's hands again from the earliest waiting key with the club's row locked, so that two catch-ups
of one club take turns while the tables' saves never wait for the grades (and queue no task).
`rebuild` rates everything from scratch; the tests check it gives exactly the same figures as
any sequence of changes, caught up.

Every hand of the club is rated, whatever its season, and also nights that do not count in the
standings (a tournament run apart is still play against real opponents). Re-scoring under another
rule set changes nothing: the grade reads only who made or failed which contract.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Field, Model, OuterRef, Q, Subquery
from django_tasks import task
from django_tasks.backends.immediate import ImmediateBackend

from club.clubs.models import AuditEvent, Club, Player
from club.clubs.services import signals as club_signals
from club.core.prepared import PreparedInsert
from club.grades.models import (
    Grade,
    GradeBacklog,
    GradeLine,
    GradeNight,
    GradeOptOut,
    GradeSettings,
)
from club.play.models import Hand, Night, ScoreLine
from club.play.services import signals
from scoring import grade as core

log = logging.getLogger(__name__)

COPY_FROM = 5000  # rows from which PostgreSQL's COPY writes the snapshots


def sort_key(date: dt.date, night_id: int, round_number: int, hand_id: int) -> str:
    """The order hands are rated in, as text that sorts the same way."""
    return f"{date.isoformat()}|{night_id:012d}|{round_number:04d}|{hand_id:012d}"


def hand_key(hand: Hand) -> str:
    table = hand.table
    return sort_key(table.night.date, table.night_id, table.round_number, hand.pk)


def _parse(key: str) -> tuple[dt.date, int, int, int]:
    date, night, round_number, hand = key.split("|")
    return dt.date.fromisoformat(date), int(night), int(round_number), int(hand)


def _hands_from(key: str) -> Q:
    """Hands at or after `key` in rating order (every hand for an empty key)."""
    if not key:
        return Q()
    date, night, round_number, hand = _parse(key)
    same_date = Q(table__night__date=date)
    same_night = same_date & Q(table__night_id=night)
    same_round = same_night & Q(table__round_number=round_number)
    return (
        Q(table__night__date__gt=date)
        | (same_date & Q(table__night_id__gt=night))
        | (same_night & Q(table__round_number__gt=round_number))
        | (same_round & Q(id__gte=hand))
    )


def _nights_from(key: str) -> Q:
    if not key:
        return Q()
    date, night, _, _ = _parse(key)
    return Q(date__gt=date) | Q(date=date, night_id__gte=night)


@dataclass(frozen=True)
class _Hand:
    hand: core.GradeHand
    hand_id: int
    night_id: int
    date: dt.date


def _load_hands(club_id: int, key: str, exclude: Iterable[int]) -> list[_Hand]:
    """The club's rated hands from `key` on (all of them for an empty key), in rating order."""
    hands = Hand.objects.filter(_hands_from(key), table__night__season__club_id=club_id)
    exclude = list(exclude)
    if exclude:
        hands = hands.exclude(pk__in=exclude)
    rows = list(
        hands.values_list(
            "pk",
            "table__night_id",
            "table__night__date",
            "table__round_number",
            "contract",
            "declarer_id",
            "partner_id",
            "made",
            "last_trick_by_id",
        )
    )
    if not rows:
        return []
    players: dict[int, list[str]] = defaultdict(list)
    lines = (
        ScoreLine.objects.filter(hand__in=hands)
        if key
        else ScoreLine.objects.filter(season__club_id=club_id)
    )
    for hand_id, player_id in lines.values_list("hand_id", "player_id").order_by("hand_id", "pk"):
        players[hand_id].append(str(player_id))

    def key_of(pk: int | None) -> str | None:
        return None if pk is None else str(pk)

    found = []
    for pk, night_id, date, round_number, contract, declarer, partner, made, last in rows:
        rated = core.grade_hand(
            sort_key(date, night_id, round_number, pk),
            date.toordinal(),
            players[pk],
            contract,
            key_of(declarer),
            key_of(partner),
            made,
            key_of(last),
        )
        if rated is not None:
            found.append(_Hand(rated, pk, night_id, date))
    found.sort(key=lambda h: h.hand.order)
    return found


def _ratings_before(
    club_id: int, key: str, players: set[int], moved: set[int]
) -> dict[int, core.Rating]:
    """Each player's rating just before `key`: the current one for players with no line from
    `key` on, else their last line before it."""
    ratings = {
        g.player_id: g.rating
        for g in Grade.objects.filter(club_id=club_id, player_id__in=players - moved)
    }
    if moved and key:
        last = (
            GradeLine.objects.filter(player=OuterRef("pk"), sort_key__lt=key)
            .order_by("-sort_key")
            .values("pk")[:1]
        )
        ids = Player.objects.filter(pk__in=moved).annotate(last=Subquery(last)).values("last")
        for line in GradeLine.objects.filter(pk__in=ids):
            ratings[line.player_id] = line.rating
    return ratings


def _columns(model: type[Model], fields: list[str]) -> list[str]:
    """The database columns of these fields (plain columns all: no relation's reverse side)."""
    return [cast("Field[Any, Any]", model._meta.get_field(f)).column for f in fields]


def _write(model: type[Model], fields: list[str], rows: list[tuple[Any, ...]]) -> None:
    """Insert derived rows (tuples in the order of `fields`): COPY on PostgreSQL for many rows (a
    rebuild writes a million), bulk_create otherwise."""
    if not rows:
        return
    columns = _columns(model, fields)
    if connection.vendor == "postgresql" and len(rows) >= COPY_FROM:
        sql = f"COPY {model._meta.db_table} ({', '.join(columns)}) FROM STDIN"
        with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)
        return
    model._default_manager.bulk_create(
        [model(**dict(zip(columns, row, strict=True))) for row in rows], batch_size=2000
    )


LINE_FIELDS = ["club", "hand", "player", "night", "sort_key", "mu", "sigma", "hands", "day"]
NIGHT_FIELDS = ["club", "player", "night", "date", "mu", "sigma", "hands", "day"]
GRADE_FIELDS = ["club", "player", "mu", "sigma", "hands", "day"]


def recompute_from(
    club_id: int,
    key: str,
    exclude: Iterable[int] = (),
    timings: dict[str, float] | None = None,
    saved: Hand | None = None,
) -> int:
    """Rate the club's hands again from the hand at `key` on (all of them for ""), leaving out
    the hands `exclude` (about to be deleted); returns how many hands were rated.

    `saved` is the hand at `key` when it was just recorded or corrected: if no rated hand comes
    after it (a hand recorded at the end of the night), only it is rated, and its players' night
    and current ratings are upserted, in a few small queries. `timings`, if
    given, gets the seconds spent reading, rating and writing, and this process's CPU seconds in
    each (`name cpu`): on a busy machine the wall clock says more about the neighbours."""
    clock = [time.perf_counter(), time.process_time()]

    def lap(name: str) -> None:
        if timings is not None:
            now, cpu = time.perf_counter(), time.process_time()
            timings[name] = timings.get(name, 0.0) + now - clock[0]
            timings[f"{name} cpu"] = timings.get(f"{name} cpu", 0.0) + cpu - clock[1]
            clock[:] = [now, cpu]

    with transaction.atomic():
        _lock_club(club_id)
        if saved is not None and not _rated_from(club_id, key):
            return _rate_last(club_id, saved)
        later = GradeLine.objects.filter(club_id=club_id)
        if key:
            later = later.filter(sort_key__gte=key)
        moved = set(later.values_list("player_id", flat=True).distinct().order_by())
        if moved:
            later._raw_delete(later.db)
        hands = _load_hands(club_id, key, exclude)
        playing = {int(p) for h in hands for p in h.hand.players}
        touched = moved | playing
        if not touched:
            return 0
        before = _ratings_before(club_id, key, touched, moved)
        lap("read")
        ratings = {str(p): r for p, r in before.items()}
        lines: list[tuple[Any, ...]] = []
        night_after: dict[tuple[int, int], tuple[Any, ...]] = {}
        for h in hands:
            after = core.rate_hand(ratings, h.hand)
            ratings.update(after)
            order = h.hand.order
            for player, r in after.items():
                pid = int(player)
                lines.append(
                    (club_id, h.hand_id, pid, h.night_id, order, r.mu, r.sigma, r.hands, r.day)
                )
                night_after[pid, h.night_id] = (
                    club_id, pid, h.night_id, h.date, r.mu, r.sigma, r.hands, r.day
                )  # fmt: skip
        lap("rate")
        _write(GradeLine, LINE_FIELDS, lines)
        _refresh_nights(club_id, key, touched, night_after)
        _refresh_current(club_id, touched, {int(p): r for p, r in ratings.items()})
        lap("write")
    return len(hands)


def _rated(hand: Hand, players: list[str]) -> _Hand | None:
    table = hand.table
    date = table.night.date

    def key_of(pk: int | None) -> str | None:
        return None if pk is None else str(pk)

    rated = core.grade_hand(
        sort_key(date, table.night_id, table.round_number, hand.pk),
        date.toordinal(),
        players,
        hand.contract,
        key_of(hand.declarer_id),
        key_of(hand.partner_id),
        hand.made,
        key_of(hand.last_trick_by_id),
    )
    return None if rated is None else _Hand(rated, hand.pk, table.night_id, date)


def _rate_last(club_id: int, hand: Hand) -> int:
    """Rate a hand after which no rated hand comes, from its players' current ratings: one read
    and three inserts (the night's and current ratings upserted), in plain SQL, as this runs in
    every hand save."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.player_id, g.mu, g.sigma, g.hands, g.day FROM {ScoreLine._meta.db_table} s "
            f"LEFT JOIN {Grade._meta.db_table} g ON g.player_id = s.player_id "
            "WHERE s.hand_id = %s ORDER BY s.id",
            [hand.pk],
        )
        rows = cursor.fetchall()
        found = _rated(hand, [str(row[0]) for row in rows])
        if found is None:
            return 0
        before = {
            str(pid): core.Rating(mu, sigma, n, day)
            for pid, mu, sigma, n, day in rows
            if mu is not None
        }
        after = core.rate_hand(before, found.hand)
        lines, nights, grades = [], [], []
        for player, r in after.items():
            pid = int(player)
            rating = (r.mu, r.sigma, r.hands, r.day)
            lines.append((club_id, hand.pk, pid, found.night_id, found.hand.order, *rating))
            nights.append((club_id, pid, found.night_id, found.date, *rating))
            grades.append((club_id, pid, *rating))
        update = (
            "ON CONFLICT ({}) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "hands = excluded.hands, day = excluded.day"
        )
        for model, fields, values, conflict in (
            (GradeLine, LINE_FIELDS, lines, None),
            (GradeNight, NIGHT_FIELDS, nights, "player_id, night_id"),
            (Grade, GRADE_FIELDS, grades, "player_id"),
        ):
            columns = _columns(model, fields)
            one = "(" + ", ".join(["%s"] * len(columns)) + ")"
            cursor.execute(
                f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) VALUES "
                + ", ".join([one] * len(values))
                + (" " + update.format(conflict) if conflict else ""),
                [value for row in values for value in row],
            )
    return 1


def _lock_club(club_id: int) -> None:
    """Changes to one club's grades take turns (PostgreSQL; SQLite has one writer at a time,
    and the hand service has written by the time grades are kept).

    FOR NO KEY UPDATE, not FOR UPDATE: it still makes two catch-ups take turns, but leaves the
    key share locks that every row referring to the club takes (an audit event, a debt, a grade
    backlog row) free. With FOR UPDATE a catch-up holding the club and waiting for a night that a
    close or a publish holds, while that close waited to write a row of the club, deadlocked."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT 1 FROM {Club._meta.db_table} WHERE id = %s FOR NO KEY UPDATE", [club_id]
            )


def _rated_from(club_id: int, key: str) -> bool:
    """Whether any rated hand comes at or after `key`."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {GradeLine._meta.db_table} WHERE club_id = %s AND sort_key >= %s "
            "LIMIT 1",
            [club_id, key],
        )
        return cursor.fetchone() is not None


def _refresh_nights(
    club_id: int, key: str, touched: set[int], night_after: dict[tuple[int, int], tuple[Any, ...]]
) -> None:
    """The touched players' night ratings from the night of `key` on: that night's from its lines
    before `key` and the new ones, the later nights' from the new lines alone."""
    stale = GradeNight.objects.filter(_nights_from(key), club_id=club_id)
    if key:
        stale = stale.filter(player_id__in=touched)
        date, night_id, _, _ = _parse(key)
        # The night's lines before `key`: a range of the (club, sort_key) index.
        night_start = sort_key(date, night_id, 0, 0)
        kept = (
            GradeLine.objects.filter(
                club_id=club_id,
                sort_key__gte=night_start,
                sort_key__lt=key,
                night_id=night_id,
                player_id__in=touched,
            )
            .order_by("sort_key")
            .values_list("player_id", "mu", "sigma", "hands", "day")
        )
        last_kept = {row[0]: row for row in kept}  # in order, so each player's last line wins
        for pid, mu, sigma, hands, day in last_kept.values():
            # A player who also played after `key` that night has a newer rating already.
            night_after.setdefault(
                (pid, night_id), (club_id, pid, night_id, date, mu, sigma, hands, day)
            )
    stale._raw_delete(stale.db)
    _write(GradeNight, NIGHT_FIELDS, list(night_after.values()))


def _refresh_current(club_id: int, touched: set[int], ratings: dict[int, core.Rating]) -> None:
    stale = Grade.objects.filter(club_id=club_id, player_id__in=touched)
    stale._raw_delete(stale.db)
    rows = [
        (club_id, pid, r.mu, r.sigma, r.hands, r.day)
        for pid, r in ratings.items()
        if pid in touched and r.day is not None
    ]
    _write(Grade, GRADE_FIELDS, rows)


def rebuild(club: Club, timings: dict[str, float] | None = None) -> int:
    """Rate every hand of the club from scratch; returns how many hands were rated."""
    with transaction.atomic():
        for model in (GradeLine, GradeNight, Grade):
            rows = model.objects.filter(club=club)
            rows._raw_delete(rows.db)
        return recompute_from(club.pk, "", timings=timings)


# -- the hooks the hand and night services call -----------------------------------------------


# Written by every save: its INSERT built once a process.
_BACKLOG: PreparedInsert[GradeBacklog] = PreparedInsert(GradeBacklog)


def _queue(club_id: int, key: str) -> None:
    """Note the change: one INSERT, inside the caller's transaction, so that a saved hand and
    its catch-up are kept or lost together. The task worker finds the backlog between tasks
    (club/operations/services/worker.py) and catches the club up; a save queues no task of its own.
    Where tasks run
    at once, in the request (the demo's `TASKS_BACKEND=immediate`), there is no worker: the
    catch-up runs as soon as the change is committed."""
    _BACKLOG.create(GradeBacklog(club_id=club_id, from_key=key))
    if isinstance(drain_grades.get_backend(), ImmediateBackend):
        transaction.on_commit(lambda: _enqueue(club_id))


def _enqueue(club_id: int) -> None:
    try:
        drain_grades.enqueue(club_id)
    except Exception:  # a catch-up failing must not undo a saved hand: publish_due catches up
        log.exception("Could not catch up the grades of club %s", club_id)


def waiting() -> bool:
    """Whether any club's grades are behind its hands (the worker looks between tasks)."""
    return GradeBacklog.objects.exists()


def rebuild_later(club: Club) -> None:
    """Rate every hand of the club again, once the caller's transaction commits (an import)."""
    _queue(club.pk, "")


def hand_saved(hand: Hand) -> None:
    """A hand was recorded or corrected: its grades are rated again from it on, after the save."""
    _queue(hand.table.night.season.club_id, hand_key(hand))


def hand_deleting(hand: Hand) -> None:
    """A hand is about to be deleted: rate the hands after it again without it, now (its own
    lines go with it). Not left to the catch-up: once the hand and its lines are gone, its
    players' current grades would still count it, with nothing left to say from where. A
    deletion is rare; the saves, many at once, are what must not wait on the club's lock."""
    recompute_from(hand.table.night.season.club_id, hand_key(hand), exclude=[hand.pk])


def drain(club_id: int) -> int:
    """Catch the club's grades up with every change waiting in its backlog: rate again from the
    earliest waiting key, as one correction would. Returns how many hands were rated."""
    with transaction.atomic():
        _lock_club(club_id)
        waiting = list(
            GradeBacklog.objects.filter(club_id=club_id)
            .order_by("from_key")
            .values_list("pk", "from_key")
        )
        if not waiting:
            return 0
        GradeBacklog.objects.filter(pk__in=[pk for pk, _ in waiting]).delete()
        key = waiting[0][1]
        saved = None
        if len(waiting) == 1 and key:
            # One hand recorded since the last catch-up (nearly always): it alone is rated when
            # no rated hand comes after it.
            saved = Hand.objects.select_related("table__night").filter(pk=_parse(key)[3]).first()
        return recompute_from(club_id, key, saved=saved)


def drain_all() -> int:
    """Catch up every club with a backlog (publish_due runs this, should the worker be down)."""
    clubs = set(GradeBacklog.objects.values_list("club_id", flat=True).distinct().order_by())
    return sum(drain(club_id) for club_id in sorted(clubs))


def updating(club: Club) -> bool:
    """Whether the club's grades are behind its hands (pages then say they are updating)."""
    return GradeBacklog.objects.filter(club=club).exists()


@task()
def drain_grades(club_id: int) -> int:
    """The background catch-up after a hand changed (run by `manage.py worker`)."""
    return drain(club_id)


def night_deleting(night: Night) -> None:
    """A night is about to be deleted: rate the later hands again without its hands."""
    first = sort_key(night.date, night.pk, 0, 0)
    club_id = night.season.club_id
    with transaction.atomic():
        doomed = list(Hand.objects.filter(table__night=night).values_list("pk", flat=True))
        if doomed:
            recompute_from(club_id, first, exclude=doomed)


def rebuild_all(clubs: Iterable[Club]) -> dict[str, int]:
    return {club.slug: rebuild(club) for club in clubs}


def update_settings(
    club: Club,
    user: User | None,
    *,
    enabled: bool,
    min_hands: int,
    ladder_by_grade: bool,
    not_public: Iterable[Player],
) -> bool:
    """Save the club's grade settings and who is not graded in public, with one audit event;
    returns whether anything changed."""
    if not 1 <= min_hands <= 10_000:
        raise ValueError("A grade needs between 1 and 10,000 hands.")
    hidden = {p.pk: p for p in not_public}
    if any(p.club_id != club.pk for p in hidden.values()):
        raise ValueError("Only players of this club can be left out of public grades.")
    with transaction.atomic():
        settings, _ = GradeSettings.objects.select_for_update().get_or_create(club=club)
        before_hidden = dict(
            GradeOptOut.objects.filter(player__club=club).values_list("player_id", "player__name")
        )
        before = {
            "enabled": settings.enabled,
            "min_hands": settings.min_hands,
            "ladder_by_grade": settings.ladder_by_grade,
            "not graded in public": sorted(before_hidden.values()),
        }
        after = {
            "enabled": enabled,
            "min_hands": min_hands,
            "ladder_by_grade": ladder_by_grade,
            "not graded in public": sorted(p.name for p in hidden.values()),
        }
        if before == after:
            return False
        settings.enabled, settings.min_hands = enabled, min_hands
        settings.ladder_by_grade = ladder_by_grade
        settings.save()
        GradeOptOut.objects.filter(player__club=club).exclude(player_id__in=hidden).delete()
        GradeOptOut.objects.bulk_create(
            [GradeOptOut(player=p) for pk, p in hidden.items() if pk not in before_hidden]
        )
        changed = sorted(k for k in after if after[k] != before[k])
        AuditEvent.objects.create(
            club=club,
            night=None,
            user=user,
            action=AuditEvent.Action.UPDATE,
            subject="Grade settings",
            before={k: before[k] for k in changed},
            after={k: after[k] for k in changed},
        )
    return True


def _hand_saved(sender: object, hand: Hand, **kwargs: object) -> None:
    hand_saved(hand)


def _hand_deleting(sender: object, hand: Hand, **kwargs: object) -> None:
    hand_deleting(hand)


def connect() -> None:
    """A hand's save and delete reach the grades inside their transactions
    (club/play/services/signals.py)."""
    signals.hand_saved.connect(_hand_saved, dispatch_uid="grades.hand_saved")
    signals.hand_deleting.connect(_hand_deleting, dispatch_uid="grades.hand_deleting")
    signals.night_deleting.connect(_night_deleting, dispatch_uid="grades.night_deleting")
    club_signals.club_purging.connect(_club_purging, dispatch_uid="grades.club_purging")


def _club_purging(sender: object, club: Club, **kwargs: object) -> dict[str, list[int]]:
    return {drain_grades.module_path: [club.pk]}


def _night_deleting(sender: object, night: Night, **kwargs: object) -> None:
    night_deleting(night)
