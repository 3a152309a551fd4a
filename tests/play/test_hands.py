"""The hand service: scoring through the core, one transaction, numbering, conflicts, audit."""

from __future__ import annotations

import pytest

import scoring
from club.clubs.models import AuditEvent
from club.play.models import Hand, ScoreLine
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import HandConflict, delete_hand, record_hand, update_hand
from club.play.services.nights import close_night, reopen_night


def amounts(hand: Hand) -> dict[str, int]:
    return {line.player.name: line.amount for line in hand.score_lines.select_related("player")}


def test_solo_made_exactly_at_hoyle_stakes_earns_six_from_each(table4, players, secretary):
    ann, bob, cat, dan = players[:4]
    hand = record_hand(
        table4,
        HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5),
        secretary,
        expected_number=1,
    )
    assert hand.number == 1 and hand.made is True and hand.over_tricks == 0
    assert amounts(hand) == {"Ann": -6, "Bob": 18, "Cat": -6, "Dan": -6}
    event = AuditEvent.objects.get()
    assert event.action == "create" and event.after["amounts"]["Bob"] == 18


def test_table_of_five_leaves_the_player_on_the_dealers_right_out(table5, players, scorer):
    eve, fay, gus, hal, ivy = players[4:9]
    defaults = next_hand(table5)
    assert defaults["dealer"] == eve and defaults["sitting_out"] == ivy  # Hoyle: dealer's right
    hand = record_hand(
        table5, HandEntry(dealer=eve, contract="misere", declarer=fay, tricks=0), scorer
    )
    assert hand.sitting_out == ivy
    assert amounts(hand) == {"Eve": -12, "Fay": 36, "Gus": -12, "Hal": -12}
    with pytest.raises(scoring.InvalidHand, match="Ivy sits out"):
        record_hand(
            table5,
            HandEntry(dealer=eve, contract="solo", declarer=fay, tricks=5, revoke_by=ivy),
            scorer,
        )


def test_next_dealer_follows_the_last_hand(table4, players, secretary):
    ann, bob, cat, dan = players[:4]
    record_hand(table4, HandEntry(dealer=ann, contract="all_passed"), secretary)
    assert next_hand(table4)["dealer"] == bob and next_hand(table4)["number"] == 2


def test_stale_expected_number_is_refused_and_nothing_written(table4, players, secretary, scorer):
    ann, bob = players[:2]
    record_hand(
        table4,
        HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6),
        scorer,
        expected_number=1,
    )
    with pytest.raises(HandConflict, match="saved by someone else"):
        record_hand(
            table4,
            HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6),
            secretary,
            expected_number=1,
        )
    assert Hand.objects.count() == 1 and ScoreLine.objects.count() == 4


def test_edit_rescores_and_refuses_a_stale_version(table4, players, secretary):
    ann, bob, cat, dan = players[:4]
    hand = record_hand(
        table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), secretary
    )
    edited = update_hand(
        hand, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=4), secretary, version=1
    )
    assert edited.version == 2 and edited.made is False and edited.under_tricks == 1
    assert amounts(edited) == {"Ann": 7, "Bob": -21, "Cat": 7, "Dan": 7}
    with pytest.raises(HandConflict, match="changed by someone else"):
        update_hand(
            hand,
            HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=9),
            secretary,
            version=1,
        )
    event = AuditEvent.objects.filter(action="update").get()
    assert event.before["tricks"] == 5 and event.after["tricks"] == 4


def test_delete_closes_the_gap_in_numbering(table4, players, secretary):
    ann, bob, cat, dan = players[:4]
    hands = [
        record_hand(table4, HandEntry(dealer=d, contract="solo", declarer=bob, tricks=5), secretary)
        for d in (ann, bob, cat)
    ]
    delete_hand(hands[0], secretary)
    assert list(table4.hands.values_list("number", "dealer__name")) == [(1, "Bob"), (2, "Cat")]
    assert ScoreLine.objects.count() == 8


def test_a_closed_night_refuses_changes_until_reopened(night, table4, players, secretary):
    ann, bob = players[:2]
    night.season.club.correction_minutes = 0  # published at once: no correction window
    night.season.club.save()
    close_night(night, secretary)
    with pytest.raises(HandConflict, match="closed"):
        record_hand(
            table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), secretary
        )
    reopen_night(night, secretary)
    record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), secretary)
    assert list(AuditEvent.objects.order_by("id").values_list("action", flat=True)) == [
        "close",
        "update",  # the results published at once
        "reopen",
        "create",
    ]


def test_invalid_hand_writes_nothing(table4, players, secretary):
    ann, bob = players[:2]
    with pytest.raises(scoring.InvalidHand, match="needs a partner"):
        record_hand(
            table4, HandEntry(dealer=ann, contract="prop_cop", declarer=bob, tricks=8), secretary
        )
    assert not Hand.objects.exists() and not AuditEvent.objects.exists()


def test_a_hand_saved_after_the_ladder_changes_scores_under_the_new_ladder(
    table4, players, secretary, season, club
):
    """The table object a scorer's page loaded still names the season's old ladder; the save
    reads the season again under its lock, so the new ladder scores the hand."""
    from club.clubs.models import RuleSet, Season

    ann, bob = players[:2]
    stale_table = table4.__class__.objects.select_related(
        "night", "night__season", "night__season__rule_set"
    ).get(pk=table4.pk)
    assert stale_table.night.season.standings_rule_set is None
    anna = RuleSet.objects.create(
        club=club, name="Anna", data=scoring.preset("anna-cubed").to_dict()
    )
    Season.objects.filter(pk=season.pk).update(standings_rule_set=anna)
    hand = record_hand(
        stale_table,
        HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5),
        secretary,
    )
    points = {line.player.name: line.points for line in hand.score_lines.select_related("player")}
    assert points == {"Ann": 0, "Bob": 1, "Cat": 0, "Dan": 0}  # winner-only, not Hoyle's 18
    assert amounts(hand)["Bob"] == 18
