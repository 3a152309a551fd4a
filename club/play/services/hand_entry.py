"""A hand as a table enters it and as the scoring core scores it, before anything is written:
the entry, its players, its amounts, the next deal, and the snapshot the audit trail keeps."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, fields
from typing import Any, overload

import scoring
from club.clubs.models import Player
from club.play.models import Hand, Table, TableLink
from club.play.queries.wrong_cards import wrong_card_names


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
            declarer=player_key(self.declarer),
            partner=player_key(self.partner),
            tricks=self.tricks,
            last_trick_by=player_key(self.last_trick_by),
            revokes=tuple(player_key(p) for p in self.all_revokes),
            penalty=self.penalty or None,
            penalty_by=player_key(self.penalty_by),
            trump=self.trump or None,
            turned_suit=self.turned_suit or None,
            wrong_cards=tuple(player_key(p) for p in self.wrong_cards),
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
        return self.result.amounts.get(player_key(player), 0)


@overload
def player_key(player: Player) -> str: ...


@overload
def player_key(player: Player | None) -> str | None: ...


def player_key(player: Player | None) -> str | None:
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
    keys = [player_key(p) for p in seats]
    if entry.dealer.pk not in {p.pk for p in seats}:
        raise scoring.InvalidHand(f"The dealer {entry.dealer} is not at this table")
    out_key = scoring.table.sitting_out(keys, player_key(entry.dealer), rules)
    sitting_out = next((p for p in seats if player_key(p) == out_key), None)
    players = tuple(p for p in seats if player_key(p) != out_key)
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
    hand = entry.core_hand(tuple(player_key(p) for p in players))
    names = {player_key(p): str(p) for p in seats}
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
    keys = [player_key(p) for p in seats]
    if last is None:
        coming = scoring.table.deal(keys, keys[table.first_dealer % len(keys)], rules, 1)
    elif last.dealer_id not in {p.pk for p in seats}:
        # The last dealer left the table: start again from the first seat.
        coming = scoring.table.deal(keys, keys[0], rules, last.number + 1)
    else:
        coming = scoring.table.next_deal(
            keys, player_key(last.dealer), last.outcome, last.rule_set.rules, last.number
        )
        coming = scoring.table.deal(keys, coming.dealer, rules, coming.number)
    return deal_defaults(seats, coming)


def deal_after(table: Table, hand: Hand) -> scoring.table.Deal:
    """The deal after `hand`, just saved at the table (players by key), with no query: the deal
    passes on, or stays after a deal that did not count where the hand's rules say."""
    keys = [player_key(p) for p in seated_players(table)]
    return scoring.table.next_deal(
        keys, str(hand.dealer_id), hand.outcome, hand.rule_set.rules, hand.number
    )


def deal_defaults(seats: list[Player], coming: scoring.table.Deal) -> dict[str, Any]:
    """A deal (players named by key) as the hand form's defaults: players, not keys."""
    by_key = {player_key(p): p for p in seats}
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
