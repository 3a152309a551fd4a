"""A league: clubs of this server playing each other in matches, home and away, under rules the
organiser sets. The organiser belongs to no club through it.

Its match nights need players, seasons and a rule set, and must count in no club's ledger,
standings or grades. So each league has a club of its own, `host_club`, which nobody is a member
of and no page lists: the match nights are that club's nights, each player named for the league
has a record there (`LeaguePerson.seat`), and the league's rule set and unit are that club's. Every
night, table link, phone and offline queue then works as on a club night, and the home club's own
tables are never written. The host club's audit trail is the league's log.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from club.play.models.table_links import IssuedToken

# The tie-breaks a league may choose, in the order it chooses them, after points.
TIE_BREAKS = {
    "aggregate": "Aggregate (the sum of the side's scores)",
    "won": "Matches won",
    "head_to_head": "Points between the tied clubs",
}


class League(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="leagues_organised"
    )
    host_club = models.OneToOneField(
        "clubs.Club", on_delete=models.PROTECT, related_name="hosted_league"
    )
    season_start = models.DateField()
    season_end = models.DateField()
    meetings = models.PositiveSmallIntegerField(
        default=2, help_text="How many times each pair of clubs meets: home and away in turn."
    )
    points_win = models.SmallIntegerField(default=3)
    points_tie = models.SmallIntegerField(default=1)
    points_loss = models.SmallIntegerField(default=0)
    points_forfeit = models.SmallIntegerField(
        default=0, help_text="What a club that does not turn up gets; its opponent gets a win."
    )
    players_a_side = models.PositiveSmallIntegerField(
        default=6, help_text="Even: each table seats two home and two away players."
    )
    deals_a_match = models.PositiveSmallIntegerField(default=24)
    # Comma-separated keys of TIE_BREAKS, first applied first.
    tie_breaks = models.CharField(max_length=60, default="aggregate,won")
    is_public = models.BooleanField(
        default=False,
        help_text="Anyone may read the league table; otherwise only its clubs and organiser.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-season_start", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(season_end__gte=F("season_start")),
                name="league_season_ends_after_start",
            ),
            models.CheckConstraint(condition=Q(meetings__gte=1), name="league_pairs_meet"),
            models.CheckConstraint(
                # Even, so that each table seats two of each side.
                condition=Q(players_a_side__in=list(range(2, 41, 2))),
                name="league_players_a_side_even_2_to_40",
            ),
            models.CheckConstraint(condition=Q(deals_a_match__gte=1), name="league_deals_a_match"),
            models.CheckConstraint(
                condition=Q(points_win__gte=F("points_tie"), points_tie__gte=F("points_loss")),
                name="league_win_beats_tie_beats_loss",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def tie_break_keys(self) -> list[str]:
        return [key for key in self.tie_breaks.split(",") if key in TIE_BREAKS]


class LeagueClub(models.Model):
    """A club invited to a league; it plays once its secretary accepts."""

    class Status(models.TextChoices):
        INVITED = "invited", "Invited"
        ACCEPTED = "accepted", "Playing"
        DECLINED = "declined", "Declined"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="entries")
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="league_entries")
    status = models.CharField(max_length=8, choices=Status, default=Status.INVITED)
    invited_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["league", "club__name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "club"], name="league_club_once"),
            models.CheckConstraint(
                condition=Q(status="invited") | Q(answered_at__isnull=False),
                name="league_club_answered_when_not_invited",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} in {self.league}"

    @property
    def is_playing(self) -> bool:
        return self.status == self.Status.ACCEPTED


class CalendarFeed(IssuedToken):
    """A club's iCalendar feed of its fixtures: an unguessable address, one live a club."""

    key_salt = "club.league_calendar"
    entry = models.ForeignKey(LeagueClub, on_delete=models.CASCADE, related_name="feeds")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["entry"],
                condition=Q(revoked_at__isnull=True),
                name="league_calendar_one_live_per_club",
            ),
        ]

    def __str__(self) -> str:
        return f"Calendar of {self.entry}"
