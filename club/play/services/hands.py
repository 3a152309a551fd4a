"""Recording, correcting and deleting hands. Each change scores the hand with the scoring core and
writes the hand, its score lines and an audit event in one transaction."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F

import scoring
from club.clubs.models import AuditEvent, Season
from club.core.prepared import PreparedInsert
from club.lib import live_push
from club.play.models import Hand, HandTombstone, Night, Revoke, ScoreLine, Table
from club.play.queries.table_state import TableState, table_state
from club.play.services import corrections, signals
from club.play.services.hand_entry import (
    HandEntry,
    LinkSource,
    ScoredHand,
    entry_digest,
    entry_of,
    player_key,
    score_entry,
    snapshot,
)
from club.play.services.ladder import ladder_amounts
from club.play.services.locks import NightGone, lock_night, lock_table
from club.play.services.round_limit import refusal, tournament_of


class HandConflict(Exception):
    """The change cannot be made as asked (closed night, someone else changed the hand meanwhile);
    the message says what to do.

    `next_number`: when the table moved on (or a hand went missing), the number this hand would
    take now, so the page can offer to save it as that hand. `current`: for a stale correction,
    the hand as it is now, to show beside the scorer's version."""

    def __init__(
        self, message: str, *, next_number: int | None = None, current: Hand | None = None
    ) -> None:
        super().__init__(message)
        self.next_number = next_number
        self.current = current


class HandGone(HandConflict):
    """The hand was deleted (by someone else, or by a first click) before this change got to it."""


class EntryReused(HandConflict):
    """A save came under the client id of a hand already recorded, but says another hand (a page
    the browser brought back with Back, or a copy kept for offline use, still carries the id of
    the hand saved from it): not the same entry sent again, so it is refused rather than taken
    for a resend, and offered as the table's next hand. `earlier`: the hand recorded under that
    id, to show beside this one."""

    def __init__(self, earlier: Hand, next_number: int) -> None:
        super().__init__(
            f"Hand {earlier.number} was already saved from this form, and this is a different "
            f"hand, so it was not saved. Both are shown here: if this one was played too, save "
            f"it as hand {next_number}; if not, discard it.",
            next_number=next_number,
        )
        self.earlier = earlier


class InvalidEntry(scoring.InvalidHand):
    """The scoring core refused the entry (say, the declarer sits out this hand): nothing was
    saved; the message, with players' names, is for the scorer, beside the form."""


@dataclass(frozen=True)
class HandSaved:
    """What a save did, for the one answer the page gets: `outcome` "saved" (the hand was
    written, `state` is the table after it and `scored` its amounts) or "resent" (the same entry
    had been recorded already: `hand` is that one, and nothing was written)."""

    outcome: str
    hand: Hand
    state: TableState | None = None
    scored: ScoredHand | None = None

    @property
    def amounts(self) -> dict[int, int]:
        """Player id -> amount of this hand (empty for a resend)."""
        if self.scored is None:
            return {}
        return {p.pk: self.scored.amount(p) for p in self.scored.players}


def _resent(earlier: Hand, entry: HandEntry, next_number: int) -> HandSaved:
    """The hand recorded under this entry's client id, when the entry says the same (sent
    again: nothing is written); EntryReused when it says another hand."""
    stored = earlier.entry_digest or entry_digest(entry_of(earlier))
    if stored != entry_digest(entry):
        raise EntryReused(earlier, next_number)
    return HandSaved("resent", earlier)


def _lock_night(night_id: int, shared: bool = False) -> Night:
    """Every write of a night takes the night's row lock first (then its season's and rule sets',
    club.play.services.locks), so that a close, a reopen and hand changes at any of its tables take
    turns in one order: no hand lands in a closed night, and two changes never deadlock.
    `shared`: a share lock, which new hands at different tables hold at once."""
    try:
        return lock_night(night_id, shared=shared)
    except NightGone as gone:
        raise HandConflict(str(gone)) from None


def _locked_hand(hand: Hand, night: Night, doing: str) -> Hand:
    """The hand as it is now, locked (after its night), or HandGone if it was deleted meanwhile."""
    try:
        current = (
            Hand.objects.select_for_update(of=("self",))
            .select_related("table", "rule_set")
            .get(pk=hand.pk)
        )
    except Hand.DoesNotExist:
        if doing == "deleted":
            raise HandGone(
                f"Hand {hand.number} is already deleted (a second click, or someone else): "
                "the sheet below is as it stands."
            ) from None
        raise HandGone(
            f"Hand {hand.number} was deleted by someone else, so your change was not saved. "
            "Check the sheet, and enter the hand again if it is still missing."
        ) from None
    current.table.night = night
    return current


def _check_open(night: Night, user: User | None = None) -> None:
    # A secretary may still correct a closed night inside its correction window.
    if night.is_closed and not corrections.may_correct(night, user):
        raise HandConflict("This night is closed. A secretary must reopen it before any change.")


def apply_result(hand: Hand, scored: ScoredHand) -> None:
    """Copy the entry and its scored result onto the hand (not saved)."""
    entry, result = scored.entry, scored.result
    hand.dealer = entry.dealer
    hand.sitting_out = scored.sitting_out
    hand.contract = entry.contract
    hand.declarer = entry.declarer
    hand.partner = entry.partner
    hand.tricks = entry.tricks
    hand.last_trick_by = entry.last_trick_by
    hand.penalty = entry.penalty
    hand.penalty_by = entry.penalty_by
    hand.turned_suit = entry.turned_suit
    hand.trump = entry.trump
    hand.notes = entry.notes
    hand.outcome = result.kind.value
    hand.made = result.made if result.kind is scoring.Outcome.PLAYED else None
    hand.over_tricks = result.over_tricks
    hand.under_tricks = result.under_tricks
    # The hand carries its revokers to the sheet, which reads them without a query.
    hand._revoke_players = entry.all_revokes  # type: ignore[attr-defined]
    hand.wrong_cards = [p.pk for p in entry.wrong_cards]
    hand._wrong_card_players = entry.wrong_cards  # type: ignore[attr-defined]


def revoke_rows(hand: Hand, entry: HandEntry) -> list[Revoke]:
    """The unsaved revoke rows of a saved hand, in the order found (bulk writers insert these)."""
    return [Revoke(hand=hand, position=i, player=p) for i, p in enumerate(entry.all_revokes)]


def write_revokes(hand: Hand, entry: HandEntry, replace: bool = False) -> None:
    """The hand's revoke rows, in the order found (after the hand is saved)."""
    if replace:
        hand.revokes.all().delete()
    if entry.all_revokes:
        Revoke.objects.bulk_create(revoke_rows(hand, entry))


def _ladder_amounts(scored: ScoredHand, season: Season) -> dict[str, int]:
    """The same hand scored under the season's ladder rule set (e.g. winner-only points, while
    the night settles money under the season's stakes); the hand's own amounts when the season
    has no ladder rule set."""
    ladder = season.standings_rule_set  # no query when the season has none
    if ladder is None:
        return scored.result.amounts
    hand = scored.entry.core_hand(tuple(player_key(p) for p in scored.players))
    return ladder_amounts(ladder.rules, hand)


def score_lines_for(hand: Hand, scored: ScoredHand) -> list[ScoreLine]:
    """The unsaved score lines of a scored hand: one per player taking part (seed_demo bulk-creates
    these directly, so every way of writing a hand builds its lines here, from score_line_rows)."""
    return [ScoreLine(**row) for row in score_line_rows(hand, scored)]


def score_line_rows(hand: Hand, scored: ScoredHand) -> list[dict[str, Any]]:
    """The score lines of a scored hand as column values (attribute names: `hand_id`, ...), one
    per player taking part: what an import writes without building a model instance a line.

    Each line also carries the hand scored under the season's ladder rule set (`points`), whether
    this player declared the contract and made it (which the database sums into the night totals
    the standings read, club.models.NightTotal), and the hand's contract, result and Prop & Cop
    partnership (which the player page reads)."""
    night = hand.table.night
    points = _ladder_amounts(scored, night.season)
    entry = scored.entry
    made = scored.result.kind is scoring.Outcome.PLAYED and scored.result.made
    declarer_id = entry.declarer.pk if entry.declarer is not None else None
    partner_id = entry.partner.pk if entry.partner is not None else None
    side = {declarer_id: partner_id, partner_id: declarer_id} if partner_id is not None else {}
    amounts = scored.result.amounts
    rows = []
    for p in scored.players:
        key = str(p.pk)
        declared = p.pk == declarer_id
        rows.append(
            {
                "hand_id": hand.pk,
                "player_id": p.pk,
                "amount": amounts.get(key, 0),
                "points": points.get(key, 0),
                "declared": declared,
                "declared_made": declared and made,
                "contract": entry.contract,
                "made": made,
                "mate_id": side.get(p.pk),
                "night_id": night.pk,
                "season_id": night.season_id,
            }
        )
    return rows


# A new hand and its score lines, each one INSERT built once a process (club.core.prepared).
_HANDS: PreparedInsert[Hand] = PreparedInsert(Hand)
_LINES: PreparedInsert[ScoreLine] = PreparedInsert(ScoreLine)


def _write_lines(hand: Hand, scored: ScoredHand) -> None:
    _LINES.insert(score_line_rows(hand, scored))


def _subject(hand: Hand) -> str:
    return f"Table {hand.table.number}, hand {hand.number}"


def _audit(
    hand: Hand,
    user: User | None,
    action: str,
    before: Any,
    after: Any,
    via: LinkSource | None = None,
) -> None:
    night = hand.table.night
    AuditEvent.objects.create(
        club_id=night.season.club_id,
        night=night,
        user=user,
        link=via.link if via else None,
        device=via.device if via else "",
        link_label=via.label if via else "",
        action=action,
        subject=_subject(hand),
        before=before,
        after=after,
    )
    # The table's own pages (its phones) are told too; the event tells the night's.
    live_push.changed_on_commit(table_ids=[hand.table_id])


def _numbers(first: int, last: int) -> str:
    """ "Hand 3", "Hands 3 and 4", "Hands 3 to 6"."""
    if first == last:
        return f"Hand {first}"
    joint = "and" if last == first + 1 else "to"
    return f"Hands {first} {joint} {last}"


def _moved_on(expected: int, number: int) -> HandConflict:
    """The form showed hand `expected`, but the table's next hand is `number`."""
    if expected < number:
        saved = _numbers(expected, number - 1)
        verb = "was" if expected == number - 1 else "were"
        return HandConflict(
            f"{saved} {verb} saved by someone else while you were entering this one, so yours "
            f"was not saved. If it is the same hand, leave it; if it is the next one, save it "
            f"as hand {number}.",
            next_number=number,
        )
    missing = _numbers(number, expected - 1)
    verb = "is" if number == expected - 1 else "are"
    return HandConflict(
        f"{missing} {verb} not on the sheet (deleted, or its save never arrived), so this hand "
        f"would be hand {number}, not hand {expected}. Nothing was saved: enter the missing "
        f"hand first, or save this one as hand {number}.",
        next_number=number,
    )


def _awaits_confirmation(night: Night, via: LinkSource | None) -> bool:
    """A hand entered or corrected through a table's link waits for a second player when the
    club asks for it; a member's own entry or correction stands."""
    return via is not None and night.season.club.confirm_table_hands


def record_hand(
    table: Table,
    entry: HandEntry,
    user: User | None,
    expected_number: int | None = None,
    client_id: uuid.UUID | None = None,
    *,
    via: LinkSource | None = None,
) -> Hand:
    """Append a hand to the table and return it (for scripts, the demo, imports and tests; the
    table page uses save_hand, which says what became of the save)."""
    return save_hand(table, entry, user, expected_number, client_id, via=via).hand


def save_hand(
    table: Table,
    entry: HandEntry,
    user: User | None,
    expected_number: int | None = None,
    client_id: uuid.UUID | None = None,
    *,
    via: LinkSource | None = None,
) -> HandSaved:
    """Append a hand to the table, scoring it once, under the night's lock. `expected_number` is
    the number the form showed: if someone else saved that hand meanwhile, refuse rather than
    record the same hand twice.

    `client_id` is made by the browser once per entry: when a hand with that id exists already
    (the reply to an earlier save was lost, or the offline queue sent it again) and says the
    same, the answer is "resent" and nothing is written; when it says another hand, EntryReused;
    when that hand was deleted at the table since, HandGone says so, and nothing is written.
    InvalidEntry when the scoring core refuses the entry.

    The result carries the table as it is after this hand (club.play.queries.table_state), so that
    the answer to the save needs no query of its own."""
    try:
        with transaction.atomic():
            # The night, its season and rule sets with a share lock: the saves at every table of
            # a night hold it together (fifteen tables at once do not queue behind one another),
            # while a close, a ladder change or a rule set edit (FOR UPDATE) waits for them, and
            # they for it. Then this table's row, so that two phones at one table take turns.
            night = _lock_night(table.night_id, shared=True)
            table.night = night
            lock_table(table.pk)
            state = table_state(table.pk, client_id)
            if state.resent_id is not None:
                earlier = Hand.objects.select_related(*_PLAYERS).get(pk=state.resent_id)
                return _resent(earlier, entry, state.last_number + 1)
            if state.deleted_number is not None:
                raise HandGone(
                    f"Hand {state.deleted_number} was saved from this entry and then deleted at "
                    "the table, so it was not recorded again. Enter it afresh if it belongs on "
                    "the sheet."
                )
            _check_open(night, user)
            rule_set = night.season.rule_set
            try:
                scored = score_entry(table, entry, rule_set.rules)
            except scoring.InvalidHand as error:
                raise InvalidEntry(str(error)) from None
            number = state.last_number + 1
            if expected_number is not None and expected_number != number:
                raise _moved_on(expected_number, number)
            if refused := refusal(tournament_of(night), number):
                raise HandConflict(refused)
            hand = Hand(
                table=table,
                number=number,
                rule_set=rule_set,
                entered_by=user,
                updated_by=user,
                client_id=client_id,
                entry_digest=entry_digest(entry) if client_id is not None else "",
                entered_via=via.link if via else None,
                awaiting_confirmation=_awaits_confirmation(night, via),
            )
            apply_result(hand, scored)
            _HANDS.create(hand)
            write_revokes(hand, entry)
            _write_lines(hand, scored)
            _audit(hand, user, AuditEvent.Action.CREATE, None, snapshot(hand, scored), via)
            signals.hand_saved.send(Hand, hand=hand, night=night, user=user)
            saved = HandSaved("saved", hand, state, scored)
            state.add(hand, saved.amounts)
    except IntegrityError:
        return _lost_race(table, entry, client_id)
    return saved


# The players a hand names, fetched with it to compare it with an entry and to show it.
_PLAYERS = ("dealer", "declarer", "partner", "last_trick_by", "penalty_by")


def _lost_race(table: Table, entry: HandEntry, client_id: uuid.UUID | None) -> HandSaved:
    """The insert met a unique constraint: another save took this number at the same moment,
    or this entry's id was used at another table."""
    number = (table.hands.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    if client_id is not None:
        other = Hand.objects.filter(client_id=client_id).select_related("table", *_PLAYERS).first()
        if other is not None and other.table_id != table.pk:
            raise HandConflict("This entry was already saved at another table.")
        if other is not None:
            return _resent(other, entry, number)
    raise HandConflict(
        f"Hand {number - 1} was saved by someone else at the same moment. Check the sheet.",
        next_number=number,
    )


def update_hand(
    hand: Hand,
    entry: HandEntry,
    user: User | None,
    version: int,
    *,
    via: LinkSource | None = None,
) -> Hand:
    """Correct a hand; refused if it changed since the form was opened (`version`)."""
    with transaction.atomic():
        night = _lock_night(hand.table.night_id)
        _check_open(night, user)
        current = _locked_hand(hand, night, "changed")
        if current.version != version:
            raise HandConflict(
                f"Hand {current.number} was changed by someone else after you opened it, so "
                "your correction was not saved. Their version is beside yours: save yours to "
                "replace it, or cancel to keep theirs.",
                current=current,
            )
        before = snapshot(current)
        # A hand keeps the rules it was scored under (DESIGN.md section 4).
        scored = score_entry(current.table, entry, current.rule_set.rules)
        apply_result(current, scored)
        current.updated_by = user
        current.entered_via = via.link if via else None
        current.awaiting_confirmation = _awaits_confirmation(current.table.night, via)
        current.version = F("version") + 1
        current.save()
        current.refresh_from_db()
        # The hand carries its revokers to the sheet, which reads them without a query.
        current._revoke_players = entry.all_revokes  # type: ignore[attr-defined]
        write_revokes(current, entry, replace=True)
        current.score_lines.all().delete()
        _write_lines(current, scored)
        _audit(current, user, AuditEvent.Action.UPDATE, before, snapshot(current), via)
        signals.hand_saved.send(Hand, hand=current, night=current.table.night, user=user)
    return current


def delete_hand(
    hand: Hand,
    user: User | None,
    version: int | None = None,
    *,
    via: LinkSource | None = None,
) -> None:
    """Delete a hand; the later hands at the table move up one so the numbering has no gap."""
    with transaction.atomic():
        night = _lock_night(hand.table.night_id)
        _check_open(night, user)
        current = _locked_hand(hand, night, "deleted")
        if version is not None and current.version != version:
            raise HandConflict(
                f"Hand {current.number} was changed by someone else after you opened it. "
                "It was not deleted: look at it again first."
            )
        before = snapshot(current)
        table, number = current.table, current.number
        _audit(current, user, AuditEvent.Action.DELETE, before, None, via)
        signals.hand_deleting.send(Hand, hand=current)
        if current.client_id is not None:
            # Its phone may send the same entry again from its offline queue: it is answered
            # "deleted" rather than recorded a second time.
            HandTombstone.objects.create(client_id=current.client_id, table=table, number=number)
        current.delete()
        # One at a time, lowest first, so the (table, number) constraint never sees a duplicate.
        for later in table.hands.filter(number__gt=number).order_by("number"):
            later.number -= 1
            later.save(update_fields=["number"])
        signals.hand_deleted.send(Hand, night=night, user=user)
