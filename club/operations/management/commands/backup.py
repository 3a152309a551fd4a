"""The host's nightly backup, in one command (docs/operators.md, "Back up and restore").

    python manage.py backup ROOT [--keep-daily 14] [--keep-weekly 8]
                                 [--age-recipient KEY ...] [--age-recipients-file FILE]

Makes ROOT/YYYY-MM-DD (today's date in UTC): every club's data file, each checked as
`check_backup` checks it, and the whole database (`solo.dump` from pg_dump on PostgreSQL,
`solo.sqlite3` through SQLite's backup API). With age recipients every file is encrypted
(`*.age`) and no plain copy is ever written. Then it keeps the newest --keep-daily backups and
the newest of each of the newest --keep-weekly ISO weeks, deleting the other dated folders
(never the one just made). On any failure it emails the ADMINS, keeps the old backups, leaves no
half-made folder and exits with status 1.
"""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.interchange.services import backups
from club.operations.services.alerts import alert


def at_least(smallest: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a whole number") from None
        if value < smallest:
            raise ValueError(f"{value} is less than {smallest}")
        return value

    parse.__name__ = f"a whole number of at least {smallest}"
    return parse


class Command(BaseCommand):
    help = "Back up every club and the database into ROOT/<today>; keep 14 daily, 8 weekly."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("root", help="the folder that holds the dated backups")
        parser.add_argument(
            "--keep-daily", type=at_least(1), default=14, help="newest backups kept (14)"
        )
        parser.add_argument(
            "--keep-weekly",
            type=at_least(0),
            default=8,
            help="ISO weeks whose newest backup is kept (8)",
        )
        parser.add_argument(
            "--age-recipient",
            action="append",
            default=[],
            metavar="KEY",
            help="encrypt for this age public key (age1…); may be given more than once",
        )
        parser.add_argument(
            "--age-recipients-file",
            metavar="FILE",
            help="encrypt for every age public key in this file, one a line",
        )

    def handle(self, *args: object, **options: Any) -> None:
        root = Path(str(options["root"]))
        report: list[str] = []
        try:
            folder = self.back_up(root, options, report)
        except backups.BackupFailed as failed:
            self.fail(root, report, str(failed))
        except Exception as error:
            report.append(traceback.format_exc())
            self.fail(root, report, f"{type(error).__name__}: {error}")
        self.stdout.write(f"Backed up to {folder}")
        try:
            gone = backups.prune(
                root, backups.today(), options["keep_daily"], options["keep_weekly"]
            )
        except OSError as error:
            self.fail(
                root,
                report,
                f"{type(error).__name__}: {error}",
                f"The backup {folder} was made, but the old ones could not all be deleted.",
            )
        kept = sorted(backups.dated_folders(root))
        self.stdout.write(
            f"Kept {len(kept)} backup(s), {kept[0]} to {kept[-1]}; deleted {len(gone)}"
            + (f": {', '.join(p.name for p in gone)}" if gone else "")
        )

    def back_up(self, root: Path, options: dict[str, Any], report: list[str]) -> Path:
        recipients_file = options["age_recipients_file"]
        if recipients_file and not Path(recipients_file).is_file():
            raise backups.BackupFailed(f"--age-recipients-file {recipients_file}: no such file")
        recipients = backups.recipient_arguments(options["age_recipient"], recipients_file)
        if recipients and not backups.age_installed():
            raise backups.BackupFailed("age is not installed (Debian: apt-get install age)")
        try:
            return backups.make(root, backups.today(), recipients, report)
        finally:
            for line in report:
                self.stdout.write(line)

    def fail(
        self,
        root: Path,
        report: list[str],
        reason: str,
        outcome: str = "The older backups are kept; no folder was made for today.",
    ) -> None:
        body = "\n".join(
            [
                f"The backup into {root} failed: {reason}",
                outcome,
                "",
                *report,
            ]
        )
        alert(self.stderr, "Backup failed", body)
        raise CommandError(f"The backup failed: {reason}")
