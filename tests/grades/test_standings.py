"""Season standings through the test client: every figure is checked against totals computed here
from scoring.score_hand, hand by hand, and against ranks computed here (not by the app's code)."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

import pytest
from django.db.models import Sum
from django.urls import reverse

import scoring
from club.clubs.services.setup import rule_set_from_preset
from club.lib import csv_safety
from tests.kits.scorebook import expected, night_with, play, table_text

# (date, tables by player index, hands as (table, declarer, contract, tricks, partner))
SPEC = [
    (
        dt.date(2026, 10, 1),
        [[0, 1, 2, 3], [4, 5, 6, 7]],
        [(1, 1, "solo", 5, None), (2, 5, "misere", 0, None)],
    ),
    (
        dt.date(2026, 10, 8),
        [[0, 1, 2, 3]],
        [(1, 0, "solo", 5, None), (1, 3, "prop_cop", 9, 2)],
    ),
    (
        dt.date(2026, 10, 15),
        [[0, 1, 2, 4]],
        [(1, 2, "solo", 4, None)],
    ),
]
COLUMNS = [
    "#",
    "Player",
    "Nights",
    "Hands",
    "Declared",
    "Made",
    "Net",
    "Per hand",
    "Last night",
    "Move",
    "Trend",
]


def build(season, players, user, spec=SPEC, rules: scoring.RuleSet | None = None):
    """Record the hands; return each night's amounts by name under `rules` (default: the
    season's own), computed independently with scoring.score_hand."""
    rules = rules or scoring.preset("hoyle")
    nights: list[dict[str, int]] = []
    hands: dict[str, int] = defaultdict(int)
    declared: dict[str, list[bool]] = defaultdict(list)
    for date, tables, plays in spec:
        seated = [[players[i] for i in t] for t in tables]
        night = night_with(season, date, *seated)
        amounts: dict[str, int] = defaultdict(int)
        for table, declarer, contract, tricks, partner in plays:
            mate = players[partner] if partner is not None else None
            play(night, user, players[declarer], contract, tricks, partner=mate, table=table)
            result = expected(rules, seated[table - 1], players[declarer], contract, tricks, mate)
            for name, amount in result.items():
                amounts[name] += amount
                hands[name] += 1
            made = scoring.score_hand(
                scoring.Hand(
                    tuple(p.name for p in seated[table - 1]),
                    contract,
                    players[declarer].name,
                    mate.name if mate else None,
                    tricks,
                ),
                rules,
            ).made
            declared[players[declarer].name].append(made)
        nights.append(dict(amounts))
    return nights, hands, declared


def totals(nights: list[dict[str, int]]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for night in nights:
        for name, amount in night.items():
            out[name] += amount
    return dict(out)


def competition(values: dict[str, Fraction | int]) -> dict[str, int]:
    """1, 2, 2, 4 ranks, computed here independently of scoring.standings."""
    ordered = sorted(values.values(), reverse=True)
    return {name: ordered.index(v) + 1 for name, v in values.items()}


def page(client, club, **params):
    url = reverse("standings", args=[club.slug])
    response = client.get(url, params)
    assert response.status_code == 200
    rows, classes = table_text(response.content, "standings")
    assert rows[0][:6] == COLUMNS[:6] and rows[0][-3:] == [COLUMNS[-2], "Grade", COLUMNS[-1]]
    return response, rows[1:], classes[1:]


def by_name(rows):
    return {row[1]: row for row in rows}


def money(club, amount):
    return club.format_amount(amount, signed=True)


def test_ranks_share_ties_and_figures_match_the_hands(client, season, players, secretary):
    nights, hands, declared = build(season, players, secretary, SPEC[:1])
    client.force_login(secretary)
    response, rows, _ = page(client, season.club)
    net = totals(nights)
    ranks = competition(net)
    assert ranks == {
        "Fay": 1,
        "Bob": 2,
        "Ann": 3,
        "Cat": 3,
        "Dan": 3,
        "Eve": 6,
        "Gus": 6,
        "Hal": 6,
    }
    table = by_name(rows)
    assert set(table) == set(net)
    for name, row in table.items():
        assert row[0] == str(ranks[name])
        assert row[2:6] == [
            "1",
            str(hands[name]),
            str(len(declared[name])),
            str(sum(declared[name])),
        ]
        assert row[6] == money(season.club, net[name])
    # Listed best first, ties by name.
    assert [r[1] for r in rows] == ["Fay", "Bob", "Ann", "Cat", "Dan", "Eve", "Gus", "Hal"]
    assert table["Fay"][6] == "+£0.36" and table["Eve"][6] == "-£0.12"


def test_min_nights_puts_the_rest_below_the_line(client, season, players, secretary):
    season.min_nights = 2
    season.save()
    nights, *_ = build(season, players, secretary)
    net = totals(nights)
    played = defaultdict(int)
    for night in nights:
        for name in night:
            played[name] += 1
    qualified = {n: v for n, v in net.items() if played[n] >= 2}
    below = {n: v for n, v in net.items() if played[n] < 2}
    assert set(below) == {"Fay", "Gus", "Hal"} and net["Fay"] == max(net.values())
    client.force_login(secretary)
    _, rows, classes = page(client, season.club)
    names = [r[1] for r in rows]
    assert set(names[: len(qualified)]) == set(qualified)
    assert names[len(qualified) :] == sorted(below, key=lambda n: (-below[n], n))
    ranks = competition(qualified)
    for row in rows[: len(qualified)]:
        assert row[0] == str(ranks[row[1]])
    assert all(row[0] == "" for row in rows[len(qualified) :])
    assert "first-below" in classes[len(qualified)]
    assert all("below-line" in c for c in classes[len(qualified) :])
    assert not any("below-line" in c for c in classes[: len(qualified)])


def test_best_n_nights_count(client, season, players, secretary):
    season.best_nights = 1
    season.save()
    nights, *_ = build(season, players, secretary)
    best = {name: max(night[name] for night in nights if name in night) for name in totals(nights)}
    client.force_login(secretary)
    _, rows, _ = page(client, season.club)
    header_rows, _ = table_text(
        client.get(reverse("standings", args=["crown"])).content, "standings"
    )
    assert header_rows[0][6] == "Net (best 1)"
    table = by_name(rows)
    ranks = competition(best)
    for name, value in best.items():
        assert table[name][6] == money(season.club, value)
        assert table[name][0] == str(ranks[name])
    # Ann: -6, +18 -7 (solo made; opponent of the Prop & Cop), +7: her best night is the second.
    assert best["Ann"] == 11 and totals(nights)["Ann"] != 11


def test_date_range_keeps_only_the_nights_between(client, season, players, secretary):
    nights, *_ = build(season, players, secretary)
    client.force_login(secretary)
    _, rows, _ = page(client, season.club, **{"from": "2026-10-05", "to": "2026-10-10"})
    only = nights[1]
    table = by_name(rows)
    assert set(table) == set(only) == {"Ann", "Bob", "Cat", "Dan"}
    for name, amount in only.items():
        assert table[name][6] == money(season.club, amount)
        assert table[name][2] == "1"
    _, rows, _ = page(client, season.club, **{"from": "2026-10-09"})
    assert by_name(rows)["Eve"][6] == money(season.club, nights[2]["Eve"])


def test_points_ladder_scores_the_same_hands_under_another_rule_set(
    client, season, players, secretary
):
    ladder = rule_set_from_preset(season.club, "anna-cubed", "Anna Cubed ladder")
    season.standings_rule_set = ladder
    season.standings_method = "points"
    season.save()
    money_nights, *_ = build(season, players, secretary)
    anna = scoring.preset("anna-cubed")
    # The same hands scored under anna-cubed, independently.
    points: dict[str, int] = defaultdict(int)
    for date, tables, plays in SPEC:
        del date
        for table, declarer, contract, tricks, partner in plays:
            seated = [players[i] for i in tables[table - 1]]
            mate = players[partner] if partner is not None else None
            for name, value in expected(
                anna, seated, players[declarer], contract, tricks, mate
            ).items():
                points[name] += value
    client.force_login(secretary)
    response, rows, _ = page(client, season.club)
    headers, _ = table_text(response.content, "standings")
    assert headers[0][6] == "Points"
    table = by_name(rows)
    ranks = competition(dict(points))
    for name, value in points.items():
        assert table[name][6] == (f"+{value} pts" if value else "0 pts")
        assert table[name][0] == str(ranks[name])
    # The ladder is not the money: Fay won most money but one misère is 2 points.
    net = totals(money_nights)
    assert max(net, key=net.get) == "Fay" and points["Fay"] == 2 and points["Ann"] == 1
    assert "anna" in response.content.decode().lower()


def test_average_method_ranks_by_net_per_hand(client, season, players, secretary):
    season.standings_method = "average"
    season.save()
    nights, hands, _ = build(season, players, secretary)
    net = totals(nights)
    average = {name: Fraction(net[name], hands[name]) for name in net}
    client.force_login(secretary)
    _, rows, _ = page(client, season.club)
    ranks = competition(average)
    assert [r[1] for r in rows] == sorted(average, key=lambda n: (-average[n], n))
    for row in rows:
        value = average[row[1]]
        pence = Decimal(value.numerator) / Decimal(value.denominator)
        shown = pence.quantize(Decimal(1) if value.denominator == 1 else Decimal("0.1"))
        assert abs(shown) < 100  # these averages are all under £1: pence
        sign = "+" if shown > 0 else "-" if shown < 0 else ""
        assert row[7] == f"{sign}{abs(shown)}p"
        assert row[0] == str(ranks[row[1]])


def test_change_since_the_last_night(client, season, players, secretary):
    nights, *_ = build(season, players, secretary)
    before = totals(nights[:-1])
    after = totals(nights)
    was, now = competition(before), competition(after)
    client.force_login(secretary)
    _, rows, _ = page(client, season.club)
    table = by_name(rows)
    last = nights[-1]
    for name in after:
        row = table[name]
        assert row[8] == (money(season.club, last[name]) if name in last else "")
        move = was[name] - now[name]
        assert row[9] == ("▲" + str(move) if move > 0 else "▼" + str(-move) if move < 0 else "=")
    assert any(r[9].startswith("▲") for r in rows) and any(r[9].startswith("▼") for r in rows)


def test_a_player_new_on_the_last_night_is_marked_new(client, season, players, secretary):
    spec = [SPEC[0], (dt.date(2026, 10, 8), [[0, 1, 2, 8]], [(1, 8, "solo", 6, None)])]
    build(season, players, secretary, spec)
    client.force_login(secretary)
    _, rows, _ = page(client, season.club)
    assert by_name(rows)["Ivy"][9] == "new"


def test_csv_is_what_the_table_shows(client, season, players, secretary):
    """The same rows and columns, in the same order, and the same text except: amounts are
    numbers in pounds (the page's "+£0.12" is 0.12) with "(£)" in their headers, the average
    per hand in full (the page says "+3p"), and "same" for the page's "=" in Move."""
    season.min_nights = 2
    season.save()
    build(season, players, secretary)
    client.force_login(secretary)
    params = {"sort": "-hands", "from": "2026-09-01"}
    response, rows, _ = page(client, season.club, **params)
    headers, _ = table_text(response.content, "standings")
    exported = client.get(reverse("standings_csv", args=[season.club.slug]), params)
    assert exported.status_code == 200 and exported["Content-Type"].startswith("text/csv")
    assert "attachment" in exported["Content-Disposition"]
    lines = list(csv.reader(io.StringIO(exported.content.decode())))
    assert "=" not in (cell for line in lines for cell in line)  # no bare formula sign
    lines = [[csv_safety.read_cell(cell) for cell in line] for line in lines]  # as a sheet reads
    assert headers[0][-2:] == ["Grade", "Trend"]
    units = {"Net": "Net (£)", "Per hand": "Per hand (£)", "Last night": "Last night (£)"}
    assert lines[0] == [units.get(h, h) for h in headers[0][:-2]]  # all but grade and picture
    net, average, last = (headers[0].index(h) for h in ("Net", "Per hand", "Last night"))
    expected = []
    for row, line in zip(rows, lines[1:], strict=True):
        shown = row[:-2]
        for i in (net, last):
            if shown[i]:
                assert (
                    season.club.format_amount(int(Decimal(line[i]) * 100), signed=True)
                    == (shown[i])
                )
                shown[i] = line[i]
        pence = Fraction(int(row[average][:-1].replace(".", "")), 10 if "." in row[average] else 1)
        csv_pence = Fraction(line[average]) * 100
        assert abs(csv_pence - pence) <= Fraction(1, 20), (row, line)  # the page rounds the CSV
        assert len(line[average].split(".")[1]) == 4  # to a hundredth of a penny
        shown[average] = line[average]
        move = headers[0].index("Move")
        shown[move] = "same" if shown[move] == "=" else shown[move]  # the CSV's word for "="
        expected.append(shown)
    assert lines[1:] == expected
    assert len(lines) == 1 + 8


def test_sorting_keeps_the_line(client, season, players, secretary):
    season.min_nights = 2
    season.save()
    nights, hands, _ = build(season, players, secretary)
    client.force_login(secretary)
    _, rows, _ = page(client, season.club, sort="name")
    names = [r[1] for r in rows]
    assert names == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    _, rows, _ = page(client, season.club, sort="-name")
    assert [r[1] for r in rows] == ["Eve", "Dan", "Cat", "Bob", "Ann", "Hal", "Gus", "Fay"]
    _, rows, _ = page(client, season.club, sort="hands")
    qualified = [r for r in rows if r[0]]
    assert [int(r[3]) for r in qualified] == sorted(hands[r[1]] for r in qualified)
    assert [r[1] for r in rows[len(qualified) :]] == ["Fay", "Gus", "Hal"]


def test_pagination(client, season, players, secretary):
    build(season, players, secretary)
    client.force_login(secretary)
    _, first, _ = page(client, season.club, per_page=3)
    _, second, _ = page(client, season.club, per_page=3, page=2)
    _, everyone, _ = page(client, season.club)
    assert len(first) == 3 and len(second) == 3
    assert first + second == everyone[:6]
    response = client.get(reverse("standings", args=["crown"]), {"per_page": 3})
    assert b'aria-label="Standings pages"' in response.content
    assert client.get(reverse("standings", args=["crown"]), {"per_page": 0}).status_code == 200


@pytest.mark.parametrize("name", ["standings", "standings_csv"])
def test_private_club_readers(client, season, players, secretary, viewer, outsider, name):
    build(season, players, secretary, SPEC[:1])
    url = reverse(name, args=[season.club.slug])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    for user in (viewer, secretary):
        client.force_login(user)
        response = client.get(url)
        assert response.status_code == 200 and "Fay" in response.content.decode()


def test_public_club_standings_need_no_login(client, season, players, secretary, outsider):
    build(season, players, secretary, SPEC[:1])
    season.club.is_public = True
    season.club.save()
    response = client.get(reverse("standings", args=[season.club.slug]))
    assert response.status_code == 200 and b"Fay" in response.content
    client.force_login(outsider)
    assert client.get(reverse("standings", args=[season.club.slug])).status_code == 200


def test_another_clubs_season_is_not_shown(client, season, players, secretary, other_club):
    from club.clubs.models import Season

    build(season, players, secretary, SPEC[:1])
    theirs = Season.objects.create(
        club=other_club,
        name="Theirs",
        start=dt.date(2026, 9, 1),
        end=dt.date(2027, 3, 1),
        rule_set=rule_set_from_preset(other_club, "hoyle"),
    )
    client.force_login(secretary)
    response = client.get(reverse("standings", args=[season.club.slug]), {"season": theirs.pk})
    assert response.status_code == 200
    assert response.context["season"] == season  # falls back to this club's own season


def test_a_club_with_no_season_says_so(client, club, secretary):
    client.force_login(secretary)
    response = client.get(reverse("standings", args=[club.slug]))
    assert response.status_code == 200 and b"no seasons yet" in response.content
    assert client.get(reverse("standings_csv", args=[club.slug])).status_code == 404


def many_nights(season, players, user, count: int) -> None:
    for week in range(count):
        night = night_with(
            season, dt.date(2026, 9, 1) + dt.timedelta(weeks=week), players[:4], players[4:8]
        )
        for table, declarer in ((1, players[week % 4]), (2, players[4 + week % 4])):
            play(night, user, declarer, "solo", 5 + week % 3, table=table)
            play(night, user, declarer, "misere", week % 2, table=table)


@pytest.mark.parametrize("nights", [1, 12])
def test_standings_queries_do_not_grow_with_the_season(
    client, season, players, secretary, django_assert_max_num_queries, nights
):
    season.best_nights = 5  # the costliest path: best N nights reads per-night rows
    season.save()
    many_nights(season, players, secretary, nights)
    client.force_login(secretary)
    url = reverse("standings", args=[season.club.slug])
    # 10, and 4 for the grade column (settings, opt-outs, grades, their course).
    with django_assert_max_num_queries(14):
        assert client.get(url).status_code == 200
    with django_assert_max_num_queries(9):
        assert client.get(reverse("standings_csv", args=[season.club.slug])).status_code == 200


def test_sparklines_and_chart_show_cumulative_totals(client, season, players, secretary):
    nights, *_ = build(season, players, secretary)
    client.force_login(secretary)
    response, rows, _ = page(client, season.club)
    running: dict[str, list[int]] = defaultdict(list)
    for name in totals(nights):
        total = 0
        for night in nights:
            total += night.get(name, 0)
            running[name].append(total)
    chart, _ = table_text(response.content, "chart-table")
    assert chart[0] == ["Player", "1 Oct 2026", "8 Oct 2026", "15 Oct 2026"]
    leaders = [r[1] for r in rows][:8]
    assert [r[0] for r in chart[1:]] == leaders
    for row in chart[1:]:
        assert row[1:] == [money(season.club, v) for v in running[row[0]]]
    # Each row's trend line is labelled with where the player ends.
    for row in rows:
        assert row[-1].startswith(f"{row[1]}: {money(season.club, running[row[1]][-1])} over 3")


def test_a_long_range_draws_its_last_nights_from_the_total_before_them(
    client, season, players, secretary, monkeypatch
):
    from club.grades.queries import standings

    monkeypatch.setattr(standings, "MAX_POINTS", 2)
    nights, *_ = build(season, players, secretary)
    client.force_login(secretary)
    response, _, _ = page(client, season.club)
    chart, _ = table_text(response.content, "chart-table")
    assert chart[0] == ["Player", "8 Oct 2026", "15 Oct 2026"]
    for row in chart[1:]:
        name = row[0]
        after_two = nights[0].get(name, 0) + nights[1].get(name, 0)
        assert row[1:] == [money(season.club, after_two), money(season.club, totals(nights)[name])]
    assert b"the last 2 of 3 nights" in response.content


def test_triggers_can_be_installed_again(season, players, secretary):
    """After every migrate the triggers are put back (SQLite drops them when it rebuilds the
    score line table); installing them twice changes nothing."""
    from django.db import connection

    from club.play.models import NightTotal
    from club.play.models.totals import install_triggers

    assert install_triggers(connection) and install_triggers(connection)
    nights, *_ = build(season, players, secretary, SPEC[:1])
    assert {t.player.name: t.net for t in NightTotal.objects.select_related("player")} == nights[0]


def test_a_new_ladder_rule_set_is_applied_by_rescoring(client, season, players, secretary):
    """Hands recorded while the ladder counted money; the secretary then ranks the season by
    anna-cubed points and the season's hands are scored again for the ladder."""
    from club.play.models import NightTotal
    from club.play.services.ladder import rescore_ladder

    money_nights, *_ = build(season, players, secretary)
    season.standings_rule_set = rule_set_from_preset(season.club, "anna-cubed", "Ladder")
    season.standings_method = "points"
    season.save()
    anna = scoring.preset("anna-cubed")
    points: dict[str, int] = defaultdict(int)
    for _, tables, plays in SPEC:
        for table, declarer, contract, tricks, partner in plays:
            seated = [players[i] for i in tables[table - 1]]
            mate = players[partner] if partner is not None else None
            for name, value in expected(
                anna, seated, players[declarer], contract, tricks, mate
            ).items():
                points[name] += value
    assert rescore_ladder(season) > 0
    assert rescore_ladder(season) == 0  # nothing left to change
    got = NightTotal.objects.values_list("player__name").annotate(p=Sum("points"), n=Sum("net"))
    assert dict((name, p) for name, p, _ in got) == dict(points)
    assert dict((name, n) for name, _, n in got) == totals(money_nights)  # money untouched
    client.force_login(secretary)
    _, rows, _ = page(client, season.club)
    assert by_name(rows)["Cat"][6] == f"+{points['Cat']} pts"
    season.standings_rule_set = None
    season.save()
    rescore_ladder(season)
    assert dict((n, p) for n, p, _ in got.all()) == totals(money_nights)


def test_averages_are_exact_and_signed_only_when_not_zero(club):
    from club.grades.display.tables import format_average

    def exact(value: Fraction) -> str:
        return format_average(club, value, exact=True)

    assert exact(Fraction(137, 100)) == "+£0.0137"
    assert exact(Fraction(-3, 2)) == "-£0.0150"
    assert exact(Fraction(-18, 24856)) == "£0.0000"  # not "-£0.0000"
    assert exact(Fraction(3, 200)) == "+£0.0002"  # 0.00015: half to even
    assert exact(Fraction(1, 200)) == "£0.0000"  # 0.00005: half to even
    assert format_average(club, Fraction(5, 3), points=True) == "+1.67 pts"


def test_a_newcomers_season_line_starts_at_his_first_night(client, season, players, secretary):
    from club.grades.queries import standings as sq

    spec = [SPEC[0], (dt.date(2026, 10, 8), [[0, 1, 2, 8]], [(1, 8, "solo", 6, None)])]
    build(season, players, secretary, spec)
    nights = sq.season_nights(season)
    ivy, ann = players[8], players[0]
    trend = sq.trends(season, nights, [ivy.pk, ann.pk], "net")
    assert trend.start(ann.pk) == 0 and trend.start(ivy.pk) == 1
    client.force_login(secretary)
    page = client.get(reverse("player_detail", args=[season.club.slug, ivy.pk])).content.decode()
    line = page.split("<polyline", 1)[1].split(">", 1)[0]
    assert len(line.split('points="', 1)[1].split('"', 1)[0].split()) == 1  # one night, one point
