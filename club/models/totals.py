from __future__ import annotations

from django.db import models


class NightTotal(models.Model):
    """One player's totals for one night: the sums of their score lines on that night.

    Kept by the database itself: triggers on the score line table (migration 0002) add, subtract
    and move each line as it is inserted, updated or deleted, whichever code writes it (the hand
    service, seed_demo's bulk_create, a cascade). The standings, player pages and club home read
    these rows, one per player and night, instead of every score line. Never write them from Python
    (tests/club/test_standings_totals.py checks them against the score lines).
    """

    night = models.ForeignKey("club.Night", on_delete=models.CASCADE, related_name="totals")
    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="totals")
    season = models.ForeignKey("club.Season", on_delete=models.CASCADE, related_name="totals")
    hands = models.IntegerField(default=0)  # hands taken part in (not sitting out)
    net = models.IntegerField(default=0)  # sum of amounts, in the club's unit
    points = models.IntegerField(default=0)  # sum of ladder points
    declared = models.IntegerField(default=0)  # contracts this player called
    made = models.IntegerField(default=0)  # ... and made

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="night_total_one_per_player"),
        ]
        indexes = [
            models.Index(fields=["season", "player"], name="night_total_season_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} on night {self.night_id}: {self.net}"
