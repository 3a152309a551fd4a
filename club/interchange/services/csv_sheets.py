"""Paper score sheets typed into a spreadsheet: one row a hand, saved as CSV.

The rows become a club data file (club.interchange.format.document) for the club they are imported
into,
then go through the same checks and the same import as any other file; problems name the
spreadsheet's row (the header is row 1). Columns, in any order (headers ignore case, spaces and
underscores; the optional ones may be left out):

    date        2026-11-20 (or 20/11/2026)
    title       optional: the night's title, when a date has two nights
    season      optional: the season's name; left out, the club's season whose dates contain it
    table       the table's number
    seats       the players in clockwise order, separated by ";" (the first row of a table; later
                rows may leave it empty)
    dealer      optional: left out, the deal passes to the left from the table's first row
    contract    prop_cop, solo, misere, abundance, royal_abundance, open_misere,
                abundance_declared, or their names ("Prop & Cop", "Misère Ouverte", "Slam"...),
                or "all passed"
    declarer, partner, trump, tricks, revoke (who revoked), last trick (general misère)
    amounts     optional: what each player won (+) or paid (-), in seat order separated by ";"
                (empty for whoever sat out), or "Name: amount; ..."; checked against the app's
    notes       optional
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import unicodedata
from typing import Any

import scoring
from club.clubs.models import Club
from club.interchange import FORMAT, VERSION
from club.interchange.format.document import Document, ImportRefused, Problem, check_size, read
from club.interchange.services.export import club_unit
from club.interchange.services.importer import existing_for
from club.lib import csv_safety

COLUMNS = (
    "date",
    "title",
    "season",
    "table",
    "seats",
    "dealer",
    "contract",
    "declarer",
    "partner",
    "trump",
    "tricks",
    "revoke",
    "last_trick",
    "amounts",
    "notes",
    "penalty",
    "penalty_by",
    "turned_suit",
)
REQUIRED = ("date", "table", "contract")
ALIASES = {
    "revoke_by": "revoke",
    "revokes": "revoke",
    "last_trick_by": "last_trick",
    "table_number": "table",
    "turned": "turned_suit",
}
ALL_PASSED_WORDS = {"allpassed", "passed", "pass", "redeal", "goulash", "generalmisere"}
MISDEAL_WORDS = {"misdeal", "wronglydealt", "cardswronglydealt"}
PENALTY_WORDS = {
    "exposedcard": "exposed_card", "exposed": "exposed_card",
    "leadoutofturn": "lead_out_of_turn", "ledoutofturn": "lead_out_of_turn",
    "playedoutofturn": "played_out_of_turn", "playoutofturn": "played_out_of_turn",
}  # fmt: skip
TRUMP_WORDS = {
    "h": "hearts", "hearts": "hearts", "♥": "hearts",
    "c": "clubs", "clubs": "clubs", "♣": "clubs",
    "d": "diamonds", "diamonds": "diamonds", "♦": "diamonds",
    "s": "spades", "spades": "spades", "♠": "spades",
    "nt": "no_trumps", "notrumps": "no_trumps", "notrump": "no_trumps",
}  # fmt: skip

TEMPLATE_ROWS = [
    ["2026-11-20", "", "", "1", "Ann Baxter; Bob Mortimer; Cat O'Neill; Dan Whitaker", "Ann Baxter",
     "solo", "Bob Mortimer", "", "", "5", "", "", "-6; 18; -6; -6", ""],
    ["2026-11-20", "", "", "1", "", "", "prop_cop", "Cat O'Neill", "Ann Baxter", "", "9", "", "",
     "7; -7; 7; -7", ""],
    ["2026-11-20", "", "", "1", "", "", "misere", "Dan Whitaker", "", "", "0", "", "", "", ""],
    ["2026-11-20", "", "", "1", "", "", "all passed", "", "", "", "", "", "", "", "redeal"],
]  # fmt: skip


def template() -> str:
    """The CSV template a secretary downloads: the header and an example table."""
    out = io.StringIO()
    writer = csv_safety.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    writer.writerows(TEMPLATE_ROWS)
    return out.getvalue()


def _header(name: str) -> str:
    key = re.sub(r"[\s\-]+", "_", name.strip().lower().lstrip("\ufeff"))
    return ALIASES.get(key, key)


def _plain(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in ascii_text.lower() if ch.isalnum())


def _date(text: str) -> dt.date:
    text = text.strip()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        pass
    try:
        return dt.datetime.strptime(text, "%d/%m/%Y").date()
    except ValueError:
        raise ValueError(
            f"'date' {text!r} is not a date (write 2026-11-20 or 20/11/2026)"
        ) from None


def _contract(text: str) -> str:
    if _plain(text) in ALL_PASSED_WORDS:
        return scoring.ALL_PASSED
    if _plain(text) in MISDEAL_WORDS:
        return scoring.MISDEAL
    try:
        return scoring.Contract.parse(text).value
    except ValueError:
        raise ValueError(f"'contract' {text!r} is not a Solo Whist contract") from None


def _trump(text: str) -> str | None:
    if not text.strip():
        return None
    key = text.strip().lower()
    found = TRUMP_WORDS.get(key) or TRUMP_WORDS.get(_plain(text))
    if found is None:
        raise ValueError(f"'trump' {text!r} is not a suit or no trumps")
    return found


def _amounts(text: str, seats: list[str]) -> dict[str, Any] | None:
    if not text.strip():
        return None
    parts = [p.strip() for p in text.split(";")]
    amounts: dict[str, Any] = {}
    if any(":" in p for p in parts):
        for part in parts:
            if not part:
                continue
            name, _, value = part.rpartition(":")
            amounts[name.strip()] = _number(value, f"the amount for {name.strip()}")
        return amounts
    if len(parts) != len(seats):
        raise ValueError(
            f"'amounts' gives {len(parts)} figures for {len(seats)} seats: one per seat, "
            "in seat order, empty for whoever sat out"
        )
    for name, part in zip(seats, parts, strict=True):
        if part:
            amounts[name] = _number(part, f"the amount for {name}")
    return amounts


def _number(text: str, what: str) -> int:
    text = text.strip().replace("\u2212", "-")
    if not re.fullmatch(r"[+-]?\d+", text):
        raise ValueError(f"{what} {text!r} is not a whole number")
    return int(text)


def read_csv(raw: bytes | str, club: Club) -> Document:
    """The sheet as a checked document for `club`, or ImportRefused naming each row's problem."""
    check_size(len(raw))
    if isinstance(raw, bytes):
        data = raw
        try:
            raw = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raw = data.decode("cp1252", errors="replace")  # a spreadsheet saved as "CSV" on Windows
    try:
        rows = list(csv.reader(io.StringIO(raw)))
    except csv.Error as error:  # a cell beyond the csv module's limit, and the like
        raise ImportRefused([f"This is not a paper sheet the app can read: {error}."]) from None
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise ImportRefused(["The sheet is empty: the first row names the columns."])
    header = [_header(h) for h in rows[0]]
    unknown = [h for h in header if h and h not in COLUMNS]
    missing = [c for c in REQUIRED if c not in header]
    problems: list[Problem] = []
    if unknown:
        columns = ", ".join(COLUMNS)
        problems.append(
            Problem("row 1", f"unknown column(s) {', '.join(unknown)}: the columns are {columns}")
        )
    if missing:
        problems.append(Problem("row 1", f"the column(s) {', '.join(missing)} are missing"))
    if problems:
        raise ImportRefused(problems)

    nights: dict[tuple[dt.date, str, str], dict[str, Any]] = {}
    row_map: dict[tuple[int, ...], int] = {}
    names: dict[str, str] = {}
    for number, cells in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in cells):
            continue
        row = {
            h: (csv_safety.read_cell(cells[i].strip()) if i < len(cells) else "")
            for i, h in enumerate(header)
            if h
        }
        where = f"row {number}"
        try:
            date = _date(row.get("date", ""))
            title = row.get("title", "")
            season = row.get("season", "")
            key = (date, title, season)
            if key not in nights:
                nights[key] = {"date": date, "title": title, "season": season, "tables": {}}
                row_map[(len(nights) - 1,)] = number
            night_index = list(nights).index(key)
            night = nights[key]
            table_number = _number(row.get("table", ""), "'table'")
            seats = [s.strip() for s in row.get("seats", "").split(";") if s.strip()]
            table = night["tables"].get(table_number)
            if table is None:
                if not seats:
                    raise ValueError(f"'seats' is empty on the first row of table {table_number}")
                table = {"number": table_number, "seats": seats, "hands": [], "row": number}
                night["tables"][table_number] = table
                if row.get("dealer"):
                    table["first_dealer"] = row["dealer"]
                row_map[(night_index, list(night["tables"]).index(table_number))] = number
            elif seats and [s.casefold() for s in seats] != [s.casefold() for s in table["seats"]]:
                raise ValueError(
                    f"'seats' differ from row {table['row']}'s for table {table_number}: "
                    "start another table or night for a change of seats"
                )
            for name in table["seats"]:
                names.setdefault(name.casefold(), name)
            hand: dict[str, Any] = {
                "number": len(table["hands"]) + 1,
                "contract": _contract(row.get("contract", "")),
            }
            for column, key_name in (
                ("dealer", "dealer"),
                ("declarer", "declarer"),
                ("partner", "partner"),
                ("penalty_by", "penalty_by"),
                ("last_trick", "last_trick_by"),
            ):
                if row.get(column):
                    hand[key_name] = row[column]
            if row.get("revoke"):
                # Several revokes in one hand: the names separated by ";", in the order found.
                revokes = [n.strip() for n in row["revoke"].split(";") if n.strip()]
                if len(revokes) == 1:
                    hand["revoke_by"] = revokes[0]
                else:
                    hand["revokes"] = revokes
            if row.get("penalty"):
                penalty = PENALTY_WORDS.get(_plain(row["penalty"]))
                if penalty is None:
                    raise ValueError(
                        f"'penalty' {row['penalty']!r} is not an exposed card, a lead out of "
                        "turn or a card played out of turn"
                    )
                hand["penalty"] = penalty
            if row.get("turned_suit"):
                hand["turned_suit"] = _trump(row["turned_suit"])
            hand["trump"] = _trump(row.get("trump", ""))
            if row.get("tricks"):
                hand["tricks"] = _number(row["tricks"], "'tricks'")
            if row.get("notes"):
                hand["notes"] = row["notes"]
            amounts = _amounts(row.get("amounts", ""), table["seats"])
            if amounts is not None:
                hand["amounts"] = amounts
            table_index = list(night["tables"]).index(table_number)
            row_map[(night_index, table_index, len(table["hands"]))] = number
            table["hands"].append(hand)
        except ValueError as error:
            problems.append(Problem(where, str(error)))
    if problems:
        raise ImportRefused(problems)
    if not nights:
        raise ImportRefused(["The sheet has no hands: one row a hand, below the column names."])

    existing = existing_for(club)
    seasons = dict(existing.seasons)
    document_nights = []
    for night_index, night in enumerate(nights.values()):
        season = night["season"]
        if not season:
            containing = sorted(n for n, (s, e) in seasons.items() if s <= night["date"] <= e)
            if len(containing) != 1:
                first_row = row_map[(night_index,)]
                problems.append(
                    Problem(
                        f"row {first_row}",
                        f"no season of {club.name} runs on {night['date']}: add the season first"
                        if not containing
                        else f"{len(containing)} seasons run on {night['date']} "
                        f"({', '.join(containing)}): name one in a 'season' column",
                    )
                )
                continue
            season = containing[0]
        document_nights.append(
            {
                "season": season,
                "date": night["date"].isoformat(),
                "title": night["title"],
                "closed": True,  # a paper sheet is a night that is over
                "tables": [
                    {k: v for k, v in table.items() if k != "row"}
                    for table in night["tables"].values()
                ],
            }
        )
    if problems:
        raise ImportRefused(problems)
    document = {
        "format": FORMAT,
        "version": VERSION,
        "club": {"name": club.name, "slug": club.slug, "unit": club_unit(club)},
        "players": [{"name": name} for key, name in names.items() if key not in existing.players],
        "nights": document_nights,
    }
    return read(document, existing, row_map)
