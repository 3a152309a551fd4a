"""Log-in lockouts (django-axes) as a club secretary sees them: which of the club's members are
locked out after too many wrong passwords, until when, and unlocking one (audited). Operators
unlock anyone, or an address, with `manage.py axes_reset`, `axes_reset_username` or
`axes_reset_ip`."""

from __future__ import annotations

import datetime as dt

from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from axes.utils import reset
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max, Q, Sum
from django.utils import timezone

from club.clubs.models import AuditEvent, Club, Membership


def cool_off() -> dt.timedelta:
    return settings.AXES_COOLOFF_TIME


def locked_until(club: Club) -> dict[str, dt.datetime]:
    """Each locked-out member's user name and when the lock ends, in one query."""
    usernames = Membership.objects.filter(club=club).values("user__username")
    limit = get_failure_limit(None, None)
    since = timezone.now() - cool_off()
    rows = (
        AccessAttempt.objects.filter(username__in=usernames, attempt_time__gt=since)
        .values("username")
        .annotate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
        .filter(failures__gte=limit)
    )
    return {row["username"]: row["last"] + cool_off() for row in rows}


class UnlockRefused(Exception):
    """This club may not lift the lock; the message says who can."""


def belongs_to_club_alone(member: Membership) -> bool:
    """A club may lift the lock on an account only when the account is this club's alone: not a
    member of any other club, and not one of the site's staff. Otherwise unlocking it here would
    hand this club's secretary fresh guesses at another club's account (or the admin's)."""
    user = member.user
    if user.is_staff or user.is_superuser:
        return False
    return not Membership.objects.filter(user=user).exclude(club=member.club_id).exists()


def shared_accounts(club: Club) -> set[int]:
    """Ids of the club's members whose accounts are not the club's alone (staff, or members of
    another club too): their lock is for the site's operator to lift. One query."""
    users = Membership.objects.filter(club=club).values("user")
    other = Membership.objects.filter(user__in=users).exclude(club=club).values_list("user")
    staff = Membership.objects.filter(club=club).filter(
        Q(user__is_staff=True) | Q(user__is_superuser=True) | Q(user__in=other)
    )
    return set(staff.values_list("user_id", flat=True))


def unlock_member(member: Membership, by: User) -> bool:
    """Forget the member's failed log-ins (so the lock on their name, and the part of an
    address's count that was theirs, goes); False when they were not locked out. Refused for an
    account that belongs to other clubs or to the site's staff: the site's operator unlocks those
    (`manage.py axes_reset_username NAME`)."""
    username = member.user.get_username()
    if not belongs_to_club_alone(member):
        raise UnlockRefused(
            f"{username}'s account belongs to other clubs too (or to the site's staff): only the "
            "site's operator can lift its lock. It lifts by itself after the waiting time."
        )
    with transaction.atomic():
        until = locked_until(member.club).get(username)
        if until is None:
            return False
        reset(username=username)
        AuditEvent.objects.create(
            club=member.club,
            user=by,
            action=AuditEvent.Action.UPDATE,
            subject=f"Log-in of {username} unlocked",
            before={"locked_until": until.isoformat()},
            after={"locked_until": None},
        )
    return True
