"""The league table as the pages, the PDF and the CSV show it: the scoring core's arithmetic
(scoring/league_table.py) over the cards that count, in two queries whatever the league's size.

Nothing is cached: a card that comes to count (confirmed, settled, corrected, a forfeit) is in
the next reading of the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from club.leagues.models import League, LeagueClub, MatchCard
from scoring.league_table import Match, Points, league_table


@dataclass(frozen=True)
class Line:
    position: int
    entry: LeagueClub
    played: int
    won: int
    tied: int
    lost: int
    aggregate: int  # in minor units of the league's unit
    points: int

    @property
    def club_name(self) -> str:
        return self.entry.club.name


def points_of(league: League) -> Points:
    return Points(
        win=league.points_win,
        tie=league.points_tie,
        loss=league.points_loss,
        forfeit=league.points_forfeit,
    )


def table_of(league: League) -> list[Line]:
    """Every playing club's line, best first (clubs equal on everything share a position and
    are listed by name)."""
    counting = list(
        MatchCard.objects.filter(fixture__league=league, state__in=MatchCard.COUNTING)
        .values_list(
            "fixture__home_id", "fixture__away_id", "home_score", "away_score", "forfeited_by_id"
        )
        .order_by()
    )
    played = {side for home, away, *_ in counting for side in (home, away)}
    entries = {
        e.pk: e
        for e in LeagueClub.objects.filter(league=league)
        .select_related("club")
        .order_by("club__name", "pk")
        if e.is_playing or e.pk in played
    }
    rows = league_table(
        list(entries),
        [Match(home, away, hs, as_, forfeit) for home, away, hs, as_, forfeit in counting],
        points_of(league),
        league.tie_break_keys,
    )
    return [
        Line(
            r.position,
            entries[r.side],  # type: ignore[index]  # the sides are the entries' ids
            r.played,
            r.won,
            r.tied,
            r.lost,
            r.aggregate,
            r.points,
        )
        for r in rows
    ]
