"""Players in bulk: lines of "Name, email" (or "Name <email>", or a name alone) pasted, or a CSV
file of the two columns, read into entries; what they would change in the club (a plan); and the
change itself, in one transaction, once.

The rule for a pasted line: its last comma-separated field (tab-separated, when pasted from a
spreadsheet) is an address only if it holds an "@"; otherwise the whole line is the name, so
"Baxter, Ann" is one player called "Baxter, Ann". A name alone never removes an address, and a
player who has claimed their entry (Player.user set) keeps the address they gave.
"""

from __future__ import annotations

import csv
import datetime as dt
import enum
import io
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import EmailValidator
from django.db import transaction
from django.db.models import Q
from django.utils.crypto import salted_hmac

from club.clubs.models import AuditEvent, Club, Player
from club.lib.names import name_key, normalise_name

MAX_BYTES = 1_000_000  # a CSV file: a club's list is a few kilobytes
MAX_LINES = 2_000
NAME_LIMIT = Player._meta.get_field("name").max_length or 60
EMAIL_LIMIT = Player._meta.get_field("email").max_length or 254
HEADER_NAMES = {"name", "names", "player", "players"}
HEADER_EMAILS = {"email", "e-mail", "email address", "e-mail address", "address", "mail"}
_ANGLE = re.compile(r"^(?P<name>.*?)\s*<(?P<email>[^<>]*)>$")
_EDGES = " \t,;•*-"  # bullets and stray separators around a pasted line
_email_ok = EmailValidator()


class LinesError(Exception):
    """Lines that cannot be read; `problems` says what is wrong, each by its line number."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Entry:
    """One line read: the name as it will be stored, the address ("" when none was given)."""

    line: int
    name: str
    email: str = ""

    def as_text(self) -> str:
        """The line written back so that it reads as this entry again."""
        return f"{self.name}, {self.email}" if self.email else self.name


# Reading ---------------------------------------------------------------------------------------


def _is_header(name: str, email: str) -> bool:
    return name.strip().casefold() in HEADER_NAMES and email.strip().casefold() in HEADER_EMAILS


def _header_line(line: str) -> bool:
    parts = re.split(r"[,;\t]", line)
    return len(parts) == 2 and _is_header(*parts)


def _split(line: str) -> tuple[str, str]:
    """(name, address) of one pasted line, by the rule in this module's docstring."""
    angle = _ANGLE.match(line)
    if angle:
        return angle["name"].strip().strip("\"'").strip(_EDGES), angle["email"].strip()
    separator = "\t" if "\t" in line else ","
    head, _, last = line.rpartition(separator)
    if head and "@" in last:
        return head, last.strip()
    return line, ""


def read_paste(text: str) -> list[Entry]:
    """The entries of pasted lines; LinesError names every line that cannot be one."""
    rows: list[tuple[int, str, str]] = []
    lines = text.splitlines()
    if sum(1 for line in lines if line.strip()) > MAX_LINES:
        raise LinesError([f"At most {MAX_LINES:,} lines at a time: add the rest afterwards."])
    for number, raw in enumerate(lines, start=1):
        line = raw.strip().strip(_EDGES)
        if not line:
            continue
        if not rows and _header_line(line):
            continue  # a header row, "name, email"
        name, email = _split(line)
        rows.append((number, name, email))
    return _checked(rows)


def check_size(size: int) -> None:
    if size > MAX_BYTES:
        raise LinesError(
            [f"The file is {size:,} bytes: at most 1 MB ({MAX_BYTES:,} bytes); split it."]
        )


def decode(data: bytes) -> str:
    """A file's text: UTF-8 (with or without the byte-order mark Excel writes), else Latin-1."""
    check_size(len(data))
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    else:
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
            if "\x00" not in text:
                return text
    raise LinesError(["The file is not text: save it as CSV (UTF-8) and choose it again."])


def read_csv(data: bytes) -> list[Entry]:
    """The entries of a CSV file of two columns, name and email (a header row optional)."""
    text = decode(data)
    if "\x00" in text:
        raise LinesError(["The file is not text: save it as CSV (UTF-8) and choose it again."])
    first = text.split("\n", 1)[0]
    delimiter = ";" if ";" in first and "," not in first else ","  # Excel's, in some countries
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, str, str]] = []
    problems: list[str] = []
    number = 1
    try:
        for cells in reader:
            if reader.line_num > MAX_LINES:
                raise LinesError([f"At most {MAX_LINES:,} lines at a time: split the file."])
            cells = [c.strip() for c in cells]
            while cells and not cells[-1]:
                cells.pop()
            if cells and any(cells):
                if len(cells) > 2:
                    problems.append(
                        f"Line {number}: {len(cells)} columns; the file should have two, the "
                        "name and the email address."
                    )
                else:
                    name, email = [*cells, ""][:2]
                    if rows or problems or not _is_header(name, email):
                        rows.append((number, name.strip(_EDGES), email))
            number = reader.line_num + 1
    except csv.Error as error:
        raise LinesError([f"Line {number}: the file cannot be read as CSV ({error})."]) from None
    try:
        entries = _checked(rows)
    except LinesError as error:
        problems += error.problems
        entries = []
    if problems:
        raise LinesError(sorted(set(problems), key=_line_of))
    return entries


def _line_of(problem: str) -> int:
    found = re.match(r"Line (\d+)", problem)
    return int(found[1]) if found else 0


def _checked(rows: list[tuple[int, str, str]]) -> list[Entry]:
    """Entries from (line, name, address), every line's problems named (LinesError)."""
    problems: list[str] = []
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for number, raw_name, email in rows:
        name = normalise_name(raw_name)
        where = f"Line {number}"
        if not name:
            problems.append(f"{where}: an address with no name: write it as Name, {email}.")
            continue
        if "@" in name or "<" in name or ">" in name:
            problems.append(
                f"{where}: {name[:80]} is not a name: write Name, email (the address last) or "
                "Name <email>."
            )
            continue
        if len(name) > NAME_LIMIT:
            problems.append(
                f"{where}: {name[:30]}... is {len(name)} characters long: a name has at most "
                f"{NAME_LIMIT}."
            )
            continue
        if email:
            try:
                if len(email) > EMAIL_LIMIT:
                    raise ValidationError("too long")
                _email_ok(email)
            except ValidationError:
                problems.append(f"{where}: {email[:80]} is not an email address.")
                continue
        key = name_key(name)
        if key in seen:
            problems.append(f"{where}: {name} is on line {seen[key]} already.")
            continue
        seen[key] = number
        entries.append(Entry(number, name, email))
    if problems:
        raise LinesError(problems)
    if not entries:
        raise LinesError(["Give at least one name, one a line."])
    return entries


def as_text(entries: Iterable[Entry]) -> str:
    return "\n".join(e.as_text() for e in entries)


def digest(club: Club, entries: Iterable[Entry]) -> str:
    """What a preview's confirm carries to prove its content: the club's entries, signed."""
    content = json.dumps([club.pk, [[e.name, e.email] for e in entries]], ensure_ascii=False)
    return salted_hmac("club.player_lines", content, algorithm="sha256").hexdigest()


# Planning --------------------------------------------------------------------------------------


class Kind(enum.StrEnum):
    NEW = "new player"
    ADDED = "address added"
    CHANGED = "address changed"
    UNCHANGED = "unchanged"
    KEPT = "claimed: address kept"


@dataclass
class Step:
    entry: Entry
    kind: Kind
    player: Player | None = None  # None for a new one until it is saved
    old_email: str = ""
    back: bool = False  # an inactive player made active again

    @property
    def changes(self) -> bool:
        return self.back or self.kind in (Kind.NEW, Kind.ADDED, Kind.CHANGED)

    @property
    def name(self) -> str:
        """The player's name as the club has it ("Ann Baxter" for a line "ann baxter")."""
        return self.player.name if self.player is not None else self.entry.name

    @property
    def kept(self) -> bool:
        return self.kind is Kind.KEPT

    @property
    def note(self) -> str:
        """What the line does, said by its number where it is not what the paste asks."""
        if self.kind is Kind.KEPT:
            return (
                f"Line {self.entry.line}: {self.name} has claimed their entry and keeps the "
                "address they gave; the pasted one is left."
            )
        return ""


@dataclass
class Plan:
    steps: list[Step] = field(default_factory=list)

    def of(self, kind: Kind) -> list[Step]:
        return [s for s in self.steps if s.kind is kind]

    @property
    def changes(self) -> list[Step]:
        return [s for s in self.steps if s.changes]

    # For the preview's lists.
    @property
    def of_new(self) -> list[Step]:
        return self.of(Kind.NEW)

    @property
    def of_added(self) -> list[Step]:
        return self.of(Kind.ADDED)

    @property
    def of_changed(self) -> list[Step]:
        return self.of(Kind.CHANGED)

    @property
    def of_unchanged(self) -> list[Step]:
        return [s for s in self.steps if s.kind in (Kind.UNCHANGED, Kind.KEPT)]

    @property
    def brought_back(self) -> list[Step]:
        return [s for s in self.steps if s.back]

    @property
    def notes(self) -> list[str]:
        return [s.note for s in self.steps if s.note]

    def summary(self) -> str:
        """ "3 new players, 2 addresses added, 1 address changed" (or "nothing to change")."""
        parts = []
        for kind, one, many in (
            (Kind.NEW, "new player", "new players"),
            (Kind.ADDED, "address added", "addresses added"),
            (Kind.CHANGED, "address changed", "addresses changed"),
        ):
            n = len(self.of(kind))
            if n:
                parts.append(f"{n} {one if n == 1 else many}")
        if self.brought_back:
            parts.append(f"{len(self.brought_back)} brought back from inactive")
        return ", ".join(parts) or "nothing to change"


def plan(club: Club, entries: list[Entry]) -> Plan:
    """What the entries would change in the club: one query, whatever their number."""
    keys = {name_key(e.name) for e in entries}
    existing: dict[str, Player] = {}
    rows = club.players.filter(Q(name_key__in=keys) | Q(name_key__isnull=True)).order_by("pk")
    for row in rows:
        existing.setdefault(row.name_key or name_key(row.name), row)
    steps = []
    for entry in entries:
        player = existing.get(name_key(entry.name))
        if player is None:
            steps.append(Step(entry, Kind.NEW))
            continue
        same = not entry.email or entry.email.casefold() == player.email.casefold()
        if same:
            kind = Kind.UNCHANGED
        elif player.user_id is not None:
            kind = Kind.KEPT
        else:
            kind = Kind.CHANGED if player.email else Kind.ADDED
        steps.append(Step(entry, kind, player, player.email, back=not player.active))
    return Plan(steps)


# Applying --------------------------------------------------------------------------------------


def _audited(todo: Plan, signed: str) -> dict[str, str]:
    """The event's record: the names by what happened to them (as the audit page shows them),
    and the lines' digest, by which a resend is recognised."""
    groups = {
        "new": todo.of(Kind.NEW),
        "address added": todo.of(Kind.ADDED),
        "address changed": todo.of(Kind.CHANGED),
        "address kept (claimed)": todo.of(Kind.KEPT),
        "brought back": todo.brought_back,
    }
    record = {key: "; ".join(s.name for s in steps) for key, steps in groups.items() if steps}
    return {**record, "digest": signed}


@dataclass
class Applied:
    plan: Plan
    players: list[Player]  # every line's player, in the lines' order
    saved_before: dt.datetime | None = None  # these very lines were saved then: nothing twice


def apply(club: Club, entries: list[Entry], user: User | None, signed: str) -> Applied:
    """The entries' changes, all or none, with one audit event. Idempotent: the plan is made
    again under the club's lock, so a resend or a second tab finds nothing left to do, and is
    told when these very lines (by their digest) were saved before."""
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).values_list("pk").first()
        todo = plan(club, entries)
        if not todo.changes:
            earlier = (
                AuditEvent.objects.filter(club=club, after__digest=signed)
                .order_by("-at")
                .values_list("at", flat=True)
                .first()
            )
            return Applied(todo, [s.player for s in todo.steps if s.player], earlier)
        new = [s for s in todo.steps if s.kind is Kind.NEW]
        Player.objects.bulk_create(
            Player(
                club=club, name=s.entry.name, name_key=name_key(s.entry.name), email=s.entry.email
            )
            for s in new
        )
        made = {
            p.name_key: p
            for p in club.players.filter(name_key__in=[name_key(s.entry.name) for s in new])
        }
        changed: list[Player] = []
        for step in todo.steps:
            if step.kind is Kind.NEW:
                step.player = made[name_key(step.entry.name)]
                continue
            assert step.player is not None
            if step.kind in (Kind.ADDED, Kind.CHANGED):
                step.player.email = step.entry.email
            step.player.active = True
            if step.changes:
                changed.append(step.player)
        Player.objects.bulk_update(changed, ["email", "active"])
        AuditEvent.objects.create(
            club=club,
            user=user,
            action=AuditEvent.Action.CREATE if new else AuditEvent.Action.UPDATE,
            subject=f"Players added in bulk: {todo.summary()}"[:120],
            after=_audited(todo, signed),
        )
        return Applied(todo, [s.player for s in todo.steps if s.player])
