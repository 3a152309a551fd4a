"""The clubs a member belongs to that are closed and waiting out their days before the purge
deletes them (club/clubs/services/clubs_lifecycle.py): what their home page, the closed club's own
page
and the closing email say. A sign-up never confirmed is not "closing": it was never open."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User

from club.clubs.models import AuditEvent, Club, Membership, Role

CLOSED_SUBJECT = "Club account closed"  # the start of close_club's audit event


@dataclass(frozen=True)
class Closing:
    club: Club
    closed_at: dt.datetime
    delete_after: dt.datetime
    closed_by: str  # "its secretary, Ann Smith", "its secretary", "the server's operator"
    is_secretary: bool  # the reader is (was) one of its secretaries


def _person(user: User | None) -> str:
    """A name to show the club's members: never an email address used as a user name."""
    if user is None:
        return ""
    return user.get_full_name() or ("" if "@" in user.username else user.username)


def closed_by(club: Club) -> str:
    if club.closed_because == Club.Closure.OPERATOR:
        return "the server's operator"
    event = (
        AuditEvent.objects.filter(
            club=club, action=AuditEvent.Action.CLOSE, subject__startswith=CLOSED_SUBJECT
        )
        .select_related("user")
        .order_by("-pk")
        .first()
    )
    name = _person(event.user if event else None)
    return f"its secretary, {name}" if name else "its secretary"


def describe(club: Club, is_secretary: bool = False) -> Closing:
    assert club.closed_at is not None and club.delete_after is not None
    return Closing(club, club.closed_at, club.delete_after, closed_by(club), is_secretary)


def _closing(user: User | AnonymousUser) -> list[tuple[Club, str]]:
    if not user.is_authenticated:
        return []
    rows = (
        Membership.objects.filter(user_id=user.pk, club__closed_at__isnull=False)
        .exclude(club__closed_because=Club.Closure.SIGNUP)
        .select_related("club")
        .order_by("club__delete_after", "club__name")
    )
    return [(m.club, m.role) for m in rows]


def closing_clubs(user: User | AnonymousUser) -> list[Closing]:
    """The closed clubs this person is a member of, soonest deleted first."""
    return [describe(club, role == Role.SECRETARY) for club, role in _closing(user)]


def closing_club(user: User | AnonymousUser, slug: str) -> Closing | None:
    """The closed club at this address, if this person is its member (else None: to anyone else
    a closed club is a 404, as one that never was)."""
    for club, role in _closing(user):
        if club.slug == slug:
            return describe(club, role == Role.SECRETARY)
    return None


def members_to_tell(club: Club) -> list[tuple[str, bool]]:
    """Each member's address (active accounts with one, each address once) and whether they are
    a secretary of the club."""
    found: dict[str, tuple[str, bool]] = {}
    rows = Membership.objects.filter(club=club, user__is_active=True).exclude(user__email="")
    for email, role in rows.values_list("user__email", "role").order_by("user__email"):
        key = email.strip().lower()
        first, secretary = found.get(key, (email.strip(), False))
        found[key] = (first, secretary or role == Role.SECRETARY)
    return sorted(found.values())
