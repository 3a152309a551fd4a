"""A player claiming their record: the emailed link that links it to an account."""

from __future__ import annotations

from django.db import models


class PlayerClaim(models.Model):
    """A one-time link that lets a player claim their record (link it to an account)."""

    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="claims")
    token_hash = models.CharField(max_length=64, unique=True)  # sha256 of the emailed token
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "club_playerclaim"  # the table it had in the one app

    def __str__(self) -> str:
        return f"Claim of {self.player_id}"
