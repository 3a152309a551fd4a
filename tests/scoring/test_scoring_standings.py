"""Standings arithmetic: competition ranks (1, 2, 2, 4), net / points / average, best nights."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring import standings
from scoring.standings import (
    Method,
    Standing,
    Totals,
    best_nights_total,
    competition_ranks,
    rank,
    rank_by,
)

ROWS = [
    Totals("Dan", net=-30, hands=10, points=2, nights=2),
    Totals("Bob", net=40, hands=20, points=7, nights=3),
    Totals("Cat", net=40, hands=8, points=3, nights=1),
    Totals("Ann", net=90, hands=30, points=7, nights=3),
]


def table(standings_: list[Standing]) -> list[tuple[int, str, Fraction]]:
    return [(s.rank, s.totals.player, s.value) for s in standings_]


def test_rank_by_net_shares_ties_and_skips_the_next_rank() -> None:
    assert table(rank(ROWS)) == [
        (1, "Ann", Fraction(90)),
        (2, "Bob", Fraction(40)),
        (2, "Cat", Fraction(40)),
        (4, "Dan", Fraction(-30)),
    ]


def test_rank_by_points() -> None:
    assert table(rank(ROWS, Method.POINTS)) == [
        (1, "Ann", Fraction(7)),
        (1, "Bob", Fraction(7)),
        (3, "Cat", Fraction(3)),
        (4, "Dan", Fraction(2)),
    ]


def test_rank_by_average_is_exact() -> None:
    # Cat 40/8 = 5, Ann 90/30 = 3, Bob 40/20 = 2, Dan -30/10 = -3
    result = rank(ROWS, "average")
    assert table(result) == [
        (1, "Cat", Fraction(5)),
        (2, "Ann", Fraction(3)),
        (3, "Bob", Fraction(2)),
        (4, "Dan", Fraction(-3)),
    ]
    assert all(isinstance(s.value, Fraction) for s in result)


def test_average_ties_are_exact_not_floating_point() -> None:
    # 1/3 and 2/6 are equal; 0.1 + 0.2 style float error must not split them.
    rows = [
        Totals("Ann", net=1, hands=3),
        Totals("Bob", net=2, hands=6),
        Totals("Cat", net=3333, hands=10000),
    ]
    assert table(rank(rows, Method.AVERAGE)) == [
        (1, "Ann", Fraction(1, 3)),
        (1, "Bob", Fraction(1, 3)),
        (3, "Cat", Fraction(3333, 10000)),
    ]


def test_totals_average_and_value() -> None:
    totals = Totals("Ann", net=10, hands=4, points=3)
    assert totals.average == Fraction(5, 2)
    assert totals.value("net") == 10
    assert totals.value(Method.POINTS) == 3
    assert totals.value("average") == Fraction(5, 2)
    assert Totals("New", net=0, hands=0).average == 0


def test_unknown_method_is_refused() -> None:
    with pytest.raises(ValueError):
        rank(ROWS, "median")


def test_ties_are_listed_by_name_ignoring_case() -> None:
    rows = [Totals("bob", 5, 1), Totals("Cat", 5, 1), Totals("ann", 5, 1), Totals("Ann", 5, 1)]
    assert [(s.rank, s.totals.player) for s in rank(rows)] == [
        (1, "Ann"),
        (1, "ann"),
        (1, "bob"),
        (1, "Cat"),
    ]


def test_rank_of_nobody() -> None:
    assert rank([]) == []


@pytest.mark.parametrize(
    ("values", "ranks"),
    [
        pytest.param([], [], id="empty"),
        pytest.param([9], [1], id="one"),
        pytest.param([9, 5, 5, 1], [1, 2, 2, 4], id="1-2-2-4"),
        pytest.param([3, 3, 3], [1, 1, 1], id="all-tied"),
        pytest.param([9, 9, 5, 5, 5, 1], [1, 1, 3, 3, 3, 6], id="two-ties"),
        pytest.param([Fraction(1, 2), Fraction(2, 4), 0], [1, 1, 3], id="fractions"),
    ],
)
def test_competition_ranks(values, ranks) -> None:
    assert competition_ranks(values) == ranks


def test_rank_by_any_rows_best_first_and_stable() -> None:
    rows = [("Ann", 3), ("Bob", 7), ("Cat", 3), ("Dan", 1), ("Eve", 7)]
    assert rank_by(rows, key=lambda row: row[1]) == [
        (1, ("Bob", 7)),
        (1, ("Eve", 7)),
        (3, ("Ann", 3)),
        (3, ("Cat", 3)),
        (5, ("Dan", 1)),
    ]
    assert rank_by([], key=lambda row: row) == []


@pytest.mark.parametrize(
    ("nets", "best", "total"),
    [
        pytest.param([5, -3, 10, 2], 2, 15, id="best-2"),
        pytest.param([5, -3, 10, 2], None, 14, id="all-nights"),
        pytest.param([5, -3, 10, 2], 10, 14, id="fewer-nights-than-best"),
        pytest.param([-5, -3, -10], 2, -8, id="all-losing"),
        pytest.param([], 3, 0, id="no-nights"),
        pytest.param(iter([4, 1]), 1, 4, id="any-iterable"),
    ],
)
def test_best_nights_total(nets, best, total) -> None:
    assert best_nights_total(nets, best) == total


@pytest.mark.parametrize("best", [0, -1])
def test_best_nights_below_one_is_refused(best) -> None:
    """A "best 0 nights" season counted nothing and ranked everyone first."""
    with pytest.raises(ValueError, match="at least 1"):
        best_nights_total([5, -3], best)


def test_module_is_exposed_on_the_package() -> None:
    import scoring

    assert scoring.standings is standings
