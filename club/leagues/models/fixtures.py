"""Fixtures and match cards.

A fixture is one meeting of two clubs on a date, the first named at home. It opens as a night of
the league's own club (`night`). When the night closes the home secretary submits its card: each
side's score, the sum of its players' results, in the league's unit (minor units, as a score line
counts). The away side confirms the card by its own link or disputes it with a note; a confirmed
card counts, a disputed one waits for the organiser. A club that does not turn up forfeits, which
only the organiser records.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from club.play.models.table_links import IssuedToken


class Fixture(models.Model):
    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="fixtures")
    # Each cycle is one round robin: every pair meets once in it, and with an odd number of
    # clubs each club has one bye in it.
    cycle = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField()
    date = models.DateField()
    home = models.ForeignKey(
        "leagues.LeagueClub", on_delete=models.CASCADE, related_name="home_fixtures"
    )
    away = models.ForeignKey(
        "leagues.LeagueClub", on_delete=models.CASCADE, related_name="away_fixtures"
    )
    night = models.OneToOneField(
        "play.Night",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="league_fixture",
    )

    class Meta:
        ordering = ["date", "cycle", "round", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(home=F("away")), name="fixture_two_clubs"),
            models.UniqueConstraint(
                fields=["league", "cycle", "home", "away"], name="fixture_pair_once_a_cycle"
            ),
            models.CheckConstraint(
                condition=Q(cycle__gte=1, round__gte=1), name="fixture_cycle_round_from_1"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.home.club} v {self.away.club}, {self.date:%d %b %Y}"


class MatchCard(models.Model):
    class State(models.TextChoices):
        SUBMITTED = "submitted", "Waiting for the away side"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed: waiting for the organiser"
        SETTLED = "settled", "Settled by the organiser"
        FORFEIT = "forfeit", "Forfeit"

    # The states in which a card counts in the league table.
    COUNTING = (State.CONFIRMED, State.SETTLED, State.FORFEIT)

    fixture = models.OneToOneField(Fixture, on_delete=models.CASCADE, related_name="card")
    state = models.CharField(max_length=9, choices=State, default=State.SUBMITTED)
    home_score = models.IntegerField(default=0)
    away_score = models.IntegerField(default=0)
    forfeited_by = models.ForeignKey(
        "leagues.LeagueClub",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="forfeits",
    )
    submitted_at = models.DateTimeField(auto_now_add=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    dispute_note = models.TextField(blank=True, max_length=1000)
    settled_at = models.DateTimeField(null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        constraints = [
            # The night is zero-sum and every table seats two of each side, so the sides' scores
            # sum to zero; a forfeit has no scores.
            models.CheckConstraint(
                condition=Q(home_score=-F("away_score")), name="match_card_sides_sum_to_zero"
            ),
            models.CheckConstraint(
                condition=(
                    Q(state="forfeit", forfeited_by__isnull=False, home_score=0)
                    | (~Q(state="forfeit") & Q(forfeited_by__isnull=True))
                ),
                name="match_card_forfeit_names_the_club",
            ),
            models.CheckConstraint(
                condition=~Q(state="disputed") | ~Q(dispute_note=""),
                name="match_card_dispute_has_a_note",
            ),
        ]

    def __str__(self) -> str:
        return f"Card of {self.fixture}"

    @property
    def counts(self) -> bool:
        return self.state in self.COUNTING


class CardLink(IssuedToken):
    """The away side's link to confirm or dispute a card: sent to its secretaries."""

    key_salt = "club.league_card"
    card = models.ForeignKey(MatchCard, on_delete=models.CASCADE, related_name="links")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["card"],
                condition=Q(revoked_at__isnull=True),
                name="league_card_link_one_live",
            ),
        ]

    def __str__(self) -> str:
        return f"Away link of {self.card}"
