"""A player's own link: the private address, sent in every results email (or shown to the player
as a QR code), that opens the player's own page with no log-in.

It is an `IssuedToken` as a table's link is: the token is derived from the row's salt with
SECRET_KEY and only its hash is stored, so reading the database alone forges nothing. A revoked or
re-issued link keeps its row with `revoked_at` stamped, so the old token is a 404; a player has at
most one live link, which the database refuses to break.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from club.play.models.table_links import IssuedToken

_KEY_SALT = "club.player_link"


class PlayerLink(IssuedToken):
    key_salt = _KEY_SALT
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="links")

    class Meta:
        ordering = ["player", "-issued_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(revoked_at__isnull=True),
                name="player_link_one_live_per_player",
            ),
            models.CheckConstraint(
                condition=Q(revoked_at__isnull=True) | Q(revoked_at__gte=models.F("issued_at")),
                name="player_link_revoked_after_issued",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}'s own link"

    @classmethod
    def fresh(cls, player_id: int, user=None) -> PlayerLink:
        """A new, unsaved link for the player with its own salt."""
        return cls(player_id=player_id, issued_by=user, **cls.salted())
