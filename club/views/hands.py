"""The table page, the heart of the product: the sheet of hands with every player's amount and the
running totals, and entering, correcting and deleting hands.

Every change goes through club.services.hands (one transaction, conflicts, audit). With htmx the
page swaps partials of templates/club/table.html; without it, the same URLs answer with full
pages and redirects.

The same code serves a member of the club logged in (the views below) and a phone that opened a
table's link (club/views/table_links.py): each view builds a TableRoute, which says who may
change hands, who the audit trail records, and the URLs the page and its partials use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_http_methods, require_POST

import scoring
from club import access
from club.forms.hands import (
    DeleteHandForm,
    HandForm,
    edit_hand_form,
    following_hand_form,
    moved_on_form,
    new_hand_form,
    posted_hand_form,
)
from club.models import Club, Hand, Night, Table
from club.names import short_names
from club.queries.money_owed import link_pay_rows
from club.queries.sheet_version import etag_of_hands, sheet_etag
from club.queries.table_sheet import (
    TableSheet,
    prefetch_seats,
    saved_row,
    table_sheet,
    table_totals,
)
from club.services import hands as hand_service
from club.views.posted import posted_id

PAGE = "club/table.html"
CLOSED_MESSAGE = (
    "This night is closed: the sheet is final. A secretary must reopen it to change it."
)
CORRECTION_MESSAGE = (
    "This night is closed and provisional: as secretary you may still correct it until its "
    "results are published."
)


def _locked(request: HttpRequest, route: TableRoute, night: Night) -> bool:
    """No changes at this night for this person: closed, unless a secretary (signed in, not a
    table's link) is correcting it in its correction window."""
    return night.is_closed and not (
        night.is_provisional
        and route.via is None
        and access.can(request.user, route.club, access.MANAGE)
    )


# --- how the person reached the table ----------------------------------------------------------

# The club's URL names for the table page's actions (the table's link has its own, "link_...").
_CLUB_URLS = {
    "table": "table_detail",
    "create": "hand_create",
    "preview": "hand_preview",
    "form": "hand_form",
    "edit": "hand_edit",
    "delete": "hand_delete",
    "confirm": "hand_confirm",
}
_HAND_ACTIONS = {"edit", "delete", "confirm"}


@dataclass(frozen=True)
class TableRoute:
    """A member of the club at the table page, or a phone that opened the table's link."""

    club: Club
    table: Table
    can_score: bool
    user: AbstractBaseUser | None
    via: hand_service.LinkSource | None = None
    token: str = ""  # the table link's token, for its URLs
    page: str = PAGE

    def url(self, action: str, hand_id: int | None = None) -> str:
        """The URL of one of the table page's actions ("edit" and "delete" name a hand)."""
        if self.via is not None:
            args: list[Any] = [self.token]
            name = f"link_{action}"
        else:
            args = [self.club.slug]
            name = _CLUB_URLS[action]
            if action not in _HAND_ACTIONS:
                args.append(self.table.pk)
        if action in _HAND_ACTIONS:
            args.append(hand_id)
        return reverse(name, args=args)


def _member_route(request: HttpRequest, club: Club, table: Table) -> TableRoute:
    can_score = access.can(request.user, club, access.SCORE)
    return TableRoute(club, table, can_score, request.user)


# --- fetching, always scoped to the club -------------------------------------------------------


def _club_table(request: HttpRequest, slug: str, table_id: int, power: str) -> tuple[Club, Table]:
    club = access.get_club(request, slug)
    table = access.get_table(request, club, table_id, power)
    return club, prefetch_seats(table)


def _club_hand(request: HttpRequest, slug: str, hand_id: int, power: str) -> tuple[Club, Hand]:
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


def _hand_in_table(request: HttpRequest, table: Table) -> Hand | None:
    """The hand named by `?hand=` (the edit form's preview and re-render), within this table."""
    hand_id = posted_id(request.GET.get("hand"))
    if hand_id is None:
        return None
    return _hand_at_table(table, hand_id)


def _hand_at_table(table: Table, hand_id: int) -> Hand:
    hand = get_object_or_404(
        Hand.objects.select_related(
            "rule_set", "dealer", "declarer", "partner", "penalty_by", "last_trick_by"
        ),
        pk=hand_id,
        table=table,
    )
    hand.table = table
    return hand


# --- rendering ---------------------------------------------------------------------------------


def _context(request: HttpRequest, route: TableRoute, **extra: Any) -> dict[str, Any]:
    club, table = route.club, route.table
    night = table.night
    can_score = route.can_score
    context = {
        "route": route,
        "table_link": route.via.link if route.via else None,
        "club": club,
        "table": table,
        "night": night,
        "rule_set": night.season.rule_set,
        "can_score": can_score,
        "can_change": can_score and not _locked(request, route, night),
        # A hand waiting for a second player: anyone at the table's link, or a secretary.
        "can_confirm": route.via is not None or access.can(request.user, club, access.MANAGE),
        "closed_message": (
            CLOSED_MESSAGE
            if _locked(request, route, night)
            else CORRECTION_MESSAGE
            if night.is_closed
            else ""
        ),
        "mode": "new",
        "show_errors": True,
        # At a tournament's table: its round and hands per round (fetched with the table).
        "tournament": getattr(night, "tournament", None),
    }
    if route.via is not None and night.is_closed:
        # Money owed to this table's players, marked paid by the payee at the table.
        context["owed_rows"] = link_pay_rows(route)
    context.update(extra)
    form = context.get("form")
    if isinstance(form, HandForm) and "bar_totals" not in context:
        context["bar_totals"] = _bar_totals(table, context.get("sheet"))
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


def _bar_totals(
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


def _new_form(table: Table) -> HandForm:
    form = new_hand_form(table)
    form.focus("contract")
    return form


def _page(request: HttpRequest, route: TableRoute, status: int = 200, **extra: Any) -> HttpResponse:
    """The whole table page (also the answer to a POST made without htmx that went wrong)."""
    table = route.table
    can_change = route.can_score and not _locked(request, route, table.night)
    if can_change and "form" not in extra:
        extra["form"] = _new_form(table)
    extra.setdefault("sheet", table_sheet(table))
    context = _context(request, route, **extra)
    context["sheet_etag"] = etag_of_hands(table, (row.hand for row in context["sheet"].rows))
    return render(request, route.page, context, status=status)


def _entry(request: HttpRequest, route: TableRoute, status: int = 200, **extra: Any):
    """Just the entry area (form, confirmation or notice), swapped in place by htmx."""
    return render(request, f"{PAGE}#entry", _context(request, route, **extra), status=status)


def _entry_and_sheet(
    request: HttpRequest, route: TableRoute, status: int = 200, **extra: Any
) -> HttpResponse:
    """After a change: a fresh form for the next hand, and the sheet swapped out of band."""
    table = route.table
    if not _locked(request, route, table.night):
        extra.setdefault("form", _new_form(table))
    extra["sheet"] = table_sheet(table)
    context = _context(request, route, **extra)
    response = render(request, f"{PAGE}#entry-and-sheet", context, status=status)
    # The sheet just sent, so the page's "changed elsewhere?" check starts from it.
    response["X-Sheet-ETag"] = etag_of_hands(table, (row.hand for row in context["sheet"].rows))
    return response


def _closed(request: HttpRequest, route: TableRoute) -> HttpResponse:
    """A change refused because the night is closed (409 Conflict), with the reason."""
    if request.htmx:
        return _entry_and_sheet(request, route, status=409)
    return _page(request, route, status=409)


def _refused(
    request: HttpRequest, route: TableRoute, conflict: hand_service.HandConflict
) -> HttpResponse:
    """A change refused because the sheet changed under it (the hand was deleted meanwhile, a
    double click): 409 Conflict with the sheet as it is now, a fresh form and the reason."""
    route.table.night.refresh_from_db()
    if request.htmx:
        return _entry_and_sheet(request, route, status=409, conflict=str(conflict))
    return _page(request, route, status=409, conflict=str(conflict))


def _done(request: HttpRequest, route: TableRoute, message: str) -> HttpResponse:
    if request.htmx:
        return _entry_and_sheet(request, route, saved=message)
    messages.success(request, message)
    return redirect(route.url("table") + "#entry")


def _changed(
    request: HttpRequest,
    route: TableRoute,
    message: str,
    from_number: int,
    gone: int | None = None,
) -> HttpResponse:
    """The answer to a correction or a deletion: a fresh form and, out of band, the rows from
    hand `from_number` on (their running totals moved), the totals, and the row `gone` a deletion
    left over at the end. Earlier rows did not change and are not sent."""
    if not request.htmx:
        messages.success(request, message)
        return redirect(route.url("table") + "#entry")
    table = route.table
    extra: dict[str, Any] = {"saved": message}
    if not _locked(request, route, table.night):
        extra["form"] = _new_form(table)
    sheet = table_sheet(table)
    context = _context(request, route, sheet=sheet, **extra)
    context.update(
        changed_rows=sheet.rows[from_number - 1 :],
        gone_row=gone,
        whole_sheet=not sheet.rows,
    )
    response = render(request, f"{PAGE}#changed", context)
    response["X-Sheet-ETag"] = etag_of_hands(table, (row.hand for row in sheet.rows))
    return response


# --- the views ---------------------------------------------------------------------------------
# Each view checks the member's role and builds the route; the work is in the show_/do_ functions
# below, which the table's link calls too.


@require_http_methods(["GET", "HEAD"])
def table_detail(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The sheet; scorers also get the form for the next hand while the night is open."""
    club, table = _club_table(request, slug, table_id, access.READ)
    return show_table(request, _member_route(request, club, table))


@login_required
@require_http_methods(["GET", "POST"])
def hand_form(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    club, table = _club_table(request, slug, table_id, access.SCORE)
    return show_form(request, _member_route(request, club, table))


@login_required
@require_http_methods(["GET", "POST"])
def hand_preview(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    club, table = _club_table(request, slug, table_id, access.SCORE)
    return show_preview(request, _member_route(request, club, table))


@login_required
@require_POST
def hand_create(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    club, table = _club_table(request, slug, table_id, access.SCORE)
    return do_create(request, _member_route(request, club, table))


@login_required
@require_http_methods(["GET", "POST"])
def hand_edit(request: HttpRequest, slug: str, hand_id: int) -> HttpResponse:
    club, hand = _club_hand(request, slug, hand_id, access.SCORE)
    return do_edit(request, _member_route(request, club, hand.table), hand)


@login_required
@require_http_methods(["GET", "POST"])
def hand_delete(request: HttpRequest, slug: str, hand_id: int) -> HttpResponse:
    club, hand = _club_hand(request, slug, hand_id, access.SCORE)
    return do_delete(request, _member_route(request, club, hand.table), hand)


# --- the work, for a member or a table's link --------------------------------------------------


def show_table(request: HttpRequest, route: TableRoute) -> HttpResponse:
    if request.htmx and not request.htmx.boosted:
        # The page asks every few seconds whether the sheet changed elsewhere (another device
        # at the table): "304 Not Modified" after one aggregate query when nothing did.
        etag = sheet_etag(route.table)
        if request.headers.get("If-None-Match") == etag:
            response = HttpResponse(status=304)
        else:
            sheet = table_sheet(route.table)
            context = _context(request, route, sheet=sheet)
            if context["can_change"]:
                context["bar_totals"] = _bar_totals(route.table, sheet)
            response = render(request, f"{PAGE}#sheet-poll", context)
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        return response
    return _page(request, route)


def show_form(request: HttpRequest, route: TableRoute) -> HttpResponse:
    """The entry form alone: GET a fresh one for the next hand (Cancel); POST the fields to draw
    it again for another dealer (at a table of five that changes who plays). Saves nothing."""
    table = route.table
    if not request.htmx and request.method == "GET":
        return redirect(route.url("table"))
    if _locked(request, route, table.night):
        return _entry(request, route)
    hand = _hand_in_table(request, table)
    data = request.POST if request.method == "POST" else None
    form = new_hand_form(table, data) if hand is None else edit_hand_form(hand, data)
    form.focus("dealer" if data is not None else "contract")
    mode = "new" if hand is None else "edit"
    return _entry(request, route, form=form, hand=hand, mode=mode, show_errors=False)


def show_preview(request: HttpRequest, route: TableRoute) -> HttpResponse:
    """The result and every player's amount for the fields as they stand. Saves nothing."""
    table = route.table
    hand = _hand_in_table(request, table)
    data = request.POST if request.method == "POST" else request.GET
    form = new_hand_form(table, data) if hand is None else edit_hand_form(hand, data)
    return render(request, f"{PAGE}#preview", _context(request, route, form=form))


def do_create(request: HttpRequest, route: TableRoute) -> HttpResponse:
    """Save a new hand, in one pass: read the form (no query), record the hand (the service checks
    the night is open, the number, a resend, a deleted entry, under its locks, and scores it),
    then answer with what changed: the new row, the totals and the next hand's form."""
    table = route.table
    form = posted_hand_form(table, request.POST)
    if not form.is_valid() or form.entry is None:
        form.focus_first_error()
        if request.htmx:
            response = _entry(request, route, status=422, form=form)
        else:
            response = _page(request, route, status=422, form=form)
        return _outcome_headers(response, "invalid")
    try:
        hand = hand_service.record_hand(
            table,
            form.entry,
            route.user,
            form.cleaned_data.get("expected_number"),
            client_id=form.cleaned_data.get("client_id"),
            via=route.via,
        )
    except hand_service.HandGone as gone:
        response = _entry_and_sheet(request, route, status=409, conflict=str(gone))
        return _outcome_headers(response, "deleted")
    except hand_service.HandConflict as conflict:
        return _create_refused(request, route, conflict)
    if getattr(hand, "resent", False):
        # The first save went through but its reply was lost (or the offline queue sent it
        # again): say so, rather than "saved by someone else".
        message = f"Hand {hand.number} was already saved: this was the same entry sent again."
        response = _done(request, route, message)
        response["X-Hand-Number"] = str(hand.number)
        return _outcome_headers(response, "resent")
    message = f"Hand {hand.number} saved: {_outcome(form)}."
    if request.htmx:
        response = _saved(request, route, hand, message)
    else:
        messages.success(request, message)
        response = redirect(route.url("table") + "#entry")
    response["X-Hand-Number"] = str(hand.number)
    return _outcome_headers(response, "saved")


def _saved(request: HttpRequest, route: TableRoute, hand: Hand, message: str) -> HttpResponse:
    """The answer to a new hand, drawn with no query: the next hand's form, and out of band the
    new row and the totals (the whole sheet only for the table's first hand)."""
    table, state = route.table, hand.state  # type: ignore[attr-defined]
    seats = [seat.player for seat in table.seats.all()]
    amounts = {p.pk: hand.scored.amount(p) for p in hand.scored.players}  # type: ignore[attr-defined]
    row = saved_row(table, hand, amounts, state.totals)
    totals = [state.totals.get(p.pk, 0) for p in seats]
    form = following_hand_form(table, hand)
    form.focus("contract")
    sheet = TableSheet(seats=seats, rows=[row], totals=totals, count=state.count)
    moved = not set(state.totals) <= {p.pk for p in seats}
    if moved:  # a player moved to another table keeps their column: the whole sheet
        sheet = table_sheet(table)
    context = _context(
        request,
        route,
        form=form,
        saved=message,
        bar_totals=_bar_totals(table, totals=state.totals),
        row=row,
        first_row=state.count == 1 or moved,
        sheet=sheet,
    )
    response = render(request, f"{PAGE}#saved", context)
    response["X-Sheet-ETag"] = state.etag(table.night.status)
    return response


def _create_refused(
    request: HttpRequest, route: TableRoute, conflict: hand_service.HandConflict
) -> HttpResponse:
    """Someone else saved this hand (or one went missing), or the night was closed: the sheet as
    it is now and why nothing was saved. What this scorer typed stays in the form, now as the
    table's next hand, ready to save as that one."""
    table = route.table
    table.night.refresh_from_db()
    extra: dict[str, Any] = {"conflict": str(conflict)}
    outcome = "closed"
    if conflict.next_number is not None and not _locked(request, route, table.night):
        moved = moved_on_form(table, request.POST)
        moved.is_valid()  # the errors show whether it can be saved as the next hand as is
        extra.update(form=moved, moved_on=True)
        outcome = "moved-on"
    if request.htmx:
        response = _entry_and_sheet(request, route, status=409, **extra)
    else:
        response = _page(request, route, status=409, **extra)
    if outcome == "moved-on":
        response["X-Next-Number"] = str(extra["form"].number)
        response["X-Next-Dealer"] = str(extra["form"].hand_dealer.pk)
    return _outcome_headers(response, outcome)


def _outcome_headers(response: HttpResponse, outcome: str) -> HttpResponse:
    """What became of a save, for the page's offline queue (which reads no HTML): saved, resent
    (already saved), moved-on (the table's next hand is another number), closed or invalid."""
    response["X-Hand-Outcome"] = outcome
    return response


def do_edit(request: HttpRequest, route: TableRoute, hand: Hand) -> HttpResponse:
    table = route.table
    if _locked(request, route, table.night):
        return _closed(request, route)
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
        return _refused(request, route, gone)
    except hand_service.HandConflict as conflict:
        table.night.refresh_from_db()
        if _locked(request, route, table.night):
            return _closed(request, route)
        current = conflict.current
        if current is None:
            return _edit_page(request, route, hand, form, status=409, conflict=str(conflict))
        # Someone else corrected it first: the sheet as it is now, their version beside this
        # scorer's, and the form (still as typed) taking their version as its base, so Save
        # replaces theirs knowingly instead of failing the same way again.
        current = _hand_at_table(table, current.pk)
        data = request.POST.copy()
        data["version"] = str(current.version)
        again = edit_hand_form(current, data)
        again.is_valid()
        extra = {"form": again, "hand": current, "mode": "edit", "conflict": str(conflict)}
        extra["other"] = current
        if request.htmx:
            return _entry_and_sheet(request, route, status=409, **extra)
        return hand_page(request, route, "club/hands/edit.html", 409, extra)
    return _changed(request, route, f"Hand {hand.number} corrected: {_outcome(form)}.", hand.number)


def do_delete(request: HttpRequest, route: TableRoute, hand: Hand) -> HttpResponse:
    """GET asks to confirm; POST deletes, and the later hands move up one."""
    table = route.table
    if _locked(request, route, table.night):
        return _closed(request, route)
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
        return _refused(request, route, gone)
    except hand_service.HandConflict as conflict:
        table.night.refresh_from_db()
        if _locked(request, route, table.night):
            return _closed(request, route)
        return _delete_page(request, route, hand, form, status=409, conflict=str(conflict))
    message = f"Hand {hand.number} deleted; the later hands moved up."
    return _changed(request, route, message, hand.number, gone=last)


def _edit_page(
    request: HttpRequest,
    route: TableRoute,
    hand: Hand,
    form: HandForm,
    status: int = 200,
    conflict: str = "",
) -> HttpResponse:
    extra = {"form": form, "hand": hand, "mode": "edit", "conflict": conflict}
    return hand_page(request, route, "club/hands/edit.html", status, extra)


def _delete_page(
    request: HttpRequest,
    route: TableRoute,
    hand: Hand,
    form: DeleteHandForm,
    status: int = 200,
    conflict: str = "",
) -> HttpResponse:
    extra = {"delete_form": form, "hand": hand, "mode": "delete", "conflict": conflict}
    return hand_page(request, route, "club/hands/delete.html", status, extra)


def hand_page(
    request: HttpRequest,
    route: TableRoute,
    template: str,
    status: int,
    extra: dict[str, Any],
) -> HttpResponse:
    """The entry card alone for htmx (it replaces the form in place), else the whole page."""
    if request.htmx:
        return _entry(request, route, status=status, **extra)
    context = _context(request, route, **extra)
    return render(request, template, context, status=status)


def _outcome(form: HandForm) -> str:
    """ "Solo by Cat, Failed, 2 under", or "All passed: redeal"."""
    if form.entry is not None and form.entry.contract == scoring.ALL_PASSED:
        return form.result_text()
    return f"{form.describe()}, {form.result_text()}"


urlpatterns = [
    path("tables/<int:table_id>/", table_detail, name="table_detail"),
    path("tables/<int:table_id>/hands/", hand_create, name="hand_create"),
    path("tables/<int:table_id>/preview/", hand_preview, name="hand_preview"),
    path("tables/<int:table_id>/form/", hand_form, name="hand_form"),
    path("hands/<int:hand_id>/edit/", hand_edit, name="hand_edit"),
    path("hands/<int:hand_id>/delete/", hand_delete, name="hand_delete"),
]
