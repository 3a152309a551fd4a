"""A league match played as on any night: the two clubs' players named for the league, seated in
the league's own club, hands saved through a table's link, the night closed."""

from __future__ import annotations

import datetime as dt

from club.clubs.models import Player
from club.leagues.models import Fixture, League, LeagueClub, LeaguePerson, Registration
from club.play.models import Night
from club.play.services.hand_entry import HandEntry, LinkSource, next_hand
from club.play.services.hands import save_hand
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night
from club.play.services.table_links import night_links


def name_for_league(league: League, entry: LeagueClub, player: Player) -> LeaguePerson:
    """The club's player named for the league: a person with a seat in the league's club."""
    seat = Player.objects.create(club=league.host_club, name=player.name)
    person = LeaguePerson.objects.create(league=league, name=player.name, seat=seat)
    Registration.objects.create(league=league, entry=entry, person=person, player=player)
    return person


def fixture(
    league: League, home: LeagueClub, away: LeagueClub, date: dt.date | None = None
) -> Fixture:
    return Fixture.objects.create(
        league=league, cycle=1, round=1, date=date or league.season_start, home=home, away=away
    )


def play_match(fixture: Fixture, hands: list[tuple[int, str, int]], close: bool = True) -> Night:
    """One table: home 1, away 1, home 2, away 2 (two of each side, as every table seats). Each
    hand: (seat of the declarer, contract, tricks), saved through the table's link."""
    league = fixture.league
    home = [
        name_for_league(league, fixture.home, p)
        for p in fixture.home.club.players.order_by("pk")[:2]
    ]
    away = [
        name_for_league(league, fixture.away, p)
        for p in fixture.away.club.players.order_by("pk")[:2]
    ]
    seats = [home[0].seat, away[0].seat, home[1].seat, away[1].seat]
    season = league.host_club.seasons.get()
    night = create_night(season, fixture.date, [(seats, 0)])
    fixture.night = night
    fixture.save(update_fields=["night"])
    table = night.tables.get()
    link = night_links(night, None)[table.pk]
    assert link is not None
    for declarer, contract, tricks in hands:
        entry = HandEntry(
            dealer=next_hand(table)["dealer"],
            contract=contract,
            declarer=seats[declarer],
            tricks=tricks,
        )
        save_hand(table, entry, None, via=LinkSource(link))
    if close:
        close_night(night, None)
    night.refresh_from_db()
    return night
