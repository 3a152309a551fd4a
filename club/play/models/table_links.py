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
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.crypto import salted_hmac

# 18 bytes of HMAC: 144 bits, 24 URL-safe characters (short enough for a small QR code).
TOKEN_BYTES = 18
_KEY_SALT = "club.table_link"


def new_salt() -> str:
    return secrets.token_urlsafe(16)


def derive(key_salt: str, salt: str) -> str:
    """A token from its row's salt, under a key salt of its own kind (a link's, a card's)."""
    digest = salted_hmac(key_salt, salt, algorithm="sha256").digest()[:TOKEN_BYTES]
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def derive_token(salt: str) -> str:
    return derive(_KEY_SALT, salt)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class IssuedToken(models.Model):
    """What a link and a card share: the salt their token is derived from, its hash for the
    lookup, who issued it when, and who revoked it when (a live one has no `revoked_at`)."""

    key_salt: ClassVar[str]
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
        abstract = True

    @property
    def token(self) -> str:
        return derive(self.key_salt, self.salt)

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None

    @classmethod
    def salted(cls) -> dict[str, str]:
        """A new salt and its token's hash, for a fresh row."""
        salt = new_salt()
        return {"salt": salt, "token_hash": hash_token(derive(cls.key_salt, salt))}


class TableLink(IssuedToken):
    key_salt = _KEY_SALT
    table = models.ForeignKey("play.Table", on_delete=models.CASCADE, related_name="links")

    class Meta:
        db_table = "club_tablelink"  # the table it had in the one app
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

    @classmethod
    def fresh(cls, table_id: int, user=None) -> TableLink:
        """A new, unsaved link for the table with its own salt."""
        return cls(table_id=table_id, issued_by=user, **cls.salted())
