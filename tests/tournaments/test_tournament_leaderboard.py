"""The leaderboard: round-by-round figures under both scoring methods, checked against figures
computed independently (scoring.score_hand hand by hand, scoring.tournament.table_rank_points per
table); the live partial shows the same numbers; a fixed number of queries at any size."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from club.tournaments.queries import leaderboard as lq
from club.tournaments.services import tournaments as services
from scoring.standings import competition_ranks
from tests.kits.tournament_kit import (
    board_of,
    expected_points,
    field,
    make_tournament,
    money,
    play_round,
    play_table,
    points,
    tables_of,
)


def url(name: str, t) -> str:
    return reverse(name, args=[t.club.slug, t.pk])


def two_rounds(season, club, user, method: str, n: int = 10, rounds: int = 2, hands: int = 2):
    """Play `rounds` full rounds; return the tournament, the players and, per round, each
    player's expected total (by id) and table-rank points."""
    players = field(club, n)
    t = make_tournament(season, players, rounds=rounds, hands=hands, method=method, seed=4)
    services.start(t)
    per_round = []
    for r in range(1, rounds + 1):
        totals = play_round(t, user)
        flat = {pid: amount for table in totals.values() for pid, amount in table.items()}
        per_round.append((flat, expected_points(totals)))
        if r < rounds:
            services.close_round(t, user)
    t.refresh_from_db()
    return t, players, per_round


def test_amounts_method_figures(season, club, secretary):
    t, players, per_round = two_rounds(season, club, secretary, "amounts")
    board = lq.leaderboard(t)
    assert board.rounds == [1, 2]
    totals = {p.pk: sum(r[0][p.pk] for r in per_round) for p in players}
    assert sum(totals.values()) == 0  # Hoyle pays per opponent: the field nets to nothing
    by_id = {row.player_id: row for row in board.rows}
    for p in players:
        row = by_id[p.pk]
        assert [c.amount for c in row.cells] == [r[0][p.pk] for r in per_round]
        assert row.amount == totals[p.pk] == row.score(board.method)
    # Best first, equal totals sharing a place.
    ordered = [row.amount for row in board.rows]
    assert ordered == sorted(totals.values(), reverse=True)
    assert [row.rank for row in board.rows] == competition_ranks(ordered)


def test_table_rank_method_figures(season, club, secretary):
    t, players, per_round = two_rounds(season, club, secretary, "table_rank", n=13, rounds=3)
    board = lq.leaderboard(t)
    by_id = {row.player_id: row for row in board.rows}
    for p in players:
        row = by_id[p.pk]
        assert [c.points for c in row.cells] == [r[1][p.pk] for r in per_round]
        assert row.points == sum((r[1][p.pk] for r in per_round), Fraction(0))
        assert row.amount == sum(r[0][p.pk] for r in per_round)
    # Each round gives out n(n+1)/2 per table: 15 + 10 + 10 = 35 for 5 + 4 + 4.
    for r in range(3):
        assert sum(row.cells[r].points for row in board.rows) == 35
    # Ranked by points, ties split by the amounts, then shared.
    keys = [(row.points, row.amount) for row in board.rows]
    assert keys == sorted(keys, reverse=True)
    assert [row.rank for row in board.rows] == competition_ranks(keys)


def test_a_tie_at_a_table_shares_the_points(season, club, secretary):
    players = field(club, 4)
    t = make_tournament(season, players, rounds=1, hands=1, method="table_rank")
    services.start(t)
    [table] = tables_of(t, 1)
    # Hand 1 at table 1 is a solo made with 2 over: the declarer wins, the other three tie.
    totals = play_table(table, secretary, 1)
    assert sorted(totals.values()) == [-8, -8, -8, 24]
    t.refresh_from_db()
    board = lq.leaderboard(t)
    got = {row.player_id: row.points for row in board.rows}
    # 4 for the winner; the three tied share places 2 to 4: (3 + 2 + 1) / 3 = 2 each.
    assert got == {pid: Fraction(4) if v > 0 else Fraction(2) for pid, v in totals.items()}
    shown = lq.shown_rows(board, club)
    assert [r.shared for r in shown].count(True) == 3


def test_unplayed_tables_and_absent_rounds_are_marked(season, club, secretary):
    players = field(club, 9)
    t = make_tournament(season, players[:8], rounds=2, hands=1)
    services.start(t)
    play_table(tables_of(t, 1)[0], secretary, 1)  # table 2 has no hand yet
    services.add_entries(t, [players[8]], secretary)  # joins round 2
    t.refresh_from_db()
    board = lq.leaderboard(t)
    shown = {r.name: r for r in lq.shown_rows(board, club)}
    second = [s.player.name for s in tables_of(t, 1)[1].seats.all()]
    assert len(second) == 4
    for name in second:
        assert shown[name].cells[0].figure.text == lq.NO_HANDS_YET
    assert shown["Ivy"].cells[0].figure.text == lq.NOT_SEATED
    assert shown["Ivy"].note == "joined in round 2"


def test_the_pages_and_the_live_partial_show_the_same_figures(client, season, club, secretary):
    t, players, per_round = two_rounds(season, club, secretary, "amounts")
    client.force_login(secretary)
    names = {p.pk: p.name for p in players}
    expected = {
        names[pid]: [money(r[0][pid]) for r in per_round]
        + [money(sum(r[0][pid] for r in per_round))]
        for pid in names
    }
    projector = client.get(url("leaderboard", t))
    live = client.get(url("leaderboard_live", t), HTTP_HX_REQUEST="true")
    page = client.get(url("tournament_detail", t))
    for response in (projector, live, page):
        board = board_of(response.content.decode())
        assert board.rows == expected
    html = live.content.decode()
    assert html.lstrip().startswith('<section id="board"') and "<html" not in html
    # While it runs, the board asks for itself again every 10 seconds.
    assert 'hx-trigger="every 10s"' in html
    assert f'hx-get="{url("leaderboard_live", t)}"' in html
    assert 'hx-trigger="every 10s"' in projector.content.decode()
    assert "Round 2 of 2" in html and "2 of 2 tables complete" in html


def test_the_live_partial_follows_new_hands(client, season, club, secretary):
    players = field(club, 8)
    t = make_tournament(season, players, rounds=1, hands=3)
    services.start(t)
    client.force_login(secretary)
    before = board_of(client.get(url("leaderboard_live", t)).content.decode())
    assert all(cells == ["·", "£0.00"] for cells in before.rows.values())
    totals = play_table(tables_of(t, 1)[0], secretary, 2)
    after = board_of(client.get(url("leaderboard_live", t)).content.decode())
    for pid, amount in totals.items():
        name = next(p.name for p in players if p.pk == pid)
        assert after.rows[name] == [money(amount), money(amount)]


def test_table_rank_board_on_the_page(client, season, club, secretary):
    t, players, per_round = two_rounds(season, club, secretary, "table_rank")
    client.force_login(secretary)
    board = board_of(client.get(url("leaderboard_live", t)).content.decode())
    for p in players:
        cells = [points(r[1][p.pk]) for r in per_round]
        total = sum((r[1][p.pk] for r in per_round), Fraction(0))
        amount = sum(r[0][p.pk] for r in per_round)
        assert board.rows[p.name] == [*cells, points(total), money(amount)]


def test_a_finished_tournament_stops_polling(client, season, club, secretary):
    t, *_ = two_rounds(season, club, secretary, "amounts", rounds=1)
    services.close_round(t, secretary)
    client.force_login(secretary)
    html = client.get(url("leaderboard", t)).content.decode()
    assert "Final results" in html and "every 10s" not in html


@pytest.mark.parametrize(("n", "rounds", "hands"), [(8, 1, 1), (21, 3, 4)])
def test_a_fixed_number_of_queries(
    client, season, club, secretary, django_assert_max_num_queries, n, rounds, hands
):
    t, *_ = two_rounds(season, club, secretary, "table_rank", n=n, rounds=rounds, hands=hands)
    client.force_login(secretary)
    live_url, projector_url = url("leaderboard_live", t), url("leaderboard", t)
    page_url = url("tournament_detail", t)
    # Session, user, club, tournament, memberships, then the board's four: entries, seats, hands
    # per table, amounts per table and player.
    with django_assert_max_num_queries(9):
        live = client.get(live_url)
    with django_assert_max_num_queries(9):
        projector = client.get(projector_url)
    with django_assert_max_num_queries(9):
        page = client.get(page_url)
    for response in (live, projector, page):
        assert len(board_of(response.content.decode()).rows) == n
