"""A table's permanent card: a QR code left on the table, night after night. Players scan it,
say who sits where, and the phone becomes that night's table link (club.services.table_cards).

The token is made as a table link's is (club.models.table_links): derived from a random salt with
Django's salted HMAC under a key salt of its own (a card's token never equals a link's), and the
row keeps only its SHA-256. Revoking stamps `revoked_at`; re-issuing adds a row with a new salt
and the same number, so the old printed card finds no live row and is a 404.
"""

from __future__ import annotations

import base64

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.crypto import salted_hmac

from club.models.table_links import TOKEN_BYTES, hash_token, new_salt

_KEY_SALT = "club.table_card"


def derive_card_token(salt: str) -> str:
    digest = salted_hmac(_KEY_SALT, salt, algorithm="sha256").digest()[:TOKEN_BYTES]
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


class TableCard(models.Model):
    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="table_cards")
    label = models.CharField(max_length=40)
    number = models.PositiveSmallIntegerField()
    salt = models.CharField(max_length=40)
    token_hash = models.CharField(max_length=64, unique=True)
    issued_at = models.DateTimeField(auto_now_add=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["club", "number", "-issued_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "number"],
                condition=Q(revoked_at__isnull=True),
                name="table_card_one_live_per_number",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_card_number_positive"),
            models.CheckConstraint(
                condition=Q(revoked_at__isnull=True) | Q(revoked_at__gte=models.F("issued_at")),
                name="table_card_revoked_after_issued",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def token(self) -> str:
        return derive_card_token(self.salt)

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None

    @classmethod
    def fresh(cls, club_id: int, number: int, user=None, label: str = "") -> TableCard:
        """A new, unsaved card with its own salt."""
        salt = new_salt()
        return cls(
            club_id=club_id,
            number=number,
            label=label or f"Table {number}",
            salt=salt,
            token_hash=hash_token(derive_card_token(salt)),
            issued_by=user,
        )
