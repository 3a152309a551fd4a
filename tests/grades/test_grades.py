"""Grades kept current by the hand service equal grades rebuilt from scratch, whatever sequence of
hands recorded, corrected and deleted (and nights deleted) led there."""

from __future__ import annotations

import datetime as dt
import io
import random

import pytest
from django.core.management import call_command

from club.demo.services.demo import random_entry
from club.grades.models import Grade, GradeBacklog, GradeLine, GradeNight
from club.grades.services import grades
from club.play.models import Hand, Seat, Table
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import delete_hand, record_hand, update_hand
from club.play.services.night_setup import create_night, delete_night
from scoring import grade as core


def stored() -> dict[str, list[tuple]]:
    """Every grade row, without ids (a rebuild writes new ones)."""
    return {
        "lines": sorted(
            GradeLine.objects.values_list(
                "hand_id", "player_id", "night_id", "sort_key", "mu", "sigma", "hands", "day"
            )
        ),
        "nights": sorted(
            GradeNight.objects.values_list(
                "player_id", "night_id", "date", "mu", "sigma", "hands", "day"
            )
        ),
        "grades": sorted(Grade.objects.values_list("player_id", "mu", "sigma", "hands", "day")),
    }


def from_the_core(club) -> dict[int, core.Rating]:
    """The ratings scoring.grade gives for every hand of the club, read afresh."""
    found = []
    for hand in Hand.objects.filter(table__night__season__club=club).select_related("table__night"):
        players = [str(line.player_id) for line in hand.score_lines.order_by("pk")]
        rated = core.grade_hand(
            grades.hand_key(hand),
            hand.table.night.date.toordinal(),
            players,
            hand.contract,
            None if hand.declarer_id is None else str(hand.declarer_id),
            None if hand.partner_id is None else str(hand.partner_id),
            hand.made,
            None if hand.last_trick_by_id is None else str(hand.last_trick_by_id),
        )
        if rated is not None:
            found.append(rated)
    return {int(p): r for p, r in core.rate(found).items()}


def play(table: Table, rng: random.Random, user, count: int = 1) -> None:
    rules = table.night.season.rule_set.rules
    seats = [s.player for s in table.seats.select_related("player")]
    for _ in range(count):
        defaults = next_hand(table)
        playing = [p for p in seats if p != defaults["sitting_out"]]
        record_hand(table, random_entry(rng, defaults["dealer"], playing, rules), user)


def test_a_solo_made_raises_the_declarer_at_once(table4, players, secretary):
    ann, bob, cat, dan = players[:4]
    record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6), secretary)
    # The save left its hand in the backlog; the task catches up (here, called directly).
    assert GradeBacklog.objects.count() == 1 and not Grade.objects.exists()
    assert grades.drain(table4.night.season.club_id) == 1
    assert not GradeBacklog.objects.exists()
    now = {g.player_id: g for g in Grade.objects.all()}
    assert now[bob.pk].mu > core.MU > now[ann.pk].mu == now[cat.pk].mu == now[dan.pk].mu
    assert now[bob.pk].hands == 1 and GradeLine.objects.count() == 4
    assert GradeNight.objects.filter(night=table4.night).count() == 4


def test_a_redeal_is_not_rated_but_a_general_misere_is(table4, players, secretary, club):
    ann = players[0]
    record_hand(table4, HandEntry(dealer=ann, contract="all_passed"), secretary)
    grades.drain(club.pk)
    assert not Grade.objects.exists()


def test_the_player_sitting_out_is_not_rated(table5, players, secretary):
    eve, fay, gus, hal, ivy = players[4:9]
    record_hand(table5, HandEntry(dealer=eve, contract="misere", declarer=fay, tricks=0), secretary)
    grades.drain(table5.night.season.club_id)
    assert set(Grade.objects.values_list("player_id", flat=True)) == {
        eve.pk, fay.pk, gus.pk, hal.pk
    }  # fmt: skip


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_incremental_grades_equal_a_rebuild_after_random_changes(
    seed, club, season, players, secretary, night, monkeypatch
):
    if seed == 3:  # PostgreSQL's COPY path, which a rebuild of a big club takes
        monkeypatch.setattr(grades, "COPY_FROM", 1)
    rng = random.Random(seed)
    later = create_night(
        season, dt.date(2026, 11, 27), [(players[:3], 0), (players[3:7], 1)]
    )  # tables of 3 and 4, a week on
    # A second round at the first night: hands rated after the whole of round 1.
    second = Table.objects.create(night=night, round_number=2, number=1, first_dealer=0)
    Seat.objects.bulk_create(
        Seat(table=second, position=i, player=p) for i, p in enumerate(players[2:6])
    )
    earlier = create_night(season, dt.date(2026, 11, 13), [(players[5:9], 0)])
    tables = list(Table.objects.filter(night__season=season).select_related("night__season"))
    for table in tables:
        play(table, rng, secretary, count=2)
    for step in range(40):
        action = rng.choice(["record", "record", "record", "update", "delete"])
        hands = list(Hand.objects.filter(table__night__season=season).select_related("table"))
        if action == "record" or not hands:
            play(rng.choice(tables), rng, secretary)
        elif action == "update":
            hand = rng.choice(hands)
            playing = [line.player for line in hand.score_lines.select_related("player")]
            rules = hand.rule_set.rules
            entry = random_entry(rng, hand.dealer, playing, rules)
            if entry.contract == "prop_cop" and len(playing) < 4:
                entry = HandEntry(
                    dealer=hand.dealer, contract="solo", declarer=playing[0], tricks=4
                )
            update_hand(hand, entry, secretary, hand.version)
        else:
            hand = rng.choice(hands)
            delete_hand(hand, secretary, hand.version)
        # The background task catches up now and then, with one change waiting or several.
        if rng.random() < 0.4:
            grades.drain(club.pk)
        if step % 10 == 9:
            grades.drain(club.pk)
            incremental = stored()
            grades.rebuild(club)
            assert stored() == incremental, f"step {step}"
    # Deleting a night re-rates the nights after it without its hands.
    delete_night(earlier, secretary)
    grades.drain(club.pk)
    incremental = stored()
    out = io.StringIO()
    call_command("rebuild_grades", club.slug, stdout=out)
    assert "hands rated" in out.getvalue()
    assert stored() == incremental
    ratings = from_the_core(club)
    assert {g.player_id: g.rating for g in Grade.objects.all()} == ratings
    assert later.pk  # the later night's hands were rated after the earlier ones'


def test_the_last_line_of_each_player_is_their_grade_and_night(table4, players, secretary):
    rng = random.Random(5)
    play(table4, rng, secretary, count=12)
    grades.drain(table4.night.season.club_id)
    assert Grade.objects.count() == 4
    for grade in Grade.objects.all():
        last = GradeLine.objects.filter(player_id=grade.player_id).order_by("-sort_key").first()
        night = GradeNight.objects.get(player_id=grade.player_id)
        assert grade.rating == last.rating == night.rating


def test_an_imported_club_has_the_grades_it_was_exported_with(club, players, secretary):
    """The club data file carries hands, not grades: the import rates them again and gets the
    same grades, by name (hands at different tables of a round may be inserted in another order,
    which changes nothing)."""
    from tests.kits.interchange_kit import rich_club, round_trip

    rich_club(club, players, secretary)

    def by_name(c) -> dict[str, tuple]:
        return {
            g.player.name: (g.mu, g.sigma, g.hands, g.day)
            for g in Grade.objects.filter(club=c).select_related("player")
        }

    grades.drain(club.pk)
    before = by_name(club)
    assert len(before) >= 8
    _, _, restored = round_trip(club)
    # Rated after the import's commit, by the grades' catch-up.
    assert grades.updating(restored)
    grades.drain(restored.pk)
    assert by_name(restored) == before
