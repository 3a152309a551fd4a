"""Making a league, and its log.

A league's own club (`League.host_club`, see club/leagues/models/leagues.py) is made with it: open,
private, with no member, holding the league's rule set and one season spanning the league's. Every
change to the league is an audit event of that club, which is the league's log.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.text import slugify

import scoring
from club.clubs.models import AuditEvent, Club, RuleSet, Season
from club.clubs.services import clubs_lifecycle
from club.leagues.models import League
from club.leagues.models.leagues import TIE_BREAKS
from club.lib.money import unit_mismatch


class LeagueError(Exception):
    """The league cannot be made or changed so; the message says why."""


@dataclass(frozen=True)
class NewLeague:
    name: str
    season_start: dt.date
    season_end: dt.date
    preset: str = "hoyle"
    unit_kind: str = Club.UnitKind.MONEY
    currency_symbol: str = "£"
    minor_units: int = 100
    time_zone: str = "Europe/London"
    meetings: int = 2
    points_win: int = 3
    points_tie: int = 1
    points_loss: int = 0
    points_forfeit: int = 0
    players_a_side: int = 6
    deals_a_match: int = 24
    tie_breaks: list[str] = field(default_factory=lambda: ["aggregate", "won"])
    is_public: bool = False


# Addresses under /leagues/ that are pages, not leagues (club/leagues/urls.py).
RESERVED_SLUGS = {"new", "signup"}


def free_league_slug(name: str) -> str:
    base = (slugify(name)[:50] or "league").strip("-") or "league"
    slug, n = base, 2
    while slug in RESERVED_SLUGS or League.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


def create_league(new: NewLeague, organiser: User) -> League:
    """The league, its own club, rule set and season, in one transaction, logged."""
    if new.season_end < new.season_start:
        raise LeagueError("The season must end on or after the day it starts.")
    if new.players_a_side % 2 or not 2 <= new.players_a_side <= 40:
        raise LeagueError(
            "Players a side must be an even number from 2 to 40: each table seats two of each side."
        )
    unknown = [key for key in new.tie_breaks if key not in TIE_BREAKS]
    if unknown:
        raise LeagueError(f"Unknown tie-break: {', '.join(unknown)}.")
    if not new.points_win >= new.points_tie >= new.points_loss:
        raise LeagueError("A win must be worth at least a tie, and a tie at least a loss.")
    rules = scoring.preset(new.preset)
    with transaction.atomic():
        slug = free_league_slug(new.name)
        host = Club(
            name=f"{new.name} (league)"[:120],
            slug=clubs_lifecycle.free_slug(f"league-{slug}"),
            unit_kind=new.unit_kind,
            currency_symbol=new.currency_symbol if new.unit_kind == Club.UnitKind.MONEY else "",
            minor_units=new.minor_units if new.unit_kind == Club.UnitKind.MONEY else 1,
            time_zone=new.time_zone,
            # The match nights are final when they close: the card is the league's check.
            correction_minutes=0,
        )
        problem = unit_mismatch(host, rules.unit, remedy="choose the league's unit to match")
        if problem is not None:
            raise LeagueError(problem)
        host.save()
        rule_set = RuleSet.objects.create(
            club=host,
            name=rules.name.replace("-", " ").title(),
            preset=new.preset,
            data=rules.to_dict(),
        )
        Season.objects.create(
            club=host,
            name=new.name[:80],
            start=new.season_start,
            end=new.season_end,
            rule_set=rule_set,
        )
        league = League.objects.create(
            name=new.name,
            slug=slug,
            organiser=organiser,
            host_club=host,
            season_start=new.season_start,
            season_end=new.season_end,
            meetings=new.meetings,
            points_win=new.points_win,
            points_tie=new.points_tie,
            points_loss=new.points_loss,
            points_forfeit=new.points_forfeit,
            players_a_side=new.players_a_side,
            deals_a_match=new.deals_a_match,
            tie_breaks=",".join(new.tie_breaks),
            is_public=new.is_public,
        )
        log(league, organiser, AuditEvent.Action.CREATE, "League made", after={"name": new.name})
    return league


def log(
    league: League,
    user: User | None,
    action: str,
    subject: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEvent:
    """One entry of the league's log (an audit event of its own club)."""
    return AuditEvent.objects.create(
        club_id=league.host_club_id,
        user=user,
        action=action,
        subject=subject[:120],
        before=before,
        after=after,
    )
