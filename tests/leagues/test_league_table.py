"""The league table's page, PDF and CSV against a table written out by hand; who may read them
(a private league is a 404 to everyone outside it); its query count at two sizes."""

from __future__ import annotations

import csv
import io
import itertools
import re
import subprocess

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from club.leagues.models import LeagueClub, MatchCard
from club.leagues.services import cards
from club.leagues.services.leagues import NewLeague, create_league
from tests.kits.league_kit import fixture, play_match
from tests.leagues.conftest import make_club

# Aberdeen beat Bucksburn by 28p on the night (confirmed); Dyce did not turn up at Cults.
# 3 points a win, 1 a tie, 0 a loss or forfeit; ties split by aggregate, then matches won.
# Dyce and Ellon are level on everything and share third place.
BY_HAND = [
    # position, club, played, won, tied, lost, aggregate, points
    ("1", "Aberdeen Athenaeum", "1", "1", "0", "0", "+£0.28", "3"),
    ("2", "Cults Arms", "1", "1", "0", "0", "£0.00", "3"),
    ("3", "Dyce Station", "1", "0", "0", "1", "£0.00", "0"),
    ("3", "Ellon", "0", "0", "0", "0", "£0.00", "0"),
    ("5", "Bucksburn Crown", "1", "0", "0", "1", "-£0.28", "0"),
]


def secretary(entry: LeagueClub) -> User:
    return User.objects.get(username=f"sec-{entry.club.slug}")


@pytest.fixture
def played(league, five_clubs):
    aberdeen, bucksburn, cults, dyce, _ = five_clubs
    match = fixture(league, aberdeen, bucksburn)
    play_match(match, [(0, "solo", 5), (1, "solo", 3)])
    card = cards.submit(match, secretary(aberdeen))
    cards.confirm(card, card.links.get())
    cards.record_forfeit(fixture(league, cults, dyce), dyce, league.organiser)
    return league


def page_rows(html: str) -> list[tuple[str, ...]]:
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return [
        tuple(
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        )
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def test_page_pdf_and_csv_agree_with_the_table_written_by_hand(played):
    client = Client()
    client.force_login(played.organiser)
    base = f"/leagues/{played.slug}"
    html = client.get(f"{base}/table/").content.decode()
    assert page_rows(html) == BY_HAND

    response = client.get(f"{base}/table.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["#", "Club", "P", "W", "T", "L", "Aggregate (£)", "Pts"]
    money = {"+£0.28": "0.28", "£0.00": "0.00", "-£0.28": "-0.28"}
    assert rows[1:] == [[*row[:6], money[row[6]], row[7]] for row in BY_HAND]

    pdf = client.get(f"{base}/table.pdf")
    assert pdf["Content-Type"] == "application/pdf"
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf.content, capture_output=True, check=True
    ).stdout.decode()
    assert text.count("\f") == 1  # one A4 page
    lines = [line.split() for line in text.splitlines() if re.match(r"\s*\d+\s+[A-Z]", line)]
    assert [(*w[:1], " ".join(w[1:-6]), *w[-6:]) for w in lines] == BY_HAND


def test_a_card_counts_on_the_page_the_moment_it_is_confirmed(league, five_clubs):
    aberdeen, bucksburn = five_clubs[:2]
    match = fixture(league, aberdeen, bucksburn)
    play_match(match, [(0, "solo", 5)])
    card = cards.submit(match, secretary(aberdeen))
    client = Client()
    client.force_login(league.organiser)
    url = f"/leagues/{league.slug}/table/"
    assert all(row[2] == "0" for row in page_rows(client.get(url).content.decode()))
    cards.confirm(card, card.links.get())
    first = page_rows(client.get(url).content.decode())[0]
    assert first[1:3] == ("Aberdeen Athenaeum", "1")


URLS = ["table/", "table.pdf", "table.csv"]


@pytest.fixture
def readers(league, five_clubs):
    """Who may and who may not read a private league."""
    other_organiser = User.objects.create_user("other-organiser", "o@example.org", "pw")
    create_league(
        NewLeague(
            name="Other League", season_start=league.season_start, season_end=league.season_end
        ),
        other_organiser,
    )
    make_club("Fraserburgh")  # a club of the server, not in this league
    invited = make_club("Garioch")
    LeagueClub.objects.create(league=league, club=invited)  # invited, not yet accepted
    return {
        "organiser": (league.organiser, 200),
        "a playing club's secretary": (secretary(five_clubs[2]), 200),
        "another league's organiser": (other_organiser, 404),
        "a club outside the league": (User.objects.get(username="sec-fraserburgh"), 404),
        "a club invited but not playing": (User.objects.get(username="sec-garioch"), 404),
        "anonymous": (None, 404),
    }


@pytest.mark.parametrize("public", [False, True])
def test_who_reads_the_table_page_pdf_and_csv(league, readers, public):
    league.is_public = public
    league.save()
    match = fixture(league, *LeagueClub.objects.filter(league=league, status="accepted")[:2])
    for who, (user, status) in readers.items():
        client = Client()
        if user is not None:
            client.force_login(user)
        expected = 200 if public else status
        for url in [*URLS, f"fixtures/{match.pk}/card/"]:
            if url.endswith(".pdf") and expected == 200 and who != "organiser":
                continue  # the PDF is laid out once below: WeasyPrint is slow
            got = client.get(f"/leagues/{league.slug}/{url}").status_code
            assert got == expected, (who, url, public)


def _add_clubs(league, names: list[str]) -> None:
    entries = [
        LeagueClub.objects.create(
            league=league,
            club=make_club(name, players=0),
            status="accepted",
            answered_at=league.created_at,
        )
        for name in names
    ]
    for home, away in itertools.pairwise(entries):
        MatchCard.objects.create(
            fixture=fixture(league, home, away),
            state=MatchCard.State.CONFIRMED,
            home_score=10,
            away_score=-10,
        )


def test_the_table_page_takes_the_same_queries_at_two_sizes(league, django_assert_max_num_queries):
    client = Client()
    client.force_login(league.organiser)
    counts = []
    for names in (["A1", "A2", "A3"], [f"B{n}" for n in range(1, 21)]):
        _add_clubs(league, names)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"/leagues/{league.slug}/table/")
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
    with django_assert_max_num_queries(counts[0]):
        assert client.get(f"/leagues/{league.slug}/table/").content.count(b"<tr") == 24
