"""Turning stored integer amounts into the club's unit for display ("£1.20", "-35 pts"), and amounts
under one unit as people say them ("+1.7p", "-35¢")."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Protocol


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
