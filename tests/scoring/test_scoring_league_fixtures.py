"""A league's round robin and a match night's draw: the properties every season and night keep,
and the draw's repeated opponents measured against a random draw's."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.league_fixtures import (
    Meeting,
    match_draw,
    met_before,
    repeated_pairs,
    round_robin,
    rounds_a_cycle,
)

PROPERTY = settings(max_examples=120, deadline=None, database=None)


@PROPERTY
@given(n=st.integers(2, 12), meetings=st.integers(1, 4))
def test_every_pair_meets_as_often_as_asked_and_nobody_twice_in_a_round(n, meetings):
    season = round_robin(n, meetings)
    pairs = Counter(frozenset((m.home, m.away)) for m in season)
    assert set(pairs) == {frozenset(p) for p in combinations(range(n), 2)}
    assert set(pairs.values()) == {meetings}
    assert len(season) == meetings * n * (n - 1) // 2
    by_round: dict[tuple[int, int], list[int]] = {}
    for m in season:
        assert m.home != m.away
        assert 1 <= m.round <= rounds_a_cycle(n) and 1 <= m.cycle <= meetings
        by_round.setdefault((m.cycle, m.round), []).extend([m.home, m.away])
    for clubs in by_round.values():
        assert len(clubs) == len(set(clubs))
    # Each cycle is one round robin on its own.
    for cycle in range(1, meetings + 1):
        in_cycle = Counter(frozenset((m.home, m.away)) for m in season if m.cycle == cycle)
        assert len(in_cycle) == n * (n - 1) // 2 and set(in_cycle.values()) == {1}


@PROPERTY
@given(n=st.integers(2, 12), meetings=st.integers(1, 4))
def test_home_and_away_are_balanced(n, meetings):
    season = round_robin(n, meetings)
    at_home: Counter[tuple[int, int]] = Counter()
    home, away = Counter[int](), Counter[int]()
    for m in season:
        at_home[(m.home, m.away)] += 1
        home[m.home] += 1
        away[m.away] += 1
    for a, b in combinations(range(n), 2):
        assert abs(at_home[(a, b)] - at_home[(b, a)]) <= meetings % 2
    for club in range(n):
        # Mirrored cycles cancel; an odd last cycle leaves at most one more game at home or away
        # (none with an odd number of clubs, who play an even number of games a cycle).
        assert abs(home[club] - away[club]) <= (meetings % 2) * (1 - n % 2)


@PROPERTY
@given(n=st.integers(2, 12), meetings=st.integers(1, 4))
def test_an_odd_number_of_clubs_gives_each_club_one_bye_a_cycle(n, meetings):
    season = round_robin(n, meetings)
    for cycle in range(1, meetings + 1):
        rounds = rounds_a_cycle(n)
        playing = Counter[int]()
        for m in season:
            if m.cycle == cycle:
                playing[m.home] += 1
                playing[m.away] += 1
        byes = {club: rounds - playing[club] for club in range(n)}
        assert set(byes.values()) == ({1} if n % 2 else {0})


def test_five_clubs_meeting_twice_make_twenty_fixtures_each_pair_once_at_each_home():
    season = round_robin(5, 2)
    assert len(season) == 20
    assert sorted((m.home, m.away) for m in season) == sorted(
        (a, b) for a in range(5) for b in range(5) if a != b
    )
    assert season[0] == Meeting(cycle=1, round=1, home=season[0].home, away=season[0].away)
    assert max(m.round for m in season) == 5


def test_a_league_needs_two_clubs_and_a_meeting():
    with pytest.raises(ValueError, match="at least 2 clubs"):
        round_robin(1, 2)
    with pytest.raises(ValueError, match="at least once"):
        round_robin(4, 0)


@PROPERTY
@given(
    half=st.integers(1, 6),
    nights=st.integers(0, 3),
    seed=st.integers(0, 10_000),
)
def test_each_table_seats_two_home_and_two_away_alternately(half, nights, seed):
    home = [f"h{i}" for i in range(2 * half)]
    away = [f"a{i}" for i in range(2 * half)]
    past: list[list[list[str]]] = []
    for night in range(nights):
        past.append(match_draw(home, away, past, seed=seed + night))
    tables = match_draw(home, away, past, seed=seed)
    assert len(tables) == half
    assert sorted(p for t in tables for p in t) == sorted(home + away)
    for table in tables:
        assert [p[0] for p in table] == ["h", "a", "h", "a"]
    assert tables == match_draw(home, away, past, seed=seed)  # deterministic


def test_the_draw_refuses_uneven_sides():
    with pytest.raises(ValueError, match="same size"):
        match_draw(["h1", "h2"], ["a1"])
    with pytest.raises(ValueError, match="even number"):
        match_draw(["h1"], ["a1"])
    with pytest.raises(ValueError, match="named twice"):
        match_draw(["h1", "x"], ["a1", "x"])


def _random_draw(home: list[str], away: list[str], rng: random.Random) -> list[list[str]]:
    hs, aws = home[:], away[:]
    rng.shuffle(hs)
    rng.shuffle(aws)
    return [[hs[i], aws[i], hs[i + 1], aws[i + 1]] for i in range(0, len(hs), 2)]


def _season_repeats(draw) -> tuple[int, int]:
    """Over four meetings of the same 6 + 6 players: home-away pairs met again, counted as often
    as they had met; and of those, in the first three meetings (none need repeat there)."""
    home = [f"h{i}" for i in range(6)]
    away = [f"a{i}" for i in range(6)]
    past: list[list[list[str]]] = []
    repeats = []
    for _ in range(4):
        tables = draw(home, away, past)
        repeats.append(repeated_pairs(tables, home, met_before(past)))
        past.append(tables)
    return sum(repeats), sum(repeats[:3])


def test_players_meet_different_opponents_at_each_meeting():
    # 4 meetings seat 48 home-away pairs among 36; the fewest repeats possible is 12, all in the
    # fourth meeting (the first three can seat every pair once).
    searched = [
        _season_repeats(lambda h, a, p, s=seed: match_draw(h, a, p, seed=s)) for seed in range(5)
    ]
    rng = random.Random(1)
    randoms = [_season_repeats(lambda h, a, p: _random_draw(h, a, rng)) for _ in range(200)]
    random_total = sum(r[0] for r in randoms) / len(randoms)
    random_first_three = sum(r[1] for r in randoms) / len(randoms)
    # Measured: the draw 12 (and 0 in the first three) every seed; random draws 24.1 (12.0) on
    # average over 2,000 seasons.
    assert all(total == 12 and first_three == 0 for total, first_three in searched)
    assert random_total > 21 and random_first_three > 9
