"""Tables' links: a phone at the table opens `/t/<token>/` and scores that table with no account.

The link serves the table page's own views (club.play.views.hands, through a TableRoute of the link)
and nothing else: that table's sheet and entry form, corrections and deletions of that table's
hands only, and a second player's confirmation when the club asks for one. A revoked or replaced
token, or a table that no longer exists, is a 404 with a page that says what to do; after the
night is closed the link shows the table's final sheet. Writes are rate-limited per link.

The secretary's side is here too: each table's link and QR code for a night, a page of QR codes
to print or show on a screen, revoking and re-issuing one table's link, and confirming hands
that wait for a second player.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

import segno
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from club.clubs.models import Club, Player
from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.clubs.services import ratelimit
from club.lib import zones
from club.lib.htmx import htmx
from club.lib.request_club import note_club
from club.play.forms.table_links import ConfirmHandForm, DeviceForm
from club.play.models import Hand, Night, TableLink
from club.play.queries import night_access
from club.play.queries.night import night_tables
from club.play.queries.table_sheet import prefetch_seats
from club.play.services import table_links as link_service
from club.play.services.hand_entry import LinkSource
from club.play.services.hands import HandConflict
from club.play.views import hands as table_views
from club.play.views.hand_save import save_new_hand
from club.play.views.table_page import (
    closed,
    club_hand,
    done,
    hand_page,
    page_context,
    sheet_unchanged,
    whole_page,
)
from club.play.views.table_route import TableRoute

LINK_PAGE = "play/table_links/table.html"
NOT_FOUND = "play/table_links/not_found.html"
# Per link: at most this many writes (saves, corrections, deletions, confirmations) in the window.
# A table enters a hand every few minutes; an offline phone sending its queue sends a few at once.
WRITE_LIMIT, WRITE_WINDOW = getattr(settings, "TABLE_LINK_WRITE_LIMIT", (30, 60))
DEVICES = "table_link_devices"  # session key: link id -> the phone's name


# --- the phone's side: /t/<token>/... ----------------------------------------------------------


def _not_found(request: HttpRequest) -> HttpResponse:
    return render(request, NOT_FOUND, {}, status=404)


def _device(request: HttpRequest, link: TableLink) -> str:
    return request.session.get(DEVICES, {}).get(str(link.pk), "")


def _route(request: HttpRequest, link: TableLink, token: str) -> TableRoute:
    table = prefetch_seats(link.table)
    via = LinkSource(link, _device(request, link))
    club = table.night.season.club
    return TableRoute(club, table, True, None, via=via, token=token, page=LINK_PAGE)


def _too_many(request: HttpRequest, route: TableRoute, retry_after: int) -> HttpResponse:
    message = (
        f"Too many changes from this table's link in the last minute: nothing was saved. "
        f"Wait {retry_after} seconds, check the sheet, then save again."
    )
    if htmx(request):
        response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    else:
        context = {
            "message": message,
            "route": route,
            "table_link": route.via.link if route.via else None,
        }
        response = render(request, "play/table_links/too_many.html", context, status=429)
    response["Retry-After"] = str(retry_after)
    return response


LinkView = Callable[..., HttpResponse]


def by_link(view: Callable[..., HttpResponse]) -> LinkView:
    """Find the live link the token names (else the clear 404 page), build its route, and count
    every write (POST) against the link's limit before doing it."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        link = link_service.find(token)
        if link is None:
            return _not_found(request)
        route = _route(request, link, token)
        note_club(request, route.club.slug)  # for the request's log line
        zones.activate(route.club)
        if request.method == "POST" and getattr(view, "counts_as_write", True):
            verdict = ratelimit.hit(f"table-link:{link.token_hash}", WRITE_LIMIT, WRITE_WINDOW)
            if not verdict.allowed:
                return _too_many(request, route, verdict.retry_after)
        return view(request, route, *args, **kwargs)

    return wrapper


def _link_hand(route: TableRoute, hand_id: int) -> Hand | None:
    """A hand of this link's table only: another table's, night's or club's hand is not found."""
    hand = (
        Hand.objects.select_related(
            "rule_set",
            "dealer",
            "sitting_out",
            "declarer",
            "partner",
            "penalty_by",
            "last_trick_by",
        )
        .filter(pk=hand_id, table=route.table)
        .first()
    )
    if hand is not None:
        hand.table = route.table
    return hand


def _preview_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    # Read by the write limit: a preview is not a change.
    view.counts_as_write = False  # type: ignore[attr-defined]
    return view


@never_cache
@sheet_unchanged
@require_http_methods(["GET", "HEAD"])
@by_link
def link_table(request: HttpRequest, route: TableRoute) -> HttpResponse:
    return table_views.show_table(request, route)


@never_cache
@require_http_methods(["GET", "POST"])
@by_link
@_preview_only
def link_form(request: HttpRequest, route: TableRoute) -> HttpResponse:
    return table_views.show_form(request, route)


@require_http_methods(["GET", "POST"])
@by_link
@_preview_only
def link_preview(request: HttpRequest, route: TableRoute) -> HttpResponse:
    return table_views.show_preview(request, route)


@require_POST
@by_link
def link_create(request: HttpRequest, route: TableRoute) -> HttpResponse:
    return save_new_hand(request, route)


@never_cache
@require_http_methods(["GET", "POST"])
@by_link
def link_edit(request: HttpRequest, route: TableRoute, hand_id: int) -> HttpResponse:
    hand = _link_hand(route, hand_id)
    if hand is None:
        return _not_found(request)
    return table_views.do_edit(request, route, hand)


@never_cache
@require_http_methods(["GET", "POST"])
@by_link
def link_delete(request: HttpRequest, route: TableRoute, hand_id: int) -> HttpResponse:
    hand = _link_hand(route, hand_id)
    if hand is None:
        return _not_found(request)
    return table_views.do_delete(request, route, hand)


def _players_in(hand: Hand, route: TableRoute) -> list[Player]:
    return [s.player for s in route.table.seats.all() if s.player_id != hand.sitting_out_id]


@never_cache
@require_http_methods(["GET", "POST"])
@by_link
def link_confirm(request: HttpRequest, route: TableRoute, hand_id: int) -> HttpResponse:
    """GET: the hand and "who confirms?"; POST: a second player confirms it."""
    hand = _link_hand(route, hand_id)
    if hand is None:
        return _not_found(request)
    return _confirm(request, route, hand, _players_in(hand, route))


def _confirm(
    request: HttpRequest, route: TableRoute, hand: Hand, players: list[Player] | None
) -> HttpResponse:
    """The confirmation card (in the entry area) and its POST, for a link or a secretary."""
    if route.table.night.is_closed:
        return closed(request, route)
    if request.method == "GET":
        form = ConfirmHandForm(initial={"version": hand.version}, players=players)
        return _confirm_page(request, route, hand, form)
    form = ConfirmHandForm(request.POST, players=players)
    if not form.is_valid():
        return _confirm_page(request, route, hand, form, status=422)
    try:
        link_service.confirm_hand(
            hand,
            form.cleaned_data["version"],
            user=route.user,
            via=route.via,
            confirmer=form.cleaned_data.get("confirmer"),
        )
    except HandConflict as conflict:
        route.table.night.refresh_from_db()
        if route.table.night.is_closed:
            return closed(request, route)
        return _confirm_page(request, route, hand, form, status=409, conflict=str(conflict))
    who = form.cleaned_data.get("confirmer")
    by = f" by {who.name}" if who else ""
    return done(request, route, f"Hand {hand.number} confirmed{by}.")


def _confirm_page(
    request: HttpRequest,
    route: TableRoute,
    hand: Hand,
    form: ConfirmHandForm,
    status: int = 200,
    conflict: str = "",
) -> HttpResponse:
    extra = {"confirm_form": form, "hand": hand, "mode": "confirm", "conflict": conflict}
    if htmx(request):
        context = page_context(request, route, **extra)
        return render(request, "play/table_links/confirm.html#card", context, status=status)
    return hand_page(request, route, "play/table_links/confirm.html", status, extra)


@require_POST
@by_link
def link_device(request: HttpRequest, route: TableRoute) -> HttpResponse:
    """Remember the phone's name for this link (in the session), for the audit trail."""
    form = DeviceForm(request.POST)
    if not form.is_valid():
        return whole_page(request, route, status=422, device_form=form)
    assert route.via is not None
    devices = dict(request.session.get(DEVICES, {}))
    devices[str(route.via.link.pk)] = form.cleaned_data["device"]
    request.session[DEVICES] = devices
    name = form.cleaned_data["device"]
    messages.success(
        request, f"This phone is now called {name}." if name else "This phone has no name now."
    )
    return redirect(route.url("table"))


# --- the secretary's side ----------------------------------------------------------------------


def qr_svg(url: str, title: str) -> SafeString:
    """The URL's QR code as inline SVG, drawn here (nothing from a CDN); CSS sets its size."""
    qr = segno.make(url, error="m")
    svg = qr.svg_inline(scale=4, border=4, omitsize=True, svgclass="qr", title=title)
    # Our own URL and title, escaped by segno: safe to put in the page as it is.
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))


def qr_data_uri(url: str) -> str:
    """The same QR code as a data: URL, for the PDF sheets."""
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2, dark="#000", light="#fff")


def link_url(request: HttpRequest, link: TableLink) -> str:
    return request.build_absolute_uri(reverse("link_table", args=[link.token]))


def _night_links(request: HttpRequest, night: Night) -> list[dict[str, Any]]:
    links = link_service.night_links(night, access.acting_user(request))
    rows = []
    for summary in night_tables(night):
        link = links.get(summary.table.pk)
        row: dict[str, Any] = {"summary": summary, "link": link}
        if link is not None:
            row["url"] = link_url(request, link)
            row["qr"] = qr_svg(row["url"], f"Table {summary.table.number}'s link")
        rows.append(row)
    return rows


@login_if_hidden
def night_links(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """Each table's link and QR code, with revoke and re-issue; `print/` lays them out on A4."""
    club = access.get_club(request, slug, access.MANAGE)
    night = night_access.get_night(request, club, night_id, access.MANAGE)
    match = request.resolver_match
    printing = match is not None and match.url_name == "night_links_print"
    template = "play/table_links/print.html" if printing else "play/table_links/night.html"
    context = {"club": club, "night": night, "links": _night_links(request, night)}
    return render(request, template, context)


def _club_route(request: HttpRequest, club, hand: Hand) -> TableRoute:
    can_score = access.can(request.user, club, access.SCORE)
    return TableRoute(club, prefetch_seats(hand.table), can_score, access.acting_user(request))


@never_cache
@login_if_hidden
def hand_confirm(request: HttpRequest, slug: str, hand_id: int) -> HttpResponse:
    """A secretary confirms a hand that waits for a second player (from the night page), or
    opens it to correct it on the table page."""
    club, hand = club_hand(request, slug, hand_id, access.MANAGE)
    route = _club_route(request, club, hand)
    if request.method == "POST" and not htmx(request) and request.POST.get("next") == "night":
        form = ConfirmHandForm(request.POST)
        if not form.is_valid():
            messages.error(request, "That form was out of date: look at the hand again.")
        else:
            try:
                link_service.confirm_hand(
                    hand, form.cleaned_data["version"], user=access.acting_user(request)
                )
            except HandConflict as conflict:
                messages.error(request, str(conflict))
            else:
                messages.success(
                    request, f"Table {hand.table.number}, hand {hand.number} is confirmed."
                )
        return redirect(
            reverse("night_detail", args=[club.slug, hand.table.night_id]) + "#unconfirmed"
        )
    return _confirm(request, route, hand, None)


urlpatterns = [
    path("t/<str:token>/", link_table, name="link_table"),
    path("t/<str:token>/hands/", link_create, name="link_create"),
    path("t/<str:token>/preview/", link_preview, name="link_preview"),
    path("t/<str:token>/form/", link_form, name="link_form"),
    path("t/<str:token>/device/", link_device, name="link_device"),
    path("t/<str:token>/hands/<int:hand_id>/edit/", link_edit, name="link_edit"),
    path("t/<str:token>/hands/<int:hand_id>/delete/", link_delete, name="link_delete"),
    path("t/<str:token>/hands/<int:hand_id>/confirm/", link_confirm, name="link_confirm"),
]

club_urlpatterns = [
    path("nights/<int:night_id>/links/", night_links, name="night_links"),
    path("nights/<int:night_id>/links/print/", night_links, name="night_links_print"),
    path("hands/<int:hand_id>/confirm/", hand_confirm, name="hand_confirm"),
]


def table_qr_codes(request: HttpRequest, club: Club, night: Night) -> dict[int, str]:
    """QR codes (data: URLs) of the tables' links, by table id, for the printed score cards:
    only for a secretary, and only while the night takes hands (a link is a key to the table)."""
    if night.is_closed or not access.can(request.user, club, access.MANAGE):
        return {}
    links = link_service.night_links(night, access.acting_user(request))
    return {
        table_id: qr_data_uri(link_url(request, link))
        for table_id, link in links.items()
        if link is not None
    }
