"""The club home page: the latest night's results, the season's leaders, the biggest hands."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

import pytest
from django.urls import reverse

import scoring
from tests.kits.scorebook import expected, night_with, play, table_text


@pytest.fixture
def two_nights(season, players, secretary):
    """Night one: Bob's abundance with 10 tricks and Fay's misère; night two: Ann's solo and
    Cat's open misère. Returns each night's amounts and the declarers' wins, computed here."""
    rules = scoring.preset("hoyle")
    ann, bob, cat, dan, eve, fay, gus, hal = players[:8]
    spec = [
        (
            dt.date(2026, 10, 1),
            [players[:4], players[4:8]],
            [(1, bob, "abundance", 10), (2, fay, "misere", 0), (1, dan, "solo", 3)],
        ),
        (
            dt.date(2026, 10, 8),
            [players[:4]],
            [(1, ann, "solo", 6), (1, cat, "open_misere", 0)],
        ),
    ]
    nights, wins = [], []
    for date, tables, hands in spec:
        night = night_with(season, date, *tables)
        amounts: dict[str, int] = defaultdict(int)
        for table, declarer, contract, tricks in hands:
            play(night, secretary, declarer, contract, tricks, table=table)
            result = expected(rules, tables[table - 1], declarer, contract, tricks)
            for name, amount in result.items():
                amounts[name] += amount
            wins.append((result[declarer.name], declarer.name, contract))
        nights.append(dict(amounts))
    return nights, wins


def home(client, club):
    response = client.get(reverse("club", args=[club.slug]))
    assert response.status_code == 200
    return response


def test_latest_nights_results(client, season, secretary, two_nights):
    nights, _ = two_nights
    client.force_login(secretary)
    html = home(client, season.club).content
    rows, _ = table_text(html, "stats")
    latest = nights[-1]
    want = sorted(latest.items(), key=lambda kv: (-kv[1], kv[0]))
    assert [r[0] for r in rows[1:]] == [name for name, _ in want]
    assert [r[2] for r in rows[1:]] == [season.club.format_amount(v, signed=True) for _, v in want]
    assert b"Club night 08 Oct 2026" in html


def test_season_leaders(client, season, secretary, two_nights):
    nights, _ = two_nights
    net: dict[str, int] = defaultdict(int)
    for night in nights:
        for name, amount in night.items():
            net[name] += amount
    client.force_login(secretary)
    rows, _ = table_text(home(client, season.club).content, "leaders")
    top = sorted(net.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    ordered = sorted(net.values(), reverse=True)
    assert [r[1] for r in rows[1:]] == [name for name, _ in top]
    assert [r[0] for r in rows[1:]] == [str(ordered.index(v) + 1) for _, v in top]
    assert [r[2] for r in rows[1:]] == [season.club.format_amount(v, signed=True) for _, v in top]


def test_biggest_hands(client, season, secretary, two_nights):
    _, wins = two_nights
    client.force_login(secretary)
    rows, _ = table_text(home(client, season.club).content, "biggest")
    made = sorted((w for w in wins if w[0] > 0), key=lambda w: -w[0])
    assert [(r[0], r[1]) for r in rows[1:]] == [
        (season.club.format_amount(amount, signed=True), name) for amount, name, _ in made
    ]
    # Cat's open misère, 24 from each of three; Bob's abundance with 10 tricks, 18 + 2 over.
    assert made[:2] == [(72, "Cat", "open_misere"), (60, "Bob", "abundance")]
    assert rows[1][2].startswith("Open Misère") and rows[2][2].startswith("Abundance, 1 over")
    assert "Dan" not in [r[1] for r in rows[1:]]  # a failed solo is no big hand


def test_private_home_for_members_only(client, season, viewer, outsider, two_nights):
    url = reverse("club", args=[season.club.slug])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    client.force_login(viewer)
    assert client.get(url).status_code == 200


def test_public_home_needs_no_login(client, season, two_nights):
    season.club.is_public = True
    season.club.save()
    assert b"Biggest hands" in home(client, season.club).content


def test_a_new_club_has_an_empty_home(client, club, secretary):
    client.force_login(secretary)
    html = home(client, club).content
    assert b"No hands played yet" in html and b"No seasons yet" in html


@pytest.mark.parametrize("weeks", [1, 12])
def test_home_queries_do_not_grow(
    client, season, players, secretary, django_assert_max_num_queries, weeks
):
    for week in range(weeks):
        night = night_with(
            season, dt.date(2026, 9, 1) + dt.timedelta(weeks=week), players[:4], players[4:8]
        )
        play(night, secretary, players[week % 4], "abundance", 9 + week % 3)
        play(night, secretary, players[4 + week % 4], "solo", 6, table=2)
    client.force_login(secretary)
    with django_assert_max_num_queries(12):
        home(client, season.club)
