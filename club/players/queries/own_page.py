"""What a player's own page reads, by their own link: their nights (latest first), their line in
the season's standings and their grade, and one night's sheets for the tables they sat at.

Each is a fixed number of queries whatever the number of nights: the nights are one query on the
night totals, the standing is the standings page's own ladder (club.grades.queries.standings), the
grade the player page's (club.grades.queries.grades), a night's sheets the table page's
(club.play.queries.table_sheet) and its settle-up the night page's (club.play.queries.night).
Nothing is scored here.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q

from club.clubs.models import Club, Player, Season
from club.grades.queries import grades as gq
from club.grades.queries import standings as sq
from club.play.models import Night, NightTotal, ScoreLine, Seat, Table
from club.play.queries.night import NightSummary, night_summary
from club.play.queries.table_sheet import TableSheet, table_sheets
from scoring import grade as core

# The latest nights the page lists; older ones are on the season's statement.
NIGHTS_SHOWN = 50


@dataclass(frozen=True)
class OwnNight:
    """One night the player has a total for, as his page lists it."""

    night_id: int
    date: dt.date
    title: str  # the night's own title, if it has one ("Club night ..." is its date)
    net: int  # his total for the night, in the club's unit (the night total's own figure)
    hands: int
    state: str  # "open", "closed" (provisional) or "published", as Night.state

    @property
    def opens(self) -> bool:
        """Whether his page links to the night: once it is closed (see `own_night`)."""
        return self.state != "open"


def own_nights(player: Player, limit: int = NIGHTS_SHOWN) -> list[OwnNight]:
    """The player's latest nights, latest first, every season: one query."""
    totals = (
        NightTotal.objects.filter(player=player)
        .select_related("night")
        .only(
            "net",
            "hands",
            "night__date",
            "night__title",
            "night__status",
            "night__published_at",
            "night__publish_after",
        )
        .order_by("-night__date", "-night_id")[:limit]
    )
    return [
        OwnNight(t.night_id, t.night.date, t.night.title, t.net, t.hands, t.night.state)
        for t in totals
    ]


@dataclass(frozen=True)
class Standing:
    """The player's line in a season's standings (None when he has not played in it)."""

    season: Season
    row: sq.Row | None
    ranked: int  # players ranked (qualified) in the season
    uses_points: bool


def standing(season: Season, player: Player) -> Standing:
    """The standings page's ladder, the player's row of it (three or four queries)."""
    ladder = sq.ladder(season)
    row = next((r for r in ladder.rows if r.player_id == player.pk), None)
    return Standing(season, row, len(ladder.qualified), ladder.uses_points)


@dataclass(frozen=True)
class OwnGrade:
    shown: bool  # the club shows grades
    grade: core.Grade | None  # None: no rated hands yet


def own_grade(club: Club, player: Player) -> OwnGrade:
    """The player's grade as the player page shows it, when the club shows grades: to the player
    himself, even if he asked not to be graded in public (two queries; one when grades are off)."""
    settings = gq.settings_for(club)
    if not settings.enabled:
        return OwnGrade(False, None)
    return OwnGrade(True, gq.shown(gq.current(player), settings.min_hands))


@dataclass(frozen=True)
class OwnNightSheets:
    night: Night
    tables: list[tuple[Table, TableSheet]]  # the tables he sat at, in order
    summary: NightSummary  # the night's nets and settle-up, as the night page shows them


def own_night(club: Club, player: Player, night_id: int) -> OwnNightSheets | None:
    """The night's sheets for the tables the player sat at (or scored at, if he moved), and the
    night's settle-up; None for a night of another club, a night he did not play in, or one not
    yet closed (its hands may still change; the night page's "provisional" closed night is shown,
    marked so, as the night page shows it to members)."""
    night = (
        Night.objects.select_related("season")
        .filter(pk=night_id, season__club=club, status=Night.Status.CLOSED)
        .first()
    )
    if night is None:
        return None
    tables = list(
        Table.objects.filter(night=night)
        .filter(
            Q(Exists(Seat.objects.filter(table=OuterRef("pk"), player=player)))
            | Q(Exists(ScoreLine.objects.filter(hand__table=OuterRef("pk"), player=player)))
        )
        .order_by("round_number", "number")
    )
    if not tables:
        return None
    for table in tables:
        table.night = night  # the sheet's hands read it: no query
    sheets = table_sheets(tables)
    return OwnNightSheets(night, [(t, sheets[t.pk]) for t in tables], night_summary(night))
