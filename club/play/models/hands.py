from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

import scoring

CONTRACT_CHOICES = [(c.value, c.display_name) for c in scoring.Contract] + [
    (scoring.ALL_PASSED, "All passed"),
    (scoring.MISDEAL, "Cards wrongly dealt"),
]
TRUMP_CHOICES = [(t.value, t.display_name) for t in scoring.Trump]
SUIT_CHOICES = [(t.value, t.display_name) for t in scoring.contracts.SUITS]
PENALTY_CHOICES = [(p.value, p.display_name) for p in scoring.Penalty]
OUTCOME_CHOICES = [(o.value, o.value.replace("_", " ")) for o in scoring.Outcome]
# Keys of hands with no contract played: nobody declared, nobody counted tricks.
NO_CONTRACT = (scoring.ALL_PASSED, scoring.MISDEAL)


class Hand(models.Model):
    """One physical hand as recorded at a table, with its scored result.

    `made`, `over_tricks` and `under_tricks` are the scoring core's result, stored so pages can
    count and filter without re-scoring; the amounts are the score lines.
    """

    table = models.ForeignKey("play.Table", on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    rule_set = models.ForeignKey("clubs.RuleSet", on_delete=models.PROTECT, related_name="hands")
    dealer = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    sitting_out = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    contract = models.CharField(max_length=20, choices=CONTRACT_CHOICES)
    declarer = models.ForeignKey(
        "clubs.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="declared_hands",
    )
    partner = models.ForeignKey(
        "clubs.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="partnered_hands",
    )
    trump = models.CharField(max_length=10, choices=TRUMP_CHOICES, blank=True)
    tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    # The revokes are rows of their own (Revoke), one a revoke, in the order found.
    # Against a misère: an exposed card, a lead or a play out of turn by a defender, on which the
    # caller claimed the stakes (001).
    penalty = models.CharField(max_length=20, choices=PENALTY_CHOICES, blank=True)
    penalty_by = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # Cards improperly divided, found after the first call: the ids of the players who held the
    # wrong number (Hoyle's Digest of the Laws); they lose the stake whatever the tricks.
    wrong_cards = models.JSONField(default=list, blank=True)
    turned_suit = models.CharField(
        max_length=10, choices=SUIT_CHOICES, blank=True, help_text="The suit the dealer turned up."
    )
    # The scoring core's outcome: played, all passed, void (revokes on both sides) or misdeal.
    outcome = models.CharField(max_length=12, choices=OUTCOME_CHOICES, default="played")
    last_trick_by = models.ForeignKey(
        "clubs.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="General misère: the player who took the last trick and pays.",
    )
    notes = models.CharField(max_length=200, blank=True)
    made = models.BooleanField(null=True)
    over_tricks = models.PositiveSmallIntegerField(default=0)
    under_tricks = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    # Made by the phone or browser that entered the hand, once per entry: a save resent after
    # its reply was lost (or sent again from the offline queue) finds the hand it already made.
    client_id = models.UUIDField(null=True, blank=True, editable=False)
    # What that entry said (club.play.services.hand_entry.entry_digest), as first sent: a save
    # arriving again under the same client id is "already saved" only when it says the same; a
    # different hand under a used id (a page restored by the browser's Back) is refused, never
    # dropped.
    entry_digest = models.CharField(max_length=64, blank=True, default="", editable=False)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)
    # Entered (or last corrected) through a table's link rather than by a logged-in member.
    entered_via = models.ForeignKey(
        "play.TableLink", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The club asks a second player to confirm hands entered at the table (Club.confirm_table_hands)
    # and nobody has yet. Such a hand counts in the totals like any other, shown as unconfirmed;
    # the night cannot be closed while one is waiting.
    awaiting_confirmation = models.BooleanField(default=False)

    class Meta:
        db_table = "club_hand"  # the table it had in the one app
        ordering = ["table", "number"]
        indexes = [
            models.Index(
                fields=["table"],
                condition=Q(awaiting_confirmation=True),
                name="hand_awaiting_confirmation",
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique_at_table"),
            models.UniqueConstraint(fields=["client_id"], name="hand_client_id_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(
                condition=Q(tricks__isnull=True) | Q(tricks__lte=13), name="hand_tricks_0_to_13"
            ),
            models.CheckConstraint(
                condition=Q(contract__in=NO_CONTRACT)
                | (
                    Q(declarer__isnull=False)
                    & (Q(tricks__isnull=False) | ~Q(penalty="") | ~Q(wrong_cards=[]))
                ),
                name="hand_contract_has_declarer_and_tricks",
            ),
            models.CheckConstraint(
                condition=(Q(penalty="") & Q(penalty_by__isnull=True))
                | (~Q(penalty="") & Q(penalty_by__isnull=False)),
                name="hand_penalty_has_its_offender",
            ),
            models.CheckConstraint(
                condition=~Q(contract__in=NO_CONTRACT)
                | (
                    Q(declarer__isnull=True)
                    & Q(tricks__isnull=True)
                    & Q(penalty="")
                    & Q(wrong_cards=[])
                ),
                name="hand_no_contract_no_declarer",
            ),
            models.CheckConstraint(
                condition=Q(partner__isnull=True)
                | (Q(contract="prop_cop") & ~Q(partner=F("declarer"))),
                name="hand_partner_only_for_prop_cop",
            ),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} ({self.get_contract_display()})"

    def audit_owner(self) -> tuple[int | None, int | None]:
        """(club id, night id) of this row, for the audit trail of a change made in the admin."""
        return self.table.night.season.club_id, self.table.night_id

    def audit_subject(self) -> str:
        """How the audit trail names this hand."""
        return f"Table {self.table.number}, hand {self.number}"


class Revoke(models.Model):
    """One revoke in a hand (001: "The penalty for every revoke is the loss of three tricks"): a
    hand may have several, a player may revoke twice; `position` keeps the order they were found,
    which decides who pays an odd unit when the offenders share a side's stakes."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="revokes")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")

    class Meta:
        db_table = "club_revoke"  # the table it had in the one app
        ordering = ["hand", "position"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "position"], name="revoke_position_unique"),
            models.CheckConstraint(condition=Q(position__lte=12), name="revoke_position_0_to_12"),
        ]

    def __str__(self) -> str:
        return f"Revoke by {self.player} in hand {self.hand_id}"


class ScoreLine(models.Model):
    """What one player won (+) or paid (-) on one hand, in the club's unit.

    The night and season are copied from the hand so that standings and night totals are a single
    indexed GROUP BY, with no joins through hands and tables.
    """

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="score_lines")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="score_lines")
    amount = models.IntegerField()
    # The same hand scored under the season's ladder rule set (Season.standings_rule_set, e.g.
    # winner-only points); equal to `amount` when the season has no ladder rule set of its own.
    points = models.IntegerField(default=0)
    # This player called the contract (the proposer, for Prop & Cop), and made it: the standings
    # count contracts declared and made from these without joining the hands.
    declared = models.BooleanField(default=False)
    declared_made = models.BooleanField(default=False)
    # The hand's contract and whether it was made, and for Prop & Cop the other player on this
    # player's declaring side: a player's contracts and partnerships are read from their own lines
    # through covering indexes, with no join to the hands.
    contract = models.CharField(max_length=20, choices=CONTRACT_CHOICES, blank=True)
    made = models.BooleanField(default=False)
    mate = models.ForeignKey(
        "clubs.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
        help_text="Prop & Cop: this player's partner on the declaring side.",
    )
    night = models.ForeignKey("play.Night", on_delete=models.CASCADE, related_name="score_lines")
    season = models.ForeignKey("clubs.Season", on_delete=models.CASCADE, related_name="score_lines")

    class Meta:
        db_table = "club_scoreline"  # the table it had in the one app
        constraints = [
            models.UniqueConstraint(fields=["hand", "player"], name="score_line_one_per_player"),
        ]
        indexes = [
            models.Index(fields=["season", "player"], name="score_line_season_player"),
            models.Index(fields=["night", "player"], name="score_line_night_player"),
            # A player's contracts and Prop & Cop partners (player page), and the season's biggest
            # wins (club home). The INCLUDE columns make them index-only scans on PostgreSQL.
            models.Index(
                fields=["season", "player"],
                include=["contract", "amount", "declared_made"],
                condition=Q(declared=True),
                name="score_line_declared_player",
            ),
            models.Index(
                fields=["season", "player"],
                include=["mate", "made", "amount"],
                condition=Q(mate__isnull=False),
                name="score_line_mate_player",
            ),
            models.Index(
                fields=["season", "-amount"],
                condition=Q(declared=True),
                name="score_line_declared_amount",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.amount}"


class HandTombstone(models.Model):
    """A hand deleted at its table, remembered by the id its phone made for it: when the same
    entry arrives again (a phone's offline queue sending it after the hand was deleted), it is
    answered "deleted", not recorded a second time."""

    client_id = models.UUIDField()
    table = models.ForeignKey("play.Table", on_delete=models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField()
    deleted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "club_handtombstone"  # the table it had in the one app
        constraints = [
            models.UniqueConstraint(fields=["client_id"], name="hand_tombstone_client_id_unique"),
        ]

    def __str__(self) -> str:
        return f"Deleted hand {self.number} of table {self.table_id}"
