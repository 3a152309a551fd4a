"""A club night's draw (scoring.draw): the sizes for every number of players, refusals with
what would work instead, everyone seated once, few repeat meetings with recent nights."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.draw import describe_sizes, draw_sizes, draw_tables, late_table_donors
from scoring.seating import meetings

NAMES = [f"P{i:02d}" for i in range(80)]


def best_fours(n: int, odd: int) -> int:
    """The most tables of 4 any split of n into 4s and `odd`s can have (brute force)."""
    best = -1
    for odds in range(n // odd + 1):
        rest = n - odd * odds
        if rest % 4 == 0:
            best = max(best, rest // 4)
    return best


@pytest.mark.parametrize("n", range(3, 62))
@pytest.mark.parametrize("odd", [5, 3])
def test_draw_sizes_use_the_odd_table_only_where_needed(n, odd):
    try:
        sizes = draw_sizes(n, odd)
    except ValueError as refused:
        assert best_fours(n, odd) == -1
        assert (odd, n) in {(5, 3), (5, 6), (5, 7), (5, 11), (3, 5)}
        assert "with tables of" in str(refused)
        return
    assert sum(sizes) == n
    assert set(sizes) <= {4, odd}
    assert sizes.count(odd) <= 3
    assert sizes == sorted(sizes, key=lambda s: s != 4)
    assert sizes.count(4) == best_fours(n, odd)


def test_draw_sizes_for_sixty_one_and_fourteen():
    assert draw_sizes(61, 5) == [4] * 14 + [5]
    assert draw_sizes(61, 3) == [4] * 13 + [3] * 3
    assert draw_sizes(14, 3) == [4, 4, 3, 3]
    assert describe_sizes(draw_sizes(14, 3)) == "2 tables of 4 and 2 of 3"
    assert describe_sizes([5]) == "1 table of 5"


@pytest.mark.parametrize(
    ("n", "odd", "message"),
    [
        (2, 5, "at least 3 players, not 2"),
        (0, 3, "at least 3 players, not 0"),
        (
            7,
            5,
            "7 players cannot be drawn into tables of 4 and 5; with tables of 3 they make "
            "1 table of 4 and 1 of 3",
        ),
        (5, 3, "5 players cannot be drawn into tables of 4 and 3; with tables of 5"),
    ],
)
def test_draw_refuses_numbers_that_cannot_be_split(n, odd, message):
    with pytest.raises(ValueError, match=message):
        draw_sizes(n, odd)
    with pytest.raises(ValueError, match=message):
        draw_tables(NAMES[:n], odd)


def test_draw_refuses_a_table_size_that_is_not_odd():
    with pytest.raises(ValueError, match="table of 5 or of 3, not of 4"):
        draw_sizes(8, 4)


def test_draw_refuses_blank_and_repeated_names():
    with pytest.raises(ValueError, match="non-blank"):
        draw_tables(["A", "B", " "])
    with pytest.raises(ValueError, match="A arrived twice"):
        draw_tables(["A", "B", "C", "A"])
    with pytest.raises(ValueError, match="sits twice"):
        draw_tables(["A", "B", "C", "D"], history=[[["A", "B", "C", "A"]]])


def test_draw_is_deterministic_for_a_seed_and_varies_with_it():
    players = NAMES[:20]
    assert draw_tables(players, seed=7) == draw_tables(players, seed=7)
    assert any(draw_tables(players, seed=s) != draw_tables(players, seed=0) for s in range(1, 5))


def test_draw_keeps_apart_who_sat_together_on_recent_nights():
    players = NAMES[:16]
    history = []
    for night in range(4):
        history.append(draw_tables(players, history=history, seed=night))
    tonight = draw_tables(players, history=history, seed=99)
    # 16 players over five nights of four tables: the search finds no pair meeting a third time
    assert max(meetings([*history, tonight]).values()) <= 2
    # and nobody who sat together last night meets again tonight when a fresh split exists
    again = set(meetings([history[-1]])) & set(meetings([tonight]))
    assert len(again) <= 2


def test_draw_gives_the_odd_seats_to_who_had_none_lately():
    players = NAMES[:9]  # one table of 5 and one of 4
    last = draw_tables(players, seed=1)
    five = set(last[1])
    tonight = draw_tables(players, history=[last], seed=2)
    assert len(tonight[1]) == 5
    # four players sat at the four last time: all four are at the five tonight
    assert set(players) - five <= set(tonight[1])


def test_history_may_name_players_who_are_not_here():
    tables = draw_tables(NAMES[:4], history=[[["Gone", "P00", "P01", "P02"]]])
    assert sorted(tables[0]) == NAMES[:4]


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=3, max_value=61),
    odd=st.sampled_from([5, 3]),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_every_player_seated_exactly_once_with_as_many_fours_as_possible(n, odd, seed):
    players = NAMES[:n]
    try:
        sizes = draw_sizes(n, odd)
    except ValueError:
        return
    tables = draw_tables(players, odd, seed=seed)
    assert sizes.count(4) == best_fours(n, odd)
    seated = [p for table in tables for p in table]
    assert sorted(seated) == sorted(players)
    assert [len(t) for t in tables] == sizes
    assert {len(t) for t in tables} <= {3, 4, 5}
    # at most three odd tables: one more would make room for another table of 4
    assert sum(1 for t in tables if len(t) != 4) <= 3


def test_one_late_arrival_at_a_room_of_fives_takes_one_player_from_each_of_two_tables():
    assert late_table_donors(1, ["t1", "t2", "t3"]) == ["t1", "t2"]


def test_two_late_arrivals_at_a_room_of_fives_take_one_player_from_one_table():
    assert late_table_donors(2, ["t1", "t2"]) == ["t1"]
    assert late_table_donors(2, ["t1"]) == ["t1"]


def test_one_late_arrival_beside_the_only_table_of_five_splits_it_into_two_threes():
    assert late_table_donors(1, ["t1"]) == ["t1", "t1"]


@pytest.mark.parametrize("arrivals", [0, 3])
def test_three_or_more_late_arrivals_need_no_player_moved(arrivals):
    with pytest.raises(ValueError, match="make a table of their own"):
        late_table_donors(arrivals, ["t1", "t2"])


def test_no_table_of_five_gives_no_player():
    with pytest.raises(ValueError, match="needs 3 players"):
        late_table_donors(1, [])


@given(st.integers(1, 2), st.integers(1, 12))
def test_every_count_of_late_arrivals_at_a_room_of_fives_makes_a_table_of_three(arrivals, fives):
    tables = list(range(fives))
    donors = late_table_donors(arrivals, tables)
    assert arrivals + len(donors) == 3
    sizes = [5 - donors.count(t) for t in tables]
    assert all(size in (3, 4, 5) for size in sizes)
