"""Every URL of a club, given another club's ids (each argument in turn), is a 404 and writes
nothing, for both clubs' secretaries."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from club import urls as club_urls
from club.clubs.models import Invitation, Membership, Player, Season
from club.clubs.services.setup import rule_set_from_preset
from club.leagues.models import LeagueClub
from club.leagues.services import registers
from club.leagues.services.leagues import NewLeague, create_league
from club.money.models import Debt, Settlement
from club.money.services.results_mail import unsubscribe_token
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.table_cards import issue_cards
from club.tournaments.services import tournaments as tournament_services
from tests.kits.tournament_kit import make_tournament

# -- every URL of a club, with another club's ids -------------------------------------------------


def _everything() -> list[tuple[str, list[tuple]]]:
    """Every row of every model of the app (and the users), to show that nothing was written."""
    rows = []
    for model in [*apps.get_app_config("club").get_models(), apps.get_model("auth", "User")]:
        values = model.objects.order_by("pk").values()
        rows.append((model.__name__, [tuple(sorted(v.items())) for v in values]))
    return rows


def _club_world(club, season, players, user) -> dict[str, Any]:
    """One club's objects of every kind a URL takes: a night with a hand, a running tournament."""
    night = create_night(season, dt.date(2026, 11, 20), [(players[:4], 0)])
    table = night.tables.get()
    hand = record_hand(
        table,
        HandEntry(dealer=players[0], contract="solo", declarer=players[1], tricks=6),
        user,
    )
    tournament = make_tournament(season, players[:8], rounds=2, hands=1, director=user)
    tournament_services.start(tournament, user)
    # A league the club plays in, with one of its players named for it.
    league = create_league(
        NewLeague(
            name=f"{season.club.name} League",
            season_start=dt.date(2027, 1, 1),
            season_end=dt.date(2027, 6, 1),
        ),
        user.__class__.objects.create_user(f"organiser-{user.pk}"),
    )
    entry = LeagueClub.objects.create(
        league=league,
        club=season.club,
        status=LeagueClub.Status.ACCEPTED,
        answered_at=league.created_at,
    )
    [registration] = registers.register(entry, [players[0]], user)
    return {
        "night_id": night.pk,
        "table_id": table.pk,
        "hand_id": hand.pk,
        "player_id": players[0].pk,
        "season_id": season.pk,
        "rule_set_id": season.rule_set_id,
        "member_id": Membership.objects.get(user=user, club=season.club).pk,
        "tournament_id": tournament.pk,
        # After the night: an IOU, and a player's signed unsubscribe token (also tried
        # as a claim link's token, which it is not).
        "debt_id": Debt.objects.create(
            club=season.club, night=night, payer=players[0], payee=players[1], amount=5
        ).pk,
        "token": unsubscribe_token(players[0].pk),
        "invitation_id": Invitation.objects.create(
            club=season.club, user=user.__class__.objects.create_user(f"invitee-{user.pk}")
        ).pk,
        "settlement_id": Settlement.objects.create(
            debt=Debt.objects.filter(club=season.club).first(), amount=1, kind="paid", via="x"
        ).pk,
        "card_id": issue_cards(season.club, user)[0].pk,
        "league": league.slug,
        "registration_id": registration.pk,
    }


@pytest.fixture
def two_clubs(club, other_club, secretary, outsider, season, players):
    """Crown (the fixtures' club) and Red Lion (the outsider's), each with one of everything."""
    rules = rule_set_from_preset(other_club, "standard", "Red Lion rules")
    red_season = Season.objects.create(
        club=other_club,
        name="Red Lion 2026",
        start=dt.date(2026, 1, 1),
        end=dt.date(2026, 12, 31),
        rule_set=rules,
    )
    red_players = [
        Player.objects.create(club=other_club, name=n)
        for n in ("Rae", "Sol", "Tom", "Uma", "Vic", "Wyn", "Xan", "Yas")
    ]
    crown = _club_world(club, season, players, secretary)
    red = _club_world(other_club, red_season, red_players, outsider)
    return crown, red


def _id_patterns() -> list[tuple[str, list[str]]]:
    """(url name, the names of its id arguments) for every club URL that takes an object id."""
    found = []
    for pattern in club_urls.club_patterns:
        names = list(pattern.pattern.converters)
        if names:
            found.append((pattern.name, names))
    return found


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize(("name", "kinds"), _id_patterns(), ids=lambda v: str(v))
def test_every_url_with_another_clubs_ids_is_a_404_and_writes_nothing(
    two_clubs, secretary, outsider, name, kinds, method
):
    crown, red = two_clubs
    # Each argument in turn taken from the other club (the rest from the club of the URL).
    sides = ((secretary, "crown", crown, red), (outsider, "redlion", red, crown))
    for user, slug, own, foreign in sides:
        client = Client()
        client.force_login(user)
        for wrong in kinds:
            args = [foreign[k] if k == wrong else own[k] for k in kinds]
            before = _everything()
            response = getattr(client, method)(reverse(name, args=[slug, *args]))
            # A page that does not take the method answers 405 before looking anything up.
            assert response.status_code in (404, 405), (name, wrong, response.status_code)
            assert b"Red Lion" not in response.content and b"Crown" not in response.content
            assert _everything() == before, (name, wrong)
