"""What the register pages show: a club's own register and players, every club's register for
the organiser and the league's readers, and the transfers granted. A fixed number of queries
whatever the number of players (tests/leagues/test_registers.py counts them)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet
from django.http import Http404

from club.clubs.models import Player
from club.leagues.models import League, LeagueClub, LeaguePerson, Registration, Transfer


def live_registrations(league: League) -> QuerySet[Registration]:
    return Registration.objects.filter(league=league, ended_at__isnull=True).select_related(
        "person", "player"
    )


def club_register(entry: LeagueClub) -> list[Registration]:
    """The entry's live names, by name."""
    return list(live_registrations(entry.league).filter(entry=entry).order_by("person__name"))


def unnamed_players(entry: LeagueClub) -> QuerySet[Player]:
    """The club's active players it has not named (live) for the league: the ones to tick."""
    named = Registration.objects.filter(
        league_id=entry.league_id, entry=entry, ended_at__isnull=True
    ).values("player_id")
    return Player.objects.filter(club_id=entry.club_id, active=True).exclude(pk__in=named)


def live_registration(entry: LeagueClub, registration_id: int) -> Registration:
    """One of the entry's live names; a 404 for another club's or an ended one."""
    registration = (
        Registration.objects.select_related("person__league", "entry__club", "league")
        .filter(pk=registration_id, entry=entry, ended_at__isnull=True)
        .first()
    )
    if registration is None:
        raise Http404("No such name on the register")
    return registration


@dataclass(frozen=True)
class Register:
    entry: LeagueClub
    names: list[Registration]


def registers(league: League) -> list[Register]:
    """Every playing club with its live names."""
    entries = (
        LeagueClub.objects.filter(league=league, status=LeagueClub.Status.ACCEPTED)
        .select_related("club")
        .order_by("club__name")
        .prefetch_related(
            Prefetch(
                "registrations",
                queryset=live_registrations(league).order_by("person__name"),
                to_attr="live",
            )
        )
    )
    return [Register(entry, entry.live) for entry in entries]


def transfers(league: League) -> QuerySet[Transfer]:
    return Transfer.objects.filter(league=league).select_related(
        "person", "from_entry__club", "to_entry__club", "granted_by"
    )


def league_person(league: League, person_id: int) -> LeaguePerson:
    person = (
        LeaguePerson.objects.select_related("seat", "league").filter(pk=person_id, league=league)
    ).first()
    if person is None:
        raise Http404("No such person in this league")
    return person
