"""The night totals the standings read are kept equal to the score lines by the database, whatever
writes the lines: recording, correcting and deleting hands, bulk creation, deleting a night."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db.models import Count, Q, Sum

import scoring
from club.clubs.services.setup import rule_set_from_preset
from club.play.models import Hand, Night, NightTotal, ScoreLine
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import delete_hand, score_lines_for, update_hand
from tests.kits.scorebook import night_with, play


def from_lines() -> dict[tuple[int, int], tuple]:
    rows = (
        ScoreLine.objects.values("night_id", "player_id")
        .annotate(
            season=Sum("season_id") / Count("id"),
            hands=Count("id"),
            net=Sum("amount"),
            points=Sum("points"),
            declared=Count("id", filter=Q(declared=True)),
            made=Count("id", filter=Q(declared_made=True)),
        )
        .order_by()
    )
    return {
        (r["night_id"], r["player_id"]): (
            r["season"],
            r["hands"],
            r["net"],
            r["points"],
            r["declared"],
            r["made"],
        )
        for r in rows
    }


def from_totals() -> dict[tuple[int, int], tuple]:
    return {
        (t.night_id, t.player_id): (t.season_id, t.hands, t.net, t.points, t.declared, t.made)
        for t in NightTotal.objects.all()
    }


def test_totals_follow_recording_correcting_and_deleting(season, players, secretary):
    ann, bob, cat, dan = players[:4]
    one = night_with(season, dt.date(2026, 10, 1), players[:4])
    two = night_with(season, dt.date(2026, 10, 8), players[:4])
    solo = play(one, secretary, bob, "solo", 7)  # made, 2 over: 8 from each of three
    play(one, secretary, cat, "misere", 1)  # failed: Cat pays 12 to each
    play(one, secretary, ann, "prop_cop", 9, partner=dan)  # made, 1 over: 7 each partner
    play(two, secretary, dan, "abundance", 10)  # made, 1 over: 20 from each
    totals = from_totals()
    assert totals == from_lines()
    # Independent figures for Bob on night one: +24, -7(p&c: Bob is an opponent) + 12.
    assert totals[(one.pk, bob.pk)] == (season.pk, 3, 24 + 12 - 7, 24 + 12 - 7, 1, 1)
    assert totals[(one.pk, cat.pk)] == (season.pk, 3, -8 - 36 - 7, -8 - 36 - 7, 1, 0)
    assert totals[(one.pk, ann.pk)][4:] == (1, 1)  # the proposer declared and made
    assert totals[(one.pk, dan.pk)][4:] == (0, 0)  # the partner did not declare

    update_hand(
        solo,
        HandEntry(dealer=solo.dealer, contract="solo", declarer=bob, tricks=3),
        secretary,
        version=solo.version,
    )
    assert from_totals() == from_lines()
    assert from_totals()[(one.pk, bob.pk)][2] == -3 * 8 + 12 - 7  # failed, 2 under: 8 to each

    delete_hand(Hand.objects.get(table__night=two), secretary)
    assert from_totals() == from_lines()
    assert not NightTotal.objects.filter(night=two).exists()  # no hands left: no rows

    Hand.objects.filter(table__night=one).delete()
    assert NightTotal.objects.count() == 0 == ScoreLine.objects.count()


def test_bulk_created_lines_are_totalled_like_seed_demo(season, players, secretary):
    """seed_demo bulk-creates hands and lines through score_lines_for: one statement."""
    from club.play.services.hand_entry import score_entry
    from club.play.services.hands import apply_result

    night = night_with(season, dt.date(2026, 10, 1), players[:4])
    table = night.tables.get()
    table.night = night
    rules = season.rule_set.rules
    hands, scored = [], []
    for number, declarer in enumerate(players[:4] * 3, start=1):
        entry = HandEntry(dealer=players[0], contract="solo", declarer=declarer, tricks=6)
        s = score_entry(table, entry, rules)
        hand = Hand(table=table, number=number, rule_set=season.rule_set)
        apply_result(hand, s)
        hands.append(hand)
        scored.append(s)
    Hand.objects.bulk_create(hands)
    lines = [line for h, s in zip(hands, scored, strict=True) for line in score_lines_for(h, s)]
    ScoreLine.objects.bulk_create(lines)
    assert from_totals() == from_lines()
    assert all(t.hands == 12 and t.declared == 3 and t.made == 3 for t in NightTotal.objects.all())
    # Every player declared three solos with one over-trick (21 each) and paid 7 nine times.
    assert {t.net for t in NightTotal.objects.all()} == {3 * 21 - 9 * 7}


def test_ladder_points_are_the_same_hand_under_the_ladder_rule_set(season, players, secretary):
    ladder = rule_set_from_preset(season.club, "anna-cubed", "Anna Cubed ladder")
    season.standings_rule_set = ladder
    season.standings_method = "points"
    season.save()
    ann, bob, cat, dan = players[:4]
    night = night_with(season, dt.date(2026, 10, 1), players[:4])
    plays = [
        (bob, "solo", 7, None),
        (cat, "misere", 0, None),
        (ann, "prop_cop", 8, dan),
        (dan, "abundance", 8, None),  # failed: no points for anyone
    ]
    for declarer, contract, tricks, partner in plays:
        play(night, secretary, declarer, contract, tricks, partner=partner)
    anna = scoring.preset("anna-cubed")
    hoyle = scoring.preset("hoyle")
    want_points = dict.fromkeys(["Ann", "Bob", "Cat", "Dan"], 0)
    want_net = dict(want_points)
    names = tuple(p.name for p in players[:4])
    for declarer, contract, tricks, partner in plays:
        hand = scoring.Hand(
            names, contract, declarer.name, partner.name if partner else None, tricks
        )
        for name, amount in scoring.score_hand(hand, anna).amounts.items():
            want_points[name] += amount
        for name, amount in scoring.score_hand(hand, hoyle).amounts.items():
            want_net[name] += amount
    got = {t.player.name: (t.net, t.points) for t in NightTotal.objects.select_related("player")}
    assert got == {n: (want_net[n], want_points[n]) for n in names}
    assert want_points == {"Ann": 1, "Bob": 1, "Cat": 2, "Dan": 1}


@pytest.mark.parametrize("gone", ["night", "hands"])
def test_deleting_a_night_with_its_lines_leaves_no_totals(season, players, secretary, gone):
    night = night_with(season, dt.date(2026, 10, 1), players[:4])
    play(night, secretary, players[1])
    assert NightTotal.objects.count() == 4
    if gone == "night":
        ScoreLine.objects.filter(night=night).delete()
        Hand.objects.filter(table__night=night).delete()
        Night.objects.filter(pk=night.pk).delete()
    else:
        Hand.objects.filter(table__night=night).delete()
    assert NightTotal.objects.count() == 0
