from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q


class Night(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    season = models.ForeignKey("clubs.Season", on_delete=models.PROTECT, related_name="nights")
    date = models.DateField()
    title = models.CharField(max_length=80, blank=True)
    # A night that does not count (a tournament run apart from the season) keeps its hands and its
    # settle-up, but the season standings, player pages and club home leave it out.
    counts_in_standings = models.BooleanField(
        default=True, help_text="Its hands count in the season standings and player pages."
    )
    status = models.CharField(max_length=6, choices=Status, default=Status.OPEN)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The one-time token of the form that created the night: the same form sent twice (a
    # double-click, a POST resent over a slow link) finds this night instead of making another.
    form_token = models.UUIDField(null=True, blank=True, editable=False)
    # A closed night is provisional until `publish_after` (the club's correction
    # window), then published (final). club/money/services/publish.py moves it, under a row lock.
    publish_after = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "club_night"  # the table it had in the one app
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["season", "date"], name="night_season_date")]
        constraints = [
            models.UniqueConstraint(fields=["form_token"], name="night_form_token_unique"),
            models.CheckConstraint(
                condition=Q(published_at__isnull=True) | Q(status="closed"),
                name="night_published_only_when_closed",
            ),
        ]

    def __str__(self) -> str:
        return self.title or f"Club night {self.date:%d %b %Y}"

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED

    @property
    def is_published(self) -> bool:
        """Closed and final. A night closed with no correction window (closed before there was
        one, or written closed by an import or the demo) is final as it stands."""
        return self.is_closed and (self.published_at is not None or self.publish_after is None)

    @property
    def is_provisional(self) -> bool:
        """Closed, inside the correction window: final figures are not out yet."""
        return self.is_closed and self.published_at is None and self.publish_after is not None

    @property
    def state(self) -> str:
        """The night's state as its pages name it (and style its badge): "open", "closed"
        (provisional, inside its correction window) or "published" (final)."""
        return "published" if self.is_published else str(self.status)

    @property
    def state_label(self) -> str:
        """ "Open", "Closed" or "Published"."""
        return "Published" if self.is_published else str(self.get_status_display())

    @property
    def published_when(self) -> datetime | None:
        """When the night became final: its publishing, or its close for a night closed with no
        correction window; None for a night not published."""
        if not self.is_published:
            return None
        return self.published_at or self.closed_at

    @property
    def club(self):
        return self.season.club

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.season.club_id, self.pk

    def audit_label(self) -> str:
        """How an audit event names this night, for as long as the event is kept."""
        label = str(self)
        date = f"{self.date:%d %b %Y}"
        return label if date in label else f"{label}, {date}"


class Table(models.Model):
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="tables")
    round_number = models.PositiveSmallIntegerField(default=1)
    number = models.PositiveSmallIntegerField()
    # Position (0-based, in `Seat.position` order) of the player who deals hand 1.
    first_dealer = models.PositiveSmallIntegerField(default=0)
    # The permanent table card the players seated this table from (club.play.services.table_cards).
    card = models.ForeignKey(
        "play.TableCard",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tables",
    )

    class Meta:
        db_table = "club_table"  # the table it had in the one app
        ordering = ["round_number", "number"]
        constraints = [
            # One card seats one table a night: two phones seating the same card at once make
            # one table, and the second finds it.
            models.UniqueConstraint(fields=["night", "card"], name="table_one_per_card_a_night"),
            models.UniqueConstraint(
                fields=["night", "round_number", "number"], name="table_number_unique_in_round"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
            models.CheckConstraint(
                condition=Q(first_dealer__lte=4), name="table_first_dealer_is_a_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.night.season.club_id, self.night_id


class Seat(models.Model):
    """A player's seat at a table; positions go clockwise from 0."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="seats")

    class Meta:
        db_table = "club_seat"  # the table it had in the one app
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_player_once_per_table"),
            models.CheckConstraint(condition=Q(position__lte=4), name="seat_position_0_to_4"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table} seat {self.position + 1}"

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.table.night.season.club_id, self.table.night_id
