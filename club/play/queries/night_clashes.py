"""Players already seated at another open night of the club on the same day: the night set-up
page warns before seating them again (two nights made by mistake, or a player put at both)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from club.clubs.models import Club, Player
from club.play.models import Night, Seat


@dataclass(frozen=True)
class Clash:
    player: Player
    night: Night
    table_number: int


def seated_elsewhere(
    club: Club, date: dt.date, players: Iterable[Player], exclude: Night | None = None
) -> list[Clash]:
    """Each of `players` seated at an open night of the club on `date` (other than `exclude`), in
    one query."""
    ids = [p.pk for p in players]
    if not ids:
        return []
    seats = (
        Seat.objects.filter(
            player_id__in=ids,
            table__night__season__club=club,
            table__night__date=date,
            table__night__status=Night.Status.OPEN,
        )
        .select_related("player", "table__night")
        .order_by("player__name", "table__night_id", "table__number")
    )
    if exclude is not None:
        seats = seats.exclude(table__night=exclude)
    return [Clash(s.player, s.table.night, s.table.number) for s in seats]
