"""Inviting an existing account into a club, and its owner accepting or declining.

Only the owner of an account can make it a member of a club they did not create it in: a
secretary invites, the account accepts after logging in. Every step is audited in the club.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.utils import timezone

from club.clubs.models import AuditEvent, Club, Invitation, Membership


class InvitationError(Exception):
    """The invitation cannot be made or answered; the message says why."""


def _audit(club: Club, user: User | None, subject: str, action: str) -> None:
    AuditEvent.objects.create(club=club, user=user, action=action, subject=subject)


def invite(club: Club, user: User, role: str, by: User) -> Invitation:
    name = user.get_username()
    if Membership.objects.filter(club=club, user=user).exists():
        raise InvitationError(f"{name} is already a member of the club.")
    try:
        with transaction.atomic():
            invitation = Invitation.objects.create(club=club, user=user, role=role, invited_by=by)
            _audit(club, by, f"{name} invited as {invitation.get_role_display().lower()}", "issue")
    except IntegrityError:
        raise InvitationError(
            f"{name} has been invited already: they have not answered yet."
        ) from None
    return invitation


def open_invitations(user: User | AnonymousUser) -> list[Invitation]:
    """What this person is invited to and has not answered (nothing for an anonymous visitor)."""
    if not user.is_authenticated:
        return []
    return list(
        Invitation.objects.filter(
            user=user, accepted_at=None, declined_at=None, withdrawn_at=None
        ).select_related("club", "invited_by")
    )


def _close(invitation: Invitation, field: str, **also: object) -> bool:
    """End an open invitation one way, once: only the request that finds it open changes it."""
    return bool(
        Invitation.objects.filter(
            pk=invitation.pk, accepted_at=None, declined_at=None, withdrawn_at=None
        ).update(**{field: timezone.now()}, **also)
    )


def accept(invitation: Invitation, user: User) -> Membership:
    if invitation.user_id != user.pk:
        raise InvitationError("This invitation is for another account.")
    with transaction.atomic():
        if not _close(invitation, "accepted_at"):
            raise InvitationError("This invitation has been answered or withdrawn already.")
        membership, _ = Membership.objects.get_or_create(
            club=invitation.club, user=user, defaults={"role": invitation.role}
        )
        _audit(invitation.club, user, f"{user.get_username()} accepted the invitation", "confirm")
    return membership


def decline(invitation: Invitation, user: User) -> None:
    if invitation.user_id != user.pk:
        raise InvitationError("This invitation is for another account.")
    with transaction.atomic():
        if _close(invitation, "declined_at"):
            _audit(
                invitation.club, user, f"{user.get_username()} declined the invitation", "revoke"
            )


def withdraw(invitation: Invitation, by: User) -> None:
    with transaction.atomic():
        if _close(invitation, "withdrawn_at"):
            name = invitation.user.get_username()
            _audit(invitation.club, by, f"Invitation of {name} withdrawn", "revoke")
