"""Money owed after a night: IOUs, what settles them, publications and their emails.

Pretix-style: every change is a row, balances are sums over rows, nothing is a stored total.
A `Debt` is one settle-up payment of a night (payer owes payee `amount`, in the club's minor
unit); `Settlement` rows pay it off in full or in part, net it against a debt the other way, or
void what is left when a corrected night's settle-up replaces it. What is still owed on a debt
is its amount less its settlements; a player's balance is what they are owed less what they owe.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.signals import post_migrate


class Debt(models.Model):
    """An IOU: `payer` owes `payee` `amount` from the settle-up of `night`."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="debts")
    night = models.ForeignKey("play.Night", on_delete=models.CASCADE, related_name="debts")
    payer = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="debts_owed")
    payee = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="debts_due")
    amount = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "club_debt"  # the table it had in the one app
        ordering = ["night__date", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="debt_amount_positive"),
            models.CheckConstraint(condition=~Q(payer=F("payee")), name="debt_between_two_players"),
        ]
        indexes = [
            models.Index(fields=["club", "payer"], name="debt_club_payer"),
            models.Index(fields=["club", "payee"], name="debt_club_payee"),
        ]

    def __str__(self) -> str:
        return f"{self.payer} owes {self.payee} {self.amount} ({self.night})"


class Settlement(models.Model):
    """Part or all of a debt settled: paid, netted against a debt the other way, or voided."""

    class Kind(models.TextChoices):
        PAID = "paid", "paid"
        NETTED = "netted", "netted"
        VOIDED = "voided", "voided (the night's settle-up was corrected)"

    debt = models.ForeignKey(Debt, on_delete=models.CASCADE, related_name="settlements")
    amount = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind)
    # Both debts settled by one netting share its id, so the pair reads as one action.
    netting = models.ForeignKey(
        "money.Netting", on_delete=models.CASCADE, null=True, blank=True, related_name="settlements"
    )
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    note = models.CharField(max_length=120, blank=True)
    # A payment marked without a login: through a table's link while the night was provisional
    # ("Table 3's link (Bob's phone)"), or the payee's own link from their results email. Shown
    # to the payee; a secretary may undo it.
    via = models.CharField(max_length=120, blank=True)
    link = models.ForeignKey(
        "play.TableLink", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # An undone payment stays as a row (the record of what happened) but settles nothing.
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        db_table = "club_settlement"  # the table it had in the one app
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="settlement_amount_positive"),
            models.CheckConstraint(
                condition=Q(undone_at__isnull=True) | Q(kind="paid"),
                name="settlement_only_payments_undone",
            ),
            models.CheckConstraint(
                condition=Q(netting__isnull=True) | Q(kind="netted"),
                name="settlement_netting_only_when_netted",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount} {self.kind} on {self.debt_id}"


class Netting(models.Model):
    """One recorded netting: what two players owe each other, set off in both directions."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="nettings")
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    amount = models.PositiveIntegerField()

    class Meta:
        db_table = "club_netting"  # the table it had in the one app
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="netting_amount_positive"),
        ]

    def __str__(self) -> str:
        return f"Netting of {self.amount}"


class Publication(models.Model):
    """A night's results going out: the first, or again after the night was reopened."""

    night = models.ForeignKey("play.Night", on_delete=models.CASCADE, related_name="publications")
    number = models.PositiveSmallIntegerField()
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        db_table = "club_publication"  # the table it had in the one app
        ordering = ["night", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="publication_number_unique"),
        ]

    def __str__(self) -> str:
        return f"Publication {self.number} of night {self.night_id}"

    @property
    def is_correction(self) -> bool:
        return self.number > 1


class Delivery(models.Model):
    """One player's email for one publication: the outbox row. At most one per player per
    publication (the constraint), and once `sent` it is never sent again."""

    class Status(models.TextChoices):
        PENDING = "pending", "waiting to send"
        SENDING = "sending", "being sent"
        SENT = "sent", "sent"
        FAILED = "failed", "failed"

    publication = models.ForeignKey(
        Publication, on_delete=models.CASCADE, related_name="deliveries"
    )
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="deliveries")
    email = models.CharField(max_length=254)  # the address at publication, as given
    status = models.CharField(max_length=8, choices=Status, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "club_delivery"  # the table it had in the one app
        ordering = ["publication", "player__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["publication", "player"], name="delivery_one_per_player_per_publication"
            ),
            models.CheckConstraint(
                condition=Q(sent_at__isnull=True) | Q(status="sent"),
                name="delivery_sent_at_only_when_sent",
            ),
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="delivery_due")]

    def __str__(self) -> str:
        return f"{self.email}: {self.status}"


# A debt between players of different clubs cannot exist: the service refuses it, and the
# database refuses it too (a foreign key cannot say "the same club", so a trigger does). A row
# not there yet (a fixture loading debts before their players, as loaddata may) compares as
# unknown and passes; the foreign keys, checked at commit, catch a row that never comes.
_SQLITE_DEBT_CHECK = """
CREATE TRIGGER club_debt_same_club_{event} BEFORE {event} ON club_debt
WHEN (SELECT club_id FROM club_player WHERE id = NEW.payer_id) != NEW.club_id
  OR (SELECT club_id FROM club_player WHERE id = NEW.payee_id) != NEW.club_id
  OR (SELECT s.club_id FROM club_night n JOIN club_season s ON s.id = n.season_id
       WHERE n.id = NEW.night_id) != NEW.club_id
BEGIN SELECT RAISE(ABORT, 'debt_players_in_the_night_club'); END
"""
_POSTGRES_DEBT_FUNCTION = """
CREATE OR REPLACE FUNCTION club_debt_same_club() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT club_id FROM club_player WHERE id = NEW.payer_id) <> NEW.club_id
       OR (SELECT club_id FROM club_player WHERE id = NEW.payee_id) <> NEW.club_id
       OR (SELECT s.club_id FROM club_night n JOIN club_season s ON s.id = n.season_id
            WHERE n.id = NEW.night_id) <> NEW.club_id THEN
        RAISE EXCEPTION 'debt_players_in_the_night_club' USING ERRCODE = '23514';
    END IF;
    RETURN NEW;
END
$$;
"""


def install_debt_check(connection) -> bool:
    """(Re)create the same-club trigger on club_debt; idempotent, run after every migrate
    (SQLite drops a table's triggers when a migration rebuilds it)."""
    with connection.cursor() as cursor:
        if "club_debt" not in connection.introspection.table_names(cursor):
            return False
        if connection.vendor == "postgresql":
            cursor.execute(_POSTGRES_DEBT_FUNCTION)
            cursor.execute("DROP TRIGGER IF EXISTS club_debt_same_club ON club_debt")
            cursor.execute(
                "CREATE TRIGGER club_debt_same_club BEFORE INSERT OR UPDATE ON club_debt "
                "FOR EACH ROW EXECUTE FUNCTION club_debt_same_club()"
            )
        elif connection.vendor == "sqlite":
            for event in ("INSERT", "UPDATE"):
                cursor.execute(f"DROP TRIGGER IF EXISTS club_debt_same_club_{event}")
                cursor.execute(_SQLITE_DEBT_CHECK.format(event=event))
    return True


def _after_migrate(sender, using: str = "default", **kwargs) -> None:
    if getattr(sender, "label", None) == "money":
        from django.db import connections

        install_debt_check(connections[using])


post_migrate.connect(_after_migrate, dispatch_uid="club.debt_same_club")
