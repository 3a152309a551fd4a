"""The arithmetic and the lines of `bench --peak`'s report: percentiles by kind of request, the
CPU of each group of processes, and whether an evening holds (every kind's p99 under the goal,
no error, no hand lost, every night zero-sum)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

GOAL_MS = 250.0
KINDS = (
    "phone poll",
    "board poll",
    "night poll",
    "save",
    "secretary page",
    "phone after push",
    "board after push",
    "night after push",
)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile (q from 0 to 1): the smallest value at least q of all are at
    or under; NaN for none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, math.ceil(round(q * len(ordered), 9)))  # 0.99 x 100 is 99, not 99.0000001
    return ordered[min(len(ordered), rank) - 1]


@dataclass(frozen=True)
class Kind:
    name: str
    count: int
    errors: int
    p50: float
    p99: float

    def holds(self, goal_ms: float = GOAL_MS) -> bool:
        return self.errors == 0 and (self.count == 0 or self.p99 < goal_ms)


@dataclass
class Evening:
    """One run's figures, read from the load generator's result and the database's check."""

    clubs: int
    window_s: float
    kinds: list[Kind]
    lag_p99: float  # how late the client sent its requests, ms
    samples: list[str]
    push_ms: list[float]
    unfinished: int
    cpu: dict[str, float]  # CPU seconds in the window by group of processes
    subscriptions: int = 0  # push: subscriptions the engine accepted
    subscription_errors: int = 0  # push: subscriptions refused or broken before the end
    board_ms: list[float] = field(default_factory=list)  # push: a save sent -> its board redrawn
    engine_kb: int = 0  # push: the engine's memory (PSS) as the window ended
    saves_answered: int = 0  # saves answered "saved", all the run
    stored: int = 0  # hands in the database
    lost: int = 0  # saved but not stored, or stored twice, or numbered out of order
    unbalanced: int = 0  # hands whose score lines do not add up to zero
    uneven_nights: int = 0  # nights whose score lines do not add up to zero
    problems: list[str] = field(default_factory=list)
    # The node's own time by route (its request log), the whole run: (p50, p99, requests).
    served: dict[str, tuple[float, float, int]] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        return sum(k.errors for k in self.kinds) + self.subscription_errors

    def holds(self, goal_ms: float = GOAL_MS) -> bool:
        return (
            all(k.holds(goal_ms) for k in self.kinds)
            and self.subscription_errors == 0
            and self.lost == 0
            and self.unbalanced == 0
            and self.uneven_nights == 0
            and self.unfinished == 0
        )


def kinds_of(result: dict[str, Any]) -> list[Kind]:
    """Each kind of request the generator timed in the window, in a fixed order."""
    out = []
    for name in KINDS:
        times = result["ms"].get(name, [])
        if times or result["errors"].get(name):
            out.append(
                Kind(
                    name,
                    len(times),
                    int(result["errors"].get(name, 0)),
                    percentile(times, 0.5),
                    percentile(times, 0.99),
                )
            )
    return out


def cpu_lines(cpu: dict[str, float], window_s: float) -> list[str]:
    """CPU seconds by group, and each group's share of the machine's cores over the window."""
    total = cpu.get("machine, all processes", 0.0)
    lines = [f"  {'CPU in the window':<34} {'s':>7} {'cores':>6} {'share':>6}"]
    for group, seconds in cpu.items():
        share = f"{seconds / total:6.0%}" if total else " " * 6
        lines.append(f"  {group:<34} {seconds:7.1f} {seconds / window_s:6.2f} {share}")
    return lines


def lines(evening: Evening, goal_ms: float = GOAL_MS) -> list[str]:
    per_s = evening.window_s or 1.0
    out = [
        f"  {'kind':<18} {'requests':>8} {'a second':>8} {'errors':>6} {'p50 ms':>8} {'p99 ms':>8}"
    ]
    for k in evening.kinds:
        out.append(
            f"  {k.name:<18} {k.count:>8} {k.count / per_s:8.1f} {k.errors:>6} {k.p50:8.1f} "
            f"{k.p99:8.1f}{'' if k.holds(goal_ms) else '  over'}"
        )
    out.append(
        f"  saves answered saved {evening.saves_answered}, hands stored {evening.stored}, "
        f"lost {evening.lost}, not zero-sum: {evening.unbalanced} hands, "
        f"{evening.uneven_nights} nights; still open at the end {evening.unfinished}; "
        f"client lag p99 {evening.lag_p99:.1f} ms"
    )
    if evening.push_ms:
        out.append(
            f"  a save sent -> its board's message: median "
            f"{percentile(evening.push_ms, 0.5):.0f} ms, p99 "
            f"{percentile(evening.push_ms, 0.99):.0f} ms ({len(evening.push_ms)} messages); "
            f"-> the board redrawn: median {percentile(evening.board_ms, 0.5):.0f} ms, p99 "
            f"{percentile(evening.board_ms, 0.99):.0f} ms ({len(evening.board_ms)})"
        )
    if evening.subscriptions or evening.subscription_errors:
        per = evening.engine_kb / max(evening.subscriptions, 1)
        out.append(
            f"  push engine: {evening.subscriptions} subscriptions, "
            f"{evening.subscription_errors} refused or broken; memory (PSS) "
            f"{evening.engine_kb / 1024:.0f} MB as the window ended, {per:.1f} KB a subscription "
            f"(nchan's shared memory included)"
        )
    if evening.served:
        title = "the node's own time (its request log)"
        out.append(f"  {title:<44} {'count':>7} {'p50 ms':>7} {'p99 ms':>7}")
        for route, (p50, p99, count) in list(evening.served.items())[:8]:
            out.append(f"  {route[:44]:<44} {count:>7} {p50:7.1f} {p99:7.1f}")
    out += cpu_lines(evening.cpu, per_s)
    out.append(
        f"  holds (every p99 < {goal_ms:g} ms, 0 errors, 0 lost): "
        f"{'yes' if evening.holds(goal_ms) else 'no'}"
    )
    out += [f"  problem: {p}" for p in [*evening.problems, *evening.samples][:12]]
    return out
