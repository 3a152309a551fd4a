"""Money by a player's own link: marking a debt owed to him paid (the payee's own page's rule:
the payee marks, a debtor's link marks nothing, a reopened night's debts wait for its close),
and his statement for a season with what he owes and is owed, and to whom."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from club.clubs.services import ratelimit
from club.grades.queries import standings as sq
from club.lib.pdf import file_name, sheet_response
from club.money.pdf import statement as money_statement
from club.money.queries.whom_to_pay import whom_to_pay
from club.money.services import ledger
from club.money.views.payee import REOPENED, record_payment
from club.play.models.table_links import hash_token
from club.players.views.own import by_own_link, own_player, private, too_many

# Per link: at most this many payments marked in the window, as a table's link may write
# (club.play.views.table_links): a payee marks a few debts after a night, not dozens a minute.
WRITE_LIMIT = getattr(settings, "OWN_LINK_WRITE_LIMIT", (30, 60))  # (payments, seconds)


@require_POST
@by_own_link
def player_own_pay(request: HttpRequest, slug: str, token: str, debt_id: int) -> HttpResponse:
    """The payee marks a debt owed to him paid, in full or in part. A debt he owes is refused:
    the one owed the money says when it is paid."""
    club, player = own_player(slug, token)
    if not ledger.keeps_ledger(club):
        raise Http404("A points club keeps no ledger")
    back = reverse("player_own", args=[club.slug, token]) + "#owed"
    verdict = ratelimit.hit(f"own-link:{hash_token(token)}", *WRITE_LIMIT)
    if not verdict.allowed:
        return too_many(request, verdict.retry_after)
    debts = ledger.open_debts(club, player)
    debt = next((d for d in debts if d.pk == debt_id), None)
    if debt is not None and debt.payee_id != player.pk:
        messages.error(
            request,
            f"You owe {debt.payee} that one: {debt.payee} marks it paid when they have the money.",
        )
        return private(redirect(back))
    if debt is None:
        messages.error(request, "Nothing more is owed to you on that one.")
        return private(redirect(back))
    if not debt.night.is_closed:
        messages.error(request, REOPENED.format(date=debt.night.date))
        return private(redirect(back))
    record_payment(request, club, player, debt)
    return private(redirect(back))


@never_cache
@require_GET
@by_own_link
def player_own_statement(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player's statement (club.money.views.statement's), for ?season= (else the current
    one), with the money he owes and is owed on the ledger and to whom."""
    club, player = own_player(slug, token)
    season = sq.pick_season(sq.club_seasons(club), request.GET.get("season"), club.today())
    if season is None:
        raise Http404("This club has no seasons yet")
    whom = whom_to_pay(club, player) if ledger.keeps_ledger(club) else None
    context = {
        "club": club,
        "season": season,
        "statement": money_statement.player_statement(
            club, season, player, whom.balance if whom is not None else None
        ),
        "whom": whom,
        "sheet_title": f"Statement · {player.name} · {season}",
        "printed_at": club.local_now(),
    }
    name = file_name("statement", player.name, season.name)
    return sheet_response("money/pdf/player_statement.html", context, name, request)


urlpatterns = [
    path("own/<str:token>/statement.pdf", player_own_statement, name="player_own_statement"),
    path("own/<str:token>/owed/<int:debt_id>/pay/", player_own_pay, name="player_own_pay"),
]
