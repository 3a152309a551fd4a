"""Tables' permanent cards: a phone scans the card on the table (`/k/<token>/`, no login), taps
who sits where, and becomes that table's scoring phone for the night (its link page,
club.views.table_links). The secretary's side: the club's cards, issuing, revoking, re-issuing,
printing them (A6, one a page), and "Start tonight" on the nights list.

An unknown or revoked card is the same 404 page as a bad table link.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from club import access, zones
from club.access import login_if_hidden
from club.core import ratelimit
from club.models import Club, Night, Player, Seat, TableCard
from club.names import normalise_name
from club.pdf.render import file_name, sheet_response
from club.request_log import note_club
from club.services import nights as night_service
from club.services import setup as setup_services
from club.services import table_cards as card_service
from club.services.setup import SetupError
from club.views.posted import posted_id
from club.views.table_links import (
    DEVICES,
    NOT_FOUND,
    WRITE_LIMIT,
    WRITE_WINDOW,
    qr_data_uri,
    qr_svg,
)

RECENT_NIGHTS = 5  # the club's players of its last few nights come first in the list


# --- the phone's side: /k/<token>/ ---------------------------------------------------------------


def _recent_first(club: Club) -> tuple[list[Player], list[Player]]:
    """The club's active players: those of its last few nights first, then everyone else, each
    by name."""
    players = list(club.players.filter(active=True).order_by(Lower("name")))
    nights = list(Night.objects.filter(season__club=club).order_by("-date", "-id")[:RECENT_NIGHTS])
    recent_ids = set(
        Seat.objects.filter(table__night__in=nights).values_list("player_id", flat=True)
    )
    return (
        [p for p in players if p.pk in recent_ids],
        [p for p in players if p.pk not in recent_ids],
    )


def _chosen(request: HttpRequest, club: Club, may_add: bool) -> tuple[list[Player], list[str]]:
    """The players posted in seat order (`seat_<player id>` = 1..5), and what is wrong."""
    errors: list[str] = []
    picks: dict[int, int] = {}
    stranger = False  # a field naming no row of any club ("seat_²"): no query can find it
    for key, value in request.POST.items():
        value = str(value)  # one value a name (QueryDict.items gives each name's last)
        if not key.startswith("seat_") or not value.strip():
            continue
        player_id = posted_id(key[5:])
        if player_id is None:
            stranger = True
            continue
        try:
            picks[player_id] = int(value)
        except ValueError:
            errors.append("A seat number was not a number.")
    # Normalised now, as add_players will: a box of only invisible characters is an empty box.
    new_name = normalise_name(request.POST.get("new_player", "")) if may_add else ""
    new_seat = request.POST.get("new_player_seat", "").strip()
    found = {p.pk: p for p in club.players.filter(pk__in=picks)}
    if stranger or len(found) != len(picks):
        errors.append("A player chosen is not a player of this club.")
    order: list[tuple[int, Player | str]] = [
        (seat, found[pk]) for pk, seat in picks.items() if pk in found
    ]
    if new_name:
        try:
            order.append((int(new_seat or len(order) + 1), new_name))
        except ValueError:
            errors.append("The new player's seat was not a number.")
    seats = [seat for seat, _ in order]
    for seat in sorted(set(seats)):
        if seats.count(seat) > 1:
            errors.append(f"Two players have seat {seat}: give each player their own seat.")
    if errors:
        return [], errors
    players: list[Player] = []
    for _seat, who in sorted(order, key=lambda item: item[0]):
        if isinstance(who, str):
            who = setup_services.add_players(club, [who])[0]
        players.append(who)
    return players, []


def _seat_page(
    request: HttpRequest,
    card: TableCard,
    night: Night,
    # An immutable default; the page only reads it.
    errors: list[str] = (),  # type: ignore[assignment]
    status: int = 200,
) -> HttpResponse:
    club = card.club
    recent, others = _recent_first(club)
    may_add = club.scorers_add_players or access.may_add_players(request.user, club)
    chosen = {}
    if request.method == "POST":
        chosen = {
            pk: v
            for k, v in request.POST.items()
            if k.startswith("seat_") and str(v).strip() and (pk := posted_id(k[5:])) is not None
        }
    context = {
        "card": card,
        "club": club,
        "night": night,
        "recent": recent,
        "others": others,
        "may_add": may_add,
        "errors": errors,
        "chosen": chosen,
        "seat_numbers": range(1, 6),
        "device": request.POST.get("device", "") if request.method == "POST" else "",
    }
    return render(request, "club/table_cards/seat.html", context, status=status)


def _to_table(request: HttpRequest, seated: card_service.Seated) -> HttpResponse:
    if seated.link is None:
        return render(
            request,
            "club/table_cards/no_link.html",
            {"table": seated.table, "club": seated.table.night.season.club},
        )
    return redirect("link_table", token=seated.link.token)


@require_http_methods(["GET", "HEAD", "POST"])
def card_page(request: HttpRequest, token: str) -> HttpResponse:
    """GET: who sits at this table (or the table already seated, or what to do with no night
    open); POST: seat the table and send the phone to its link page."""
    card = card_service.find_card(token)
    if card is None:
        return render(request, NOT_FOUND, {}, status=404)
    club = card.club
    note_club(request, club.slug)
    zones.activate(club)
    night = card_service.tonight(club)
    if night is None:
        return _no_night(request, card)
    seated = card_service.seated_table(card, night)
    if seated is not None:
        return _to_table(request, seated)
    if night.is_closed:
        return render(request, "club/table_cards/closed.html", {"card": card, "night": night})
    if request.method != "POST":
        return _seat_page(request, card, night)
    verdict = ratelimit.hit(f"table-card:{card.token_hash}", WRITE_LIMIT, WRITE_WINDOW)
    if not verdict.allowed:
        response = HttpResponse(
            f"Too many tries from this table's card in the last minute. Wait "
            f"{verdict.retry_after} seconds, then try again.",
            status=429,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(verdict.retry_after)
        return response
    may_add = club.scorers_add_players or access.may_add_players(request.user, club)
    device = " ".join(request.POST.get("device", "").split())[:40]
    try:
        # A new player is added with the table, or not at all when the table is refused.
        with transaction.atomic():
            players, errors = _chosen(request, club, may_add)
            if errors:
                raise ValidationError(errors)
            seated = card_service.seat_table(card, night, players, device)
    except ValidationError as refused:
        return _seat_page(request, card, night, refused.messages, status=422)
    except SetupError as refused:  # the new player's name (club.services.setup.add_players)
        return _seat_page(request, card, night, [str(refused)], status=422)
    if seated.link is not None:
        devices = dict(request.session.get(DEVICES, {}))
        devices[str(seated.link.pk)] = device
        request.session[DEVICES] = devices
    if seated.created:
        names = ", ".join(p.name for p in players)
        messages.success(
            request, f"Table {seated.table.number} is seated: {names}. Enter hand 1 below."
        )
    else:
        messages.info(request, f"Table {seated.table.number} was already seated from this card.")
    return _to_table(request, seated)


def _no_night(request: HttpRequest, card: TableCard) -> HttpResponse:
    club = card.club
    latest = None
    if club.is_public:
        latest = (
            Night.objects.filter(season__club=club, status=Night.Status.CLOSED)
            .order_by("-date", "-id")
            .first()
        )
    context = {"card": card, "club": club, "latest": latest}
    return render(request, "club/table_cards/no_night.html", context)


@require_POST
def card_open_night(request: HttpRequest, token: str) -> HttpResponse:
    """The first card scanned opens tonight's night, when the club allows it."""
    card = card_service.find_card(token)
    if card is None:
        return render(request, NOT_FOUND, {}, status=404)
    note_club(request, card.club.slug)
    zones.activate(card.club)
    if not card.club.first_card_opens_night:
        messages.error(request, "Only the secretary can start tonight's night at this club.")
    else:
        try:
            night_service.start_tonight(card.club)
        except ValidationError as refused:
            messages.error(request, " ".join(refused.messages))
    return redirect("card_page", token=token)


# --- the secretary's side -----------------------------------------------------------------------


def _card_url(request: HttpRequest, card: TableCard) -> str:
    return request.build_absolute_uri(reverse("card_page", args=[card.token]))


def _card_rows(request: HttpRequest, cards: list[TableCard]) -> list[dict]:
    rows = []
    for card in cards:
        url = _card_url(request, card)
        rows.append({"card": card, "url": url, "qr": qr_svg(url, f"{card.label}'s card")})
    return rows


@login_if_hidden
def card_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's cards with their QR codes, and issuing more."""
    club = access.get_club(request, slug, access.MANAGE)
    if request.method == "POST":
        try:
            count = int(request.POST.get("count", "1"))
        except ValueError:
            count = 0
        try:
            made = card_service.issue_cards(club, access.acting_user(request), count)
        except ValidationError as refused:
            messages.error(request, " ".join(refused.messages))
        else:
            messages.success(
                request,
                f"{len(made)} card(s) issued: {made[0].label} to {made[-1].label}. "
                "Print them and leave each on its table.",
            )
        return redirect("table_cards", slug=club.slug)
    cards = card_service.live_cards(club)
    context = {
        "club": club,
        "rows": _card_rows(request, cards),
        "suggested": 1 if cards else 4,
    }
    return render(request, "club/table_cards/list.html", context)


@login_if_hidden
def card_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's live cards as a PDF: one A6 page each, its QR code big."""
    club = access.get_club(request, slug, access.MANAGE)
    cards = [
        {
            "card": card,
            "qr": qr_data_uri(request.build_absolute_uri(reverse("card_page", args=[card.token]))),
        }
        for card in card_service.live_cards(club)
    ]
    context = {
        "club": club,
        "cards": cards,
        "printed_at": timezone.now(),
        "sheet_title": "Table cards",
    }
    return sheet_response(
        "club/pdf/table_cards.html", context, file_name(club.slug, "table-cards"), request
    )


@require_POST
@login_if_hidden
def start_tonight(request: HttpRequest, slug: str) -> HttpResponse:
    """One tap: tonight's night, open, with no tables yet (the cards seat them)."""
    club = access.get_club(request, slug, access.MANAGE)
    try:
        night = night_service.start_tonight(club, access.acting_user(request))
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
        return redirect("night_list", slug=club.slug)
    tables = night.tables.count()
    if not tables:
        messages.success(request, f"{night} is open: each table scans its card and seats itself.")
    return redirect("night_detail", slug=club.slug, night_id=night.pk)


urlpatterns = [
    path("k/<str:token>/", card_page, name="card_page"),
    path("k/<str:token>/open/", card_open_night, name="card_open_night"),
]

club_urlpatterns = [
    path("setup/cards/", card_list, name="table_cards"),
    path("setup/cards/print.pdf", card_print, name="table_cards_print"),
    path("nights/tonight/", start_tonight, name="night_start_tonight"),
]
