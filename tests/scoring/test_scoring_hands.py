"""score_hand beyond the worked figures: impossible hands, summaries, notes and edge cases."""

from __future__ import annotations

import pytest

import scoring
from scoring import AllPassed, Contract, Hand, InvalidHand, Result, score_hand, validate

FOUR = ("Ann", "Bob", "Cat", "Dan")
THREE = ("Ann", "Bob", "Cat")
HOYLE = scoring.preset("hoyle")
GENERAL_MISERE = HOYLE.copy(all_passed=AllPassed.GENERAL_MISERE)


def solo(**changes) -> Hand:
    fields = {"players": FOUR, "contract": "solo", "declarer": "Ann", "tricks": 5}
    fields.update(changes)
    return Hand(**fields)


def prop(**changes) -> Hand:
    fields = {
        "players": FOUR,
        "contract": "prop_cop",
        "declarer": "Ann",
        "partner": "Cat",
        "tricks": 8,
    }
    fields.update(changes)
    return Hand(**fields)


IMPOSSIBLE = [
    pytest.param(solo(tricks=14), HOYLE, "Tricks must be between 0 and 13", id="tricks-14"),
    pytest.param(solo(tricks=-1), HOYLE, "Tricks must be between 0 and 13", id="tricks-negative"),
    pytest.param(prop(tricks=20), HOYLE, "Tricks must be between 0 and 13", id="prop-tricks-20"),
    pytest.param(solo(tricks=None), HOYLE, "Enter the number of tricks", id="tricks-missing"),
    pytest.param(solo(tricks="5"), HOYLE, "Enter the number of tricks", id="tricks-text"),
    pytest.param(solo(tricks=5.0), HOYLE, "Enter the number of tricks", id="tricks-float"),
    pytest.param(solo(tricks=True), HOYLE, "Enter the number of tricks", id="tricks-bool"),
    pytest.param(
        solo(declarer="Eve"),
        HOYLE,
        "The declarer 'Eve' is not playing at this table",
        id="declarer-not-at-table",
    ),
    pytest.param(solo(declarer=None), HOYLE, "Solo needs a declarer", id="no-declarer"),
    pytest.param(
        solo(partner="Bob"),
        HOYLE,
        "Only Prop & Cop has a partner; Solo is played alone",
        id="partner-for-a-solo",
    ),
    pytest.param(
        solo(contract="misere", partner="Bob"),
        HOYLE,
        "Only Prop & Cop has a partner; Misère is played alone",
        id="partner-for-a-misere",
    ),
    pytest.param(prop(partner=None), HOYLE, "Prop & Cop needs a partner", id="prop-no-partner"),
    pytest.param(
        prop(partner="Ann"),
        HOYLE,
        "The partner must be a different player from the proposer",
        id="partner-is-declarer",
    ),
    pytest.param(
        prop(partner="Eve"),
        HOYLE,
        "The partner 'Eve' is not playing at this table",
        id="partner-not-at-table",
    ),
    pytest.param(
        prop(players=THREE),
        HOYLE,
        "Prop & Cop is not played at a table of three",
        id="prop-cop-table-of-3",
    ),
    pytest.param(
        prop(players=("Ann", "Cat")),
        HOYLE,
        "A hand is played by 3 or 4 players, not 2",
        id="prop-cop-table-of-2",
    ),
    pytest.param(
        prop(players=(*FOUR, "Eve")),
        HOYLE,
        "not 5 (at a table of 5, leave out the player sitting out)",
        id="prop-cop-table-of-5",
    ),
    pytest.param(
        solo(players=(*FOUR, "Eve")),
        HOYLE,
        "A hand is played by 3 or 4 players, not 5",
        id="solo-five-players",
    ),
    pytest.param(solo(players=()), HOYLE, "not 0", id="no-players"),
    pytest.param(solo(players="Ann"), HOYLE, "List the players", id="players-a-string"),
    pytest.param(
        solo(players=("Ann", "Bob", "Ann", "Dan")),
        HOYLE,
        "A player cannot sit twice at the same table",
        id="duplicate-players",
    ),
    pytest.param(
        solo(players=("Ann", "Bob", " ", "Dan")),
        HOYLE,
        "Every player taking part needs a name",
        id="blank-player",
    ),
    pytest.param(
        solo(players=("Ann", "Bob", None, "Dan")),
        HOYLE,
        "Every player taking part needs a name",
        id="player-none",
    ),
    pytest.param(
        solo(contract="grand slam"),
        HOYLE,
        "'grand slam' is not a Solo Whist contract",
        id="unknown-contract",
    ),
    pytest.param(
        solo(revoke_by="Eve"),
        HOYLE,
        "The player who revoked 'Eve' is not playing at this table",
        id="revoke-by-not-at-table",
    ),
    pytest.param(
        Hand(FOUR, None, declarer="Ann"),
        HOYLE,
        "When all pass there is no declarer or partner",
        id="all-passed-with-declarer",
    ),
    pytest.param(
        Hand(FOUR, "all_passed", partner="Bob"),
        HOYLE,
        "When all pass there is no declarer or partner",
        id="all-passed-with-partner",
    ),
    pytest.param(
        Hand(FOUR, None, revoke_by="Bob"),
        HOYLE,
        "A revoke can only be scored against a contract",
        id="all-passed-with-revoke",
    ),
    pytest.param(
        Hand(FOUR, None, tricks=5),
        HOYLE,
        "When all pass nobody plays for tricks: leave the tricks empty",
        id="all-passed-with-tricks",
    ),
    pytest.param(
        Hand(FOUR, None),
        GENERAL_MISERE,
        "A general misère needs the player who took the last trick",
        id="general-misere-without-last-trick",
    ),
    pytest.param(
        Hand(FOUR, None, last_trick_by="Eve"),
        GENERAL_MISERE,
        "The player who took the last trick 'Eve' is not playing at this table",
        id="general-misere-last-trick-not-at-table",
    ),
    pytest.param(
        Hand(FOUR, None, last_trick_by="Bob"),
        HOYLE,
        "These rules play a redeal when all pass, so nobody pays for the last trick",
        id="last-trick-on-a-redeal",
    ),
    pytest.param(
        Hand(FOUR, "all_passed", last_trick_by="Bob"),
        scoring.preset("anna-cubed"),
        "These rules play a goulash when all pass",
        id="last-trick-on-a-goulash",
    ),
    pytest.param(
        solo(last_trick_by="Bob"),
        GENERAL_MISERE,
        "Only a general misère records who took the last trick",
        id="last-trick-on-a-contract",
    ),
]


@pytest.mark.parametrize(("hand", "rules", "message"), IMPOSSIBLE)
def test_impossible_hands_raise_invalid_hand(hand, rules, message) -> None:
    with pytest.raises(InvalidHand) as raised:
        score_hand(hand, rules)
    assert message in str(raised.value)
    assert isinstance(raised.value, ValueError)
    with pytest.raises(InvalidHand):
        validate(hand, rules)


@pytest.mark.parametrize(
    ("contract", "expected"),
    [
        ("solo", Contract.SOLO),
        (Contract.ABUNDANCE, Contract.ABUNDANCE),
        ("Abondance", Contract.ABUNDANCE),
        ("Spread", Contract.OPEN_MISERE),
        ("Abundance in Trumps", Contract.ROYAL_ABUNDANCE),
        ("Slam", Contract.ABUNDANCE_DECLARED),
        (None, None),
        ("all_passed", None),
    ],
    ids=str,
)
def test_validate_returns_the_contract(contract, expected) -> None:
    hand = Hand(FOUR, contract) if expected is None else Hand(FOUR, contract, "Bob", tricks=9)
    assert validate(hand, HOYLE) is expected
    assert score_hand(hand, HOYLE).contract is expected


def test_players_may_be_a_list() -> None:
    result = score_hand(Hand(list(FOUR), "solo", "Bob", tricks=5), HOYLE)
    assert result.amounts == {"Ann": -6, "Bob": 18, "Cat": -6, "Dan": -6}


def test_every_player_gets_an_amount_in_seat_order() -> None:
    result = score_hand(Hand(("Dan", "Ann", "Cat", "Bob"), "solo", "Cat", tricks=4), HOYLE)
    assert list(result.amounts) == ["Dan", "Ann", "Cat", "Bob"]


# --- Result fields ------------------------------------------------------------------------------


def test_result_fields_for_a_made_solo() -> None:
    result = score_hand(solo(tricks=8), HOYLE)
    assert result == Result(
        contract=Contract.SOLO,
        made=True,
        over_tricks=3,
        under_tricks=0,
        amounts={"Ann": 27, "Bob": -9, "Cat": -9, "Dan": -9},
        tricks_counted=8,
        stake=9,
        revoke=False,
        all_passed=None,
        notes=(),
        outcome=scoring.Outcome.PLAYED,
    )


def test_revoke_by_the_declaring_side_moves_tricks_to_the_defenders() -> None:
    result = score_hand(solo(tricks=6, revoke_by="Ann"), HOYLE)
    assert result.tricks_counted == 3
    assert result.stake == 8
    assert result.notes == ("Ann revoked: 3 tricks to the defenders",)


def test_revoke_by_a_defender_moves_tricks_to_the_declaring_side() -> None:
    result = score_hand(prop(tricks=4, revoke_by="Dan"), HOYLE)
    # 4 + 3 = 7 tricks, short of 8, but a revoking side cannot win: made, with no over-tricks.
    assert result.made is True
    assert result.tricks_counted == 7
    assert result.over_tricks == 0
    assert result.notes == ("Dan revoked: 3 tricks to the declaring side",)
    assert result.amounts == {"Ann": 6, "Bob": 0, "Cat": 6, "Dan": -12}


def test_revoke_penalty_stops_at_zero_and_thirteen_tricks() -> None:
    low = score_hand(solo(tricks=1, revoke_by="Ann"), HOYLE)
    assert low.tricks_counted == 0
    assert low.under_tricks == 5
    assert low.notes == ("Ann revoked: 1 tricks to the defenders",)
    high = score_hand(solo(tricks=12, revoke_by="Bob"), HOYLE)
    assert high.tricks_counted == 13
    assert high.over_tricks == 8
    assert high.amounts["Ann"] == 3 * (6 + 8)


def test_prop_cop_slam_reached_by_a_defender_revoke_counts_double() -> None:
    # 10 tricks + 3 for Bob's revoke = 13: paid as a slam (6 + 5 x 2).
    result = score_hand(prop(tricks=10, revoke_by="Bob"), HOYLE)
    assert result.tricks_counted == 13
    assert result.amounts == {"Ann": 16, "Bob": -32, "Cat": 16, "Dan": 0}


def test_revoke_tricks_is_a_rule_set_option() -> None:
    rules = HOYLE.copy(revoke_tricks=1)
    result = score_hand(solo(tricks=5, revoke_by="Ann"), rules)
    assert result.tricks_counted == 4
    assert result.amounts["Ann"] == -21


def test_winner_only_revokes() -> None:
    anna = scoring.preset("anna-cubed")
    assert score_hand(solo(tricks=9, revoke_by="Ann"), anna).amounts == dict.fromkeys(FOUR, 0)
    defended = score_hand(solo(tricks=2, revoke_by="Cat"), anna)
    assert defended.made is True
    assert defended.amounts == {"Ann": 1, "Bob": 0, "Cat": 0, "Dan": 0}


def test_winner_only_general_misere_scores_the_other_players() -> None:
    rules = scoring.preset("anna-cubed").copy(all_passed="general_misere")
    result = score_hand(Hand(FOUR, None, last_trick_by="Dan"), rules)
    assert result.amounts == {"Ann": 1, "Bob": 1, "Cat": 1, "Dan": 0}


# --- Result.summary -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "rules", "summary"),
    [
        pytest.param(solo(tricks=5), HOYLE, "Made", id="made"),
        pytest.param(solo(tricks=7), HOYLE, "Made, 2 over", id="made-over"),
        pytest.param(solo(tricks=4), HOYLE, "Failed, 1 under", id="failed-under"),
        pytest.param(solo(contract="misere", tricks=0), HOYLE, "Made", id="misere-made"),
        pytest.param(solo(contract="misere", tricks=3), HOYLE, "Failed", id="misere-failed"),
        pytest.param(
            solo(contract="abundance_declared", tricks=12), HOYLE, "Failed", id="slam-failed"
        ),
        pytest.param(solo(tricks=9, revoke_by="Ann"), HOYLE, "Failed (revoke)", id="failed-revoke"),
        pytest.param(
            solo(tricks=6, revoke_by="Ann"), HOYLE, "Failed, 2 under (revoke)", id="under-revoke"
        ),
        pytest.param(
            solo(tricks=3, revoke_by="Bob"), HOYLE, "Made, 1 over (revoke)", id="over-revoke"
        ),
        pytest.param(
            solo(contract="misere", tricks=4, revoke_by="Bob"),
            HOYLE,
            "Made (revoke)",
            id="misere-revoke",
        ),
        pytest.param(Hand(FOUR, None), HOYLE, "All passed: redeal", id="redeal"),
        pytest.param(
            Hand(FOUR, None), scoring.preset("anna-cubed"), "All passed: goulash", id="goulash"
        ),
        pytest.param(
            Hand(FOUR, None, last_trick_by="Ann"), GENERAL_MISERE, "General misère", id="general"
        ),
    ],
)
def test_summary(hand, rules, summary) -> None:
    assert score_hand(hand, rules).summary == summary


def test_summary_of_a_result_without_an_all_passed_rule_reads_redeal() -> None:
    result = Result(contract=None, made=False, over_tricks=0, under_tricks=0, amounts={})
    assert result.summary == "All passed: redeal"
