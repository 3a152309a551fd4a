from __future__ import annotations

from django.db import models
from django.db.models import F, Q


class StandingsMethod(models.TextChoices):
    NET = "net", "Net amount"
    POINTS = "points", "Winner-only points"
    AVERAGE = "average", "Average per hand"


class Season(models.Model):
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    start = models.DateField()
    end = models.DateField()
    rule_set = models.ForeignKey(
        "clubs.RuleSet",
        on_delete=models.PROTECT,
        related_name="seasons",
        help_text="The stakes the nights settle under.",
    )
    standings_method = models.CharField(
        max_length=10, choices=StandingsMethod, default=StandingsMethod.NET
    )
    standings_rule_set = models.ForeignKey(
        "clubs.RuleSet",
        on_delete=models.PROTECT,
        related_name="ladder_seasons",
        null=True,
        blank=True,
        help_text="For winner-only points: the rule set the ladder scores the same hands under.",
    )
    min_nights = models.PositiveSmallIntegerField(
        default=0, help_text="Nights a player needs to qualify for the ladder."
    )
    best_nights = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Only a player's best N nights count (blank: all)."
    )

    class Meta:
        db_table = "club_season"  # the table it had in the one app
        ordering = ["-start"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
            models.CheckConstraint(
                condition=Q(end__gte=F("start")), name="season_ends_after_start"
            ),
            models.CheckConstraint(
                condition=Q(best_nights__isnull=True) | Q(best_nights__gte=1),
                name="season_best_nights_at_least_1",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.club_id, None
