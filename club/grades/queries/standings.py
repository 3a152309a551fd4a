"""Season standings from the night totals (one row per player and night, kept by the database from
the score lines): a fixed handful of queries whatever the size of the season.

The totals are summed per player in SQL; only the ranking (ties, the qualifying line, best N
nights) happens in Python, on one row per player, with scoring.standings.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Sum
from django.db.models.functions import TruncMonth, TruncQuarter, TruncYear

from club.clubs.models import Club, Player, Season
from club.play.models import Night, NightTotal
from scoring.standings import Method, Totals, best_nights_total, rank

# A trend line or chart has at most this many points: a season of weekly nights is drawn night by
# night; a longer span (a benchmark's 35 years of nights) is drawn by month, quarter or year.
MAX_POINTS = 60


class NightRef(NamedTuple):  # a tuple: a long season has thousands of these
    id: int
    date: dt.date


@dataclass
class Row:
    """One player's line in the standings."""

    player_id: int
    name: str
    nights: int
    hands: int
    declared: int
    made: int
    net: int  # all nights in the range
    points: int  # all nights in the range
    counted: int  # net or points after "best N nights" (the ladder's total)
    value: Fraction  # what the ladder ranks by
    average: Fraction  # per hand played, of net (or points on a points ladder)
    qualified: bool
    position: int = 0  # 1-based order in the ladder, qualified players first
    # Set by the grades' column of the standings page (club/grades/views/grades.py) when it is
    # shown.
    grade: str = ""
    grade_text: str = ""
    grade_key: tuple[int, float] = (0, 0)
    rank: int | None = None  # competition rank among the qualified (1, 2, 2, 4)
    previous_rank: int | None = None  # the same, before the last night
    last_night: int | None = None  # net (or points) won on the last night; None if absent

    @property
    def move(self) -> int | None:
        """Places gained (+) or lost (-) since before the last night; None if new or unranked."""
        if self.rank is None or self.previous_rank is None:
            return None
        return self.previous_rank - self.rank

    @property
    def is_new(self) -> bool:
        """Ranked now, and not before the last night."""
        return self.rank is not None and self.previous_rank is None

    # Sort keys for the table's columns that may be empty.
    @property
    def last_night_key(self) -> int:
        return self.last_night if self.last_night is not None else -(10**12)

    @property
    def move_key(self) -> int:
        move = self.move
        return move if move is not None else -(10**6)


@dataclass
class Ladder:
    season: Season
    method: Method
    date_from: dt.date | None
    date_to: dt.date | None
    nights: list[NightRef]  # nights in the range with any hands, oldest first
    rows: list[Row] = field(default_factory=list)

    @property
    def last_night(self) -> NightRef | None:
        return self.nights[-1] if self.nights else None

    @property
    def qualified(self) -> list[Row]:
        return [r for r in self.rows if r.qualified]

    @property
    def below_line(self) -> list[Row]:
        return [r for r in self.rows if not r.qualified]

    @property
    def uses_points(self) -> bool:
        return self.method is Method.POINTS

    @property
    def best_nights(self) -> int | None:
        """ "Best N nights count" as applied: to net and points ladders, not to averages."""
        if self.method is Method.AVERAGE:
            return None
        return self.season.best_nights


def club_seasons(club: Club) -> list[Season]:
    """The club's seasons, newest first, with the rule sets the pages name."""
    return list(
        Season.objects.filter(club=club)
        .select_related("rule_set", "standings_rule_set")
        .order_by("-start", "-id")
    )


def pick_season(
    seasons: Sequence[Season], season_id: str | int | None, today: dt.date
) -> Season | None:
    """The season asked for (by id), else the current one: the latest to have started by today
    (the club's date, `Club.today()`), else the earliest still to come."""
    if season_id not in (None, ""):
        for season in seasons:
            if str(season.pk) == str(season_id):
                return season
    started = [s for s in seasons if s.start <= today]
    if started:
        return started[0]
    return seasons[-1] if seasons else None


def _in_range(
    qs: QuerySet[Any], date_from: dt.date | None, date_to: dt.date | None, prefix: str = "night__"
) -> QuerySet[Any]:
    """The nights (or their totals) in the date range that count in the standings (a tournament
    can be run apart from them: Night.counts_in_standings)."""
    qs = qs.filter(**{f"{prefix}counts_in_standings": True})
    if date_from:
        qs = qs.filter(**{f"{prefix}date__gte": date_from})
    if date_to:
        qs = qs.filter(**{f"{prefix}date__lte": date_to})
    return qs


def season_nights(
    season: Season, date_from: dt.date | None = None, date_to: dt.date | None = None
) -> list[NightRef]:
    """The season's nights in the range that have any hands, oldest first (one query)."""
    played = NightTotal.objects.filter(night=OuterRef("pk"))
    qs = _in_range(Night.objects.filter(season=season), date_from, date_to, prefix="")
    rows = qs.filter(Exists(played)).order_by("date", "id").values_list("id", "date")
    return [NightRef._make(row) for row in rows]


def player_totals(
    season: Season,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    last_night_id: int = 0,
) -> QuerySet[Any]:
    """The standings' aggregate: per player, the sums of their night totals in the range, and
    what the last night added (one GROUP BY over the night totals; the names are read apart, as
    grouping by them too keeps PostgreSQL from a parallel aggregate)."""
    on_last = Q(night_id=last_night_id)
    totals: QuerySet[Any] = (
        _in_range(NightTotal.objects.filter(season=season), date_from, date_to)
        .values("player_id")
        .annotate(
            n_nights=Count("id"),
            n_hands=Sum("hands"),
            n_net=Sum("net"),
            n_points=Sum("points"),
            n_declared=Sum("declared"),
            n_made=Sum("made"),
            last_nights=Count("id", filter=on_last),
            last_hands=Sum("hands", filter=on_last),
            last_net=Sum("net", filter=on_last),
            last_points=Sum("points", filter=on_last),
        )
        .order_by()
    )
    return totals


def ladder(
    season: Season,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    nights: list[NightRef] | None = None,
) -> Ladder:
    """The standings of the season (three queries, four with "best N nights")."""
    method = Method(season.standings_method)
    if nights is None:
        nights = season_nights(season, date_from, date_to)
    result = Ladder(season, method, date_from, date_to, nights)
    last = result.last_night.id if result.last_night else 0
    totals = list(player_totals(season, date_from, date_to, last))
    names = dict(
        Player.objects.filter(pk__in=[t["player_id"] for t in totals]).values_list("pk", "name")
    )
    for t in totals:
        t["player__name"] = names[t["player_id"]]
    best = result.best_nights
    per_night: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    if best is not None:
        per_night_rows = _in_range(
            NightTotal.objects.filter(season=season), date_from, date_to
        ).values_list("player_id", "night_id", "net", "points")
        for player_id, night_id, net, points in per_night_rows:
            per_night[player_id].append((night_id, net, points))

    now: list[tuple[Totals, dict[str, Any]]] = []
    before: list[Totals] = []
    for t in totals:
        counted_net, counted_points = t["n_net"], t["n_points"]
        earlier_net = t["n_net"] - (t["last_net"] or 0)
        earlier_points = t["n_points"] - (t["last_points"] or 0)
        if best is not None:
            nights_of = per_night[t["player_id"]]
            counted_net = best_nights_total((n for _, n, _ in nights_of), best)
            counted_points = best_nights_total((p for _, _, p in nights_of), best)
            earlier = [x for x in nights_of if x[0] != last]
            earlier_net = best_nights_total((n for _, n, _ in earlier), best)
            earlier_points = best_nights_total((p for _, _, p in earlier), best)
        current = Totals(
            t["player__name"],
            counted_net,
            t["n_hands"],
            points=counted_points,
            nights=t["n_nights"],
        )
        now.append((current, t))
        earlier_nights = t["n_nights"] - t["last_nights"]
        if earlier_nights:
            before.append(
                Totals(
                    t["player__name"],
                    earlier_net,
                    t["n_hands"] - (t["last_hands"] or 0),
                    points=earlier_points,
                    nights=earlier_nights,
                )
            )
    result.rows = _rank_rows(season, method, now, before, played_last=last != 0)
    return result


def _rank_rows(
    season: Season,
    method: Method,
    now: list[tuple[Totals, dict[str, Any]]],
    before: list[Totals],
    played_last: bool,
) -> list[Row]:
    minimum = season.min_nights
    previous = {
        s.totals.player: s.rank for s in rank([t for t in before if t.nights >= minimum], method)
    }
    by_name = {totals.player: (totals, raw) for totals, raw in now}
    qualified = rank([t for t, _ in now if t.nights >= minimum], method)
    below = rank([t for t, _ in now if t.nights < minimum], method)
    rows: list[Row] = []
    for standing, is_qualified in [(s, True) for s in qualified] + [(s, False) for s in below]:
        totals, raw = by_name[standing.totals.player]
        measure = raw["n_points"] if method is Method.POINTS else raw["n_net"]
        last = raw["last_points"] if method is Method.POINTS else raw["last_net"]
        rows.append(
            Row(
                player_id=raw["player_id"],
                name=totals.player,
                nights=raw["n_nights"],
                hands=raw["n_hands"],
                declared=raw["n_declared"],
                made=raw["n_made"],
                net=raw["n_net"],
                points=raw["n_points"],
                counted=totals.points if method is Method.POINTS else totals.net,
                value=standing.value,
                average=Fraction(measure, raw["n_hands"]) if raw["n_hands"] else Fraction(0),
                qualified=is_qualified,
                position=len(rows) + 1,
                rank=standing.rank if is_qualified else None,
                previous_rank=previous.get(totals.player) if is_qualified else None,
                last_night=last if played_last and raw["last_nights"] else None,
            )
        )
    return rows


# -- trends: each player's cumulative total, period by period -------------------------------------


@dataclass(frozen=True)
class Trend:
    """Cumulative series on a shared axis of periods (nights, or months/quarters/years)."""

    labels: list[str]  # one per period
    unit: str  # "night", "month", "quarter" or "year"
    series: dict[int, list[int | Fraction]]  # player id -> cumulative value after each period
    nights: int = 0  # nights in the range; more than len(labels) when only the last are drawn
    # player id -> the period of their first hand in the range, for a player with none before
    # the periods drawn (a newcomer): their line starts there.
    first: dict[int, int] = field(default_factory=dict)

    def start(self, player_id: int) -> int:
        return self.first.get(player_id, 0)

    @property
    def is_window(self) -> bool:
        """Only the last nights of a long range are drawn (each from the total before them)."""
        return self.unit == "night" and self.nights > len(self.labels)


def _granularity(nights: Sequence[NightRef]) -> str:
    if len(nights) <= MAX_POINTS:
        return "night"
    first, last = nights[0].date, nights[-1].date
    months = (last.year - first.year) * 12 + last.month - first.month + 1
    if months <= MAX_POINTS:
        return "month"
    if months <= MAX_POINTS * 3:
        return "quarter"
    return "year"


def _period_start(date: dt.date, unit: str) -> dt.date:
    if unit == "month":
        return date.replace(day=1)
    if unit == "quarter":
        return date.replace(month=(date.month - 1) // 3 * 3 + 1, day=1)
    return date.replace(month=1, day=1)


def _label(date: dt.date, unit: str) -> str:
    if unit == "night":
        return f"{date:%-d %b %Y}"
    if unit == "month":
        return f"{date:%b %Y}"
    if unit == "quarter":
        return f"Q{(date.month - 1) // 3 + 1} {date.year}"
    return str(date.year)


_TRUNC = {"month": TruncMonth, "quarter": TruncQuarter, "year": TruncYear}


def trends(
    season: Season,
    nights: Sequence[NightRef],
    player_ids: Iterable[int],
    method: Method | str,
    ladder: Ladder | None = None,
) -> Trend:
    """Cumulative net (points on a points ladder, the running average per hand on an average
    ladder) after each period, for these players, in one query and at most MAX_POINTS periods.

    A range of up to MAX_POINTS nights is drawn night by night. A longer one is drawn by month,
    quarter or year; or, given the `ladder` of the same range (the standings page), night by night
    over its last MAX_POINTS nights, each line starting from the player's total before them (their
    ladder total less what those nights add): the query then reads only those nights' totals."""
    method = Method(method)
    ids = sorted(set(player_ids))
    unit = _granularity(nights)
    if unit != "night" and ladder is not None:
        unit = "night"
        shown = list(nights[-MAX_POINTS:])
    else:
        shown = list(nights)
    if unit == "night":
        keys: list[Any] = [n.id for n in shown]
        labels = [_label(n.date, unit) for n in shown]
    else:
        starts = sorted({_period_start(n.date, unit) for n in shown})
        keys, labels = starts, [_label(d, unit) for d in starts]
    if not ids or not shown:
        return Trend(labels, unit, {}, len(nights))
    index = {key: i for i, key in enumerate(keys)}
    qs = NightTotal.objects.filter(
        season=season, player_id__in=ids, night__counts_in_standings=True
    )
    if unit == "night":
        if len(shown) < len(nights):
            qs = qs.filter(night_id__in=keys)
        else:
            qs = qs.filter(night__date__gte=shown[0].date, night__date__lte=shown[-1].date)
        rows = qs.values_list("player_id", "night_id", "hands", "net", "points")
    else:
        rows = (
            qs.filter(night__date__gte=shown[0].date, night__date__lte=shown[-1].date)
            .annotate(period=_TRUNC[unit]("night__date"))
            .values("player_id", "period")
            .annotate(h=Sum("hands"), n=Sum("net"), p=Sum("points"))
            .order_by()
            .values_list("player_id", "period", "h", "n", "p")
        )
    steps: dict[int, list[tuple[int, int]]] = {pid: [(0, 0)] * len(keys) for pid in ids}
    for player_id, key, hands, net, points in rows:
        i = index.get(key)
        if i is None:  # a night with totals but outside the nights given
            continue
        measure = points if method is Method.POINTS else net
        h0, m0 = steps[player_id][i]
        steps[player_id][i] = (h0 + hands, m0 + measure)
    starts_at = _starts(ladder, steps, method) if len(shown) < len(nights) else {}
    series: dict[int, list[int | Fraction]] = {}
    first: dict[int, int] = {}
    for pid, per_period in steps.items():
        hands_so_far, total = starts_at.get(pid, (0, 0))
        if not hands_so_far:
            first[pid] = next((i for i, (h, _) in enumerate(per_period) if h), 0)
        values: list[int | Fraction] = []
        for hands, measure in per_period:
            hands_so_far += hands
            total += measure
            if method is Method.AVERAGE:
                values.append(Fraction(total, hands_so_far) if hands_so_far else Fraction(0))
            else:
                values.append(total)
        series[pid] = values
    return Trend(labels, unit, series, len(nights), first)


def _starts(
    ladder: Ladder | None, steps: dict[int, list[tuple[int, int]]], method: Method
) -> dict[int, tuple[int, int]]:
    """Each player's hands and measure before the nights drawn: the range's totals (from the
    ladder) less the nights drawn."""
    if ladder is None:
        return {}
    rows = {r.player_id: r for r in ladder.rows}
    starts = {}
    for pid, per_period in steps.items():
        row = rows.get(pid)
        if row is None:
            continue
        total = row.points if method is Method.POINTS else row.net
        starts[pid] = (
            row.hands - sum(h for h, _ in per_period),
            total - sum(m for _, m in per_period),
        )
    return starts
