"""A league that is not public is nobody's business but its clubs' and its organiser's: every one
of its addresses, read or posted, is a 404 to another league's organiser and to a secretary of a
club outside it, the calendar feed included when the token is missing or wrong, and nothing is
written. The addresses are read from the URL configuration, so a new league page is walked too."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from club.clubs.models import AuditEvent
from club.leagues.models import Fixture, LeaguePerson, MatchCard, Registration
from club.leagues.services import fixtures, registers
from club.leagues.services.leagues import NewLeague, create_league
from tests.leagues.conftest import make_club


def league_urls() -> list[tuple[str, str]]:
    """(name, pattern) of every address that takes a league."""
    found: list[tuple[str, str]] = []

    def walk(resolver: URLResolver, prefix: str) -> None:
        for item in resolver.url_patterns:
            if isinstance(item, URLResolver):
                walk(item, prefix + str(item.pattern))
            elif isinstance(item, URLPattern) and "<slug:league>" in prefix + str(item.pattern):
                assert item.name, f"an unnamed league address: {prefix}{item.pattern}"
                found.append((item.name, prefix + str(item.pattern)))

    walk(get_resolver(), "")
    return found


def test_the_walk_finds_every_part_of_the_league():
    names = {name for name, _ in league_urls()}
    for part in [
        "league_home",
        "league_fixtures",
        "league_calendar",
        "league_table_pdf",
        "league_card",
        "league_players",
        "league_club_players",
        "league_export",
    ]:
        assert part in names


@pytest.fixture
def outsiders(db) -> dict[str, Client]:
    other = User.objects.create_user("other-organiser", "other@example.org", "pw-other-1")
    create_league(
        NewLeague(
            name="Another League", season_start=dt.date(2027, 1, 1), season_end=dt.date(2027, 6, 1)
        ),
        other,
    )
    outside = make_club("Fyvie Castle")
    clients = {}
    for name, username in [
        ("another league's organiser", "other-organiser"),
        ("a club outside the league", f"sec-{outside.slug}"),
    ]:
        client = Client()
        client.force_login(User.objects.get(username=username))
        clients[name] = client
    return clients


def test_every_league_address_is_a_404_to_outsiders(league, five_clubs, outsiders):
    assert not league.is_public
    fixtures.generate(league, league.organiser)
    home = five_clubs[0]
    secretary = User.objects.get(username=f"sec-{home.club.slug}")
    [registration] = registers.register(home, [home.club.players.first()], secretary)
    person = registration.person
    kwargs = {
        "league": league.slug,
        "fixture_id": Fixture.objects.filter(league=league).first().pk,
        "entry_id": home.pk,
        "registration_id": registration.pk,
        "keep_id": person.pk,
        "duplicate_id": person.pk,
        "token": "not-the-token",
    }
    rows = lambda: (  # noqa: E731 - read twice
        Fixture.objects.count(),
        MatchCard.objects.count(),
        Registration.objects.count(),
        LeaguePerson.objects.count(),
        AuditEvent.objects.count(),
    )
    before = rows()
    refused = []
    for name, pattern in league_urls():
        for who, client in outsiders.items():
            args = {k: v for k, v in kwargs.items() if f":{k}>" in pattern}
            if ":slug>" in pattern:
                if who == "another league's organiser":
                    continue  # he has no club: a club's own pages refuse him as the club's
                args["slug"] = "fyvie-castle"  # the outsider's own club, not in the league
            url = reverse(name, kwargs=args)
            answers = {
                method: getattr(client, method)(url).status_code for method in ("get", "post")
            }
            if set(answers.values()) - {404, 405} or 404 not in answers.values():
                refused.append(f"{who}: {name} {answers}")
    assert not refused, "\n".join(refused)
    assert rows() == before
    # The same addresses open to the league's own organiser (the walk is not all 404s).
    own = Client()
    own.force_login(league.organiser)
    for name in ["league_home", "league_fixtures", "league_players", "league_table_csv"]:
        assert own.get(reverse(name, kwargs={"league": league.slug})).status_code == 200, name


def test_the_calendar_feed_needs_its_token_even_for_the_leagues_own_clubs(league, five_clubs):
    client = Client()
    client.force_login(User.objects.get(username=f"sec-{five_clubs[0].club.slug}"))
    url = reverse("league_calendar", args=[league.slug, "wrong-token"])
    assert client.get(url).status_code == 404
