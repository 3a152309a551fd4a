"""Check a backup on the day it is made: read every club data file of a directory (or the files
given), check each as an import would (the format, every name, every reference, the JSON Schema
of its version) and print what it holds.

    python manage.py check_backup DIR_OR_FILE [...]

For each file: the club, its nights, hands, members, and the money still owed in sum. Exit status
1 when any file is refused (each problem printed with where it is), or when no file is found.
Nothing is written to the database.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import jsonschema
from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.interchange import SCHEMA_PATHS, document
from club.interchange.importer import UNIT_SETTINGS
from club.money import format_amount


class Command(BaseCommand):
    help = "Read and check every club data file of a backup; print what each holds."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="a backup directory (its *.json) or files")

    def handle(self, *args: object, **options: object) -> None:
        files: list[Path] = []
        for name in options["paths"]:  # type: ignore[attr-defined]
            path = Path(str(name))
            if path.is_dir():
                files.extend(sorted(path.glob("*.json")))
            elif path.exists():
                files.append(path)
            else:
                raise CommandError(f"{path}: no such file or directory")
        if not files:
            raise CommandError("No club data files (*.json) found: is this the backup directory?")
        bad = 0
        totals = {"clubs": 0, "nights": 0, "hands": 0}
        for path in files:
            problems = self.check_file(path, totals)
            if problems:
                bad += 1
                self.stdout.write(f"REFUSED {path}: {len(problems)} problem(s)")
                for problem in problems[:50]:
                    self.stdout.write(f"  {problem}")
        self.stdout.write(
            f"{len(files)} file(s): {totals['clubs']} club(s), {totals['nights']} night(s), "
            f"{totals['hands']} hand(s); {bad} refused"
        )
        if bad:
            raise CommandError(f"{bad} of {len(files)} file(s) would not restore")

    def check_file(self, path: Path, totals: dict[str, int]) -> list[str]:
        try:
            document.check_size(path.stat().st_size)
            raw = path.read_bytes()
            value = document.parse_json(raw)
            doc = document.read(value)
        except document.ImportRefused as refused:
            return [str(p) for p in refused.problems]
        except OSError as error:
            return [f"cannot read it: {error.strerror}"]
        schema = json.loads(SCHEMA_PATHS[value["version"]].read_text())
        errors = sorted(
            jsonschema.Draft202012Validator(
                schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
            ).iter_errors(value),
            key=lambda e: list(e.path),
        )
        if errors:
            return [f"{'/'.join(str(p) for p in e.path) or 'file'}: {e.message}" for e in errors]
        hands = sum(len(t.hands) for n in doc.nights for t in n.tables)
        owed = 0
        debts = 0
        for night in doc.nights:
            if night.record is None:
                continue
            settled: dict[int, int] = {}
            for s in night.record.settlements:
                if s.undone_at is None:
                    settled[s.debt] = settled.get(s.debt, 0) + s.amount
            for debt in night.record.debts:
                debts += 1
                owed += debt.amount - settled.get(debt.number, 0)
        record = doc.record
        members = sum(1 for a in (record.accounts or []) if a.role) if record else 0
        secretaries = sorted(
            a.username for a in ((record.accounts or []) if record else []) if a.role == "secretary"
        )
        kind = record.kind if record else "version 1 or 2"
        unit = {
            "currency_symbol": "",
            "minor_units": 100,
            "points_label": "pts",
            **UNIT_SETTINGS[doc.club.unit],
            **doc.club.settings,
        }
        money = format_amount(SimpleNamespace(**unit), owed)
        self.stdout.write(
            f"OK {path}: {doc.club.name} (/c/{doc.club.slug}/), {kind}; "
            f"{len(doc.nights)} night(s), {hands} hand(s), {len(doc.players)} player(s), "
            f"{members} member(s); money owed {money} on {debts} debt(s)"
            + (f"; secretaries: {', '.join(secretaries)}" if secretaries else "")
        )
        totals["clubs"] += 1
        totals["nights"] += len(doc.nights)
        totals["hands"] += hands
        return []
