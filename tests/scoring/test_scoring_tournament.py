"""Tournament scoring: table-rank points (n..1 per table, ties shared) and the leaderboard order."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring.tournament import Method, places, table_rank_points

PROPERTY = settings(max_examples=300, deadline=None, database=None)

# A table's totals for a round: 3, 4 or 5 players (and, for the arithmetic, any size), with
# totals drawn from a small range so that ties are common.
table_totals = st.dictionaries(
    st.sampled_from([f"P{i}" for i in range(8)]), st.integers(-6, 6), min_size=1, max_size=8
)


def test_exported_from_the_scoring_core():
    assert scoring.tournament.table_rank_points is table_rank_points
    assert {m.value for m in Method} == {"amounts", "table_rank"}


def test_the_docstring_example_holds():
    failures, tried = doctest.testmod(scoring.tournament, verbose=False)
    assert tried == 1 and failures == 0


def test_a_table_of_four_without_ties_scores_4_3_2_1():
    assert table_rank_points({"Ann": -30, "Bob": 60, "Cat": 6, "Dan": -36}) == {
        "Ann": 2,
        "Bob": 4,
        "Cat": 3,
        "Dan": 1,
    }


def test_two_tied_for_first_at_a_table_of_four_get_3_5_each():
    points = table_rank_points({"Ann": 12, "Bob": 12, "Cat": -6, "Dan": -18})
    assert points == {"Ann": Fraction(7, 2), "Bob": Fraction(7, 2), "Cat": 2, "Dan": 1}


def test_a_table_of_five_scores_5_to_1_and_of_three_3_to_1():
    assert table_rank_points({"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}) == {
        "A": 5,
        "B": 4,
        "C": 3,
        "D": 2,
        "E": 1,
    }
    assert table_rank_points({"A": -1, "B": 7, "C": 0}) == {"A": 1, "B": 3, "C": 2}


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        # Three tied for last at a table of five share 3 + 2 + 1.
        ({"A": 9, "B": 4, "C": 0, "D": 0, "E": 0}, {"A": 5, "B": 4, "C": 2, "D": 2, "E": 2}),
        # Everyone equal (e.g. no hand scored yet): everyone gets the average place.
        ({"A": 0, "B": 0, "C": 0, "D": 0}, dict.fromkeys("ABCD", Fraction(5, 2))),
        # Two pairs of ties at a table of four.
        ({"A": 3, "B": 3, "C": -3, "D": -3}, {"A": 3.5, "B": 3.5, "C": 1.5, "D": 1.5}),
        ({}, {}),
    ],
)
def test_ties_share_the_places_they_cover(totals, expected):
    assert table_rank_points(totals) == {k: Fraction(v) for k, v in expected.items()}


@PROPERTY
@given(table_totals)
def test_a_table_gives_out_n_n_plus_1_over_2_points(totals):
    n = len(totals)
    points = table_rank_points(totals)
    assert set(points) == set(totals)
    assert sum(points.values()) == Fraction(n * (n + 1), 2)
    assert all(1 <= p <= n for p in points.values())


@PROPERTY
@given(table_totals)
def test_ties_share_equally_and_a_better_total_never_scores_less(totals):
    points = table_rank_points(totals)
    for a in totals:
        for b in totals:
            if totals[a] == totals[b]:
                assert points[a] == points[b]
            elif totals[a] > totals[b]:
                assert points[a] > points[b]


@PROPERTY
@given(table_totals)
def test_the_points_are_the_average_of_the_places_covered(totals):
    """Independently: the places a player's group covers, from how many are above and level."""
    n = len(totals)
    for player, total in table_rank_points(totals).items():
        above = sum(1 for t in totals.values() if t > totals[player])
        level = sum(1 for t in totals.values() if t == totals[player])
        covered = [n - place for place in range(above, above + level)]
        assert total == Fraction(sum(covered), level)


def test_places_rank_by_score_with_shared_ranks():
    scores = {"Ann": Fraction(7), "Bob": Fraction(15, 2), "Cat": Fraction(7), "Dan": Fraction(3)}
    assert places(scores) == [(1, "Bob"), (2, "Ann"), (2, "Cat"), (4, "Dan")]


def test_places_break_ties_on_the_tiebreak_then_share():
    scores = {"Ann": 7, "Bob": 7, "Cat": 7, "Dan": 2}
    tiebreak = {"Ann": 10, "Bob": 40, "Cat": 10, "Dan": 99}
    assert places(scores, tiebreak) == [(1, "Bob"), (2, "Ann"), (2, "Cat"), (4, "Dan")]


@PROPERTY
@given(st.dictionaries(st.text(min_size=1, max_size=3), st.integers(-5, 5), max_size=10))
def test_places_are_ordered_best_first_and_equal_scores_share_a_rank(scores):
    ranked = places(scores)
    assert sorted(k for _, k in ranked) == sorted(scores)
    values = [scores[k] for _, k in ranked]
    assert values == sorted(values, reverse=True)
    for rank, key in ranked:
        assert rank == 1 + sum(1 for v in scores.values() if v > scores[key])
