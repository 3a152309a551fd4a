"""Creating clubs, rule sets, seasons and nights with their tables (used by forms, seed_demo and
tests alike, so that there is one way to set things up)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.db import transaction

import scoring
from club.models import Club, Night, Player, RuleSet, Season, Seat, Table


def rule_set_from_preset(club: Club, preset: str, name: str | None = None) -> RuleSet:
    rules = scoring.preset(preset)
    return RuleSet.objects.create(
        club=club, name=name or rules.name, preset=preset, data=rules.to_dict()
    )


def create_night(
    season: Season,
    date: dt.date,
    tables: Sequence[tuple[Sequence[Player], int]],
    title: str = "",
) -> Night:
    """A night with its tables: each a list of players in seat order and the first dealer's seat."""
    with transaction.atomic():
        night = Night.objects.create(season=season, date=date, title=title)
        for number, (players, first_dealer) in enumerate(tables, start=1):
            scoring.table.check_table_size([str(p.pk) for p in players])
            table = Table.objects.create(night=night, number=number, first_dealer=first_dealer)
            Seat.objects.bulk_create(
                Seat(table=table, position=i, player=p) for i, p in enumerate(players)
            )
    return night


def delete_club(club: Club) -> None:
    """Delete a club and everything in it (demo and benchmark data; protected rows go first)."""
    from club.models import Hand, ScoreLine

    with transaction.atomic():
        ScoreLine.objects.filter(season__club=club).delete()
        Hand.objects.filter(table__night__season__club=club).delete()
        Night.objects.filter(season__club=club).delete()
        Season.objects.filter(club=club).delete()
        club.delete()
