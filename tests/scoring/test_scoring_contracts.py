"""The contract vocabulary of DESIGN.md section 3: keys, names, aliases, targets, trumps, rank."""

from __future__ import annotations

import pytest

import scoring
from scoring import CONTRACTS, Contract, Leader, Trump, TrumpKind

# DESIGN.md section 3, lowest to highest: key, target, trumps, who leads.
VOCABULARY = [
    ("prop_cop", 8, TrumpKind.TURNED, Leader.ELDEST),
    ("solo", 5, TrumpKind.TURNED, Leader.ELDEST),
    ("misere", 0, TrumpKind.NONE, Leader.ELDEST),
    ("abundance", 9, TrumpKind.DECLARER, Leader.ELDEST),
    ("royal_abundance", 9, TrumpKind.TURNED, Leader.ELDEST),
    ("open_misere", 0, TrumpKind.NONE, Leader.ELDEST),
    ("abundance_declared", 13, TrumpKind.NONE, Leader.DECLARER),
]


@pytest.mark.parametrize(
    ("key", "target", "trumps", "leader"), VOCABULARY, ids=[v[0] for v in VOCABULARY]
)
def test_contract_vocabulary(key, target, trumps, leader) -> None:
    contract = Contract(key)
    assert contract.value == key
    assert contract.target == target
    assert contract.info is CONTRACTS[contract]
    assert contract.info.trumps is trumps
    assert contract.info.leader is leader
    assert contract.info.partnership is (key == "prop_cop")
    assert contract.info.is_misere is (target == 0)
    # "Contracts whose target is 0 or 13 have no over- or under-tricks."
    assert contract.info.counts_extra_tricks is (target not in (0, 13))


def test_rank_order_is_lowest_to_highest() -> None:
    assert [c.value for c in sorted(Contract, key=lambda c: c.rank)] == [v[0] for v in VOCABULARY]
    assert [c.rank for c in Contract] == list(range(7))
    assert Contract.SOLO.rank < Contract.MISERE.rank < Contract.ABUNDANCE.rank
    assert Contract.ABUNDANCE.rank < Contract.ROYAL_ABUNDANCE.rank < Contract.OPEN_MISERE.rank
    assert max(Contract, key=lambda c: c.rank) is Contract.ABUNDANCE_DECLARED


def test_the_table_has_all_seven_contracts_and_an_all_passed_key() -> None:
    assert set(CONTRACTS) == set(Contract)
    assert len(Contract) == 7
    assert scoring.ALL_PASSED == "all_passed"
    assert scoring.TRICKS_IN_HAND == 13


ALIASES = [
    # the stable keys
    ("prop_cop", Contract.PROP_COP),
    ("solo", Contract.SOLO),
    ("misere", Contract.MISERE),
    ("abundance", Contract.ABUNDANCE),
    ("royal_abundance", Contract.ROYAL_ABUNDANCE),
    ("open_misere", Contract.OPEN_MISERE),
    ("abundance_declared", Contract.ABUNDANCE_DECLARED),
    # names and aliases of section 3 and of the rule texts
    ("Proposal and Acceptance", Contract.PROP_COP),
    ("Prop and Cop", Contract.PROP_COP),
    ("Prop & Cop", Contract.PROP_COP),
    ("Prop", Contract.PROP_COP),
    ("Cop", Contract.PROP_COP),
    ("Solo", Contract.SOLO),
    ("SOLO", Contract.SOLO),
    ("Misère", Contract.MISERE),
    ("Misere", Contract.MISERE),
    ("Abundance", Contract.ABUNDANCE),
    ("Abondance", Contract.ABUNDANCE),
    ("Abundance in Trumps", Contract.ROYAL_ABUNDANCE),
    ("Abundance Trumps", Contract.ROYAL_ABUNDANCE),
    ("Royal Abundance", Contract.ROYAL_ABUNDANCE),
    ("Royal Abondance", Contract.ROYAL_ABUNDANCE),
    ("Misère Ouverte", Contract.OPEN_MISERE),
    ("Misere Ouverte", Contract.OPEN_MISERE),
    ("Open Misère", Contract.OPEN_MISERE),
    ("Spread", Contract.OPEN_MISERE),
    ("Open", Contract.OPEN_MISERE),
    ("Abundance Declared", Contract.ABUNDANCE_DECLARED),
    ("Abondance Déclarée", Contract.ABUNDANCE_DECLARED),
    ("Abondance declarée", Contract.ABUNDANCE_DECLARED),
    ("Slam", Contract.ABUNDANCE_DECLARED),
    ("  slam  ", Contract.ABUNDANCE_DECLARED),
]


@pytest.mark.parametrize(("text", "contract"), ALIASES, ids=[a[0] for a in ALIASES])
def test_parse_names_and_aliases(text, contract) -> None:
    assert Contract.parse(text) is contract


def test_every_listed_alias_parses_to_its_own_contract() -> None:
    for contract, info in CONTRACTS.items():
        for name in (contract.value, info.display_name, *info.aliases):
            assert Contract.parse(name) is contract, name


def test_parse_accepts_a_contract_member() -> None:
    assert Contract.parse(Contract.MISERE) is Contract.MISERE


@pytest.mark.parametrize("text", ["Grand Slam", "", "Nullo", "all_passed", "Pass", "5"])
def test_parse_unknown_raises_value_error(text) -> None:
    with pytest.raises(ValueError, match="Unknown contract"):
        Contract.parse(text)


@pytest.mark.parametrize(
    ("contract", "name"),
    [
        (Contract.PROP_COP, "Prop & Cop"),
        (Contract.SOLO, "Solo"),
        (Contract.MISERE, "Misère"),
        (Contract.ABUNDANCE, "Abundance"),
        (Contract.ROYAL_ABUNDANCE, "Royal Abundance"),
        (Contract.OPEN_MISERE, "Open Misère"),
        (Contract.ABUNDANCE_DECLARED, "Abundance Declared"),
    ],
    ids=lambda v: str(v),
)
def test_display_names(contract, name) -> None:
    assert contract.display_name == name


@pytest.mark.parametrize(
    ("trump", "name", "symbol"),
    [
        (Trump.HEARTS, "Hearts", "♥"),
        (Trump.CLUBS, "Clubs", "♣"),
        (Trump.DIAMONDS, "Diamonds", "♦"),
        (Trump.SPADES, "Spades", "♠"),
        (Trump.NO_TRUMPS, "No trumps", "NT"),
    ],
    ids=lambda v: str(v),
)
def test_trump_names_and_symbols(trump, name, symbol) -> None:
    assert trump.display_name == name
    assert trump.symbol == symbol
