"""The fixtures page (the organiser makes and moves fixtures), each club's calendar feed (its
secretary sees and re-issues the address; a calendar reads it with no login), and who sees what."""

from __future__ import annotations

import datetime as dt
import re

from django.db.models import Q
from django.test import Client
from django.urls import reverse
from icalendar import Calendar

from club.leagues.models import CalendarFeed, Fixture
from club.leagues.services import fixtures as fixture_service
from tests.leagues.conftest import make_club


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def secretary_of(entry) -> Client:
    client = Client()
    assert client.login(username=f"sec-{entry.club.slug}", password="pw-sec-1")
    return client


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_the_organiser_makes_the_fixtures_and_moves_one(
    league, five_clubs, organiser, django_assert_max_num_queries
):
    client = logged_in(organiser)
    page_url = reverse("league_fixtures", args=[league.slug])
    assert "Make the fixtures" in client.get(page_url).content.decode()
    response = client.post(reverse("league_fixtures_generate", args=[league.slug]), follow=True)
    assert messages_of(response) == ["20 fixtures made."]
    with django_assert_max_num_queries(12):
        page = client.get(page_url).content.decode()
    assert page.count('<tr id="fixture-') == 20
    # Making them again asks to be sure.
    response = client.post(reverse("league_fixtures_generate", args=[league.slug]), follow=True)
    assert messages_of(response) == ['Tick "Replace every fixture" to make the fixtures again.']

    fixture = Fixture.objects.select_related("home__club", "away__club").first()
    assert fixture is not None
    clash = Fixture.objects.filter(home=fixture.away).exclude(date=fixture.date).first()
    assert clash is not None
    move_url = reverse("league_fixture_move", args=[league.slug])
    response = client.post(move_url, {"fixture": fixture.pk, "date": clash.date}, follow=True)
    (message,) = messages_of(response)
    assert message.startswith(f"{fixture.away.club} already plays on ")
    response = client.post(move_url, {"fixture": fixture.pk, "date": "2027-06-04"}, follow=True)
    assert messages_of(response) == [
        f"{fixture.home.club} v {fixture.away.club} is now on 2027-06-04."
    ]
    fixture.refresh_from_db()
    assert fixture.date == dt.date(2027, 6, 4)


def test_a_club_secretary_reads_the_fixtures_but_cannot_make_or_move_them(
    league, five_clubs, organiser
):
    fixture_service.generate(league, organiser)
    client = secretary_of(five_clubs[0])
    page = client.get(reverse("league_fixtures", args=[league.slug])).content.decode()
    assert page.count('<tr id="fixture-') == 20 and "Make the fixtures" not in page
    assert client.post(reverse("league_fixtures_generate", args=[league.slug])).status_code == 404
    fixture = Fixture.objects.first()
    assert fixture is not None
    data = {"fixture": fixture.pk, "date": "2027-06-04"}
    assert client.post(reverse("league_fixture_move", args=[league.slug]), data).status_code == 404
    fixture.refresh_from_db()
    assert fixture.date != dt.date(2027, 6, 4)


def _feed_url(page: str) -> str:
    found = re.search(r'class="calendar-url" href="http://testserver([^"]+)"', page)
    assert found is not None
    return found[1]


def test_a_clubs_calendar_lists_its_fixtures_and_follows_a_move(league, five_clubs, organiser):
    fixture_service.generate(league, organiser)
    entry = five_clubs[0]
    secretary = secretary_of(entry)
    page = secretary.get(reverse("league_fixtures", args=[league.slug])).content.decode()
    url = _feed_url(page)
    assert page.count('class="calendar-url"') == 1  # its own club's only

    calendar_reader = Client()  # a calendar app: no login
    response = calendar_reader.get(url)
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert b"\r\n" in response.content
    events = Calendar.from_ical(response.content).walk("VEVENT")
    mine = list(Fixture.objects.filter(Q(home=entry) | Q(away=entry)).order_by("date"))
    assert len(events) == len(mine) == 8
    first = Fixture.objects.select_related("home__club", "away__club").get(pk=mine[0].pk)
    event = events[0]
    assert str(event["SUMMARY"]) == f"{first.home.club.name} v {first.away.club.name}"
    assert str(event["LOCATION"]) == first.home.club.name
    assert event.decoded("DTSTART") == first.date
    uid = str(event["UID"])

    fixture_service.move(first, dt.date(2027, 6, 18), organiser)
    events = Calendar.from_ical(calendar_reader.get(url).content).walk("VEVENT")
    moved = next(e for e in events if str(e["UID"]) == uid)
    assert moved.decoded("DTSTART") == dt.date(2027, 6, 18)

    # A new address: the old one is a 404.
    reissue = reverse("league_calendar_reissue", args=[league.slug, entry.pk])
    secretary.post(reissue, {"sure": "1"})
    assert calendar_reader.get(url).status_code == 404
    page = secretary.get(reverse("league_fixtures", args=[league.slug])).content.decode()
    assert _feed_url(page) != url and calendar_reader.get(_feed_url(page)).status_code == 200
    assert CalendarFeed.objects.filter(entry=entry).count() == 2
    # Another club's secretary cannot re-issue this club's feed.
    other = secretary_of(five_clubs[1])
    assert other.post(reissue, {"sure": "1"}).status_code == 404


def test_a_private_league_is_a_404_to_outsiders_and_a_wrong_token(
    league, five_clubs, organiser, django_user_model
):
    fixture_service.generate(league, organiser)
    feed_url = _feed_url(
        secretary_of(five_clubs[0])
        .get(reverse("league_fixtures", args=[league.slug]))
        .content.decode()
    )
    token = feed_url.rsplit("/", 1)[1].removesuffix(".ics")
    fixture = Fixture.objects.first()
    assert fixture is not None
    outsider_club = make_club("Outside Inn")
    outsider = Client()
    assert outsider.login(username=f"sec-{outsider_club.slug}", password="pw-sec-1")
    other_organiser = logged_in(django_user_model.objects.create_user("other-org", "", "pw"))
    for client in (outsider, other_organiser, Client()):
        for url in (
            reverse("league_fixtures", args=[league.slug]),
            reverse("league_fixture", args=[league.slug, fixture.pk]),
            reverse("league_calendar", args=[league.slug, "not-the-token"]),
            f"/leagues/{league.slug}/calendar/.ics",
            f"/leagues/{league.slug}/calendar/",
        ):
            assert client.get(url).status_code == 404, url
    # The token is for this league only.
    assert Client().get(reverse("league_calendar", args=["another", token])).status_code == 404
