"""An invitation to join a club: how an account that already exists becomes a member.

A secretary may not simply add someone else's account to their club: membership gives the club a
say over the account (its role, its lock-out), so the account's owner accepts or declines, after
logging in. Accepting makes the membership; an invitation is used once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from club.clubs.models.clubs import Club, Role


class Invitation(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_invitations"
    )
    role = models.CharField(max_length=10, choices=Role, default=Role.VIEWER)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Exactly one of these ends an invitation; while all are empty it is open.
    accepted_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "club_invitation"  # the table it had in the one app
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(accepted_at=None, declined_at=None, withdrawn_at=None),
                name="invitation_one_open_per_club_user",
            ),
            models.CheckConstraint(
                condition=(
                    Q(accepted_at=None, declined_at=None)
                    | Q(accepted_at=None, withdrawn_at=None)
                    | Q(declined_at=None, withdrawn_at=None)
                ),
                name="invitation_ends_one_way",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} invited to {self.club} as {self.get_role_display()}"

    @property
    def is_open(self) -> bool:
        return self.accepted_at is None and self.declined_at is None and self.withdrawn_at is None
