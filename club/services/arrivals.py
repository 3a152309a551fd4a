"""Who is here: ticking players in and out for a club night's date (by a secretary, or by the
player at the door), adding a new name as they arrive, and the door QR code's token."""

from __future__ import annotations

import datetime as dt
import secrets

from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import F, OuterRef, Subquery

from club.models import Arrival, Club, Player, Seat
from club.services.setup import SetupError, add_players

DOOR_SALT = "club.door"


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


# The door QR code ----------------------------------------------------------------------------


def door_token(club: Club) -> str:
    """The signed token in the door page's address: it names the club and the club's door salt,
    so it cannot be guessed, and a new salt (`new_door_token`) makes every older one useless."""
    if not club.door_salt:
        club.door_salt = secrets.token_urlsafe(16)
        Club.objects.filter(pk=club.pk, door_salt="").update(door_salt=club.door_salt)
        club.door_salt = Club.objects.values_list("door_salt", flat=True).get(pk=club.pk)
    return signing.dumps({"club": club.pk, "salt": club.door_salt}, salt=DOOR_SALT, compress=True)


def new_door_token(club: Club) -> str:
    """Revoke the door QR codes printed so far and return the new token."""
    club.door_salt = secrets.token_urlsafe(16)
    Club.objects.filter(pk=club.pk).update(door_salt=club.door_salt)
    return door_token(club)


def door_club(slug: str, token: str) -> Club | None:
    """The club the door token names, if it is the club of the address, its door check-in is
    on and the token is its current one; else None."""
    try:
        data = signing.loads(token, salt=DOOR_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("club"), int):
        return None
    # The club by its address and its salt, not by the id the token also names: a club
    # restored from its backup has a new id, and its printed door code must still open it.
    club = Club.objects.filter(slug=slug).first()
    if club is None or not club.door_check_in or not club.door_salt:
        return None
    if not secrets.compare_digest(str(data.get("salt")), club.door_salt):
        return None
    return club
