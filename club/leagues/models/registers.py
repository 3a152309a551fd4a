"""Who plays for whom: each club names its players for the league season from its own Players.

A `LeaguePerson` is one person across the league's clubs. A player record claimed by an account is
that account's person wherever it is named; an unclaimed record gets a person of its own, which the
organiser may match to another (likely duplicates are shown by name). Each person has one record in
the league's own club (`seat`), which sits at the match nights' tables.

A person is registered for at most one club at a time: the database refuses a second live
registration. A transfer, granted by the organiser, ends the first.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class LeaguePerson(models.Model):
    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="people")
    name = models.CharField(max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="league_people",
    )
    # The person's record in the league's own club: the player seated at match nights.
    seat = models.OneToOneField(
        "clubs.Player", on_delete=models.PROTECT, related_name="league_person"
    )

    class Meta:
        ordering = ["league", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "user"],
                condition=Q(user__isnull=False),
                name="league_person_one_per_account",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    """A club's naming of one of its players for the league season."""

    league = models.ForeignKey(
        "leagues.League", on_delete=models.CASCADE, related_name="registrations"
    )
    entry = models.ForeignKey(
        "leagues.LeagueClub", on_delete=models.CASCADE, related_name="registrations"
    )
    person = models.ForeignKey(LeaguePerson, on_delete=models.CASCADE, related_name="registrations")
    # The club's own record of the player (in entry.club).
    player = models.ForeignKey(
        "clubs.Player", on_delete=models.CASCADE, related_name="league_registrations"
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # Ended by a transfer (or by the club withdrawing the name before he played).
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["entry", "person__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "person"],
                condition=Q(ended_at__isnull=True),
                name="registration_one_club_a_person",
            ),
            models.UniqueConstraint(
                fields=["league", "player"],
                condition=Q(ended_at__isnull=True),
                name="registration_one_live_a_record",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} for {self.entry.club}"

    @property
    def is_live(self) -> bool:
        return self.ended_at is None


class Transfer(models.Model):
    """The organiser's leave for a person to play for another club this season."""

    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="transfers")
    person = models.ForeignKey(LeaguePerson, on_delete=models.CASCADE, related_name="transfers")
    from_entry = models.ForeignKey(
        "leagues.LeagueClub", on_delete=models.CASCADE, related_name="transfers_out"
    )
    to_entry = models.ForeignKey(
        "leagues.LeagueClub", on_delete=models.CASCADE, related_name="transfers_in"
    )
    granted_at = models.DateTimeField(auto_now_add=True)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["league", "-granted_at"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(from_entry=models.F("to_entry")), name="transfer_between_two_clubs"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person}: {self.from_entry.club} to {self.to_entry.club}"
