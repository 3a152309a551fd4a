"""Helpers for the standings, player page and club home tests: nights and hands written through the
real services (club.play.services.night_setup.create_night, club.play.services.hands.record_hand),
and the expected
figures computed independently from scoring.score_hand."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from html.parser import HTMLParser

import scoring
from club.clubs.models import Player, Season
from club.play.models import Night
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night


def night_with(season: Season, date: dt.date, *tables: Sequence[Player]) -> Night:
    """A night whose tables seat these players (the first of each deals hand 1)."""
    return create_night(season, date, [(list(t), 0) for t in tables])


def play(
    night: Night,
    user,
    declarer: Player,
    contract: str = "solo",
    tricks: int = 5,
    partner: Player | None = None,
    table: int = 1,
):
    """Record one hand at the night's table, dealt by whoever the rotation says."""
    from club.play.services.hand_entry import next_hand

    t = night.tables.get(number=table)
    dealer = next_hand(t)["dealer"]
    return record_hand(
        t,
        HandEntry(
            dealer=dealer, contract=contract, declarer=declarer, partner=partner, tricks=tricks
        ),
        user,
    )


def expected(
    rules: scoring.RuleSet,
    players: Sequence[Player],
    declarer: Player,
    contract: str = "solo",
    tricks: int = 5,
    partner: Player | None = None,
) -> dict[str, int]:
    """What scoring.score_hand says each player (by name) gets, for a table of four."""
    result = scoring.score_hand(
        scoring.Hand(
            players=tuple(p.name for p in players),
            contract=contract,
            declarer=declarer.name,
            partner=partner.name if partner else None,
            tricks=tricks,
        ),
        rules,
    )
    return result.amounts


class _TableText(HTMLParser):
    """The text of each row of the first <table> whose class includes `css`."""

    def __init__(self, css: str) -> None:
        super().__init__()
        self.css = css
        self.depth = 0  # > 0 inside the wanted table
        self.rows: list[list[str]] = []
        self.classes: list[str] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "table":
            if self.depth:
                self.depth += 1
            elif self.css in (attributes.get("class") or "").split() and not self.rows:
                self.depth = 1
        elif self.depth == 1 and tag == "tr":
            self.rows.append([])
            self.classes.append(attributes.get("class") or "")
        elif self.depth == 1 and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.depth:
            self.depth -= 1
        elif self.depth == 1 and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None and self.depth == 1:
            self.cell.append(data)


def table_text(html: bytes | str, css: str) -> tuple[list[list[str]], list[str]]:
    """(rows of cell text, each row's class) for the table with this class, header row first.
    Text inside a cell's <svg> (the trend line's <title>) is part of the cell's text."""
    parser = _TableText(css)
    parser.feed(html.decode() if isinstance(html, bytes) else html)
    return parser.rows, parser.classes
