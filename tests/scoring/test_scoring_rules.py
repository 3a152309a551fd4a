"""Rule sets as data: the four presets against DESIGN.md section 4, round trips, and refusals."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

import scoring
from scoring import (
    PRESETS,
    AllPassed,
    Contract,
    Hand,
    InvalidRuleSet,
    Payment,
    RuleSet,
    SitOut,
    Stake,
    Trump,
    score_hand,
)

# DESIGN.md section 4, the preset table: (base, over, under) per contract and preset.
DESIGN_TABLE: dict[str, dict[str, tuple[int, int, int]]] = {
    "prop_cop": {
        "hoyle": (6, 1, 1),
        "standard": (1, 0, 0),
        "anna-cubed": (1, 0, 0),
        "cents": (10, 1, 0),
    },
    "solo": {
        "hoyle": (6, 1, 1),
        "standard": (1, 0, 0),
        "anna-cubed": (1, 0, 0),
        "cents": (10, 1, 0),
    },
    "misere": {
        "hoyle": (12, 0, 0),
        "standard": (2, 0, 0),
        "anna-cubed": (2, 0, 0),
        "cents": (25, 0, 0),
    },
    "abundance": {
        "hoyle": (18, 2, 1),
        "standard": (3, 0, 0),
        "anna-cubed": (3, 0, 0),
        "cents": (50, 0, 0),
    },
    "royal_abundance": {
        "hoyle": (18, 2, 1),
        "standard": (3, 0, 0),
        "anna-cubed": (3, 0, 0),
        "cents": (60, 0, 0),
    },
    "open_misere": {
        "hoyle": (24, 0, 0),
        "standard": (4, 0, 0),
        "anna-cubed": (4, 0, 0),
        "cents": (75, 0, 0),
    },
    "abundance_declared": {
        "hoyle": (36, 0, 0),
        "standard": (6, 0, 0),
        "anna-cubed": (6, 0, 0),
        "cents": (100, 0, 0),
    },
}
DESIGN_PAYMENT = {
    "hoyle": Payment.PER_OPPONENT,
    "standard": Payment.PER_OPPONENT,
    "anna-cubed": Payment.WINNER_ONLY,
    "cents": Payment.PER_OPPONENT,
}
PRESET_NAMES = ["hoyle", "standard", "anna-cubed", "cents"]

STAKE_CASES = [
    pytest.param(contract, name, figures, id=f"{name}-{contract}")
    for contract, row in DESIGN_TABLE.items()
    for name, figures in row.items()
]


@pytest.mark.parametrize(("contract", "name", "figures"), STAKE_CASES)
def test_preset_stakes_match_the_design_table(contract, name, figures) -> None:
    base, over, under = figures
    assert scoring.preset(name).stake(Contract(contract)) == Stake(base, over=over, under=under)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_payment_and_name(name) -> None:
    rules = scoring.preset(name)
    assert rules.name == name
    assert rules.payment is DESIGN_PAYMENT[name]
    assert rules.source
    assert set(rules.stakes) == set(Contract)


def test_the_presets_are_exactly_the_four_of_the_design() -> None:
    assert list(PRESETS) == PRESET_NAMES
    assert scoring.presets.PRESETS is PRESETS


def test_unknown_preset_is_a_key_error_naming_the_presets() -> None:
    with pytest.raises(KeyError, match="hoyle, standard, anna-cubed, cents"):
        scoring.preset("bridge")


def test_hoyle_options() -> None:
    rules = scoring.preset("hoyle")
    assert rules.unit == "pence"
    # "double for the over-tricks" at a Prop & Cop slam
    assert rules.prop_cop_slam_double is True
    # "The penalty for every revoke is the loss of three tricks"
    assert rules.revoke_tricks == 3
    # "he who sits to the dealer's right"
    assert rules.sit_out is SitOut.DEALER_RIGHT
    # "the cards are thrown up, and there is a fresh deal"; general misère optional
    assert rules.all_passed is AllPassed.REDEAL
    # "an agreed stake, equal as a rule to the stake of a solo"
    assert rules.general_misere_stake == rules.stake(Contract.SOLO).base
    # "In this case as in the simple abondance, he names his own trump suit"
    assert rules.abundance_declared_names_trumps is True
    assert rules.trump_rotation == ()


def test_anna_cubed_options() -> None:
    rules = scoring.preset("anna-cubed")
    assert rules.unit == "points"
    assert rules.all_passed is AllPassed.GOULASH
    assert rules.trump_rotation == (
        Trump.HEARTS,
        Trump.CLUBS,
        Trump.DIAMONDS,
        Trump.SPADES,
        Trump.NO_TRUMPS,
    )
    # "There are no trumps and the bidder plays the first card."
    assert rules.abundance_declared_names_trumps is False


@pytest.mark.parametrize("name", ["standard", "cents"])
def test_standard_and_cents_options(name) -> None:
    rules = scoring.preset(name)
    assert rules.prop_cop_slam_double is False
    assert rules.all_passed is AllPassed.REDEAL
    assert rules.abundance_declared_names_trumps is False
    assert rules.trump_rotation == ()


# --- Round trips --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_round_trip_through_dict(name) -> None:
    rules = scoring.preset(name)
    data = rules.to_dict()
    assert RuleSet.from_dict(data) == rules
    assert RuleSet.from_dict(data).to_dict() == data


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_round_trip_through_json(name) -> None:
    rules = scoring.preset(name)
    text = json.dumps(rules.to_dict())
    assert RuleSet.from_dict(json.loads(text)) == rules


def test_round_trip_of_a_house_rule_set() -> None:
    house = (
        scoring.preset("hoyle")
        .copy(
            name="Crown house rules",
            all_passed=AllPassed.GENERAL_MISERE,
            general_misere_stake=9,
            sit_out=SitOut.DEALER,
            revoke_tricks=2,
            trump_rotation=(Trump.SPADES, Trump.HEARTS),
        )
        .with_stake("Misère Ouverte", base=30)
        .with_stake(Contract.SOLO, over=2)
    )
    assert house.stake(Contract.OPEN_MISERE) == Stake(30)
    assert house.stake(Contract.SOLO) == Stake(6, over=2, under=1)
    assert RuleSet.from_dict(json.loads(json.dumps(house.to_dict()))) == house


def test_to_dict_lists_every_contract_with_all_three_parts() -> None:
    data = scoring.preset("cents").to_dict()
    assert list(data["stakes"]) == [c.value for c in Contract]
    assert data["stakes"]["prop_cop"] == {"base": 10, "over": 1, "under": 0}
    assert data["payment"] == "per_opponent"


def test_from_dict_fills_defaults() -> None:
    data = {"name": "minimal", "stakes": {c.value: {"base": 1} for c in Contract}}
    rules = RuleSet.from_dict(data)
    assert rules.payment is Payment.PER_OPPONENT
    assert rules.all_passed is AllPassed.REDEAL
    assert rules.revoke_tricks == 3
    assert rules.stake(Contract.SOLO) == Stake(1, 0, 0)


def test_copy_does_not_change_the_original() -> None:
    hoyle = scoring.preset("hoyle")
    changed = hoyle.copy(revoke_tricks=1)
    assert changed.revoke_tricks == 1
    assert scoring.preset("hoyle").revoke_tricks == 3
    assert changed != hoyle


@pytest.mark.parametrize(
    ("field", "value", "enum"),
    [
        ("payment", "winner_only", Payment.WINNER_ONLY),
        ("all_passed", "goulash", AllPassed.GOULASH),
        ("sit_out", "dealer_right", SitOut.DEALER_RIGHT),
    ],
)
def test_plain_strings_are_read_as_the_enum(field, value, enum) -> None:
    rules = scoring.preset("standard").copy(**{field: value})
    assert getattr(rules, field) is enum


def test_copy_with_a_plain_string_payment_scores_that_way() -> None:
    # A string rather than the enum once fell through to per-opponent scoring silently.
    rules = scoring.preset("standard").copy(payment="winner_only")
    result = score_hand(Hand(("A", "B", "C", "D"), "solo", "A", tricks=3), rules)
    assert result.amounts == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_string_contract_keys_and_list_rotation_are_normalised() -> None:
    rules = RuleSet(
        name="strings",
        stakes={c.value: Stake(1) for c in Contract},
        trump_rotation=["hearts", "spades"],
    )
    assert all(isinstance(key, Contract) for key in rules.stakes)
    assert rules.trump_rotation == (Trump.HEARTS, Trump.SPADES)
    assert rules == RuleSet.from_dict(rules.to_dict())


# --- Refusals -----------------------------------------------------------------------------------


def _hoyle_dict() -> dict[str, Any]:
    return copy.deepcopy(scoring.preset("hoyle").to_dict())


def _set(path: str, value: Any) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        *parents, last = path.split(".")
        for key in parents:
            data = data[key]
        data[last] = value

    return change


def _delete(path: str) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        *parents, last = path.split(".")
        for key in parents:
            data = data[key]
        del data[last]

    return change


INVALID = [
    pytest.param(_delete("stakes.solo"), "stakes", id="missing-stake"),
    pytest.param(_delete("stakes"), "stakes", id="no-stakes"),
    pytest.param(_set("stakes", [6, 6, 12]), "stakes", id="stakes-not-a-mapping"),
    pytest.param(_delete("stakes.solo.base"), "stakes.solo.base", id="missing-base"),
    pytest.param(_set("stakes.solo", 6), "stakes.solo", id="stake-not-a-mapping"),
    pytest.param(_set("stakes.grand", {"base": 50}), "stakes.grand", id="unknown-contract"),
    pytest.param(_set("stakes.solo.bonus", 1), "stakes.solo.bonus", id="unknown-stake-part"),
    pytest.param(_set("stakes.solo.over", -1), "stakes.solo.over", id="negative-over"),
    pytest.param(_set("stakes.misere.base", -12), "stakes.misere.base", id="negative-base"),
    pytest.param(_set("stakes.solo.under", -2), "stakes.solo.under", id="negative-under"),
    pytest.param(_set("stakes.solo.base", 6.0), "stakes.solo.base", id="float-base"),
    pytest.param(_set("stakes.solo.over", 0.5), "stakes.solo.over", id="float-over"),
    pytest.param(_set("stakes.solo.base", "6"), "stakes.solo.base", id="text-base"),
    pytest.param(_set("stakes.solo.under", True), "stakes.solo.under", id="bool-under"),
    pytest.param(_set("stakes.prop_cop.base", 0), "stakes.prop_cop.base", id="base-0"),
    pytest.param(
        _set("stakes.misere.base", 5), "stakes.misere.base", id="higher-cheaper-than-lower"
    ),
    pytest.param(
        _set("stakes.abundance_declared.base", 20),
        "stakes.abundance_declared.base",
        id="abundance-declared-cheaper-than-open-misere",
    ),
    pytest.param(_set("colour", "blue"), "colour", id="unknown-field"),
    pytest.param(_set("payment", "both"), "payment", id="unknown-payment"),
    pytest.param(_set("all_passed", "shuffle"), "all_passed", id="unknown-all-passed"),
    pytest.param(_set("sit_out", "eldest"), "sit_out", id="unknown-sit-out"),
    pytest.param(
        lambda d: d.update(all_passed="general_misere", general_misere_stake=0),
        "general_misere_stake",
        id="general-misere-stake-0",
    ),
    pytest.param(_set("general_misere_stake", -6), "general_misere_stake", id="negative-gm-stake"),
    pytest.param(_set("general_misere_stake", 6.5), "general_misere_stake", id="float-gm-stake"),
    pytest.param(_set("general_misere_stake", True), "general_misere_stake", id="bool-gm-stake"),
    pytest.param(_set("revoke_tricks", 14), "revoke_tricks", id="revoke-tricks-14"),
    pytest.param(_set("revoke_tricks", -1), "revoke_tricks", id="revoke-tricks-negative"),
    pytest.param(_set("revoke_tricks", "3"), "revoke_tricks", id="revoke-tricks-text"),
    pytest.param(_set("revoke_tricks", True), "revoke_tricks", id="revoke-tricks-bool"),
    pytest.param(
        _set("trump_rotation", ["hearts", "clubs", "hearts"]),
        "trump_rotation",
        id="duplicated-trump",
    ),
    pytest.param(_set("trump_rotation", ["hearts", "stars"]), "trump_rotation", id="not-a-suit"),
    pytest.param(_set("trump_rotation", "hearts"), "trump_rotation", id="rotation-not-a-list"),
    pytest.param(_set("prop_cop_slam_double", "yes"), "prop_cop_slam_double", id="bool-as-text"),
    pytest.param(
        _set("abundance_declared_names_trumps", 1),
        "abundance_declared_names_trumps",
        id="bool-as-int",
    ),
    pytest.param(_set("unit", 5), "unit", id="unit-not-text"),
    pytest.param(_set("source", None), "source", id="source-not-text"),
    pytest.param(_set("name", ""), "name", id="empty-name"),
    pytest.param(_set("name", "   "), "name", id="blank-name"),
    pytest.param(_set("name", 7), "name", id="name-not-text"),
    pytest.param(_delete("name"), "name", id="missing-name"),
]


@pytest.mark.parametrize(("change", "field"), INVALID)
def test_from_dict_refuses_invalid_rule_sets(change, field) -> None:
    data = _hoyle_dict()
    change(data)
    with pytest.raises(InvalidRuleSet) as raised:
        RuleSet.from_dict(data)
    assert raised.value.field == field
    assert str(raised.value).startswith(f"{field}: ")
    assert raised.value.message
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize(
    "data",
    [None, [], "hoyle", 42, [("name", "x")]],
    ids=["None", "list", "str", "int", "pairs"],
)
def test_from_dict_refuses_non_mappings(data) -> None:
    with pytest.raises(InvalidRuleSet) as raised:
        RuleSet.from_dict(data)
    assert raised.value.field == "rule set"


def _stakes(**changes: Stake) -> dict[Contract, Stake]:
    stakes = dict(scoring.preset("standard").stakes)
    for key, stake in changes.items():
        stakes[Contract(key)] = stake
    return stakes


CONSTRUCTOR_INVALID = [
    pytest.param({"payment": "both"}, "payment", id="payment"),
    pytest.param({"all_passed": None}, "all_passed", id="all-passed-none"),
    pytest.param({"sit_out": 5}, "sit_out", id="sit-out"),
    pytest.param({"stakes": [Stake(1)] * 7}, "stakes", id="stakes-list"),
    pytest.param({"stakes": {**_stakes(), "grand": Stake(9)}}, "stakes", id="stray-key"),
    pytest.param({"stakes": {**_stakes(), Contract.SOLO: 1}}, "stakes.solo", id="not-a-stake"),
    pytest.param({"stakes": _stakes(solo=Stake(1, over=-1))}, "stakes.solo.over", id="negative"),
    pytest.param({"stakes": _stakes(solo=Stake(True))}, "stakes.solo.base", id="bool-base"),
    pytest.param({"trump_rotation": Trump.HEARTS}, "trump_rotation", id="rotation-one-suit"),
    pytest.param({"trump_rotation": ("hearts", "moons")}, "trump_rotation", id="rotation-junk"),
    pytest.param({"revoke_tricks": None}, "revoke_tricks", id="revoke-none"),
    pytest.param({"name": None}, "name", id="name-none"),
]


@pytest.mark.parametrize(("changes", "field"), CONSTRUCTOR_INVALID)
def test_constructor_and_copy_refuse_invalid_rule_sets(changes, field) -> None:
    with pytest.raises(InvalidRuleSet) as raised:
        scoring.preset("standard").copy(**changes)
    assert raised.value.field == field


def test_with_stake_is_validated() -> None:
    with pytest.raises(InvalidRuleSet) as raised:
        scoring.preset("hoyle").with_stake("Solo", base=13)
    assert raised.value.field == "stakes.misere.base"
    with pytest.raises(ValueError, match="Unknown contract"):
        scoring.preset("hoyle").with_stake("Grand", base=13)


def test_equal_stakes_for_neighbouring_contracts_are_allowed() -> None:
    # Every preset prices Prop & Cop and Solo alike, and abundance and royal abundance alike.
    rules = scoring.preset("hoyle").with_stake("royal_abundance", base=18)
    assert rules.stake(Contract.ROYAL_ABUNDANCE).base == 18


def test_a_presets_key_reads_as_its_title_and_any_other_name_as_it_is():
    from scoring.presets import PRESETS, TITLES, title

    assert set(TITLES) == set(PRESETS)
    assert title("hoyle") == "Hoyle" and title("anna-cubed") == "Anna Cubed"
    assert title("Hoyle sixpences") == "Hoyle sixpences"
