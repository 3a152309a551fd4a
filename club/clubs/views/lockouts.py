"""Log-in lockouts: the page a locked-out visitor sees (when to try again), and a secretary's
unlock of one of their club's members (from the Members page)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone

from club.clubs.queries import access
from club.clubs.queries.access import club_member, login_if_hidden
from club.clubs.services import lockouts


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: every try during a lockout starts its cool-off again, so the time to
    come back is now plus the cool-off."""
    retry_at = timezone.now() + lockouts.cool_off()  # shown on the server's clock (UTC)
    minutes = int(lockouts.cool_off().total_seconds() // 60)
    return render(
        request,
        "registration/locked_out.html",
        {"retry_at": retry_at, "minutes": minutes},
        status=429,
    )


@login_if_hidden
def member_unlock(request: HttpRequest, slug: str, member_id: int) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    member = club_member(club, member_id)
    try:
        unlocked = lockouts.unlock_member(member, access.signed_in(request))
    except lockouts.UnlockRefused as refused:
        messages.error(request, str(refused))
    else:
        if unlocked:
            messages.success(request, f"{member.user} can log in again.")
        else:
            messages.info(request, f"{member.user} was not locked out.")
    return redirect("member_list", slug=club.slug)


urlpatterns = [
    path("setup/members/<int:member_id>/unlock/", member_unlock, name="member_unlock"),
]
