"""The club's seasons and rule sets: what its hands are scored under, listed, added, changed
(a rule set only while no hand used it; a season's ladder by scoring its hands again)."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count, Exists, OuterRef
from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import path

import scoring
from club.clubs.forms.setup import (
    RuleSetForm,
    RuleSetPresetForm,
    SeasonForm,
)
from club.clubs.models import Club, Role, Season
from club.clubs.queries import access
from club.clubs.queries.access import (
    club_rule_set,
    club_season,
    login_if_hidden,
)
from club.clubs.services import setup as services
from club.play.models import Hand, ScoreLine
from club.play.services import rule_set_changes

ROLE_ORDER: list[str] = [Role.SECRETARY, Role.SCORER, Role.VIEWER]


# Set-up home and club settings -----------------------------------------------------------------


@login_if_hidden
def season_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    seasons = (
        club.seasons.select_related("rule_set", "standings_rule_set")
        .annotate(night_count=Count("nights"))
        .order_by("-start")
    )
    return render(request, "play/setup/seasons.html", {"club": club, "seasons": seasons})


def _season_form(request: HttpRequest, club: Club, season: Season | None) -> HttpResponse:
    form = SeasonForm(request.POST or None, instance=season or Season(club=club), club=club)
    if request.method == "POST" and form.is_valid():
        if season is not None and "standings_rule_set" in form.changed_data:
            # Another ladder rule set re-scores the season's recorded hands: recorded, explicit.
            changed = rule_set_changes.change_ladder(form, access.signed_in(request))
            messages.success(
                request,
                f"Season {season.name} saved; its ladder was scored again under the new rule "
                f"set ({changed} score line{'s' if changed != 1 else ''} changed).",
            )
            return redirect("season_list", slug=club.slug)
        try:
            saved = rule_set_changes.save_season(form)
        except services.SetupError as error:
            form.add_error("rule_set", str(error))
        else:
            messages.success(request, f"Season {saved.name} saved.")
            return redirect("season_list", slug=club.slug)
    return render(
        request, "play/setup/season_form.html", {"club": club, "form": form, "season": season}
    )


@login_if_hidden
def season_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    if not club.rule_sets.exists():
        messages.warning(request, "A season needs a rule set: add one first.")
        return redirect("rule_set_create", slug=club.slug)
    return _season_form(request, club, None)


@login_if_hidden
def season_edit(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    return _season_form(request, club, club_season(club, season_id))


# Rule sets -----------------------------------------------------------------------------------


@login_if_hidden
def rule_set_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    rule_sets = club.rule_sets.annotate(
        used=Exists(Hand.objects.filter(rule_set=OuterRef("pk")))
        | Exists(ScoreLine.objects.filter(season__standings_rule_set=OuterRef("pk"))),
        season_count=Count("seasons"),
    ).order_by(Lower("name"))
    return render(request, "play/setup/rule_sets.html", {"club": club, "rule_sets": rule_sets})


@login_if_hidden
def rule_set_create(request: HttpRequest, slug: str) -> HttpResponse:
    """A new rule set from one of the presets, as it stands."""
    club = access.get_club(request, slug, access.MANAGE)
    form = RuleSetPresetForm(request.POST or None, club=club, initial={"preset": "hoyle"})
    if request.method == "POST" and form.is_valid():
        preset = form.cleaned_data["preset"]
        rule_set = services.create_rule_set(
            club, form.cleaned_data["name"], scoring.preset(preset), preset=preset
        )
        messages.success(request, f"Rule set {rule_set.name} created from the {preset} preset.")
        return redirect("rule_set_edit", slug=club.slug, rule_set_id=rule_set.pk)
    return render(request, "play/setup/rule_set_new.html", {"club": club, "form": form})


@login_if_hidden
def rule_set_custom(request: HttpRequest, slug: str) -> HttpResponse:
    """A new rule set with every stake and option in a form (starting from a preset's values)."""
    club = access.get_club(request, slug, access.MANAGE)
    preset = request.GET.get("preset", "standard")
    if preset not in scoring.PRESETS:
        preset = "standard"
    form = RuleSetForm(request.POST or None, club=club, rules=scoring.preset(preset))
    if request.method == "POST" and form.is_valid():
        rule_set = services.create_rule_set(
            club, form.cleaned_data["name"], form.cleaned_data["rules"]
        )
        messages.success(request, f"Rule set {rule_set.name} created.")
        return redirect("rule_set_list", slug=club.slug)
    return render(
        request,
        "play/setup/rule_set_form.html",
        {"club": club, "form": form, "rule_set": None, "preset": preset},
    )


@login_if_hidden
def rule_set_edit(request: HttpRequest, slug: str, rule_set_id: int) -> HttpResponse:
    """Edit an unused rule set; a used one is shown read-only, with "copy to a new rule set"."""
    club = access.get_club(request, slug, access.MANAGE)
    rule_set = club_rule_set(club, rule_set_id)
    used = rule_set.is_used
    if used and request.method == "POST":
        messages.error(
            request,
            f"{rule_set.name} has scored hands, so it cannot change: copy it to a new rule set.",
        )
        return redirect("rule_set_edit", slug=club.slug, rule_set_id=rule_set.pk)
    form = RuleSetForm(request.POST or None, club=club, instance=rule_set)
    if used:
        for field in form.fields.values():
            field.disabled = True
    if request.method == "POST" and form.is_valid():
        try:
            rule_set_changes.update_rule_set(
                rule_set,
                form.cleaned_data["name"],
                form.cleaned_data["rules"],
                access.acting_user(request),
            )
        except services.SetupError as error:
            messages.error(request, str(error))
            return redirect("rule_set_edit", slug=club.slug, rule_set_id=rule_set.pk)
        messages.success(request, f"Rule set {rule_set.name} saved.")
        return redirect("rule_set_list", slug=club.slug)
    return render(
        request,
        "play/setup/rule_set_form.html",
        {"club": club, "form": form, "rule_set": rule_set, "used": used},
    )


@login_if_hidden
def rule_set_copy(request: HttpRequest, slug: str, rule_set_id: int) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    original = club_rule_set(club, rule_set_id)
    try:
        rule_set = services.copy_rule_set(original)
    except services.SetupError as error:
        messages.error(request, str(error))
        return redirect("rule_set_list", slug=club.slug)
    messages.success(request, f"{original.name} copied to {rule_set.name}: change it here.")
    return redirect("rule_set_edit", slug=club.slug, rule_set_id=rule_set.pk)


urlpatterns = [
    path("setup/seasons/", season_list, name="season_list"),
    path("setup/seasons/new/", season_create, name="season_create"),
    path("setup/seasons/<int:season_id>/", season_edit, name="season_edit"),
    path("setup/rules/", rule_set_list, name="rule_set_list"),
    path("setup/rules/new/", rule_set_create, name="rule_set_create"),
    path("setup/rules/new/custom/", rule_set_custom, name="rule_set_custom"),
    path("setup/rules/<int:rule_set_id>/", rule_set_edit, name="rule_set_edit"),
    path("setup/rules/<int:rule_set_id>/copy/", rule_set_copy, name="rule_set_copy"),
]
