"""The contracts of Solo Whist (DESIGN.md section 3): targets, trumps, who leads, rank and names."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

TRICKS_IN_HAND = 13

# The stored key for a hand in which all players passed (no contract): a redeal or goulash, or a
# general misère, as the rule set says.
ALL_PASSED = "all_passed"
# The stored key for a deal thrown in because the cards were wrongly dealt (Hoyle: "A fresh deal is
# necessary if a card is exposed or faced in the pack, or if there is a misdeal ... there is no
# penalty"): no contract, no score, and the rule set says who deals again.
MISDEAL = "misdeal"


class Trump(StrEnum):
    HEARTS = "hearts"
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    SPADES = "spades"
    NO_TRUMPS = "no_trumps"

    @property
    def display_name(self) -> str:
        return _TRUMP_NAMES[self]

    @property
    def symbol(self) -> str:
        return _TRUMP_SYMBOLS[self]


_TRUMP_NAMES = {
    Trump.HEARTS: "Hearts",
    Trump.CLUBS: "Clubs",
    Trump.DIAMONDS: "Diamonds",
    Trump.SPADES: "Spades",
    Trump.NO_TRUMPS: "No trumps",
}
_TRUMP_SYMBOLS = {
    Trump.HEARTS: "♥",
    Trump.CLUBS: "♣",
    Trump.DIAMONDS: "♦",
    Trump.SPADES: "♠",
    Trump.NO_TRUMPS: "NT",
}
SUITS = (Trump.HEARTS, Trump.CLUBS, Trump.DIAMONDS, Trump.SPADES)


class TrumpKind(StrEnum):
    TURNED = "turned"  # the suit turned up by the dealer
    NONE = "none"  # no trumps
    DECLARER = "declarer"  # the declarer names a suit


class Leader(StrEnum):
    ELDEST = "eldest"  # the player on the dealer's left
    DECLARER = "declarer"


@dataclass(frozen=True)
class ContractInfo:
    display_name: str
    aliases: tuple[str, ...]
    target: int  # tricks the declaring side needs; 0 means "none at all"
    trumps: TrumpKind
    leader: Leader
    partnership: bool

    @property
    def is_misere(self) -> bool:
        return self.target == 0

    @property
    def counts_extra_tricks(self) -> bool:
        """Contracts whose target is 0 or 13 have no over- or under-tricks."""
        return 0 < self.target < TRICKS_IN_HAND


class Contract(StrEnum):
    """The seven contracts, lowest to highest; the value is the stable key used in code and data."""

    PROP_COP = "prop_cop"
    SOLO = "solo"
    MISERE = "misere"
    ABUNDANCE = "abundance"
    ROYAL_ABUNDANCE = "royal_abundance"
    OPEN_MISERE = "open_misere"
    ABUNDANCE_DECLARED = "abundance_declared"

    @property
    def info(self) -> ContractInfo:
        return CONTRACTS[self]

    @property
    def display_name(self) -> str:
        return CONTRACTS[self].display_name

    @property
    def target(self) -> int:
        return CONTRACTS[self].target

    @property
    def rank(self) -> int:
        return _RANK[self]

    @classmethod
    def parse(cls, text: str | Contract) -> Contract:
        """A contract from its key, name or any alias ("Abondance", "Spread", "Slam"...)."""
        if isinstance(text, Contract):
            return text
        key = _normalise(str(text))
        try:
            return _BY_NAME[key]
        except KeyError:
            raise ValueError(f"Unknown contract {text!r}") from None


CONTRACTS: dict[Contract, ContractInfo] = {
    Contract.PROP_COP: ContractInfo(
        "Prop & Cop",
        ("Proposal and Acceptance", "Prop and Cop", "Prop", "Cop"),
        8,
        TrumpKind.TURNED,
        Leader.ELDEST,
        True,
    ),
    Contract.SOLO: ContractInfo("Solo", (), 5, TrumpKind.TURNED, Leader.ELDEST, False),
    Contract.MISERE: ContractInfo(
        "Misère", ("Misere", "Misery"), 0, TrumpKind.NONE, Leader.ELDEST, False
    ),
    Contract.ABUNDANCE: ContractInfo(
        "Abundance", ("Abondance",), 9, TrumpKind.DECLARER, Leader.ELDEST, False
    ),
    Contract.ROYAL_ABUNDANCE: ContractInfo(
        "Royal Abundance",
        ("Abundance in Trumps", "Abondance in Trumps", "Royal Abondance", "Abundance Trumps"),
        9,
        TrumpKind.TURNED,
        Leader.ELDEST,
        False,
    ),
    Contract.OPEN_MISERE: ContractInfo(
        "Open Misère",
        ("Misère Ouverte", "Misere Ouverte", "Open Misere", "Spread", "Open"),
        0,
        TrumpKind.NONE,
        Leader.ELDEST,
        False,
    ),
    Contract.ABUNDANCE_DECLARED: ContractInfo(
        "Abundance Declared",
        ("Abondance Déclarée", "Abondance Declaree", "Abundance Declaree", "Slam"),
        13,
        # "none, or declarer's choice (rule-set option)": RuleSet.abundance_declared_trumps.
        TrumpKind.NONE,
        Leader.DECLARER,
        False,
    ),
}

_RANK = {contract: i for i, contract in enumerate(Contract)}


def _normalise(text: str) -> str:
    import unicodedata

    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in plain.lower() if ch.isalnum())


_BY_NAME: dict[str, Contract] = {}
for _contract, _info in CONTRACTS.items():
    for _name in (_contract.value, _info.display_name, *_info.aliases):
        _BY_NAME[_normalise(_name)] = _contract
