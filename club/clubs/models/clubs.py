from __future__ import annotations

import re
import zoneinfo
from datetime import date, datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower

from club.lib import zones

ORIGIN = re.compile(r"https://[a-z0-9.-]+(:[0-9]{1,5})?")


def validate_origins(value: str) -> None:
    """Space-separated https origins ("https://club.example.org"), nothing else: they go into
    the projector page's Content-Security-Policy frame-ancestors."""
    bad = [o for o in value.split() if not ORIGIN.fullmatch(o)]
    if bad:
        raise ValidationError(
            "Give whole https addresses with no path, e.g. https://club.example.org "
            "(not: %(bad)s).",
            params={"bad": ", ".join(bad)},
        )


def validate_time_zone(value: str) -> None:
    """An IANA time zone name ("Europe/London", "Pacific/Auckland") that this server knows."""
    if not zones.is_known(value):
        raise ValidationError(
            "Give a time zone by its IANA name, e.g. Europe/London or America/Los_Angeles "
            "(not: %(value)s).",
            params={"value": value},
        )


class OpenClubManager(models.Manager["Club"]):
    """Clubs that are open: a closed club (waiting to be deleted, or a sign-up waiting for its
    email confirmation) is not found by any page, list or link. `Club.all_objects` sees every
    club: the operator's undo and the purge (club.clubs.services.clubs_lifecycle)."""

    def get_queryset(self) -> models.QuerySet[Club]:
        return super().get_queryset().filter(closed_at=None)


class Club(models.Model):
    class UnitKind(models.TextChoices):
        MONEY = "money", "Money"
        POINTS = "points", "Points"

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    unit_kind = models.CharField(max_length=10, choices=UnitKind, default=UnitKind.MONEY)
    # Money is stored in minor units (pence, cents); the symbol and how many minor units make one
    # major unit turn 120 into "£1.20". Points clubs show "120 pts".
    currency_symbol = models.CharField(max_length=4, default="£", blank=True)
    minor_units = models.PositiveIntegerField(default=100)
    points_label = models.CharField(max_length=12, default="pts", blank=True)
    is_public = models.BooleanField(
        default=False, help_text="Anyone may read nights and standings without logging in."
    )
    confirm_table_hands = models.BooleanField(
        default=False,
        help_text="A hand entered through a table's link waits until a second player at the "
        "table confirms it.",
    )
    # After the last hand: a closed night stays provisional this long, while the
    # secretary may still correct hands; then it is published and every player is emailed.
    correction_minutes = models.PositiveSmallIntegerField(
        default=30,
        help_text="Minutes a closed night stays provisional before it is published (0: at once).",
    )
    players_may_claim = models.BooleanField(
        default=False,
        help_text="Players may claim their own record by email, with a one-time link.",
    )
    # Every page refuses to be framed by another site; a club that shows its tournament
    # leaderboard inside its own web site names that site here.
    projector_embed_origins = models.CharField(
        max_length=300,
        blank=True,
        validators=[validate_origins],
        help_text="Web sites that may show the tournament projector page in a frame, e.g. "
        "https://club.example.org (space-separated). Empty: none may.",
    )
    # New players are added by a secretary; a club may let its table scorers add them too, when
    # setting up a night or a tournament.
    scorers_add_players = models.BooleanField(
        default=False,
        help_text="Table scorers may add new players when setting up a night or a tournament.",
    )
    # The tables' permanent cards (club.play.models.table_cards): with no night open today, the
    # first phone to scan one may open tonight's night.
    first_card_opens_night = models.BooleanField(
        default=False,
        help_text="The first table card scanned opens tonight's night (no secretary needed).",
    )

    # Who is here: players may tick themselves in on the club's door QR code, and a draw seats
    # the odd players at tables of five or of three (club/play/services/draw.py).
    door_check_in = models.BooleanField(
        default=False,
        help_text="Players tick themselves in on the club's door QR code as they arrive.",
    )
    # Changing this salt makes every door QR code printed so far stop working.
    door_salt = models.CharField(max_length=40, blank=True, default="", editable=False)

    class OddTables(models.TextChoices):
        FIVE = "5", "Tables of five (one sits out each hand)"
        THREE = "3", "Tables of three"

    odd_tables = models.CharField(
        max_length=1,
        choices=OddTables,
        default=OddTables.FIVE,
        help_text="When the players do not make tables of four, the draw adds tables of this size.",
    )

    # The club's own clock: "tonight", a night's date, "closed at", the emails and the sheets are
    # the club's local time, whatever the server's (UTC).
    time_zone = models.CharField(
        max_length=64,
        default="Europe/London",
        validators=[validate_time_zone],
        help_text="The club's time zone, by its IANA name (e.g. Europe/London).",
    )

    class Closure(models.TextChoices):
        SIGNUP = "signup", "Signed up, email not confirmed yet"
        SECRETARY = "secretary", "Closed by its secretary"
        OPERATOR = "operator", "Closed by the operator"

    # Closed: hidden at once (every page a 404, in no list), deleted for good by `purge_clubs`
    # once `delete_after` has passed; until then an operator may reopen it.
    closed_at = models.DateTimeField(null=True, blank=True, editable=False)
    closed_because = models.CharField(max_length=10, choices=Closure, blank=True, editable=False)
    delete_after = models.DateTimeField(null=True, blank=True, editable=False)

    objects = OpenClubManager()
    all_objects = models.Manager()  # noqa: DJ012 - a manager, not a field

    class Meta:
        db_table = "club_club"  # the table it had in the one app
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(closed_at=None, delete_after=None, closed_because="")
                | (
                    models.Q(closed_at__isnull=False, delete_after__isnull=False)
                    & ~models.Q(closed_because="")
                ),
                name="club_closed_has_its_deletion_date",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)

    def local_now(self) -> datetime:
        """Now, on the club's clock."""
        from django.utils import timezone

        return timezone.now().astimezone(self.zone)

    def today(self) -> date:
        """The club's local date: "tonight" at 23:30 in Auckland is Auckland's date."""
        return self.local_now().date()

    def format_amount(self, amount: int, signed: bool = False) -> str:
        from club.lib.money import format_amount

        return format_amount(self, amount, signed=signed)

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.pk, None


class Role(models.TextChoices):
    SECRETARY = "secretary", "Secretary"
    SCORER = "scorer", "Table scorer"
    VIEWER = "viewer", "Viewer"


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role, default=Role.VIEWER)

    class Meta:
        db_table = "club_membership"  # the table it had in the one app
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="membership_one_per_user_club"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}, {self.club})"

    @property
    def can_score(self) -> bool:
        return self.role in (Role.SECRETARY, Role.SCORER)

    @property
    def is_secretary(self) -> bool:
        return self.role == Role.SECRETARY

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.club_id, None


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=60)
    # The name normalised and case-folded (club.lib.names.name_key), filled on every save: two
    # players of a club never share it, so "Ann\u200b Baxter" or "ANN BAXTER" cannot sit beside "Ann
    # Baxter". Empty (NULL) only for rows bulk-created without it, which the Lower(name) constraint
    # still covers.
    name_key = models.CharField(  # noqa: DJ001 - NULL, unlike "", never clashes
        max_length=180, null=True, blank=True, editable=False
    )
    active = models.BooleanField(default=True)
    # The player's own results by email, and their own account's view of them.
    email = models.EmailField(blank=True, help_text="Their results are emailed here.")
    email_results = models.BooleanField(
        default=True, help_text="Email them their result when a night is published."
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player_records",
        help_text="The account that sees this player's own nights and money owed.",
    )

    class Meta:
        db_table = "club_player"  # the table it had in the one app
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"), "club", name="player_name_unique_in_club_ignoring_case"
            ),
            models.UniqueConstraint(fields=["club", "name_key"], name="player_name_key_unique"),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="player_one_record_per_user_in_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        from club.lib.names import name_key, normalise_name

        self.name = normalise_name(self.name)
        self.name_key = name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.club_id, None
