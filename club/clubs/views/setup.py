"""Club set-up: settings, players, seasons, rule sets and members.

Everything here is for the secretary (MANAGE), except the player list, which anyone who can read
the club may see. Every object is fetched through the club, so another club's ids are a 404.
"""

from __future__ import annotations

import copy

from django.contrib import messages
from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.cache import add_never_cache_headers

from club.clubs.forms.player_lines import PlayerLinesForm
from club.clubs.forms.setup import (
    AddMemberForm,
    ClubSettingsForm,
    NewUserForm,
    PlayerForm,
    RoleForm,
)
from club.clubs.models import Club, Role
from club.clubs.queries import access
from club.clubs.queries.access import (
    club_member,
    club_player,
    login_if_hidden,
)
from club.clubs.services import invitations, lockouts
from club.clubs.services import setup as services

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
        "clubs/setup/index.html",
        {"club": club, "form": form, "counts": counts, "example": club.format_amount(120)},
    )


# Players -------------------------------------------------------------------------------------


def _player_list(request: HttpRequest, club: Club, form: PlayerForm | None) -> HttpResponse:
    players = club.players.order_by("-active", Lower("name"))
    return render(
        request,
        "clubs/setup/players.html",
        {
            "club": club,
            "players": players,
            "form": form,
            "lines_form": PlayerLinesForm(club=club) if form is not None else None,
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
        "clubs/setup/player_form.html",
        {"club": club, "form": form, "player": player, "old_name": old_name},
    )


# Seasons -------------------------------------------------------------------------------------


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
        "clubs/setup/members.html",
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
        "clubs/setup/member_created.html",
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
    return render(request, "clubs/setup/member_remove.html", {"club": club, "member": member})


urlpatterns = [
    path("setup/", club_setup, name="club_setup"),
    path("players/", player_list, name="player_list"),
    path("players/new/", player_create, name="player_create"),
    path("players/<int:player_id>/edit/", player_edit, name="player_edit"),
    path("setup/members/", member_list, name="member_list"),
    path("setup/members/add/", member_add, name="member_add"),
    path("setup/members/new-user/", member_create_user, name="member_create_user"),
    path("setup/members/<int:member_id>/role/", member_role, name="member_role"),
    path("setup/members/<int:member_id>/remove/", member_remove, name="member_remove"),
]
