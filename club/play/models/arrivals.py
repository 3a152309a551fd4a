"""Who is here: the players who have arrived for a club night, before and after its draw."""

from __future__ import annotations

from django.db import models


class Arrival(models.Model):
    class Via(models.TextChoices):
        SECRETARY = "secretary", "Ticked by a secretary"
        DOOR = "door", "Ticked in at the door"

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="arrivals")
    # The club night's date: arrivals come before the night exists (the draw creates it).
    date = models.DateField()
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="arrivals")
    arrived_at = models.DateTimeField(auto_now_add=True)
    via = models.CharField(max_length=10, choices=Via, default=Via.SECRETARY)

    class Meta:
        db_table = "club_arrival"  # the table it had in the one app
        ordering = ["-arrived_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "date", "player"], name="arrival_once_per_player_and_date"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} arrived {self.date:%d %b %Y}"
