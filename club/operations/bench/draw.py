"""How well a draw keeps players away from last weeks' table-mates: `manage.py bench --draw`.

Ten simulated weeks of a club of 40 (all present every week, tables of four): each week is drawn
by `scoring.draw.draw_tables` with the club's last four nights as history (as the app's draw does,
club/play/services/draw.py), and, beside it, by a plain random draw (the players shuffled and cut
into
fours). A repeat is a pair of players at one table who had already shared a table in an earlier
week of the simulation; the figure is the repeats of weeks 2 to 10, summed, and the most times
any pair met. Several seeds; all pure Python (no database).
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from itertools import combinations

from scoring.draw import draw_tables

HISTORY_NIGHTS = 4  # as club.play.services.draw


@dataclass(frozen=True)
class DrawQuality:
    method: str
    repeats: list[int]  # per seed
    most_met: list[int]  # per seed


def _random_week(players: list[str], rng: random.Random) -> list[list[str]]:
    order = players[:]
    rng.shuffle(order)
    return [order[i : i + 4] for i in range(0, len(order), 4)]


def _season(players: list[str], weeks: int, seed: int, drawn: bool) -> tuple[int, int]:
    rng = random.Random(seed)
    met: dict[tuple[str, str], int] = {}
    history: list[list[list[str]]] = []
    repeats = 0
    for week in range(weeks):
        if drawn:
            tables = draw_tables(players, history=history[-HISTORY_NIGHTS:], seed=f"{seed}:{week}")
        else:
            tables = _random_week(players, rng)
        for table in tables:
            for pair in combinations(sorted(table), 2):
                if met.get(pair):
                    repeats += 1
                met[pair] = met.get(pair, 0) + 1
        history.append(tables)
    return repeats, max(met.values())


def bench_draw(players: int = 40, weeks: int = 10, seeds: int = 5) -> list[DrawQuality]:
    names = [f"Player {n:02d}" for n in range(players)]
    results = []
    for method, drawn in (("the app's draw", True), ("a plain random draw", False)):
        runs = [_season(names, weeks, seed, drawn) for seed in range(seeds)]
        results.append(DrawQuality(method, [r for r, _ in runs], [m for _, m in runs]))
    return results


def report(results: list[DrawQuality], players: int = 40, weeks: int = 10) -> list[str]:
    lines = [
        f"Draw quality: {players} players, tables of 4, {weeks} weeks; repeated table-mates over "
        f"weeks 2 to {weeks} (median of {len(results[0].repeats)} seeds, and their range)",
        f"{'method':<22} {'repeats':>8} {'range':>10} {'most a pair met':>16}",
    ]
    for r in results:
        lines.append(
            f"{r.method:<22} {statistics.median(r.repeats):8.0f} "
            f"{min(r.repeats):>4}-{max(r.repeats):<5} {max(r.most_met):>16}"
        )
    return lines
