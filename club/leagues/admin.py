"""The operator's admin of leagues: read-mostly. A league, its clubs, registers, fixtures and
cards change in the app, which checks each change and logs it in the league's log; here they are
shown, and only the plain facts of a league (its name, whether it is public) may be corrected."""

from django.contrib import admin

from club.leagues.models import (
    CalendarFeed,
    CardLink,
    Fixture,
    League,
    LeagueClub,
    LeaguePerson,
    MatchCard,
    Registration,
    Transfer,
)
from club.lib.admin import DerivedAdmin


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "organiser", "season_start", "season_end", "is_public"]
    list_filter = ["is_public"]
    search_fields = ["name", "slug", "organiser__username"]
    readonly_fields = [
        "slug",
        "organiser",
        "host_club",
        "season_start",
        "season_end",
        "meetings",
        "points_win",
        "points_tie",
        "points_loss",
        "points_forfeit",
        "players_a_side",
        "deals_a_match",
        "tie_breaks",
        "created_at",
    ]

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # made in the app, with its own club, rule set and season

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(LeagueClub)
class LeagueClubAdmin(DerivedAdmin):
    list_display = ["club", "league", "status", "answered_at"]
    list_filter = ["status"]


@admin.register(LeaguePerson)
class LeaguePersonAdmin(DerivedAdmin):
    list_display = ["name", "league", "user"]
    search_fields = ["name"]


@admin.register(Registration)
class RegistrationAdmin(DerivedAdmin):
    list_display = ["person", "entry", "ended_at"]


@admin.register(Transfer)
class TransferAdmin(DerivedAdmin):
    list_display = ["person", "from_entry", "to_entry", "granted_by"]


@admin.register(Fixture)
class FixtureAdmin(DerivedAdmin):
    list_display = ["__str__", "league", "cycle", "round", "date"]
    list_filter = ["league"]
    date_hierarchy = "date"


@admin.register(MatchCard)
class MatchCardAdmin(DerivedAdmin):
    list_display = ["fixture", "state", "home_score", "away_score"]
    list_filter = ["state"]


@admin.register(CalendarFeed)
class CalendarFeedAdmin(DerivedAdmin):
    list_display = ["entry", "revoked_at"]


@admin.register(CardLink)
class CardLinkAdmin(DerivedAdmin):
    list_display = ["card", "revoked_at"]
