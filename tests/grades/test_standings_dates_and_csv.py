"""The standings' date range says when From is after To (not "No hands have been played"), and
the standings CSV is a spreadsheet's numbers: amounts in major units with the currency in the
header, and the Move column's "same" where the page shows "=" (no formula guard, no stray
apostrophe in a spreadsheet)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from django.urls import reverse
from test_standings import build

from tests.kits.scorebook import table_text


def _csv(client, club, **params):
    response = client.get(reverse("standings_csv", args=[club.slug]), params)
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_from_after_to_says_the_dates_are_reversed(client, season, players, secretary):
    build(season, players, secretary)
    client.force_login(secretary)
    response = client.get(
        reverse("standings", args=[season.club.slug]), {"from": "2026-10-15", "to": "2026-10-01"}
    )
    page = response.content.decode()
    assert "From 15 Oct 2026 is after To 1 Oct 2026: the dates are reversed" in page
    assert "No hands have been played" not in page


def test_a_range_with_no_nights_says_so_with_its_dates(client, season, players, secretary):
    build(season, players, secretary)
    client.force_login(secretary)
    page = client.get(
        reverse("standings", args=[season.club.slug]), {"from": "2026-10-02", "to": "2026-10-07"}
    ).content.decode()
    assert "No hands were played between 2 Oct 2026 and 7 Oct 2026." in page
    assert "No hands have been played in this season yet" not in page


def test_csv_amounts_are_numbers_in_pounds_with_the_currency_in_the_header(
    client, season, players, secretary
):
    nights, _, _ = build(season, players, secretary)
    client.force_login(secretary)
    lines = _csv(client, season.club)
    header = lines[0]
    assert header[6:9] == ["Net (£)", "Per hand (£)", "Last night (£)"]
    totals: dict[str, int] = {}
    for night in nights:
        for name, amount in night.items():
            totals[name] = totals.get(name, 0) + amount
    for line in lines[1:]:
        name, net, per_hand, last = line[1], line[6], line[7], line[8]
        assert Decimal(net) * 100 == totals[name], line  # pence to pounds, exactly
        assert not net.startswith(("+", "'", "£")) and "£" not in per_hand + last
        assert Decimal(per_hand) == Decimal(net) / int(line[3]) or abs(
            Decimal(per_hand) - Decimal(net) / int(line[3])
        ) < Decimal("0.00005")
        if last:
            Decimal(last)  # a number, or empty for a player absent on the last night


def test_standings_csv_says_same_for_no_change_without_a_formula_guard(
    client, season, players, secretary
):
    build(season, players, secretary)
    client.force_login(secretary)
    page = client.get(reverse("standings", args=[season.club.slug])).content
    rows, _ = table_text(page, "standings")
    moves = [row[rows[0].index("Move")] for row in rows[1:]]
    assert "=" in moves  # someone did not move on the last night
    lines = _csv(client, season.club)
    assert lines[0][9] == "Move"
    written = [line[9] for line in lines[1:]]
    # Read back as a spreadsheet reads it, with no apostrophe to drop: "same" for the page's "=",
    # every other mark as the page shows it.
    assert written == ["same" if m == "=" else m for m in moves]
    assert not any(cell.startswith(("'", "=")) for cell in written)


def test_a_points_ladder_is_written_as_whole_points(client, season, players, secretary, club):
    from club.clubs.services.setup import rule_set_from_preset

    season.standings_rule_set = rule_set_from_preset(club, "anna-cubed", "Points")
    season.standings_method = "points"
    season.save()
    build(season, players, secretary)
    client.force_login(secretary)
    lines = _csv(client, season.club)
    assert lines[0][6:9] == ["Points", "Points per hand", "Last night (pts)"]
    assert all(line[6].lstrip("-").isdigit() for line in lines[1:])
