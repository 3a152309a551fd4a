"""A table's permanent card: a QR code left on the table, night after night. Players scan it,
say who sits where, and the phone becomes that night's table link (club.play.services.table_cards).

The token is made as a table link's is (club.play.models.table_links): derived from a random salt
with
Django's salted HMAC under a key salt of its own (a card's token never equals a link's), and the
row keeps only its SHA-256. Revoking stamps `revoked_at`; re-issuing adds a row with a new salt
and the same number, so the old printed card finds no live row and is a 404.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from club.play.models.table_links import IssuedToken, derive

_KEY_SALT = "club.table_card"


def derive_card_token(salt: str) -> str:
    return derive(_KEY_SALT, salt)


class TableCard(IssuedToken):
    key_salt = _KEY_SALT
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="table_cards")
    label = models.CharField(max_length=40)
    number = models.PositiveSmallIntegerField()

    class Meta:
        db_table = "club_tablecard"  # the table it had in the one app
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

    @classmethod
    def fresh(cls, club_id: int, number: int, user=None, label: str = "") -> TableCard:
        """A new, unsaved card with its own salt."""
        return cls(
            club_id=club_id,
            number=number,
            label=label or f"Table {number}",
            issued_by=user,
            **cls.salted(),
        )
