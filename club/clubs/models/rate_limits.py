"""A rate limit's window kept in the database, for when there is no shared cache: every web
process and node reads the same row, and the row's lock makes counting and recording one step."""

from __future__ import annotations

from django.db import models


class RateWindow(models.Model):
    """The times (Unix seconds) of the writes one key made in its current window."""

    key = models.CharField(max_length=200, unique=True)
    stamps = models.JSONField(default=list)
    # After this nobody needs the row: the newest write has dropped out of its window.
    expires_at = models.DateTimeField(db_index=True)
    # Whether the latest write was counted (PostgreSQL's one-statement count returns it).
    last_allowed = models.BooleanField(default=True)

    class Meta:
        db_table = "club_ratewindow"  # the table it had in the one app
        constraints = [
            models.CheckConstraint(condition=~models.Q(key=""), name="ratewindow_key_not_empty")
        ]

    def __str__(self) -> str:
        return f"{self.key}: {len(self.stamps)}"
