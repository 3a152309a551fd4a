"""The statement's "Contracts called" table writes its "Per contract" average as every other
amount of the club is written ("+£1.08", "-$0.36"), whatever its size; a points club's keeps two
places ("+1.50 pts"). Read back with pdftotext."""

from __future__ import annotations

import re
import subprocess
from fractions import Fraction

import pytest
from django.urls import reverse

import scoring
from club.clubs.models import Club
from club.play.models import ScoreLine
from tests.kits.ledger_kit import play


def pdf_text(pdf: bytes) -> str:
    done = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    )
    return done.stdout.decode()


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def declared(table4, players, secretary):
    """Ann calls an Abundance Declared and makes it (36p from each of three), two solos (made with
    two over, failed one under: +24 and -21, an average of a penny and a half) and a misère she
    loses (-36)."""
    ann = players[0]
    play(table4, secretary, ann, "abundance_declared", 13)
    play(table4, secretary, ann, "solo", 7)
    play(table4, secretary, ann, "solo", 4)
    play(table4, secretary, ann, "misere", 1)
    return ann


@pytest.mark.parametrize("symbol", ["£", "$"])
def test_statement_per_contract_column_is_in_the_clubs_money_format(
    client, viewer, club, season, declared, symbol
):
    club.currency_symbol = symbol
    club.save()
    client.force_login(viewer)
    response = client.get(
        reverse("player_statement", args=[club.slug, declared.pk]) + f"?season={season.pk}"
    )
    assert response.status_code == 200
    text = pdf_text(response.content)
    lines = [one_line(line) for line in text.splitlines()]
    # One literal figure: the Abundance Declared made once pays 3 x 36p.
    assert f"Abundance Declared 1 1 100% +{symbol}1.08 +{symbol}1.08" in lines
    # Each contract's average, rounded to the club's unit, exactly as the money formatter writes
    # that integer (a half to the even neighbour: the solos' 1.5 is 2).
    rows = (
        ScoreLine.objects.filter(player=declared, declared=True)
        .values_list("contract", "amount")
        .order_by("contract")
    )
    by_contract: dict[str, list[int]] = {}
    for contract, amount in rows:
        by_contract.setdefault(contract, []).append(amount)
    assert set(by_contract) == {"abundance_declared", "solo", "misere"}
    for contract, amounts in by_contract.items():
        name = scoring.Contract(contract).display_name
        total = sum(amounts)
        average = round(Fraction(total, len(amounts)))
        made = sum(1 for a in amounts if a > 0)
        expected = (
            f"{name} {len(amounts)} {made} {round(100 * made / len(amounts))}% "
            f"{club.format_amount(total, signed=True)} {club.format_amount(average, signed=True)}"
        )
        assert expected in lines, (expected, lines)
    assert f"Solo 2 1 50% +{symbol}0.03 +{symbol}0.02" in lines
    # Never four decimals, and never the spoken pence or cents of an average per hand.
    section = one_line(text.split("Contracts called", 1)[1])
    assert not re.search(r"\d\.\d{3}", section), section
    assert not re.search(r"\d(p|¢)\b", section), section


def test_statement_per_contract_of_a_points_club_keeps_two_places(
    client, viewer, club, season, declared
):
    club.unit_kind = Club.UnitKind.POINTS
    club.save()
    client.force_login(viewer)
    response = client.get(
        reverse("player_statement", args=[club.slug, declared.pk]) + f"?season={season.pk}"
    )
    lines = [one_line(line) for line in pdf_text(response.content).splitlines()]
    # The solos' +24 and -21: an average of one and a half points, not rounded to a whole one.
    assert "Solo 2 1 50% +3 pts +1.50 pts" in lines
    assert "Abundance Declared 1 1 100% +108 pts +108.00 pts" in lines
