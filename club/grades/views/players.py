"""A player's page: their season night by night, contracts, partners, best and worst night, and
their line through the season. (The list of players, `player_list`, lives with the club set-up.)"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.cache import never_cache

from club.clubs.models import Club, Player
from club.clubs.queries.access import club_player, club_reader
from club.grades.display.season_chart import value_formatter
from club.grades.display.tables import format_average, format_measure
from club.grades.queries import player as pq
from club.grades.queries import standings as sq
from club.grades.services import signals
from club.grades.views import grades as grade_views
from club.lib import charts
from club.lib.signals import page_extras


@dataclass(frozen=True)
class Figure:
    """A number as the page writes it, with its sign for colouring."""

    text: str
    sign: int

    @property
    def css(self) -> str:
        return "gain" if self.sign > 0 else "loss" if self.sign < 0 else "muted"


def _percent(value: Fraction) -> str:
    return f"{round(value)}%"


@never_cache
@club_reader
def player_detail(request: HttpRequest, club: Club, player_id: int) -> HttpResponse:
    player = club_player(club, player_id)
    seasons = sq.club_seasons(club)
    season = sq.pick_season(seasons, request.GET.get("season"), club.today())
    context: dict = {"club": club, "player": player, "seasons": seasons, "season": season}
    context.update(
        page_extras(signals.player_page, Player, request=request, club=club, player=player)
    )
    if season is None:
        return render(request, "grades/player_detail.html", context)
    points = season.standings_method == "points"

    def money(value: int, signed: bool = True) -> Figure:
        return Figure(club.format_amount(value, signed=signed), value)

    def average(value: Fraction) -> Figure:
        return Figure(format_average(club, value), value.numerator)

    totals = pq.summary(season, player)
    history = pq.night_history(season, player, request.GET.get("page"))
    best, worst = pq.best_and_worst(season, player)
    contract_rows = [
        {
            "name": r.contract.display_name,
            "declared": r.declared,
            "made": r.made,
            "percent": _percent(r.percent_made),
            "gain": money(r.gain),
            "average": average(r.average_gain),
        }
        for r in pq.contracts(season, player)
    ]
    partner_rows = [
        {
            "partner": p,
            "hands": p.hands,
            "made": p.made,
            "percent": _percent(p.percent_made),
            "net": money(p.net),
            "average": average(p.average),
        }
        for p in pq.partnerships(season, player)
    ]
    nights = sq.season_nights(season)
    trend = sq.trends(season, nights, [player.pk], season.standings_method)
    fmt = value_formatter(club, season.standings_method)
    values = trend.series.get(player.pk, [])
    what = {"net": "Cumulative net", "points": "Cumulative points", "average": "Running average"}
    chart = None
    if totals.nights:
        label = what[season.standings_method]
        played = values[trend.start(player.pk) :] or values
        chart = charts.line_chart(
            [charts.Series(player.name, values, trend.start(player.pk))],
            trend.labels,
            title=f"{label} of {player.name}, {season.name}",
            description=(
                f"{label} of {player.name} over {len(trend.labels)} {trend.unit}s of "
                f"{season.name}: {fmt(values[-1])} at the end, best {fmt(max(played))}, "
                f"worst {fmt(min(played))}."
            ),
            value_format=fmt,
            chart_id="player",
        )
    context.update(grade_views.player_sections(request, club, player, season, contract_rows))
    context.update(
        totals=totals,
        net=money(totals.net),
        points_total=format_measure(club, totals.points, True, signed=False) if points else "",
        average=average(totals.average),
        percent_made=_percent(Fraction(100 * totals.made, totals.declared))
        if totals.declared
        else "-",
        history=history,
        nights_rows=[
            {
                "night": n,
                "net": money(n.net),
                "running": money(n.running_net),
                "points": format_measure(club, n.points, True, signed=False),
                "running_points": format_measure(club, n.running_points, True, signed=False),
            }
            for n in history.object_list
        ],
        best=best,
        worst=worst,
        best_net=money(best.net) if best else None,
        worst_net=money(worst.net) if worst else None,
        contract_rows=contract_rows,
        partner_rows=partner_rows,
        uses_points=points,
        chart=chart,
        chart_labels=trend.labels if chart else [],
        chart_rows=charts.data_rows([charts.Series(player.name, values)], fmt) if chart else "",
        chart_caption=f"{what[season.standings_method]}, {trend.unit} by {trend.unit}.",
    )
    return render(request, "grades/player_detail.html", context)


urlpatterns = [
    path("players/<int:player_id>/", player_detail, name="player_detail"),
]
