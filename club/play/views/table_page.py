"""The table page drawn for a route (club.play.views.table_route): the whole page, the entry area
alone,
or the entry area with what changed on the sheet, and the answers to a refused change. The table
page's views (club.play.views.hands), the save (club.play.views.hand_save) and the table link's
views draw
through these; none of them decides anything about a hand.

With htmx the page swaps partials of templates/play/table.html; without it, the same URLs answer
with full pages and redirects."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from club.clubs.models import Club
from club.clubs.queries import access
from club.lib import live_marks, live_push
from club.lib.htmx import htmx
from club.lib.names import short_names
from club.lib.posted import posted_id
from club.play.forms.hand_factories import new_hand_form
from club.play.forms.hands import HandForm
from club.play.models import Hand, Night, Table
from club.play.queries import night_access
from club.play.queries.sheet_version import etag_of_hands
from club.play.queries.table_sheet import TableSheet, prefetch_seats, table_sheet, table_totals
from club.play.services import hands as hand_service
from club.play.services import signals
from club.play.views.table_route import PAGE, TableRoute

CLOSED_MESSAGE = (
    "This night is closed: the sheet is final. A secretary must reopen it to change it."
)
CORRECTION_MESSAGE = (
    "This night is closed and provisional: as secretary you may still correct it until its "
    "results are published."
)


def locked(request: HttpRequest, route: TableRoute, night: Night) -> bool:
    """No changes at this night for this person: closed, unless a secretary (signed in, not a
    table's link) is correcting it in its correction window."""
    return night.is_closed and not (
        night.is_provisional
        and route.via is None
        and access.can(request.user, route.club, access.MANAGE)
    )


_CHANNEL = re.compile(r"[0-9a-f]{64}")


def sheet_unchanged(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The sheet's poll answered "304 Not Modified" from the cache, before the session, the
    table's link or the database is read, while its table's mark holds the ETag the page shows.
    The poll names the table by its channel (X-Live-Channel): only a page shown the table knows
    it, and a 304 shows nothing."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        channel = request.headers.get("X-Live-Channel", "")
        if htmx(request) and _CHANNEL.fullmatch(channel):
            mark = live_marks.current(live_marks.sheet(channel))
            if mark and request.headers.get("If-None-Match") == mark:
                response = HttpResponse(status=304)
                response["ETag"] = mark
                response["Cache-Control"] = "no-cache"
                return response
        return view(request, *args, **kwargs)

    return wrapper


def remember_sheet(table: Table, stamp: str, etag: str) -> None:
    """The table's ETag as read after `stamp` (live_marks.stamp): the poll's next "changed?"
    is answered from the cache."""
    name = live_marks.sheet(live_push.table_channel(table.pk))
    live_marks.remember(name, table.night_id, stamp, etag)


def club_table(request: HttpRequest, slug: str, table_id: int, power: str) -> tuple[Club, Table]:
    club = access.get_club(request, slug)
    return club, night_access.get_table_with_seats(request, club, table_id, power)


def club_hand(request: HttpRequest, slug: str, hand_id: int, power: str) -> tuple[Club, Hand]:
    club = access.get_club(request, slug)
    hand = get_object_or_404(
        Hand.objects.select_related(
            "table__night__season__rule_set",
            "table__night__tournament",
            "rule_set",
            "dealer",
            "declarer",
            "partner",
            "penalty_by",
            "last_trick_by",
        ),
        pk=hand_id,
        table__night__season__club=club,
    )
    access.require(request, club, power)
    prefetch_seats(hand.table)
    return club, hand


def hand_in_table(request: HttpRequest, table: Table) -> Hand | None:
    """The hand named by `?hand=` (the edit form's preview and re-render), within this table."""
    hand_id = posted_id(request.GET.get("hand"))
    if hand_id is None:
        return None
    return hand_at_table(table, hand_id)


def hand_at_table(table: Table, hand_id: int) -> Hand:
    hand = get_object_or_404(
        Hand.objects.select_related(
            "rule_set", "dealer", "declarer", "partner", "penalty_by", "last_trick_by"
        ),
        pk=hand_id,
        table=table,
    )
    hand.table = table
    return hand


def page_context(request: HttpRequest, route: TableRoute, **extra: Any) -> dict[str, Any]:
    club, table = route.club, route.table
    night = table.night
    can_score = route.can_score
    context: dict[str, Any] = {
        "route": route,
        "table_link": route.via.link if route.via else None,
        "club": club,
        "table": table,
        "night": night,
        "rule_set": night.season.rule_set,
        "can_score": can_score,
        "can_change": can_score and not locked(request, route, night),
        # A hand waiting for a second player: anyone at the table's link, or a secretary.
        "can_confirm": route.via is not None or access.can(request.user, club, access.MANAGE),
        "closed_message": (
            CLOSED_MESSAGE
            if locked(request, route, night)
            else CORRECTION_MESSAGE
            if night.is_closed
            else ""
        ),
        "mode": "new",
        "show_errors": True,
        # At a tournament's table: its round and hands per round (fetched with the table).
        "tournament": getattr(night, "tournament", None),
        # The table's channel: the poll names it; with push the page subscribes to it.
        "live_channel": live_push.table_channel(table.pk),
        "live_url": live_push.subscriber_url(live_push.table_channel(table.pk)),
    }
    if route.via is not None and night.is_closed:
        context.update(signals.page_extras(signals.table_page, Table, route=route))
    context.update(extra)
    form = context.get("form")
    if isinstance(form, HandForm) and "bar_totals" not in context:
        context["bar_totals"] = bar_totals(table, context.get("sheet"))
    if isinstance(form, HandForm):
        hand = context.get("hand")
        if context["mode"] == "edit" and hand is not None:
            context["save_url"] = route.url("edit", hand.pk)
            query = f"?hand={hand.pk}"
        else:
            context["save_url"] = route.url("create")
            query = ""
        context["preview_url"] = route.url("preview") + query
        # A new dealer changes who plays at a table of five: draw the form again for them.
        form.fields["dealer"].widget.attrs.update(
            {
                "hx-post": route.url("form") + query,
                "hx-trigger": "change",
                "hx-target": "#entry",
                "hx-swap": "outerHTML",
                "hx-sync": "this:queue last",
            }
        )
    return context


def bar_totals(
    table: Table, sheet: TableSheet | None = None, totals: dict[int, int] | None = None
) -> list[tuple[str, Any, int]]:
    """The totals in the bar beside Save on a phone: each seat's short name (one a reader can
    tell apart), the player and their total; from the sheet or the totals already read, else
    one aggregate."""
    seats = [seat.player for seat in table.seats.all()]
    if totals is None:
        totals = (
            {p.pk: t for p, t in sheet.seat_totals} if sheet is not None else table_totals(table)
        )
    shorts = short_names([p.name for p in seats])
    return [(short, p, totals.get(p.pk, 0)) for short, p in zip(shorts, seats, strict=True)]


def new_form(table: Table) -> HandForm:
    form = new_hand_form(table)
    form.focus("contract")
    return form


def whole_page(
    request: HttpRequest, route: TableRoute, status: int = 200, **extra: Any
) -> HttpResponse:
    """The whole table page (also the answer to a POST made without htmx that went wrong)."""
    table = route.table
    can_change = route.can_score and not locked(request, route, table.night)
    if can_change and "form" not in extra:
        extra["form"] = new_form(table)
    stamp = None
    if "sheet" not in extra:
        stamp = live_marks.stamp(table.night_id)  # before the read: a save now makes it stale
        extra["sheet"] = table_sheet(table)
    context = page_context(request, route, **extra)
    context["sheet_etag"] = etag_of_hands(table, (row.hand for row in context["sheet"].rows))
    if stamp is not None:
        remember_sheet(table, stamp, context["sheet_etag"])
    return render(request, route.page, context, status=status)


def entry_area(request: HttpRequest, route: TableRoute, status: int = 200, **extra: Any):
    """Just the entry area (form, confirmation or notice), swapped in place by htmx."""
    return render(request, f"{PAGE}#entry", page_context(request, route, **extra), status=status)


def entry_and_sheet(
    request: HttpRequest, route: TableRoute, status: int = 200, **extra: Any
) -> HttpResponse:
    """After a change: a fresh form for the next hand, and the sheet swapped out of band."""
    table = route.table
    if not locked(request, route, table.night):
        extra.setdefault("form", new_form(table))
    extra["sheet"] = table_sheet(table)
    context = page_context(request, route, **extra)
    response = render(request, f"{PAGE}#entry-and-sheet", context, status=status)
    # The sheet just sent, so the page's "changed elsewhere?" check starts from it.
    response["X-Sheet-ETag"] = etag_of_hands(table, (row.hand for row in context["sheet"].rows))
    return response


def closed(request: HttpRequest, route: TableRoute) -> HttpResponse:
    """A change refused because the night is closed (409 Conflict), with the reason."""
    if htmx(request):
        return entry_and_sheet(request, route, status=409)
    return whole_page(request, route, status=409)


def refused(
    request: HttpRequest, route: TableRoute, conflict: hand_service.HandConflict
) -> HttpResponse:
    """A change refused because the sheet changed under it (the hand was deleted meanwhile, a
    double click): 409 Conflict with the sheet as it is now, a fresh form and the reason."""
    route.table.night.refresh_from_db()
    if htmx(request):
        return entry_and_sheet(request, route, status=409, conflict=str(conflict))
    return whole_page(request, route, status=409, conflict=str(conflict))


def done(request: HttpRequest, route: TableRoute, message: str) -> HttpResponse:
    if htmx(request):
        return entry_and_sheet(request, route, saved=message)
    messages.success(request, message)
    return redirect(route.url("table") + "#entry")


def changed(
    request: HttpRequest,
    route: TableRoute,
    message: str,
    from_number: int,
    gone: int | None = None,
) -> HttpResponse:
    """The answer to a correction or a deletion: a fresh form and, out of band, the rows from
    hand `from_number` on (their running totals moved), the totals, and the row `gone` a deletion
    left over at the end. Earlier rows did not change and are not sent."""
    if not htmx(request):
        messages.success(request, message)
        return redirect(route.url("table") + "#entry")
    table = route.table
    extra: dict[str, Any] = {"saved": message}
    if not locked(request, route, table.night):
        extra["form"] = new_form(table)
    sheet = table_sheet(table)
    context = page_context(request, route, sheet=sheet, **extra)
    context.update(
        changed_rows=sheet.rows[from_number - 1 :],
        gone_row=gone,
        whole_sheet=not sheet.rows,
    )
    response = render(request, f"{PAGE}#changed", context)
    response["X-Sheet-ETag"] = etag_of_hands(table, (row.hand for row in sheet.rows))
    return response


def hand_page(
    request: HttpRequest,
    route: TableRoute,
    template: str,
    status: int,
    extra: dict[str, Any],
) -> HttpResponse:
    """The entry card alone for htmx (it replaces the form in place), else the whole page."""
    if htmx(request):
        return entry_area(request, route, status=status, **extra)
    context = page_context(request, route, **extra)
    return render(request, template, context, status=status)


def outcome_headers(response: HttpResponse, outcome: str) -> HttpResponse:
    """What became of a save, for the page's offline queue (which reads no HTML): saved, resent
    (already saved), moved-on (the table's next hand is another number), closed or invalid."""
    response["X-Hand-Outcome"] = outcome
    return response
