"""Turning stored integer amounts into the club's unit for display ("£1.20", "-35 pts"), and amounts
under one unit as people say them ("+1.7p", "-35¢")."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Protocol

import scoring


class HasUnit(Protocol):
    unit_kind: str
    currency_symbol: str
    minor_units: int
    points_label: str


def format_amount(club: HasUnit, amount: int, signed: bool = False) -> str:
    """Format `amount` (pence, cents or points) in the club's unit; exact, no floats."""
    sign = "-" if amount < 0 else ("+" if signed and amount > 0 else "")
    magnitude = abs(int(amount))
    if club.unit_kind == "points":
        label = f" {club.points_label}" if club.points_label else ""
        return f"{sign}{magnitude:,}{label}"
    minor = club.minor_units
    if minor <= 1:
        return f"{sign}{club.currency_symbol}{magnitude:,}"
    digits = len(str(minor - 1))
    major, rest = divmod(magnitude, minor)
    return f"{sign}{club.currency_symbol}{major:,}.{rest:0{digits}d}"


# What the minor unit is called after a figure, by the club's currency symbol. A currency not
# listed keeps its major unit ("kr0.0172"): better exact than a made-up abbreviation.
MINOR_UNIT_SUFFIX = {"£": "p", "$": "¢", "€": "c"}


def minor_suffix(club: HasUnit) -> str | None:
    if club.unit_kind == "points" or club.minor_units <= 1:
        return None
    return MINOR_UNIT_SUFFIX.get(club.currency_symbol)


def format_spoken(club: HasUnit, amount: int | Fraction, signed: bool = False) -> str | None:
    """An amount under one unit of currency in pence or cents, to one decimal place when it is
    not whole: Fraction(172, 100) pence -> "+1.7p", -35 cents -> "-35¢". None when the amount is
    one unit or more (or the club counts points, or its currency has no known minor unit): the
    caller writes it in the major unit."""
    suffix = minor_suffix(club)
    if suffix is None:
        return None
    value = Fraction(amount)
    places = 0 if value.denominator == 1 else 1
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    shown = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
    if abs(shown) >= club.minor_units:
        return None
    sign = "-" if shown < 0 else "+" if signed and shown > 0 else ""
    return f"{sign}{abs(shown)}{suffix}"


# -- a rule set's unit against the club's --------------------------------------------------------

# The currencies a rule set may count its stakes in. Any other unit is a plain count of the
# club's own unit, fit for every club: "units" (the stakes as multipliers of an agreed wager) and
# "points" (winner-only points, a season ladder's).
CURRENCY_UNITS = ("pence", "cents")


def unit_name(club: HasUnit) -> str:
    """What the club's amounts are counted in, as rule sets and the club data file name it:
    "pence" (a club in £), "cents" (any other currency) or "points"."""
    if club.unit_kind == "points":
        return "points"
    return "pence" if club.currency_symbol == "£" else "cents"


def unit_fits(club: HasUnit, unit: str) -> bool:
    """A rule set counting in `unit` may be the club's: the club's own unit, or a plain count."""
    return unit not in CURRENCY_UNITS or unit == unit_name(club)


def unit_mismatch(
    club: HasUnit, unit: str, remedy: str = "change the club's money in Settings first"
) -> str | None:
    """Why a rule set counting in `unit` cannot be the club's, naming both units and what its
    amounts would look like, and the presets that fit; None when it fits."""
    if unit_fits(club, unit):
        return None
    own = unit_name(club)
    fitting = [
        scoring.presets.title(name)
        for name, rules in scoring.PRESETS.items()
        if unit_fits(club, rules.unit)
    ]
    return (
        f"This rule set counts in {unit} but the club counts in {own}: 618 {unit} would be shown "
        f"as {format_amount(club, 618)}. Choose a rule set that fits the club (of the presets: "
        f"{', '.join(fitting)}), or {remedy}."
    )
