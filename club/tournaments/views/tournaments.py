"""Tournaments: the list, setting one up, entries and withdrawals, the tournament page with the
round in play, closing rounds, the leaderboard (a projector page polled by htmx) and the printed
seat list, table cards and results.

Who may do what: anyone who may read the club reads its tournaments, and anyone at all reads a
tournament marked public (its page, leaderboard and sheets; not the club's other pages). The
director's actions (set-up, entries, settings, starting, closing rounds) need the SCORE power: a
secretary or a table scorer, as for setting up a club night. Finishing the last round closes the
tournament's night; reopening it stays with a secretary, on the night page.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.db import IntegrityError
from django.db.models import Count, Prefetch
from django.db.models.functions import Lower
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from club.clubs.models import Club, Player
from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.lib.pdf import file_name, sheet_response
from club.lib.posted import posted_id
from club.play.models import Night, Seat, Table
from club.play.pdf.sheets import ScoreCard, card_rows, stakes
from club.play.queries.night import TableSummary
from club.play.views.table_links import table_qr_codes
from club.tournaments.forms.tournaments import (
    CloseRoundForm,
    EntriesForm,
    SettingsForm,
    TournamentForm,
)
from club.tournaments.models import Tournament
from club.tournaments.queries import leaderboard as lq
from club.tournaments.services import tournaments as services

PAGES = "tournaments/tournaments"
BOARD = f"{PAGES}/leaderboard.html#board"


# --- fetching, always scoped to the club -------------------------------------------------------


def _tournament(
    request: HttpRequest, slug: str, tournament_id: int, power: str = access.READ
) -> tuple[Club, Tournament]:
    """The club's tournament; reading a public tournament needs no login. Another club's
    tournament is a 404 whatever the user's roles."""
    club = access.club_or_404(slug)
    tournament = get_object_or_404(
        Tournament.objects.select_related(
            "night", "night__season", "night__season__rule_set", "director"
        ),
        pk=tournament_id,
        club=club,
        night__season__club=club,
    )
    if not (power == access.READ and tournament.is_public):
        access.require(request, club, power)
    return club, tournament


def _active_players(club: Club) -> list[Player]:
    return list(club.players.filter(active=True).order_by(Lower("name")))


def _context(request: HttpRequest, club: Club, tournament: Tournament, **extra: Any) -> dict:
    user = request.user
    return {
        "club": club,
        "tournament": tournament,
        "night": tournament.night,
        "rule_set": tournament.night.season.rule_set,
        "can_direct": access.can(user, club, access.SCORE),
        "can_read_club": access.can(user, club, access.READ),
        # A finished event's settings are the secretary's (tournament_settings).
        "can_change_settings": access.can(
            user,
            club,
            access.MANAGE if tournament.is_finished or tournament.night.is_closed else access.SCORE,
        ),
        **extra,
    }


def _board(club: Club, tournament: Tournament) -> dict[str, Any]:
    """The leaderboard and its rows as written (the pages, the live partial and the sheet)."""
    board = lq.leaderboard(tournament)
    return {"board": board, "rows": lq.shown_rows(board, club)}


# --- pages -------------------------------------------------------------------------------------


@login_if_hidden
def tournament_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug)
    tournaments = (
        Tournament.objects.filter(club=club)
        .select_related("night")
        .annotate(entrants=Count("entries"))
        .order_by("-night__date", "-id")
    )
    return render(
        request,
        f"{PAGES}/list.html",
        {
            "club": club,
            "tournaments": tournaments,
            "can_direct": access.can(request.user, club, access.SCORE),
        },
    )


@never_cache
@login_if_hidden
def tournament_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.SCORE)
    players = _active_players(club)
    form = TournamentForm(
        request.POST if request.method == "POST" else None,
        club=club,
        players=players,
        may_add_players=access.may_add_players(request.user, club),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        token = data.get("form_token")
        made = services.tournament_of_form(club, token)
        if made is None and token is not None and Night.objects.filter(form_token=token).exists():
            token = None  # another club's token: a tampered form, not one to find
        if made is not None:
            messages.info(request, f"{made} was already created by this form (it was sent twice).")
            return redirect("tournament_detail", slug=club.slug, tournament_id=made.pk)
        try:
            tournament = _create_tournament(club, form, data, token, request)
        except IntegrityError:
            made = services.tournament_of_form(club, token)
            if made is None:
                raise
            return redirect("tournament_detail", slug=club.slug, tournament_id=made.pk)
        count = tournament.entries.count()
        messages.success(
            request,
            f"{tournament} is set up with {count} player{'s' if count != 1 else ''}. Enter any "
            "latecomers, then start round 1.",
        )
        return redirect("tournament_detail", slug=club.slug, tournament_id=tournament.pk)
    return render(
        request,
        f"{PAGES}/create.html",
        {
            "club": club,
            "form": form,
            "has_seasons": club.seasons.exists(),
            "can_manage": access.can(request.user, club, access.MANAGE),
        },
    )


def _create_tournament(
    club: Club,
    form: TournamentForm,
    data: dict[str, Any],
    token: uuid.UUID | None,
    request: HttpRequest,
) -> Tournament:
    return services.create_tournament(
        club,
        season=data["season"],
        date=data["date"],
        name=data["name"],
        rounds=data["rounds"],
        hands_per_round=data["hands_per_round"],
        scoring_method=data["scoring_method"],
        is_public=data["is_public"],
        counts_in_standings=data["counts_in_standings"],
        players=form.chosen_players,
        new_names=data["new_players"],
        director=access.acting_user(request),
        form_token=token,
    )


@login_if_hidden
def tournament_detail(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    """The round in play (its tables, seats and hands entered), the director's actions, the
    seating figure and the leaderboard (kept up to date by htmx)."""
    club, tournament = _tournament(request, slug, tournament_id)
    context = _context(request, club, tournament, **_board(club, tournament))
    return render(request, f"{PAGES}/detail.html", context)


@login_if_hidden
def tournament_settings(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    club, tournament = _tournament(request, slug, tournament_id, access.SCORE)
    if tournament.is_finished or tournament.night.is_closed:
        # A finished event's results are final: only a secretary may change how they are
        # scored or shown, and only after reopening its night (the service checks that).
        access.require(request, club, access.MANAGE)
    form = SettingsForm(request.POST if request.method == "POST" else None, tournament=tournament)
    error = ""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.update_settings(
                tournament,
                name=data["name"],
                rounds=data["rounds"],
                hands_per_round=data["hands_per_round"],
                scoring_method=data["scoring_method"],
                is_public=data["is_public"],
                counts_in_standings=data["counts_in_standings"],
                extra_hands_allowed=data["extra_hands_allowed"],
                user=access.acting_user(request),
            )
        except services.TournamentError as problem:
            error = str(problem)
        else:
            messages.success(request, f"The settings of {data['name']} are saved.")
            return redirect("tournament_detail", slug=club.slug, tournament_id=tournament.pk)
    context = _context(request, club, tournament, form=form, error=error)
    return render(request, f"{PAGES}/settings.html", context)


@login_if_hidden
def tournament_entries(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    """The entrants with their rounds, a withdraw button each, and the form to enter more."""
    club, tournament = _tournament(request, slug, tournament_id, access.SCORE)
    entries = list(tournament.entries.select_related("player").order_by(Lower("player__name")))
    entered = {e.player_id for e in entries}
    available = [p for p in _active_players(club) if p.pk not in entered]
    form = EntriesForm(
        request.POST if request.method == "POST" else None,
        players=available,
        may_add_players=access.may_add_players(request.user, club),
    )
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            added = services.add_entries(
                tournament,
                form.chosen_players,
                access.acting_user(request),
                new_names=form.cleaned_data["new_players"],
            )
        except services.TournamentError as problem:
            error = str(problem)
        else:
            tournament.refresh_from_db()
            names = ", ".join(e.player.name for e in added)
            rounds = {e.joined_round for e in added}
            messages.success(
                request, f"Entered {names}: from round {min(rounds)}." + _redrawn(tournament, added)
            )
            return redirect("tournament_entries", slug=club.slug, tournament_id=tournament.pk)
    context = _context(request, club, tournament, entries=entries, form=form, error=error)
    return render(request, f"{PAGES}/entries.html", context)


def _redrawn(tournament: Tournament, added: list) -> str:
    if tournament.is_running and any(e.joined_round == tournament.current_round for e in added):
        return f" Round {tournament.current_round} had no hands yet, so its seats are drawn again."
    return ""


@login_if_hidden
@require_POST
def tournament_withdraw(
    request: HttpRequest, slug: str, tournament_id: int, player_id: int
) -> HttpResponse:
    club, tournament = _tournament(request, slug, tournament_id, access.SCORE)
    player = access.club_player(club, player_id)
    try:
        done = services.withdraw(tournament, player, access.acting_user(request))
    except services.TournamentError as problem:
        messages.error(request, str(problem))
    else:
        if done.entry is None:
            text = f"{player} is no longer entered."
        else:
            text = f"{player} withdraws after round {done.entry.withdrawn_after_round}."
        if done.redrawn:
            text += (
                f" Round {tournament.current_round} had no hands yet, so its seats are drawn "
                "again: print them again."
            )
        messages.success(request, text)
    return redirect("tournament_entries", slug=club.slug, tournament_id=tournament.pk)


@login_if_hidden
@require_POST
def tournament_start(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    club, tournament = _tournament(request, slug, tournament_id, access.SCORE)
    try:
        services.start(tournament, access.acting_user(request))
    except services.TournamentError as problem:
        messages.error(request, str(problem))
    else:
        messages.success(request, "Round 1 is drawn: print the seat list and table cards.")
    return redirect("tournament_detail", slug=club.slug, tournament_id=tournament.pk)


@login_if_hidden
def tournament_round_close(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    """GET: the round's tables and their hands, and what closing does; POST: close it (refused
    with the tables still short, unless "close anyway" is ticked)."""
    club, tournament = _tournament(request, slug, tournament_id, access.SCORE)
    if not tournament.is_running:
        messages.error(request, f"{tournament} has no round in play.")
        return redirect("tournament_detail", slug=club.slug, tournament_id=tournament.pk)
    form = CloseRoundForm(request.POST if request.method == "POST" else None)
    status, error = 200, ""
    if request.method == "POST" and form.is_valid():
        closing = tournament.current_round
        try:
            services.close_round(
                tournament, access.acting_user(request), anyway=form.cleaned_data["close_anyway"]
            )
        except services.RoundIncomplete as problem:
            status, error = 409, str(problem)
        except services.TournamentError as problem:
            messages.error(request, str(problem))
            return redirect("tournament_detail", slug=club.slug, tournament_id=tournament.pk)
        else:
            tournament.refresh_from_db()
            if tournament.is_finished:
                text = (
                    f"Round {closing} is closed and {tournament} has finished: the results are "
                    "final."
                )
            else:
                text = (
                    f"Round {closing} is closed. Round {tournament.current_round} is drawn: "
                    "print its seat list and table cards."
                )
            messages.success(request, text)
            return redirect("tournament_detail", slug=club.slug, tournament_id=tournament.pk)
    context = _context(
        request,
        club,
        tournament,
        form=form,
        error=error,
        tables=lq.leaderboard(tournament).current_tables,
        incomplete=services.incomplete_tables(tournament),
    )
    return render(request, f"{PAGES}/close.html", context, status=status)


@never_cache
@login_if_hidden
def leaderboard(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    """The projector page: the leaderboard in large type, refreshed by htmx every few seconds."""
    club, tournament = _tournament(request, slug, tournament_id)
    context = _context(request, club, tournament, projector=True, **_board(club, tournament))
    response = render(request, f"{PAGES}/leaderboard.html", context)
    origins = club.projector_embed_origins.split()
    if origins:
        # The club's own site may frame this page (and only this page): CSP's frame-ancestors
        # names it; X-Frame-Options cannot name a site, so it is left off here.
        response.xframe_options_exempt = True
        # Read by django-csp's middleware, which the stubs do not know.
        response._csp_replace = {"frame-ancestors": origins}  # type: ignore[attr-defined]
    return response


@never_cache
@login_if_hidden
def leaderboard_live(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    """The leaderboard alone, for htmx to swap in place (the projector and tournament pages)."""
    club, tournament = _tournament(request, slug, tournament_id)
    projector = request.GET.get("view") == "projector"
    context = _context(request, club, tournament, projector=projector, **_board(club, tournament))
    return render(request, BOARD, context)


# --- printed sheets ----------------------------------------------------------------------------


def _round(request: HttpRequest, tournament: Tournament) -> int:
    """`?round=`: a round drawn so far (the current one by default)."""
    value = request.GET.get("round", "")
    if not tournament.current_round:
        raise Http404("No round has been drawn yet")
    if not value:
        return tournament.current_round
    number = posted_id(value)
    if number is None or number > tournament.current_round:
        raise Http404("No such round")
    return number


def _sheet_context(club: Club, tournament: Tournament, title: str, **extra: Any) -> dict:
    rule_set = tournament.night.season.rule_set
    return {
        "club": club,
        "tournament": tournament,
        "night": tournament.night,
        "rule_set": rule_set,
        "stakes": stakes(rule_set.name, rule_set.rules),
        "sheet_title": title,
        "printed_at": club.local_now(),
        **extra,
    }


@login_if_hidden
def tournament_seats_pdf(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    """The round's seat list: every table with its players in seat order, then every player by
    name with their table and seat (to pin up by the door)."""
    club, tournament = _tournament(request, slug, tournament_id)
    round_number = _round(request, tournament)
    board = lq.leaderboard(tournament)
    context = _sheet_context(
        club,
        tournament,
        f"Seats · {tournament} · round {round_number}",
        round_number=round_number,
        tables=board.round_tables(round_number),
        by_name=lq.seat_list(board, round_number),
    )
    name = file_name("seats", tournament.name, f"round {round_number}")
    return sheet_response("tournaments/pdf/tournament_seats.html", context, name, request)


@login_if_hidden
def tournament_cards_pdf(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    """One score card per table of the round: seats, dealers and sit-outs pre-filled for the
    round's hands (the club night's score cards, for one round)."""
    club, tournament = _tournament(request, slug, tournament_id)
    round_number = _round(request, tournament)
    rules = tournament.night.season.rule_set.rules
    tables = (
        Table.objects.filter(night=tournament.night, round_number=round_number)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("number")
    )
    hands = tournament.hands_per_round
    cards = []
    for table in tables:
        players = [s.player for s in table.seats.all()]
        rows = card_rows(players, table.first_dealer, rules, hands)
        cards.append(ScoreCard(TableSummary(table, players, 0), rows))
    context = _sheet_context(
        club,
        tournament,
        f"Table cards · {tournament} · round {round_number}",
        round_number=round_number,
        cards=cards,
        # Each table's link as a QR code, for a secretary, while the night takes hands.
        qr_codes=table_qr_codes(request, club, tournament.night),
    )
    name = file_name("table-cards", tournament.name, f"round {round_number}")
    return sheet_response("tournaments/pdf/tournament_cards.html", context, name, request)


@login_if_hidden
def tournament_results_pdf(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    """The results: the leaderboard with every round's figure (provisional until it finishes)."""
    club, tournament = _tournament(request, slug, tournament_id)
    title = f"Results · {tournament}"
    context = _sheet_context(club, tournament, title, **_board(club, tournament))
    name = file_name("results", tournament.name, tournament.night.date)
    return sheet_response("tournaments/pdf/tournament_results.html", context, name, request)


urlpatterns = [
    path("tournaments/", tournament_list, name="tournament_list"),
    path("tournaments/new/", tournament_create, name="tournament_create"),
    path("tournaments/<int:tournament_id>/", tournament_detail, name="tournament_detail"),
    path(
        "tournaments/<int:tournament_id>/settings/", tournament_settings, name="tournament_settings"
    ),
    path("tournaments/<int:tournament_id>/entries/", tournament_entries, name="tournament_entries"),
    path(
        "tournaments/<int:tournament_id>/entries/<int:player_id>/withdraw/",
        tournament_withdraw,
        name="tournament_withdraw",
    ),
    path("tournaments/<int:tournament_id>/start/", tournament_start, name="tournament_start"),
    path(
        "tournaments/<int:tournament_id>/close-round/",
        tournament_round_close,
        name="tournament_round_close",
    ),
    path("tournaments/<int:tournament_id>/leaderboard/", leaderboard, name="leaderboard"),
    path(
        "tournaments/<int:tournament_id>/leaderboard/live/",
        leaderboard_live,
        name="leaderboard_live",
    ),
    path(
        "tournaments/<int:tournament_id>/seats.pdf",
        tournament_seats_pdf,
        name="tournament_seats_pdf",
    ),
    path(
        "tournaments/<int:tournament_id>/table-cards.pdf",
        tournament_cards_pdf,
        name="tournament_cards_pdf",
    ),
    path(
        "tournaments/<int:tournament_id>/results.pdf",
        tournament_results_pdf,
        name="tournament_results_pdf",
    ),
]
