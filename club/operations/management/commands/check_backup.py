"""Check a backup on the day it is made: read every club data file of a directory (or the files
given), check each as an import would (the format, every name, every reference, the JSON Schema
of its version) and print what it holds.

    python manage.py check_backup DIR_OR_FILE [...] [--age-identity FILE] [--alert]

For each file: the club, its nights, hands, members, and the money still owed in sum. An
encrypted backup's files (`<slug>.json.age`, `manage.py backup --age-recipient`) are decrypted in
memory with the age identity file given. Exit status 1 when any file is refused (each problem
printed with where it is), or when no file is found; with --alert the ADMINS are emailed then.
Nothing is written to the database, nor any decrypted file to the disk.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.interchange.format import document
from club.interchange.services import backups
from club.operations.services.alerts import alert


class Command(BaseCommand):
    help = "Read and check every club data file of a backup; print what each holds."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="a backup directory (its *.json) or files")
        parser.add_argument(
            "--age-identity",
            metavar="FILE",
            help="the age identity (secret key) file that decrypts an encrypted backup's files",
        )
        parser.add_argument(
            "--alert", action="store_true", help="email the ADMINS when the check fails"
        )

    def handle(self, *args: object, **options: Any) -> None:
        report: list[str] = []
        try:
            self.check_all(options, report)
        except CommandError as error:
            if options["alert"]:
                report.append(str(error))
                alert(self.stderr, "check_backup failed", "\n".join(report))
            raise

    def say(self, report: list[str], line: str) -> None:
        report.append(line)
        self.stdout.write(line)

    def check_all(self, options: dict[str, Any], report: list[str]) -> None:
        identity = options["age_identity"]
        if identity and not Path(identity).is_file():
            raise CommandError(f"--age-identity {identity}: no such file")
        if identity and not backups.age_installed():
            raise CommandError("age is not installed (Debian: apt-get install age)")
        files: list[Path] = []
        for name in options["paths"]:
            path = Path(str(name))
            if path.is_dir():
                found = sorted(path.glob("*.json")) + sorted(path.glob("*.json.age"))
                files.extend(sorted(found))
            elif path.exists():
                files.append(path)
            else:
                raise CommandError(f"{path}: no such file or directory")
        if not files:
            raise CommandError(
                "No club data files (*.json, *.json.age) found: is this the backup directory?"
            )
        bad = 0
        totals = {"clubs": 0, "nights": 0, "hands": 0}
        for path in files:
            checked = self.check_file(path, identity)
            if checked.problems:
                bad += 1
                self.say(report, f"REFUSED {path}: {len(checked.problems)} problem(s)")
                for problem in checked.problems[:50]:
                    self.say(report, f"  {problem}")
                continue
            self.say(report, f"OK {path}: {checked.summary}")
            totals["clubs"] += checked.clubs
            totals["nights"] += checked.nights
            totals["hands"] += checked.hands
        self.say(
            report,
            f"{len(files)} file(s): {totals['clubs']} club(s), {totals['nights']} night(s), "
            f"{totals['hands']} hand(s); {bad} refused",
        )
        if bad:
            raise CommandError(f"{bad} of {len(files)} file(s) would not restore")

    def check_file(self, path: Path, identity: str | None) -> backups.Checked:
        try:
            if path.name.endswith(backups.ENCRYPTED):
                if not identity:
                    return backups.Checked(["encrypted (age): give --age-identity FILE to read it"])
                raw = backups.decrypt(path, identity)
            else:
                document.check_size(path.stat().st_size)  # refused before it is read
                raw = path.read_bytes()
        except document.ImportRefused as refused:
            return backups.Checked([str(p) for p in refused.problems])
        except OSError as error:
            return backups.Checked([f"cannot read it: {error.strerror or error}"])
        return backups.check_data(raw)
