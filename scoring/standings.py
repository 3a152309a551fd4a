"""Standings arithmetic from per-player totals: the ladder's value, ranks with shared ties."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import TypeVar


class Method(StrEnum):
    NET = "net"  # total won less total paid, in the unit of the rule set
    POINTS = "points"  # winner-only points (the same hands scored under a points rule set)
    AVERAGE = "average"  # net per hand played


@dataclass(frozen=True)
class Totals:
    player: str
    net: int
    hands: int
    points: int = 0
    nights: int = 0

    @property
    def average(self) -> Fraction:
        """Exact net per hand played (0 for a player with no hands)."""
        return Fraction(self.net, self.hands) if self.hands else Fraction(0)

    def value(self, method: Method | str) -> Fraction:
        method = Method(method)
        if method is Method.NET:
            return Fraction(self.net)
        if method is Method.POINTS:
            return Fraction(self.points)
        return self.average


@dataclass(frozen=True)
class Standing:
    rank: int
    totals: Totals
    value: Fraction


T = TypeVar("T")


def competition_ranks(values: Sequence[Fraction | int | tuple[Fraction | int, int]]) -> list[int]:
    """Ranks for values already sorted best first; equal values share a rank (1, 2, 2, 4)."""
    ranks: list[int] = []
    for i, value in enumerate(values):
        if i and value == values[i - 1]:
            ranks.append(ranks[-1])
        else:
            ranks.append(i + 1)
    return ranks


def rank(rows: Iterable[Totals], method: Method | str = Method.NET) -> list[Standing]:
    """Rank players best first by the method; ties share a rank and are listed by name."""
    method = Method(method)
    ordered = sorted(rows, key=lambda t: (-t.value(method), t.player.casefold(), t.player))
    values = [t.value(method) for t in ordered]
    return [
        Standing(r, t, v)
        for r, t, v in zip(competition_ranks(values), ordered, values, strict=True)
    ]


def rank_by(items: Iterable[T], key: Callable[[T], Fraction | int]) -> list[tuple[int, T]]:
    """Competition ranks for any rows, best (highest key) first, stable for equal keys."""
    ordered = sorted(items, key=lambda item: -key(item))
    return list(zip(competition_ranks([key(i) for i in ordered]), ordered, strict=True))


def best_nights_total(night_nets: Iterable[int], best: int | None) -> int:
    """The sum of a player's best `best` nights ("best N nights count"); all when None."""
    if best is not None and best < 1:
        # "Best 0 nights" would count nothing and rank everyone first.
        raise ValueError(f"Best N nights must be at least 1, not {best}")
    nets = sorted(night_nets, reverse=True)
    return sum(nets if best is None else nets[:best])
