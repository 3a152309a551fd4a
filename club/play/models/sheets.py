from __future__ import annotations

from django.db import models


class NightSheetCache(models.Model):
    """The printed settlement sheet of a closed night, kept so that it comes back at once. It is
    served only while `fingerprint` matches the night as it is now (club.play.services.sheet_cache),
    which is also the ETag of the download."""

    night = models.OneToOneField("play.Night", on_delete=models.CASCADE, related_name="+")
    fingerprint = models.CharField(max_length=64)
    pdf = models.BinaryField()
    rendered_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "club_nightsheetcache"  # the table it had in the one app

    def __str__(self) -> str:
        return f"Sheet of night {self.night_id} ({len(self.pdf)} bytes)"
