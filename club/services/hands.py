"""Recording, correcting and deleting hands. Each change scores the hand with the scoring core and
writes the hand, its score lines and an audit event in one transaction."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, fields
from typing import Any, overload

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F

import scoring
from club.core.prepared import PreparedInsert
from club.models import (
    AuditEvent,
    Hand,
    HandTombstone,
    Night,
    Player,
    Revoke,
    ScoreLine,
    Season,
    Table,
    TableLink,
)
from club.queries.table_state import TableState, table_state
from club.queries.wrong_cards import wrong_card_names
from club.services import grades, publish
from club.services.ladder import ladder_amounts
from club.services.locks import NightGone, lock_night, lock_table
from club.services.round_limit import refusal, tournament_of


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


@dataclass(frozen=True)
class HandEntry:
    """A hand as entered at the table, before scoring."""

    dealer: Player
    contract: str  # a scoring.Contract key or scoring.ALL_PASSED
    declarer: Player | None = None
    partner: Player | None = None
    tricks: int | None = None
    revoke_by: Player | None = None  # the one revoke, when there was one
    last_trick_by: Player | None = None
    trump: str = ""
    notes: str = ""
    revokes: tuple[Player, ...] = ()  # every revoke, in the order found, when several
    penalty: str = ""  # against a misère: scoring.Penalty's key
    penalty_by: Player | None = None
    turned_suit: str = ""
    wrong_cards: tuple[Player, ...] = ()  # held the wrong number of cards, found after a call

    @property
    def all_revokes(self) -> tuple[Player, ...]:
        return (self.revoke_by,) if self.revoke_by is not None else tuple(self.revokes)

    def core_hand(self, players: tuple[str, ...]) -> scoring.Hand:
        """The hand as the scoring core reads it, with players named by key."""
        return scoring.Hand(
            players=players,
            contract=self.contract,
            declarer=_key(self.declarer),
            partner=_key(self.partner),
            tricks=self.tricks,
            last_trick_by=_key(self.last_trick_by),
            revokes=tuple(_key(p) for p in self.all_revokes),
            penalty=self.penalty or None,
            penalty_by=_key(self.penalty_by),
            trump=self.trump or None,
            turned_suit=self.turned_suit or None,
            wrong_cards=tuple(_key(p) for p in self.wrong_cards),
        )


def entry_digest(entry: HandEntry) -> str:
    """What an entry says, as a short fingerprint: every field of HandEntry (players by id), so
    that a save sent twice can be told from a different hand sent under the same client id."""
    said: dict[str, Any] = {}
    for f in fields(entry):
        value = getattr(entry, f.name)
        if f.name in {"revoke_by", "revokes"}:
            continue  # both read as the one list of revokes below
        said[f.name] = value.pk if isinstance(value, Player) else value
    said["revokes"] = [p.pk for p in entry.all_revokes]
    text = json.dumps(said, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def entry_of(hand: Hand) -> HandEntry:
    """The entry a recorded hand was saved from, as it stands (a hand recorded before entries
    kept their fingerprint is compared through this)."""
    return HandEntry(
        dealer=hand.dealer,
        contract=hand.contract,
        declarer=hand.declarer,
        partner=hand.partner,
        tricks=hand.tricks,
        last_trick_by=hand.last_trick_by,
        trump=hand.trump,
        notes=hand.notes,
        revokes=tuple(revoke_players(hand)),
        penalty=hand.penalty,
        penalty_by=hand.penalty_by,
        turned_suit=hand.turned_suit,
    )


def _resent(earlier: Hand, entry: HandEntry, next_number: int) -> HandSaved:
    """The hand recorded under this entry's client id, when the entry says the same (sent
    again: nothing is written); EntryReused when it says another hand."""
    stored = earlier.entry_digest or entry_digest(entry_of(earlier))
    if stored != entry_digest(entry):
        raise EntryReused(earlier, next_number)
    return HandSaved("resent", earlier)


@dataclass(frozen=True)
class LinkSource:
    """A change made through a table's link rather than by a logged-in member: the link, and the
    name the person gave their phone (if any), for the audit trail."""

    link: TableLink
    device: str = ""

    @property
    def label(self) -> str:
        return f"Table {self.link.table.number}'s link"


@dataclass(frozen=True)
class ScoredHand:
    entry: HandEntry
    sitting_out: Player | None
    players: tuple[Player, ...]  # taking part, in seat order
    result: scoring.Result

    def amount(self, player: Player) -> int:
        return self.result.amounts.get(_key(player), 0)


@overload
def _key(player: Player) -> str: ...
@overload
def _key(player: Player | None) -> str | None: ...
def _key(player: Player | None) -> str | None:
    return None if player is None else str(player.pk)


def seated_players(table: Table) -> list[Player]:
    """The table's players in seat order (uses a prefetched `seats` when there is one)."""
    return [seat.player for seat in table.seats.all()]


def score_entry(
    table: Table,
    entry: HandEntry,
    rules: scoring.RuleSet,
    seats: list[Player] | None = None,
) -> ScoredHand:
    """Score an entry at this table; raises scoring.InvalidHand with a message for the secretary.

    `seats` (the table's players in seat order) saves a query when the caller has them already.
    """
    if seats is None:
        seats = seated_players(table)
    keys = [_key(p) for p in seats]
    if entry.dealer.pk not in {p.pk for p in seats}:
        raise scoring.InvalidHand(f"The dealer {entry.dealer} is not at this table")
    out_key = scoring.table.sitting_out(keys, _key(entry.dealer), rules)
    sitting_out = next((p for p in seats if _key(p) == out_key), None)
    players = tuple(p for p in seats if _key(p) != out_key)
    for role, who in (
        ("declarer", entry.declarer),
        ("partner", entry.partner),
        *(("player who revoked", p) for p in entry.all_revokes),
        ("player who incurred the penalty", entry.penalty_by),
        ("player who took the last trick", entry.last_trick_by),
        *(("player with the wrong number of cards", p) for p in entry.wrong_cards),
    ):
        if who is not None and sitting_out is not None and who.pk == sitting_out.pk:
            raise scoring.InvalidHand(f"{who} sits out this hand, so cannot be the {role}")
    hand = entry.core_hand(tuple(_key(p) for p in players))
    names = {_key(p): str(p) for p in seats}
    try:
        result = scoring.score_hand(hand, rules)
    except scoring.InvalidHand as error:
        # The core names players by key; put their names back for the secretary.
        message = str(error)
        for key, name in names.items():
            message = message.replace(f"'{key}'", name)
        raise scoring.InvalidHand(message) from None
    return ScoredHand(entry, sitting_out, players, result)


def next_hand(table: Table) -> dict[str, Any]:
    """Defaults for the next hand at the table: number, dealer, who sits out, rotating trump."""
    seats = seated_players(table)
    rules = table.night.season.rule_set.rules
    last = table.hands.order_by("-number").select_related("dealer", "rule_set").first()
    keys = [_key(p) for p in seats]
    if last is None:
        coming = scoring.table.deal(keys, keys[table.first_dealer % len(keys)], rules, 1)
    elif last.dealer_id not in {p.pk for p in seats}:
        # The last dealer left the table: start again from the first seat.
        coming = scoring.table.deal(keys, keys[0], rules, last.number + 1)
    else:
        coming = scoring.table.next_deal(
            keys, _key(last.dealer), last.outcome, last.rule_set.rules, last.number
        )
        coming = scoring.table.deal(keys, coming.dealer, rules, coming.number)
    return deal_defaults(seats, coming)


def deal_after(table: Table, hand: Hand) -> scoring.table.Deal:
    """The deal after `hand`, just saved at the table (players by key), with no query: the deal
    passes on, or stays after a deal that did not count where the hand's rules say."""
    keys = [_key(p) for p in seated_players(table)]
    return scoring.table.next_deal(
        keys, str(hand.dealer_id), hand.outcome, hand.rule_set.rules, hand.number
    )


def deal_defaults(seats: list[Player], coming: scoring.table.Deal) -> dict[str, Any]:
    """A deal (players named by key) as the hand form's defaults: players, not keys."""
    by_key = {_key(p): p for p in seats}
    return {
        "number": coming.number,
        "dealer": by_key[coming.dealer],
        "sitting_out": by_key.get(coming.sitting_out) if coming.sitting_out else None,
        "trump": coming.trump.value if coming.trump else "",
    }


def revoke_players(hand: Hand) -> list[Player]:
    """The hand's revokes, in the order found (a player twice if he revoked twice): from what was
    just written or prefetched when there is one, else one query."""
    written = getattr(hand, "_revoke_players", None)
    if written is not None:
        return list(written)
    return [r.player for r in hand.revokes.all().select_related("player")]


def snapshot(hand: Hand, scored: ScoredHand | None = None) -> dict[str, Any]:
    """The hand as the audit trail keeps it: names, not ids, so it reads after renames too.
    `scored`: the hand was just written from it, so its revokes and amounts need no query."""

    def name(player: Player | None) -> str | None:
        return None if player is None else player.name

    if scored is not None:
        amounts = {p.name: scored.amount(p) for p in scored.players}
    else:
        lines = hand.score_lines.select_related("player")
        amounts = {line.player.name: line.amount for line in lines}
    return {
        "table": hand.table.number,
        "number": hand.number,
        "dealer": name(hand.dealer),
        "contract": hand.contract,
        "declarer": name(hand.declarer),
        "partner": name(hand.partner),
        "tricks": hand.tricks,
        "revokes": [name(p) for p in revoke_players(hand)],
        "penalty": hand.penalty,
        "penalty_by": name(hand.penalty_by),
        "turned_suit": hand.turned_suit,
        "outcome": hand.outcome,
        "last_trick_by": name(hand.last_trick_by),
        "trump": hand.trump,
        "notes": hand.notes,
        "amounts": amounts,
        **({"wrong_cards": wrong_card_names(hand)} if hand.wrong_cards else {}),
    }


def _lock_night(night_id: int, shared: bool = False) -> Night:
    """Every write of a night takes the night's row lock first (then its season's and rule sets',
    club.services.locks), so that a close, a reopen and hand changes at any of its tables take
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
    if night.is_closed and not publish.may_correct(night, user):
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
    hand = scored.entry.core_hand(tuple(_key(p) for p in scored.players))
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

    The result carries the table as it is after this hand (club.queries.table_state), so that
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
            grades.hand_saved(hand)
            _audit(hand, user, AuditEvent.Action.CREATE, None, snapshot(hand, scored), via)
            publish.after_correction(night, user)
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
        grades.hand_saved(current)
        _audit(current, user, AuditEvent.Action.UPDATE, before, snapshot(current), via)
        publish.after_correction(current.table.night, user)
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
        grades.hand_deleting(current)
        if current.client_id is not None:
            # Its phone may send the same entry again from its offline queue: it is answered
            # "deleted" rather than recorded a second time.
            HandTombstone.objects.create(client_id=current.client_id, table=table, number=number)
        current.delete()
        # One at a time, lowest first, so the (table, number) constraint never sees a duplicate.
        for later in table.hands.filter(number__gt=number).order_by("number"):
            later.number -= 1
            later.save(update_fields=["number"])
        publish.after_correction(night, user)
