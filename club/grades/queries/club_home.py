"""The club's home page: the latest night's results, the season's leaders and its biggest hands."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef

from club.clubs.models import Club, Season
from club.play.models import Night, NightTotal, ScoreLine

BIGGEST_HANDS = 5


@dataclass(frozen=True)
class NightLine:
    player_id: int
    name: str
    hands: int
    net: int
    points: int
    declared: int
    made: int


def latest_night(club: Club) -> Night | None:
    """The club's most recent night with any hands that counts in the standings."""
    played = NightTotal.objects.filter(night=OuterRef("pk"))
    return (
        Night.objects.filter(season__club=club, counts_in_standings=True)
        .filter(Exists(played))
        .select_related("season")
        .order_by("-date", "-id")
        .first()
    )


def night_results(night: Night) -> list[NightLine]:
    """Each player's result on the night, biggest winner first."""
    rows = (
        NightTotal.objects.filter(night=night)
        .order_by("-net", "player__name")
        .values_list("player_id", "player__name", "hands", "net", "points", "declared", "made")
    )
    return [NightLine(*row) for row in rows]


def recent_nights(club: Club, count: int = 6) -> list[Night]:
    return list(
        Night.objects.filter(season__club=club)
        .select_related("season")
        .order_by("-date", "-id")[:count]
    )


def biggest_hands(season: Season, count: int = BIGGEST_HANDS) -> list[ScoreLine]:
    """The season's biggest wins: the declarers' lines with the largest amounts (one per hand,
    as only the declarer's line is marked declared), through a partial index."""
    return list(
        ScoreLine.objects.filter(
            season=season, declared=True, amount__gt=0, night__counts_in_standings=True
        )
        .select_related("player", "night", "hand", "hand__partner", "hand__table")
        .order_by("-amount", "night__date", "id")[:count]
    )
