"""settle_up: the fewest payments that bring every player's net to zero."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import scoring
from scoring import settle_up
from scoring.settle import EXACT_LIMIT

PROPERTY = settings(max_examples=250, deadline=None, database=None)


def apply(nets: dict[str, int], payments) -> dict[str, int]:
    after = dict(nets)
    for payer, payee, amount in payments:
        after[payer] += amount
        after[payee] -= amount
    return after


def set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every partition of `items` into non-empty blocks (independent of scoring.settle)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def brute_force_minimum(values: list[int]) -> int:
    """n minus the largest number of zero-sum blocks over all set partitions."""
    live = [v for v in values if v != 0]
    if not live:
        return 0
    most = max(
        len(partition)
        for partition in set_partitions(live)
        if all(sum(block) == 0 for block in partition)
    )
    return len(live) - most


def balanced(values: list[int]) -> dict[str, int]:
    nets = {f"P{i:02d}": v for i, v in enumerate(values)}
    nets["Last"] = -sum(values)
    return nets


def check_settles(nets: dict[str, int], payments) -> None:
    assert all(apply(nets, payments)[p] == 0 for p in nets)
    for payer, payee, amount in payments:
        assert isinstance(amount, int) and amount > 0
        assert payer != payee
        # debtors only pay and creditors only receive
        assert nets[payer] < 0 < nets[payee]


def test_the_interface_example() -> None:
    assert settle_up({"Ann": 120, "Bob": -70, "Cat": -50}) == [
        ("Bob", "Ann", 70),
        ("Cat", "Ann", 50),
    ]
    assert scoring.settle_up is settle_up


@pytest.mark.parametrize(
    ("nets", "payments"),
    [
        pytest.param({}, [], id="nobody"),
        pytest.param({"Ann": 0, "Bob": 0}, [], id="all-square"),
        pytest.param({"Ann": 5, "Bob": -5, "Cat": 0}, [("Bob", "Ann", 5)], id="one-payment"),
        pytest.param(
            # A greedy biggest-to-biggest pass needs 4 payments; the pair and the triple need 3.
            {"Ann": 6, "Bob": -6, "Cat": 4, "Dan": 3, "Eve": -7},
            [("Bob", "Ann", 6), ("Eve", "Cat", 4), ("Eve", "Dan", 3)],
            id="pair-and-triple",
        ),
        pytest.param(
            {"Ann": 10, "Bob": 10, "Cat": -20},
            [("Cat", "Ann", 10), ("Cat", "Bob", 10)],
            id="one-debtor",
        ),
    ],
)
def test_fixed_settlements(nets, payments) -> None:
    assert settle_up(nets) == payments


def test_result_does_not_depend_on_the_order_of_the_nets() -> None:
    nets = {"Ann": 6, "Bob": -6, "Cat": 4, "Dan": 3, "Eve": -7}
    assert settle_up(dict(reversed(list(nets.items())))) == settle_up(nets)


@pytest.mark.parametrize(
    "nets",
    [{"Ann": 5, "Bob": -4}, {"Ann": 1}, {"Ann": -3, "Bob": -3}],
    ids=["off-by-one", "single", "all-negative"],
)
def test_unbalanced_nets_are_refused(nets) -> None:
    with pytest.raises(ValueError, match="do not balance"):
        settle_up(nets)


@pytest.mark.parametrize(
    "bad",
    [1.5, 2.0, "3", None, True],
    ids=["float", "whole-float", "text", "None", "bool"],
)
def test_non_integer_nets_are_refused(bad) -> None:
    with pytest.raises(ValueError, match="whole number"):
        settle_up({"Ann": bad, "Bob": -1})


@PROPERTY
@given(st.lists(st.integers(-500, 500), max_size=6))
def test_small_nights_settle_in_the_brute_force_minimum(values) -> None:
    nets = balanced(values)  # up to 7 players
    payments = settle_up(nets)
    check_settles(nets, payments)
    assert len(payments) == brute_force_minimum(list(nets.values()))


@PROPERTY
@given(
    st.lists(st.integers(-6, 6), max_size=6),
)
def test_small_nights_with_many_coincidences(values) -> None:
    # small values make zero-sum blocks common, which is where a greedy pass goes wrong
    nets = balanced(values)
    payments = settle_up(nets)
    check_settles(nets, payments)
    assert len(payments) == brute_force_minimum(list(nets.values()))


def test_brute_force_helper_itself() -> None:
    assert sum(1 for _ in set_partitions([1, 2, 3, 4])) == 15  # Bell(4)
    assert brute_force_minimum([6, -6, 4, 3, -7]) == 3
    assert brute_force_minimum([120, -70, -50]) == 2
    assert brute_force_minimum([0, 0]) == 0
    assert brute_force_minimum([1, -1, 1, -1]) == 2


@settings(max_examples=60, deadline=None, database=None)
@given(st.lists(st.integers(-1000, 1000).filter(bool), min_size=18, max_size=24))
def test_large_nights_take_the_greedy_path_with_at_most_n_minus_1_payments(values) -> None:
    assume(sum(values) != 0)  # every one of the 19 to 25 players has a non-zero net
    nets = balanced(values)
    live = len(nets)
    assert live > EXACT_LIMIT
    payments = settle_up(nets)
    check_settles(nets, payments)
    assert len(payments) <= live - 1


def test_fifteen_players_with_pairs_get_the_exact_minimum() -> None:
    # Six pairs x / -x and a triple 7 + 8 = 15: seven zero-sum blocks, the most 15 non-zero
    # players can split into (every block needs two players), so 15 - 7 = 8 payments. One
    # greedy biggest-to-biggest pass over everybody would take 14.
    pairs = [(11, -11), (12, -12), (13, -13), (14, -14), (9, -9), (10, -10)]
    values = [v for pair in pairs for v in pair] + [7, 8, -15]
    nets = {f"P{i:02d}": v for i, v in enumerate(values)}
    assert len(nets) == 15 <= EXACT_LIMIT
    payments = settle_up(nets)
    check_settles(nets, payments)
    assert len(payments) == 8
    paid = {(payer, payee) for payer, payee, _ in payments}
    for i in range(0, 12, 2):
        assert (f"P{i + 1:02d}", f"P{i:02d}") in paid


def test_fifteen_players_interleaved_blocks_get_the_exact_minimum() -> None:
    # Blocks {5, 3, -8}, {6, 2, -8}, {4, 4, -8}, {7, 1, -8}, {9, -5, -4}. No partition has six
    # zero-sum blocks: that would put each of the six debtors in a block of its own, so -5 and -4
    # would be settled by 5 and 4, leaving four blocks of 8 to be made with the 9 among them.
    # Minimum 15 - 5 = 10 payments; one greedy pass over everybody would take 13.
    values = [5, 3, -8, 6, 2, -8, 4, 4, -8, 7, 1, -8, 9, -5, -4]
    nets = {f"P{i:02d}": v for i, v in enumerate(values)}
    payments = settle_up(nets)
    check_settles(nets, payments)
    assert len(payments) == 10


def test_sixteen_players_still_settle() -> None:
    values = [1, -1] * 8
    nets = {f"P{i:02d}": v for i, v in enumerate(values)}
    payments = settle_up(nets)
    check_settles(nets, payments)
    assert len(payments) <= 15


def test_a_club_night_of_sixteen_gets_the_fewest_payments() -> None:
    # Four tables of four, nets in multiples of the Hoyle stakes: the fewest payments are 10
    # (16 players in six zero-sum blocks). A greedy pass over all sixteen took 15.
    values = [-72, -72, 108, 72, -18, 24, -36, 72, -24, 48, 72, 36, 72, -72, 24, -234]
    nets = {f"P{i:02d}": v for i, v in enumerate(values)}
    payments = settle_up(nets)
    check_settles(nets, payments)
    assert len(payments) == 10
    assert len(settle_up({f"P{i:02d}": v for i, v in enumerate([1, -1] * 8)})) == 8


def test_nets_that_cancel_in_pairs_are_settled_pairwise_at_any_size() -> None:
    # Twenty players: seven pairs x / -x and six players whose blocks are {5, 3, -8} and
    # {9, -2, -7}. The fewest payments: 7 for the pairs and 2 + 2 for the blocks.
    pairs = [(11, -11), (12, -12), (13, -13), (14, -14), (6, -6), (10, -10), (15, -15)]
    values = [v for pair in pairs for v in pair] + [5, 3, -8, 9, -2, -7]
    nets = {f"P{i:02d}": v for i, v in enumerate(values)}
    payments = settle_up(nets)
    check_settles(nets, payments)
    assert len(payments) == 11
    assert settle_up(dict(reversed(list(nets.items())))) == payments
