"""After the night: publishing, the emails' delivery status, marking payments paid,
the club's ledger of money owed and netting.

Who sees what: the night's settle-up is on the night page for anyone who may read the night; the
debts and their payments, the ledger and the emails only for the secretary and for the players
concerned (a player sees only their own). A points club has no ledger at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from club.clubs.models import Club, Player
from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.grades.services import signals as grades_signals
from club.lib.words import count, listed
from club.money.forms.ledger import NettingForm, PaymentForm
from club.money.models import Debt, Settlement
from club.money.queries.money_owed import link_pay_rows, pay_rows, table_debts
from club.money.services import ledger, publish, results_mail
from club.play.models import Night
from club.play.queries import night_access
from club.play.services import signals
from club.play.views import table_links


def debt_pay_url(club: Club) -> Callable[[Debt], str]:
    """Where a debt's "mark paid" form posts from the night, ledger and "my results" pages."""
    return lambda debt: reverse("debt_pay", args=[club.slug, debt.pk])


def own_player(request: HttpRequest, club: Club) -> Player | None:
    """The signed-in user's own player record in this club, if they have claimed one."""
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(club=club, user=request.user).first()


def night_context(request: HttpRequest, club: Club, night: Night) -> dict[str, Any]:
    """What the night page shows after the night: the publication state, the debts with what is
    still owed (secretary: all, with forms; a player: their own), the emails' delivery status."""
    if night.is_provisional and night.publish_after and night.publish_after <= timezone.now():
        # The window is over and the queue has not got to it yet: publish now (idempotent).
        publish.publish(night, None, only_if_due=True)
        night.refresh_from_db()
    can_manage = access.can(request.user, club, access.MANAGE)
    context: dict[str, Any] = {"keeps_ledger": ledger.keeps_ledger(club), "pay_rows": None}
    if night.is_closed and ledger.keeps_ledger(club):
        me = None if can_manage else own_player(request, club)
        if can_manage or me is not None:
            debts = ledger.night_debts(night)
            if me is not None:
                debts = [d for d in debts if me.pk in (d.payer_id, d.payee_id)]
            marked = ledger.link_payments([d.pk for d in debts])
            context["pay_rows"] = pay_rows(
                club, debts, can_manage, me, debt_pay_url(club), marked=marked
            )
            context["can_manage_ledger"] = can_manage
    if can_manage and night.is_closed:
        context["deliveries"] = results_mail.delivery_rows(night)
    return context


# At the table, through its link (no login) --------------------------------------------------


@require_POST
@table_links.by_link
def link_pay(request: HttpRequest, route, debt_id: int) -> HttpResponse:
    """The payee, at the table, marks a payment to them paid through the table's link: only
    while the night's results are provisional. Once they are published the link writes nothing
    more; the payee marks payments from their own link (in their results email) or their login,
    or the secretary does."""
    back = reverse("link_table", args=[route.token]) + "#owed"
    night = route.table.night
    if night.is_published:
        return render(
            request,
            "money/table_links/night_over.html",
            {"route": route, "table_link": route.via.link, "night": night, "table": route.table},
            status=403,
        )
    debt = next((d for d in table_debts(route.table) if d.pk == debt_id), None)
    if debt is None or not night.is_closed:
        return render(request, table_links.NOT_FOUND, {}, status=404)
    club = route.club
    form = PaymentForm(request.POST, club=club)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect(back)
    device = route.via.device
    via = f"Table {route.table.number}'s link" + (f" ({device})" if device else "")
    try:
        paid = ledger.mark_paid(
            debt, form.cleaned_data["amount"], None, club=club, via=via, link=route.via.link
        )
    except ledger.LedgerError as error:
        messages.error(request, str(error))
    else:
        left = f"; {club.format_amount(paid.outstanding)} still owed" if paid.outstanding else ""
        messages.success(
            request,
            f"{paid.debt.payer} paid {paid.debt.payee} {club.format_amount(paid.amount)}{left}. "
            f"{paid.debt.payee} is told, and the secretary can undo it.",
        )
    return redirect(back)


def player_context(request: HttpRequest, club: Club, player: Player) -> dict[str, Any]:
    """The player page's "money owed": for the secretary and the player themself only (one
    query); nothing for anyone else, nor for a points club."""
    if not ledger.keeps_ledger(club):
        return {}
    if not access.sees_money_owed(request.user, club, player):
        return {}
    can_manage = access.can(request.user, club, access.MANAGE)
    debts = ledger.open_debts(club, player)
    balance = sum(d.outstanding if d.payee_id == player.pk else -d.outstanding for d in debts)
    me = player if player.user_id == request.user.pk else None
    return {
        "owed_rows": pay_rows(club, debts, can_manage, me, debt_pay_url(club)),
        "owed_balance": balance,
    }


@login_if_hidden
def night_publish(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """GET: what publishing means; POST: publish the night's results now."""
    club = access.get_club(request, slug, access.MANAGE)
    night = night_access.get_night(request, club, night_id, access.MANAGE)
    if request.method == "POST":
        try:
            publication = publish.publish(night, access.acting_user(request))
        except publish.PublishError as error:
            messages.error(request, str(error))
        else:
            if publication is None:
                messages.info(request, f"{night}'s results were already published.")
            else:
                sent = publication.deliveries.count()
                messages.success(
                    request,
                    format_html(
                        "{}'s results are published: final. {} will be emailed their result.{}",
                        night,
                        count(sent, "player"),
                        no_email(club, results_mail.left_out(night)),
                    ),
                )
        return redirect("night_detail", slug=club.slug, night_id=night.pk)
    return render(
        request,
        "money/ledger/publish.html",
        {
            "club": club,
            "night": night,
            "recipients": len(results_mail.recipients(night)),
            "left_out": results_mail.left_out(night),
        },
    )


def no_email(club: Club, left: results_mail.LeftOut) -> SafeString:
    """ " 2 players have no address and get no email: Ann and Bob (add addresses on the Players
    page). 1 player unsubscribed and gets none: Cat." for the publish message; "" for nobody."""
    parts = []
    if left.no_address:
        n = len(left.no_address)
        parts.append(
            format_html(
                ' {} {} no address and {} no email: {} (add {} on <a href="{}">the Players '
                "page</a>).",
                count(n, "player"),
                "has" if n == 1 else "have",
                "gets" if n == 1 else "get",
                listed([p.name for p in left.no_address]),
                "an address" if n == 1 else "addresses",
                reverse("player_list", args=[club.slug]),
            )
        )
    if left.unsubscribed:
        n = len(left.unsubscribed)
        parts.append(
            format_html(
                " {} unsubscribed and {} none: {}.",
                count(n, "player"),
                "gets" if n == 1 else "get",
                listed([p.name for p in left.unsubscribed]),
            )
        )
    return format_html_join("", "{}", ((part,) for part in parts))


@login_required
@require_POST
def debt_pay(request: HttpRequest, slug: str, debt_id: int) -> HttpResponse:
    """Mark a payment paid, in full (no amount) or in part: the secretary, or the payee."""
    club = access.club_or_404(slug)
    debt = get_object_or_404(Debt.objects.select_related("payee", "night"), pk=debt_id, club=club)
    can_manage = access.can(request.user, club, access.MANAGE)
    if not can_manage and debt.payee.user_id != request.user.pk:
        raise Http404("No such payment")
    form = PaymentForm(request.POST, club=club)
    back = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = (
            reverse("night_detail", args=[club.slug, debt.night_id]) + "#owed"
            if can_manage
            else reverse("me", args=[club.slug])
        )
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect(back)
    try:
        paid = ledger.mark_paid(
            debt,
            form.cleaned_data["amount"],
            access.acting_user(request),
            club=club,
            note=form.cleaned_data["note"],
        )
    except ledger.LedgerError as error:
        messages.error(request, str(error))
    else:
        left = f"; {club.format_amount(paid.outstanding)} still owed" if paid.outstanding else ""
        messages.success(
            request,
            f"{paid.debt.payer} paid {paid.debt.payee} {club.format_amount(paid.amount)}{left}.",
        )
    return redirect(back)


@login_if_hidden
def payment_undo(request: HttpRequest, slug: str, settlement_id: int) -> HttpResponse:
    """GET: what undoing a payment means; POST: undo it (the debt is owed again, audited)."""
    club = access.get_club(request, slug, access.MANAGE)
    settlement = get_object_or_404(
        Settlement.objects.select_related("debt", "debt__payer", "debt__payee", "debt__night"),
        pk=settlement_id,
        debt__club=club,
        kind=Settlement.Kind.PAID,
    )
    debt = settlement.debt
    back = reverse("night_detail", args=[club.slug, debt.night_id]) + "#owed"
    if request.method == "POST":
        try:
            undone = ledger.undo_payment(settlement, access.acting_user(request), club=club)
        except ledger.LedgerError as error:
            messages.error(request, str(error))
        else:
            amount = club.format_amount(settlement.amount)
            if undone:
                messages.success(
                    request, f"Undone: {debt.payer} owes {debt.payee} {amount} again on this one."
                )
            else:
                messages.info(request, "That payment was undone already.")
        return redirect(back)
    return render(
        request,
        "money/ledger/undo.html",
        {"club": club, "settlement": settlement, "debt": debt, "back": back},
    )


@never_cache
@login_if_hidden
def club_ledger(request: HttpRequest, slug: str) -> HttpResponse:
    """The secretary's ledger: who owes whom since which night, each player's balance, and the
    pairs whose debts can be netted."""
    club = access.get_club(request, slug, access.MANAGE)
    if not ledger.keeps_ledger(club):
        raise Http404("A points club keeps no ledger")
    owed = ledger.owed_pairs(club)
    balances: dict[int, int] = {}
    for (payer, payee), amount in owed.items():
        balances[payee] = balances.get(payee, 0) + amount
        balances[payer] = balances.get(payer, 0) - amount
    players = {p.pk: p for p in Player.objects.filter(pk__in=balances)}
    rows = sorted(
        ((players[pk], value) for pk, value in balances.items() if value),
        key=lambda row: (-row[1], row[0].name.lower()),
    )
    # The list of debts is paged: a club that never marks anything paid still gets a quick page.
    page = Paginator(ledger.open_debts_query(club), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "money/ledger/club.html",
        {
            "club": club,
            "page": page,
            "pay_rows": pay_rows(club, list(page.object_list), True, None, debt_pay_url(club)),
            "balances": rows,
            "pairs": ledger.nettable_pairs(owed, players),
        },
    )


@login_required
@require_POST
def ledger_net(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    form = NettingForm(request.POST, club=club)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("club_ledger", slug=club.slug)
    try:
        netted = ledger.net_pair(
            club,
            form.cleaned_data["first"],
            form.cleaned_data["second"],
            access.acting_user(request),
        )
    except ledger.LedgerError as error:
        messages.error(request, str(error))
    else:
        left = (
            f"one payment is left: {netted.payer} pays {netted.payee} "
            f"{club.format_amount(netted.left)}"
            if netted.left
            else "they are square"
        )
        messages.success(request, f"{club.format_amount(netted.amount)} netted off: {left}.")
    return redirect("club_ledger", slug=club.slug)


# At the root, beside the table link's own URLs (club/play/views/table_links.py).
link_urlpatterns = [
    path("t/<str:token>/pay/<int:debt_id>/", link_pay, name="link_pay"),
]

urlpatterns = [
    path("nights/<int:night_id>/publish/", night_publish, name="night_publish"),
    path("ledger/", club_ledger, name="club_ledger"),
    path("ledger/net/", ledger_net, name="ledger_net"),
    path("ledger/<int:debt_id>/pay/", debt_pay, name="debt_pay"),
    path("ledger/payments/<int:settlement_id>/undo/", payment_undo, name="payment_undo"),
]


def _night_page(
    sender: object, request: HttpRequest, club: Club, night: Night, **kwargs: object
) -> dict[str, Any]:
    return night_context(request, club, night)


def _table_page(sender: object, route: Any, **kwargs: object) -> dict[str, Any]:
    # Sent for a table's link (route.via) on a closed night only (club/play/views/table_page.py).
    # Money owed to this table's players, marked paid by the payee at the table.
    return {
        "owed_rows": link_pay_rows(
            route, lambda debt: reverse("link_pay", args=[route.token, debt.pk])
        )
    }


def _player_page(
    sender: object, request: HttpRequest, club: Club, player: Player, **kwargs: object
) -> dict[str, Any]:
    return player_context(request, club, player)


def connect() -> None:
    """The night page and a table's link page show what the ledger keeps
    (club/play/services/signals.py)."""
    signals.night_page.connect(_night_page, dispatch_uid="money.night_page")
    signals.table_page.connect(_table_page, dispatch_uid="money.table_page")
    grades_signals.player_page.connect(_player_page, dispatch_uid="money.player_page")
