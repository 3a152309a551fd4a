"""How long grades take: a rebuild from scratch, and what keeping them current adds to a hand save.

`python manage.py bench` prints them for its largest club (`bench-1m`: 250,000 hands, a million
score lines), or `python manage.py bench --grades big` for a club of your own:

- rebuild: `services.grades.rebuild` once, wall clock and this process's CPU time, split into
  reading the hands, rating them and writing the snapshots;
- per hand saved: a night is added after the club's last one with a table of four, and hands are
  recorded through the hand service, alternately with the grade hook and with it switched off; the
  medians and their difference are what grades add to a save;
- a correction: the first hand of that night corrected (to the same entry) when it has 24 hands,
  so the 23 after it are rated again; and the same at the start of the club's own last night.
The bench night is deleted afterwards (which re-rates nothing, as it is the last).
"""

from __future__ import annotations

import datetime as dt
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Max

from club.clubs.models import Club, Player, Season
from club.grades.services import grades
from club.play.models import Hand, Night
from club.play.services.hand_entry import HandEntry, next_hand, revoke_players
from club.play.services.hands import record_hand, update_hand
from club.play.services.night_setup import create_night, delete_night


@dataclass(frozen=True)
class GradeBench:
    club: str
    hands: int
    rebuild_s: float
    rebuild_cpu_s: float
    stages: dict[str, float]
    save_ms: float  # median hand save with grades kept
    save_without_ms: float  # ... with the grade hook switched off
    save_cpu_ms: float  # the same in this process's CPU time (not the database server's)
    save_without_cpu_ms: float
    correction_ms: float  # correcting hand 1 of 24 at the bench night
    night_correction_ms: float | None  # correcting the first hand of the club's last night
    night_hands: int  # hands rated again by that correction


@contextmanager
def _grades_off() -> Iterator[None]:
    saved = grades.recompute_from
    grades.recompute_from = lambda *args, **kwargs: 0
    try:
        yield
    finally:
        grades.recompute_from = saved


def _ms(fn: Callable[[], object], cpu: list[float] | None = None) -> float:
    start, process = time.perf_counter(), time.process_time()
    fn()
    if cpu is not None:
        cpu.append((time.process_time() - process) * 1000)
    return (time.perf_counter() - start) * 1000


def bench_grades(club: Club, runs: int = 24, rebuild: bool = True) -> GradeBench:
    user, _ = get_user_model().objects.get_or_create(username="bench-grades")
    timings: dict[str, float] = {}
    started, cpu = time.perf_counter(), time.process_time()
    rated = grades.rebuild(club, timings) if rebuild else 0
    rebuild_s, rebuild_cpu = time.perf_counter() - started, time.process_time() - cpu

    season = Season.objects.filter(club=club).order_by("-end")[0]
    last = Night.objects.filter(season=season).aggregate(d=Max("date"))["d"] or season.start
    seated = list(Player.objects.filter(club=club).order_by("pk")[:4])
    night = create_night(season, last + dt.timedelta(days=1), [(seated, 0)])
    table = night.tables.get()
    table.night = night
    with_grades: list[float] = []
    without: list[float] = []
    cpu_with: list[float] = []
    cpu_without: list[float] = []
    try:
        for i in range(runs):

            def save(declarer: Player = seated[i % 4]) -> None:
                dealer = next_hand(table)["dealer"]
                entry = HandEntry(dealer=dealer, contract="solo", declarer=declarer, tricks=6)
                record_hand(table, entry, user)

            if i % 2:
                with _grades_off():
                    without.append(_ms(save, cpu_without))
            else:
                with_grades.append(_ms(save, cpu_with))
        first = Hand.objects.filter(table=table).order_by("number")[0]
        correction = _correct(first, user)
        # The club's own last night (before the bench night): its first hand corrected.
        own = (
            Hand.objects.filter(table__night__season=season, table__night__status=Night.Status.OPEN)
            .exclude(table__night=night)
            .order_by("-table__night__date", "-table__night_id", "pk")
            .first()
        )
        night_correction, own_hands = None, 0
        if own is not None:  # seed_demo leaves the last night open
            own_hands = Hand.objects.filter(
                table__night_id=own.table.night_id, pk__gte=own.pk
            ).count()
            night_correction = _correct(own, user)
    finally:
        delete_night(night)
    return GradeBench(
        club.slug,
        rated,
        rebuild_s,
        rebuild_cpu,
        timings,
        statistics.median(with_grades),
        statistics.median(without),
        statistics.median(cpu_with),
        statistics.median(cpu_without),
        correction,
        night_correction,
        own_hands + runs,
    )


def _correct(hand: Hand, user) -> float:
    hand = Hand.objects.select_related("table__night__season").get(pk=hand.pk)
    entry = HandEntry(
        dealer=hand.dealer,
        contract=hand.contract,
        declarer=hand.declarer,
        partner=hand.partner,
        tricks=hand.tricks,
        revokes=tuple(revoke_players(hand)),
        last_trick_by=hand.last_trick_by,
        trump=hand.trump,
        notes=hand.notes,
        penalty=hand.penalty,
        penalty_by=hand.penalty_by,
        turned_suit=hand.turned_suit,
    )
    return _ms(lambda: update_hand(hand, entry, user, hand.version))


def report(result: GradeBench) -> list[str]:
    stages = ", ".join(f"{k} {v:.1f} s" for k, v in result.stages.items())
    return [
        "",
        f"Grades ({result.club}):",
        f"  rebuild: {result.hands:,} hands in {result.rebuild_s:.1f} s wall, "
        f"{result.rebuild_cpu_s:.1f} s CPU ({stages})",
        f"  hand save: {result.save_ms:.1f} ms with grades, {result.save_without_ms:.1f} ms "
        f"without: {result.save_ms - result.save_without_ms:+.1f} ms for grades (medians; in "
        f"this process's CPU {result.save_cpu_ms:.1f} against {result.save_without_cpu_ms:.1f} ms, "
        f"{result.save_cpu_ms - result.save_without_cpu_ms:+.1f} ms)",
        f"  correcting hand 1 of a night of 24 hands: {result.correction_ms:.1f} ms",
    ] + (
        [
            f"  correcting the first hand of the club's last open night ({result.night_hands} "
            f"hands rated again): {result.night_correction_ms:.1f} ms"
        ]
        if result.night_correction_ms is not None
        else []
    )
