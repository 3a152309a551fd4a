"""Helpers for the club data file tests: a club that has every kind of record, built through the
real services, and the figures a restore must give back (read from the database, by name)."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict
from typing import Any

import jsonschema

import scoring
from club.clubs.models import Club, Player, Season
from club.clubs.services.clubs_lifecycle import delete_club
from club.clubs.services.setup import create_rule_set, rule_set_from_preset
from club.grades.queries.standings import ladder
from club.interchange import SCHEMA_PATHS
from club.interchange.format.document import read
from club.interchange.services.export import export_text
from club.interchange.services.importer import import_document
from club.play.models import Hand, Night, NightTotal, ScoreLine
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night
from club.tournaments.services import tournaments as tournament_services

VALIDATORS = {
    version: jsonschema.Draft202012Validator(
        json.loads(path.read_text()),
        format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER,
    )
    for version, path in SCHEMA_PATHS.items()
}


def check_schema(document: dict[str, Any]) -> None:
    """The document against the schema of its own version."""
    validator = VALIDATORS[document["version"]]
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]


def without_moment(text: str) -> dict[str, Any]:
    document = json.loads(text)
    document.pop("exported_at")
    return document


def round_trip(club: Club, user=None) -> tuple[str, str, Club]:
    """Export the club, delete it, import the file into the emptied database, export again."""
    first = export_text(club)
    check_schema(json.loads(first))
    slug = club.slug
    delete_club(club)
    assert not Club.objects.filter(slug=slug).exists()
    restored, _ = import_document(read(first), user=user, source="test.json")
    second = export_text(restored)
    check_schema(json.loads(second))
    return first, second, restored


def figures(club: Club) -> dict[str, Any]:
    """Every figure a member reads, keyed by names and dates (never ids): each hand's result and
    score lines, each night's totals, and each season's standings."""
    names = dict(Player.objects.filter(club=club).values_list("pk", "name"))
    hands = {}
    for hand in Hand.objects.filter(table__night__season__club=club).select_related("table__night"):
        night = hand.table.night
        key = (
            str(night.date),
            night.title,
            hand.table.round_number,
            hand.table.number,
            hand.number,
        )
        hands[str(key)] = (
            hand.contract,
            hand.made,
            hand.over_tricks,
            hand.under_tricks,
            hand.trump,
        )
    lines = sorted(
        (
            str(line.night.date),
            line.night.title,
            line.hand.table.number,
            line.hand.number,
            names[line.player_id],
            line.amount,
            line.points,
            line.declared,
            line.declared_made,
            line.contract,
            line.made,
            names.get(line.mate_id),
        )
        for line in ScoreLine.objects.filter(season__club=club).select_related(
            "night", "hand__table"
        )
    )
    totals = sorted(
        (
            str(t.night.date),
            t.night.title,
            names[t.player_id],
            t.hands,
            t.net,
            t.points,
            t.declared,
            t.made,
        )
        for t in NightTotal.objects.filter(season__club=club).select_related("night")
    )
    standings = {}
    for season in Season.objects.filter(club=club):
        rows = []
        for row in ladder(season).rows:
            data = asdict(row)
            data.pop("player_id")
            rows.append(data)
        standings[season.name] = rows
    nights = sorted(
        (str(n.date), n.title, n.status, n.season.name)
        for n in Night.objects.filter(season__club=club).select_related("season")
    )
    return {
        "hands": hands,
        "lines": lines,
        "totals": totals,
        "standings": standings,
        "nights": nights,
    }


def _entry(by: dict[str, Player], dealer: str, contract: str, **kw: Any) -> HandEntry:
    def p(name: str | None) -> Player | None:
        return None if name is None else by[name]

    return HandEntry(
        dealer=by[dealer],
        contract=contract,
        declarer=p(kw.get("declarer")),
        partner=p(kw.get("partner")),
        tricks=kw.get("tricks"),
        revoke_by=p(kw.get("revoke_by")),
        last_trick_by=p(kw.get("last_trick_by")),
        trump=kw.get("trump", ""),
        notes=kw.get("notes", ""),
    )


def play(table, user, hands: list[dict[str, Any]]) -> None:
    """Record hands at a table through the hand service; the dealer passes to the left."""
    seats = [s.player for s in table.seats.order_by("position")]
    by = {p.name: p for p in seats}
    for n, spec in enumerate(hands):
        dealer = seats[(table.first_dealer + n) % len(seats)].name
        record_hand(table, _entry(by, dealer, **spec), user)


EVERY_CONTRACT_4 = [
    {"contract": "prop_cop", "declarer": "Ann", "partner": "Cat", "tricks": 9},
    {"contract": "prop_cop", "declarer": "Bob", "partner": "Dan", "tricks": 13},
    {"contract": "prop_cop", "declarer": "Ann", "partner": "Bob", "tricks": 6},
    {"contract": "solo", "declarer": "Dan", "tricks": 5},
    {"contract": "solo", "declarer": "Cat", "tricks": 3, "notes": "Cat's bad luck"},
    {"contract": "misere", "declarer": "Ann", "tricks": 0},
    {"contract": "misere", "declarer": "Bob", "tricks": 2},
    {"contract": "abundance", "declarer": "Cat", "tricks": 10, "trump": "spades"},
    {"contract": "abundance", "declarer": "Dan", "tricks": 8, "trump": "hearts"},
    {"contract": "royal_abundance", "declarer": "Ann", "tricks": 9},
    {"contract": "open_misere", "declarer": "Bob", "tricks": 0},
    {"contract": "abundance_declared", "declarer": "Cat", "tricks": 13, "trump": "clubs"},
    {"contract": "abundance_declared", "declarer": "Dan", "tricks": 12},
    # Revokes: by the declarer, by a defender, against a misère, by a Prop & Cop partner.
    {"contract": "solo", "declarer": "Ann", "tricks": 7, "revoke_by": "Ann"},
    {"contract": "solo", "declarer": "Bob", "tricks": 4, "revoke_by": "Dan"},
    {"contract": "misere", "declarer": "Cat", "tricks": 1, "revoke_by": "Ann"},
    {"contract": "prop_cop", "declarer": "Dan", "partner": "Ann", "tricks": 9, "revoke_by": "Ann"},
    {"contract": "all_passed"},
]
TABLE_5 = [
    {"contract": "solo", "declarer": "Eve", "tricks": 6},
    {"contract": "prop_cop", "declarer": "Hal", "partner": "Ivy", "tricks": 8},
    {"contract": "misere", "declarer": "Ivy", "tricks": 0},
    {"contract": "abundance", "declarer": "Fay", "tricks": 9, "trump": "diamonds"},
    {"contract": "all_passed"},
    {"contract": "solo", "declarer": "Gus", "tricks": 4, "revoke_by": "Gus"},
]
TABLE_3 = [
    {"contract": "solo", "declarer": "Ann", "tricks": 6},
    {"contract": "misere", "declarer": "Bob", "tricks": 0},
    {"contract": "abundance", "declarer": "Cat", "tricks": 9, "trump": "hearts"},
    {"contract": "open_misere", "declarer": "Ann", "tricks": 1},
    {"contract": "all_passed"},
]


def rich_club(club: Club, players: list[Player], user) -> Club:
    """Every contract, revokes, tables of 3, 4 and 5, all-passed hands under each all-passed rule
    (redeal, goulash, general misère), custom rule sets, a ladder rule set, an inactive player, a
    closed night, two nights on one date and a tournament night."""
    hoyle = rule_set_from_preset(club, "hoyle", "Hoyle sixpences")
    ladder_rules = rule_set_from_preset(club, "anna-cubed", "Anna Cubed points")
    house = create_rule_set(
        club,
        "House stakes",
        scoring.preset("hoyle")
        .with_stake("solo", base=10, over=2)
        .copy(
            all_passed=scoring.AllPassed.GENERAL_MISERE,
            general_misere_stake=5,
            sit_out=scoring.SitOut.DEALER,
            revoke_tricks=2,
        ),
    )
    goulash = create_rule_set(
        club, "Goulash points", scoring.preset("anna-cubed").copy(source="our own")
    )
    create_rule_set(club, "Unused", scoring.preset("standard").copy(stake_unit=5))
    winter = Season.objects.create(
        club=club, name="Winter 2026", start=dt.date(2026, 9, 1), end=dt.date(2027, 3, 31),
        rule_set=hoyle, standings_rule_set=ladder_rules,
    )  # fmt: skip
    summer = Season.objects.create(
        club=club, name="Summer 2027", start=dt.date(2027, 4, 1), end=dt.date(2027, 8, 31),
        rule_set=house,
    )  # fmt: skip
    points = Season.objects.create(
        club=club, name="Points 2027", start=dt.date(2027, 9, 1), end=dt.date(2028, 3, 31),
        rule_set=goulash,
    )  # fmt: skip
    a4, a5 = players[:4], players[4:9]
    night = create_night(winter, dt.date(2026, 11, 20), [(a4, 0), (a5, 2)], user=user)
    play(night.tables.get(number=1), user, EVERY_CONTRACT_4)
    play(night.tables.get(number=2), user, TABLE_5)
    close_night(night, user)
    second = create_night(
        winter, dt.date(2026, 11, 20), [(players[:3], 1)], title="Late table", user=user
    )
    play(second.tables.get(), user, TABLE_3)
    summer_night = create_night(summer, dt.date(2027, 5, 4), [(a4, 1), (a5, 0)], user=user)
    play(
        summer_night.tables.get(number=1),
        user,
        [
            {"contract": "all_passed", "last_trick_by": "Cat"},
            {"contract": "solo", "declarer": "Bob", "tricks": 7},
            {"contract": "solo", "declarer": "Cat", "tricks": 4, "revoke_by": "Cat"},
        ],
    )
    play(
        summer_night.tables.get(number=2),
        user,
        [
            {"contract": "all_passed", "last_trick_by": "Fay"},
            {"contract": "misere", "declarer": "Eve", "tricks": 0},
        ],
    )
    points_night = create_night(points, dt.date(2027, 10, 2), [(a4, 0)], user=user)
    play(
        points_night.tables.get(),
        user,
        [
            {"contract": "all_passed"},
            {"contract": "solo", "declarer": "Ann", "tricks": 6},
            {"contract": "prop_cop", "declarer": "Bob", "partner": "Cat", "tricks": 7},
        ],
    )
    tournament = tournament_services.create_tournament(
        club, season=winter, date=dt.date(2026, 12, 5), name="Christmas Drive", rounds=2,
        hands_per_round=2, scoring_method="amounts", is_public=False, counts_in_standings=True,
        players=list(players[:8]), seed=3, director=user,
    )  # fmt: skip
    tournament_services.start(tournament, user)
    for _ in range(2):
        tournament.refresh_from_db()
        for table in tournament.night.tables.filter(round_number=tournament.current_round):
            seats = [s.player.name for s in table.seats.order_by("position")]
            play(
                table,
                user,
                [
                    {"contract": "solo", "declarer": seats[1], "tricks": 5},
                    {
                        "contract": "prop_cop",
                        "declarer": seats[0],
                        "partner": seats[2],
                        "tricks": 8,
                    },
                ],
            )
        tournament_services.close_round(tournament, user)
    players[8].active = False
    players[8].save()
    return club
