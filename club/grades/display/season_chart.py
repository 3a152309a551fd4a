"""The season chart and how its values are written, shared by the standings page and the printed
standings sheet (so the sheet draws the same lines as the page, without importing the page)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from django.utils.safestring import SafeString

from club.clubs.models import Club
from club.grades.display.tables import format_average, format_measure
from club.grades.queries import standings as q
from club.lib import charts

CHART_PLAYERS = 8  # the leaders drawn on the season chart


def value_formatter(club: Club, method: str) -> Callable[[int | Fraction], str]:
    """How a trend value is written: money, points or an average per hand."""
    points = method == "points"

    def fmt(value: int | Fraction) -> str:
        if method == "average":
            return format_average(club, Fraction(value))
        if isinstance(value, Fraction) and value.denominator != 1:
            return format_average(club, value, points=points)
        return format_measure(club, int(value), points)

    return fmt


def periods(trend: q.Trend) -> str:
    """ "30 nights", "the last 60 of 1,929 nights", "37 years"."""
    count = len(trend.labels)
    unit = trend.unit + ("s" if count != 1 else "")
    if trend.is_window:
        return f"the last {count} of {trend.nights:,} nights"
    return f"{count} {unit}"


def season_chart(
    club: Club, ladder: q.Ladder, rows: list[q.Row], trend: q.Trend, chart_id: str = "season"
) -> tuple[SafeString, list[charts.Series]]:
    """The line chart of these players' cumulative totals, and its series (for the data table)."""
    fmt = value_formatter(club, ladder.method)
    series = [
        charts.Series(r.name, trend.series[r.player_id], trend.start(r.player_id)) for r in rows
    ]
    what = {
        "net": "Cumulative net",
        "points": "Cumulative points",
        "average": "Running average per hand",
    }[ladder.method]
    title = f"{what}, {ladder.season.name}"
    finishes = "; ".join(f"{s.name} {fmt(s.values[-1])}" for s in series if s.values)
    span = periods(trend)
    if trend.labels:
        span += f" from {trend.labels[0]} to {trend.labels[-1]}"
    description = f"{what} of {len(series)} players over {span}. Latest: {finishes}."
    svg = charts.line_chart(
        series,
        trend.labels,
        title=title,
        description=description,
        value_format=fmt,
        chart_id=chart_id,
    )
    return svg, series
