"""The tournament's printed sheets, read back with pypdf: the round's seat list (every table with
its players in seat order, and everyone by name with table and seat), the table cards (seats,
dealers and sit-outs pre-filled for the round's hands) and the results (the leaderboard's
figures, checked against figures computed independently)."""

from __future__ import annotations

import io
import re
from fractions import Fraction

import pytest
from django.urls import reverse
from pypdf import PdfReader

import scoring
from club.play.models import ScoreLine
from club.tournaments.services import tournaments as services
from tests.kits.tournament_kit import (
    expected_points,
    field,
    make_tournament,
    money,
    play_round,
    points,
    round_names,
    tables_of,
)


def pdf_pages(response) -> list[str]:
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return [" ".join(page.extract_text().split()) for page in reader.pages]


def url(name: str, t, query: str = "") -> str:
    return reverse(name, args=[t.club.slug, t.pk]) + query


@pytest.fixture
def two_rounds(season, club, secretary):
    """Ten players, two rounds of two hands, amounts summed; returns the tournament, players and
    each round's expected totals by player id."""
    players = field(club, 10)
    t = make_tournament(season, players, rounds=2, hands=2, seed=6, name="Winter Cup")
    services.start(t)
    first = play_round(t, secretary)
    services.close_round(t, secretary)
    second = play_round(t, secretary)
    t.refresh_from_db()
    return t, players, [first, second]


def test_the_seat_list_names_every_table_in_seat_order(client, two_rounds, secretary):
    t, players, _ = two_rounds
    client.force_login(secretary)
    for r in (1, 2):
        response = client.get(url("tournament_seats_pdf", t, f"?round={r}"))
        assert f"seats-winter-cup-round-{r}.pdf" in response["Content-Disposition"]
        text = " ".join(pdf_pages(response))
        assert f"Winter Cup: round {r} seats" in text
        for number, names in enumerate(round_names(t, r), start=1):
            block = text.split(f"Table {number} ")[1]
            listed = " ".join(f"{seat} {name}" for seat, name in enumerate(names, start=1))
            # Seat 1 deals first; the rest follow in seat order.
            assert block.startswith(
                "(five: one sits out each hand) Seat Player "
                + listed.replace(f"1 {names[0]}", f"1 {names[0]} · deals first")
            ), block[:200]
        finder = text.split("Find your seat")[1]
        for number, names in enumerate(round_names(t, r), start=1):
            for seat, name in enumerate(names, start=1):
                assert f"{name} table {number}, seat {seat}" in finder
    # The current round by default; a round not drawn is a 404.
    default = " ".join(pdf_pages(client.get(url("tournament_seats_pdf", t))))
    assert "round 2 seats" in default
    assert client.get(url("tournament_seats_pdf", t, "?round=3")).status_code == 404
    assert client.get(url("tournament_seats_pdf", t, "?round=x")).status_code == 404
    for odd in ("²", "0", "9" * 5000):  # a digit int() cannot read, none, too many to read
        assert client.get(url("tournament_seats_pdf", t, f"?round={odd}")).status_code == 404


def test_no_seat_list_before_the_first_round(client, season, club, secretary):
    t = make_tournament(season, field(club, 8))
    client.force_login(secretary)
    assert client.get(url("tournament_seats_pdf", t)).status_code == 404
    assert client.get(url("tournament_cards_pdf", t)).status_code == 404


def test_table_cards_have_the_seats_dealers_and_sit_outs(client, two_rounds, secretary):
    t, players, _ = two_rounds
    rules = t.night.season.rule_set.rules
    client.force_login(secretary)
    response = client.get(url("tournament_cards_pdf", t, "?round=1"))
    assert "table-cards-winter-cup-round-1.pdf" in response["Content-Disposition"]
    pages = pdf_pages(response)
    tables = tables_of(t, 1)
    assert len(pages) == len(tables) == 2
    for page, table in zip(pages, tables, strict=True):
        seats = [s.player.name for s in table.seats.order_by("position")]
        assert f"Table {table.number} · score card" in page
        assert "round 1" in page
        # Hand rows: number, dealer, the player sitting out (dealer's right, Hoyle).
        for n in (1, 2):
            dealer = scoring.table.dealer_for(seats, 0, n)
            out = scoring.table.sitting_out(seats, dealer, rules)
            assert re.search(rf"\b{n} {dealer} {out}\b", page), (n, dealer, out, page[:400])
        assert not re.search(r"\b3 \w+ \w+ — ", page)  # two hands a round, two rows


def test_the_results_sheet_has_the_leaderboards_figures(client, two_rounds, secretary):
    t, players, rounds = two_rounds
    client.force_login(secretary)
    response = client.get(url("tournament_results_pdf", t))
    assert "results-winter-cup-2026-12-05.pdf" in response["Content-Disposition"]
    text = " ".join(pdf_pages(response))
    assert "Provisional" in text and "standings after round 2" in text
    flat = [{pid: v for table in r.values() for pid, v in table.items()} for r in rounds]
    for p in players:
        figures = [money(r[p.pk]) for r in flat] + [money(sum(r[p.pk] for r in flat))]
        played = ScoreLine.objects.filter(night=t.night, player=p).count()
        line = f"{p.name} {' '.join(figures)} {played} "
        assert line in text, (line, text)
    services.close_round(t, secretary)
    text = " ".join(pdf_pages(client.get(url("tournament_results_pdf", t))))
    assert "Final" in text and "Winter Cup: results" in text


def test_the_results_sheet_under_table_rank_points(client, season, club, secretary):
    players = field(club, 9)
    t = make_tournament(season, players, rounds=1, hands=3, method="table_rank", name="Cup")
    services.start(t)
    totals = play_round(t, secretary)
    services.close_round(t, secretary)
    awarded = expected_points(totals)
    amounts = {pid: v for table in totals.values() for pid, v in table.items()}
    client.force_login(secretary)
    text = " ".join(pdf_pages(client.get(url("tournament_results_pdf", t))))
    assert "Final" in text and "table-rank points" in text
    # 15 + 10 points given out: a table of five and one of four.
    assert sum(awarded.values()) == Fraction(25)
    for p in players:
        played = ScoreLine.objects.filter(night=t.night, player=p).count()
        line = f"{p.name} {points(awarded[p.pk])} {points(awarded[p.pk])} {money(amounts[p.pk])}"
        assert f"{line} {played} " in text, (line, text)


def test_a_public_events_sheets_need_no_login(client, two_rounds):
    t, *_ = two_rounds
    assert client.get(url("tournament_results_pdf", t)).status_code == 302
    t.is_public = True
    t.save()
    assert "Winter Cup" in " ".join(pdf_pages(client.get(url("tournament_results_pdf", t))))
    assert "Find your seat" in " ".join(pdf_pages(client.get(url("tournament_seats_pdf", t))))
