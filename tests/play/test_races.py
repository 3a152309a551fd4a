"""Changes made at the same moment, in real threads on their own connections.

Each test repeats the attack that found the bug. On PostgreSQL the threads truly overlap and the
row locks decide who waits; on a SQLite file one writer goes at a time, and the same outcomes must
hold (no hand after a close, no 500, a clear conflict)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from club.clubs.models import RuleSet
from club.play.models import Hand
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import HandConflict, delete_hand, record_hand, update_hand
from club.play.services.nights import close_night, reopen_night
from tests.kits.racing import needs_real_concurrency, race

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _solo(players, declarer_index: int = 1, tricks: int = 5) -> HandEntry:
    return HandEntry(
        dealer=players[0], contract="solo", declarer=players[declarer_index], tricks=tricks
    )


def _only_conflicts(outcomes) -> None:
    """Every outcome is a success or a HandConflict: never another exception."""
    for outcome in outcomes:
        if outcome.error is not None and not isinstance(outcome.error, HandConflict):
            raise outcome.error


# -- 14.1: a hand never lands in a closed night -----------------------------------------------


def test_close_racing_a_hand_never_leaves_a_hand_after_the_close(
    night, table4, players, secretary, scorer
):
    needs_real_concurrency()
    both = 0
    for attempt in range(100):
        night.refresh_from_db()
        outcomes = race(
            lambda: record_hand(table4, _solo(players), scorer),
            lambda: close_night(night, secretary),
        )
        _only_conflicts(outcomes)
        recorded, closed = outcomes
        night.refresh_from_db()
        assert closed.error is None  # closing an open night always succeeds
        assert night.is_closed
        if recorded.error is None:
            both += 1
            hand = Hand.objects.get(pk=recorded.value.pk)
            assert hand.entered_at <= night.closed_at, f"attempt {attempt}: hand after the close"
        else:
            assert "closed" in str(recorded.error)
        # No hand of the night was written after it closed.
        assert not Hand.objects.filter(table__night=night, entered_at__gt=night.closed_at).exists()
        reopen_night(night, secretary)
    assert Hand.objects.filter(table=table4).count() == both


# -- 14.2: concurrent changes at one table end in success or a clear conflict -----------------


def _hands(table, players, n: int) -> list[Hand]:
    from django.contrib.auth import get_user_model

    secretary = get_user_model().objects.get(username="sec")
    return [record_hand(table, _solo(players, 1 + i % 3), secretary) for i in range(n)]


def test_deleting_two_hands_at_one_table_at_once_never_deadlocks(
    table4, players, secretary, scorer
):
    needs_real_concurrency()
    for _ in range(30):
        Hand.objects.filter(table=table4).delete()
        first, second, *_ = _hands(table4, players, 4)
        outcomes = race(
            lambda first=first: delete_hand(first, secretary),
            lambda second=second: delete_hand(second, scorer),
        )
        for outcome in outcomes:
            if outcome.error is not None:
                raise outcome.error
        numbers = list(
            Hand.objects.filter(table=table4).order_by("number").values_list("number", flat=True)
        )
        assert numbers == [1, 2]


def test_an_edit_racing_a_delete_of_the_same_hand_is_a_conflict_not_a_crash(
    table4, players, secretary, scorer
):
    needs_real_concurrency()
    gone = 0
    for _ in range(30):
        Hand.objects.filter(table=table4).delete()
        (hand,) = _hands(table4, players, 1)
        outcomes = race(
            lambda hand=hand: update_hand(hand, _solo(players, 2, 7), scorer, hand.version),
            lambda hand=hand: delete_hand(hand, secretary, version=hand.version),
        )
        _only_conflicts(outcomes)
        edited, deleted = outcomes
        assert deleted.error is None or edited.error is None
        if edited.error is not None:
            gone += 1
            assert "deleted" in str(edited.error)
        assert not Hand.objects.filter(table=table4).exists() or deleted.error is not None


def test_a_double_clicked_delete_deletes_once_and_answers_409_not_500(table4, players, secretary):
    needs_real_concurrency()
    for _ in range(15):
        Hand.objects.filter(table=table4).delete()
        hands = _hands(table4, players, 2)
        url = reverse("hand_delete", args=["crown", hands[0].pk])
        clients = []
        for _ in range(2):
            client = Client()
            client.force_login(secretary)
            clients.append(client)

        def click(client: Client, url: str = url):
            return client.post(url, {"version": 1}, HTTP_HX_REQUEST="true")

        outcomes = race(*(lambda c=c: click(c) for c in clients))
        for outcome in outcomes:
            if outcome.error is not None:
                raise outcome.error
        statuses = sorted(o.value.status_code for o in outcomes)
        assert statuses[0] == 200 and statuses[1] in (200, 404, 409), statuses
        for outcome in outcomes:
            if outcome.value.status_code == 409:
                assert "already deleted" in outcome.value.content.decode()
        assert list(Hand.objects.filter(table=table4).values_list("number", flat=True)) == [1]


def test_a_second_delete_of_a_hand_says_it_is_already_deleted(table4, players, secretary):
    (hand,) = _hands(table4, players, 1)
    delete_hand(hand, secretary)
    with pytest.raises(HandConflict, match="already deleted"):
        delete_hand(hand, secretary)
    with pytest.raises(HandConflict, match="deleted"):
        update_hand(hand, _solo(players), secretary, 1)


# -- 14.3: a rule set is frozen before its first hand is scored, never after ------------------


def test_editing_a_rule_set_racing_its_first_hand_never_scores_under_stale_stakes(
    season, table4, players, secretary, scorer
):
    from club.play.services.rule_set_changes import update_rule_set

    needs_real_concurrency()
    rule_set = season.rule_set
    original = dict(rule_set.data)
    for _ in range(20):
        Hand.objects.filter(table=table4).delete()
        RuleSet.objects.filter(pk=rule_set.pk).update(data=original)
        rule_set.refresh_from_db()
        dearer = rule_set.rules.to_dict()
        dearer["stakes"]["solo"]["base"] = 8
        outcomes = race(
            lambda: record_hand(table4, _solo(players), scorer),
            lambda dearer=dearer: update_rule_set(
                rule_set, rule_set.name, rule_set.rules.from_dict(dearer), secretary
            ),
        )
        recorded, edited = outcomes
        assert recorded.error is None, recorded.error
        rule_set.refresh_from_db()
        hand = recorded.value
        bob = hand.score_lines.get(player=players[1]).amount
        stored_solo = rule_set.data["stakes"]["solo"]["base"]
        # The hand was scored under the stakes the rule set says now: 3 x 6 or 3 x 8.
        assert bob == 3 * stored_solo
        if edited.error is not None:
            assert "scored hands" in str(edited.error)


def test_changing_a_seasons_rule_set_racing_its_first_hand_never_mixes_rule_sets(
    club, season, table4, players, secretary, scorer
):
    from club.clubs.forms.setup import SeasonForm
    from club.clubs.services.setup import SetupError, rule_set_from_preset
    from club.play.services.rule_set_changes import save_season

    needs_real_concurrency()
    other = rule_set_from_preset(club, "standard", "Standard units")
    original = season.rule_set_id
    for _ in range(15):
        Hand.objects.filter(table=table4).delete()
        type(season).objects.filter(pk=season.pk).update(rule_set_id=original)
        season.refresh_from_db()
        data = {
            "name": season.name,
            "start": season.start.isoformat(),
            "end": season.end.isoformat(),
            "rule_set": other.pk,
            "standings_method": season.standings_method,
            "standings_rule_set": "",
            "min_nights": 0,
            "best_nights": "",
        }
        form = SeasonForm(data, instance=type(season).objects.get(pk=season.pk), club=club)
        assert form.is_valid(), form.errors
        recorded, changed = race(
            lambda: record_hand(table4, _solo(players), scorer),
            lambda form=form: save_season(form),
        )
        assert recorded.error is None, recorded.error
        assert changed.error is None or isinstance(changed.error, SetupError), changed.error
        season.refresh_from_db()
        # The hand keeps the rule set the season has: never a hand under one and the season
        # under another.
        assert Hand.objects.get(pk=recorded.value.pk).rule_set_id == season.rule_set_id


def test_a_confirmation_racing_a_delete_of_the_hand_is_a_conflict_not_a_crash(
    table4, players, secretary, scorer
):
    """The second player's confirmation (club.play.services.table_links) is a write of the night
    too:
    it takes the night's lock first, so racing a delete it never deadlocks or crashes."""
    from club.play.services.table_links import confirm_hand

    needs_real_concurrency()
    for _ in range(30):
        Hand.objects.filter(table=table4).delete()
        first, second = _hands(table4, players, 2)
        Hand.objects.filter(pk__in=[first.pk, second.pk]).update(awaiting_confirmation=True)
        outcomes = race(
            lambda second=second: confirm_hand(second, 1, user=scorer),
            lambda first=first: delete_hand(first, secretary),
            lambda second=second: delete_hand(second, secretary),
        )
        _only_conflicts(outcomes)
        assert not Hand.objects.filter(table=table4).exists()
