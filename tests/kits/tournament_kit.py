"""Helpers for the tournament tests: tournaments set up and played through the real services, and
the figures they should show computed independently, hand by hand, with scoring.score_hand and
scoring.tournament.table_rank_points."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from fractions import Fraction
from html.parser import HTMLParser

import scoring
from club.clubs.models import Player, Season
from club.play.models import Table
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.tournaments.models import Tournament
from club.tournaments.services import tournaments as services

DATE = dt.date(2026, 12, 5)
NAMES = [
    *("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Len", "Max"),
    *("Ned", "Olive", "Pat", "Quin", "Ros", "Sam", "Tom", "Una", "Vic", "Wyn", "Xan", "Yas"),
    *("Zoe", "Abe", "Bea", "Cal", "Dee"),
]


def field(club, n: int) -> list[Player]:
    """n of the club's players (the fixture's first nine, then more by name)."""
    found = {p.name: p for p in club.players.all()}
    out = []
    for name in NAMES[:n]:
        out.append(found.get(name) or Player.objects.create(club=club, name=name))
    return out


def make_tournament(
    season: Season,
    players: Sequence[Player],
    *,
    rounds: int = 3,
    hands: int = 2,
    method: str = "amounts",
    seed: int = 7,
    public: bool = False,
    counts: bool = True,
    name: str = "Christmas Drive",
    director=None,
) -> Tournament:
    return services.create_tournament(
        season.club,
        season=season,
        date=DATE,
        name=name,
        rounds=rounds,
        hands_per_round=hands,
        scoring_method=method,
        is_public=public,
        counts_in_standings=counts,
        players=list(players),
        seed=seed,
        director=director,
    )


def tables_of(tournament: Tournament, round_number: int) -> list[Table]:
    return list(
        Table.objects.filter(night=tournament.night, round_number=round_number)
        .prefetch_related("seats__player")
        .order_by("number")
    )


def seats_of(table: Table) -> list[Player]:
    return [s.player for s in table.seats.order_by("position")]


def round_names(tournament: Tournament, round_number: int) -> list[list[str]]:
    """The round's tables as drawn: names in seat order."""
    return [[p.name for p in seats_of(t)] for t in tables_of(tournament, round_number)]


def round_keys(tournament: Tournament, round_number: int) -> list[list[str]]:
    """The round's tables as the seating plan names players (primary keys as text)."""
    return [[str(p.pk) for p in seats_of(t)] for t in tables_of(tournament, round_number)]


def hand_spec(n: int, table: int, playing: Sequence[str]) -> dict:
    """A varied but fixed hand: the contract, declarer, partner and tricks of hand n at a table."""
    k = (n + 2 * table) % 5
    declarer = playing[(n + table) % len(playing)]
    if k == 0 and len(playing) == 4:
        partner = playing[(n + table + 1) % len(playing)]
        tricks = 6 + n % 8
        return {"contract": "prop_cop", "declarer": declarer, "partner": partner, "tricks": tricks}
    if k == 1:
        return {"contract": "misere", "declarer": declarer, "tricks": n % 2}
    if k == 2:
        return {"contract": "abundance", "declarer": declarer, "tricks": 8 + n % 3}
    return {"contract": "solo", "declarer": declarer, "tricks": 3 + (n * 3 + table) % 6}


def play_table(table: Table, user, hands: int, first: int = 1) -> dict[int, int]:
    """Enter hands first..first+hands-1 at the table through the hand service; return what each
    player (by id) should have won there, scored independently with scoring.score_hand."""
    rules = table.night.season.rule_set.rules
    seats = seats_of(table)
    by_key = {str(p.pk): p for p in seats}
    keys = [str(p.pk) for p in seats]
    totals = dict.fromkeys((p.pk for p in seats), 0)
    for n in range(first, first + hands):
        dealer = scoring.table.dealer_for(keys, table.first_dealer, n)
        playing = scoring.table.players_in_hand(keys, dealer, rules)
        spec = hand_spec(n, table.number, playing)
        result = scoring.score_hand(scoring.Hand(players=playing, **spec), rules)
        for key, amount in result.amounts.items():
            totals[int(key)] += amount
        partner = spec.get("partner")
        record_hand(
            table,
            HandEntry(
                dealer=by_key[dealer],
                contract=spec["contract"],
                declarer=by_key[spec["declarer"]],
                partner=by_key[partner] if partner else None,
                tricks=spec["tricks"],
            ),
            user,
        )
    return totals


def play_round(tournament: Tournament, user, hands: int | None = None) -> dict[int, dict]:
    """Enter the round's hands at every table; table number -> {player id: expected total}."""
    tournament.refresh_from_db()
    hands = tournament.hands_per_round if hands is None else hands
    return {
        t.number: play_table(t, user, hands)
        for t in tables_of(tournament, tournament.current_round)
    }


def expected_points(round_totals: dict[int, dict]) -> dict[int, Fraction]:
    """Each player's table-rank points for a round, from the expected per-table totals."""
    points: dict[int, Fraction] = {}
    for totals in round_totals.values():
        points.update(scoring.tournament.table_rank_points(totals))
    return points


def money(pence: int, signed: bool = True) -> str:
    sign = "-" if pence < 0 else ("+" if signed and pence > 0 else "")
    return f"{sign}£{abs(pence) // 100}.{abs(pence) % 100:02d}"


def points(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.1f}"


class BoardParser(HTMLParser):
    """The leaderboard rows of a page: player name -> the texts of the row's cells after it."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[str]] = {}
        self.places: dict[str, str] = {}
        self._in_board = False
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and "leaderboard" in (attrs.get("class") or ""):
            self._in_board = True
        elif self._in_board and tag == "tr" and (attrs.get("id") or "").startswith("board-"):
            self._row = []
        elif self._row is not None and tag in ("td", "th"):
            self._cell = []
        elif self._cell is not None and tag == "small":
            self._skip += 1

    def handle_endtag(self, tag):
        if tag == "small" and self._skip:
            self._skip -= 1
        elif tag in ("td", "th") and self._cell is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            place, name, *rest = self._row
            self.rows[name] = rest
            self.places[name] = place
            self._row = None
        elif tag == "table":
            self._in_board = False

    def handle_data(self, data):
        if self._cell is not None and not self._skip:
            self._cell.append(data)


def board_of(html: str) -> BoardParser:
    parser = BoardParser()
    parser.feed(html)
    return parser
