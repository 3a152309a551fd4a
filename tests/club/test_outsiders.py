"""An outsider cannot tell a private club from a club that does not exist.

Every page under /c/<slug>/ is asked twice, with every method it takes: once with the slug of a
private club (and the ids of its own night, table, hand, player, ...), once with a slug nobody
has (and the same ids). An anonymous visitor and the secretary of another club must get the same
answer both times (status, and where a redirect goes, with the slug swapped back), and no answer
may carry the private club's name.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import URLPattern, reverse

from club.clubs.models import Club, Invitation, Membership, Player, Role, Season
from club.clubs.services.setup import rule_set_from_preset
from club.leagues.models import LeagueClub
from club.leagues.services import registers
from club.leagues.services.leagues import NewLeague, create_league
from club.money.models import Debt, Settlement
from club.play.models import Hand
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.table_cards import issue_cards
from club.urls import club_patterns
from tests.kits.tournament_kit import make_tournament

SECRET = "Secret Solo Circle"
UNKNOWN = "no-such-club"


@pytest.fixture
def private_world(db, django_user_model):
    club = Club.objects.create(name=SECRET, slug="secret", is_public=False)
    sec = django_user_model.objects.create_user(username="secret-sec", password="x")
    member = Membership.objects.create(user=sec, club=club, role=Role.SECRETARY)
    rules = rule_set_from_preset(club, "hoyle", "Hoyle")
    season = Season.objects.create(
        club=club, name="Winter", start=dt.date(2026, 9, 1), end=dt.date(2027, 3, 1), rule_set=rules
    )
    players = [Player.objects.create(club=club, name=n) for n in ["Ann", "Bob", "Cat", "Dan"]]
    night = create_night(season, dt.date(2026, 11, 20), [(players, 0)])
    table = night.tables.get()
    hand = record_hand(
        table, HandEntry(dealer=players[0], contract="solo", declarer=players[1], tricks=6), sec
    )
    debt = Debt.objects.create(club=club, night=night, payer=players[0], payee=players[1], amount=6)
    tournament = make_tournament(season, players + _more(club, 4))
    league = create_league(
        NewLeague(
            name="Secret League", season_start=dt.date(2027, 1, 1), season_end=dt.date(2027, 6, 1)
        ),
        django_user_model.objects.create_user(username="secret-organiser"),
    )
    entry = LeagueClub.objects.create(
        league=league, club=club, status=LeagueClub.Status.ACCEPTED, answered_at=league.created_at
    )
    [registration] = registers.register(entry, [players[0]], sec)
    return {
        "slug": club.slug,
        "night_id": night.pk,
        "table_id": table.pk,
        "hand_id": hand.pk,
        "player_id": players[0].pk,
        "season_id": season.pk,
        "rule_set_id": rules.pk,
        "member_id": member.pk,
        "tournament_id": tournament.pk,
        "debt_id": debt.pk,
        "token": "not-a-real-token",
        "invitation_id": Invitation.objects.create(
            club=club, user=django_user_model.objects.create_user(username="invitee")
        ).pk,
        "settlement_id": Settlement.objects.create(debt=debt, amount=1, kind="paid", via="x").pk,
        "card_id": issue_cards(club, sec)[0].pk,
        "league": league.slug,
        "registration_id": registration.pk,
    }


def _more(club: Club, n: int) -> list[Player]:
    return [Player.objects.create(club=club, name=f"Extra {i}") for i in range(n)]


def _url(pattern: URLPattern, ids: dict[str, object], slug: str) -> str:
    names = re.findall(r"<(?:\w+:)?(\w+)>", str(pattern.pattern))
    kwargs = {name: ids[name] for name in names}
    return reverse(pattern.name, kwargs={"slug": slug, **kwargs})


def _answer(response, private_slug: str) -> tuple[int, str]:
    where = response.get("Location", "")
    return response.status_code, where.replace(private_slug, UNKNOWN)


PAGES = [p for p in club_patterns if isinstance(p, URLPattern)]


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_a_private_club_answers_outsiders_as_a_club_that_does_not_exist(
    private_world, outsider, who
):
    client = Client()
    if who == "outsider":
        client.force_login(outsider)
    ids = private_world
    differences = []
    for pattern in PAGES:
        for method in ("get", "post"):
            private = getattr(client, method)(_url(pattern, ids, ids["slug"]))
            unknown = getattr(client, method)(_url(pattern, ids, UNKNOWN))
            if _answer(private, ids["slug"]) != _answer(unknown, ids["slug"]):
                differences.append(
                    f"{method.upper()} {pattern.name}: {_answer(private, ids['slug'])} "
                    f"against {_answer(unknown, ids['slug'])}"
                )
            body = private.content.decode(errors="replace")
            if SECRET in body or "Secret Solo" in body:
                differences.append(f"{method.upper()} {pattern.name} names the club")
    assert not differences, "\n".join(differences)
    # Nothing an outsider did changed the private club.
    assert Hand.objects.count() == 1
    assert Debt.objects.get().settlements.filter(undone_at=None).count() == 1


def test_my_results_for_a_logged_in_non_member_is_a_bare_404(private_world, outsider):
    """`/c/<private>/me/` used to answer a 404 page titled with the club's name."""
    client = Client()
    client.force_login(outsider)
    response = client.get(reverse("me", args=[private_world["slug"]]))
    assert response.status_code == 404
    assert SECRET not in response.content.decode()
