"""Tournaments: a night played in rounds, with its entrants.

A tournament IS a night (DESIGN.md section 6): its rounds are the night's tables with their
`round_number`, its hands are entered at those tables exactly as on a club night, and its score
lines and night totals are the night's. What the night does not know is kept here: the rounds and
hands per round, the scoring method, the seating seed, the round in play, and who is entered from
which round until which.

Everything needed to seat the next round again is stored: the seed, the entrants of each round
(Entry.joined_round / withdrawn_after_round) and the rounds played (the tables and seats), so the
plan is `scoring.seating.plan(entrants, rounds, seed, played=rounds played)` at any time.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from scoring.tournament import Method


class Tournament(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "Entries open"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class ScoringMethod(models.TextChoices):
        AMOUNTS = Method.AMOUNTS.value, "Amounts summed"
        TABLE_RANK = Method.TABLE_RANK.value, "Table-rank points per round"

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="tournaments")
    night = models.OneToOneField("play.Night", on_delete=models.CASCADE, related_name="tournament")
    name = models.CharField(max_length=80)
    rounds = models.PositiveSmallIntegerField(default=3)
    hands_per_round = models.PositiveSmallIntegerField(default=8)
    scoring_method = models.CharField(
        max_length=12, choices=ScoringMethod, default=ScoringMethod.AMOUNTS
    )
    is_public = models.BooleanField(
        default=False,
        help_text="Anyone may follow the leaderboard and read the results without logging in.",
    )
    seed = models.PositiveIntegerField(
        default=0, help_text="The seating seed: the same seed and entries give the same seats."
    )
    current_round = models.PositiveSmallIntegerField(
        default=0, help_text="The round in play; 0 before the first round opens."
    )
    status = models.CharField(max_length=8, choices=Status, default=Status.SETUP)
    # A table may not save more hands in a round than `hands_per_round` unless the director allows
    # it here (a round replayed, a hand miscounted); the scorer is warned either way.
    extra_hands_allowed = models.BooleanField(
        default=False,
        help_text="Tables may save hands past the round's number (they are warned).",
    )
    # The most times any two entrants meet over the whole plan (played rounds and the rounds still
    # to come for the current entrants): recomputed whenever the plan can change.
    planned_max_meetings = models.PositiveSmallIntegerField(null=True, blank=True)
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "club_tournament"  # the table it had in the one app
        ordering = ["-night__date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds__gte=1) & Q(rounds__lte=30), name="tournament_rounds_1_to_30"
            ),
            models.CheckConstraint(
                condition=Q(hands_per_round__gte=1) & Q(hands_per_round__lte=60),
                name="tournament_hands_per_round_1_to_60",
            ),
            models.CheckConstraint(
                condition=Q(current_round__lte=F("rounds")),
                name="tournament_current_round_within_rounds",
            ),
            models.CheckConstraint(
                condition=(Q(status="setup") & Q(current_round=0))
                | (Q(status__in=["running", "finished"]) & Q(current_round__gte=1)),
                name="tournament_status_matches_round",
            ),
            models.CheckConstraint(
                condition=Q(scoring_method__in=[m.value for m in Method]),
                name="tournament_scoring_method_known",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def method(self) -> Method:
        return Method(self.scoring_method)

    @property
    def is_setup(self) -> bool:
        return self.status == self.Status.SETUP

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def next_round(self) -> int:
        """The first round whose seats are not drawn yet (entries made now join it)."""
        return self.current_round + 1

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.club_id, self.night_id


class Entry(models.Model):
    """A player entered in a tournament: plays rounds `joined_round` .. `withdrawn_after_round`
    (to the end when that is empty)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="entries")
    joined_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    entered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "club_entry"  # the table it had in the one app
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once_per_player"),
            models.CheckConstraint(condition=Q(joined_round__gte=1), name="entry_joins_round_1_on"),
            models.CheckConstraint(
                condition=Q(withdrawn_after_round__isnull=True)
                | Q(withdrawn_after_round__gte=F("joined_round")),
                name="entry_withdraws_after_playing",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    def plays(self, round_number: int) -> bool:
        """Whether this entrant is seated in that round."""
        return self.joined_round <= round_number and (
            self.withdrawn_after_round is None or round_number <= self.withdrawn_after_round
        )

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_after_round is not None

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.tournament.club_id, self.tournament.night_id
