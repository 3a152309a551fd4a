"""Club set-up: settings, players, seasons, rule sets and members.

Everything here is for the secretary (MANAGE), except the player list, which anyone who can read
the club may see. Every object is fetched through the club, so another club's ids are a 404.
"""

from __future__ import annotations

import copy

from django.contrib import messages
from django.db.models import Count, Exists, OuterRef
from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.cache import add_never_cache_headers

import scoring
from club.clubs.forms.setup import (
    AddMemberForm,
    ClubSettingsForm,
    NewUserForm,
    PlayerForm,
    RoleForm,
    RuleSetForm,
    RuleSetPresetForm,
    SeasonForm,
)
from club.clubs.models import Club, Role, Season
from club.clubs.queries import access
from club.clubs.queries.access import (
    club_member,
    club_player,
    club_rule_set,
    club_season,
    login_if_hidden,
)
from club.clubs.services import invitations, lockouts
from club.clubs.services import setup as services
from club.play.models import Hand, ScoreLine

ROLE_ORDER: list[str] = [Role.SECRETARY, Role.SCORER, Role.VIEWER]


# Set-up home and club settings -----------------------------------------------------------------


@login_if_hidden
def club_setup(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    # The form edits a copy, so that an invalid name never shows in the page header.
    form = ClubSettingsForm(request.POST or None, instance=copy.copy(club))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Club settings saved.")
        return redirect("club_setup", slug=club.slug)
    counts = {
        "players": club.players.count(),
        "seasons": club.seasons.count(),
        "rule_sets": club.rule_sets.count(),
        "members": club.memberships.count(),
    }
    return render(
        request,
        "club/setup/index.html",
        {"club": club, "form": form, "counts": counts, "example": club.format_amount(120)},
    )


# Players -------------------------------------------------------------------------------------


def _player_list(request: HttpRequest, club: Club, form: PlayerForm | None) -> HttpResponse:
    players = club.players.order_by("-active", Lower("name"))
    return render(
        request,
        "club/setup/players.html",
        {
            "club": club,
            "players": players,
            "form": form,
            "can_manage": form is not None,
        },
    )


@login_if_hidden
def player_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug)
    can_manage = access.can(request.user, club, access.MANAGE)
    return _player_list(request, club, PlayerForm(club=club) if can_manage else None)


@login_if_hidden
def player_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    form = PlayerForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        player = form.save()
        messages.success(request, f"{player.name} added to the club.")
        return redirect("player_list", slug=club.slug)
    return _player_list(request, club, form)


@login_if_hidden
def player_edit(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    player = club_player(club, player_id)
    old_name = player.name
    form = PlayerForm(request.POST or None, instance=player, club=club)
    if request.method == "POST" and form.is_valid():
        player = form.save()
        note = "" if player.active else " (inactive: not offered when seating a night)"
        if player.name != old_name:
            messages.success(request, f"{old_name} is now called {player.name}{note}.")
        else:
            messages.success(request, f"{player.name} saved{note}.")
        return redirect("player_list", slug=club.slug)
    return render(
        request,
        "club/setup/player_form.html",
        {"club": club, "form": form, "player": player, "old_name": old_name},
    )


# Seasons -------------------------------------------------------------------------------------


@login_if_hidden
def season_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    seasons = (
        club.seasons.select_related("rule_set", "standings_rule_set")
        .annotate(night_count=Count("nights"))
        .order_by("-start")
    )
    return render(request, "club/setup/seasons.html", {"club": club, "seasons": seasons})


def _season_form(request: HttpRequest, club: Club, season: Season | None) -> HttpResponse:
    form = SeasonForm(request.POST or None, instance=season or Season(club=club), club=club)
    if request.method == "POST" and form.is_valid():
        if season is not None and "standings_rule_set" in form.changed_data:
            # Another ladder rule set re-scores the season's recorded hands: recorded, explicit.
            changed = services.change_ladder(form, access.signed_in(request))
            messages.success(
                request,
                f"Season {season.name} saved; its ladder was scored again under the new rule "
                f"set ({changed} score line{'s' if changed != 1 else ''} changed).",
            )
            return redirect("season_list", slug=club.slug)
        try:
            saved = services.save_season(form)
        except services.SetupError as error:
            form.add_error("rule_set", str(error))
        else:
            messages.success(request, f"Season {saved.name} saved.")
            return redirect("season_list", slug=club.slug)
    return render(
        request, "club/setup/season_form.html", {"club": club, "form": form, "season": season}
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
    return render(request, "club/setup/rule_sets.html", {"club": club, "rule_sets": rule_sets})


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
    return render(request, "club/setup/rule_set_new.html", {"club": club, "form": form})


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
        "club/setup/rule_set_form.html",
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
            services.update_rule_set(
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
        "club/setup/rule_set_form.html",
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


# Members -------------------------------------------------------------------------------------


def _member_list(
    request: HttpRequest,
    club: Club,
    add_form: AddMemberForm | None = None,
    new_user_form: NewUserForm | None = None,
) -> HttpResponse:
    members = sorted(
        club.memberships.select_related("user"),
        key=lambda m: (ROLE_ORDER.index(m.role), m.user.get_username().lower()),
    )
    rows = [(m, RoleForm(initial={"role": m.role}, prefix=f"m{m.pk}")) for m in members]
    return render(
        request,
        "club/setup/members.html",
        {
            "club": club,
            "rows": rows,
            "add_form": add_form or AddMemberForm(club=club),
            "new_user_form": new_user_form or NewUserForm(),
            "locked": lockouts.locked_until(club),
            "shared": lockouts.shared_accounts(club),
            "invitations": club.invitations.filter(
                accepted_at=None, declined_at=None, withdrawn_at=None
            ).select_related("user"),
        },
    )


@login_if_hidden
def member_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    return _member_list(request, club)


@login_if_hidden
def member_add(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    form = AddMemberForm(request.POST, club=club)
    if not form.is_valid():
        return _member_list(request, club, add_form=form)
    user = form.cleaned_data["username"]
    try:
        invitation = invitations.invite(
            club, user, form.cleaned_data["role"], access.signed_in(request)
        )
    except invitations.InvitationError as error:
        form.add_error("username", str(error))
        return _member_list(request, club, add_form=form)
    messages.success(
        request,
        f"{user} is invited as {invitation.get_role_display().lower()}: they join once they "
        "accept, after logging in.",
    )
    return redirect("member_list", slug=club.slug)


@login_if_hidden
def member_create_user(request: HttpRequest, slug: str) -> HttpResponse:
    """A new account with a temporary password, shown once on this page (never stored in a
    message or a cookie)."""
    club = access.get_club(request, slug, access.MANAGE)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    form = NewUserForm(request.POST)
    if not form.is_valid():
        return _member_list(request, club, new_user_form=form)
    user, password = services.create_user_member(
        club, form.cleaned_data["username"], form.cleaned_data["role"], form.cleaned_data["email"]
    )
    response = render(
        request,
        "club/setup/member_created.html",
        {"club": club, "new_user": user, "password": password, "role": form.cleaned_data["role"]},
    )
    add_never_cache_headers(response)  # the password must not linger in a cache
    return response


@login_if_hidden
def member_role(request: HttpRequest, slug: str, member_id: int) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    member = club_member(club, member_id)
    form = RoleForm(request.POST, prefix=f"m{member.pk}")
    if form.is_valid():
        try:
            services.change_role(member, form.cleaned_data["role"])
        except services.SetupError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, f"{member.user} is now {member.get_role_display().lower()}.")
            if member.user_id == request.user.pk and not member.is_secretary:
                return redirect("club", slug=club.slug)  # set-up is no longer theirs to see
    else:
        messages.error(request, "Choose a role from the list.")
    return redirect("member_list", slug=club.slug)


@login_if_hidden
def member_remove(request: HttpRequest, slug: str, member_id: int) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    member = club_member(club, member_id)
    if request.method == "POST":
        try:
            services.remove_member(member)
        except services.SetupError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, f"{member.user} is no longer a member of {club.name}.")
            if member.user_id == request.user.pk:
                return redirect("home")
        return redirect("member_list", slug=club.slug)
    return render(request, "club/setup/member_remove.html", {"club": club, "member": member})


urlpatterns = [
    path("setup/", club_setup, name="club_setup"),
    path("players/", player_list, name="player_list"),
    path("players/new/", player_create, name="player_create"),
    path("players/<int:player_id>/edit/", player_edit, name="player_edit"),
    path("setup/seasons/", season_list, name="season_list"),
    path("setup/seasons/new/", season_create, name="season_create"),
    path("setup/seasons/<int:season_id>/", season_edit, name="season_edit"),
    path("setup/rules/", rule_set_list, name="rule_set_list"),
    path("setup/rules/new/", rule_set_create, name="rule_set_create"),
    path("setup/rules/new/custom/", rule_set_custom, name="rule_set_custom"),
    path("setup/rules/<int:rule_set_id>/", rule_set_edit, name="rule_set_edit"),
    path("setup/rules/<int:rule_set_id>/copy/", rule_set_copy, name="rule_set_copy"),
    path("setup/members/", member_list, name="member_list"),
    path("setup/members/add/", member_add, name="member_add"),
    path("setup/members/new-user/", member_create_user, name="member_create_user"),
    path("setup/members/<int:member_id>/role/", member_role, name="member_role"),
    path("setup/members/<int:member_id>/remove/", member_remove, name="member_remove"),
]
