"""Club nights: the list, setting a night up (with players added on the fly), the night page with
each player's net, the settle-up and the audit trail, closing or reopening a night, and fixing a
night set up wrongly (changing its tables that have no hands yet, or deleting it)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.urls import path
from django.utils import formats, timezone
from django.views.decorators.cache import never_cache

import scoring
from club.clubs.models import Club, Player
from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.clubs.services import setup as services
from club.lib import live_marks, live_push
from club.lib.words import count
from club.play.forms.nights import (
    MAX_TABLES,
    BaseEditTableFormSet,
    BaseTableFormSet,
    EditTableFormSet,
    NightForm,
    TableFormSet,
    default_table_count,
    seat_field,
    tables_initial,
)
from club.play.models import Hand, Night
from club.play.queries import night_access
from club.play.queries.night import (
    TableSummary,
    audit_trail,
    club_nights,
    night_summary,
    night_tables,
)
from club.play.queries.night_clashes import Clash, seated_elsewhere
from club.play.queries.sheet_version import night_etag
from club.play.queries.table_links import unconfirmed_hands
from club.play.services import night_setup, signals
from club.play.services.hands import HandConflict
from club.play.services.nights import close_night, reopen_night

TABLES_PREFIX = "tables"


@login_if_hidden
def night_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug)
    page = Paginator(club_nights(club), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "play/nights/list.html",
        {
            "club": club,
            "page": page,
            "can_score": access.can(request.user, club, access.SCORE),
            "can_manage": access.can(request.user, club, access.MANAGE),
        },
    )


def _active_players(club: Club) -> list[Player]:
    return list(club.players.filter(active=True).order_by(Lower("name")))


def _posted_table_count(request: HttpRequest) -> int:
    try:
        count = int(request.POST.get(f"{TABLES_PREFIX}-TOTAL_FORMS", "1"))
    except ValueError:
        count = 1
    return max(1, min(MAX_TABLES, count))


@never_cache
@login_if_hidden
def night_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Set up a night. Two extra buttons post the form without creating the night: "Add players"
    (adds the new names to the club and offers them in the seats) and "Add a table"."""
    club = access.get_club(request, slug, access.SCORE)
    may_add = access.may_add_players(request.user, club)
    players = _active_players(club)
    added: list[str] = []
    clashes: list[Clash] = []
    action = ""
    if request.method != "POST":
        form = NightForm(club=club, may_add_players=may_add)
        tables = TableFormSet(
            initial=[{}] * default_table_count(len(players)),
            players=players,
            prefix=TABLES_PREFIX,
        )
    else:
        data = request.POST.copy()
        action = data.get("action", "create")
        form = NightForm(data, club=club, may_add_players=may_add)
        form.is_valid()
        names = form.cleaned_data.get("new_players") or []  # absent if the names have an error
        if names and action == "create":
            # Players are added by their own button, never as a side effect of a night that may
            # yet be refused: nothing is written unless the whole night is.
            form.add_error(
                "new_players",
                "Press Add players to add these names to the club and seat them, or clear the box.",
            )
        elif names:
            added = [p.name for p in services.add_players(club, names)]
            players = _active_players(club)
            data["new_players"] = ""
            form = NightForm(data, club=club, may_add_players=may_add)
        if action in ("create", "create_anyway") and not added:
            tables = TableFormSet(data, players=players, prefix=TABLES_PREFIX)
            if form.is_valid() and tables.is_valid():
                done = _create_night(request, club, form, tables, action == "create_anyway")
                if isinstance(done, HttpResponse):
                    return done
                clashes = done
        else:
            # The tables as posted, without errors for tables still being filled in.
            count = _posted_table_count(request) + (1 if action == "add_table" else 0)
            tables = TableFormSet(
                initial=tables_initial(data, TABLES_PREFIX, min(MAX_TABLES, count)),
                players=players,
                prefix=TABLES_PREFIX,
            )
    return render(
        request,
        "play/nights/create.html",
        {
            "club": club,
            "form": form,
            "tables": tables,
            "added": added,
            "clashes": clashes,
            # What the refused POST asked for: the banner says what was not done.
            "tried": action if request.method == "POST" else "",
            "players": players,
            "max_tables": MAX_TABLES,
            "has_seasons": club.seasons.exists(),
            "can_manage": access.can(request.user, club, access.MANAGE),
        },
    )


def _create_night(
    request: HttpRequest, club: Club, form: NightForm, tables: BaseTableFormSet, anyway: bool
) -> HttpResponse | list[Clash]:
    """Create the night of a valid form once (the same form sent again goes to the night it made),
    unless players are already seated at another open night that day and the secretary has not
    said to go ahead: then the clashes, for the page to show."""
    seated = tables.tables()
    token = form.cleaned_data.get("form_token")
    made = Night.objects.filter(season__club=club, form_token=token).first() if token else None
    if made is None:
        date = form.cleaned_data["date"]
        clashes = seated_elsewhere(club, date, [p for players, _ in seated for p in players])
        # The night this same form made is no clash: a double-click's first send can commit
        # between the look-up above and this one, and the second is then a resend.
        clashes = [c for c in clashes if token is None or c.night.form_token != token]
        if clashes and not anyway:
            return clashes
        args = (form.cleaned_data["season"], date, seated)
        kwargs = {"title": form.cleaned_data["title"], "user": request.user}
        if token is None:
            night, created = night_setup.create_night(*args, **kwargs), True
        else:
            night, created = night_setup.create_night_once(*args, form_token=token, **kwargs)
    elif not night_setup.night_as_entered(
        made,
        form.cleaned_data["season"],
        form.cleaned_data["date"],
        seated,
        form.cleaned_data["title"],
    ):
        # The form was used already for another night (Back, then this one typed in): never
        # taken for a resend. Nothing made; the page keeps what was typed, with a fresh token.
        form.add_error(
            None,
            f"This form already set up {made} (it is in the nights list). The night you entered "
            "now is a different one and was not created: check it and press Create night again.",
        )
        fresh = QueryDict(mutable=True)
        fresh.update(form.data)
        fresh[form.add_prefix("form_token")] = str(uuid.uuid4())
        form.data = fresh
        return []
    else:
        night, created = made, False
    if created:
        messages.success(
            request, f"{night} is set up with {count(len(seated), 'table')}: enter the hands."
        )
    else:
        messages.info(request, f"{night} was already created by this form (it was sent twice).")
    return redirect("night_detail", slug=club.slug, night_id=night.pk)


def _live_check(request: HttpRequest) -> bool:
    # Only the page's own check gets the 304 (a browser's own revalidation gets the page, with
    # any message waiting for it).
    return bool(request.headers.get("X-Live-Check"))


def _not_modified(etag: str) -> HttpResponse:
    response = HttpResponse(status=304)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@never_cache
def night_detail(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    # The page checks whether the night changed (static/js/live-refresh.js). While the cache
    # holds the ETag it shows as the page's mark, nothing changed: 304 before the session or the
    # database is read (only someone shown the page knows its ETag, and a 304 shows nothing).
    if _live_check(request):
        mark = live_marks.current(live_marks.night_page(night_id))
        if mark and request.headers.get("If-None-Match") == mark:
            return _not_modified(mark)
    return _night_page(request, slug=slug, night_id=night_id)


@login_if_hidden
def _night_page(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = access.get_club(request, slug)
    night = night_access.get_night(request, club, night_id)
    stamp = live_marks.stamp(night.pk)  # before the read: a save committing now makes it stale
    etag = night_etag(night)
    if not night.is_closed:
        live_marks.remember(live_marks.night_page(night.pk), night.pk, stamp, etag)
    if _live_check(request) and request.headers.get("If-None-Match") == etag:
        return _not_modified(etag)
    can_manage = access.can(request.user, club, access.MANAGE)
    can_score = access.can(request.user, club, access.SCORE)
    after_the_night = signals.page_extras(
        signals.night_page, Night, request=request, club=club, night=night
    )
    response = render(
        request,
        "play/nights/detail.html",
        {
            # Hands entered through a table's link that wait for a second player.
            "unconfirmed": unconfirmed_hands(night) if can_score else [],
            "club": club,
            "night": night,
            "summary": night_summary(night),
            "tournament": getattr(night, "tournament", None),
            "trail": audit_trail(night, club) if can_manage else None,
            "can_manage": can_manage,
            "can_score": can_score,
            "etag": etag,
            "live_url": ""
            if night.is_closed
            else live_push.subscriber_url(live_push.night_channel(night.pk)),
            **after_the_night,
        },
    )
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def close_doubts(club: Club, night: Night) -> list[str]:
    """Why closing this night is probably a mistake: closing publishes its results and emails
    its players, so a night with no hands, or dated after the club's today, is confirmed first."""
    doubts = []
    if not Hand.objects.filter(table__night=night).exists():
        doubts.append(f"{night} has no hands: closing it publishes an empty night.")
    if night.date > club.today():
        doubts.append(
            f"{night} is dated {night.date:%A %d %B %Y}, after today: was it opened for the "
            "wrong day?"
        )
    return doubts


def _close_or_reopen(request: HttpRequest, slug: str, night_id: int, closing: bool) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    night = night_access.get_night(request, club, night_id, access.MANAGE)
    doubts = close_doubts(club, night) if closing and not night.is_closed else []
    if request.method == "POST":
        if doubts and request.POST.get("anyway") != "1":
            messages.error(request, f"{doubts[0]} Tick \u201cClose it anyway\u201d to close it.")
            return redirect("night_close", slug=club.slug, night_id=night.pk)
        try:
            (close_night if closing else reopen_night)(night, access.signed_in(request))
        except HandConflict as error:
            messages.error(request, str(error))
        else:
            if closing:
                night.refresh_from_db()
                messages.success(request, closed_message(night))
            else:
                messages.success(request, f"{night} is open again: hands can be changed.")
        return redirect("night_detail", slug=club.slug, night_id=night.pk)
    summary = night_summary(night) if closing else None
    return render(
        request,
        "play/nights/confirm.html",
        {
            "club": club,
            "night": night,
            "closing": closing,
            "summary": summary,
            "unconfirmed": unconfirmed_hands(night) if closing else [],
            # A table set up and never played, or whose hands were never entered: said before
            # the night is closed on it.
            "empty_tables": [t for t in summary.tables if not t.hands] if summary else [],
            "doubts": doubts,
        },
    )


@login_if_hidden
def night_close(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """GET: what closing means, with the settle-up; POST: close the night."""
    return _close_or_reopen(request, slug, night_id, closing=True)


@login_if_hidden
def night_reopen(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """GET: a confirmation; POST: reopen the night so hands can be changed again."""
    return _close_or_reopen(request, slug, night_id, closing=False)


# Fixing a night set up wrongly -------------------------------------------------------------


def _seatable_players(club: Club, editable: list[TableSummary]) -> list[Player]:
    """The club's active players, and anyone seated at a table being changed (even if made
    inactive since), so that saving the page never drops a seat silently."""
    seated = {p.pk: p for t in editable for p in t.players}
    players = {p.pk: p for p in _active_players(club)} | seated
    return sorted(players.values(), key=lambda p: p.name.lower())


def _table_initial(summary: TableSummary) -> dict[str, object]:
    initial: dict[str, object] = {
        seat_field(n): p.pk for n, p in enumerate(summary.players, start=1)
    }
    return initial | {"table": summary.table.pk, "first_dealer": summary.table.first_dealer + 1}


@login_if_hidden
def night_tables_edit(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """Change the seats and first dealer of the tables with no hands yet, add a table, or remove
    one with no hands. The tables with hands are shown read-only, and their players count when
    checking that nobody sits at two tables."""
    club = access.get_club(request, slug, access.MANAGE)
    night = night_access.get_night(request, club, night_id, access.MANAGE)
    if night.is_closed:
        messages.error(request, f"{night} is closed: reopen it before changing its tables.")
        return redirect("night_detail", slug=club.slug, night_id=night.pk)
    if getattr(night, "tournament", None) is not None:
        messages.error(
            request,
            "A tournament's tables are drawn round by round: change its entries on the "
            "tournament page instead.",
        )
        return redirect("tournament_detail", slug=club.slug, tournament_id=night.tournament.pk)
    summaries = night_tables(night)
    fixed = [t for t in summaries if t.hands]
    editable = [t for t in summaries if not t.hands]
    players = _seatable_players(club, editable)
    kwargs: dict[str, Any] = {
        "players": players,
        "fixed": [(t.table.number, t.players) for t in fixed],
        "night_tables": {t.table.pk: (t.table, t.hands) for t in summaries},
        "prefix": TABLES_PREFIX,
    }
    error = None
    if request.method != "POST":
        tables = EditTableFormSet(initial=[_table_initial(t) for t in editable], **kwargs)
    elif request.POST.get("action") == "add_table":
        count = min(MAX_TABLES - len(fixed), _posted_table_count(request) + 1)
        initial = tables_initial(request.POST, TABLES_PREFIX, count, ("table", "DELETE"))
        tables = EditTableFormSet(initial=initial, **kwargs)
    else:
        tables = EditTableFormSet(request.POST, **kwargs)
        if tables.is_valid():
            kept, removed = tables.changes()
            seated = [p for _, players, _ in kept for p in players]
            clashes = seated_elsewhere(club, night.date, seated, exclude=night)
            if clashes and request.POST.get("action") != "save_anyway":
                return _tables_page(request, club, night, fixed, tables, None, clashes)
            try:
                changed = night_setup.edit_tables(
                    night, kept, removed, user=access.acting_user(request)
                )
            except (services.SetupError, scoring.InvalidHand) as problem:
                error = str(problem)
            else:
                if changed:
                    messages.success(request, f"The tables of {night} are saved.")
                else:
                    messages.info(request, "Nothing changed.")
                return redirect("night_detail", slug=club.slug, night_id=night.pk)
    return _tables_page(request, club, night, fixed, tables, error)


def _tables_page(
    request: HttpRequest,
    club: Club,
    night: Night,
    fixed: list[TableSummary],
    tables: BaseEditTableFormSet,
    error: str | None,
    clashes: list[Clash] | None = None,
) -> HttpResponse:
    return render(
        request,
        "play/nights/tables.html",
        {
            "club": club,
            "night": night,
            "fixed": fixed,
            "tables": tables,
            "error": error,
            "clashes": clashes or [],
            "can_add": tables.total_form_count() + len(fixed) < MAX_TABLES,
        },
    )


@login_if_hidden
def night_delete(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """GET: what deleting the night takes with it; POST: delete it (an open night only)."""
    club = access.get_club(request, slug, access.MANAGE)
    night = night_access.get_night(request, club, night_id, access.MANAGE)
    if request.method == "POST":
        try:
            gone = night_setup.delete_night(night, access.acting_user(request))
        except services.SetupError as problem:
            messages.error(request, str(problem))
            return redirect("night_detail", slug=club.slug, night_id=night.pk)
        except Night.DoesNotExist:
            messages.info(request, f"{night} was already deleted.")
        else:
            messages.success(
                request,
                f"{night} is deleted, with its {gone.tables} table{pluralize(gone.tables)}, "
                f"{gone.hands} hand{pluralize(gone.hands)} and {gone.score_lines} score "
                f"line{pluralize(gone.score_lines)}.",
            )
        return redirect("night_list", slug=club.slug)
    return render(
        request,
        "play/nights/delete.html",
        {
            "club": club,
            "night": night,
            "contents": night_setup.night_contents(night),
            "summary": night_summary(night),
            "tournament": getattr(night, "tournament", None),
        },
    )


urlpatterns = [
    path("nights/", night_list, name="night_list"),
    path("nights/new/", night_create, name="night_create"),
    path("nights/<int:night_id>/", night_detail, name="night_detail"),
    path("nights/<int:night_id>/close/", night_close, name="night_close"),
    path("nights/<int:night_id>/reopen/", night_reopen, name="night_reopen"),
    path("nights/<int:night_id>/tables/", night_tables_edit, name="night_tables_edit"),
    path("nights/<int:night_id>/delete/", night_delete, name="night_delete"),
]


def closed_message(night: Night) -> str:
    if night.is_published:
        return f"{night} is closed and its results are published: the settle-up below is final."
    when = formats.date_format(
        timezone.localtime(night.publish_after, night.season.club.zone), "j M, H:i"
    )
    return (
        f"{night} is closed: the results are provisional until {when}, while you may still "
        "correct hands; then they are published and the players are told."
    )
