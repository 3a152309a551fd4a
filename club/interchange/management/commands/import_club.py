"""Read a club data file (docs/data-file.md) or a paper-sheet CSV into the database.

    python manage.py import_club FILE [--slug NEW] [--into SLUG] [--dry-run] [--carry-settle-ups]

Into a new club (its slug from the file, or --slug), or with --into adds the file's nights to an
existing club. A .csv file (paper sheets, club/interchange/services/csv_sheets.py) needs --into. All
or
nothing: any problem is printed, with where it is, to standard error, nothing is written and the
exit status is 1. FILE "-" reads standard input. --carry-settle-ups gives each closed night the
file gives no `debts` the money owed that closing it makes (as the Import page's checkbox does).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.clubs.models import Club
from club.grades.services import grades
from club.interchange import MAX_BYTES
from club.interchange.format import document
from club.interchange.services.csv_sheets import read_csv
from club.interchange.services.importer import existing_for, import_document


class Command(BaseCommand):
    help = "Import a club data file (or a paper-sheet CSV with --into): all or nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the .json data file or .csv sheet; - for standard input")
        parser.add_argument("--slug", help="the new club's slug (default: the file's)")
        parser.add_argument("--into", metavar="SLUG", help="add the nights to this existing club")
        parser.add_argument("--csv", action="store_true", help="the file is a paper-sheet CSV")
        parser.add_argument(
            "--dry-run", action="store_true", help="check and count only; write nothing"
        )
        parser.add_argument(
            "--carry-settle-ups",
            action="store_true",
            help="carry each closed night's settle-up as money owed where the file gives no debts",
        )
        parser.add_argument(
            "--no-grades",
            action="store_true",
            help="do not rate the Solo grade now (run rebuild_grades later)",
        )

    def handle(self, *args: object, **options: Any) -> None:
        name = str(options["file"])
        if options["slug"] and options["into"]:
            raise CommandError("Give --slug (a new club) or --into (an existing one), not both")
        into = None
        if options["into"]:
            into = Club.objects.filter(slug=str(options["into"])).first()
            if into is None:
                raise CommandError(f"No club has the slug {options['into']!r}")
        is_csv = bool(options["csv"]) or name.lower().endswith(".csv")
        if is_csv and into is None:
            raise CommandError("A paper-sheet CSV adds nights to a club: give --into SLUG")
        raw = self._read(name)
        try:
            doc = (
                read_csv(raw, into)
                if is_csv and into is not None  # (refused above without --into)
                else document.read(raw, existing_for(into))
            )
            club, summary = import_document(
                doc,
                into=into,
                slug=str(options["slug"]) if options["slug"] else None,
                source=Path(name).name,
                dry_run=bool(options["dry_run"]),
                rate_grades=not options["no_grades"],
                carry_settle_ups=bool(options["carry_settle_ups"]),
            )
        except document.ImportRefused as refused:
            count = len(refused.problems)
            lines = [f"Refused {name}: {count} problem(s); nothing was written."]
            lines += [f"  {p}" for p in refused.problems]
            raise CommandError("\n".join(lines)) from None
        verb = "Would import" if options["dry_run"] else "Imported"
        self.stdout.write(f"{verb} {name}:")
        for line in summary.lines():
            self.stdout.write(f"  {line}")
        if club is not None and not options["no_grades"]:
            # No worker need be running for a restore: the grades are caught up here.
            rated = grades.drain(club.pk)
            self.stdout.write(f"  Solo grade: {rated} hands rated")

    def _read(self, name: str) -> bytes:
        try:
            if name == "-":
                raw = sys.stdin.buffer.read(MAX_BYTES + 1)
            else:
                path = Path(name)
                # Refused before reading, let alone parsing.
                document.check_size(path.stat().st_size)
                raw = path.read_bytes()
        except document.ImportRefused as refused:
            raise CommandError(f"Refused {name}: {refused}") from None
        except OSError as error:
            raise CommandError(f"Cannot read {name}: {error.strerror}") from None
        return raw
