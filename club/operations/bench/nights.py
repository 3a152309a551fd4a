"""A benchmark's club night, built once and reused by later runs: tables of four of numbered
players, each with its hands entered through the hand service (random but plausible hands)."""

from __future__ import annotations

import datetime as dt
import random

from django.db import connection

from club.clubs.models import Club, Player, Season
from club.clubs.services.setup import rule_set_from_preset
from club.demo.services import demo
from club.play.models import Hand, HandTombstone, Night, ScoreLine, Seat, Table
from club.play.services.hand_entry import next_hand
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night


def played_night(
    slug: str, name: str, title: str, day: dt.date, tables: int, hands: int, seed: int
) -> Night:
    """The club `slug`'s night called `title`, made with `tables` tables of `hands` hands each
    the first time (Hoyle stakes, a season of 2026)."""
    club, _ = Club.objects.get_or_create(slug=slug, defaults={"name": name})
    night = Night.objects.filter(season__club=club, title=title).first()
    if night is not None:
        return night
    rules = club.rule_sets.first() or rule_set_from_preset(club, "hoyle", "Hoyle")
    season = club.seasons.first() or Season.objects.create(
        club=club,
        name="Bench",
        start=dt.date(2026, 1, 1),
        end=dt.date(2026, 12, 31),
        rule_set=rules,
    )
    players = [
        Player.objects.get_or_create(club=club, name=f"Player {n:02d}")[0]
        for n in range(tables * 4)
    ]
    seating = [(players[i * 4 : i * 4 + 4], 0) for i in range(tables)]
    night = create_night(season, day, seating, title=title)
    rng = random.Random(seed)
    for table in night.tables.all():
        seats = [s.player for s in table.seats.select_related("player")]
        for _ in range(hands):
            upcoming = next_hand(table)
            playing = [p for p in seats if p != upcoming["sitting_out"]]
            entry = demo.random_entry(rng, upcoming["dealer"], playing, rules.rules)
            record_hand(table, entry, None)
    return night


def fresh_statistics() -> None:
    """Bring PostgreSQL's statistics of the tables a save reads up to date, as autovacuum keeps
    them on a server. Without them (a database just filled, or a PostgreSQL run with autovacuum
    off, as on some test machines) the planner guesses, and summed a table's totals by reading
    every score line of the database: 9 ms a save instead of 0.3."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in (Hand, ScoreLine, HandTombstone, Table, Seat, Night):
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")
