"""A club night's draw: the players who have arrived, seated at random into tables of 4, with
tables of 5 (or of 3, as the club prefers) only where the number of players needs them, and as
few repeat meetings with the last few nights as the search can find.

`draw_tables(players, odd_size, history, seed)` returns the tables, each a list of players in
seat order whose first player deals the first hand. It reuses the tournament seating's round
planner (`scoring.seating`): a night is one round, and the recent nights' tables are its played
rounds, so pairs who sat together lately are kept apart and the odd-table seats go to the
players who have had the fewest of them lately. Pure and deterministic for a seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from scoring.seating import PlanLike, _check_played, _plan_round, _record

__all__ = ["ODD_SIZES", "describe_sizes", "draw_sizes", "draw_tables", "late_table_donors"]

T = TypeVar("T")

# The odd table a club may choose: a table of five (one player sits out each hand) or of three.
ODD_SIZES = (5, 3)


def draw_sizes(n: int, odd_size: int = 5) -> list[int]:
    """The table sizes for `n` players, tables of 4 first: as many 4s as there can be, and
    tables of `odd_size` (5 or 3) only for the rest. ValueError, with what would work instead,
    when `n` cannot be split that way (fewer than 3 players; 3, 6, 7 or 11 into 4s and 5s; 5
    into 4s and 3s)."""
    if odd_size not in ODD_SIZES:
        raise ValueError(f"The odd table is a table of 5 or of 3, not of {odd_size}")
    if n < 3:
        raise ValueError(f"A draw needs at least 3 players, not {n}")
    # With 5s, each of n % 4 tables takes one extra player; with 3s, each of (4 - n % 4) % 4
    # tables is one short.
    odd = n % 4 if odd_size == 5 else (4 - n % 4) % 4
    fours, rest = divmod(n - odd * odd_size, 4)
    if fours < 0:
        other = 8 - odd_size
        sizes = draw_sizes(n, other)
        raise ValueError(
            f"{n} players cannot be drawn into tables of 4 and {odd_size}; "
            f"with tables of {other} they make {describe_sizes(sizes)}."
        )
    assert rest == 0
    return [4] * fours + [odd_size] * odd


def describe_sizes(sizes: Sequence[int]) -> str:
    """ "2 tables of 4 and 2 of 3", "1 table of 5"."""
    parts: list[str] = []
    for size in sorted(set(sizes), key=lambda s: (s != 4, -s)):
        count = sizes.count(size)
        if not parts:
            parts.append(f"{count} table{'s' if count != 1 else ''} of {size}")
        else:
            parts.append(f"{count} of {size}")
    return " and ".join(parts)


def draw_tables(
    players: Sequence[str],
    odd_size: int = 5,
    history: PlanLike | None = None,
    seed: int | str = 0,
) -> list[list[str]]:
    """Seat `players` (distinct, non-blank strings) for one night.

    `history`: the tables of recent nights, one list of tables per night, each a list of
    players (who may not be here tonight). Returns tables of 4 first, then the odd tables; seats
    are shuffled, and the first player of each table deals first. ValueError as `draw_sizes`,
    and for a blank or repeated name or a night of history seating someone twice.
    """
    names = list(players)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"A player's name must be a non-blank string, not {name!r}")
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"{', '.join(twice)} arrived twice")
    sizes = draw_sizes(len(names), odd_size)
    played = _check_played(history or [])
    index = {name: i for i, name in enumerate(names)}
    count = [[0] * len(names) for _ in names]
    odd_seats = [0] * len(names)
    for night in played:
        _record(night, index, count, odd_seats)
    rng = random.Random(f"draw:{seed}")
    # The planner puts the largest tables first; a draw lists the tables of 4 first.
    round_ = _plan_round(names, count, odd_seats, rng, sorted(sizes, reverse=True))
    return sorted(round_, key=lambda table: (len(table) != 4, -len(table)))


def late_table_donors(arrivals: int, fives: Sequence[T]) -> list[T]:
    """Where the other players of a new table of three come from when `arrivals` (1 or 2) late
    arrivals find every table full (every table a five): one player from each of 3 - `arrivals`
    tables of five, taken in the order given, each of which becomes a table of 4; two players
    from the one table of five, which becomes a table of 3, only when it is the night's only
    table. The movers leave at the end of their current hand. Returns one table per mover.
    ValueError when no table of five can give a player (a table needs 3 players: wait for more).
    """
    if arrivals not in (1, 2):
        raise ValueError(
            f"{arrivals} late arrivals make a table of their own or join tables with room"
        )
    need = 3 - arrivals
    if len(fives) >= need:
        return list(fives[:need])
    if fives:  # one arrival, one table of five: it splits into two tables of three
        return [fives[0], fives[0]]
    raise ValueError("No table of 5 can give a player: a new table needs 3 players.")
