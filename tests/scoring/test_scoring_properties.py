"""Hypothesis properties of score_hand over every legal hand, for the presets and for random
house rule sets."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring import (
    ALL_PASSED,
    AllPassed,
    Contract,
    Hand,
    Payment,
    RuleSet,
    SitOut,
    Stake,
    score_hand,
)
from scoring.table import legal_contracts

PROPERTY = settings(max_examples=250, deadline=None, database=None)

NAMES = ("Ann", "Bob", "Cat", "Dan")


@st.composite
def rule_sets(draw, payment=None) -> RuleSet:
    """A random, valid house rule set: non-decreasing bases, any over- and under-trick values on
    the contracts that have them, any wager unit."""
    bases = sorted(draw(st.lists(st.integers(1, 60), min_size=7, max_size=7)))
    stakes = {
        contract: Stake(base, over=draw(st.integers(0, 6)), under=draw(st.integers(0, 6)))
        if contract.info.counts_extra_tricks
        else Stake(base)
        for contract, base in zip(Contract, bases, strict=True)
    }
    return RuleSet(
        name="house",
        stakes=stakes,
        payment=payment or draw(st.sampled_from(Payment)),
        prop_cop_slam_double=draw(st.booleans()),
        revoke_tricks=draw(st.integers(0, 13)),
        all_passed=draw(st.sampled_from(AllPassed)),
        general_misere_stake=draw(st.integers(1, 20)),
        sit_out=draw(st.sampled_from(SitOut)),
        stake_unit=draw(st.sampled_from((1, 1, 5, 10))),
    )


PRESET_PER_OPPONENT = [
    scoring.preset("hoyle"),
    scoring.preset("hoyle").copy(all_passed=AllPassed.GENERAL_MISERE),
    scoring.preset("standard"),
    scoring.preset("cents"),
]
per_opponent_rules = st.one_of(
    st.sampled_from(PRESET_PER_OPPONENT), rule_sets(payment=Payment.PER_OPPONENT)
)
winner_only_rules = st.one_of(
    st.just(scoring.preset("anna-cubed")), rule_sets(payment=Payment.WINNER_ONLY)
)
any_rules = st.one_of(per_opponent_rules, winner_only_rules)


@st.composite
def contract_hands(draw, revoke: bool = True) -> Hand:
    """Any legal hand with a contract at a table of 3 or 4."""
    players = NAMES[: draw(st.sampled_from((3, 4)))]
    contract = draw(st.sampled_from(legal_contracts(len(players))))
    declarer = draw(st.sampled_from(players))
    partner = None
    if contract is Contract.PROP_COP:
        partner = draw(st.sampled_from([p for p in players if p != declarer]))
    revoke_by = draw(st.none() | st.sampled_from(players)) if revoke else None
    return Hand(
        players=players,
        contract=draw(st.sampled_from([contract, contract.value, contract.display_name])),
        declarer=declarer,
        partner=partner,
        tricks=draw(st.integers(0, 13)),
        revoke_by=revoke_by,
    )


@st.composite
def any_hand(draw, rules: RuleSet) -> Hand:
    """Any legal hand under `rules`, all passed included."""
    if draw(st.integers(0, 5)) == 0:
        players = NAMES[: draw(st.sampled_from((3, 4)))]
        last = None
        if rules.all_passed is AllPassed.GENERAL_MISERE:
            last = draw(st.sampled_from(players))
        return Hand(players, draw(st.sampled_from([None, ALL_PASSED])), last_trick_by=last)
    return draw(contract_hands())


def declaring(hand: Hand) -> tuple[str, ...]:
    return tuple(p for p in (hand.declarer, hand.partner) if p is not None)


@PROPERTY
@given(data=st.data(), rules=per_opponent_rules)
def test_per_opponent_amounts_sum_to_zero(data, rules) -> None:
    hand = data.draw(any_hand(rules))
    result = score_hand(hand, rules)
    assert sum(result.amounts.values()) == 0
    assert list(result.amounts) == list(hand.players)


@PROPERTY
@given(data=st.data(), rules=any_rules)
def test_every_player_taking_part_gets_an_amount(data, rules) -> None:
    hand = data.draw(any_hand(rules))
    result = score_hand(hand, rules)
    assert set(result.amounts) == set(hand.players)
    assert all(isinstance(v, int) and not isinstance(v, bool) for v in result.amounts.values())


@PROPERTY
@given(hand=contract_hands(revoke=False), rules=any_rules)
def test_made_exactly_from_the_target(hand, rules) -> None:
    result = score_hand(hand, rules)
    contract = Contract.parse(hand.contract)
    if contract.target == 0:
        # misère and open misère: made iff no trick at all
        assert result.made is (hand.tricks == 0)
    else:
        assert result.made is (hand.tricks >= contract.target)
    if contract.info.counts_extra_tricks:
        assert result.over_tricks == (hand.tricks - contract.target if result.made else 0)
        assert result.under_tricks == (0 if result.made else contract.target - hand.tricks)
    else:
        assert result.over_tricks == result.under_tricks == 0
    assert result.tricks_counted == hand.tricks
    assert result.revoke is False
    assert result.notes == ()


@PROPERTY
@given(hand=contract_hands(revoke=False), rules=any_rules)
def test_the_result_flips_at_the_target(hand, rules) -> None:
    contract = Contract.parse(hand.contract)
    target = contract.target
    at = score_hand(Hand(**{**hand.__dict__, "tricks": target}), rules)
    assert at.made is True
    if target > 0:
        below = score_hand(Hand(**{**hand.__dict__, "tricks": target - 1}), rules)
        assert below.made is False
    else:
        above = score_hand(Hand(**{**hand.__dict__, "tricks": 1}), rules)
        assert above.made is False


@PROPERTY
@given(hand=contract_hands(), rules=any_rules)
def test_declaring_side_amounts_never_fall_as_tricks_rise(hand, rules) -> None:
    """For a contract that wins by taking tricks (target > 0), with the revoke (if any) fixed."""
    if Contract.parse(hand.contract).target == 0:
        return
    previous = None
    for tricks in range(14):
        amounts = score_hand(Hand(**{**hand.__dict__, "tricks": tricks}), rules).amounts
        side = [amounts[p] for p in declaring(hand)]
        if previous is not None:
            assert all(now >= before for now, before in zip(side, previous, strict=True))
        previous = side


@PROPERTY
@given(hand=contract_hands(), rules=any_rules)
def test_a_revoking_side_never_wins(hand, rules) -> None:
    result = score_hand(hand, rules)
    if hand.revoke_by is None:
        return
    assert result.revoke is True
    assert result.made is (hand.revoke_by not in declaring(hand))
    assert len(result.notes) == 1


@PROPERTY
@given(hand=contract_hands(), rules=per_opponent_rules)
def test_per_opponent_who_pays_whom(hand, rules) -> None:
    result = score_hand(hand, rules)
    side = declaring(hand)
    defenders = [p for p in hand.players if p not in side]
    sign = 1 if result.made else -1
    value = result.stake
    assert value >= 1
    if len(side) == 2:
        # Prop & Cop: each partner gains or loses one stake (against one opponent)
        assert [result.amounts[p] for p in side] == [sign * value, sign * value]
    else:
        assert result.amounts[hand.declarer] == sign * value * len(defenders)
    if hand.revoke_by in defenders:
        # the offender pays for the whole side; the other defenders pay nothing
        assert result.made is True
        for p in defenders:
            expected = -value * len(defenders) if p == hand.revoke_by else 0
            assert result.amounts[p] == expected
    else:
        assert all(result.amounts[p] == -sign * value for p in defenders)


@PROPERTY
@given(hand=contract_hands(), rules=winner_only_rules)
def test_winner_only_never_negative_and_only_the_declaring_side_scores(hand, rules) -> None:
    result = score_hand(hand, rules)
    side = declaring(hand)
    assert all(v >= 0 for v in result.amounts.values())
    assert all(result.amounts[p] == 0 for p in hand.players if p not in side)
    if result.made:
        assert all(result.amounts[p] == result.stake > 0 for p in side)
    else:
        assert all(v == 0 for v in result.amounts.values())


@PROPERTY
@given(hand=contract_hands(revoke=False), rules=per_opponent_rules)
def test_stake_formula(hand, rules) -> None:
    """stake when made = base + over x over value; when failed = base + under x under value;
    each times the rule set's wager unit."""
    result = score_hand(hand, rules)
    contract = Contract.parse(hand.contract)
    stake = rules.stake(contract)
    if result.made:
        over_value = stake.over
        if contract is Contract.PROP_COP and rules.prop_cop_slam_double and hand.tricks == 13:
            over_value *= 2
        assert result.stake == (stake.base + result.over_tricks * over_value) * rules.stake_unit
    else:
        assert result.stake == (stake.base + result.under_tricks * stake.under) * rules.stake_unit


@PROPERTY
@given(rules=any_rules, players=st.sampled_from([NAMES, NAMES[:3]]), data=st.data())
def test_all_passed_hands(rules, players, data) -> None:
    if rules.all_passed is AllPassed.GENERAL_MISERE:
        loser = data.draw(st.sampled_from(players))
        result = score_hand(Hand(players, None, last_trick_by=loser), rules)
        stake = rules.general_misere_stake * rules.stake_unit
        for p in players:
            if p != loser:
                assert result.amounts[p] == stake
        expected = -stake * (len(players) - 1) if rules.payment is Payment.PER_OPPONENT else 0
        assert result.amounts[loser] == expected
    else:
        result = score_hand(Hand(players, None), rules)
        assert result.amounts == dict.fromkeys(players, 0)
    assert result.all_passed is rules.all_passed
    assert result.made is False


@PROPERTY
@given(rules=st.one_of(st.sampled_from(list(scoring.PRESETS.values())), rule_sets()))
def test_rule_sets_round_trip(rules) -> None:
    assert RuleSet.from_dict(rules.to_dict()) == rules
