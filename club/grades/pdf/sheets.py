"""What each printed sheet shows, put together from the pages' own queries (club/queries/) and
the scoring core, so that a sheet always has the same figures as the page it belongs to.

No arithmetic on amounts happens here: the table rows, running totals, nets and settle-up come
from the queries; dealers, sit-outs and trumps on the blank score cards from scoring.table; the
standings from the standings page's table (club.grades.display.tables.StandingsTable, the text of
its CSV) and
chart; a player's figures from the player page's queries, written as that page writes them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils.safestring import SafeString

from club.clubs.models import Club, Season
from club.grades.display.season_chart import CHART_PLAYERS, season_chart
from club.grades.display.tables import StandingsTable
from club.grades.queries import standings as sq
from club.grades.queries.standings import Ladder
from club.play.models import Night


@dataclass(frozen=True)
class StandingsLine:
    cells: list[str]  # the standings table's own text (as on the page and in its CSV)
    qualified: bool


@dataclass(frozen=True)
class StandingsSheet:
    ladder: Ladder
    header: list[str]
    lines: list[StandingsLine]
    chart: SafeString | None
    chart_caption: str
    provisional: bool  # a night in the range is still open

    @property
    def qualified(self) -> list[StandingsLine]:
        return [line for line in self.lines if line.qualified]

    @property
    def below_line(self) -> list[StandingsLine]:
        return [line for line in self.lines if not line.qualified]


def _text(value: object) -> str:
    """A table value as the CSV writes it: None is an empty cell."""
    return "" if value is None else str(value)


def open_nights(season: Season, date_from: dt.date | None, date_to: dt.date | None) -> bool:
    """Whether any night of the season in the range is still open (its figures may change)."""
    nights = Night.objects.filter(season=season, status=Night.Status.OPEN)
    if date_from:
        nights = nights.filter(date__gte=date_from)
    if date_to:
        nights = nights.filter(date__lte=date_to)
    return nights.exists()


def standings_sheet(club: Club, ladder: Ladder) -> StandingsSheet:
    """The standings page's table (every row, in ladder order, the CSV's text but the averages
    as the page says them, "+1.7p") and its chart."""
    table = StandingsTable(ladder, club)
    table.spoken_averages = True
    values = table.as_values()
    header = [_text(v) for v in next(values)]
    lines = [
        StandingsLine([_text(v) for v in cells], row.qualified)
        for cells, row in zip(values, ladder.rows, strict=True)
    ]
    chart, caption = None, ""
    leaders = ladder.rows[:CHART_PLAYERS]
    if leaders and ladder.nights:
        trend = sq.trends(
            ladder.season,
            ladder.nights,
            [r.player_id for r in leaders],
            ladder.method,
            ladder=ladder,
        )
        chart, series = season_chart(club, ladder, leaders, trend, chart_id="sheet")
        caption = f"The leading {len(series)} players, {trend.unit} by {trend.unit}."
    return StandingsSheet(
        ladder=ladder,
        header=header,
        lines=lines,
        chart=chart,
        chart_caption=caption,
        provisional=open_nights(ladder.season, ladder.date_from, ladder.date_to),
    )


# -- a player's statement ------------------------------------------------------------------------
