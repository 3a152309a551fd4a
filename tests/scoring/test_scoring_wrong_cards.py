"""Cards improperly divided, found after the first call. Hoyle's Games Modernized, Solo Whist, A
Digest of the Laws: "Should the cards be improperly divided, the declaring hand or hands win the
stakes if their own cards are correct, and any person or partnership with the incorrect number of
cards must, whatever has happened, lose the stake, unless the error is discovered before the first
call is announced." Worked at Hoyle's stakes (The Stakes: "propositions and solos are paid for at
6d. each, misères at 1s., and abondances at 1s. 6d.")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import scoring
from scoring import Contract, Hand, InvalidHand, Outcome, Payment, score_hand
from tests.scoring.test_scoring_properties import (
    PRESET_PER_OPPONENT,
    PROPERTY,
    contract_hands,
    per_opponent_rules,
    rule_sets,
)

HOYLE = scoring.preset("hoyle")
P = ("Ann", "Bob", "Cat", "Dan")


def test_a_declarer_with_the_right_cards_wins_though_he_took_no_trick() -> None:
    """ "the declaring hand ... win the stakes if their own cards are correct ... whatever has
    happened": Ann's solo with 0 tricks still wins 6d. from each; Bob, who held 14 cards, and Cat,
    who held 12, pay the 18d. between them."""
    result = score_hand(
        Hand(P, "solo", declarer="Ann", tricks=0, wrong_cards=("Bob", "Cat")), HOYLE
    )
    assert result.made
    assert result.amounts == {"Ann": 18, "Bob": -9, "Cat": -9, "Dan": 0}
    assert (result.over_tricks, result.under_tricks) == (0, 0)
    assert result.summary == "Won: cards wrongly divided"
    assert result.notes == ("Bob and Cat held the wrong number of cards",)
    assert result.kind is Outcome.PLAYED


def test_a_defender_with_the_wrong_number_pays_his_side_s_stake() -> None:
    """ "any person ... with the incorrect number of cards must ... lose the stake": one defender
    short (a card fell under the table) pays the whole 1s. 6d. of Ann's abundance, with no
    over-tricks counted for her ten tricks."""
    hand = Hand(P, "abundance", declarer="Ann", tricks=10, trump="hearts", wrong_cards=("Dan",))
    result = score_hand(hand, HOYLE)
    assert result.amounts == {"Ann": 54, "Bob": 0, "Cat": 0, "Dan": -54}
    assert result.stake == 18


def test_a_declarer_with_the_wrong_number_loses_though_he_made_his_tricks() -> None:
    """ "any person ... with the incorrect number of cards must, whatever has happened, lose the
    stake": Ann called a misère holding 14 cards and took no trick; she pays 1s. to each."""
    hand = Hand(P, "misere", declarer="Ann", tricks=0, wrong_cards=("Ann",))
    result = score_hand(hand, HOYLE)
    assert not result.made
    assert result.amounts == {"Ann": -36, "Bob": 12, "Cat": 12, "Dan": 12}
    assert result.summary == "Lost: cards wrongly divided"


def test_when_declarer_and_a_defender_both_hold_the_wrong_number_both_lose() -> None:
    """Ann held 14, Bob 12: Ann loses her solo's 6d. to Cat and Dan; Bob, with the incorrect
    number too, loses his stake: he is paid nothing."""
    hand = Hand(P, "solo", declarer="Ann", tricks=9, wrong_cards=("Ann", "Bob"))
    assert score_hand(hand, HOYLE).amounts == {"Ann": -12, "Bob": 0, "Cat": 6, "Dan": 6}


def test_a_partnership_with_the_wrong_number_loses_the_stake_together() -> None:
    """ "any ... partnership with the incorrect number of cards must ... lose the stake": Bob, who
    accepted Ann's proposal, held 12 cards; the partners pay 6d. each as for a failed Prop & Cop
    (with no under-tricks), though they took eight tricks."""
    hand = Hand(P, "prop_cop", declarer="Ann", partner="Bob", tricks=8, wrong_cards=("Bob",))
    result = score_hand(hand, HOYLE)
    assert result.amounts == {"Ann": -6, "Bob": -6, "Cat": 6, "Dan": 6}
    correct = Hand(P, "prop_cop", declarer="Ann", partner="Bob", tricks=2, wrong_cards=("Cat",))
    assert score_hand(correct, HOYLE).amounts == {"Ann": 6, "Bob": 6, "Cat": -12, "Dan": 0}


def test_found_during_the_play_the_tricks_may_be_left_empty() -> None:
    hand = Hand(P, "solo", declarer="Ann", wrong_cards=("Cat", "Dan"))
    result = score_hand(hand, HOYLE)
    assert result.amounts == {"Ann": 18, "Bob": 0, "Cat": -9, "Dan": -9}
    assert result.tricks_counted is None


def test_winner_only_points_score_only_for_a_correct_declaring_side() -> None:
    anna = scoring.preset("anna-cubed")
    won = Hand(P, "solo", declarer="Ann", trump="hearts", tricks=1, wrong_cards=("Bob",))
    assert score_hand(won, anna).amounts == {"Ann": 1, "Bob": 0, "Cat": 0, "Dan": 0}
    lost = Hand(P, "solo", declarer="Ann", trump="hearts", tricks=9, wrong_cards=("Ann",))
    assert score_hand(lost, anna).amounts == dict.fromkeys(P, 0)


def test_an_odd_unit_is_paid_by_the_first_named() -> None:
    cents = scoring.preset("cents")  # a misère is 25 cents from each: 75 between two offenders
    hand = Hand(P, "misere", declarer="Ann", tricks=0, wrong_cards=("Dan", "Bob"))
    assert score_hand(hand, cents).amounts == {"Ann": 75, "Bob": -37, "Cat": 0, "Dan": -38}


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (Hand(P, scoring.MISDEAL, wrong_cards=("Ann",)), "before the first call"),
        (Hand(P, scoring.ALL_PASSED, wrong_cards=("Ann",)), "fresh deal"),
        (Hand(P, "solo", declarer="Ann", tricks=5, wrong_cards=("Eve",)), "not playing"),
        (Hand(P, "solo", declarer="Ann", tricks=5, wrong_cards=("Bob", "Bob")), "once"),
        (Hand(P, "solo", declarer="Ann", tricks=5, wrong_cards="Bob"), "one name each"),
        (
            Hand(P, "solo", declarer="Ann", tricks=5, revoke_by="Cat", wrong_cards=("Bob",)),
            "whatever happened",
        ),
        (
            Hand(
                P,
                "misere",
                declarer="Ann",
                penalty="exposed_card",
                penalty_by="Bob",
                wrong_cards=("Bob",),
            ),
            "whatever happened",
        ),
        (Hand(P, "solo", declarer="Ann", tricks=14, wrong_cards=("Bob",)), "between 0 and 13"),
    ],
)
def test_what_cannot_be_recorded_is_refused(hand: Hand, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        score_hand(hand, HOYLE)


@st.composite
def wrong_card_hands(draw) -> Hand:
    hand = draw(contract_hands(revoke=False))
    wrong = draw(st.lists(st.sampled_from(hand.players), min_size=1, unique=True))
    tricks = draw(st.none() | st.just(hand.tricks))
    return Hand(
        players=hand.players,
        contract=hand.contract,
        declarer=hand.declarer,
        partner=hand.partner,
        tricks=tricks,
        wrong_cards=tuple(wrong),
    )


@PROPERTY
@given(hand=wrong_card_hands(), rules=per_opponent_rules)
def test_zero_sum_rules_stay_zero_sum_when_cards_were_wrongly_divided(hand, rules) -> None:
    """The presets that pay per opponent, and any house rules that do, move money only between
    players: cards wrongly divided create or lose none."""
    result = score_hand(hand, rules)
    assert sum(result.amounts.values()) == 0
    declaring = {hand.declarer, hand.partner} - {None}
    for who in hand.wrong_cards:
        assert result.amounts[who] <= 0, "a player with the wrong number of cards never gains"
    if declaring & set(hand.wrong_cards):
        assert not result.made
    else:
        assert result.made
        assert all(result.amounts[p] > 0 for p in declaring)


@PROPERTY
@given(hand=wrong_card_hands(), rules=st.sampled_from(PRESET_PER_OPPONENT), data=st.data())
def test_the_tricks_never_change_the_money(hand, rules, data) -> None:
    """ "whatever has happened": the same hand with any other number of tricks (or none) pays the
    same amounts."""
    other = data.draw(st.none() | st.integers(0, 13))
    again = Hand(
        hand.players,
        hand.contract,
        declarer=hand.declarer,
        partner=hand.partner,
        tricks=other,
        wrong_cards=hand.wrong_cards,
    )
    assert score_hand(again, rules).amounts == score_hand(hand, rules).amounts


@PROPERTY
@given(hand=wrong_card_hands(), rules=rule_sets(payment=Payment.WINNER_ONLY))
def test_winner_only_never_takes_points_away(hand, rules) -> None:
    result = score_hand(hand, rules)
    assert min(result.amounts.values()) >= 0
    assert result.stake == rules.stake(Contract.parse(hand.contract)).base * rules.stake_unit
