"""A match night played through the pages and the tables' links: opened by the home secretary
with tonight's players of each side, two home and two away players at each table, hands entered
by phones, closed; nothing lands in either club's own nights, totals, ledger or audit trail."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from club.clubs.models import AuditEvent, Club, Player
from club.leagues.models import Fixture, League, LeagueClub, LeaguePerson, Registration
from club.leagues.services import fixtures as fixture_service
from club.leagues.services.match_night import MatchNightError, open_match_night
from club.money.models import Debt
from club.play.models import Hand, Night, NightTotal, ScoreLine, Seat, TableLink


def register(league: League, entry: LeagueClub) -> list[Registration]:
    """Each of the club's players named for the league, with a seat in the league's own club."""
    rows = []
    for player in Player.objects.filter(club=entry.club).order_by("name"):
        seat = Player.objects.create(club=league.host_club, name=player.name)
        person = LeaguePerson.objects.create(league=league, name=player.name, seat=seat)
        rows.append(
            Registration.objects.create(league=league, entry=entry, person=person, player=player)
        )
    return rows


def client_for(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password="pw-sec-1")
    return client


def club_rows(club: Club) -> dict[str, int]:
    """What a club's own pages are made of: its nights, totals, score lines, debts, audit."""
    return {
        "nights": Night.objects.filter(season__club=club).count(),
        "totals": NightTotal.objects.filter(player__club=club).count(),
        "score lines": ScoreLine.objects.filter(player__club=club).count(),
        "debts": Debt.objects.filter(club=club).count(),
        "audit": AuditEvent.objects.filter(club=club).count(),
    }


@pytest.fixture
def match(league, five_clubs, organiser) -> Fixture:
    fixture_service.generate(league, organiser)
    fixture = Fixture.objects.select_related("home__club", "away__club").first()
    assert fixture is not None
    register(league, fixture.home)
    register(league, fixture.away)
    return fixture


def test_a_match_night_played_through_the_links_leaves_both_clubs_untouched(
    match, league, django_assert_max_num_queries
):
    home_club, away_club = match.home.club, match.away.club
    before = {club.slug: club_rows(club) for club in (home_club, away_club)}
    secretary = client_for(f"sec-{home_club.slug}")
    page_url = reverse("league_fixture", args=[league.slug, match.pk])
    page = secretary.get(page_url).content.decode()
    home_regs = re.findall(r'name="home" value="(\d+)"', page)
    away_regs = re.findall(r'name="away" value="(\d+)"', page)
    assert len(home_regs) == len(away_regs) == 6
    token = re.search(r'name="form_token" value="([0-9a-f-]{36})"', page)
    assert token is not None
    data = {"home": home_regs, "away": away_regs, "form_token": token[1]}
    open_url = reverse("league_fixture_open", args=[league.slug, match.pk])
    assert secretary.post(open_url, data).status_code == 302
    # The form sent again (a double click) finds the night it made.
    assert secretary.post(open_url, data).status_code == 302
    match.refresh_from_db()
    night = match.night
    assert night is not None and Night.objects.count() == 1
    assert night.season.club_id == league.host_club_id

    home_seats = set(
        Registration.objects.filter(entry=match.home).values_list("person__seat", flat=True)
    )
    tables = list(night.tables.order_by("number"))
    assert len(tables) == 3
    for table in tables:
        seated = list(Seat.objects.filter(table=table).order_by("position"))
        assert [s.player_id in home_seats for s in seated] == [True, False, True, False]

    # The match page shows each table's link and QR code to the home secretary.
    with django_assert_max_num_queries(14):  # 13 with 3 tables: the tables, their links, the card
        page = secretary.get(page_url).content.decode()
    links = {link.table_id: link for link in TableLink.objects.filter(table__night=night)}
    assert len(links) == 3
    for link in links.values():
        assert f"http://testserver/t/{link.token}/" in page
    assert page.count('<svg role="img"') == 3

    # Each table enters one hand through its link, as a phone does.
    phone = Client()
    for table in tables:
        seats = [s.player for s in Seat.objects.filter(table=table).order_by("position")]
        response = phone.post(
            reverse("link_create", args=[links[table.pk].token]),
            {
                "dealer": seats[0].pk,
                "contract": "solo",
                "declarer": seats[1].pk,
                "tricks": 6,
                "expected_number": 1,
                "client_id": str(uuid.uuid4()),
            },
        )
        assert response.status_code == 302, response.content.decode()[:500]
    assert Hand.objects.filter(table__night=night).count() == 3
    # The away players each won a solo: their side is up, the home side down as much.
    lines = ScoreLine.objects.filter(night=night)
    home_net = sum(line.amount for line in lines if line.player_id in home_seats)
    away_net = sum(line.amount for line in lines if line.player_id not in home_seats)
    assert away_net > 0 and home_net == -away_net

    close_url = reverse("league_fixture_close", args=[league.slug, match.pk])
    assert "Close the match night?" in secretary.get(close_url).content.decode()
    assert secretary.post(close_url).status_code == 302
    night.refresh_from_db()
    assert night.is_closed

    # Everything was written in the league's own club, nothing in the clubs' own.
    after = {club.slug: club_rows(club) for club in (home_club, away_club)}
    assert after == before
    assert NightTotal.objects.filter(night=night).count() == 12
    assert all(t.player.club_id == league.host_club_id for t in NightTotal.objects.all())


def test_only_the_home_secretary_or_organiser_opens_it_with_full_sides(match, league, organiser):
    away_secretary = client_for(f"sec-{match.away.club.slug}")
    page_url = reverse("league_fixture", args=[league.slug, match.pk])
    page = away_secretary.get(page_url)
    assert page.status_code == 200 and "Open the match night" not in page.content.decode()
    open_url = reverse("league_fixture_open", args=[league.slug, match.pk])
    assert away_secretary.post(open_url, {}).status_code == 404
    outsider_club = LeagueClub.objects.exclude(pk__in=[match.home_id, match.away_id]).first()
    assert outsider_club is not None
    # A club outside the league does not see the match at all.
    stranger = Client()
    stranger.force_login(organiser.__class__.objects.create_user("stranger", "", "pw"))
    assert stranger.get(page_url).status_code == 404

    regs = {
        side: list(Registration.objects.filter(entry=entry).values_list("pk", flat=True))
        for side, entry in (("home", match.home), ("away", match.away))
    }
    Registration.objects.filter(pk=regs["away"][0]).delete()
    with pytest.raises(MatchNightError, match="has 5 registered player\\(s\\); a side is 6"):
        open_match_night(match, organiser, regs["home"], regs["away"][1:], uuid.uuid4())
    assert not Night.objects.exists()


def test_the_return_match_seats_each_player_with_new_opponents(match, league, organiser):
    def seated_pairs(fixture: Fixture) -> set[frozenset[int]]:
        fixture.refresh_from_db()
        assert fixture.night is not None
        pairs = set()
        for table in fixture.night.tables.all():
            ids = list(Seat.objects.filter(table=table).values_list("player_id", flat=True))
            pairs |= {frozenset((x, y)) for x in ids for y in ids if x != y}
        return pairs

    def picks(entry: LeagueClub) -> list[int]:
        return list(Registration.objects.filter(entry=entry).values_list("pk", flat=True))

    open_match_night(match, organiser, picks(match.home), picks(match.away), uuid.uuid4())
    away_seats = set(
        Registration.objects.filter(entry=match.away).values_list("person__seat", flat=True)
    )
    ret = Fixture.objects.get(league=league, home=match.away, away=match.home)
    open_match_night(ret, organiser, picks(ret.home), picks(ret.away), uuid.uuid4())
    first, second = seated_pairs(match), seated_pairs(ret)
    opponents = {p for p in first if len(p & away_seats) == 1}
    assert len(opponents) == 12  # 3 tables of 2 home x 2 away
    assert not opponents & second  # nobody meets an opponent of the first match again
