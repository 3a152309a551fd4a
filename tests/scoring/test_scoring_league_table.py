"""The league table's arithmetic against tables written out by hand, and its invariants over any
results (Hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.league_table import Match, Points, league_table

ABERDEEN = Points(win=3, tie=1, loss=0, forfeit=0)


def rows(table):
    """(side, played, won, tied, lost, aggregate, points, position) per row, in table order."""
    return [
        (r.side, r.played, r.won, r.tied, r.lost, r.aggregate, r.points, r.position) for r in table
    ]


# Each case: sides, matches, points, tie-breaks, and the table as a scorer would write it.
CASES = {
    "a win, a tie, a side not yet played": (
        ["A", "B", "C"],
        [Match("A", "B", 120, -120), Match("B", "A", 0, 0)],
        ABERDEEN,
        ["aggregate", "won"],
        [
            ("A", 2, 1, 1, 0, 120, 4, 1),
            ("B", 2, 0, 1, 1, -120, 1, 2),
            ("C", 0, 0, 0, 0, 0, 0, 3),
        ],
    ),
    "equal points split by aggregate": (
        ["A", "B", "C"],
        [Match("A", "B", 50, -50), Match("B", "C", 200, -200), Match("C", "A", 30, -30)],
        ABERDEEN,
        ["aggregate"],
        [
            ("B", 2, 1, 0, 1, 150, 3, 1),
            ("A", 2, 1, 0, 1, 20, 3, 2),
            ("C", 2, 1, 0, 1, -170, 3, 3),
        ],
    ),
    "equal on everything share a position": (
        ["A", "B", "C", "D"],
        [Match("A", "B", 10, -10), Match("B", "A", 10, -10), Match("C", "D", 0, 0)],
        ABERDEEN,
        ["aggregate", "won"],
        [
            ("A", 2, 1, 0, 1, 0, 3, 1),
            ("B", 2, 1, 0, 1, 0, 3, 1),
            ("C", 1, 0, 1, 0, 0, 1, 3),
            ("D", 1, 0, 1, 0, 0, 1, 3),
        ],
    ),
    "forfeit: a loss and the forfeit points, aggregate unchanged": (
        ["Home", "Away"],
        [Match("Home", "Away", forfeited_by="Away")],
        Points(win=2, tie=1, loss=0, forfeit=-1),
        ["aggregate"],
        [("Home", 1, 1, 0, 0, 0, 2, 1), ("Away", 1, 0, 0, 1, 0, -1, 2)],
    ),
    "forfeit by the home side": (
        ["Home", "Away"],
        [Match("Home", "Away", forfeited_by="Home")],
        ABERDEEN,
        [],
        [("Away", 1, 1, 0, 0, 0, 3, 1), ("Home", 1, 0, 0, 1, 0, 0, 2)],
    ),
    "head to head before aggregate": (
        # A and B both have 3 points; B has the better aggregate but A beat B.
        ["A", "B", "C"],
        [Match("A", "B", 10, -10), Match("B", "C", 500, -500), Match("C", "A", 40, -40)],
        ABERDEEN,
        ["head_to_head", "aggregate"],
        [
            ("B", 2, 1, 0, 1, 490, 3, 1),
            ("A", 2, 1, 0, 1, -30, 3, 2),
            ("C", 2, 1, 0, 1, -460, 3, 3),
        ],
    ),
    "head to head between two": (
        ["A", "B", "C"],
        [Match("A", "B", 10, -10), Match("B", "C", 500, -500)],
        ABERDEEN,
        ["head_to_head", "aggregate"],
        [
            ("A", 1, 1, 0, 0, 10, 3, 1),
            ("B", 2, 1, 0, 1, 490, 3, 2),
            ("C", 1, 0, 0, 1, -500, 0, 3),
        ],
    ),
    "matches won after aggregate": (
        # A and X have 3 points and an aggregate of 0 each: X won a match, A none.
        ["A", "C", "D", "X"],
        [
            Match("A", "C", 0, 0),
            Match("A", "D", 0, 0),
            Match("A", "C", 0, 0),
            Match("X", "C", 30, -30),
            Match("D", "X", 30, -30),
            Match("X", "D", 0, 0),
        ],
        Points(win=2, tie=1, loss=0),
        ["aggregate", "won"],
        [
            ("D", 3, 1, 2, 0, 30, 4, 1),
            ("X", 3, 1, 1, 1, 0, 3, 2),
            ("A", 3, 0, 3, 0, 0, 3, 3),
            ("C", 3, 0, 2, 1, -30, 2, 4),
        ],
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_table_matches_the_one_written_by_hand(case):
    sides, matches, points, tie_breaks, expected = case
    got = rows(league_table(sides, matches, points, tie_breaks))
    # Positions and figures as written; sides sharing a position may come in the given order.
    assert sorted(got, key=lambda r: (r[7], sides.index(r[0]))) == got
    assert sorted(got) == sorted(expected)


@pytest.mark.parametrize(
    "matches, tie_breaks, message",
    [
        ([Match("A", "B", 5, -4)], [], "do not sum to zero"),
        ([Match("A", "B", forfeited_by="C")], [], "forfeited a match it was not in"),
        ([Match("A", "Z", 0, 0)], [], "'Z' played a match but is not a side"),
        ([], ["luck"], "Unknown tie-break: luck"),
    ],
)
def test_refuses_what_cannot_be_a_table(matches, tie_breaks, message):
    with pytest.raises(ValueError, match=message):
        league_table(["A", "B"], matches, ABERDEEN, tie_breaks)


SIDES = ["A", "B", "C", "D", "E"]


@st.composite
def results(draw):
    matches = []
    for _ in range(draw(st.integers(0, 25))):
        home, away = draw(st.permutations(SIDES))[:2]
        if draw(st.integers(0, 9)) == 0:
            matches.append(Match(home, away, forfeited_by=draw(st.sampled_from([home, away]))))
        else:
            score = draw(st.integers(-5000, 5000))
            matches.append(Match(home, away, score, -score))
    return matches


POINTS = st.builds(
    lambda loss, tie_gap, win_gap, forfeit: Points(
        win=loss + tie_gap + win_gap, tie=loss + tie_gap, loss=loss, forfeit=forfeit
    ),
    st.integers(-2, 2),
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(-3, 1),
)


# No deadline: on a busy CI host an example may take longer than Hypothesis's 200 ms.
@settings(max_examples=200, deadline=None, database=None)
@given(
    results(),
    POINTS,
    st.lists(st.sampled_from(["aggregate", "won", "head_to_head"]), unique=True),
)
def test_any_results_keep_the_table_consistent(matches, points, tie_breaks):
    table = league_table(SIDES, matches, points, tie_breaks)
    assert sorted(r.side for r in table) == SIDES
    assert sum(r.aggregate for r in table) == 0
    assert sum(r.won for r in table) == sum(r.lost for r in table)
    assert sum(r.tied for r in table) % 2 == 0
    assert sum(r.played for r in table) == 2 * len(matches)
    for r in table:
        assert r.played == r.won + r.tied + r.lost
    forfeits = sum(1 for m in matches if m.forfeited_by is not None)
    ties = sum(r.tied for r in table) // 2
    decided = len(matches) - forfeits - ties
    assert sum(r.points for r in table) == (
        decided * (points.win + points.loss)
        + ties * 2 * points.tie
        + forfeits * (points.win + points.forfeit)
    )
    # Best first: points never rise down the table, and positions follow the rows.
    assert [r.points for r in table] == sorted((r.points for r in table), reverse=True)
    assert [r.position for r in table] == sorted(r.position for r in table)
    for r in table:
        first = next(j for j, other in enumerate(table) if other.position == r.position)
        assert r.position == first + 1 and table[first].points == r.points
