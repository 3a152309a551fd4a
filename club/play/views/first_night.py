"""A new club's first run: its members, its rule set and its season, then tonight's night
(club/play/services/first_night.py), on the page the sign-up's confirmation leads to."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path

import scoring
from club.clubs.forms.signup import FirstNightForm
from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.clubs.services import player_lines
from club.clubs.services.setup import SetupError
from club.play.services import first_night

HOUR = 3600
# What each preset counts in: the page's script keeps the rules to start from in the currency's
# unit (pence for £, cents for any other), which the form requires.
PRESET_UNITS = {name: rules.unit for name, rules in scoring.PRESETS.items()}
# (how many, in how many seconds): a club's secretary signs up once; a shared office address
# (one client address for many people) a few times an hour.
LIMITS = getattr(
    settings,
    "SIGNUP_LIMITS",
    {
        "signup-client": (10, HOUR),
        "signup-address": (3, HOUR),
        "confirm-client": (30, 10 * 60),
        "confirm-address": (10, 10 * 60),
    },
)


@login_if_hidden
def club_first_run(request: HttpRequest, slug: str) -> HttpResponse:
    """Members' names, the rule set and the season, then "Start tonight"."""
    club = access.get_club(request, slug, access.MANAGE)
    form = FirstNightForm(request.POST or None, request.FILES or None, club=club)
    preview = None
    if request.method == "POST" and form.is_valid() and not form.confirmed:
        # First the members' lines as they will be saved; the confirm carries their digest.
        if form.changed_since_preview:
            messages.warning(request, "The members changed since the preview: check them again.")
        preview = player_lines.plan(club, form.entries)
        data = form.cleaned_data
        form = FirstNightForm(
            initial={
                "names": form.shown_text(),
                "digest": form.signed,
                "rule_set": data["rule_set"],
                "season": data["season"],
                "all_here": data["all_here"],
            },
            club=club,
        )
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            night, players = first_night.start_first_night(
                club,
                form.entries,
                data["rule_set"],
                data["season"],
                data["all_here"],
                access.signed_in(request),
                form.signed,
            )
        except (SetupError, ValidationError) as error:
            text = error.messages if isinstance(error, ValidationError) else [str(error)]
            form.add_error(None, " ".join(text))
        else:
            if data["all_here"]:
                messages.success(
                    request,
                    f"{night} is open and your {len(players)} players are here: draw the tables.",
                )
                return redirect("draw", slug=club.slug)
            messages.success(request, f"{night} is open.")
            return redirect("night_detail", slug=club.slug, night_id=night.pk)
    return render(
        request,
        "play/signup/first_run.html",
        {"club": club, "form": form, "rule_sets": form.rule_sets, "preview": preview},
        status=422 if form.errors else 200,
    )


club_urlpatterns = [
    path("first-run/", club_first_run, name="club_first_run"),
]
