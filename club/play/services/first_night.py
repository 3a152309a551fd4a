"""A new club's first run: its members, its rule set and its season, then tonight's night, in one
step; the members ticked in as here, so that the draw seats them at once."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

import scoring
from club.clubs.models import Club, Player, RuleSet, Season
from club.clubs.services import player_lines, setup
from club.play.models import Night
from club.play.services import arrivals, nights


def season_dates(club: Club) -> tuple[dt.date, dt.date]:
    """From today (the club's, or the server's when that is earlier) for a year: whichever date
    "tonight" is read on, it falls inside."""
    start = min(club.today(), timezone.now().date())
    return start, start.replace(year=start.year + 1) - dt.timedelta(days=1)


def rule_set_for(club: Club, choice: str) -> RuleSet:
    """The club's rule set by id, or a new one from the preset named "preset:<name>"."""
    if choice.startswith("preset:"):
        preset = choice.removeprefix("preset:")
        name = setup.unique_rule_set_name(club, preset.replace("-", " ").title())
        return setup.create_rule_set(club, name, scoring.preset(preset), preset=preset)
    return club.rule_sets.get(pk=int(choice))


def start_first_night(
    club: Club,
    entries: list[player_lines.Entry],
    rule_set_choice: str,
    season_name: str,
    all_here: bool,
    user: User,
    signed: str,
) -> tuple[Night, list[Player]]:
    """All of it or none: the players (with their addresses, the lines' digest in the audit
    trail), the season, tonight's night and the arrivals."""
    with transaction.atomic():
        players = player_lines.apply(club, entries, user, signed).players
        rule_set = rule_set_for(club, rule_set_choice)
        start, end = season_dates(club)
        Season.objects.create(club=club, name=season_name, start=start, end=end, rule_set=rule_set)
        night = nights.start_tonight(club, user)
        if all_here:
            for player in players:
                arrivals.tick_in(club, player, night.date)
    return night, players
