"""A table's link: the URL a phone at the table opens to score that table without an account.

The token itself is never stored. It is derived from a random salt with Django's salted HMAC
(so only a server holding SECRET_KEY can rebuild it, for the QR codes and the table cards), and
the row keeps its SHA-256 for the lookup. Whoever reads the database alone cannot forge a link.
Revoking a link stamps `revoked_at`; issuing a new one adds a row with a new salt, so an old
token finds no live row and is a 404.
"""

from __future__ import annotations

import base64
import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.crypto import salted_hmac

# 18 bytes of HMAC: 144 bits, 24 URL-safe characters (short enough for a small QR code).
TOKEN_BYTES = 18
_KEY_SALT = "club.table_link"


def new_salt() -> str:
    return secrets.token_urlsafe(16)


def derive_token(salt: str) -> str:
    digest = salted_hmac(_KEY_SALT, salt, algorithm="sha256").digest()[:TOKEN_BYTES]
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TableLink(models.Model):
    table = models.ForeignKey("club.Table", on_delete=models.CASCADE, related_name="links")
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
        ordering = ["table", "-issued_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(revoked_at__isnull=True),
                name="table_link_one_live_per_table",
            ),
            models.CheckConstraint(
                condition=Q(revoked_at__isnull=True) | Q(revoked_at__gte=models.F("issued_at")),
                name="table_link_revoked_after_issued",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table.number}'s link"

    @property
    def token(self) -> str:
        return derive_token(self.salt)

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None

    @classmethod
    def fresh(cls, table_id: int, user=None) -> TableLink:
        """A new, unsaved link for the table with its own salt."""
        salt = new_salt()
        return cls(
            table_id=table_id, salt=salt, token_hash=hash_token(derive_token(salt)), issued_by=user
        )
