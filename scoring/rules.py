"""Rule sets as data: stakes per contract, how amounts are paid, and the house options."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from scoring.contracts import Contract, Trump


class InvalidRuleSet(ValueError):
    """A rule set that cannot be used; `field` names the offending field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class Payment(StrEnum):
    PER_OPPONENT = "per_opponent"  # zero-sum: each opponent pays or is paid the stake
    WINNER_ONLY = "winner_only"  # points: a made contract scores for its declaring players only


class AllPassed(StrEnum):
    REDEAL = "redeal"  # cards thrown in, next dealer deals, no score
    GOULASH = "goulash"  # cards re-dealt unshuffled, no score
    GENERAL_MISERE = (
        "general_misere"  # no trumps; the taker of the last trick pays each other player
    )


class Redeal(StrEnum):
    """Who deals after a deal that does not count (cards wrongly dealt, revokes on both sides)."""

    SAME = "same"  # Hoyle: "This new deal is by the same player"
    NEXT = "next"  # the deal passes to the left, as after any hand


class SitOut(StrEnum):
    DEALER_RIGHT = "dealer_right"  # Hoyle: "he who sits to the dealer's right"
    DEALER = "dealer"


@dataclass(frozen=True)
class Stake:
    base: int
    over: int = 0  # per over-trick
    under: int = 0  # per under-trick


@dataclass(frozen=True)
class RuleSet:
    name: str
    stakes: dict[Contract, Stake]
    payment: Payment = Payment.PER_OPPONENT
    unit: str = "units"
    prop_cop_slam_double: bool = False  # 13 tricks at Prop & Cop count their over-tricks double
    revoke_tricks: int = 3  # tricks moved from the revoking side to the other side
    all_passed: AllPassed = AllPassed.REDEAL
    general_misere_stake: int = 0  # paid by the taker of the last trick to each other player
    sit_out: SitOut = SitOut.DEALER
    abundance_declared_names_trumps: bool = False  # False: played at no trumps
    # Trumps rotate one step a hand through this cycle (anna-cubed); empty: the dealer turns a card.
    trump_rotation: tuple[Trump, ...] = ()
    source: str = ""  # where the figures come from
    # Stakes as multipliers of an agreed wager (Primer: "these points can be considered multipliers
    # for agreed upon wagers"): every amount is the table's figure times this many of the club's
    # unit, so the 1-1-2-3-3-4-6 table plays "in units of 5p" without retyping it.
    stake_unit: int = 1
    redeal_by: Redeal = Redeal.NEXT
    # The hand may record the suit the dealer turned up; where the rules follow Primer ("a
    # particular suit, which was not the suit the dealer exposed") an abundance cannot name that
    # suit.
    record_turned_suit: bool = False
    abundance_in_turned_suit: bool = True

    def __post_init__(self) -> None:
        self._coerce()
        self.validate()

    def _coerce(self) -> None:
        """Turn plain strings into the enums the scoring reads (RuleSet(payment="winner_only"),
        rules.copy(all_passed="general_misere")): a plain string would otherwise never compare
        `is` equal to the enum member and be silently scored as the default."""
        enums = (
            ("payment", Payment),
            ("all_passed", AllPassed),
            ("sit_out", SitOut),
            ("redeal_by", Redeal),
        )
        for key, enum in enums:
            value = getattr(self, key)
            if not isinstance(value, enum):
                try:
                    object.__setattr__(self, key, enum(value))
                except ValueError:
                    choices = ", ".join(m.value for m in enum)
                    raise InvalidRuleSet(key, f"must be one of {choices}") from None
        if not isinstance(self.stakes, dict):
            raise InvalidRuleSet("stakes", "must map each contract to its stake")
        stakes: dict[Any, Any] = {}
        for key, stake in self.stakes.items():
            if isinstance(key, str) and key in Contract._value2member_map_:
                key = Contract(key)
            if not isinstance(stake, Stake):
                raise InvalidRuleSet(f"stakes.{key}", "must give base, over and under")
            stakes[key] = stake
        object.__setattr__(self, "stakes", stakes)
        if not isinstance(self.trump_rotation, list | tuple):
            raise InvalidRuleSet("trump_rotation", "must be a list of suits")
        try:
            object.__setattr__(self, "trump_rotation", tuple(Trump(t) for t in self.trump_rotation))
        except ValueError:
            raise InvalidRuleSet("trump_rotation", "holds something that is not a suit") from None

    def stake(self, contract: Contract) -> Stake:
        return self.stakes[contract]

    def validate(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidRuleSet("name", "a rule set needs a name")
        missing = [c.value for c in Contract if c not in self.stakes]
        if missing:
            raise InvalidRuleSet("stakes", f"no stake for {', '.join(missing)}")
        for contract, stake in self.stakes.items():
            if not isinstance(contract, Contract):
                raise InvalidRuleSet("stakes", f"unknown contract {contract!r}")
            for part in ("base", "over", "under"):
                value = getattr(stake, part)
                where = f"stakes.{contract.value}.{part}"
                if not isinstance(value, int) or isinstance(value, bool):
                    raise InvalidRuleSet(where, "must be a whole number of units")
                if value < 0:
                    raise InvalidRuleSet(where, "cannot be negative")
                if part != "base" and value and not contract.info.counts_extra_tricks:
                    # Misère, open misère and abundance declared are won or lost outright (Hoyle:
                    # "no over or under-tricks"): a value here would be silently ignored.
                    kind = "over-tricks" if part == "over" else "under-tricks"
                    raise InvalidRuleSet(
                        where,
                        f"{contract.display_name} has no {kind} (it is won or lost outright): "
                        "leave it at 0",
                    )
            if stake.base == 0:
                raise InvalidRuleSet(
                    f"stakes.{contract.value}.base", "the base stake must be above zero"
                )
        for lower, higher in zip(Contract, list(Contract)[1:], strict=False):
            if self.stakes[higher].base < self.stakes[lower].base:
                raise InvalidRuleSet(
                    f"stakes.{higher.value}.base",
                    f"{higher.display_name} ({self.stakes[higher].base}) cannot be worth less "
                    f"than {lower.display_name} ({self.stakes[lower].base}), the lower call",
                )
        if (
            not isinstance(self.revoke_tricks, int)
            or isinstance(self.revoke_tricks, bool)
            or not 0 <= self.revoke_tricks <= 13
        ):
            raise InvalidRuleSet("revoke_tricks", "must be between 0 and 13")
        if (
            not isinstance(self.general_misere_stake, int)
            or isinstance(self.general_misere_stake, bool)
            or self.general_misere_stake < 0
        ):
            raise InvalidRuleSet("general_misere_stake", "must be a whole number, zero or more")
        if self.all_passed is AllPassed.GENERAL_MISERE and self.general_misere_stake == 0:
            raise InvalidRuleSet(
                "general_misere_stake", "a general misère needs a stake above zero"
            )
        if len(set(self.trump_rotation)) != len(self.trump_rotation):
            raise InvalidRuleSet("trump_rotation", "a suit appears twice")
        if (
            not isinstance(self.stake_unit, int)
            or isinstance(self.stake_unit, bool)
            or not 1 <= self.stake_unit <= 100_000
        ):
            raise InvalidRuleSet("stake_unit", "must be a whole number from 1 to 100000")
        for key in ("record_turned_suit", "abundance_in_turned_suit"):
            if not isinstance(getattr(self, key), bool):
                raise InvalidRuleSet(key, "must be true or false")
        if self.trump_rotation and self.record_turned_suit:
            raise InvalidRuleSet(
                "record_turned_suit", "with rotating trumps no card is turned up to record"
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "unit": self.unit,
            "payment": self.payment.value,
            "stakes": {
                c.value: {"base": s.base, "over": s.over, "under": s.under}
                for c, s in ((c, self.stakes[c]) for c in Contract)
            },
            "prop_cop_slam_double": self.prop_cop_slam_double,
            "revoke_tricks": self.revoke_tricks,
            "all_passed": self.all_passed.value,
            "general_misere_stake": self.general_misere_stake,
            "sit_out": self.sit_out.value,
            "abundance_declared_names_trumps": self.abundance_declared_names_trumps,
            "trump_rotation": [t.value for t in self.trump_rotation],
            "source": self.source,
            "stake_unit": self.stake_unit,
            "redeal_by": self.redeal_by.value,
            "record_turned_suit": self.record_turned_suit,
            "abundance_in_turned_suit": self.abundance_in_turned_suit,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        if not isinstance(data, dict):
            raise InvalidRuleSet("rule set", "must be a mapping of fields")
        known = {
            "name",
            "unit",
            "payment",
            "stakes",
            "prop_cop_slam_double",
            "revoke_tricks",
            "all_passed",
            "general_misere_stake",
            "sit_out",
            "abundance_declared_names_trumps",
            "trump_rotation",
            "source",
            "stake_unit",
            "redeal_by",
            "record_turned_suit",
            "abundance_in_turned_suit",
        }
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRuleSet(unknown[0], "is not a rule-set field")
        raw_stakes = data.get("stakes")
        if not isinstance(raw_stakes, dict):
            raise InvalidRuleSet("stakes", "must map each contract to its base, over and under")
        stakes: dict[Contract, Stake] = {}
        for key, raw in raw_stakes.items():
            try:
                contract = Contract(key)
            except ValueError:
                raise InvalidRuleSet(f"stakes.{key}", "is not a contract") from None
            if not isinstance(raw, dict):
                raise InvalidRuleSet(f"stakes.{key}", "must give base, over and under")
            extra = sorted(set(raw) - {"base", "over", "under"})
            if extra:
                raise InvalidRuleSet(f"stakes.{key}.{extra[0]}", "is not a stake field")
            if "base" not in raw:
                raise InvalidRuleSet(f"stakes.{key}.base", "is missing")
            stakes[contract] = Stake(raw["base"], raw.get("over", 0), raw.get("under", 0))
        kwargs: dict[str, Any] = {"name": data.get("name", ""), "stakes": stakes}
        enums = {
            "payment": Payment,
            "all_passed": AllPassed,
            "sit_out": SitOut,
            "redeal_by": Redeal,
        }
        for key, enum in enums.items():
            if key in data:
                try:
                    kwargs[key] = enum(data[key])
                except ValueError:
                    choices = ", ".join(m.value for m in enum)
                    raise InvalidRuleSet(key, f"must be one of {choices}") from None
        for key in (
            "prop_cop_slam_double",
            "abundance_declared_names_trumps",
            "record_turned_suit",
            "abundance_in_turned_suit",
        ):
            if key in data:
                if not isinstance(data[key], bool):
                    raise InvalidRuleSet(key, "must be true or false")
                kwargs[key] = data[key]
        for key in ("unit", "source"):
            if key in data:
                if not isinstance(data[key], str):
                    raise InvalidRuleSet(key, "must be text")
                kwargs[key] = data[key]
        for key in ("revoke_tricks", "general_misere_stake", "stake_unit"):
            if key in data:
                kwargs[key] = data[key]
        if "trump_rotation" in data:
            rotation = data["trump_rotation"]
            if not isinstance(rotation, list | tuple):
                raise InvalidRuleSet("trump_rotation", "must be a list of suits")
            try:
                kwargs["trump_rotation"] = tuple(Trump(t) for t in rotation)
            except ValueError:
                raise InvalidRuleSet(
                    "trump_rotation", "holds something that is not a suit"
                ) from None
        return cls(**kwargs)

    def copy(self, **changes: Any) -> RuleSet:
        """A new rule set with some fields changed (a club's house rules from a preset)."""
        return replace(self, **changes)

    def with_stake(self, contract: Contract | str, **parts: int) -> RuleSet:
        contract = Contract.parse(contract)
        stakes = dict(self.stakes)
        stakes[contract] = replace(stakes[contract], **parts)
        return replace(self, stakes=stakes)
