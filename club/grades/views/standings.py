"""Season standings: the ladder table (sortable, paginated, CSV), trend lines and the season chart.

Readable by the club's members, and by anyone when the club is public; otherwise an anonymous
visitor is sent to log in and a logged-in outsider gets a 404.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.text import slugify
from django_tables2 import RequestConfig

from club.clubs.models import Club, Season
from club.clubs.queries import access
from club.grades.display.season_chart import CHART_PLAYERS, season_chart, value_formatter
from club.grades.display.season_chart import periods as _periods
from club.grades.display.tables import PER_PAGE, StandingsTable
from club.grades.queries import standings as q
from club.grades.views import grades as grade_views
from club.lib import charts, csv_safety


class RangeForm(forms.Form):
    """The season and the date range the standings cover (GET)."""

    fields: dict[str, Any]  # by name, each its own kind of field (choices, queryset)

    season = forms.TypedChoiceField(required=False, coerce=int, empty_value=None)
    date_from = forms.DateField(required=False, label="From")
    date_to = forms.DateField(required=False, label="To")

    def __init__(self, data: Any, seasons: list[Season]) -> None:
        data = {
            "season": data.get("season", ""),
            "date_from": data.get("from", ""),
            "date_to": data.get("to", ""),
        }
        super().__init__(data)
        self.fields["season"].choices = [(s.pk, s.name) for s in seasons]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            raise forms.ValidationError(
                f"From {start:%-d %b %Y} is after To {end:%-d %b %Y}: the dates are reversed. "
                "The whole season is shown; swap them to see the nights between."
            )
        return data

    def value(self, name: str) -> Any:
        return self.cleaned_data.get(name) if self.is_valid() else None


@dataclass
class StandingsPage:
    season: Season | None
    seasons: list[Season]
    form: RangeForm
    ladder: q.Ladder | None


def standings_for(request: HttpRequest, club: Club) -> StandingsPage:
    seasons = q.club_seasons(club)
    form = RangeForm(request.GET, seasons)
    form.is_valid()
    season = q.pick_season(seasons, form.cleaned_data.get("season"), club.today())
    if season is None:
        return StandingsPage(None, seasons, form, None)
    dates = form.cleaned_data if not form.non_field_errors() else {}  # reversed: the season
    ladder = q.ladder(season, dates.get("date_from"), dates.get("date_to"))
    return StandingsPage(season, seasons, form, ladder)


def _trend_label(name: str, values: list, fmt: Callable, trend: q.Trend) -> str:
    return (
        f"{name}: {fmt(values[-1])} over {_periods(trend)} "
        f"(high {fmt(max(values))}, low {fmt(min(values))})"
    )


@access.club_reader
def standings(request: HttpRequest, club: Club) -> HttpResponse:
    page = standings_for(request, club)
    context: dict[str, Any] = {"club": club, "page": page, "season": page.season}
    ladder = page.ladder
    if ladder is not None:
        columns = grade_views.standings_columns(request, club, ladder)
        context["grades_updating"] = columns.pop("grades_updating", False)
        context["grades_shown"] = bool(columns)
        table = StandingsTable(ladder, club, **columns)
        RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
        shown = [bound.record for bound in table.page.object_list]
        leaders = ladder.rows[:CHART_PLAYERS]
        trend = q.trends(
            ladder.season,
            ladder.nights,
            [r.player_id for r in shown + leaders],
            ladder.method,
            ladder=ladder,
        )
        fmt = value_formatter(club, ladder.method)
        for row in shown:
            values = trend.series.get(row.player_id, [])[trend.start(row.player_id) :]
            table.trends[row.player_id] = charts.sparkline(
                values, label=_trend_label(row.name, values, fmt, trend) if values else row.name
            )
        chart, series = season_chart(club, ladder, leaders, trend)
        context.update(
            table=table,
            ladder=ladder,
            chart=chart,
            chart_series=series,
            chart_labels=trend.labels,
            chart_rows=charts.data_rows(series, fmt),
            chart_caption=(
                f"The leading {len(series)} players over {_periods(trend)}, {trend.unit} by "
                f"{trend.unit}; each player's own page has their line."
            ),
            query=request.GET.urlencode(),
        )
    return render(request, "grades/standings.html", context)


@access.club_reader
def standings_csv(request: HttpRequest, club: Club) -> HttpResponse:
    """The standings table as CSV: the same columns, rows and order, all pages at once; amounts
    as numbers in the club's major unit (pounds, not "+£2.62"), named in the header."""
    page = standings_for(request, club)
    if page.ladder is None:
        raise Http404("This club has no seasons yet")
    table = StandingsTable(page.ladder, club, numbers=True)
    RequestConfig(request, paginate=False).configure(table)
    name = slugify(f"{club.slug} {page.ladder.season.name} standings")
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    writer = csv_safety.writer(response)
    for row in table.as_values():
        writer.writerow(row)
    return response


urlpatterns = [
    path("standings/", standings, name="standings"),
    path("standings.csv", standings_csv, name="standings_csv"),
]
