from __future__ import annotations

from django.db import models


class StagedUpload(models.Model):
    """A club data file or paper sheet between its preview and the secretary's confirmation
    (club.interchange.services.staging). It is kept in the database, not on a web node's disk, so
    that
    the confirmation may reach any node. Stored once per content: two previews of the same file
    share it."""

    digest = models.CharField(max_length=64)  # SHA-256 of `raw`, in hex
    raw = models.BinaryField()
    staged_at = models.DateTimeField()  # the latest preview; pruned a day after it

    class Meta:
        db_table = "club_stagedupload"  # the table it had in the one app
        constraints = [
            models.UniqueConstraint(fields=["digest"], name="staged_upload_one_per_content"),
        ]
        indexes = [models.Index(fields=["staged_at"], name="staged_upload_age")]

    def __str__(self) -> str:
        return f"Staged upload {self.digest[:12]}"
