"""Invitations to join a club: the invited account's owner accepts or declines them after
logging in; the secretary who sent one may withdraw it while it is open."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.views.decorators.http import require_POST

from club.clubs.models import Invitation
from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.clubs.services import invitations as service


def _own_open(request: HttpRequest, invitation_id: int) -> Invitation:
    """The signed-in user's own open invitation; anyone else's is a 404."""
    return get_object_or_404(
        Invitation.objects.select_related("club"),
        pk=invitation_id,
        user=request.user,
        accepted_at=None,
        declined_at=None,
        withdrawn_at=None,
    )


@login_required
def invitation_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "clubs/invitations/list.html",
        {"invitations": service.open_invitations(request.user)},
    )


@login_required
@require_POST
def invitation_answer(request: HttpRequest, invitation_id: int, answer: str) -> HttpResponse:
    invitation = _own_open(request, invitation_id)
    club = invitation.club
    try:
        if answer == "accept":
            membership = service.accept(invitation, access.signed_in(request))
        else:
            service.decline(invitation, access.signed_in(request))
    except service.InvitationError as error:
        messages.error(request, str(error))
        return redirect("invitations")
    if answer == "accept":
        messages.success(
            request, f"You are now a {membership.get_role_display().lower()} of {club.name}."
        )
        return redirect("club", slug=club.slug)
    messages.info(request, f"You declined the invitation to {club.name}.")
    return redirect("invitations")


@login_if_hidden
def invitation_withdraw(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    """GET: what withdrawing means; POST: withdraw the club's open invitation."""
    club = access.get_club(request, slug, access.MANAGE)
    invitation = get_object_or_404(
        Invitation.objects.select_related("user"), pk=invitation_id, club=club
    )
    if request.method == "POST":
        service.withdraw(invitation, access.signed_in(request))
        messages.success(request, f"The invitation of {invitation.user} is withdrawn.")
        return redirect("member_list", slug=club.slug)
    return render(
        request, "clubs/invitations/withdraw.html", {"club": club, "invitation": invitation}
    )


urlpatterns = [
    path("invitations/", invitation_list, name="invitations"),
    path(
        "invitations/<int:invitation_id>/accept/",
        invitation_answer,
        {"answer": "accept"},
        name="invitation_accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        invitation_answer,
        {"answer": "decline"},
        name="invitation_decline",
    ),
]

club_urlpatterns = [
    path(
        "setup/members/invitations/<int:invitation_id>/withdraw/",
        invitation_withdraw,
        name="invitation_withdraw",
    ),
]
