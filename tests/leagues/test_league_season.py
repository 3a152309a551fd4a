"""A league's first round played through its pages, as its people use them: the organiser makes
the fixtures, each club's secretary names six players, each home secretary opens his match night,
the tables' phones enter the hands through their links, the home secretary closes the night and
submits the card, and the away side confirms it through the link its secretary was emailed. The
league table then reads as written out by hand below, and neither home club's own standings nor
ledger has moved."""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
import re
import uuid

from django.core import mail
from django.test import Client, TestCase
from django.urls import reverse

from club.clubs.models import Club, Player, Season
from club.clubs.services.setup import rule_set_from_preset
from club.demo.services.demo import random_entry
from club.leagues.models import Fixture, MatchCard
from club.money.models import Debt
from club.play.models import Night, NightTotal, Seat, TableLink
from club.play.services.hand_entry import next_hand
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night

captured_on_commit = TestCase.captureOnCommitCallbacks


def own_night(club: Club) -> None:
    """A closed club night of the club's own, so that its standings and ledger have rows."""
    rules = rule_set_from_preset(club, "hoyle", "Hoyle")
    season = Season.objects.create(
        club=club,
        name="Winter",
        start=dt.date(2026, 10, 1),
        end=dt.date(2027, 9, 30),
        rule_set=rules,
    )
    players = list(Player.objects.filter(club=club).order_by("name")[:4])
    night = create_night(season, dt.date(2026, 11, 6), [(players, 0)])
    table = night.tables.get()
    rng = random.Random(club.pk)
    for _ in range(6):
        entry = random_entry(rng, next_hand(table)["dealer"], players, rules.rules)
        record_hand(table, entry, None)
    close_night(night, None)


# Hoyle's solo, made with one trick over: 6 + 1 from each of the three opponents (21 to the
# declarer). At a table of two a side, the declarer's side is up 21 - 7 = 14, the other down 14.
SOLO_OVER_ONE = 14


def secretary_of(club: Club) -> Client:
    client = Client()
    assert client.login(username=f"sec-{club.slug}", password="pw-sec-1")
    return client


def club_books(club: Club, standings: str) -> tuple[object, ...]:
    """A club's own standings page and ledger: what a league's match must not touch."""
    table = re.search(r"<table.*?</table>", standings, re.S)
    assert table is not None and club.players.first().name in table[0]
    debts = sorted(Debt.objects.filter(club=club).values_list("payer_id", "payee_id", "amount"))
    assert debts, "the club's own night left its settle-up in the ledger"
    return (
        table[0],
        Night.objects.filter(season__club=club).count(),
        NightTotal.objects.filter(player__club=club).count(),
        debts,
    )


def play_match(fixture: Fixture, league_slug: str, home_declares: list[bool]) -> None:
    """Open, play (one solo over one at each table, declared by a home player or an away one),
    close and submit the card, all through the pages and the tables' links."""
    home = secretary_of(fixture.home.club)
    page_url = reverse("league_fixture", args=[league_slug, fixture.pk])
    page = home.get(page_url).content.decode()
    token = re.search(r'name="form_token" value="([0-9a-f-]{36})"', page)
    assert token is not None
    opened = home.post(
        reverse("league_fixture_open", args=[league_slug, fixture.pk]),
        {
            "home": re.findall(r'name="home" value="(\d+)"', page),
            "away": re.findall(r'name="away" value="(\d+)"', page),
            "form_token": token[1],
        },
    )
    assert opened.status_code == 302
    fixture.refresh_from_db()
    night = fixture.night
    assert night is not None
    phone = Client()
    for table, by_home in zip(night.tables.order_by("number"), home_declares, strict=True):
        seats = [seat.player for seat in Seat.objects.filter(table=table).order_by("position")]
        link = TableLink.objects.get(table=table, revoked_at=None)
        saved = phone.post(
            reverse("link_create", args=[link.token]),
            {
                "dealer": seats[0].pk,
                "contract": "solo",
                # Seats go home, away, home, away round the table.
                "declarer": seats[0 if by_home else 1].pk,
                "tricks": 6,
                "expected_number": 1,
                "client_id": str(uuid.uuid4()),
            },
        )
        assert saved.status_code == 302, saved.content.decode()[:300]
    assert home.post(reverse("league_fixture_close", args=[league_slug, fixture.pk])).status_code
    with captured_on_commit(execute=True):
        submitted = home.post(
            reverse("league_fixture_card", args=[league_slug, fixture.pk]), {"action": "submit"}
        )
    assert submitted.status_code in (200, 302)


def test_a_round_played_through_the_pages_gives_the_table_written_by_hand(
    client, league, five_clubs, organiser
):
    client.force_login(organiser)
    assert client.post(reverse("league_fixtures_generate", args=[league.slug])).status_code == 302
    for entry in five_clubs:
        players = Player.objects.filter(club=entry.club).values_list("pk", flat=True)
        named = secretary_of(entry.club).post(
            reverse("league_club_players", args=[entry.club.slug, league.slug]),
            {"players": list(players)},
        )
        assert named.status_code == 302
    first_round = list(
        Fixture.objects.filter(league=league, cycle=1, round=1)
        .select_related("home__club", "away__club")
        .order_by("pk")
    )
    assert len(first_round) == 2  # five clubs: two matches and a bye
    books = {}
    for fixture in first_round:
        club = fixture.home.club
        own_night(club)
        standings = secretary_of(club).get(reverse("standings", args=[club.slug]))
        books[club.slug] = club_books(club, standings.content.decode())

    # The first match: an away player makes a solo at every table. The second: home players at
    # two tables, an away player at the third.
    first, second = first_round
    play_match(first, league.slug, [False, False, False])
    play_match(second, league.slug, [True, True, False])

    cards = {card.fixture_id: card for card in MatchCard.objects.all()}
    assert (cards[first.pk].home_score, cards[second.pk].home_score) == (
        -3 * SOLO_OVER_ONE,
        SOLO_OVER_ONE,
    )
    # Submitted, not yet confirmed: nothing counts.
    table_url = reverse("league_table_csv", args=[league.slug])
    assert all(
        row[2] == "0"
        for row in list(csv.reader(io.StringIO(client.get(table_url).content.decode())))[1:]
    )

    # Each away secretary confirms through the link in his email.
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        token = re.search(r"/cards/([\w-]+)/", message.body)
        assert token is not None
        confirmed = Client().post(
            reverse("league_card", args=[league.slug, token[1]]), {"action": "confirm"}
        )
        assert confirmed.status_code in (200, 302)
    assert {card.state for card in MatchCard.objects.all()} == {MatchCard.State.CONFIRMED}

    bye = next(
        e.club.name
        for e in five_clubs
        if e.pk not in {f.home_id for f in first_round} | {f.away_id for f in first_round}
    )
    by_hand = [
        # #, club, played, won, tied, lost, aggregate (£), points
        ["1", first.away.club.name, "1", "1", "0", "0", "0.42", "3"],
        ["2", second.home.club.name, "1", "1", "0", "0", "0.14", "3"],
        ["3", bye, "0", "0", "0", "0", "0.00", "0"],
        ["4", second.away.club.name, "1", "0", "0", "1", "-0.14", "0"],
        ["5", first.home.club.name, "1", "0", "0", "1", "-0.42", "0"],
    ]
    rows = list(csv.reader(io.StringIO(client.get(table_url).content.decode())))
    assert rows[0] == ["#", "Club", "P", "W", "T", "L", "Aggregate (£)", "Pts"]
    assert rows[1:] == by_hand
    # The page shows the same order to a playing club's secretary.
    html = secretary_of(first.home.club).get(reverse("league_table", args=[league.slug]))
    text = html.content.decode()
    positions = [text.index(row[1]) for row in by_hand]
    assert positions == sorted(positions)

    for fixture in first_round:
        club = fixture.home.club
        standings = secretary_of(club).get(reverse("standings", args=[club.slug]))
        assert club_books(club, standings.content.decode()) == books[club.slug], club.name
