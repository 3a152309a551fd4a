"""The order of play at a table: dealer rotation, sitting out at five, legal contracts, trumps."""

from __future__ import annotations

from dataclasses import replace

import pytest

import scoring
from scoring import Contract, InvalidHand, SitOut, Trump
from scoring.table import (
    TABLE_SIZES,
    check_table_size,
    dealer_for,
    legal_contracts,
    next_dealer,
    players_in_hand,
    sitting_out,
    trump_for,
)

FOUR = ("Ann", "Bob", "Cat", "Dan")
FIVE = ("Ann", "Bob", "Cat", "Dan", "Eve")
HOYLE = scoring.preset("hoyle")  # SitOut.DEALER_RIGHT
STANDARD = scoring.preset("standard")  # SitOut.DEALER


@pytest.mark.parametrize(
    ("seats", "first", "hand", "dealer"),
    [
        (FOUR, 0, 1, "Ann"),
        (FOUR, 0, 2, "Bob"),
        (FOUR, 0, 4, "Dan"),
        (FOUR, 0, 5, "Ann"),
        (FOUR, 2, 1, "Cat"),
        (FOUR, 2, 3, "Ann"),
        (FIVE, 4, 1, "Eve"),
        (FIVE, 4, 2, "Ann"),
        (FIVE, 1, 11, "Bob"),
        (FOUR[:3], 1, 3, "Ann"),
    ],
    ids=lambda v: str(v) if not isinstance(v, tuple) else f"{len(v)}-seats",
)
def test_dealer_for_passes_the_deal_to_the_left(seats, first, hand, dealer) -> None:
    assert dealer_for(seats, first, hand) == dealer


def test_dealer_for_checks_the_table() -> None:
    with pytest.raises(InvalidHand, match="not 2"):
        dealer_for(("Ann", "Bob"), 0, 1)


@pytest.mark.parametrize(
    ("seats", "dealer", "after"),
    [(FOUR, "Ann", "Bob"), (FOUR, "Dan", "Ann"), (FIVE, "Dan", "Eve"), (FIVE, "Eve", "Ann")],
    ids=lambda v: v if isinstance(v, str) else f"{len(v)}-seats",
)
def test_next_dealer(seats, dealer, after) -> None:
    assert next_dealer(seats, dealer) == after


def test_next_dealer_agrees_with_dealer_for() -> None:
    for hand in range(1, 12):
        assert next_dealer(FIVE, dealer_for(FIVE, 3, hand)) == dealer_for(FIVE, 3, hand + 1)


@pytest.mark.parametrize(
    ("dealer", "right"),
    [("Ann", "Eve"), ("Bob", "Ann"), ("Cat", "Bob"), ("Dan", "Cat"), ("Eve", "Dan")],
)
def test_sitting_out_dealer_right(dealer, right) -> None:
    # Hoyle: "the person chosen being he who sits to the dealer's right"
    assert HOYLE.sit_out is SitOut.DEALER_RIGHT
    assert sitting_out(FIVE, dealer, HOYLE) == right
    assert players_in_hand(FIVE, dealer, HOYLE) == tuple(p for p in FIVE if p != right)


@pytest.mark.parametrize("dealer", FIVE)
def test_sitting_out_dealer(dealer) -> None:
    assert STANDARD.sit_out is SitOut.DEALER
    assert sitting_out(FIVE, dealer, STANDARD) == dealer
    in_hand = players_in_hand(FIVE, dealer, STANDARD)
    assert len(in_hand) == 4
    assert dealer not in in_hand


@pytest.mark.parametrize("seats", [FOUR, FOUR[:3]], ids=["4", "3"])
@pytest.mark.parametrize("rules", [HOYLE, STANDARD], ids=["hoyle", "standard"])
def test_nobody_sits_out_at_three_or_four(seats, rules) -> None:
    assert sitting_out(seats, seats[0], rules) is None
    assert players_in_hand(seats, seats[-1], rules) == seats


def test_sitting_out_needs_the_dealer_at_the_table() -> None:
    with pytest.raises(InvalidHand, match="The dealer 'Zed' is not at this table"):
        sitting_out(FIVE, "Zed", HOYLE)


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        pytest.param(("Ann", "Bob"), "A table seats 3, 4 or 5 players, not 2", id="two"),
        pytest.param((), "not 0", id="empty"),
        pytest.param((*FIVE, "Fay"), "not 6", id="six"),
        pytest.param(("Ann", "Bob", "Ann", "Dan"), "cannot sit twice", id="duplicate"),
    ],
)
def test_check_table_size_errors(seats, message) -> None:
    with pytest.raises(InvalidHand, match=message):
        check_table_size(seats)
    with pytest.raises(InvalidHand):
        players_in_hand(seats, "Ann", HOYLE)


@pytest.mark.parametrize("size", TABLE_SIZES)
def test_check_table_size_accepts_three_four_and_five(size) -> None:
    check_table_size(FIVE[:size])


def test_legal_contracts() -> None:
    assert legal_contracts(4) == tuple(Contract)
    assert legal_contracts(3) == tuple(c for c in Contract if c is not Contract.PROP_COP)
    assert Contract.PROP_COP not in legal_contracts(3)
    assert len(legal_contracts(3)) == 6


@pytest.mark.parametrize("name", ["hoyle", "standard", "cents"])
def test_no_trump_rotation_without_one_in_the_rules(name) -> None:
    assert trump_for(scoring.preset(name), 1) is None


def test_custom_trump_rotation() -> None:
    rules = HOYLE.copy(trump_rotation=(Trump.SPADES, Trump.NO_TRUMPS))
    assert [trump_for(rules, n) for n in range(1, 5)] == [
        Trump.SPADES,
        Trump.NO_TRUMPS,
        Trump.SPADES,
        Trump.NO_TRUMPS,
    ]


# --- the next deal: one answer for the server and for a page with no connection ----------------


def test_the_next_deal_passes_left_with_the_trump_and_who_sits_out():
    rules = scoring.preset("anna-cubed")
    seats = ["a", "b", "c", "d", "e"]
    coming = scoring.table.next_deal(seats, "a", scoring.Outcome.PLAYED, rules, 1)
    assert (coming.number, coming.dealer, coming.sitting_out) == (2, "b", "b")
    assert coming.trump is scoring.Trump.CLUBS
    # After the fifth hand the rotation starts again at hearts.
    assert scoring.table.next_deal(seats, "e", "played", rules, 5).trump is scoring.Trump.HEARTS


def test_a_redeal_is_dealt_again_by_the_same_dealer_where_the_rules_say():
    seats = ["a", "b", "c", "d"]
    same = scoring.preset("hoyle")
    again = scoring.table.next_deal(seats, "b", scoring.Outcome.MISDEAL, same, 3)
    assert (again.number, again.dealer) == (4, "b")
    assert scoring.table.next_deal(seats, "b", scoring.Outcome.VOID, same, 3).dealer == "b"
    passes = replace(same, redeal_by=scoring.rules.Redeal.NEXT)
    assert scoring.table.next_deal(seats, "b", scoring.Outcome.MISDEAL, passes, 3).dealer == "c"


def test_the_rotation_a_page_looks_up_agrees_with_next_deal():
    for name in ("hoyle", "anna-cubed"):
        rules = scoring.preset(name)
        seats = ["a", "b", "c", "d", "e"]
        table = scoring.table.rotation(seats, rules)
        for dealer in seats:
            played = scoring.table.next_deal(seats, dealer, "played", rules, 1)
            redealt = scoring.table.next_deal(seats, dealer, "misdeal", rules, 1)
            assert table[dealer]["next"] == played.dealer
            assert table[dealer]["afterMisdeal"] == redealt.dealer
            assert table[dealer]["out"] == scoring.table.sitting_out(seats, dealer, rules)
