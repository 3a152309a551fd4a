"""The table page, the heart of the product: the sheet of hands with every player's amount and the
running totals, and entering, correcting and deleting hands. Views only: the page is drawn by
club.play.views.table_page, a new hand is saved by club.play.views.hand_save, and every change goes
through
club.play.services.hands (one transaction, conflicts, audit).

The same views serve a member of the club logged in and a phone that opened a table's link
(club/play/views/table_links.py): each takes a TableRoute (club.play.views.table_route), which says
who may
change hands, who the audit trail records, and the URLs the page and its partials use.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from club.clubs.queries import access
from club.lib import live_marks
from club.lib.htmx import htmx
from club.play.forms.hand_factories import edit_hand_form, new_hand_form
from club.play.forms.hand_words import outcome_text
from club.play.forms.hands import DeleteHandForm, HandForm
from club.play.models import Hand
from club.play.queries.sheet_version import sheet_etag
from club.play.queries.table_sheet import table_sheet
from club.play.services import hands as hand_service
from club.play.views.hand_save import save_new_hand
from club.play.views.table_page import (
    bar_totals,
    changed,
    closed,
    club_hand,
    club_table,
    entry_and_sheet,
    entry_area,
    hand_at_table,
    hand_in_table,
    hand_page,
    locked,
    page_context,
    refused,
    remember_sheet,
    sheet_unchanged,
    whole_page,
)
from club.play.views.table_route import PAGE, TableRoute, member_route

# --- the views ---------------------------------------------------------------------------------
# Each view checks the member's role and builds the route; the work is in the show_/do_ functions
# below, which the table's link calls too.


@never_cache
@sheet_unchanged
@require_http_methods(["GET", "HEAD"])
def table_detail(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The sheet; scorers also get the form for the next hand while the night is open."""
    club, table = club_table(request, slug, table_id, access.READ)
    return show_table(request, member_route(request, club, table))


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def hand_form(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    club, table = club_table(request, slug, table_id, access.SCORE)
    return show_form(request, member_route(request, club, table))


@login_required
@require_http_methods(["GET", "POST"])
def hand_preview(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    club, table = club_table(request, slug, table_id, access.SCORE)
    return show_preview(request, member_route(request, club, table))


@login_required
@require_POST
def hand_create(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    club, table = club_table(request, slug, table_id, access.SCORE)
    return save_new_hand(request, member_route(request, club, table))


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def hand_edit(request: HttpRequest, slug: str, hand_id: int) -> HttpResponse:
    club, hand = club_hand(request, slug, hand_id, access.SCORE)
    return do_edit(request, member_route(request, club, hand.table), hand)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def hand_delete(request: HttpRequest, slug: str, hand_id: int) -> HttpResponse:
    club, hand = club_hand(request, slug, hand_id, access.SCORE)
    return do_delete(request, member_route(request, club, hand.table), hand)


# --- the work, for a member or a table's link --------------------------------------------------


def show_table(request: HttpRequest, route: TableRoute) -> HttpResponse:
    if htmx(request) and not htmx(request).boosted:
        # The page asks whether the sheet changed elsewhere (another device at the table):
        # "304 Not Modified" after one aggregate query when nothing did, and the ETag becomes
        # the table's mark, so that the next ask is answered from the cache (sheet_unchanged).
        stamp = live_marks.stamp(route.table.night_id)
        etag = sheet_etag(route.table)
        remember_sheet(route.table, stamp, etag)
        if request.headers.get("If-None-Match") == etag:
            response = HttpResponse(status=304)
        else:
            sheet = table_sheet(route.table)
            context = page_context(request, route, sheet=sheet)
            if context["can_change"]:
                context["bar_totals"] = bar_totals(route.table, sheet)
            response = render(request, f"{PAGE}#sheet-poll", context)
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        return response
    return whole_page(request, route)


def show_form(request: HttpRequest, route: TableRoute) -> HttpResponse:
    """The entry form alone: GET a fresh one for the next hand (Cancel); POST the fields to draw
    it again for another dealer (at a table of five that changes who plays). Saves nothing."""
    table = route.table
    if not htmx(request) and request.method == "GET":
        return redirect(route.url("table"))
    if locked(request, route, table.night):
        return entry_area(request, route)
    hand = hand_in_table(request, table)
    data = request.POST if request.method == "POST" else None
    form = new_hand_form(table, data) if hand is None else edit_hand_form(hand, data)
    form.focus("dealer" if data is not None else "contract")
    mode = "new" if hand is None else "edit"
    return entry_area(request, route, form=form, hand=hand, mode=mode, show_errors=False)


def show_preview(request: HttpRequest, route: TableRoute) -> HttpResponse:
    """The result and every player's amount for the fields as they stand. Saves nothing."""
    table = route.table
    hand = hand_in_table(request, table)
    data = request.POST if request.method == "POST" else request.GET
    form = new_hand_form(table, data) if hand is None else edit_hand_form(hand, data)
    return render(request, f"{PAGE}#preview", page_context(request, route, form=form))


def do_edit(request: HttpRequest, route: TableRoute, hand: Hand) -> HttpResponse:
    table = route.table
    if locked(request, route, table.night):
        return closed(request, route)
    if request.method == "GET":
        form = edit_hand_form(hand)
        form.focus("contract")
        return _edit_page(request, route, hand, form)
    form = edit_hand_form(hand, request.POST)
    if not form.is_valid() or form.entry is None:
        form.focus_first_error()
        return _edit_page(request, route, hand, form, status=422)
    try:
        hand_service.update_hand(
            hand, form.entry, route.user, form.cleaned_data["version"], via=route.via
        )
    except hand_service.HandGone as gone:
        return refused(request, route, gone)
    except hand_service.HandConflict as conflict:
        table.night.refresh_from_db()
        if locked(request, route, table.night):
            return closed(request, route)
        current = conflict.current
        if current is None:
            return _edit_page(request, route, hand, form, status=409, conflict=str(conflict))
        # Someone else corrected it first: the sheet as it is now, their version beside this
        # scorer's, and the form (still as typed) taking their version as its base, so Save
        # replaces theirs knowingly instead of failing the same way again.
        current = hand_at_table(table, current.pk)
        data = request.POST.copy()
        data["version"] = str(current.version)
        again = edit_hand_form(current, data)
        again.is_valid()
        extra = {"form": again, "hand": current, "mode": "edit", "conflict": str(conflict)}
        extra["other"] = current
        if htmx(request):
            return entry_and_sheet(request, route, status=409, **extra)
        return hand_page(request, route, "play/hands/edit.html", 409, extra)
    assert form.entry is not None and form.scored is not None
    said = outcome_text(form.entry, form.scored, form.rules)
    return changed(request, route, f"Hand {hand.number} corrected: {said}.", hand.number)


def do_delete(request: HttpRequest, route: TableRoute, hand: Hand) -> HttpResponse:
    """GET asks to confirm; POST deletes, and the later hands move up one."""
    table = route.table
    if locked(request, route, table.night):
        return closed(request, route)
    if request.method == "GET":
        form = DeleteHandForm(initial={"version": hand.version})
        return _delete_page(request, route, hand, form)
    form = DeleteHandForm(request.POST)
    if not form.is_valid():
        return _delete_page(request, route, hand, form, status=422)
    last = table.hands.order_by("-number").values_list("number", flat=True).first() or 0
    try:
        hand_service.delete_hand(
            hand, route.user, version=form.cleaned_data["version"], via=route.via
        )
    except hand_service.HandGone as gone:
        return refused(request, route, gone)
    except hand_service.HandConflict as conflict:
        table.night.refresh_from_db()
        if locked(request, route, table.night):
            return closed(request, route)
        return _delete_page(request, route, hand, form, status=409, conflict=str(conflict))
    message = f"Hand {hand.number} deleted; the later hands moved up."
    return changed(request, route, message, hand.number, gone=last)


def _edit_page(
    request: HttpRequest,
    route: TableRoute,
    hand: Hand,
    form: HandForm,
    status: int = 200,
    conflict: str = "",
) -> HttpResponse:
    extra = {"form": form, "hand": hand, "mode": "edit", "conflict": conflict}
    return hand_page(request, route, "play/hands/edit.html", status, extra)


def _delete_page(
    request: HttpRequest,
    route: TableRoute,
    hand: Hand,
    form: DeleteHandForm,
    status: int = 200,
    conflict: str = "",
) -> HttpResponse:
    extra = {"delete_form": form, "hand": hand, "mode": "delete", "conflict": conflict}
    return hand_page(request, route, "play/hands/delete.html", status, extra)


urlpatterns = [
    path("tables/<int:table_id>/", table_detail, name="table_detail"),
    path("tables/<int:table_id>/hands/", hand_create, name="hand_create"),
    path("tables/<int:table_id>/preview/", hand_preview, name="hand_preview"),
    path("tables/<int:table_id>/form/", hand_form, name="hand_form"),
    path("hands/<int:hand_id>/edit/", hand_edit, name="hand_edit"),
    path("hands/<int:hand_id>/delete/", hand_delete, name="hand_delete"),
]
