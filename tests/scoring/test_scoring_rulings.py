"""Rulings a club makes at the table, scored from the rule texts: several revokes in one hand,
revokes on both sides (a void deal), penalties against a misère other than a revoke, cards wrongly
dealt, the suit turned up, stakes as multipliers of a wager, and rule-set values the core would
ignore. Each worked figure quotes the line of the text it comes from (rules-sources/)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import scoring
from scoring import (
    Contract,
    Hand,
    InvalidHand,
    InvalidRuleSet,
    Outcome,
    Payment,
    Penalty,
    Redeal,
    RuleSet,
    Stake,
    Trump,
    score_hand,
)
from scoring.table import next_dealer_after
from tests.scoring.test_scoring_properties import PROPERTY, contract_hands, rule_sets

HOYLE = scoring.preset("hoyle")
STANDARD = scoring.preset("standard")
CENTS = scoring.preset("cents")
P = ("Ann", "Bob", "Cat", "Dan")


def solo(tricks: int, **kw) -> Hand:
    return Hand(P, "solo", declarer="Ann", tricks=tricks, **kw)


# --- several revokes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "amounts", "summary"),
    [
        # Hoyle: "The penalty for every revoke is the loss of three tricks from the score of the
        # revoking side." Ann's solo with 9 tricks and two revokes of hers: 9 - 6 = 3, two short:
        # "for each trick short the agreed-upon price of an under-trick must also be paid",
        # 6d. + 2 x 1d. to each opponent.
        (
            solo(9, revokes=("Ann", "Ann")),
            {"Ann": -24, "Bob": 8, "Cat": 8, "Dan": 8},
            "Failed, 2 under (revoke)",
        ),
        # Bob and Cat, defenders, revoke once each against Ann's solo of 4 tricks: 4 + 6 = 10,
        # five over, 6d. + 5d. = 11d. from each of three: the side owes 33d. "The actual offender
        # pays the stakes in all cases of a revoke": each offender pays for his own revoke, 17d.
        # and 16d. (the first found pays the odd penny); Dan, innocent, pays nothing.
        (
            solo(4, revokes=("Bob", "Cat")),
            {"Ann": 33, "Bob": -17, "Cat": -16, "Dan": 0},
            "Made, 5 over (revoke)",
        ),
        # Bob revokes twice, Cat once: 2 + 9 = 11 tricks, six over, 12d. from each of three:
        # 36d. in three equal shares of 12d., two of them Bob's.
        (
            solo(2, revokes=("Bob", "Cat", "Bob")),
            {"Ann": 36, "Bob": -24, "Cat": -12, "Dan": 0},
            "Made, 6 over (revoke)",
        ),
        # "except in the instance of a proposer and acceptor, who, being voluntary partners, pay
        # the fine between them": both partners revoke, 10 tricks less 6 = 4, four short of
        # eight: each partner pays one opponent 6d. + 4 x 1d.
        (
            Hand(P, "prop_cop", declarer="Ann", partner="Bob", tricks=10, revokes=("Ann", "Bob")),
            {"Ann": -10, "Bob": -10, "Cat": 10, "Dan": 10},
            "Failed, 4 under (revoke)",
        ),
    ],
    ids=["declarer twice", "two defenders", "one defender twice", "both partners"],
)
def test_every_revoke_moves_three_tricks_and_its_offender_pays(hand, amounts, summary):
    result = score_hand(hand, HOYLE)
    assert result.amounts == amounts
    assert result.summary == summary
    assert sum(result.amounts.values()) == 0


def test_revoke_by_and_a_list_of_revokes_cannot_both_be_given():
    with pytest.raises(InvalidHand, match="not both"):
        score_hand(solo(5, revoke_by="Bob", revokes=("Cat",)), HOYLE)
    with pytest.raises(InvalidHand, match="one name a revoke"):
        score_hand(solo(5, revokes="Bob"), HOYLE)
    with pytest.raises(InvalidHand, match="not playing at this table"):
        score_hand(solo(5, revokes=("Bob", "Zed")), HOYLE)


# --- revokes on both sides: a void deal --------------------------------------------------------


@pytest.mark.parametrize("contract", ["solo", "misere", "abundance"])
def test_revokes_on_both_sides_void_the_deal(contract):
    """Hoyle: "In case of a revoke on both sides, the deal is void." No money, its own outcome."""
    hand = Hand(P, contract, declarer="Ann", tricks=0, revokes=("Bob", "Ann"))
    result = score_hand(hand, HOYLE)
    assert result.kind is Outcome.VOID
    assert result.amounts == dict.fromkeys(P, 0)
    assert result.summary == "Void: revokes on both sides"
    assert result.notes == ("Revokes: Bob, Ann",)


def test_a_void_deal_at_prop_cop_needs_a_revoke_by_a_defender_too():
    hand = Hand(P, "prop_cop", declarer="Ann", partner="Cat", tricks=8, revokes=("Cat", "Dan"))
    assert score_hand(hand, HOYLE).kind is Outcome.VOID
    same_side = Hand(P, "prop_cop", declarer="Ann", partner="Cat", tricks=8, revokes=("Cat",))
    assert score_hand(same_side, HOYLE).kind is Outcome.PLAYED


# --- penalties against a misère other than a revoke ------------------------------------------


@pytest.mark.parametrize(
    ("contract", "penalty", "by", "value"),
    [
        # Hoyle: "If a card is exposed by one of the adversaries of a misère or misère ouverte, the
        # misère-caller can immediately claim the stakes ... the stakes being paid by the offender
        # for himself and his partners": 1s. from each of three, all paid by Cat.
        ("misere", Penalty.EXPOSED_CARD, "Cat", 12),
        # "The misère-caller can enforce the same penalty if a card is led out of turn against
        # him": misère ouverte, "double the price of the ordinary misère".
        ("open_misere", Penalty.LEAD_OUT_OF_TURN, "Dan", 24),
        # "or, indeed, if any one follows suit out of turn".
        ("misere", Penalty.PLAYED_OUT_OF_TURN, "Bob", 12),
    ],
)
def test_a_misere_caller_claims_the_stakes_from_the_offender(contract, penalty, by, value):
    hand = Hand(P, contract, declarer="Ann", penalty=penalty, penalty_by=by)
    result = score_hand(hand, HOYLE)
    expected = dict.fromkeys(P, 0) | {"Ann": 3 * value, by: -3 * value}
    assert result.amounts == expected
    assert result.made and result.penalty is penalty
    assert result.summary == "Made (penalty)"
    # The tricks, when the table writes them down anyway, change nothing.
    with_tricks = Hand(P, contract, declarer="Ann", tricks=4, penalty=penalty, penalty_by=by)
    assert score_hand(with_tricks, HOYLE).amounts == expected


def test_a_penalty_under_points_scores_the_misere_caller():
    hand = Hand(P, "misere", declarer="Ann", penalty="exposed_card", penalty_by="Bob")
    assert score_hand(hand, scoring.preset("anna-cubed")).amounts == dict.fromkeys(P, 0) | {
        "Ann": 2
    }


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        # Hoyle: "penalties if any one playing against a single caller ... exposes any of his cards"
        # are exacted in the play (calling the card), not in the money.
        (solo(5, penalty="exposed_card", penalty_by="Bob"), "Only a misère caller"),
        # "There is no penalty if the caller of a solo, misère, or abondance exposes any or all of
        # his cards, the exposure being in this case to his own disadvantage."
        (
            Hand(P, "misere", declarer="Ann", penalty="exposed_card", penalty_by="Ann"),
            "own disadvantage",
        ),
        (Hand(P, "misere", declarer="Ann", penalty="exposed_card"), "both what was done and who"),
        (
            Hand(P, "misere", declarer="Ann", penalty="cheating", penalty_by="Bob"),
            "not a penalty",
        ),
        (
            Hand(
                P,
                "misere",
                declarer="Ann",
                tricks=0,
                penalty="exposed_card",
                penalty_by="Bob",
                revokes=("Cat",),
            ),
            "the penalty or the revokes",
        ),
        (Hand(P, None, penalty="exposed_card", penalty_by="Bob"), "only be claimed against"),
    ],
    ids=["against a solo", "the caller's own", "no offender", "unknown", "with revokes", "passed"],
)
def test_penalties_the_texts_do_not_allow(hand, message):
    with pytest.raises(InvalidHand, match=message):
        score_hand(hand, HOYLE)


# --- cards wrongly dealt ---------------------------------------------------------------------


def test_cards_wrongly_dealt_are_dealt_again_by_the_same_player_without_penalty():
    """Hoyle: "A fresh deal is necessary if a card is exposed or faced in the pack, or if there is a
    misdeal. This new deal is by the same player, and there is no penalty." """
    result = score_hand(Hand(P, scoring.MISDEAL), HOYLE)
    assert result.kind is Outcome.MISDEAL
    assert result.amounts == dict.fromkeys(P, 0)
    assert result.summary == "Cards wrongly dealt: redeal"
    assert next_dealer_after(P, "Bob", Outcome.MISDEAL, HOYLE) == "Bob"
    assert next_dealer_after(P, "Bob", Outcome.VOID, HOYLE) == "Bob"
    assert next_dealer_after(P, "Bob", Outcome.PLAYED, HOYLE) == "Cat"
    # Primer: "the deal will rotate clockwise to the next dealer, with this hand being declared a
    # misdeal".
    assert STANDARD.redeal_by is Redeal.NEXT
    assert next_dealer_after(P, "Dan", Outcome.MISDEAL, STANDARD) == "Ann"
    with pytest.raises(InvalidHand, match="dealt again"):
        score_hand(Hand(P, scoring.MISDEAL, declarer="Ann", tricks=5), HOYLE)


# --- the suit turned up ----------------------------------------------------------------------


def test_an_abundance_in_the_turned_suit_is_refused_where_the_rules_follow_000():
    """Primer: abundance is for "a particular suit, which was not the suit the dealer exposed";
    "Abundance in Trumps ... will use the suit exposed by the dealer as the trump suit"."""
    hand = Hand(P, "abundance", declarer="Ann", tricks=9, trump="hearts", turned_suit="hearts")
    with pytest.raises(InvalidHand, match="enter it as Royal Abundance"):
        score_hand(hand, STANDARD)
    other = Hand(P, "abundance", declarer="Ann", tricks=9, trump="spades", turned_suit="hearts")
    assert score_hand(other, STANDARD).amounts["Ann"] == 9
    royal = Hand(P, "royal_abundance", declarer="Ann", tricks=9, turned_suit="hearts")
    assert score_hand(royal, STANDARD).amounts["Ann"] == 9
    # Hoyle only says the trump call "supersedes" the plain one: Hoyle's rules let it stand, and do
    # not record the turned suit unless a club turns that on.
    hoyle = HOYLE.copy(record_turned_suit=True)
    assert score_hand(hand, hoyle).amounts["Ann"] == 54


def test_the_turned_suit_is_a_suit_and_only_where_the_rules_record_it():
    with pytest.raises(InvalidHand, match="do not record the suit turned up"):
        score_hand(solo(5, turned_suit="clubs"), HOYLE)
    with pytest.raises(InvalidHand, match="is of a suit"):
        score_hand(solo(5, turned_suit="no_trumps"), STANDARD)
    with pytest.raises(InvalidHand, match="is not a suit"):
        score_hand(solo(5, turned_suit="roses"), STANDARD)
    royal = Hand(
        P, "royal_abundance", declarer="Ann", tricks=9, trump="clubs", turned_suit="hearts"
    )
    with pytest.raises(InvalidHand, match="played in the suit turned up"):
        score_hand(royal, STANDARD)
    with pytest.raises(InvalidRuleSet, match="no card is turned up"):
        scoring.preset("anna-cubed").copy(record_turned_suit=True)


# --- stakes as multipliers of an agreed wager --------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "tricks", "each"),
    [
        # Primer: "if everyone agrees that each point is equal to $1, then ... each of the other
        # players must pay the winning player $1 apiece ... for a total of $3, but if the one
        # player has bid and made abundance, then each player owes the winning player $3 apiece
        # for a total of $9." In cents, a unit of 100.
        ("solo", 5, 100),
        ("abundance", 9, 300),
    ],
)
def test_points_as_multipliers_of_an_agreed_wager(contract, tricks, each):
    dollars = STANDARD.copy(unit="cents", stake_unit=100)
    result = score_hand(Hand(P, contract, declarer="Ann", tricks=tricks), dollars)
    assert result.amounts == {"Ann": 3 * each, "Bob": -each, "Cat": -each, "Dan": -each}


def test_units_of_five_pence():
    fives = STANDARD.copy(unit="pence", stake_unit=5)
    assert score_hand(solo(5), fives).amounts["Ann"] == 15
    general = fives.copy(all_passed="general_misere", general_misere_stake=1)
    assert score_hand(Hand(P, None, last_trick_by="Dan"), general).amounts["Dan"] == -15
    assert RuleSet.from_dict(fives.to_dict()) == fives
    for bad in (0, -5, 2.5, True, 10**6):
        with pytest.raises(InvalidRuleSet, match="stake_unit"):
            STANDARD.copy(stake_unit=bad)
    with pytest.raises(InvalidRuleSet, match="true or false"):
        STANDARD.copy(record_turned_suit="yes")


# --- a rule set says only what it means -------------------------------------------------------


@pytest.mark.parametrize("contract", ["misere", "open_misere", "abundance_declared"])
@pytest.mark.parametrize("part", ["over", "under"])
def test_extra_trick_values_on_contracts_without_extra_tricks_are_refused(contract, part):
    """A cents rule set with a misère under-trick of 5 used to be accepted and still paid 25:
    Hoyle "There are ... no over or under-tricks" at misère, "no under-tricks at the call of an
    abondance declarée"."""
    with pytest.raises(InvalidRuleSet, match="won or lost outright") as error:
        CENTS.with_stake(contract, **{part: 5})
    assert error.value.field == f"stakes.{contract}.{part}"


def test_a_custom_trump_rotation_order():
    spades_first = HOYLE.copy(trump_rotation=("spades", "hearts", "no_trumps"))
    assert [scoring.table.trump_for(spades_first, n) for n in (1, 2, 3, 4)] == [
        Trump.SPADES,
        Trump.HEARTS,
        Trump.NO_TRUMPS,
        Trump.SPADES,
    ]


# --- properties ---------------------------------------------------------------------------------


@st.composite
def hands_with_revokes(draw):
    hand = draw(contract_hands(revoke=False))
    revokes = tuple(draw(st.lists(st.sampled_from(tuple(hand.players)), max_size=4)))
    return Hand(
        hand.players, hand.contract, hand.declarer, hand.partner, hand.tricks, revokes=revokes
    )


@PROPERTY
@given(hand=hands_with_revokes(), rules=rule_sets(payment=Payment.PER_OPPONENT))
def test_any_set_of_revokes_is_zero_sum(hand, rules):
    result = score_hand(hand, rules)
    assert sum(result.amounts.values()) == 0
    assert all(isinstance(a, int) for a in result.amounts.values())


@PROPERTY
@given(hand=hands_with_revokes(), rules=rule_sets())
def test_revokes_decide_the_outcome(hand, rules):
    result = score_hand(hand, rules)
    info = Contract.parse(hand.contract).info
    declaring = {hand.declarer, hand.partner} if info.partnership else {hand.declarer}
    sides = {p in declaring for p in hand.revokes}
    if sides == {True, False}:
        assert result.kind is Outcome.VOID and not any(result.amounts.values())
    elif sides == {True}:
        assert not result.made  # "No revoking player or partnership can win a declaration"
    elif sides == {False}:
        assert result.made
        innocent = [p for p in hand.players if p not in declaring and p not in hand.revokes]
        assert all(result.amounts[p] == 0 for p in innocent)


@PROPERTY
@given(
    rules=rule_sets(payment=Payment.PER_OPPONENT),
    contract=st.sampled_from(["misere", "open_misere"]),
    penalty=st.sampled_from(Penalty),
    players=st.sampled_from([P, P[:3]]),
    data=st.data(),
)
def test_a_penalty_is_paid_by_its_offender_alone(rules, contract, penalty, players, data):
    declarer, offender = data.draw(st.permutations(players))[:2]
    hand = Hand(players, contract, declarer=declarer, penalty=penalty, penalty_by=offender)
    result = score_hand(hand, rules)
    assert sum(result.amounts.values()) == 0
    assert result.amounts[offender] == -result.amounts[declarer] < 0
    assert all(result.amounts[p] == 0 for p in players if p not in (declarer, offender))


def test_a_rule_set_with_every_new_option_round_trips():
    rules = RuleSet(
        name="house",
        stakes={c: Stake(1 + i) for i, c in enumerate(Contract)},
        stake_unit=5,
        redeal_by="same",
        record_turned_suit=True,
        abundance_in_turned_suit=False,
    )
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert rules.redeal_by is Redeal.SAME


def test_deals_that_do_not_count_are_not_rated_for_the_grade():
    from scoring.grade import grade_hand

    assert grade_hand((1,), 1, P, scoring.MISDEAL, None, None, None) is None
    assert grade_hand((1,), 1, P, "solo", "Ann", None, None) is None  # void: no result
