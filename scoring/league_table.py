"""A league table from the matches that count: played, won, tied, lost, the aggregate (the sum of
a side's scores over its matches), points, and each side's position after the league's
tie-breaks.

A match's two scores sum to zero (each side's score is the sum of its players' results on a
zero-sum night), so the aggregates of a table sum to zero too. A forfeit has no scores: the side
that forfeits gets a loss and the league's forfeit points, the other a win and the win's points,
and neither aggregate moves.

Sides are named by any key the caller chooses (a club's id, a name); `sides` gives every side of
the league, in the order sides equal on everything are listed (a name order, say), so a side that
has not played yet still has its row.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

# The tie-breaks a league may choose, applied in its order after points (all: higher is better).
AGGREGATE, WON, HEAD_TO_HEAD = "aggregate", "won", "head_to_head"
TIE_BREAKS = (AGGREGATE, WON, HEAD_TO_HEAD)


@dataclass(frozen=True)
class Match:
    """One match that counts: its sides, their scores, and who forfeited (then no scores)."""

    home: Hashable
    away: Hashable
    home_score: int = 0
    away_score: int = 0
    forfeited_by: Hashable | None = None


@dataclass(frozen=True)
class Points:
    win: int = 3
    tie: int = 1
    loss: int = 0
    forfeit: int = 0


@dataclass
class Row:
    side: Hashable
    played: int = 0
    won: int = 0
    tied: int = 0
    lost: int = 0
    aggregate: int = 0
    points: int = 0
    position: int = 0


def _outcomes(match: Match, points: Points) -> list[tuple[Hashable, str, int, int]]:
    """(side, "won" | "tied" | "lost", points, score) for both sides of a match."""
    if match.forfeited_by is not None:
        if match.forfeited_by not in (match.home, match.away):
            raise ValueError(f"{match.forfeited_by!r} forfeited a match it was not in")
        other = match.away if match.forfeited_by == match.home else match.home
        return [(match.forfeited_by, "lost", points.forfeit, 0), (other, "won", points.win, 0)]
    if match.home_score + match.away_score != 0:
        raise ValueError(
            f"{match.home!r} v {match.away!r}: the scores {match.home_score} and "
            f"{match.away_score} do not sum to zero"
        )
    if match.home_score == match.away_score:
        return [
            (match.home, "tied", points.tie, match.home_score),
            (match.away, "tied", points.tie, match.away_score),
        ]
    home_won = match.home_score > match.away_score
    winner, loser = (match.home, match.away) if home_won else (match.away, match.home)
    win_score, lose_score = sorted((match.home_score, match.away_score), reverse=True)
    return [(winner, "won", points.win, win_score), (loser, "lost", points.loss, lose_score)]


def _head_to_head(
    group: Sequence[Hashable], matches: Sequence[Match], points: Points
) -> dict[Hashable, int]:
    """Each side's points from the matches between the sides of `group` only."""
    members = set(group)
    earned = dict.fromkeys(group, 0)
    for match in matches:
        if match.home in members and match.away in members:
            for side, _, got, _ in _outcomes(match, points):
                earned[side] += got
    return earned


def _blocks(
    group: list[Hashable],
    keys: Sequence[str],
    rows: dict[Hashable, Row],
    matches: Sequence[Match],
    points: Points,
) -> list[list[Hashable]]:
    """`group` (equal so far) split by the first tie-break, then each part by the next: blocks of
    sides equal on every tie-break, best first, each block in the order given."""
    if len(group) < 2 or not keys:
        return [group]
    key, rest = keys[0], keys[1:]
    if key == HEAD_TO_HEAD:
        value = _head_to_head(group, matches, points)
    else:
        value = {side: getattr(rows[side], key) for side in group}
    blocks: list[list[Hashable]] = []
    for level in sorted(set(value.values()), reverse=True):
        part = [side for side in group if value[side] == level]
        blocks.extend(_blocks(part, rest, rows, matches, points))
    return blocks


def league_table(
    sides: Sequence[Hashable],
    matches: Iterable[Match],
    points: Points,
    tie_breaks: Sequence[str] = (AGGREGATE, WON),
) -> list[Row]:
    """The table's rows, best first. Sides equal on points and on every tie-break share a
    position (1, 2, 2, 4) and keep the order of `sides`."""
    unknown = [key for key in tie_breaks if key not in TIE_BREAKS]
    if unknown:
        raise ValueError(f"Unknown tie-break: {', '.join(unknown)}")
    rows = {side: Row(side) for side in sides}
    counted = list(matches)
    for match in counted:
        for side, outcome, got, score in _outcomes(match, points):
            if side not in rows:
                raise ValueError(f"{side!r} played a match but is not a side of the league")
            row = rows[side]
            row.played += 1
            setattr(row, outcome, getattr(row, outcome) + 1)
            row.points += got
            row.aggregate += score
    table: list[Row] = []
    for block in _blocks(list(sides), ["points", *tie_breaks], rows, counted, points):
        position = len(table) + 1
        for side in block:
            rows[side].position = position
            table.append(rows[side])
    return table
