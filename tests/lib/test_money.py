"""Amounts under one unit of currency as people say them ("+1.7p", "+1.7¢"), while the
CSV keeps the full figure."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from fractions import Fraction

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from club.clubs.models import Club
from club.grades.display.tables import format_average
from club.lib.money import format_spoken
from tests.kits.scorebook import play


def club_in(symbol: str, minor: int = 100, kind: str = "money") -> Club:
    return Club(name="x", slug="x", currency_symbol=symbol, minor_units=minor, unit_kind=kind)


@pytest.mark.parametrize(
    ("symbol", "value", "text"),
    [
        ("£", Fraction(172, 100), "+1.7p"),  # the "+£0.0172"
        ("$", Fraction(172, 100), "+1.7¢"),
        ("€", Fraction(-172, 100), "-1.7c"),
        ("£", Fraction(-35), "-35p"),  # whole pence: no decimal
        ("£", Fraction(3, 2), "+1.5p"),
        ("£", Fraction(1, 40), "0.0p"),  # 0.025p rounds to nothing: no sign, but not "0p"
        ("£", Fraction(0), "0p"),
        ("£", Fraction(9994, 100), "+99.9p"),
    ],
)
def test_averages_under_one_unit_in_pence_or_cents(symbol, value, text):
    assert format_average(club_in(symbol), value) == text


@pytest.mark.parametrize(
    ("club", "value", "text"),
    [
        # One unit or more: the club's money format, to the penny (half to even).
        (club_in("£"), Fraction(9996, 100), "+£1.00"),  # would round to 100.0p: pounds
        (club_in("£"), Fraction(100), "+£1.00"),
        (club_in("£"), Fraction(-12345, 100), "-£1.23"),
        (club_in("£"), Fraction(10850, 100), "+£1.08"),  # 108.5p: half to even
        (club_in("$"), Fraction(300), "+$3.00"),
        (club_in("kr"), Fraction(172, 100), "+kr0.0172"),  # no known minor unit: exact
        (club_in("£", minor=1), Fraction(3, 2), "+£1.50"),  # whole pounds: not pence
        (club_in("", kind="points"), Fraction(5, 3), "+1.67 pts"),
    ],
)
def test_one_unit_or_more_and_other_units_keep_their_form(club, value, text):
    assert format_average(club, value) == text


def test_whole_amounts():
    assert format_spoken(club_in("£"), 6, signed=True) == "+6p"
    assert format_spoken(club_in("$"), -99) == "-99¢"
    assert format_spoken(club_in("£"), 100) is None
    assert format_spoken(club_in("£"), 6) == "6p"


@given(st.fractions(min_value=-100, max_value=100))
def test_spoken_figure_is_within_half_a_tenth_of_a_penny(value):
    text = format_spoken(club_in("£"), value, signed=True)
    if text is None:
        assert abs(value) >= Fraction(9995, 100)
        return
    assert text.endswith("p")
    shown = Fraction(Decimal(text[:-1]))
    assert abs(shown - value) <= Fraction(1, 20)
    assert text.startswith("+") == (shown > 0)
    assert text.startswith("-") == (shown < 0)


def test_standings_page_says_cents_and_the_csv_keeps_dollars(
    client, season, night, players, secretary
):
    club = season.club
    club.currency_symbol = "$"
    club.save()
    season.standings_method = "average"
    season.save()
    ann, bob, cat, dan = players[:4]
    play(night, secretary, ann)  # Hoyle solo made: Ann +18, the others -6 each, in one hand
    client.force_login(secretary)
    page = client.get(reverse("standings", args=[club.slug])).content.decode()
    assert "+18¢" in page and "-6¢" in page
    assert "$0.1800" not in page
    exported = client.get(reverse("standings_csv", args=[club.slug])).content.decode()
    header, *lines = csv.reader(io.StringIO(exported))
    rows = {row[header.index("Player")]: row for row in lines}
    average = header.index("Per hand ($)")  # a spreadsheet's numbers, in dollars
    assert Decimal(rows["Ann"][average]) == Decimal("0.18")
    assert Decimal(rows["Bob"][average]) == Decimal("-0.06")
