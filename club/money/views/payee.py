"""The payee's own page, opened from the link in their results email with no login: what others
owe them, a form to mark each paid, and the payments someone marked for them without a login.

Results emails now carry the player's own link instead (club.players, `player_own`); this page
stays as it was for the signed links of emails already sent, until their PAYEE_LINK_DAYS end. It
does not redirect to the own link: that would mint a live own link from an old signed one, even
after the secretary revoked the player's link."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from club.clubs.models import Club, Player
from club.clubs.queries import access
from club.money.forms.ledger import PaymentForm
from club.money.queries.money_owed import pay_rows
from club.money.services import ledger, results_mail
from club.money.services.ledger import OwedDebt

# A reopened night's hands, and so its debts, may still change: the payee's link marks nothing
# on it until the secretary closes it again.
REOPENED = (
    "The night of {date:%-d %B %Y} has been reopened for correction, so what is owed on it may "
    "change: payments on it can be marked again once the secretary closes it."
)


def _payee(slug: str, token: str) -> tuple[Club, Player]:
    """The club and the player the signed link names; a 404 for a forged, expired or another
    club's link, the same as for a club that does not exist."""
    club = access.club_or_404(slug)
    player_id = results_mail.player_from_payee_token(token)
    player = get_object_or_404(Player, pk=player_id or 0, club=club)
    if not ledger.keeps_ledger(club):
        raise Http404("A points club keeps no ledger")
    return club, player


@never_cache
def payee_owed(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    club, player = _payee(slug, token)
    debts = [d for d in ledger.open_debts(club, player) if d.payee_id == player.pk]
    reopened = sorted({d.night.date for d in debts if not d.night.is_closed})
    rows = pay_rows(
        club,
        debts,
        False,
        player,
        lambda debt: reverse("payee_pay", args=[club.slug, token, debt.pk]),
    )
    for row in rows:
        if not row["debt"].night.is_closed:
            row["can_pay"] = False  # its night is reopened: see REOPENED
    return render(
        request,
        "money/members/payee.html",
        {
            "club": club,
            "player": player,
            "pay_rows": rows,
            "marked": ledger.marked_for_payee(player),
            "next": request.path,
            "reopened": [REOPENED.format(date=date) for date in reopened],
        },
    )


@require_POST
def payee_pay(request: HttpRequest, slug: str, token: str, debt_id: int) -> HttpResponse:
    club, player = _payee(slug, token)
    debt = next(
        (d for d in ledger.open_debts(club, player) if d.pk == debt_id and d.payee_id == player.pk),
        None,
    )
    back = reverse("payee_owed", args=[club.slug, token])
    if debt is None:
        messages.error(request, "Nothing more is owed to you on that one.")
        return redirect(back)
    if not debt.night.is_closed:
        messages.error(request, REOPENED.format(date=debt.night.date))
        return redirect(back)
    record_payment(request, club, player, debt)
    return redirect(back)


def record_payment(request: HttpRequest, club: Club, player: Player, debt: OwedDebt) -> None:
    """Mark `debt`, owed to `player`, paid through his own link (this page's or his own page's)
    from the posted form, and say how it went as a message."""
    form = PaymentForm(request.POST, club=club)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return
    try:
        paid = ledger.mark_paid(
            debt, form.cleaned_data["amount"], None, club=club, via=f"{player.name}'s own link"
        )
    except ledger.LedgerError as error:
        messages.error(request, str(error))
    else:
        left = f"; {club.format_amount(paid.outstanding)} still owed" if paid.outstanding else ""
        messages.success(request, f"{debt.payer} paid you {club.format_amount(paid.amount)}{left}.")


urlpatterns = [
    path("owed/<str:token>/", payee_owed, name="payee_owed"),
    path("owed/<str:token>/<int:debt_id>/pay/", payee_pay, name="payee_pay"),
]
