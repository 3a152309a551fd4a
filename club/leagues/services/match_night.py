"""A match night: a fixture opened as a night of the league's own club (League.host_club), so
its hands, table links, phones and offline queue work as on any club night while nothing is written
to either club's ledger, standings or grades.

The home club's secretary (or the organiser) picks tonight's players of each side from the
sides' live registrations (both teams are at the venue, so he picks the away side's too); each
player sits as his `LeaguePerson.seat`. The tables come from scoring.league_fixtures.match_draw:
two home and two away players a table, seated home, away, home, away, keeping apart the pairs
who met at the two clubs' earlier match nights. The night is made once per form (a resent form
finds the night it made) and its tables' links are issued with it.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Sequence

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Q

from club.clubs.models import AuditEvent, Membership, Player, Role, Season
from club.leagues.models import Fixture, League, LeagueClub, Registration
from club.leagues.services.leagues import log
from club.play.models import Night, Seat
from club.play.services import night_setup, nights, table_links
from club.play.services.hands import HandConflict
from scoring.league_fixtures import match_draw


class MatchNightError(Exception):
    """The match night cannot be opened or closed so; the message says why."""


def runs_match(user: User | AnonymousUser, fixture: Fixture) -> bool:
    """The organiser, or a secretary of the home club, runs the fixture's night."""
    if not user.is_authenticated:
        return False
    if fixture.league.organiser_id == user.pk:
        return True
    return Membership.objects.filter(
        user_id=user.pk, club_id=fixture.home.club_id, role=Role.SECRETARY
    ).exists()


def live_register(entry: LeagueClub) -> list[Registration]:
    """The side's players who may play tonight, by name."""
    return list(
        Registration.objects.filter(entry=entry, ended_at=None)
        .select_related("person__seat")
        .order_by("person__name", "pk")
    )


def past_meetings(fixture: Fixture) -> list[list[list[int]]]:
    """The tables (seat players' ids) of the two clubs' earlier match nights, either at home."""
    pair = Q(home_id=fixture.home_id, away_id=fixture.away_id) | Q(
        home_id=fixture.away_id, away_id=fixture.home_id
    )
    night_ids = list(
        Fixture.objects.filter(pair, league_id=fixture.league_id, night__isnull=False)
        .exclude(pk=fixture.pk)
        .values_list("night_id", flat=True)
    )
    by_night: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for night_id, table_id, player_id in (
        Seat.objects.filter(table__night_id__in=night_ids)
        .order_by("table__night_id", "table_id", "position")
        .values_list("table__night_id", "table_id", "player_id")
    ):
        by_night[night_id][table_id].append(player_id)
    return [list(tables.values()) for tables in by_night.values()]


def _season(league: League, fixture: Fixture) -> Season:
    seasons = Season.objects.filter(club_id=league.host_club_id).select_related("club")
    found = seasons.filter(start__lte=fixture.date, end__gte=fixture.date).first()
    found = found or seasons.order_by("-start").first()
    if found is None:
        raise MatchNightError("The league's club has no season: the organiser must make one.")
    return found


def _side(entry: LeagueClub, picked: Sequence[int], wanted: int) -> list[Player]:
    register = {r.pk: r for r in live_register(entry)}
    if len(register) < wanted:
        raise MatchNightError(
            f"{entry.club} has {len(register)} registered player(s); a side is {wanted}: "
            "its secretary must name more."
        )
    chosen = list(dict.fromkeys(picked))
    if len(chosen) != wanted:
        raise MatchNightError(f"Pick {wanted} players for {entry.club}, not {len(chosen)}.")
    missing = [pk for pk in chosen if pk not in register]
    if missing:
        raise MatchNightError(f"A player picked is not on {entry.club}'s register now.")
    return [register[pk].person.seat for pk in chosen]


def open_match_night(
    fixture: Fixture,
    by: User,
    home: Sequence[int],
    away: Sequence[int],
    form_token: uuid.UUID,
) -> Night:
    """The fixture's night, its tables drawn and their links issued, in one transaction. `home`
    and `away` are the ids of the live registrations picked for each side. A form sent again
    finds the night it made; another night for the fixture is refused."""
    with transaction.atomic():
        locked = (
            Fixture.objects.select_for_update(of=("self",))
            .select_related("league", "home__club", "away__club", "night")
            .get(pk=fixture.pk)
        )
        league = locked.league
        if not runs_match(by, locked):
            raise MatchNightError("Only the home club's secretary or the organiser opens it.")
        if locked.night is not None:
            if locked.night.form_token == form_token:
                return locked.night
            raise MatchNightError(f"{locked.night} is open already.")
        wanted = league.players_a_side
        home_seats = _side(locked.home, home, wanted)
        away_seats = _side(locked.away, away, wanted)
        players = {p.pk: p for p in [*home_seats, *away_seats]}
        drawn = match_draw(
            [p.pk for p in home_seats],
            [p.pk for p in away_seats],
            past_meetings(locked),
            seed=locked.pk,
        )
        title = f"{locked.home.club} v {locked.away.club}"
        night, _made = night_setup.create_night_once(
            _season(league, locked),
            locked.date,
            [([players[pk] for pk in table], 0) for table in drawn],
            form_token=form_token,
            title=title[:80],
            user=by,
        )
        locked.night = night
        locked.save(update_fields=["night"])
        table_links.night_links(night, by)
        log(
            league,
            by,
            AuditEvent.Action.CREATE,
            f"Match night {title}",
            after={"night": night.pk, "tables": len(drawn)},
        )
    return night


def close_match_night(fixture: Fixture, by: User) -> Night:
    """Close the fixture's night (club.play.services.nights.close_night), once."""
    with transaction.atomic():
        locked = (
            Fixture.objects.select_for_update(of=("self",))
            .select_related("league", "home__club", "night__season")
            .get(pk=fixture.pk)
        )
        if not runs_match(by, locked):
            raise MatchNightError("Only the home club's secretary or the organiser closes it.")
        night = locked.night
        if night is None:
            raise MatchNightError("This match has no night to close.")
        try:
            nights.close_night(night, by)
        except HandConflict as refused:
            raise MatchNightError(str(refused)) from None
    return night
