"""The order of play at a table: who deals, who sits out at a table of five, the trump rotation,
and which contracts a table of that size allows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.contracts import Contract, Trump
from scoring.hands import InvalidHand, Outcome
from scoring.rules import Redeal, RuleSet, SitOut

TABLE_SIZES = (3, 4, 5)


def check_table_size(seats: Sequence[str]) -> None:
    if len(seats) not in TABLE_SIZES:
        raise InvalidHand(f"A table seats 3, 4 or 5 players, not {len(seats)}")
    if len(set(seats)) != len(seats):
        raise InvalidHand("A player cannot sit twice at the same table")


def dealer_for(seats: Sequence[str], first_dealer: int, hand_number: int) -> str:
    """The dealer of hand `hand_number` (1-based): the deal passes to the left after each hand."""
    check_table_size(seats)
    return seats[(first_dealer + hand_number - 1) % len(seats)]


def next_dealer(seats: Sequence[str], dealer: str) -> str:
    return seats[(seats.index(dealer) + 1) % len(seats)]


def next_dealer_after(
    seats: Sequence[str], dealer: str, outcome: Outcome | str, rules: RuleSet
) -> str:
    """Who deals after a hand: the next player to the left, except that a deal which does not
    count (cards wrongly dealt, revokes on both sides) is dealt again by the same player where
    the rule set says so (Hoyle: "This new deal is by the same player")."""
    if Outcome(outcome) in (Outcome.MISDEAL, Outcome.VOID) and rules.redeal_by is Redeal.SAME:
        return dealer
    return next_dealer(seats, dealer)


def sitting_out(seats: Sequence[str], dealer: str, rules: RuleSet) -> str | None:
    """Who sits out this hand at a table of five (neither pays nor receives); None otherwise."""
    check_table_size(seats)
    if len(seats) != 5:
        return None
    if dealer not in seats:
        raise InvalidHand(f"The dealer {dealer!r} is not at this table")
    if rules.sit_out is SitOut.DEALER:
        return dealer
    return seats[(seats.index(dealer) - 1) % len(seats)]


def players_in_hand(seats: Sequence[str], dealer: str, rules: RuleSet) -> tuple[str, ...]:
    """The players who take part in the hand, in seat order."""
    out = sitting_out(seats, dealer, rules)
    return tuple(p for p in seats if p != out)


def trump_for(rules: RuleSet, hand_number: int) -> Trump | None:
    """The rotating trump of hand `hand_number` (1-based, counting hands all passed), if any."""
    if not rules.trump_rotation:
        return None
    return rules.trump_rotation[(hand_number - 1) % len(rules.trump_rotation)]


def legal_contracts(players_in_hand: int) -> tuple[Contract, ...]:
    """The contracts a hand of this many players allows: no Prop & Cop among three."""
    if players_in_hand == 3:
        return tuple(c for c in Contract if c is not Contract.PROP_COP)
    return tuple(Contract)


@dataclass(frozen=True)
class Deal:
    """A hand about to be dealt: its number, who deals, who sits out (a table of five) and the
    rotating trump, if the rule set has one."""

    number: int
    dealer: str
    sitting_out: str | None
    trump: Trump | None


def deal(seats: Sequence[str], dealer: str, rules: RuleSet, number: int) -> Deal:
    """Hand `number` dealt by `dealer`."""
    return Deal(number, dealer, sitting_out(seats, dealer, rules), trump_for(rules, number))


def next_deal(
    seats: Sequence[str], dealer: str, outcome: Outcome | str, rules: RuleSet, number: int
) -> Deal:
    """The deal after hand `number`, dealt by `dealer`, ended with `outcome`: the next player to
    the left deals, or the same one again after a deal that did not count where the rules say.
    The one answer to "who deals next" for the server and for a page with no connection."""
    return deal(seats, next_dealer_after(seats, dealer, outcome, rules), rules, number + 1)


def rotation(seats: Sequence[str], rules: RuleSet) -> dict[str, dict[str, str | None]]:
    """For each seat as dealer: who sits out, who deals next after a played (or all passed) hand
    and who after cards wrongly dealt. What a page with no connection looks the next deal up in
    (it cannot score, so it reads a redeal from the contract "cards wrongly dealt")."""
    return {
        dealer: {
            "out": sitting_out(seats, dealer, rules),
            "next": next_dealer_after(seats, dealer, Outcome.PLAYED, rules),
            "afterMisdeal": next_dealer_after(seats, dealer, Outcome.MISDEAL, rules),
        }
        for dealer in seats
    }
