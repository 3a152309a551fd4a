"""Tournament scoring: how a round at a table turns into leaderboard points, and the order of the
leaderboard. (Who sits where is scoring.seating.)

A tournament is scored by one of two methods, chosen at set-up:

* **amounts**: each player's amounts under the rule set, summed over every hand of every round;
* **table rank**: each round, the players at a table are ranked by their totals for that round and
  given n, n-1, ..., 1 points (n the table's size: 4-3-2-1, 5-4-3-2-1 or 3-2-1); players who tie
  share the points of the places they cover equally (two tied for first at a table of 4 get 3.5
  each), so a table always gives out n(n+1)/2 points. The round's points are summed.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from enum import StrEnum
from fractions import Fraction
from typing import TypeVar

from scoring.standings import competition_ranks

__all__ = ["Method", "places", "table_rank_points"]

K = TypeVar("K", bound=Hashable)


class Method(StrEnum):
    AMOUNTS = "amounts"  # the rule set's amounts summed
    TABLE_RANK = "table_rank"  # n-...-2-1 points per table per round, ties shared


def table_rank_points(totals: Mapping[K, int]) -> dict[K, Fraction]:
    """Points for one table's round from each player's total at it: the best total gets n points
    (n players at the table), the next n - 1, and so on down to 1. Players with equal totals
    share the points of the places they take between them equally.

    >>> table_rank_points({"Ann": 12, "Bob": 12, "Cat": -6, "Dan": -18})
    {'Ann': Fraction(7, 2), 'Bob': Fraction(7, 2), 'Cat': Fraction(2, 1), 'Dan': Fraction(1, 1)}
    """
    n = len(totals)
    ordered = sorted(totals.items(), key=lambda item: -item[1])
    points: dict[K, Fraction] = {}
    start = 0
    while start < n:
        end = start
        while end < n and ordered[end][1] == ordered[start][1]:
            end += 1
        # Places start+1 .. end (1-based) are worth n - start down to n - end + 1.
        share = Fraction(sum(n - place for place in range(start, end)), end - start)
        for player, _ in ordered[start:end]:
            points[player] = share
        start = end
    return {player: points[player] for player in totals}


def places(
    scores: Mapping[K, Fraction | int], tiebreak: Mapping[K, int] | None = None
) -> list[tuple[int, K]]:
    """The leaderboard order, best first, with competition ranks (1, 2, 2, 4).

    Players are ranked by their score, then (when given) by the tiebreak, higher first: with the
    table-rank method the tiebreak is the amounts summed. Players equal on both share a place and
    keep the order they were given in.
    """
    keys = list(scores)

    def key(k: K) -> tuple[Fraction | int, int]:
        return (scores[k], tiebreak[k] if tiebreak is not None else 0)

    ordered = sorted(keys, key=key, reverse=True)  # stable: ties keep the order given
    ranks = competition_ranks([key(k) for k in ordered])
    return list(zip(ranks, ordered, strict=True))
