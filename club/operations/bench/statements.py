"""The statement each results email attaches: its size and the time to lay it out, for every
player of a club in its latest season (`bench --statements SLUG`)."""

from __future__ import annotations

import resource
import statistics
import time

from club.clubs.models import Club, Player
from club.money.pdf.statement_mail import statement_attachment


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def bench_statements(club: Club) -> list[str]:
    season = club.seasons.order_by("-start").first()
    if season is None:
        return [f"{club.slug} has no season"]
    sizes, walls, cpus = [], [], []
    for player in Player.objects.filter(club=club).order_by("pk"):
        wall, cpu = time.perf_counter(), _cpu()
        attached = statement_attachment(club, season, player)
        walls.append(time.perf_counter() - wall)
        cpus.append(_cpu() - cpu)
        if attached is not None:
            sizes.append(len(attached[1]))
    if not sizes:
        return [f"{club.slug} has no players"]
    return [
        f"Statements of {club.name}, {season}: {len(sizes)} players",
        f"size: min {min(sizes) / 1000:.1f} KB, median {statistics.median(sizes) / 1000:.1f} KB, "
        f"max {max(sizes) / 1000:.1f} KB",
        f"each: median {statistics.median(walls) * 1000:.0f} ms wall, "
        f"{statistics.median(cpus) * 1000:.0f} ms CPU",
    ]
