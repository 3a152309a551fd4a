"""A club, one season or one night as the club data file.

Read with a fixed number of queries whatever the club's size (flat `values_list` reads joined in
Python), so the 100k-score-line club exports in a few seconds. Everything is written in a stable
order (players and rule sets by name, seasons by start, nights by date, tables by round and
number, hands by number, seats and amounts in seat order), so that exporting, importing into an
empty database and exporting again gives the same file apart from `exported_at`.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

import scoring
from club.clubs.models import Club, Player, RuleSet, Season
from club.interchange import BACKUP, FORMAT, SHAREABLE, VERSION
from club.interchange.format.document import without_name
from club.interchange.services.record_export import RecordExport
from club.lib.money import unit_name
from club.play.models import Hand, Night, Revoke, ScoreLine, Seat, Table
from club.tournaments.models.tournaments import Tournament


def club_unit(club: Club) -> str:
    return unit_name(club)


def rule_set_entry(rule_set: RuleSet) -> dict[str, Any]:
    rules = scoring.RuleSet.from_dict(rule_set.data)
    data = rules.to_dict()
    entry: dict[str, Any] = {"name": rule_set.name}
    preset = rule_set.preset
    if preset in scoring.PRESETS and without_name(data) == without_name(
        scoring.preset(preset).to_dict()
    ):
        entry["preset"] = preset
    entry["rules"] = data
    return entry


def export_document(
    club: Club,
    *,
    season: Season | None = None,
    nights: QuerySet[Night] | None = None,
    now: dt.datetime | None = None,
    kind: str = BACKUP,
) -> dict[str, Any]:
    """The whole club, or one season (`season`), or some nights (`nights`, of this club).

    `kind` BACKUP is the club's whole record; SHAREABLE leaves out emails, accounts, token hashes
    and the audit trail. Only a whole club is a backup: a season or a night is always shareable
    (it names no accounts)."""
    night_qs = Night.objects.filter(season__club=club)
    if season is not None:
        night_qs = night_qs.filter(season=season)
    if nights is not None:
        night_qs = night_qs.filter(pk__in=nights.values("pk"))
    night_rows = list(night_qs.values_list("pk", "season_id", "date", "title", "status"))
    night_ids = [row[0] for row in night_rows]
    whole_club = season is None and nights is None
    backup = kind == BACKUP and whole_club

    season_qs = Season.objects.filter(club=club)
    if season is not None:
        season_qs = season_qs.filter(pk=season.pk)
    elif nights is not None:
        season_qs = season_qs.filter(pk__in={row[1] for row in night_rows})
    # Sorted in Python, not by the database, whose collation differs (SQLite, PostgreSQL).
    seasons = sorted(
        season_qs.select_related("rule_set", "standings_rule_set"), key=lambda s: (s.start, s.name)
    )
    season_names = {s.pk: s.name for s in seasons}
    night_rows.sort(key=lambda row: (row[2], season_names[row[1]], row[3], row[0]))

    rule_set_qs = RuleSet.objects.filter(club=club)
    if not whole_club:
        used = {s.rule_set_id for s in seasons} | {
            s.standings_rule_set_id for s in seasons if s.standings_rule_set_id
        }
        rule_set_qs = rule_set_qs.filter(pk__in=used)
    rule_sets = sorted(rule_set_qs, key=lambda r: (r.name, r.pk))

    names = dict(Player.objects.filter(club=club).values_list("pk", "name"))
    tournament_nights = set(
        Tournament.objects.filter(night_id__in=night_ids).values_list("night_id", flat=True)
    )
    tables_by_night: dict[int, list[tuple[int, int, int, int]]] = defaultdict(list)
    for pk, night_id, round_number, number, first_dealer in (
        Table.objects.filter(night_id__in=night_ids)
        .order_by("night_id", "round_number", "number")
        .values_list("pk", "night_id", "round_number", "number", "first_dealer")
    ):
        tables_by_night[night_id].append((pk, round_number, number, first_dealer))
    seats: dict[int, list[int]] = defaultdict(list)
    for table_id, player_id in (
        Seat.objects.filter(table__night_id__in=night_ids)
        .order_by("table_id", "position")
        .values_list("table_id", "player_id")
    ):
        seats[table_id].append(player_id)
    amounts: dict[int, dict[int, int]] = defaultdict(dict)
    for hand_id, player_id, amount in ScoreLine.objects.filter(night_id__in=night_ids).values_list(
        "hand_id", "player_id", "amount"
    ):
        amounts[hand_id][player_id] = amount
    hands_by_table: dict[int, list[dict[str, Any]]] = defaultdict(list)
    hand_fields = (
        "pk",
        "table_id",
        "number",
        "dealer_id",
        "sitting_out_id",
        "contract",
        "declarer_id",
        "partner_id",
        "trump",
        "tricks",
        "last_trick_by_id",
        "notes",
        "penalty",
        "penalty_by_id",
        "turned_suit",
        "wrong_cards",
        "awaiting_confirmation",
    )
    revokes: dict[int, list[int]] = defaultdict(list)
    for hand_id, player_id in (
        Revoke.objects.filter(hand__table__night_id__in=night_ids)
        .order_by("hand_id", "position")
        .values_list("hand_id", "player_id")
    ):
        revokes[hand_id].append(player_id)
    for row in (
        Hand.objects.filter(table__night_id__in=night_ids)
        .order_by("table_id", "number")
        .values_list(*hand_fields)
    ):
        hand = dict(zip(hand_fields, row, strict=True))
        hands_by_table[hand["table_id"]].append(hand)

    record = RecordExport(
        club, night_ids, names, season_names, backup=backup, whole_club=whole_club
    )

    def name(pk: int | None) -> str | None:
        return None if pk is None else names[pk]

    def hand_entry(hand: dict[str, Any], seated: list[int]) -> dict[str, Any]:
        entry: dict[str, Any] = {"number": hand["number"], "dealer": name(hand["dealer_id"])}
        if len(seated) == 5:
            entry["sitting_out"] = name(hand["sitting_out_id"])
        lines = amounts.get(hand["pk"], {})
        entry.update(
            contract=hand["contract"],
            declarer=name(hand["declarer_id"]),
            partner=name(hand["partner_id"]),
            trump=hand["trump"] or None,
            tricks=hand["tricks"],
            revokes=[names[p] for p in revokes.get(hand["pk"], [])],
            penalty=hand["penalty"] or None,
            penalty_by=name(hand["penalty_by_id"]),
            turned_suit=hand["turned_suit"] or None,
            last_trick_by=name(hand["last_trick_by_id"]),
            notes=hand["notes"],
            amounts={names[p]: lines[p] for p in seated if p in lines},
        )
        if hand["wrong_cards"]:  # an optional key: written only for a hand that has it
            entry["wrong_cards"] = [names[p] for p in hand["wrong_cards"]]
        if hand["awaiting_confirmation"]:
            entry["awaiting_confirmation"] = True
        return entry

    night_entries = []
    seated_players: set[int] = set()
    for pk, season_id, date, title, status in night_rows:
        table_entries = []
        for table_pk, round_number, number, first_dealer in tables_by_night[pk]:
            seated = seats[table_pk]
            seated_players.update(seated)
            table: dict[str, Any] = {"number": number}
            if pk in tournament_nights:
                table["round"] = round_number
            table["seats"] = [names[p] for p in seated]
            table["first_dealer"] = names[seated[first_dealer % len(seated)]] if seated else None
            table["hands"] = [hand_entry(h, seated) for h in hands_by_table[table_pk]]
            table_entries.append(table)
        night_entries.append(
            {
                "season": season_names[season_id],
                "date": date.isoformat(),
                "title": title,
                "closed": status == Night.Status.CLOSED,
                "tables": table_entries,
                **record.night_part(pk),
            }
        )

    player_rows = sorted(
        Player.objects.filter(club=club).values_list("pk", "name", "active"),
        key=lambda row: (row[1], row[0]),
    )
    players = [
        {"name": player_name, "active": active, **record.player_part(pk)}
        for pk, player_name, active in player_rows
        if whole_club or pk in seated_players or pk in record.named_players
    ]
    moment = (now or timezone.now()).astimezone(dt.UTC).replace(microsecond=0)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": moment.isoformat().replace("+00:00", "Z"),
        "kind": BACKUP if backup else SHAREABLE,
        "club": {
            "name": club.name,
            "slug": club.slug,
            "unit": club_unit(club),
            "public": club.is_public,
            **record.club_part(),
        },
        "players": players,
        "rule_sets": [rule_set_entry(r) for r in rule_sets],
        "seasons": [
            {
                "name": s.name,
                "start": s.start.isoformat(),
                "end": s.end.isoformat(),
                "rule_set": s.rule_set.name,
                "ladder_rule_set": s.standings_rule_set.name if s.standings_rule_set else None,
                **record.season_part(s),
            }
            for s in seasons
        ],
        "nights": night_entries,
        **record.top_part(),
    }


def dumps(document: dict[str, Any]) -> str:
    """The file's text: UTF-8 JSON, one key a line, so that two exports compare line by line."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def export_text(club: Club, **kwargs: Any) -> str:
    return dumps(export_document(club, **kwargs))
