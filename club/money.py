"""Turning stored integer amounts into the club's unit for display ("£1.20", "-35 pts")."""

from __future__ import annotations

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
