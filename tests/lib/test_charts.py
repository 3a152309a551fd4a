"""The SVG charts: well-formed XML, names escaped, a text alternative, points where they belong."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from fractions import Fraction

from club.lib import charts

NS = "{http://www.w3.org/2000/svg}"
NASTY = '<b>"Ann" & Co</b>'


def parse(markup: str) -> ET.Element:
    return ET.fromstring(str(markup))


def test_line_chart_is_valid_svg_with_escaped_names_and_a_text_alternative():
    series = [
        charts.Series(NASTY, [0, 10, -5, 20]),
        charts.Series("Bob", [0, -10, -20, -15]),
    ]
    markup = charts.line_chart(
        series,
        ["1 Oct", "8 Oct", "15 Oct", "22 Oct"],
        title=f"Cumulative net of {NASTY}",
        description=f"{NASTY} ends at +20",
        value_format=lambda v: f"{int(v):+}",
        chart_id="t",
    )
    assert "<b>" not in markup and "&lt;b&gt;" in markup
    svg = parse(markup)
    assert svg.tag == f"{NS}svg" and svg.get("role") == "img"
    labelled = svg.get("aria-labelledby").split()
    ids = {el.get("id"): el for el in svg.iter() if el.get("id")}
    assert labelled == ["t-title", "t-desc"] and set(labelled) <= set(ids)
    assert ids["t-title"].text == f"Cumulative net of {NASTY}"
    assert ids["t-desc"].text == f"{NASTY} ends at +20"
    lines = svg.findall(f"{NS}polyline")
    assert len(lines) == 2
    assert lines[0].find(f"{NS}title").text == f"{NASTY}: +20"
    texts = [t.text for t in svg.iter(f"{NS}text")]
    assert f"{NASTY} +20" in texts and "Bob -15" in texts
    assert "1 Oct" in texts and "22 Oct" in texts


def test_line_chart_points_sit_on_the_scale():
    markup = charts.line_chart(
        [charts.Series("Ann", [0, 100, 50])],
        ["a", "b", "c"],
        title="t",
        description="d",
        height=300,
    )
    svg = parse(markup)
    points = [
        tuple(map(float, p.split(","))) for p in svg.find(f"{NS}polyline").get("points").split()
    ]
    xs, ys = zip(*points, strict=True)
    assert xs[0] < xs[1] < xs[2]
    assert ys[1] < ys[2] < ys[0]  # higher values are drawn higher up
    ticks = {t.text: float(t.get("y")) for t in svg.iter(f"{NS}text") if t.text in ("0", "100")}
    assert abs(ticks["100"] - 4 - ys[1]) < 0.2 and abs(ticks["0"] - 4 - ys[0]) < 0.2


def test_sparkline_is_valid_svg_with_a_label():
    markup = charts.sparkline([0, 3, Fraction(5, 2), -1], label=f"Trend for {NASTY}")
    svg = parse(markup)
    assert svg.get("role") == "img"
    assert svg.get("aria-label") == f"Trend for {NASTY}"
    assert svg.find(f"{NS}title").text == f"Trend for {NASTY}"
    assert len(svg.find(f"{NS}polyline").get("points").split()) == 4
    assert svg.find(f"{NS}circle").get("fill") == "#a32020"  # ends below zero


def test_sparkline_of_nothing_is_a_labelled_dash():
    markup = charts.sparkline([], label="Ann: no hands")
    assert 'aria-label="Ann: no hands"' in markup and "<svg" not in markup


def test_nice_ticks_cover_the_range_with_zero_and_whole_steps():
    ticks = charts.nice_ticks(-7, 23)
    assert ticks[0] <= -7 and ticks[-1] >= 23 and 0 in ticks
    steps = {b - a for a, b in itertools.pairwise(ticks)}
    assert steps == {10}  # 30 over about five steps
    assert charts.nice_ticks(0, 2) == [0, 1, 2]  # never fractions of a penny
    small = charts.nice_ticks(Fraction(-1, 10), Fraction(3, 10))
    assert small[0] <= Fraction(-1, 10) and small[-1] >= Fraction(3, 10)
    assert any(t.denominator != 1 for t in small)  # averages may be fractional


def test_data_rows_escape_names():
    rows = charts.data_rows([charts.Series(NASTY, [1, 2])], value_format=str)
    assert "&lt;b&gt;" in rows and '<td class="num">2</td>' in rows


def test_a_newcomers_line_starts_at_his_first_night_not_as_a_flat_zero():
    markup = charts.line_chart(
        [charts.Series("Old hand", [5, 10, 8, 12]), charts.Series("Newcomer", [0, 0, 4, 9], 2)],
        ["1 Oct", "8 Oct", "15 Oct", "22 Oct"],
        title="t",
        description="d",
    )
    lines = {
        line.find(f"{NS}title").text.split(":")[0]: line.get("points").split()
        for line in parse(markup).iter(f"{NS}polyline")
    }
    assert len(lines["Old hand"]) == 4 and len(lines["Newcomer"]) == 2
    assert lines["Newcomer"][0].split(",")[0] == lines["Old hand"][2].split(",")[0]
    rows = str(charts.data_rows([charts.Series("Newcomer", [0, 0, 4, 9], 2)], str))
    assert rows.count('<td class="num"></td>') == 2 and '<td class="num">4</td>' in rows


def test_a_long_end_label_is_cut_with_an_ellipsis_and_keeps_the_whole_name_in_its_title():
    name = "Bartholomew Fitzwilliam-Montgomery 🃏 de la Cruz-Östergaard Jr"
    markup = charts.line_chart(
        [charts.Series(name, [0, 120])],
        ["1 Oct", "8 Oct"],
        title="t",
        description="d",
        value_format=lambda v: f"+£{float(v) / 100:.2f}",
    )
    label = next(t for t in parse(markup).iter(f"{NS}text") if t.find(f"{NS}title") is not None)
    shown = label.text
    assert shown.endswith("… +£1.20") and len(shown) <= charts.END_LABEL_CHARS
    assert label.find(f"{NS}title").text == name
