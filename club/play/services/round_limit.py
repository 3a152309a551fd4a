"""A tournament round is a number of hands a table (`Tournament.hands_per_round`). A table that
has played them is warned on its entry form, and the hand service refuses a hand past them unless
the director has allowed extra hands (`Tournament.extra_hands_allowed`, changed in the
tournament's settings and audited there)."""

from __future__ import annotations

from typing import Protocol

from django.core.exceptions import ObjectDoesNotExist

from club.play.models import Night


class Tournament(Protocol):
    """What a round's limit reads of a night's tournament (club/tournaments/models/)."""

    hands_per_round: int
    extra_hands_allowed: bool


def tournament_of(night: Night) -> Tournament | None:
    """The night's tournament (None for a club night), from the cache when it was fetched."""
    try:
        return night.tournament  # the app above play adds it
    except ObjectDoesNotExist:  # a club night: the reverse one-to-one has no row
        return None


def past_the_round(tournament: Tournament | None, number: int) -> bool:
    return tournament is not None and number > tournament.hands_per_round


def refusal(tournament: Tournament | None, number: int) -> str:
    """Why hand `number` cannot be saved at a table of this tournament ("" when it can)."""
    if tournament is None or not past_the_round(tournament, number):
        return ""
    if tournament.extra_hands_allowed:
        return ""
    n = tournament.hands_per_round
    return (
        f"This round is {n} hand{'s' if n != 1 else ''} a table, and this table has played "
        f"{'them all' if n != 1 else 'it'}: hand {number} was not saved. The director can allow "
        "extra hands in the tournament's settings."
    )
