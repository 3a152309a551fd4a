"""Grades on the pages: the standings' grade column, the player page's grade section (grade, chart,
contracts against the club, head to head), and the secretary's grade settings page."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import django_tables2 as tables
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.html import format_html
from django.utils.safestring import SafeString

import scoring
from club.clubs.models import Club, Player, Season
from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.grades.display.tables import format_average
from club.grades.forms.grades import GradeSettingsForm, HeadToHeadForm
from club.grades.models import GradeOptOut
from club.grades.queries import grades as gq
from club.grades.queries import standings as sq
from club.grades.services import grades as services
from club.lib import charts

# -- standings --------------------------------------------------------------------------------


class GradeColumn(tables.Column):
    """The grade, with its uncertainty and its change over the nights drawn; the cell's markup is
    set on each row by `standings_columns`. Not in the CSV or the printed sheet, which are the
    season's ladder (and a sheet or file passed on would carry grades past the privacy rule)."""

    def value(self, record: Any, value: Any) -> str:
        return record.grade_text


def _change(change: int | None) -> str:
    if not change:
        return ""
    return f"▲{change}" if change > 0 else f"▼{-change}"


def standings_columns(request: HttpRequest, club: Club, ladder: sq.Ladder) -> dict[str, Any]:
    """The standings table's extra arguments: none when the club has grades off, else the grade
    column (rows ordered by it when the club ranks its ladder by grade). Two queries."""
    settings = gq.settings_for(club)
    seen = gq.viewer(request.user, club, settings)
    if not seen.enabled:
        return {}
    # The grade as at the end of the range: a past season's at its end, the current one's now.
    until = ladder.date_to or (ladder.season.end if ladder.season.end < club.today() else None)
    found = gq.ladder_grades(
        club, [r.player_id for r in ladder.rows], ladder.nights, until, seen.min_hands
    )
    for row in ladder.rows:
        entry = found.get(row.player_id)
        if entry is None or not seen.may_see(row.player_id):
            what = "Not graded in public" if entry is not None else "No rated hands"
            row.grade = format_html('<span class="muted" title="{}">-</span>', what)
            row.grade_text = ""
            row.grade_key = (0, 0)
            continue
        grade = entry.grade
        change = _change(entry.change)
        text = f"{grade.value:,} ±{grade.plus_minus:,}" + (
            " provisional" if grade.provisional else ""
        )
        label = (
            f"Grade {grade.value:,} ± {grade.plus_minus:,} after {grade.hands:,} rated hands"
            + (f" (provisional until {seen.min_hands:,})" if grade.provisional else "")
            + (f"; {change} over the nights drawn" if change else "")
        )
        row.grade = format_html(
            '<span class="grade{}" title="{}">{}</span>{}',
            " provisional" if grade.provisional else "",
            label,
            text,
            format_html(
                ' <span class="move {}" title="{}">{}</span>',
                "gain" if (entry.change or 0) > 0 else "loss",
                f"The grade's change over the nights shown ({change}), whether or not they "
                "played the last night",
                change,
            )
            if change
            else "",
        )
        row.grade_text = f"{text} {change}" if change else text
        row.grade_key = (1 if grade.provisional else 2, grade.value)
    extra: dict[str, Any] = {
        "extra_columns": [
            (
                "grade",
                GradeColumn(
                    "Grade",
                    order_by=("grade_key",),
                    attrs=_NUM,
                    empty_values=(),
                    exclude_from_export=True,
                ),
            )
        ],
        "sequence": ("...", "grade", "trend"),  # the trend line stays last
    }
    if settings.ladder_by_grade and "sort" not in request.GET:
        extra["order_by"] = ("-grade",)
    extra["grades_updating"] = getattr(settings, "updating", False)
    return extra


_NUM = {"th": {"class": "num"}, "td": {"class": "num grade-cell"}}


# -- the player page --------------------------------------------------------------------------


def _percent(value: Fraction) -> str:
    return f"{round(value)} %"


def player_sections(
    request: HttpRequest, club: Club, player: Player, season: Season, contract_rows: list[dict]
) -> dict[str, Any]:
    """The player page's grade section and head to head, and the club's figures beside the
    player's contracts (added to `contract_rows`)."""
    rates = gq.club_contracts(season)
    by_name = {c.display_name: c for c in scoring.Contract}
    for row in contract_rows:
        rate = rates.get(by_name[row["name"]])
        row["club_percent"] = _percent(rate.percent_made) if rate else "-"
        row["club_average"] = format_average(club, rate.average) if rate else "-"
        row["summary"] = (
            f"{row['name']}: {row['declared']} called, {row['percent'].replace('%', ' %')} made"
            + (f", club {_percent(rate.percent_made)}" if rate else "")
        )
    context: dict[str, Any] = {}
    settings = gq.settings_for(club)
    seen = gq.viewer(request.user, club, settings)
    rating = gq.current(player) if seen.may_see(player) else None
    context["grade_shown"] = seen.enabled and seen.may_see(player)
    context["grades_updating"] = getattr(settings, "updating", False)
    context["grade_private"] = player.pk in seen.hidden
    if rating is not None:
        grade = gq.shown(rating, seen.min_hands)
        history = gq.grade_history(player, seen.min_hands)
        context["grade"] = grade
        context["grade_min_hands"] = seen.min_hands
        if len(history) > 1:
            context["grade_chart"] = _grade_chart(player, history)
            context["grade_change"] = history[-1].grade.value - history[-2].grade.value
            context["grade_labels"] = [f"{p.date:%-d %b %Y}" for p in history]
            context["grade_rows"] = charts.data_rows(
                [charts.Series(player.name, [p.grade.value for p in history])], _grade_text
            )
            context["grade_caption"] = (
                f"Grade after each of {player.name}'s last {len(history)} nights, all seasons."
            )
    context.update(_head_to_head(request, club, player, season))
    return context


def _grade_text(value: int | Fraction) -> str:
    return f"{int(value):,}"


def _grade_chart(player: Player, history: list[gq.GradePoint]) -> SafeString:
    base = scoring.grade.GRADE_BASE
    values = [p.grade.value - base for p in history]

    def fmt(value: int | Fraction) -> str:
        return f"{base + int(value):,}"

    labels = [f"{p.date:%-d %b %Y}" for p in history]
    return charts.line_chart(
        [charts.Series(player.name, values)],
        labels,
        title=f"Grade of {player.name}, last {len(history)} nights",
        description=(
            f"Grade of {player.name} after each of their last {len(history)} nights, from "
            f"{labels[0]} to {labels[-1]}: {fmt(values[0])} then, {fmt(values[-1])} now, high "
            f"{fmt(max(values))}, low {fmt(min(values))}. A newcomer starts at {base:,}."
        ),
        value_format=fmt,
        chart_id="grade",
    )


def _head_to_head(
    request: HttpRequest, club: Club, player: Player, season: Season
) -> dict[str, Any]:
    others = list(Player.objects.filter(club=club).exclude(pk=player.pk).order_by("name"))
    form = HeadToHeadForm(request.GET if "vs" in request.GET else None, players=others)
    context: dict[str, Any] = {"h2h_form": form}
    if form.is_bound and form.is_valid():
        other = form.cleaned_data["vs"]
        found = gq.head_to_head(season, player, other)
        context["h2h"] = found
        context["h2h_other"] = other
        context["h2h_net"] = club.format_amount(found.net, signed=True)
        context["h2h_other_net"] = club.format_amount(found.other_net, signed=True)
    return context


# -- settings ---------------------------------------------------------------------------------


@login_if_hidden
def grade_settings(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    current = gq.settings_for(club)
    players = list(Player.objects.filter(club=club).order_by("name"))
    hidden = set(GradeOptOut.objects.filter(player__club=club).values_list("player_id", flat=True))
    initial = {
        "enabled": current.enabled,
        "min_hands": current.min_hands,
        "ladder_by_grade": current.ladder_by_grade,
        "not_public": [p.pk for p in players if p.pk in hidden],
    }
    form = GradeSettingsForm(request.POST or None, initial=initial, players=players)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        services.update_settings(
            club,
            access.acting_user(request),
            enabled=data["enabled"],
            min_hands=data["min_hands"],
            ladder_by_grade=data["ladder_by_grade"],
            not_public=data["not_public"],
        )
        messages.success(request, "Grade settings saved.")
        return redirect("grade_settings", slug=club.slug)
    return render(
        request,
        "grades/setup/grades.html",
        {"club": club, "form": form, "section": "grades", "min_hands": scoring.grade.MIN_HANDS},
    )


urlpatterns = [
    path("setup/grades/", grade_settings, name="grade_settings"),
]
