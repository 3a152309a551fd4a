"""What the standings and player pages read about grades: a fixed handful of queries each, from the
grade tables kept by club/grades/services/grades.py and the score lines' own columns.

Who sees a grade: nobody when the club has turned grades off; otherwise everyone who may read the
club, except that the grade of a player who asked not to be graded in public (`GradeOptOut`) is
shown only to the club's secretaries and to that player (once their account is linked to their
player record: a `user_id` on the player).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery, Sum

import scoring
from club.clubs.models import Club, Player, Season
from club.clubs.queries import access
from club.grades.models import Grade, GradeBacklog, GradeNight, GradeOptOut, GradeSettings
from club.play.models import ScoreLine
from scoring import grade as core

MAX_POINTS = 60  # nights drawn on the grade chart (the latest)


def settings_for(club: Club) -> GradeSettings:
    """The club's grade settings (the defaults, unsaved, when it has none), with `updating`: its
    grades have not caught up with its latest hands yet (club.grades.services.grades.drain). One
    query."""
    row = (
        Club.objects.filter(pk=club.pk)
        .values("grading__id", "grading__enabled", "grading__min_hands", "grading__ladder_by_grade")
        .annotate(updating=Exists(GradeBacklog.objects.filter(club_id=OuterRef("pk"))))
        .first()
    )
    settings = GradeSettings(club=club)
    if row is not None and row["grading__id"] is not None:
        settings.pk = row["grading__id"]
        settings._state.adding = False
        settings.enabled = row["grading__enabled"]
        settings.min_hands = row["grading__min_hands"]
        settings.ladder_by_grade = row["grading__ladder_by_grade"]
    # Not a column: whether a rebuild is under way, for the page.
    settings.updating = bool(row and row["updating"])  # type: ignore[attr-defined]
    return settings


@dataclass(frozen=True)
class Viewer:
    """What the person asking may see of grades in this club."""

    enabled: bool
    min_hands: int
    sees_hidden: bool  # a secretary
    user_id: int | None
    hidden: frozenset[int]  # players not graded in public

    def may_see(self, player: Player | int, own_user_id: int | None = None) -> bool:
        player_id = player if isinstance(player, int) else player.pk
        if not self.enabled:
            return False
        if player_id not in self.hidden or self.sees_hidden:
            return True
        if own_user_id is None and not isinstance(player, int):
            # The link from a player record to an account is read if there is one.
            own_user_id = getattr(player, "user_id", None)
        return own_user_id is not None and own_user_id == self.user_id


def viewer(user: User | AnonymousUser, club: Club, settings: GradeSettings | None = None) -> Viewer:
    settings = settings or settings_for(club)
    if not settings.enabled:
        return Viewer(False, settings.min_hands, False, None, frozenset())
    member = access.membership(user, club)
    hidden = frozenset(
        GradeOptOut.objects.filter(player__club=club).values_list("player_id", flat=True)
    )
    return Viewer(
        True,
        settings.min_hands,
        member is not None and member.is_secretary,
        user.pk if user.is_authenticated else None,
        hidden,
    )


def shown(rating: core.Rating | None, min_hands: int) -> core.Grade | None:
    return None if rating is None else core.shown(rating, min_hands)


# -- the standings page -----------------------------------------------------------------------


@dataclass(frozen=True)
class LadderGrade:
    grade: core.Grade
    change: int | None  # grade points over the nights drawn (None: no earlier rating in them)
    series: list[int]  # the grade after each drawn night the player played


def ladder_grades(
    club: Club,
    player_ids: Iterable[int],
    nights: Sequence[Any],
    until: dt.date | None,
    min_hands: int,
) -> dict[int, LadderGrade]:
    """Each player's grade as at the end of the range (`until`, else now) and its course over
    the `nights` drawn (NightRefs, oldest first): two queries whatever the season's length."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    if until is None:
        at_end = {g.player_id: g.rating for g in Grade.objects.filter(player_id__in=ids)}
    else:
        last = (
            GradeNight.objects.filter(player=OuterRef("pk"), date__lte=until)
            .order_by("-date", "-night_id")
            .values("pk")[:1]
        )
        rows = GradeNight.objects.filter(
            pk__in=Player.objects.filter(pk__in=ids).annotate(last=Subquery(last)).values("last")
        )
        at_end = {g.player_id: g.rating for g in rows}
    drawn = [n.id for n in nights[-MAX_POINTS:]]
    course: dict[int, list[int]] = {pid: [] for pid in ids}
    if drawn:
        order = {night_id: i for i, night_id in enumerate(drawn)}
        course_rows = GradeNight.objects.filter(player_id__in=ids, night_id__in=drawn).values_list(
            "player_id", "night_id", "mu"
        )
        for pid, _night, mu in sorted(course_rows, key=lambda r: order[r[1]]):
            course[pid].append(core.grade_value(mu))
    result = {}
    for pid, rating in at_end.items():
        grade = core.shown(rating, min_hands)
        series = course[pid]
        change = grade.value - series[0] if len(series) > 1 else None
        result[pid] = LadderGrade(grade, change, series)
    return result


# -- the player page ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GradePoint:
    night_id: int
    date: dt.date
    grade: core.Grade


def grade_history(player: Player, min_hands: int) -> list[GradePoint]:
    """The player's grade after each of their last MAX_POINTS nights, oldest first (one query)."""
    rows = GradeNight.objects.filter(player=player).order_by("-date", "-night_id")[:MAX_POINTS]
    return [GradePoint(r.night_id, r.date, core.shown(r.rating, min_hands)) for r in rows][::-1]


def current(player: Player) -> core.Rating | None:
    found = Grade.objects.filter(player=player).first()
    return found.rating if found else None


@dataclass(frozen=True)
class ContractRate:
    """How often a contract is called and made, and what the declarer wins on it on average."""

    called: int
    made: int
    gain: int  # the declarers' total on these hands, in the club's unit

    @property
    def percent_made(self) -> Fraction:
        return Fraction(100 * self.made, self.called) if self.called else Fraction(0)

    @property
    def average(self) -> Fraction:
        return Fraction(self.gain, self.called) if self.called else Fraction(0)


def club_contracts(season: Season) -> dict[scoring.Contract, ContractRate]:
    """Per contract, over every declarer of the season (on the nights that count): how often it
    was called, made, and the declarers' total (one GROUP BY over the declared score lines, the
    same partial index as the player's own contracts)."""
    rows = (
        ScoreLine.objects.filter(season=season, declared=True, night__counts_in_standings=True)
        .values("contract")
        .annotate(n=Count("id"), n_made=Count("id", filter=Q(declared_made=True)), g=Sum("amount"))
        .order_by()
    )
    return {
        scoring.Contract(r["contract"]): ContractRate(r["n"], r["n_made"], r["g"]) for r in rows
    }


@dataclass(frozen=True)
class HeadToHead:
    """Two players' hands at the same table in a season (on the nights that count)."""

    hands: int  # both taking part
    net: int  # the player's total on those hands
    other_net: int  # the other player's total on the same hands
    called: int  # contracts the player called with the other against them
    called_made: int
    other_called: int  # contracts the other called against the player
    other_called_made: int
    together: int  # Prop & Cop hands as partners
    together_made: int


def head_to_head(season: Season, player: Player, other: Player) -> HeadToHead:
    """Two aggregates over each player's own lines on the hands they both played."""

    def lines(who: Player, against: Player) -> QuerySet[ScoreLine]:
        shared = ScoreLine.objects.filter(season=season, player=against).values("hand_id")
        return ScoreLine.objects.filter(
            season=season, player=who, night__counts_in_standings=True, hand_id__in=shared
        )

    def aggregate(who: Player, against: Player) -> dict[str, Any]:
        apart = Q(mate__isnull=True) | ~Q(mate=against)
        return lines(who, against).aggregate(
            n=Count("id"),
            net=Sum("amount", default=0),
            called=Count("id", filter=Q(declared=True) & apart),
            called_made=Count("id", filter=Q(declared_made=True) & apart),
            together=Count("id", filter=Q(mate=against)),
            together_made=Count("id", filter=Q(mate=against, made=True)),
        )

    mine, theirs = aggregate(player, other), aggregate(other, player)
    return HeadToHead(
        hands=mine["n"],
        net=mine["net"],
        other_net=theirs["net"],
        called=mine["called"],
        called_made=mine["called_made"],
        other_called=theirs["called"],
        other_called_made=theirs["called_made"],
        together=mine["together"],
        together_made=mine["together_made"],
    )
