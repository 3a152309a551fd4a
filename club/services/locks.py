"""The row locks every write takes, always in the same order, so that two changes made at the same
moment take turns instead of interleaving (a hand landing in a night being closed) or deadlocking
(two hands deleted at one table).

The order, from the outside in:

1. the night (`lock_night`): every write of a night's tables, hands, settings or status takes it
   first: recording, correcting and deleting hands, closing and reopening, changing tables,
   deleting the night, and every tournament change;
2. the night's season (taken by `lock_night` too): a new ladder rule set
   (services.setup.change_ladder) rescores the season under this lock, so a hand is either
   rescored with the others or scored under the new ladder, never missed;
3. the rule sets a hand is scored under (`lock_rule_sets`), in id order: editing a rule set takes
   the same lock, so it is frozen before its first hand is scored, never after;
4. then tables, hands and entries;
5. last, the club's row, which the grades take (club.services.grades) inside a hand's change.

On SQLite `select_for_update` does nothing: the database lets one writer in at a time, and
`lock_night` takes that write lock at once, which gives the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection
from django.db.models import F, QuerySet

from club.core.prepared import PreparedRead
from club.models import Club, Night, RuleSet, Season, Table


class NightGone(Exception):
    """The night was deleted by someone else meanwhile."""


NIGHT_WITH = (
    "season",
    "season__club",
    "season__rule_set",
    "season__standings_rule_set",
    "tournament",
)


def lock_night(night_id: int, shared: bool = False) -> Night:
    """Lock the night's row, then its season's, then the season's rule sets', and return the night
    as it is now, with its season, club, rule sets and tournament, inside the caller's
    transaction.

    `shared` takes share locks (PostgreSQL's FOR SHARE) instead: new hands at the night's tables
    hold them together, so fifteen tables saving at once do not queue behind one another, while
    everything that takes these rows FOR UPDATE (a close or reopen, a ladder change, a rule set
    edit, a correction or a deletion) still waits for them and they for it. The caller locks the
    table's row itself (two phones at one table take turns).

    On SQLite the first statement takes the database's one write lock (see _sqlite_write_lock),
    which every later writer waits for: the rows are then read in one query."""
    if connection.vendor == "sqlite":
        _sqlite_write_lock(lambda: Night.objects.filter(pk=night_id), "status")
        return _read_night(night_id)
    if shared:
        _share_lock_rows(night_id)
        return _read_night(night_id)
    try:
        night = Night.objects.select_for_update().get(pk=night_id)
    except Night.DoesNotExist:
        raise NightGone("This night was deleted by someone else meanwhile.") from None
    season = lock_season(night.season_id)
    rule_sets = lock_rule_sets([season.rule_set_id, season.standings_rule_set_id])
    season.rule_set = rule_sets[season.rule_set_id]
    if season.standings_rule_set_id is not None:
        season.standings_rule_set = rule_sets[season.standings_rule_set_id]
    night.season = season
    return night


# Read by every save under its lock: compiled once (club.core.prepared).
_NIGHT = PreparedRead(
    lambda night_id: Night.objects.select_related(*NIGHT_WITH).filter(pk=night_id), [int]
)


def _read_night(night_id: int) -> Night:
    """The night with what a hand's save reads of it, after its locks: one query."""
    found = _NIGHT.rows(night_id)
    if not found:
        raise NightGone("This night was deleted by someone else meanwhile.")
    return found[0]


def _share_lock_rows(night_id: int) -> None:
    """lock_night's rows in the same order, FOR SHARE: the night, its season, its rule sets in id
    order (each statement reads the ids the next one locks)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT season_id FROM {Night._meta.db_table} WHERE id = %s FOR SHARE", [night_id]
        )
        row = cursor.fetchone()
        if row is None:
            raise NightGone("This night was deleted by someone else meanwhile.")
        cursor.execute(
            f"SELECT rule_set_id, standings_rule_set_id FROM {Season._meta.db_table} "
            "WHERE id = %s FOR SHARE",
            [row[0]],
        )
        wanted = sorted(pk for pk in cursor.fetchone() if pk is not None)
        cursor.execute(
            f"SELECT id FROM {RuleSet._meta.db_table} WHERE id = ANY(%s) ORDER BY id FOR SHARE",
            [wanted],
        )


def lock_table(table_id: int) -> None:
    """Lock a table's row (after its night's), so that two phones saving at one table take turns.
    One plain statement: every save takes it. SQLite's one write lock is held already."""
    if connection.vendor == "sqlite":
        return
    with connection.cursor() as cursor:
        table = Table._meta.db_table
        cursor.execute(f"SELECT id FROM {table} WHERE id = %s FOR UPDATE", [table_id])
        if cursor.fetchone() is None:
            raise Table.DoesNotExist("This table was deleted meanwhile.")


def lock_season(season_id: int) -> Season:
    """Lock a season's row (after its nights', when a night's write takes it) and return it as it
    is now: a season's rule set change or ladder rescore takes it first."""
    _sqlite_write_lock(lambda: Season.objects.filter(pk=season_id), "name")
    return Season.objects.select_for_update().get(pk=season_id)


def lock_rule_sets(ids: Iterable[int | None]) -> dict[int, RuleSet]:
    """Lock these rule sets' rows in id order and return them as they are now."""
    wanted = sorted({pk for pk in ids if pk is not None})
    _sqlite_write_lock(lambda: RuleSet.objects.filter(pk__in=wanted), "name")
    locked = RuleSet.objects.select_for_update().filter(pk__in=wanted).order_by("pk")
    return {rule_set.pk: rule_set for rule_set in locked}


def lock_club(club_id: int) -> Club:
    """Lock the club's row, before any night's: a club night's draw and "Start tonight" take
    it, so that two secretaries confirming a draw for the same evening, or a draw and a Start
    tonight, make one night.

    FOR NO KEY UPDATE (on PostgreSQL), not FOR UPDATE: the holders still take turns, but the key
    share lock that a hand saved at a card's table takes to write its audit row (which refers
    to the club) is not blocked; with FOR UPDATE, a draw holding the club and waiting for the
    night that save held deadlocked with it."""
    _sqlite_write_lock(lambda: Club.objects.filter(pk=club_id), "name")
    return Club.objects.select_for_update(no_key=True).get(pk=club_id)


def _sqlite_write_lock(rows: Callable[[], QuerySet[Any]], field: str) -> None:
    """SQLite has no row locks: take its one write lock now, with an update that changes nothing,
    as the transaction's first statement, so that a second writer queues here (the busy timeout)
    instead of failing with "database is locked" when it first writes after reading. `rows`
    gives the rows' queryset, built only when that update is needed."""
    if connection.vendor != "sqlite":
        return
    if connection.settings_dict.get("OPTIONS", {}).get("transaction_mode") == "IMMEDIATE":
        return  # BEGIN IMMEDIATE took it when the transaction started (club/settings.py)
    rows().update(**{field: F(field)})
