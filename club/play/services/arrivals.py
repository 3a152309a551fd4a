"""Who is here: ticking players in and out for a club night's date (by a secretary, or by the
player at the door), and adding a new name as they arrive. The door QR code's token lives with
the other tokens, in club.play.services.tokens."""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction
from django.db.models import F, OuterRef, Subquery

from club.clubs.models import Club, Player
from club.clubs.services.setup import SetupError, add_players
from club.play.models import Arrival, Seat


def today(club: Club) -> dt.date:
    """The club's date: at 23:30 in Auckland the door ticks players in for Auckland's evening."""
    return club.today()


def tick_in(
    club: Club, player: Player, date: dt.date | None = None, via: str = Arrival.Via.SECRETARY
) -> tuple[Arrival, bool]:
    """The player has arrived (idempotent): (their arrival, whether it is new)."""
    if player.club_id != club.pk:
        raise SetupError(f"{player} is not a player of this club.")
    date = date or today(club)
    existing = Arrival.objects.filter(club=club, date=date, player=player).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            return Arrival.objects.create(club=club, date=date, player=player, via=via), True
    except IntegrityError:
        # Ticked at the same moment elsewhere (two phones, the door and the secretary).
        return Arrival.objects.get(club=club, date=date, player=player), False


def tick_out(club: Club, player: Player, date: dt.date | None = None) -> bool:
    """The player is not here after all (idempotent): whether they had been ticked in."""
    deleted, _ = Arrival.objects.filter(club=club, date=date or today(club), player=player).delete()
    return bool(deleted)


def arrive_by_name(
    club: Club, name: str, date: dt.date | None = None, via: str = Arrival.Via.SECRETARY
) -> Player:
    """A name typed as someone arrives: the club's player of that name (brought back if
    inactive), or a new player, ticked in."""
    with transaction.atomic():
        players = add_players(club, [name])
        if not players:
            raise SetupError("Type the new player's name.")
        tick_in(club, players[0], date, via)
    return players[0]


def arrived(club: Club, date: dt.date | None = None) -> list[Player]:
    """The players who have arrived on the date, first arrived first."""
    return [
        a.player
        for a in Arrival.objects.filter(club=club, date=date or today(club))
        .select_related("player")
        .order_by("arrived_at", "id")
    ]


def arrived_ids(club: Club, date: dt.date | None = None) -> set[int]:
    return set(
        Arrival.objects.filter(club=club, date=date or today(club)).values_list(
            "player_id", flat=True
        )
    )


def members_recent_first(club: Club) -> list[Player]:
    """The club's active players, those who played or arrived most recently first (then by
    name), for the arrivals page's tiles."""
    # Two subqueries, not two joins: a join of every seat with every arrival grows with the
    # square of a long-standing player's nights.
    played = Seat.objects.filter(player=OuterRef("pk")).order_by("-table__night__date")
    came = Arrival.objects.filter(player=OuterRef("pk")).order_by("-date")
    return list(
        club.players.filter(active=True)
        .annotate(
            last_played=Subquery(played.values("table__night__date")[:1]),
            last_came=Subquery(came.values("date")[:1]),
        )
        .order_by(
            F("last_came").desc(nulls_last=True),
            F("last_played").desc(nulls_last=True),
            "name",
        )
    )
