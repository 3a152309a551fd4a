"""What a league answers when a club's life moves on (club.clubs.services.signals)."""

from __future__ import annotations

from typing import Any

from club.clubs.models import Player
from club.clubs.services import clubs_lifecycle
from club.leagues.models import League, Registration


def organisers_kept(sender: Any, user_ids: list[int], **kwargs: Any) -> list[int]:
    """A purged club's secretary who organises a league keeps his account: the league needs it
    (its organiser is PROTECTed, so deleting him would fail the whole purge)."""
    return list(
        League.objects.filter(organiser_id__in=user_ids).values_list("organiser_id", flat=True)
    )


def forget_in_leagues(sender: Any, player: Player, old_name: str = "", **kwargs: Any) -> None:
    """A forgotten player is forgotten in the leagues his club named him for too: his person
    and his seat at the match nights take a former player's name, with no account, and the
    league's log (its own club's audit trail) loses his name, as his club's does. His results
    stay, so every card and the table still add up."""
    for registration in Registration.objects.filter(player=player).select_related(
        "person__seat", "league__host_club"
    ):
        person, host = registration.person, registration.league.host_club
        seat = person.seat
        old_seat = seat.name
        seat.name = clubs_lifecycle.former_name(host)
        seat.user = None
        seat.save(update_fields=["name", "user"])
        person.name = seat.name
        person.user = None
        person.save(update_fields=["name", "user"])
        for old in {old_seat, old_name} - {""}:
            clubs_lifecycle.forget_in_trail(host, old, seat.name)
