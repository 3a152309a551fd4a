"""A player's statement printed (a PDF download): the player page's season, and money owed for
those who may see it (the secretary, the player's own account)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path

from club.clubs.models import Club
from club.clubs.queries import access
from club.clubs.queries.access import club_reader
from club.grades.queries import standings as sq
from club.lib.pdf import file_name, sheet_response
from club.money.pdf import statement as money_statement
from club.money.services import ledger


@club_reader
def player_statement(request: HttpRequest, club: Club, player_id: int) -> HttpResponse:
    """The player page's season (?season=) for one player, to hand to them."""
    player = access.club_player(club, player_id)
    season = sq.pick_season(sq.club_seasons(club), request.GET.get("season"), club.today())
    if season is None:
        raise Http404("This club has no seasons yet")
    # Money owed is printed only for the secretary and the member whose record it is; anyone
    # else who may read the club gets the season's figures without it.
    shows_owed = ledger.keeps_ledger(club) and access.sees_money_owed(request.user, club, player)
    context = {
        "club": club,
        "season": season,
        "statement": money_statement.player_statement(
            club, season, player, ledger.balance(player) if shows_owed else None
        ),
        "sheet_title": f"Statement · {player.name} · {season}",
        "printed_at": club.local_now(),
    }
    name = file_name("statement", player.name, season.name)
    return sheet_response("money/pdf/player_statement.html", context, name, request)


urlpatterns = [
    path("players/<int:player_id>/statement.pdf", player_statement, name="player_statement"),
]
