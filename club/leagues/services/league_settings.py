"""What the organiser may still change in a league once made: its name, whether it is public,
the points and the tie-breaks, and the players a side until a fixture has opened its night (the
night's tables are drawn for it). Each change is a line of the league's log with the values before
and after."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from club.clubs.models import AuditEvent
from club.leagues.models import League
from club.leagues.models.leagues import TIE_BREAKS
from club.leagues.services.leagues import LeagueError, log

CHANGEABLE = [
    "name",
    "is_public",
    "points_win",
    "points_tie",
    "points_loss",
    "points_forfeit",
    "tie_breaks",
    "players_a_side",
]


def sides_fixed(league: League) -> bool:
    """A fixture's night is open or played: its tables seat the players a side it had."""
    return league.fixtures.filter(night__isnull=False).exists()


def change_league(league: League, changes: dict[str, Any], organiser: User) -> list[str]:
    """Apply `changes` (field -> new value; tie_breaks a list of keys); returns the fields that
    changed. Refuses what may not change with the reason."""
    unknown = set(changes) - set(CHANGEABLE)
    if unknown:
        raise LeagueError(f"These cannot be changed: {', '.join(sorted(unknown))}.")
    if "tie_breaks" in changes:
        keys = list(changes["tie_breaks"])
        if any(key not in TIE_BREAKS for key in keys) or len(set(keys)) != len(keys):
            raise LeagueError("Choose each tie-break at most once, from the list.")
        changes = changes | {"tie_breaks": ",".join(keys)}
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        before = {name: getattr(league, name) for name in changes}
        changed = [name for name, value in changes.items() if before[name] != value]
        if not changed:
            return []
        if "players_a_side" in changed:
            if sides_fixed(league):
                raise LeagueError(
                    "Players a side cannot change now: a match night has opened with "
                    f"{league.players_a_side} a side."
                )
            if changes["players_a_side"] % 2 or not 2 <= changes["players_a_side"] <= 40:
                raise LeagueError(
                    "Players a side must be an even number from 2 to 40: each table seats two of "
                    "each side."
                )
        for name in changed:
            setattr(league, name, changes[name])
        if not league.points_win >= league.points_tie >= league.points_loss:
            raise LeagueError("A win must be worth at least a tie, and a tie at least a loss.")
        league.save(update_fields=changed)
        if "name" in changed:
            # The league's own club carries its name on the match nights' pages.
            host = league.host_club
            host.name = f"{league.name} (league)"[:120]
            host.save(update_fields=["name"])
        log(
            league,
            organiser,
            AuditEvent.Action.UPDATE,
            "League settings",
            before={name: before[name] for name in changed},
            after={name: changes[name] for name in changed},
        )
    return changed
