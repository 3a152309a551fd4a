"""Leaving: a secretary closes the club's account (the data file first, then the club's name typed)
and forgets a player who asks to be forgotten."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_http_methods

from club.clubs.forms.signup import CloseClubForm
from club.clubs.queries import access
from club.clubs.queries.access import club_player, login_if_hidden
from club.clubs.services import closing_mail, clubs_lifecycle


@login_if_hidden
@require_http_methods(["GET", "POST"])
def club_close(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: what closing means, the data file to keep, and the name to type. POST: closed."""
    club = access.get_club(request, slug, access.MANAGE)
    form = CloseClubForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            closed = clubs_lifecycle.close_club(club, access.acting_user(request))
        except clubs_lifecycle.LifecycleError as error:  # closed by another tab meanwhile
            messages.error(request, str(error))
            return redirect("home")
        return render(
            request,
            "clubs/signup/closed_club.html",
            {"club": closed, "host_contact": closing_mail.host_contact()},
        )
    return render(
        request,
        "clubs/signup/close.html",
        {"club": club, "form": form, "days": clubs_lifecycle.KEEP_CLOSED_DAYS},
        status=422 if form.errors else 200,
    )


@login_if_hidden
@require_http_methods(["GET", "POST"])
def player_forget(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """GET: what forgetting keeps and what it removes. POST: forgotten."""
    club = access.get_club(request, slug, access.MANAGE)
    player = club_player(club, player_id)
    if request.method == "POST":
        old = player.name
        try:
            player = clubs_lifecycle.forget_player(player, access.acting_user(request))
        except clubs_lifecycle.LifecycleError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, f"{old} is forgotten: the club's records now say {player}.")
        return redirect("player_list", slug=club.slug)
    return render(request, "clubs/signup/forget_player.html", {"club": club, "player": player})


urlpatterns = [
    path("setup/close/", club_close, name="club_close"),
    path("players/<int:player_id>/forget/", player_forget, name="player_forget"),
]
