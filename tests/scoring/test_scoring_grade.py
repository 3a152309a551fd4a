"""The Solo grade's rating arithmetic (scoring/grade.py): properties over random hands."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import grade as g

PLAYERS = [f"p{i}" for i in range(8)]
CONTRACTS = ["prop_cop", "solo", "misere", "abundance", "royal_abundance", "open_misere",
             "abundance_declared"]  # fmt: skip


@st.composite
def hands(draw):
    """Random rated hands at tables of 3, 4 and 5 (the fifth sits out), in order, days apart."""
    n = draw(st.integers(1, 40))
    result = []
    day = 740000
    for i in range(n):
        day += draw(st.sampled_from([0, 0, 0, 7, 30]))
        seated = draw(st.lists(st.sampled_from(PLAYERS), min_size=3, max_size=5, unique=True))
        playing = seated[:4]  # at a table of five the fifth sits this hand out
        contract = draw(st.sampled_from([*CONTRACTS, "all_passed"]))
        if contract == "prop_cop" and len(playing) < 4:
            contract = "solo"
        declarer, partner = playing[0], playing[1] if contract == "prop_cop" else None
        last = draw(st.sampled_from([None, *playing])) if contract == "all_passed" else None
        hand = g.grade_hand(
            (i,), day, playing, contract, declarer, partner, draw(st.booleans()), last
        )
        if hand is not None:
            result.append(hand)
    return result


def swapped(hand: g.GradeHand) -> g.GradeHand:
    return g.GradeHand(hand.order, hand.day, hand.side, hand.rest, not hand.side_won, hand.weight)


def test_a_made_solo_moves_the_declarer_three_times_as_far_as_each_opponent():
    hand = g.grade_hand((1,), 1, ["a", "b", "c", "d"], "solo", "a", None, True)
    after = g.rate_hand({}, hand)
    assert after["a"].mu > g.MU
    for opponent in "bcd":
        assert after[opponent].mu < g.MU
        assert after["a"].mu - g.MU == pytest.approx(3 * (g.MU - after[opponent].mu))
    assert all(r.hands == 1 and r.sigma < g.SIGMA for r in after.values())


def test_prop_cop_is_one_game_between_the_pairs():
    hand = g.grade_hand((1,), 1, ["a", "b", "c", "d"], "prop_cop", "a", "c", False)
    assert hand.side == ("a", "c") and hand.rest == ("b", "d")
    after = g.rate_hand({}, hand)
    assert after["a"].mu == after["c"].mu < g.MU < after["b"].mu == after["d"].mu


def test_a_redeal_is_not_rated_and_a_general_misere_is_lost_by_the_last_trick():
    players = ["a", "b", "c", "d"]
    assert g.grade_hand((1,), 1, players, "all_passed", None, None, None) is None
    hand = g.grade_hand((1,), 1, players, "all_passed", None, None, None, last_trick_by="c")
    assert hand.side == ("c",) and not hand.side_won and hand.weight == 1
    after = g.rate_hand({}, hand)
    assert after["c"].mu < g.MU and all(after[p].mu > g.MU for p in "abd")


def test_bigger_contracts_count_more_by_the_root_of_their_stake():
    assert g.stake_weight("solo") == 1
    assert g.stake_weight("abundance_declared") == pytest.approx(math.sqrt(6))
    solo = g.rate_hand({}, g.grade_hand((1,), 1, ["a", "b", "c"], "solo", "a", None, True))
    misere = g.rate_hand({}, g.grade_hand((1,), 1, ["a", "b", "c"], "misere", "a", None, True))
    assert misere["a"].mu - g.MU == pytest.approx(math.sqrt(2) * (solo["a"].mu - g.MU))
    assert misere["a"].sigma < solo["a"].sigma


def test_hands_that_cannot_be_rated_are_refused():
    with pytest.raises(ValueError, match="declarer"):
        g.grade_hand((1,), 1, ["a", "b", "c"], "solo", None, None, True)
    with pytest.raises(ValueError, match="at the table"):
        g.grade_hand((1,), 1, ["a", "b", "c"], "solo", "z", None, True)


def test_time_away_makes_a_rating_less_certain_but_never_less_than_a_newcomers():
    settled = g.Rating(mu=30, sigma=2.0, hands=200, day=1000)
    assert settled.aged(1000).sigma == pytest.approx(math.hypot(2.0, g.TAU_PER_HAND))
    year = settled.aged(1365).sigma
    assert year == pytest.approx(math.sqrt(4 + g.TAU_PER_HAND**2 + 365 * g.TAU_PER_DAY**2))
    assert settled.aged(10**6).sigma == g.SIGMA
    assert settled.aged(1365).mu == 30


def test_an_old_result_counts_less_than_a_new_one():
    """The same loss moves a player further after a long absence than straight after play."""
    before = {"a": g.Rating(mu=30, sigma=2.0, hands=200, day=1000)}
    loss_now = g.grade_hand((1,), 1000, ["a", "b", "c", "d"], "solo", "a", None, False)
    loss_later = g.grade_hand((1,), 1700, ["a", "b", "c", "d"], "solo", "a", None, False)
    assert g.rate_hand(before, loss_later)["a"].mu < g.rate_hand(before, loss_now)["a"].mu


def test_the_grade_shown_and_its_uncertainty():
    assert str(g.shown(g.Rating())) == "1,000 ± 667 (provisional)"
    grade = g.shown(g.Rating(mu=27.1, sigma=1.2, hands=60))
    assert (grade.value, grade.plus_minus, grade.provisional) == (1084, 96, False)
    assert str(grade) == "1,084 ± 96"
    assert g.shown(g.Rating(hands=59)).provisional
    assert not g.shown(g.Rating(hands=5), min_hands=5).provisional


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_player_who_wins_every_hand_rises(data):
    """Whatever the others do, a player who is on the winning side of every hand they play ends
    above where they started, and above everyone who only ever lost to them."""
    the_hands = data.draw(hands())
    winner = data.draw(st.sampled_from(PLAYERS))
    fixed = [
        h
        if winner not in h.players
        else g.GradeHand(h.order, h.day, h.side, h.rest, winner in h.side, h.weight)
        for h in the_hands
    ]
    ratings = g.rate(fixed)
    if any(winner in h.players for h in fixed):
        assert ratings[winner].mu > g.MU
    before = g.MU
    for hand, after in g.replay(fixed):
        if winner in hand.players:
            assert after[winner].mu > before
            before = after[winner].mu


@settings(max_examples=60, deadline=None)
@given(hands())
def test_swapping_every_result_mirrors_the_ratings(the_hands):
    """With every result the other way round, each rating is the mirror image about the
    newcomer's (same uncertainty): the model favours no side and no contract."""
    ratings = g.rate(the_hands)
    mirror = g.rate([swapped(h) for h in the_hands])
    assert ratings.keys() == mirror.keys()
    for player, rating in ratings.items():
        assert mirror[player].mu - g.MU == pytest.approx(g.MU - rating.mu, abs=1e-9)
        assert mirror[player].sigma == pytest.approx(rating.sigma, abs=1e-9)
        assert mirror[player].hands == rating.hands


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_order_of_hands_at_different_tables_makes_no_difference(data):
    """Two tables in the same round share no player: their hands interleave in any order with
    exactly the same ratings (bit for bit), and `rate` uses the hands' order, not the list's."""
    day = 740000
    tables = [PLAYERS[:4], PLAYERS[4:]]
    the_hands = []
    for t, seated in enumerate(tables):
        for number in range(data.draw(st.integers(1, 12))):
            contract = data.draw(st.sampled_from(CONTRACTS))
            declarer, partner = data.draw(st.permutations(seated))[:2]
            hand = g.grade_hand(
                (day, 1, 1, t + 1, number + 1), day, seated, contract, declarer,
                partner if contract == "prop_cop" else None, data.draw(st.booleans()),
            )  # fmt: skip
            the_hands.append(hand)
    expected = g.rate(the_hands)
    shuffled = data.draw(st.permutations(the_hands))
    assert g.rate(shuffled) == expected
    # Played table by table or interleaved (each table's own order kept): the same.
    rng = random.Random(data.draw(st.integers(0, 1000)))
    queues = [[h for h in the_hands if h.order[3] == t + 1] for t in range(2)]
    interleaved = []
    while any(queues):
        queue = rng.choice([q for q in queues if q])
        interleaved.append(queue.pop(0))
    relabelled = [
        g.GradeHand((i,), h.day, h.side, h.rest, h.side_won, h.weight)
        for i, h in enumerate(interleaved)
    ]
    assert g.rate(relabelled) == expected


def test_rating_from_a_snapshot_equals_rating_from_the_start():
    """Restarting from the ratings part-way through gives what rating everything gives: what the
    app relies on to recompute only from a corrected hand on."""
    rng = random.Random(7)
    the_hands = []
    for i in range(200):
        playing = rng.sample(PLAYERS, 4)
        contract = rng.choice(CONTRACTS)
        the_hands.append(g.grade_hand(
            (i,), 740000 + i // 20 * 7, playing, contract, playing[0],
            playing[1] if contract == "prop_cop" else None, rng.random() < 0.7,
        ))  # fmt: skip
    middle = g.rate(the_hands[:120])
    assert g.rate(the_hands[120:], start=middle) == g.rate(the_hands)
