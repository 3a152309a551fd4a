"""Who may still change a closed night: its correction window, before the results go out."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from club.clubs.models import Membership, Role
from club.play.models import Night


def may_correct(night: Night, user: User | AnonymousUser | None) -> bool:
    """A secretary may still enter, correct or delete hands of a closed night while it is
    provisional (inside the correction window). Reads the night row afresh, locked, so a
    correction racing the publication either lands before it or is refused."""
    if user is None or not user.is_authenticated:
        return False
    current = Night.objects.select_for_update(of=("self",)).get(pk=night.pk)
    if not current.is_provisional:
        return False
    return Membership.objects.filter(
        user=user, club_id=night.season.club_id, role=Role.SECRETARY
    ).exists()
