"""Running a tournament through club.tournaments.services.tournaments: seats drawn from
scoring.seating.plan,
rounds closed only when complete (or anyway), late entries, withdrawals and re-planning that
keeps the rounds played, and finishing."""

from __future__ import annotations

from collections import Counter

import pytest

from club.clubs.models import AuditEvent
from club.play.models import Night, Table
from club.tournaments.models import Entry, Tournament
from club.tournaments.services import tournaments as services
from scoring import seating
from tests.kits.tournament_kit import (
    field,
    make_tournament,
    play_round,
    play_table,
    round_keys,
    round_names,
    tables_of,
)


def keys(players) -> list[str]:
    return sorted((str(p.pk) for p in players), key=int)


def same_groups(a, b) -> bool:
    return [sorted(t) for t in a] == [sorted(t) for t in b]


def test_create_makes_a_night_titled_with_the_name_and_the_entries(season, club, secretary):
    players = field(club, 10)
    t = make_tournament(season, players, counts=False, director=secretary)
    night = Night.objects.get(pk=t.night_id)
    assert night.title == "Christmas Drive" and night.season == season
    assert night.counts_in_standings is False
    assert sorted(t.entries.values_list("player__name", flat=True)) == sorted(
        p.name for p in players
    )
    assert t.status == "setup" and t.current_round == 0 and t.seed == 7
    assert not Table.objects.filter(night=night).exists()
    # The figure shown on the page: the plan's own measure for the whole tournament.
    expected = seating.max_meetings(seating.plan(keys(players), 3, seed=7))
    assert t.planned_max_meetings == expected
    event = AuditEvent.objects.get(night=night, subject="Tournament Christmas Drive")
    assert event.user == secretary and "Ann" in event.after["entries"]


def test_create_adds_new_names_to_the_club_and_draws_a_stored_seed(season, club):
    t = services.create_tournament(
        club,
        season=season,
        date=season.start,
        name="Open",
        rounds=2,
        hands_per_round=4,
        players=field(club, 3),
        new_names=["Zed New", "ann"],  # "ann" is Ann, already in the club
    )
    names = sorted(t.entries.values_list("player__name", flat=True))
    assert names == ["Ann", "Bob", "Cat", "Zed New"]
    assert club.players.filter(name="Zed New").exists()
    assert 0 <= Tournament.objects.get(pk=t.pk).seed < 2**31


def test_round_one_is_the_plans_first_round_tables_of_five_then_four(season, club):
    players = field(club, 14)  # 14 = 5 + 5 + 4
    t = make_tournament(season, players, rounds=4, seed=11)
    services.start(t)
    t.refresh_from_db()
    assert (t.status, t.current_round) == ("running", 1)
    drawn = round_keys(t, 1)
    assert [len(table) for table in drawn] == [5, 5, 4]
    assert Counter(k for table in drawn for k in table) == Counter(keys(players))
    assert drawn == seating.plan(keys(players), 4, seed=11)[0]
    assert [t.number for t in tables_of(t, 1)] == [1, 2, 3]
    assert all(table.first_dealer == 0 for table in tables_of(t, 1))


@pytest.mark.parametrize(("n", "sizes"), [(6, [3, 3]), (7, [4, 3]), (9, [5, 4]), (12, [4, 4, 4])])
def test_tables_are_never_of_two_or_six(season, club, n, sizes):
    t = make_tournament(season, field(club, n))
    services.start(t)
    assert [len(table) for table in round_names(t, 1)] == sizes


def test_start_needs_three_players_and_happens_once(season, club):
    t = make_tournament(season, field(club, 2))
    with pytest.raises(services.TournamentError, match="at least 3 players"):
        services.start(t)
    assert not Table.objects.filter(night=t.night).exists()
    services.add_entries(t, field(club, 3)[2:])
    services.start(t)
    with pytest.raises(services.TournamentError, match="started already"):
        services.start(t)


def test_closing_refuses_a_round_with_tables_short_of_hands(season, club, scorer):
    t = make_tournament(season, field(club, 13), hands=3)  # 5 + 4 + 4
    services.start(t)
    one, two, three = tables_of(t, 1)
    play_table(one, scorer, 3)
    play_table(two, scorer, 1)
    with pytest.raises(services.RoundIncomplete) as refused:
        services.close_round(t, scorer)
    message = str(refused.value)
    assert "Round 1 is not complete" in message
    assert "each table plays 3 hands" in message
    assert "table 2 has 1; table 3 has 0" in message
    assert [(x.number, x.hands) for x in refused.value.tables] == [(2, 1), (3, 0)]
    t.refresh_from_db()
    assert t.current_round == 1
    assert not Table.objects.filter(night=t.night, round_number=2).exists()


def test_closing_anyway_opens_the_next_round_and_is_audited(season, club, scorer):
    t = make_tournament(season, field(club, 8), hands=2)
    services.start(t)
    play_table(tables_of(t, 1)[0], scorer, 2)
    services.close_round(t, scorer, anyway=True)
    t.refresh_from_db()
    assert t.current_round == 2
    event = AuditEvent.objects.get(night=t.night, subject="Round 1 (closed anyway)")
    assert event.before == {"table 2": "0 hands"} and event.user == scorer


def test_a_complete_round_closes_and_the_next_is_the_plans_next(season, club, scorer):
    players = field(club, 10)
    t = make_tournament(season, players, rounds=3, seed=3)
    services.start(t)
    first = round_keys(t, 1)
    play_round(t, scorer)
    services.close_round(t, scorer)
    t.refresh_from_db()
    assert t.current_round == 2
    plan = seating.plan(keys(players), 3, seed=3)
    assert round_keys(t, 1) == first == plan[0]
    assert round_keys(t, 2) == plan[1]
    assert t.planned_max_meetings == seating.max_meetings(plan)


def test_a_withdrawal_replans_the_rest_and_keeps_the_round_played(season, club, scorer):
    players = field(club, 11)
    t = make_tournament(season, players, rounds=3, seed=5)
    services.start(t)
    round_one = [(x.pk, [p.pk for p in x.seats.order_by("position")]) for x in tables_of(t, 1)]
    play_round(t, scorer)
    gone = players[4]
    done = services.withdraw(t, gone, scorer)
    assert done.entry.withdrawn_after_round == 1 and not done.redrawn
    services.close_round(t, scorer)
    t.refresh_from_db()
    # Round 1 is untouched: the same tables, seats and hands.
    assert [(x.pk, [p.pk for p in x.seats.order_by("position")]) for x in tables_of(t, 1)] == (
        round_one
    )
    assert all(x.hands.count() == 2 for x in tables_of(t, 1))
    # Round 2 is the plan for the ten left, with round 1 as played.
    left = [k for k in keys(players) if k != str(gone.pk)]
    replanned = seating.plan(left, 3, seed=5, played=[round_keys(t, 1)])
    assert replanned[0] == round_keys(t, 1)
    assert round_keys(t, 2) == replanned[1]
    assert str(gone.pk) not in {k for table in round_keys(t, 2) for k in table}
    assert [len(x) for x in round_keys(t, 2)] == [5, 5]


def test_a_late_entry_joins_the_next_round(season, club, scorer):
    players = field(club, 12)
    t = make_tournament(season, players[:11], rounds=3, seed=9)
    services.start(t)
    play_round(t, scorer, hands=1)  # the round has started
    late = players[11]
    [entry] = services.add_entries(t, [late], scorer)
    assert entry.joined_round == 2
    assert str(late.pk) not in {k for table in round_keys(t, 1) for k in table}
    services.close_round(t, scorer, anyway=True)
    drawn = round_keys(t, 2)
    assert str(late.pk) in {k for table in drawn for k in table}
    assert [len(x) for x in drawn] == [4, 4, 4]
    expected = seating.plan(keys(players), 3, seed=9, played=[round_keys(t, 1)])[1]
    assert drawn == expected


def test_changes_before_a_rounds_first_hand_draw_its_seats_again(season, club, scorer):
    players = field(club, 10)
    t = make_tournament(season, players[:9], rounds=2, seed=1)
    services.start(t)
    before = set(Table.objects.filter(night=t.night).values_list("pk", flat=True))
    [entry] = services.add_entries(t, [players[9]], scorer)
    assert entry.joined_round == 1
    drawn = round_keys(t, 1)
    assert [len(x) for x in drawn] == [5, 5]
    assert drawn == seating.plan(keys(players), 2, seed=1)[0]
    assert before.isdisjoint(Table.objects.filter(night=t.night).values_list("pk", flat=True))
    # Withdrawing the same player before any hand: the entry goes and the seats are drawn again.
    done = services.withdraw(t, players[9], scorer)
    assert done.entry is None and done.redrawn
    assert not Entry.objects.filter(tournament=t, player=players[9]).exists()
    assert round_keys(t, 1) == seating.plan(keys(players[:9]), 2, seed=1)[0]


def test_a_player_who_withdrew_comes_back_before_missing_a_round(season, club, scorer):
    players = field(club, 9)
    t = make_tournament(season, players, rounds=3)
    services.start(t)
    play_round(t, scorer, hands=1)
    services.withdraw(t, players[0], scorer)
    [entry] = services.add_entries(t, [players[0]], scorer)
    assert entry.withdrawn_after_round is None
    services.withdraw(t, players[0], scorer)
    services.close_round(t, scorer, anyway=True)
    play_round(t, scorer, hands=1)
    with pytest.raises(services.TournamentError, match="missed a round"):
        services.add_entries(t, [players[0]], scorer)
    with pytest.raises(services.TournamentError, match="entered already"):
        services.add_entries(t, [players[1]], scorer)


def test_a_withdrawal_that_leaves_fewer_than_three_is_refused(season, club, scorer):
    players = field(club, 3)
    t = make_tournament(season, players, rounds=2)
    services.start(t)
    play_round(t, scorer, hands=1)
    with pytest.raises(services.TournamentError, match="Only 2 players would be left"):
        services.withdraw(t, players[0], scorer)
    assert Entry.objects.get(tournament=t, player=players[0]).withdrawn_after_round is None
    with pytest.raises(services.TournamentError, match="is not entered"):
        services.withdraw(t, field(club, 4)[3], scorer)


def test_before_the_start_a_withdrawal_removes_the_entry(season, club):
    players = field(club, 3)
    t = make_tournament(season, players)
    assert services.withdraw(t, players[0]).entry is None
    assert t.entries.count() == 2
    assert Tournament.objects.get(pk=t.pk).planned_max_meetings is None  # too few to plan


def test_the_last_round_finishes_the_tournament_and_closes_its_night(season, club, scorer):
    t = make_tournament(season, field(club, 8), rounds=2, hands=1)
    services.start(t)
    play_round(t, scorer)
    services.close_round(t, scorer)
    play_round(t, scorer)
    services.close_round(t, scorer)
    t.refresh_from_db()
    assert (t.status, t.current_round) == ("finished", 2)
    assert t.night.is_closed
    assert Table.objects.filter(night=t.night).count() == 4  # no third round drawn
    with pytest.raises(services.TournamentError, match="has finished"):
        services.close_round(t, scorer)
    with pytest.raises(services.TournamentError, match="no more entries"):
        services.add_entries(t, field(club, 9)[8:], scorer)
    # The figure is now the plan as played.
    assert t.planned_max_meetings == seating.max_meetings([round_keys(t, 1), round_keys(t, 2)])


def test_no_entries_once_the_last_round_is_under_way(season, club, scorer):
    t = make_tournament(season, field(club, 8), rounds=1, hands=2)
    services.start(t)
    play_round(t, scorer, hands=1)
    with pytest.raises(services.TournamentError, match="the last and under way"):
        services.add_entries(t, field(club, 9)[8:], scorer)


def test_closing_needs_a_running_tournament_with_an_open_night(season, club, secretary):
    t = make_tournament(season, field(club, 8), rounds=2, hands=1)
    with pytest.raises(services.TournamentError, match="start it first"):
        services.close_round(t, secretary)
    services.start(t)
    from club.play.services.nights import close_night

    close_night(t.night, secretary)
    with pytest.raises(services.TournamentError, match="night is closed"):
        services.close_round(t, secretary, anyway=True)


def test_settings_change_the_night_too_and_rounds_cannot_drop_below_the_round_in_play(
    season, club, secretary
):
    players = field(club, 8)
    t = make_tournament(season, players, rounds=3)
    services.start(t)
    services.close_round(t, secretary, anyway=True)
    with pytest.raises(services.TournamentError, match="Round 2 is in play"):
        services.update_settings(
            t,
            name="X",
            rounds=1,
            hands_per_round=2,
            scoring_method="amounts",
            is_public=False,
            counts_in_standings=True,
        )
    services.update_settings(
        t,
        name="Boxing Day Drive",
        rounds=5,
        hands_per_round=4,
        scoring_method="table_rank",
        is_public=True,
        counts_in_standings=False,
        user=secretary,
    )
    t.refresh_from_db()
    assert (t.name, t.rounds, t.hands_per_round, t.scoring_method, t.is_public) == (
        "Boxing Day Drive",
        5,
        4,
        "table_rank",
        True,
    )
    night = Night.objects.get(pk=t.night_id)
    assert night.title == "Boxing Day Drive" and night.counts_in_standings is False
    played = [round_keys(t, 1), round_keys(t, 2)]
    assert t.planned_max_meetings == seating.max_meetings(
        seating.plan(keys(players), 5, seed=7, played=played)
    )
    event = AuditEvent.objects.get(night=t.night, subject="Tournament settings")
    assert event.before["rounds"] == 3 and event.after["rounds"] == 5


def test_entries_of_another_club_are_refused(season, club, other_club):
    from club.clubs.models import Player

    stranger = Player.objects.create(club=other_club, name="Stranger")
    with pytest.raises(services.TournamentError, match="club's own players"):
        make_tournament(season, [*field(club, 3), stranger])
    t = make_tournament(season, field(club, 3))
    with pytest.raises(services.TournamentError, match="not a player of this club"):
        services.add_entries(t, [stranger])
