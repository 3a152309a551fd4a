"""The host's nightly backup (`manage.py backup`) and its check (`manage.py check_backup`).

A backup is one dated folder, ROOT/YYYY-MM-DD, holding every club's data file (`<slug>.json`,
checked as an import would check it before it is kept) and a copy of the whole database:
`solo.dump` (PostgreSQL's `pg_dump -Fc`) or `solo.sqlite3` (SQLite's backup API, then
`PRAGMA integrity_check`). With age recipients each file is written through `age` instead
(`<name>.age`): the plain text goes from memory, or from `pg_dump`, straight into `age`'s input
and never onto the disk.

The folder is made under a hidden name (`.YYYY-MM-DD.partial`) and renamed only once everything
in it is written and checked: a failed backup leaves no dated folder, and its half is removed.
Then `to_keep` decides which dated folders stay: the newest `daily` ones and the newest of each of
the newest `weekly` ISO weeks; always the one just made. Nothing but dated folders is touched.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from django.db import connection
from django.utils import timezone

from club.clubs.models import Club
from club.interchange import BACKUP
from club.interchange.format import document
from club.interchange.services.export import export_text
from club.interchange.services.importer import UNIT_SETTINGS
from club.lib.money import format_amount

DATED = re.compile(r"^\d{4}-\d{2}-\d{2}$")
AGE = "age"
ENCRYPTED = ".age"


class BackupFailed(Exception):
    """Something a backup needs did not work; the message says what, and where."""


def today() -> dt.date:
    """A backup's date: UTC's (the server's clock; not any club's own date)."""
    return timezone.now().astimezone(dt.UTC).date()


# --- which dated folders to keep --------------------------------------------------------------


def to_keep(
    dates: Iterable[dt.date], made: dt.date, daily: int = 14, weekly: int = 8
) -> set[dt.date]:
    """The backups' dates to keep: the `daily` newest, and of the `weekly` newest ISO weeks
    that have a backup the newest backup of each; `made`, the backup just made, always."""
    newest_first = sorted(set(dates) | {made}, reverse=True)
    keep = set(newest_first[: max(daily, 0)])
    week_newest: dict[tuple[int, int], dt.date] = {}
    for day in newest_first:
        year, week, _ = day.isocalendar()
        week_newest.setdefault((year, week), day)
    keep |= {week_newest[week] for week in sorted(week_newest, reverse=True)[: max(weekly, 0)]}
    keep.add(made)
    return keep


def dated_folders(root: Path) -> dict[dt.date, Path]:
    """ROOT's folders named by a date (YYYY-MM-DD); anything else in ROOT is not a backup."""
    found: dict[dt.date, Path] = {}
    if not root.is_dir():
        return found
    for path in root.iterdir():
        if path.is_dir() and not path.is_symlink() and DATED.match(path.name):
            try:
                found[dt.date.fromisoformat(path.name)] = path
            except ValueError:
                continue  # 2026-13-45: not a date, not ours
    return found


def prune(root: Path, made: dt.date, daily: int, weekly: int) -> list[Path]:
    """Delete the dated folders `to_keep` does not keep; the folders deleted, oldest first."""
    folders = dated_folders(root)
    keep = to_keep(folders, made, daily, weekly)
    gone = [folders[day] for day in sorted(folders) if day not in keep]
    for path in gone:
        shutil.rmtree(path)
    return gone


# --- age --------------------------------------------------------------------------------------


def age_installed() -> bool:
    return shutil.which(AGE) is not None


def recipient_arguments(recipients: Sequence[str], recipients_file: str | None) -> list[str]:
    arguments = [part for key in recipients for part in ("-r", key)]
    if recipients_file:
        arguments += ["-R", recipients_file]
    return arguments


def encrypt_to(path: Path, data: bytes, recipients: list[str]) -> None:
    """`data` encrypted by age for the recipients, into `path`: the plain bytes go through
    age's standard input only."""
    done = subprocess.run(
        [AGE, *recipients, "-o", str(path)], input=data, capture_output=True, timeout=3600
    )
    if done.returncode:
        raise BackupFailed(f"age could not encrypt {path.name}: {_said(done.stderr)}")


def decrypt(path: Path, identity: str) -> bytes:
    done = subprocess.run(
        [AGE, "--decrypt", "-i", identity, str(path)], capture_output=True, timeout=3600
    )
    if done.returncode:
        raise OSError(f"age could not decrypt it with {identity}: {_said(done.stderr)}")
    return done.stdout


def _said(stderr: bytes) -> str:
    return stderr.decode(errors="replace").strip().splitlines()[-1] if stderr.strip() else "?"


# --- checking a club data file ----------------------------------------------------------------


@dataclass
class Checked:
    problems: list[str] = field(default_factory=list)
    summary: str = ""  # what the file holds, when it has no problem
    clubs: int = 0
    nights: int = 0
    hands: int = 0


def check_data(raw: bytes) -> Checked:
    """Check a club data file's bytes as an import would (its size, the format, its version's
    JSON Schema, every name and reference) and say what it holds. Writes nothing."""
    try:
        document.check_size(len(raw))
        doc = document.read(document.parse_json(raw))
    except document.ImportRefused as refused:
        return Checked([str(p) for p in refused.problems])
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
    accounts = (record.accounts or []) if record else []
    members = sum(1 for a in accounts if a.role)
    secretaries = sorted(a.username for a in accounts if a.role == "secretary")
    kind = record.kind if record else "version 1 or 2"
    unit = {
        "currency_symbol": "",
        "minor_units": 100,
        "points_label": "pts",
        **UNIT_SETTINGS[doc.club.unit],
        **doc.club.settings,
    }
    money = format_amount(SimpleNamespace(**unit), owed)
    summary = (
        f"{doc.club.name} (/c/{doc.club.slug}/), {kind}; "
        f"{len(doc.nights)} night(s), {hands} hand(s), {len(doc.players)} player(s), "
        f"{members} member(s); money owed {money} on {debts} debt(s)"
        + (f"; secretaries: {', '.join(secretaries)}" if secretaries else "")
    )
    return Checked([], summary, 1, len(doc.nights), hands)


# --- making a backup --------------------------------------------------------------------------


def make(root: Path, day: dt.date, recipients: list[str], report: list[str]) -> Path:
    """Write ROOT/<day>: every club's data file, checked, and the database's copy, encrypted
    for `recipients` (age's arguments) when there are any. Lines for the operator go to
    `report`. Raises BackupFailed (and leaves no dated folder, and no half of one)."""
    root.mkdir(parents=True, exist_ok=True)
    partial = root / f".{day.isoformat()}.partial"
    if partial.exists():
        shutil.rmtree(partial)  # a run that died before it finished
    partial.mkdir(mode=0o700)
    try:
        _write_clubs(partial, recipients, report)
        _copy_database(partial, recipients, report)
        final = root / day.isoformat()
        if final.exists():  # made again the same day: the new one replaces it
            replaced = root / f".{day.isoformat()}.replaced"
            if replaced.exists():
                shutil.rmtree(replaced)
            final.rename(replaced)
            partial.rename(final)
            shutil.rmtree(replaced)
        else:
            partial.rename(final)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return final


def _write_clubs(folder: Path, recipients: list[str], report: list[str]) -> None:
    refused = 0
    clubs = list(Club.objects.order_by("slug"))
    for club in clubs:
        raw = export_text(club, kind=BACKUP).encode()
        name = f"{club.slug}.json"
        checked = check_data(raw)
        if checked.problems:
            refused += 1
            report.append(f"REFUSED {name}: {len(checked.problems)} problem(s)")
            report.extend(f"  {problem}" for problem in checked.problems[:50])
            continue
        if recipients:
            encrypt_to(folder / (name + ENCRYPTED), raw, recipients)
            report.append(f"OK {name}{ENCRYPTED}: {checked.summary}")
        else:
            (folder / name).write_bytes(raw)
            report.append(f"OK {name}: {checked.summary}")
    if refused:
        raise BackupFailed(
            f"{refused} of {len(clubs)} club data file(s) would not restore (check_backup's "
            "check): the problems are listed above"
        )


def _copy_database(folder: Path, recipients: list[str], report: list[str]) -> None:
    vendor = connection.vendor
    settings = connection.settings_dict
    if vendor == "postgresql":
        name = "solo.dump"
        _pg_dump(settings, folder / (name + ENCRYPTED if recipients else name), recipients)
    elif vendor == "sqlite":
        name = "solo.sqlite3"
        _sqlite_copy(str(settings["NAME"]), folder, name, recipients)
    else:
        raise BackupFailed(f"No copy of a {vendor} database: PostgreSQL or SQLite only")
    report.append(f"OK {name}{ENCRYPTED if recipients else ''}: the whole database ({vendor})")


def _pg_dump(settings: dict[str, Any], path: Path, recipients: list[str]) -> None:
    env = {**os.environ}
    for variable, key in (
        ("PGHOST", "HOST"),
        ("PGPORT", "PORT"),
        ("PGUSER", "USER"),
        ("PGPASSWORD", "PASSWORD"),
    ):
        if settings.get(key):
            env[variable] = str(settings[key])
    if settings.get("OPTIONS", {}).get("sslmode"):
        env["PGSSLMODE"] = str(settings["OPTIONS"]["sslmode"])
    command = ["pg_dump", "--format=custom", "--no-password", "--dbname", str(settings["NAME"])]
    if shutil.which("pg_dump") is None:
        raise BackupFailed("pg_dump is not installed (Debian: apt-get install postgresql-client)")
    with open(os.devnull, "rb") as nothing:
        if not recipients:
            with open(path, "wb") as out:
                dumped = subprocess.run(
                    command, stdin=nothing, stdout=out, stderr=subprocess.PIPE, env=env
                )
            if dumped.returncode:
                raise BackupFailed(f"pg_dump failed: {_said(dumped.stderr)}")
            return
        dumping = subprocess.Popen(
            command, stdin=nothing, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        assert dumping.stdout is not None
        encrypting = subprocess.run(
            [AGE, *recipients, "-o", str(path)], stdin=dumping.stdout, capture_output=True
        )
        dumping.stdout.close()
        dump_errors = dumping.stderr.read() if dumping.stderr else b""
        if dumping.wait():
            raise BackupFailed(f"pg_dump failed: {_said(dump_errors)}")
        if encrypting.returncode:
            raise BackupFailed(f"age could not encrypt {path.name}: {_said(encrypting.stderr)}")


def _sqlite_copy(source: str, folder: Path, name: str, recipients: list[str]) -> None:
    if not source or source == ":memory:" or "mode=memory" in source:
        raise BackupFailed("The SQLite database is in memory: there is no file to copy")
    try:
        # mode=rw: never makes an empty file where the database is missing; the backup API
        # only reads it (read-only mode could not open a WAL database's shared memory).
        reading = sqlite3.connect(f"{Path(source).resolve().as_uri()}?mode=rw", uri=True)
        try:
            copy = sqlite3.connect(":memory:" if recipients else str(folder / name))
            try:
                reading.backup(copy)
                (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
                if verdict != "ok":
                    raise BackupFailed(f"The copy of the SQLite database is damaged: {verdict}")
                if recipients:
                    encrypt_to(folder / (name + ENCRYPTED), copy.serialize(), recipients)
            finally:
                copy.close()
        finally:
            reading.close()
    except sqlite3.Error as error:
        raise BackupFailed(f"Could not copy the SQLite database {source}: {error}") from None
