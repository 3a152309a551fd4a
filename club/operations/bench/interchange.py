"""The club data file's benchmark (`manage.py bench --interchange [--sizes 100k]`): export and
import of the seeded benchmark club, in seconds and peak memory.

For each size: the export (the whole club to JSON text), then the import of that text into a new
club (parsing, checks, every hand scored through the hand service, the writes), timed on their own;
then each again under tracemalloc for the peak of Python's allocations (tracing slows them, so the
times come from the untraced runs). An import then rates the club's Solo grade from scratch
(club/grades/services/grades.py): that is timed on its own line. The copy is deleted afterwards.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from club.clubs.models import Club
from club.clubs.services.clubs_lifecycle import delete_club
from club.grades.services import grades
from club.interchange.format.document import read
from club.interchange.services.export import export_text
from club.interchange.services.importer import import_document
from club.play.models import ScoreLine


@dataclass(frozen=True)
class Figure:
    what: str
    seconds: float
    cpu_seconds: float  # this process's CPU time: on a busy machine, closer to an idle one's wall
    peak_mb: float


def _timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return value, time.perf_counter() - start, time.process_time() - cpu


def _peak(fn: Callable[[], Any]) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / (1024 * 1024)
    finally:
        tracemalloc.stop()


def bench_interchange(club: Club) -> list[Figure]:
    copy = f"{club.slug}-copy"
    existing = Club.objects.filter(slug=copy).first()
    if existing is not None:
        delete_club(existing)
    text, export_s, export_cpu = _timed(lambda: export_text(club))
    export_peak = _peak(lambda: export_text(club))

    def run_import(dry_run: bool) -> Any:
        return import_document(
            read(text), slug=copy, source="bench", dry_run=dry_run, rate_grades=False
        )

    (imported, _), import_s, import_cpu = _timed(lambda: run_import(False))
    assert imported is not None
    # The Solo grade, rated from scratch as an import does after writing.
    _, grades_s, grades_cpu = _timed(lambda: grades.rebuild(imported))
    delete_club(imported)
    # The traced run rolls back instead of writing (the same work: a preview is the import).
    import_peak = _peak(lambda: run_import(True))
    megabytes = len(text.encode()) / (1024 * 1024)
    return [
        Figure(f"export ({megabytes:.1f} MB file)", export_s, export_cpu, export_peak),
        Figure("import (new club)", import_s, import_cpu, import_peak),
        Figure("+ Solo grade rebuild", grades_s, grades_cpu, float("nan")),
    ]


def report(club: Club, figures: list[Figure]) -> Iterator[str]:
    lines = ScoreLine.objects.filter(season__club=club).count()
    yield f"Club data file, {club.slug}: {lines} score lines"
    yield f"{'':<26} {'seconds':>8} {'CPU s':>6} {'peak MB (tracemalloc)':>22}"
    for f in figures:
        yield f"{f.what:<26} {f.seconds:8.2f} {f.cpu_seconds:6.2f} {f.peak_mb:22.1f}"
