"""Players in bulk: the secretary pastes lines (or chooses a CSV file), sees what they would
change, and saves exactly that, once (club/clubs/services/player_lines.py)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone

from club.clubs.forms.player_lines import PlayerLinesForm
from club.clubs.models import Club
from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.clubs.services import player_lines


def _page(
    request: HttpRequest,
    club: Club,
    form: PlayerLinesForm,
    preview: player_lines.Plan | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "clubs/setup/player_lines.html",
        {"club": club, "form": form, "preview": preview},
        status=status,
    )


@login_if_hidden
def player_lines_page(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the box and the file. POST without the digest (or with one for other lines): the
    preview. POST with the preview's digest: saved, and back to the Players page."""
    club = access.get_club(request, slug, access.MANAGE)
    if request.method != "POST":
        return _page(request, club, PlayerLinesForm(club=club))
    form = PlayerLinesForm(request.POST, request.FILES, club=club)
    if not form.is_valid():
        return _page(request, club, form, status=422)
    if form.confirmed:
        done = player_lines.apply(club, form.entries, access.signed_in(request), form.signed)
        if done.saved_before is not None:
            at = timezone.localtime(done.saved_before)
            messages.info(
                request,
                f"These lines were saved already ({at:%-d %b, %H:%M}): nothing was added twice.",
            )
        elif not done.plan.changes:
            messages.info(request, "Nothing to change: the club has these players as given.")
        else:
            messages.success(request, f"Players saved: {done.plan.summary()}.")
        for note in done.plan.notes:
            messages.warning(request, note)
        return redirect("player_list", slug=club.slug)
    if form.changed_since_preview:
        messages.warning(request, "The lines changed since the preview: check them again.")
    preview = player_lines.plan(club, form.entries)
    shown = PlayerLinesForm(initial={"lines": form.shown_text(), "digest": form.signed}, club=club)
    return _page(request, club, shown, preview)


urlpatterns = [
    path("players/add-many/", player_lines_page, name="player_lines"),
]
