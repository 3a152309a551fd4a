"""Every issued token's life in one place: a table's link and a table's card are both an
`IssuedToken` (club.play.models.table_links), found by the hash of their token, revoked by stamping
`revoked_at` and re-issued as a new row with a new salt, so the old token finds no live row and is
a 404. Each issue and each revocation writes an audit event naming what it was. The club's door
QR code is here too: a signed token naming the club's door salt, revoked by a new salt.

What differs between a link and a card is what holds it (a table of a night; a club's numbered
card) and is said by a `Holder`: which rows are its live token, what the audit calls it, which row
to lock while a new one is made, and how to make the new one.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import QuerySet
from django.utils import timezone

from club.clubs.models import AuditEvent, Club
from club.play.models import Night
from club.play.models.table_links import IssuedToken, hash_token

T = TypeVar("T", bound=IssuedToken)

# A token is 24 characters; anything much longer is not one of ours and needs no query.
LONGEST_TOKEN = 64


@dataclass
class Holder(Generic[T]):
    """What one token belongs to. `live` is the query of its live token (at most one row);
    `fresh` makes the unsaved replacement, issued by the user; `lock` is the row locked while it
    is made, so two secretaries re-issuing at once make one live token, not an error; `refuse`
    says why a re-issue must not happen (or "" when it may)."""

    club_id: int
    subject: str
    live: QuerySet[T]
    fresh: Callable[[User | None], T]
    lock: QuerySet[models.Model]
    night: Night | None = None
    refuse: Callable[[], str] = field(default=lambda: "")


def audit(
    club_id: int, user: User | None, action: str, subject: str, night: Night | None = None
) -> None:
    AuditEvent.objects.create(
        club_id=club_id, night=night, user=user, action=action, subject=subject[:120]
    )


def issue(holder: Holder[T], user: User | None) -> T:
    """Save the holder's new token and audit it (inside the caller's transaction)."""
    token = holder.fresh(user)
    token.save()
    audit(holder.club_id, user, AuditEvent.Action.ISSUE, holder.subject, holder.night)
    return token


def _stamp(holder: Holder[T], user: User | None) -> bool:
    changed = holder.live.filter(revoked_at=None).update(revoked_at=timezone.now(), revoked_by=user)
    if changed:
        audit(holder.club_id, user, AuditEvent.Action.REVOKE, holder.subject, holder.night)
    return bool(changed)


def revoke(holder: Holder[T], user: User | None) -> bool:
    """Stop the holder's token working (it is then a 404). False if it had no live one."""
    with transaction.atomic():
        return _stamp(holder, user)


def reissue(holder: Holder[T], user: User | None) -> T:
    """Revoke the holder's token (if live) and issue a new one, with a new token."""
    with transaction.atomic():
        holder.lock.select_for_update().first()
        if not _stamp(holder, user):
            refused = holder.refuse()
            if refused:
                raise ValidationError(refused)
        return issue(holder, user)


def find(live: QuerySet[T], token: str) -> T | None:
    """The live row a token names among `live` (with what it select_related); None for a
    revoked, replaced or made-up token (one query)."""
    if not token or len(token) > LONGEST_TOKEN:
        return None
    return live.filter(token_hash=hash_token(token), revoked_at=None).first()


# --- the door QR code: a signed token, not a row ---------------------------------------------


# What a printed door code holds is fixed: {"club": id, "salt": the club's door salt}, signed
# under this salt. Change any of it and every door code on a club's wall stops working.
DOOR_SALT = "club.door"


def door_token(club: Club) -> str:
    """The signed token in the door page's address: it names the club and the club's door salt,
    so it cannot be guessed, and a new salt (`new_door_token`) makes every older one useless."""
    if not club.door_salt:
        club.door_salt = secrets.token_urlsafe(16)
        Club.objects.filter(pk=club.pk, door_salt="").update(door_salt=club.door_salt)
        club.door_salt = Club.objects.values_list("door_salt", flat=True).get(pk=club.pk)
    return signing.dumps({"club": club.pk, "salt": club.door_salt}, salt=DOOR_SALT, compress=True)


def new_door_token(club: Club) -> str:
    """Revoke the door QR codes printed so far and return the new token."""
    club.door_salt = secrets.token_urlsafe(16)
    Club.objects.filter(pk=club.pk).update(door_salt=club.door_salt)
    return door_token(club)


def door_club(slug: str, token: str) -> Club | None:
    """The club the door token names, if it is the club of the address, its door check-in is
    on and the token is its current one; else None."""
    try:
        data = signing.loads(token, salt=DOOR_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("club"), int):
        return None
    # The club by its address and its salt, not by the id the token also names: a club
    # restored from its backup has a new id, and its printed door code must still open it.
    club = Club.objects.filter(slug=slug).first()
    if club is None or not club.door_check_in or not club.door_salt:
        return None
    if not secrets.compare_digest(str(data.get("salt")), club.door_salt):
        return None
    return club
