"""Write a club's data file (docs/data-file.md): the whole club, one season or one night.

    python manage.py export_club SLUG [--output FILE] [--season NAME] [--night DATE] [--shareable]
    python manage.py export_club --all DIR

Without --output the file goes to standard output. --all writes every club to DIR/<slug>.json
(the nightly backup: docs/operators.md). A whole club is a backup (its whole record, with
members' emails, table cards' token hashes and the audit trail) unless --shareable leaves those
out; a season or a night is always shareable.
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.clubs.models import Club
from club.interchange import BACKUP, SHAREABLE
from club.interchange.services.export import export_text
from club.play.models import Night


def write_atomically(path: Path, text: str) -> None:
    """Write beside the target and rename, so a backup is never half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class Command(BaseCommand):
    help = "Export a club's data file (solo-whist-club, version 3); --all DIR backs up every club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", help="the club's slug")
        parser.add_argument("--output", "-o", help="write to this file (default: standard output)")
        parser.add_argument("--season", help="only this season (its name)")
        parser.add_argument("--night", help="only the night(s) on this date (YYYY-MM-DD)")
        parser.add_argument("--all", metavar="DIR", help="write every club to DIR/<slug>.json")
        parser.add_argument(
            "--shareable",
            action="store_true",
            help="leave out emails, accounts, token hashes and the audit trail (not a backup)",
        )

    def handle(self, *args: object, **options: Any) -> None:
        slug, directory = options["slug"], options["all"]
        if directory:
            if slug or options["season"] or options["night"] or options["output"]:
                raise CommandError("--all exports every whole club: give no slug or filters")
            self._all(Path(str(directory)), SHAREABLE if options["shareable"] else BACKUP)
            return
        if not slug:
            raise CommandError("Give the club's slug (or --all DIR for every club)")
        club = Club.objects.filter(slug=str(slug)).first()
        if club is None:
            raise CommandError(f"No club has the slug {slug!r}")
        kwargs: dict[str, Any] = {}
        if options["season"]:
            season = club.seasons.filter(name=str(options["season"])).first()
            if season is None:
                names = ", ".join(club.seasons.values_list("name", flat=True)) or "none"
                raise CommandError(f"{club.name} has no season {options['season']!r} ({names})")
            kwargs["season"] = season
        if options["night"]:
            try:
                date = dt.date.fromisoformat(str(options["night"]))
            except ValueError:
                raise CommandError(
                    f"--night {options['night']!r} is not a date YYYY-MM-DD"
                ) from None
            nights = Night.objects.filter(season__club=club, date=date)
            if "season" in kwargs:
                nights = nights.filter(season=kwargs["season"])
            if not nights.exists():
                raise CommandError(f"{club.name} has no night on {date}")
            kwargs["nights"] = nights
        kwargs["kind"] = SHAREABLE if options["shareable"] else BACKUP
        text = export_text(club, **kwargs)
        if options["output"]:
            write_atomically(Path(str(options["output"])), text)
            self.stderr.write(f"Wrote {options['output']} ({len(text.encode()):,} bytes)")
        else:
            self.stdout.write(text, ending="")

    def _all(self, directory: Path, kind: str) -> None:
        clubs = list(Club.objects.order_by("slug"))
        for club in clubs:
            path = directory / f"{club.slug}.json"
            write_atomically(path, export_text(club, kind=kind))
            self.stdout.write(f"{path}")
        self.stderr.write(f"Exported {len(clubs)} club(s) to {directory}")
