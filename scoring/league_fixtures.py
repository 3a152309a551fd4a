"""A league's arithmetic: its fixtures (who plays whom, at whose home, in which round) and a match
night's draw (which home and away players share each table).

`round_robin(n_clubs, meetings)` is the circle method: one club stays put while the others turn
round it, so that in each cycle every pair meets once and no club plays twice in a round. With an
odd number of clubs a ghost club makes the number even, and whoever meets the ghost has the round
off: one bye each a cycle. Home and away alternate round the circle, so in a cycle each club's
home and away games differ by at most one, and every second cycle is the first one mirrored: with
two meetings each pair meets once at each home.

`match_draw(home, away, past_meetings, seed)` seats a match night: tables of four, two home and
two away players each, seated home, away, home, away; among many candidate draws the one whose
home-away pairs (and, after them, same-side pairs) sat together least often at the earlier
meetings of the same players. Pure and deterministic for a seed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import NamedTuple, TypeVar

__all__ = ["Meeting", "match_draw", "repeated_pairs", "round_robin", "rounds_a_cycle"]

P = TypeVar("P", bound=Hashable)

# A home-away pair met again weighs this many same-side pairs met again: the issue is opponents.
_OPPONENT_WEIGHT = 8
# Candidate draws searched (each improved by swaps until no swap helps) for a night.
TRIES = 24


class Meeting(NamedTuple):
    """One fixture of the round robin: its cycle and round (both from 1), and the clubs' indexes."""

    cycle: int
    round: int
    home: int
    away: int


def rounds_a_cycle(n_clubs: int) -> int:
    """How many rounds one cycle takes: n - 1 for an even number, n for an odd one (the byes)."""
    return n_clubs - 1 if n_clubs % 2 == 0 else n_clubs


def _first_cycle(n_clubs: int) -> list[list[tuple[int, int]]]:
    """Each round of one round robin as (home, away) pairs of club indexes."""
    size = n_clubs + n_clubs % 2  # with the ghost club, whose index is n_clubs
    turning = size - 1
    rounds: list[list[tuple[int, int]]] = []
    for r in range(turning):
        # The club that stays put is at home in even rounds, away in odd: it alternates.
        pairs = [(r, turning) if r % 2 == 0 else (turning, r)]
        for k in range(1, size // 2):
            first, second = (r + k) % turning, (r - k) % turning
            # Alternating by distance round the circle balances every club's home and away.
            pairs.append((first, second) if k % 2 else (second, first))
        rounds.append([(h, a) for h, a in pairs if h < n_clubs and a < n_clubs])
    return rounds


def round_robin(n_clubs: int, meetings: int) -> list[Meeting]:
    """Every fixture of a season in which each pair of `n_clubs` clubs meets `meetings` times:
    `meetings` cycles of one round robin each, the even cycles the first mirrored. Ordered by
    cycle, round, then home club. ValueError for fewer than 2 clubs or no meeting."""
    if n_clubs < 2:
        raise ValueError(f"A league needs at least 2 clubs, not {n_clubs}")
    if meetings < 1:
        raise ValueError(f"Each pair must meet at least once, not {meetings} times")
    first = _first_cycle(n_clubs)
    season: list[Meeting] = []
    for cycle in range(1, meetings + 1):
        mirrored = cycle % 2 == 0
        for number, pairs in enumerate(first, start=1):
            for home, away in sorted(pairs):
                if mirrored:
                    home, away = away, home
                season.append(Meeting(cycle, number, home, away))
    season.sort()
    return season


# --- a match night's draw ---------------------------------------------------------------------


def _pair(x: P, y: P) -> frozenset[P]:
    return frozenset((x, y))


def met_before(past_meetings: Sequence[Sequence[Sequence[P]]]) -> Counter[frozenset[P]]:
    """How many times each pair of players sat at one table in `past_meetings` (each meeting a
    list of tables, each a list of players)."""
    met: Counter[frozenset[P]] = Counter()
    for tables in past_meetings:
        for table in tables:
            seats = list(table)
            for i, x in enumerate(seats):
                for y in seats[i + 1 :]:
                    met[_pair(x, y)] += 1
    return met


def repeated_pairs(
    tables: Sequence[Sequence[P]], home: Sequence[P], met: Counter[frozenset[P]]
) -> int:
    """How many home-away pairs at these tables had met before (each counted as often as they
    had): what the draw keeps low."""
    home_set = set(home)
    total = 0
    for table in tables:
        for i, x in enumerate(table):
            for y in table[i + 1 :]:
                if (x in home_set) != (y in home_set):
                    total += met[_pair(x, y)]
    return total


def _table_cost(hs: list[P], aw: list[P], met: Counter[frozenset[P]]) -> int:
    opponents = sum(met[_pair(h, a)] for h in hs for a in aw)
    same_side = met[_pair(hs[0], hs[1])] + met[_pair(aw[0], aw[1])]
    return _OPPONENT_WEIGHT * opponents + same_side


def _improve(
    homes: list[list[P]], aways: list[list[P]], met: Counter[frozenset[P]]
) -> tuple[int, list[list[P]], list[list[P]]]:
    """Swap players of one side between two tables while a swap lowers the cost."""
    costs = [_table_cost(h, a, met) for h, a in zip(homes, aways, strict=True)]
    better = True
    while better:
        better = False
        for side in (homes, aways):
            for i in range(len(side)):
                for j in range(i + 1, len(side)):
                    for si in range(2):
                        for sj in range(2):
                            side[i][si], side[j][sj] = side[j][sj], side[i][si]
                            ci = _table_cost(homes[i], aways[i], met)
                            cj = _table_cost(homes[j], aways[j], met)
                            if ci + cj < costs[i] + costs[j]:
                                costs[i], costs[j] = ci, cj
                                better = True
                            else:
                                side[i][si], side[j][sj] = side[j][sj], side[i][si]
    return sum(costs), homes, aways


def match_draw(
    home: Sequence[P],
    away: Sequence[P],
    past_meetings: Sequence[Sequence[Sequence[P]]] = (),
    seed: int | str = 0,
    tries: int = TRIES,
) -> list[list[P]]:
    """The tables of a match night: each [home, away, home, away] in seat order (the first deals
    first). `home` and `away` are the sides' players, the same even number on each side, nobody
    on both; `past_meetings` the tables of the earlier nights between these clubs. ValueError for
    sides of different or odd sizes, or a player named twice."""
    if len(home) != len(away):
        raise ValueError(f"The sides must be the same size, not {len(home)} and {len(away)}")
    if not home or len(home) % 2:
        raise ValueError(f"Each side needs an even number of players, not {len(home)}")
    if len(set(home) | set(away)) != 2 * len(home):
        raise ValueError("A player is named twice")
    met = met_before(past_meetings)
    rng = random.Random(f"match-draw:{seed}")
    best: tuple[int, list[list[P]], list[list[P]]] | None = None
    for _ in range(max(tries, 1)):
        hs, aws = list(home), list(away)
        rng.shuffle(hs)
        rng.shuffle(aws)
        found = _improve(
            [hs[i : i + 2] for i in range(0, len(hs), 2)],
            [aws[i : i + 2] for i in range(0, len(aws), 2)],
            met,
        )
        if best is None or found[0] < best[0]:
            best = found
        if best[0] == 0:
            break
    assert best is not None
    _, homes, aways = best
    return [[h[0], a[0], h[1], a[1]] for h, a in zip(homes, aways, strict=True)]
