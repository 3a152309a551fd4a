"""A player's page: night by night with running totals, contracts, partners, best and worst night,
the chart; every figure checked against scoring.score_hand, hand by hand."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

import pytest
from django.urls import reverse

import scoring
from club.clubs.models import Player
from tests.kits.scorebook import expected, night_with, play, table_text

# (date, seats by index, hands as (declarer, contract, tricks, partner)); Ann is players[0].
NIGHTS = [
    (
        dt.date(2026, 10, 1),
        [0, 1, 2, 3],
        [
            (0, "solo", 7, None),
            (0, "misere", 1, None),
            (0, "prop_cop", 9, 1),
            (1, "prop_cop", 7, 0),
        ],
    ),
    (dt.date(2026, 10, 8), [0, 1, 2, 3], [(0, "solo", 4, None), (2, "prop_cop", 8, 0)]),
    (dt.date(2026, 10, 15), [0, 2, 3, 4], [(0, "abundance", 10, None), (3, "solo", 5, None)]),
]


@pytest.fixture
def history(season, players, secretary):
    """Record the nights; return Ann's figures computed here from scoring.score_hand."""
    rules = scoring.preset("hoyle")
    ann = players[0]
    per_night: list[int] = []
    contracts: dict[str, list] = defaultdict(lambda: [0, 0, 0])  # declared, made, gain
    partners: dict[str, list] = defaultdict(lambda: [0, 0, 0])  # hands, made, Ann's net
    for date, seats, hands in NIGHTS:
        seated = [players[i] for i in seats]
        night = night_with(season, date, seated)
        total = 0
        for declarer, contract, tricks, partner in hands:
            mate = players[partner] if partner is not None else None
            play(night, secretary, players[declarer], contract, tricks, partner=mate)
            amounts = expected(rules, seated, players[declarer], contract, tricks, mate)
            made = scoring.score_hand(
                scoring.Hand(
                    tuple(p.name for p in seated),
                    contract,
                    players[declarer].name,
                    mate.name if mate else None,
                    tricks,
                ),
                rules,
            ).made
            total += amounts["Ann"]
            if players[declarer] == ann:
                record = contracts[contract]
                record[0] += 1
                record[1] += made
                record[2] += amounts["Ann"]
            if contract == "prop_cop" and ann in (players[declarer], mate):
                other = mate if players[declarer] == ann else players[declarer]
                pair = partners[other.name]
                pair[0] += 1
                pair[1] += made
                pair[2] += amounts["Ann"]
        per_night.append(total)
    return per_night, dict(contracts), dict(partners)


def get(client, season, player, **params):
    url = reverse("player_detail", args=[season.club.slug, player.pk])
    return client.get(url, params)


def average_text(value: Fraction) -> str:
    """Under £1 in pence, to one place when not whole; else pounds to 4 places."""
    pence = Decimal(value.numerator) / Decimal(value.denominator)
    shown = pence.quantize(Decimal(1) if value.denominator == 1 else Decimal("0.1"))
    if abs(shown) < 100:
        sign = "+" if shown > 0 else "-" if shown < 0 else ""
        return f"{sign}{abs(shown)}p"
    whole = round(value)  # one pound or more: to the penny, half to even
    sign = "+" if whole > 0 else "-" if whole < 0 else ""
    return f"{sign}£{abs(Decimal(whole) / 100):.2f}"


def test_night_by_night_with_running_totals(client, season, players, secretary, history):
    per_night, _, _ = history
    assert per_night == [24 - 36 + 7 - 7, -21 + 6, 60 - 6]
    client.force_login(secretary)
    response = get(client, season, players[0])
    assert response.status_code == 200
    rows, _ = table_text(response.content, "nights")
    body = rows[1:]
    assert [r[0] for r in body] == [
        "Club night 15 Oct 2026",
        "Club night 08 Oct 2026",
        "Club night 01 Oct 2026",
    ]
    running = [sum(per_night[: i + 1]) for i in range(len(per_night))]
    club = season.club
    for row, net, total in zip(body, reversed(per_night), reversed(running), strict=True):
        assert row[3] == club.format_amount(net, signed=True)
        assert row[4] == club.format_amount(total, signed=True)
    assert body[-1][1] == "4" and body[-1][2] == "2 / 3"  # hands; made / declared on night one


def test_contracts_declared_made_percent_and_average_gain(
    client, season, players, secretary, history
):
    _, contracts, _ = history
    assert contracts == {
        "solo": [2, 1, 24 - 21],
        "misere": [1, 0, -36],
        "prop_cop": [1, 1, 7],
        "abundance": [1, 1, 60],
    }
    client.force_login(secretary)
    rows, _ = table_text(get(client, season, players[0]).content, "contracts")
    shown = {r[0]: r[1:] for r in rows[1:]}
    assert list(shown) == ["Prop & Cop", "Solo", "Misère", "Abundance"]  # in contract order
    for key, (declared, made, gain) in contracts.items():
        name = scoring.Contract(key).display_name
        percent = f"{round(Fraction(100 * made, declared))}%"
        # then the club's columns (tests/grades/test_grade_pages.py)
        assert shown[name][:5] == [
            str(declared),
            str(made),
            percent,
            season.club.format_amount(gain, signed=True),
            average_text(Fraction(gain, declared)),
        ]
    assert shown["Solo"][4] == "+1.5p"


def test_prop_and_cop_partners(client, season, players, secretary, history):
    _, _, partners = history
    assert partners == {"Bob": [2, 1, 0], "Cat": [1, 1, 6]}
    client.force_login(secretary)
    rows, _ = table_text(get(client, season, players[0]).content, "partners")
    shown = {r[0]: r[1:] for r in rows[1:]}
    assert list(shown) == ["Bob", "Cat"]  # most hands together first
    for name, (hands, made, net) in partners.items():
        assert shown[name][:4] == [
            str(hands),
            str(made),
            f"{round(Fraction(100 * made, hands))}%",
            season.club.format_amount(net, signed=True),
        ]


def test_best_and_worst_night_and_summary(client, season, players, secretary, history):
    per_night, contracts, _ = history
    client.force_login(secretary)
    response = get(client, season, players[0])
    html = response.content.decode()
    best = max(range(3), key=lambda i: per_night[i])
    worst = min(range(3), key=lambda i: per_night[i])
    assert (best, worst) == (2, 1)
    assert f'Club night 15 Oct 2026</a>: <span class="gain">{"+£0.54"}</span>' in html
    assert 'Club night 08 Oct 2026</a>: <span class="loss">-£0.15</span>' in html
    assert response.context["totals"].net == sum(per_night)
    assert response.context["totals"].declared == sum(c[0] for c in contracts.values())
    assert response.context["totals"].made == sum(c[1] for c in contracts.values())


def test_the_chart_is_there_with_its_text(client, season, players, secretary, history):
    per_night, _, _ = history
    client.force_login(secretary)
    html = get(client, season, players[0]).content.decode()
    start = html.index('<svg xmlns="http://www.w3.org/2000/svg" class="chart"')
    svg = ET.fromstring(html[start : html.index("</svg>", start) + len("</svg>")])
    ns = "{http://www.w3.org/2000/svg}"
    assert "Ann" in svg.find(f"{ns}title").text
    assert "+£0.27" in svg.find(f"{ns}desc").text  # where she ends: -12 - 15 + 54
    assert len(svg.find(f"{ns}polyline").get("points").split()) == 3
    rows, _ = table_text(html, "chart-table")
    assert rows[1] == ["Ann", "-£0.12", "-£0.27", "+£0.27"]


def test_a_player_who_has_not_played(client, season, players, secretary, history):
    client.force_login(secretary)
    response = get(client, season, players[8])
    assert response.status_code == 200 and b"has not played" in response.content


def test_private_player_pages(client, season, players, secretary, viewer, outsider, history):
    response = get(client, season, players[0])
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    assert get(client, season, players[0]).status_code == 404
    client.force_login(viewer)
    assert get(client, season, players[0]).status_code == 200
    season.club.is_public = True
    season.club.save()
    client.logout()
    assert get(client, season, players[0]).status_code == 200


def test_another_clubs_player_is_a_404(client, season, players, secretary, other_club):
    stranger = Player.objects.create(club=other_club, name="Stranger")
    client.force_login(secretary)
    assert get(client, season, stranger).status_code == 404


@pytest.mark.parametrize("weeks", [1, 12])
def test_player_page_queries_do_not_grow(
    client, season, players, secretary, django_assert_max_num_queries, weeks
):
    ann, bob, cat, dan = players[:4]
    for week in range(weeks):
        night = night_with(season, dt.date(2026, 9, 1) + dt.timedelta(weeks=week), players[:4])
        play(night, secretary, ann, "solo", 5 + week % 3)
        play(night, secretary, ann, "prop_cop", 8, partner=[bob, cat, dan][week % 3])
        play(night, secretary, dan, "prop_cop", 8, partner=ann)
    client.force_login(secretary)
    # 15, 1 for the money owed, and 6 for the grade section
    # (tests/grades/test_grade_pages.py counts them with ?vs=).
    with django_assert_max_num_queries(22):
        assert get(client, season, ann).status_code == 200


def test_a_long_season_is_drawn_by_month(client, season, players, secretary, history, monkeypatch):
    from club.grades.queries import standings

    monkeypatch.setattr(standings, "MAX_POINTS", 2)
    per_night, _, _ = history
    client.force_login(secretary)
    rows, _ = table_text(get(client, season, players[0]).content, "chart-table")
    assert rows == [
        ["Player", "Oct 2026"],
        ["Ann", season.club.format_amount(sum(per_night), True)],
    ]
