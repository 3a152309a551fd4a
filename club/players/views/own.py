"""A player's own page, by the private link in every results email (or the QR code the secretary
shows): no log-in, in a private club too. His nights, his standing and grade, what he owes and is
owed and to whom, a form to mark paid each debt owed to him, and each closed night's sheet for
the table he sat at with the night's settle-up.

The token is the key: a revoked, re-issued, made-up or another club's token is the same bare 404
as a club that does not exist (`own_player`). Lookups that find nothing are counted per client
address (club.clubs.services.ratelimit, shared by every node): a flood of wrong tokens gets a 429
page. The token is in the address, so the pages are never cached, send no referrer, and ask
search engines not to index them; the log filter writes `/own/<token>/`
(club.operations.logs.log_redaction).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from club.clubs.models import Club, Player
from club.clubs.queries import access
from club.clubs.services import ratelimit
from club.clubs.services.account_mail import client_address
from club.grades.display.tables import format_measure
from club.grades.queries import standings as sq
from club.money.queries.money_owed import pay_rows
from club.money.queries.whom_to_pay import whom_to_pay
from club.money.services import ledger
from club.money.views.payee import REOPENED
from club.play.services import player_links
from club.players.queries import own_page

# Per client address: at most this many lookups that find no player in the window. A player
# opens his own link a few times a week; a script trying tokens is refused long before it learns
# anything (a token is 24 random characters).
MISS_LIMIT = getattr(settings, "OWN_LINK_MISS_LIMIT", (30, 60))  # (lookups, seconds)


def own_player(slug: str, token: str) -> tuple[Club, Player]:
    """The club and the player the token opens; a 404 for a revoked, re-issued, made-up or
    another club's token, the same as for a club that does not exist (two queries)."""
    club = access.club_or_404(slug)
    player = player_links.find(club, token)
    if player is None:
        raise Http404("No such club")
    player.club = club  # as the player's club everywhere on the page: no query
    return club, player


def too_many(request: HttpRequest, retry_after: int) -> HttpResponse:
    response = render(
        request, "players/own/too_many.html", {"retry_after": retry_after}, status=429
    )
    response["Retry-After"] = str(retry_after)
    return private(response)


def private(response: HttpResponse) -> HttpResponse:
    """The token is in the page's address: no Referer carries it to another page, and no search
    engine keeps it (the page says so too, with its robots meta tag)."""
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex"
    return response


def by_own_link(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Count every lookup that ends in a 404 (a wrong token, or a night not his) against the
    client's limit: past it, a 429 page says to wait. The pages the view answers send no
    referrer."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            response = view(request, *args, **kwargs)
        except Http404:
            verdict = ratelimit.hit(f"own-link:miss:{client_address(request)}", *MISS_LIMIT)
            if not verdict.allowed:
                return too_many(request, verdict.retry_after)
            raise
        return private(response)

    return wrapper


def _context(club: Club, player: Player, token: str, **extra: Any) -> dict[str, Any]:
    return {"club": club, "player": player, "token": token, "own_link": True, **extra}


def _money(request: HttpRequest, club: Club, player: Player, token: str) -> dict[str, Any]:
    """What he owes and is owed, and to whom; the debts owed to him, each with its form (the
    payee's own page's rows); the payments marked for him without a log-in. Three queries."""
    if not ledger.keeps_ledger(club):
        return {}
    debts = [d for d in ledger.open_debts(club, player) if d.payee_id == player.pk]
    rows = pay_rows(
        club,
        debts,
        False,
        player,
        lambda debt: reverse("player_own_pay", args=[club.slug, token, debt.pk]),
    )
    for row in rows:
        if not row["debt"].night.is_closed:
            row["can_pay"] = False  # its night is reopened: see REOPENED
    reopened = sorted({d.night.date for d in debts if not d.night.is_closed})
    return {
        "keeps_ledger": True,
        "whom": whom_to_pay(club, player),
        "pay_rows": rows,
        "marked": ledger.marked_for_payee(player),
        "reopened": [REOPENED.format(date=date) for date in reopened],
        "next": request.path,
    }


def _figures(club: Club, standing: own_page.Standing | None) -> list[tuple[str, str]]:
    """His season's figures as the standings page writes them."""
    if standing is None or standing.row is None:
        return []
    row = standing.row
    figures = [
        ("Nights", f"{row.nights:,}"),
        ("Hands", f"{row.hands:,}"),
        ("Net", club.format_amount(row.net, signed=True)),
    ]
    if standing.uses_points:
        figures.append(("Points", format_measure(club, row.points, True, signed=False)))
    if row.declared:
        figures.append(("Contracts made", f"{row.made:,} of {row.declared:,}"))
    return figures


@never_cache
@require_http_methods(["GET", "HEAD"])
@by_own_link
def player_own(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """His page: nights, standing and grade in the current season, money owed."""
    club, player = own_player(slug, token)
    season = sq.pick_season(sq.club_seasons(club), None, club.today())
    standing = own_page.standing(season, player) if season else None
    context = _context(
        club,
        player,
        token,
        nights=own_page.own_nights(player),
        nights_shown=own_page.NIGHTS_SHOWN,
        season=season,
        standing=standing,
        figures=_figures(club, standing),
        grade=own_page.own_grade(club, player),
    )
    context.update(_money(request, club, player, token))
    return render(request, "players/own/page.html", context)


@never_cache
@require_http_methods(["GET", "HEAD"])
@by_own_link
def player_own_night(request: HttpRequest, slug: str, token: str, night_id: int) -> HttpResponse:
    """A closed night he played in: the sheet of his table(s) and the night's settle-up."""
    club, player = own_player(slug, token)
    found = own_page.own_night(club, player, night_id)
    if found is None:
        raise Http404("No such night")
    context = _context(
        club,
        player,
        token,
        night=found.night,
        tables=found.tables,
        summary=found.summary,
        can_change=False,
    )
    return render(request, "players/own/night.html", context)


urlpatterns = [
    path("own/<str:token>/", player_own, name="player_own"),
    path("own/<str:token>/nights/<int:night_id>/", player_own_night, name="player_own_night"),
]
