from club.leagues.models.fixtures import CardLink, Fixture, MatchCard
from club.leagues.models.leagues import CalendarFeed, League, LeagueClub
from club.leagues.models.registers import LeaguePerson, Registration, Transfer

__all__ = [
    "CalendarFeed",
    "CardLink",
    "Fixture",
    "League",
    "LeagueClub",
    "LeaguePerson",
    "MatchCard",
    "Registration",
    "Transfer",
]
