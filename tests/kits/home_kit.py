"""Builders for a person's home across clubs (tests/players/): a club with its players, a season
and nights of random hands written through the real hand service, its grades caught up; and a
player record claimed by an account."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence

from django.contrib.auth.models import User

from club.clubs.models import Club, Player, Season
from club.clubs.services.setup import rule_set_from_preset
from club.demo.services.demo import random_entry
from club.grades.services import grades
from club.play.services.hand_entry import next_hand
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night


def club_with_hands(
    name: str,
    slug: str,
    names: Sequence[str],
    *,
    nights: int = 2,
    hands: int = 8,
    seed: int = 1,
    first: dt.date = dt.date(2026, 10, 1),
    every: int = 7,
) -> Club:
    """A club whose first four players (`names`) meet at one table on `nights` nights, `every`
    days apart from `first`, playing `hands` random hands a night; its grades rebuilt."""
    club = Club.objects.create(name=name, slug=slug)
    rules = rule_set_from_preset(club, "hoyle", "Hoyle")
    season = Season.objects.create(
        club=club,
        name="Season",
        start=first - dt.timedelta(days=1),
        end=first + dt.timedelta(days=every * nights + 1),
        rule_set=rules,
    )
    players = [Player.objects.create(club=club, name=n) for n in names]
    rng = random.Random(seed)
    for n in range(nights):
        night = create_night(season, first + dt.timedelta(days=every * n), [(players[:4], 0)])
        table = night.tables.get()
        for _ in range(hands):
            defaults = next_hand(table)
            entry = random_entry(rng, defaults["dealer"], players[:4], rules.rules)
            record_hand(table, entry, None)
    grades.rebuild(club)
    return club


def claim(user: User, club: Club, name: str) -> Player:
    """The club's player of this name, claimed by the account (as the claim link leaves it)."""
    player = Player.objects.get(club=club, name=name)
    player.user = user
    player.save(update_fields=["user"])
    return player
