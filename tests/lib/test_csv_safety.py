"""No cell of a CSV the app writes becomes a live spreadsheet formula."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from club.lib import csv_safety
from tests.kits.scorebook import play

EVIL = '=HYPERLINK("http://evil.example","x")'


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        (EVIL, "'" + EVIL),
        ("+SUM(A1:A9)", "'+SUM(A1:A9)"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(1,2)", "'@SUM(1,2)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("- Ann", "'- Ann"),
        ("Ann = Bob", "Ann = Bob"),
        # A lone sign too: a spreadsheet reads a bare "=" as a formula.
        ("=", "'="),
        ("-", "'-"),
        ("+", "'+"),
        ("==", "'=="),
        ("Zoë", "Zoë"),
        ("", ""),
        # Numbers and the app's own signed amounts stay as they are.
        ("-12", "-12"),
        ("+3", "+3"),
        ("-£1.20", "-£1.20"),
        ("+$0.0172", "+$0.0172"),
        ("-1,234 pts", "-1,234 pts"),
        ("-0.42", "-0.42"),
        (-12, -12),
        (7, 7),
        (None, None),
    ],
)
def test_safe_cell(cell, written):
    assert csv_safety.safe_cell(cell) == written


@given(st.text())
def test_no_written_text_cell_starts_a_formula(text):
    cell = csv_safety.safe_cell(text)
    if cell.startswith(csv_safety.TRIGGERS):
        assert csv_safety.NUMBER.fullmatch(cell)  # only a plain signed number may
        assert not any(c.isalpha() for c in cell.replace("pts", "").replace("points", "")[:-1])
    else:
        assert cell in (text, "'" + text)


def test_writer_round_trips_through_the_csv_module():
    out = io.StringIO()
    csv_safety.writer(out).writerows([["Name", "Net"], [EVIL, "-£0.35"], ["Ann", 12]])
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows == [["Name", "Net"], ["'" + EVIL, "-£0.35"], ["Ann", "12"]]


def test_standings_csv_neutralises_a_players_formula_name(client, secretary, night, players):
    players[0].name = "@Ann"
    players[0].save()
    players[1].name = EVIL  # Bob, at Ann's table
    players[1].save()
    play(night, secretary, players[0])  # Ann wins a solo: the others lose
    client.force_login(secretary)
    response = client.get(reverse("standings_csv", args=[night.season.club.slug]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    cells = [cell for row in rows for cell in row]
    assert "'@Ann" in cells
    assert not any(c.startswith(("=", "@", "\t", "\r")) for c in cells)
    for cell in cells:
        if cell.startswith(("+", "-")):
            assert csv_safety.NUMBER.fullmatch(cell), cell  # losses stay numbers
    assert "-0.06" in cells  # Bob's loss of 6p, a number in pounds
    assert "'" + EVIL in cells


def test_paper_sheet_template_is_written_safely_and_reads_back(club, season, players):
    """The data file's CSV template (club.interchange.services.csv_sheets) goes through csv_safety
    too: its
    amounts cell "-6; 18; -6; -6" is not a number, so a spreadsheet would take it for a formula;
    written with an apostrophe, it still imports (as after a text editor, which keeps it)."""
    from club.interchange.services.csv_sheets import read_csv, template

    rows = list(csv.reader(io.StringIO(template())))
    cells = [cell for row in rows for cell in row]
    assert "'-6; 18; -6; -6" in cells
    assert all(not c.startswith(csv_safety.TRIGGERS) for c in cells)
    document = read_csv(template(), club)
    hands = [h for n in document.nights for t in n.tables for h in t.hands]
    assert len(hands) == 4
    assert sorted(hands[0].amounts.values()) == [-6, -6, -6, 18]


@pytest.mark.parametrize(
    ("cell", "read"),
    [("'-6; 18", "-6; 18"), ("'=1+1", "=1+1"), ("'@x", "@x"), ("O'Neill", "O'Neill"), ("'", "'")],
)
def test_read_cell_drops_only_our_apostrophe(cell, read):
    assert csv_safety.read_cell(cell) == read


def test_the_standings_no_change_mark_is_written_as_text_not_a_formula():
    out = io.StringIO()
    csv_safety.writer(out).writerow(["Ann", "=", "▲2", "new"])
    assert out.getvalue().strip() == "Ann,'=,▲2,new"
    assert csv_safety.read_cell("'=") == "="
