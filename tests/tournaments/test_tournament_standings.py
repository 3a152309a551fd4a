"""A tournament counts in the season standings, player pages and club home only when set to
(Night.counts_in_standings): its hands are left out of all three otherwise."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from club.tournaments.services import tournaments as services
from tests.kits.scorebook import expected, night_with, play, table_text
from tests.kits.tournament_kit import make_tournament, money, play_round, tables_of


@pytest.fixture
def club_night(season, players, secretary):
    """A club night before the tournament: Ann, Bob, Cat, Dan; Bob makes a solo exactly."""
    night = night_with(season, dt.date(2026, 11, 1), players[:4])
    play(night, secretary, players[1], "solo", 5)
    return expected(season.rule_set.rules, players[:4], players[1], "solo", 5)


def tournament_played(season, players, user, counts: bool):
    t = make_tournament(season, players[:8], rounds=1, hands=2, counts=counts)
    services.start(t)
    totals = play_round(t, user)
    services.close_round(t, user)
    return t, {pid: v for table in totals.values() for pid, v in table.items()}


def latest_section(html: str) -> str:
    return html.split('class="card latest-night"')[1].split("</section>")[0]


def biggest_section(html: str) -> str:
    return html.split('id="biggest-heading"')[1].split("</section>")[0]


def standings_nets(client, club) -> dict[str, tuple[str, str]]:
    """name -> (nights, net) from the standings table."""
    html = client.get(reverse("standings", args=[club.slug])).content
    rows, _ = table_text(html, "standings")
    header = rows[0]
    name, nights, net = header.index("Player"), header.index("Nights"), header.index("Net")
    return {r[name]: (r[nights], r[net]) for r in rows[1:]}


@pytest.mark.parametrize("counts", [False, True])
def test_the_season_standings(client, club, season, players, secretary, club_night, counts):
    t, totals = tournament_played(season, players, secretary, counts)
    client.force_login(secretary)
    shown = standings_nets(client, club)
    by_name = {p.name: p for p in players}
    for name in [p.name for p in players[:8]]:
        at_club = club_night.get(name, 0)
        if counts:
            net = at_club + totals[by_name[name].pk]
            nights = 1 + (name in club_night)
            assert shown[name] == (str(nights), money(net, signed=True)), name
        elif name in club_night:
            assert shown[name] == ("1", money(at_club, signed=True)), name
        else:
            assert name not in shown


def without_money_owed(page: str) -> str:
    return re.sub(r'<section class="card" id="owed">.*?</section>', "", page, flags=re.S)


def test_the_player_page_and_club_home_leave_an_uncounted_tournament_out(
    client, club, season, players, secretary, club_night
):
    t, totals = tournament_played(season, players, secretary, counts=False)
    client.force_login(secretary)
    eve = players[4]  # at the tournament only
    # The money still owed from the tournament is real money: the secretary sees it in the page's
    # "Money owed" section; the season's figures around it leave the tournament out.
    page = without_money_owed(
        client.get(reverse("player_detail", args=[club.slug, eve.pk])).content.decode()
    )
    assert "Christmas Drive" not in page
    bob = players[1]
    page = without_money_owed(
        client.get(reverse("player_detail", args=[club.slug, bob.pk])).content.decode()
    )
    assert "Christmas Drive" not in page
    home = client.get(reverse("club", args=[club.slug])).content.decode()
    # The latest night shown is the club night, and no tournament hand is among the biggest.
    assert "Club night 01 Nov 2026" in latest_section(home)
    assert "Christmas Drive" not in latest_section(home)
    assert "Christmas Drive" not in biggest_section(home)
    # Counted, it is the latest night on the club home (a finished event's settings change only
    # once a secretary has reopened its night).
    from club.play.services.nights import reopen_night

    reopen_night(t.night, secretary)
    services.update_settings(
        t,
        name=t.name,
        rounds=t.rounds,
        hands_per_round=t.hands_per_round,
        scoring_method=t.scoring_method,
        is_public=False,
        counts_in_standings=True,
    )
    home = client.get(reverse("club", args=[club.slug])).content.decode()
    assert "Christmas Drive" in latest_section(home)
    page = client.get(reverse("player_detail", args=[club.slug, eve.pk])).content.decode()
    assert "Christmas Drive" in page
    assert money(totals[eve.pk], signed=True) in page


def test_the_tournament_still_shows_its_own_figures_when_not_counted(
    client, season, players, secretary
):
    t, totals = tournament_played(season, players, secretary, counts=False)
    client.force_login(secretary)
    body = client.get(reverse("tournament_detail", args=[t.club.slug, t.pk])).content.decode()
    assert "not counted in the season standings" in body
    for table in tables_of(t, 1):
        for seat in table.seats.all():
            assert money(totals[seat.player_id]) in body
