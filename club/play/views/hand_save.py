"""Saving a new hand, in one pass, for a member at the table page and for a phone through the
table's link alike: read the entry (the form checks its fields only), save it once
(club.play.services.hands.save_hand scores it under the night's lock) and answer from what the save
returns, with no query of its own.

The answer is small: the form stays on the page, and the answer brings the message, the new row
and the totals (htmx out-of-band swaps), and the next deal in headers (`X-Next-Number`,
`X-Next-Dealer`, `X-Next-Out`, `X-Next-Trump`), from which the page moves its form on
(static/js/table.js). `X-Hand-Outcome` says what became of the save, for the offline queue.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from club.lib.htmx import htmx
from club.play.forms.hand_factories import following_hand_form, moved_on_form, posted_hand_form
from club.play.forms.hand_words import outcome_text
from club.play.forms.hands import HandForm
from club.play.models import Hand
from club.play.queries.table_sheet import TableSheet, saved_row, table_sheet
from club.play.services import hand_entry
from club.play.services import hands as hand_service
from club.play.views.table_page import (
    bar_totals,
    done,
    entry_and_sheet,
    entry_area,
    locked,
    outcome_headers,
    page_context,
    whole_page,
)
from club.play.views.table_route import PAGE, TableRoute


def save_new_hand(request: HttpRequest, route: TableRoute) -> HttpResponse:
    """Save a new hand: read the form (no query, no scoring), save the entry once, and answer
    with what changed. The one way a new hand is saved from a page."""
    table = route.table
    form = posted_hand_form(table, request.POST)
    if not form.is_valid() or form.entry is None:
        return _invalid(request, route, form)
    try:
        saved = hand_service.save_hand(
            table,
            form.entry,
            route.user,
            form.cleaned_data.get("expected_number"),
            client_id=form.cleaned_data.get("client_id"),
            via=route.via,
        )
    except hand_service.InvalidEntry as error:
        form.add_error(None, str(error))
        return _invalid(request, route, form)
    except hand_service.HandGone as gone:
        response = entry_and_sheet(request, route, status=409, conflict=str(gone))
        return outcome_headers(response, "deleted")
    except hand_service.EntryReused as reused:
        # Another hand under the id of one saved already: both shown, the new one offered as
        # the next hand (never dropped as if it were the same entry sent again).
        return _refused(request, route, reused, other=reused.earlier)
    except hand_service.HandConflict as conflict:
        return _refused(request, route, conflict)
    return saved_answer(request, route, form, saved)


def saved_answer(
    request: HttpRequest, route: TableRoute, form: HandForm, saved: hand_service.HandSaved
) -> HttpResponse:
    """The one answer to a save that went through (saved, or the same entry sent again)."""
    hand = saved.hand
    if saved.outcome == "resent" or saved.scored is None or saved.state is None:
        # The first save went through but its reply was lost (or the offline queue sent it
        # again): say so, rather than "saved by someone else".
        message = f"Hand {hand.number} was already saved: this was the same entry sent again."
        response = done(request, route, message)
        response["X-Hand-Number"] = str(hand.number)
        return outcome_headers(response, "resent")
    assert form.entry is not None
    message = f"Hand {hand.number} saved: {outcome_text(form.entry, saved.scored, form.rules)}."
    if not htmx(request):
        messages.success(request, message)
        response = redirect(route.url("table") + "#entry")
    elif getattr(route.table.night, "tournament", None) is not None:
        # A tournament's form says "hand 3 of 4" and warns past the round: drawn afresh.
        response = _with_next_form(request, route, saved, message)
    else:
        response = _small_answer(request, route, saved, message)
    response["X-Hand-Number"] = str(hand.number)
    return outcome_headers(response, "saved")


def _row_context(route: TableRoute, saved: hand_service.HandSaved) -> dict[str, Any]:
    """The new row, the totals and the sheet's figures after the hand, from what the save read
    and wrote (no query)."""
    table, state, hand = route.table, saved.state, saved.hand
    assert state is not None
    seats = [seat.player for seat in table.seats.all()]
    row = saved_row(table, hand, saved.amounts, state.totals)
    totals = [state.totals.get(p.pk, 0) for p in seats]
    sheet = TableSheet(seats=seats, rows=[row], totals=totals, count=state.count)
    # A player moved to another table (a late arrival's new table) keeps their column here:
    # the whole sheet is drawn again, as for the table's first hand.
    moved = not set(state.totals) <= {p.pk for p in seats}
    if moved:
        sheet = table_sheet(table)
    return {
        "bar_totals": bar_totals(table, totals=state.totals),
        "row": row,
        "first_row": state.count == 1 or moved,
        "sheet": sheet,
    }


def _small_answer(
    request: HttpRequest, route: TableRoute, saved: hand_service.HandSaved, message: str
) -> HttpResponse:
    """The form stays on the page: the message, the row and the totals out of band, and the
    next deal in headers (the page resets its chips from it)."""
    table, hand, state = route.table, saved.hand, saved.state
    assert state is not None
    context = page_context(request, route, saved=message, **_row_context(route, saved))
    response = render(request, f"{PAGE}#saved-small", context)
    response["HX-Reswap"] = "none"  # the out-of-band parts only: the form is not redrawn
    response["X-Sheet-ETag"] = state.etag(table.night.status)
    coming = hand_entry.deal_after(table, hand)
    response["X-Next-Number"] = str(coming.number)
    response["X-Next-Dealer"] = coming.dealer
    response["X-Next-Out"] = coming.sitting_out or ""
    response["X-Next-Trump"] = coming.trump.value if coming.trump else ""
    return response


def _with_next_form(
    request: HttpRequest, route: TableRoute, saved: hand_service.HandSaved, message: str
) -> HttpResponse:
    """The answer with the next hand's whole form, and out of band the row and the totals."""
    table, state = route.table, saved.state
    assert state is not None
    form = following_hand_form(table, saved.hand)
    form.focus("contract")
    context = page_context(request, route, form=form, saved=message, **_row_context(route, saved))
    response = render(request, f"{PAGE}#saved", context)
    response["X-Sheet-ETag"] = state.etag(table.night.status)
    return response


def _invalid(request: HttpRequest, route: TableRoute, form: HandForm) -> HttpResponse:
    form.focus_first_error()
    if htmx(request):
        response = entry_area(request, route, status=422, form=form)
    else:
        response = whole_page(request, route, status=422, form=form)
    return outcome_headers(response, "invalid")


def _refused(
    request: HttpRequest,
    route: TableRoute,
    conflict: hand_service.HandConflict,
    other: Hand | None = None,
) -> HttpResponse:
    """Someone else saved this hand (or one went missing), or the night was closed, or this form
    already saved another hand (`other`, shown beside this one): the sheet as it is now and why
    nothing was saved. What this scorer typed stays in the form, now as the table's next hand
    under a new client id, ready to save as that one."""
    table = route.table
    table.night.refresh_from_db()
    extra: dict[str, Any] = {"conflict": str(conflict)}
    if other is not None:
        extra.update(other=other, other_label=f"Saved as hand {other.number}:")
    outcome = "closed"
    if conflict.next_number is not None and not locked(request, route, table.night):
        moved = moved_on_form(table, request.POST)
        moved.is_valid()  # the errors show whether it can be saved as the next hand as is
        extra.update(form=moved, moved_on=True)
        outcome = "moved-on"
    if htmx(request):
        response = entry_and_sheet(request, route, status=409, **extra)
    else:
        response = whole_page(request, route, status=409, **extra)
    if outcome == "moved-on":
        response["X-Next-Number"] = str(extra["form"].number)
        response["X-Next-Dealer"] = str(extra["form"].hand_dealer.pk)
    return outcome_headers(response, outcome)
