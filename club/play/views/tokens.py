"""Revoking and re-issuing an issued token, a table's link or a table's card, for the club's
secretary: GET asks to confirm and says what it means, POST does it (club.play.services.tokens,
which
audits it). Another club's link or card is a 404, as a missing one; only a secretary may.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse

from club.clubs.models import Club
from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.play.models import Table, TableCard
from club.play.queries import night_access
from club.play.services import table_cards as card_service
from club.play.services import table_links as link_service
from club.play.services import tokens


@dataclass(frozen=True)
class Issued:
    """One token as the confirmation page and the messages speak of it."""

    holder: tokens.Holder[Any]
    owner: str  # "table 3", "Table 3": who gets a new one
    noun: str  # "link", "card"
    back: str  # the page its revoke and re-issue buttons are on
    revoke_means: str
    reissue_means: str
    revoked: str
    not_live: str
    reissued: str

    @property
    def name(self) -> str:
        return f"{self.owner}'s {self.noun}"


def _table_link(request: HttpRequest, club: Club, night_id: int, table_id: int) -> Issued:
    night = night_access.get_night(request, club, night_id, access.MANAGE)
    table = get_object_or_404(Table, pk=table_id, night=night)
    table.night = night
    n = table.number
    return Issued(
        holder=link_service.holder(table),
        owner=f"table {n}",
        noun="link",
        back=reverse("night_links", args=[club.slug, night.pk]),
        revoke_means=(
            f'Phones that opened the link or scanned the QR code of table {n} will get "not '
            'found" and can enter no more hands. The hands already entered stay. You can issue '
            "a new link for the table afterwards."
        ),
        reissue_means=(
            f"Table {n}'s current link and QR code stop working at once; the table gets a new "
            "link and QR code to scan. The hands already entered stay."
        ),
        revoked=(
            f'Table {n}\'s link is revoked: phones that have it get "not found". Issue a new '
            "link when the table needs one."
        ),
        not_live=f"Table {n} had no live link.",
        reissued=(
            f"Table {n} has a new link: the old one no longer works. Show the table its new "
            "QR code."
        ),
    )


def _table_card(request: HttpRequest, club: Club, card_id: int) -> Issued:
    card = get_object_or_404(TableCard, pk=card_id, club=club)
    return Issued(
        holder=card_service.holder(card),
        owner=card.label,
        noun="card",
        back=reverse("table_cards", args=[club.slug]),
        revoke_means=(
            'Scanning the printed card will show "not found". A table it already seated keeps '
            "its link for tonight. You can re-issue the card afterwards."
        ),
        reissue_means=(
            "The printed card stops working at once; print the new one and put it on the table."
        ),
        revoked=(
            f'{card.label}\'s card is revoked: scanning it shows "not found". Re-issue it to '
            "print a new one."
        ),
        not_live=f"{card.label}'s card was revoked already.",
        reissued=f"{card.label} has a new card: the old one no longer works. Print the new one.",
    )


KINDS: dict[str, Callable[..., Issued]] = {"link": _table_link, "card": _table_card}


@login_if_hidden
def token_change(
    request: HttpRequest, slug: str, kind: str, action: str, **ids: int
) -> HttpResponse:
    """GET: what revoking (or re-issuing) the link or card means; POST: do it."""
    club = access.get_club(request, slug, access.MANAGE)
    issued = KINDS[kind](request, club, **ids)
    revoking = action == "revoke"
    if request.method == "POST":
        user = access.acting_user(request)
        if revoking:
            if tokens.revoke(issued.holder, user):
                messages.success(request, issued.revoked)
            else:
                messages.info(request, issued.not_live)
        else:
            try:
                tokens.reissue(issued.holder, user)
            except ValidationError as refused:
                messages.error(request, " ".join(refused.messages))
            else:
                messages.success(request, issued.reissued)
        return redirect(issued.back)
    context = {"club": club, "issued": issued, "revoking": revoking}
    return render(request, "play/tokens/change.html", context)


def _change(route: str, kind: str, action: str, name: str):
    return path(route, token_change, {"kind": kind, "action": action}, name=name)


club_urlpatterns = [
    _change(
        "nights/<int:night_id>/links/<int:table_id>/revoke/", "link", "revoke", "table_link_revoke"
    ),
    _change(
        "nights/<int:night_id>/links/<int:table_id>/reissue/",
        "link",
        "reissue",
        "table_link_reissue",
    ),
    _change("setup/cards/<int:card_id>/revoke/", "card", "revoke", "table_card_revoke"),
    _change("setup/cards/<int:card_id>/reissue/", "card", "reissue", "table_card_reissue"),
]
