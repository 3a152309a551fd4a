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
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone

from club.models import AuditEvent, Club, Membership


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


def unlock_member(member: Membership, by: AbstractBaseUser) -> bool:
    """Forget the member's failed log-ins (so the lock on their name, and the part of an
    address's count that was theirs, goes); False when they were not locked out."""
    username = member.user.get_username()
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
