"""A person takes a club off their home: the claim of their player record there is undone.

What unlinking means: the record stays the club's, with every hand, night, debt and grade it
had; only the link to this account goes (Player.user = None), as if the record had never been
claimed. So the club's "My results" page no longer shows it to them, the home across clubs no
longer lists the club nor counts its hands in the grade, and the club's audit trail says who
undid the link and when. Their membership of the club, if they have one, is the secretary's to
end and is left alone (a viewer still reads the club's pages). They can claim the record again
with the club's claim link, as before.

Why not just hide the club from the home page and keep the claim: the claim is the one thing
that ties the record to the account, and a home that hid a club the account still holds would
leave that club's "My results" (and its emails' link to it) pointing at someone who asked to
be left out; undoing the claim is the reading a person would expect from "unlink".
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from club.clubs.models import AuditEvent, Player


class AlreadyUnlinked(Exception):
    """The record is not (or no longer) this account's: someone, or another tab, undid it."""


def unlink(user: User, player: Player) -> None:
    """Undo the user's claim of this record, with an audit event in the record's club."""
    with transaction.atomic():
        if not Player.objects.filter(pk=player.pk, user=user).update(user=None):
            raise AlreadyUnlinked(player.pk)
        AuditEvent.objects.create(
            club_id=player.club_id,
            night=None,
            user=user,
            action=AuditEvent.Action.UPDATE,
            subject=f"{player.name}: account link removed by its owner",
            before={"account": user.get_username()},
            after={"account": None},
        )
    player.user = None
