"""Forgetting players, any of them in any order, changes names and nothing that adds up: each
hand still balances, each player's night totals, standings and money owed stay theirs, the
night's settle-up is the same payments, and no forgotten name is left in the club's records."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club.clubs.models import AuditEvent, Membership, Player, Role
from club.clubs.services import clubs_lifecycle
from club.grades.queries import standings as sq
from club.money.services import ledger
from club.play.models import NightTotal, ScoreLine
from club.play.services.nights import close_night
from tests.kits.ledger_kit import core_payments, give_emails, play


@pytest.fixture
def closed_night(night, table4, table5, players, secretary, club):
    """Two tables' hands, the night closed (its debts made) and one debt paid."""
    ann, bob, cat, dan, eve, fay = players[:6]
    give_emails(players)
    play(table4, secretary, bob, "solo", 6)
    play(table4, secretary, cat, "abundance", 8)
    play(table5, secretary, eve, "misere", 0)
    play(table5, secretary, fay, "solo", 4)
    close_night(night, secretary)
    debts = ledger.night_debts(night)
    ledger.mark_paid(debts[0], None, secretary, club=club)
    trail = " ".join(f"{e.subject} {e.after}" for e in AuditEvent.objects.filter(club=club))
    assert "Bob" in trail  # the trail names players: forgetting must take the names out
    return night


def snapshot(night, club):
    season = night.season
    ladder = sq.ladder(season)
    return {
        "totals": sorted(
            NightTotal.objects.filter(night=night).values_list("player_id", "net", "hands")
        ),
        "balances": ledger.balances(club),
        "ladder": sorted((row.player_id, row.value) for row in ladder.rows)  # ties: by name
        if ladder
        else [],
        "payments": Counter(amount for _payer, _payee, amount in core_payments(night)),
        "hands": sorted(
            ScoreLine.objects.filter(night=night)
            .values("hand_id")
            .annotate(total=Sum("amount"))
            .values_list("hand_id", "total")
        ),
    }


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(order=st.permutations(range(9)), how_many=st.integers(1, 9))
def test_forgetting_players_changes_names_and_nothing_that_adds_up(
    order, how_many, closed_night, players, club, secretary
):
    before = snapshot(closed_night, club)
    assert all(total == 0 for _hand, total in before["hands"])
    with transaction.atomic():
        chosen = [players[i] for i in order[:how_many]]
        names = {p.pk: p.name for p in chosen}
        for player in chosen:
            clubs_lifecycle.forget_player(player, secretary)
        after = snapshot(closed_night, club)
        assert after == before
        forgotten = Player.objects.filter(pk__in=names).order_by("name")
        assert sorted(p.name for p in forgotten) == sorted(
            f"Former player {n}" for n in range(1, how_many + 1)
        )
        assert all(p.email == "" and p.user_id is None for p in forgotten)
        trail = " ".join(
            f"{e.subject} {e.before} {e.after}" for e in AuditEvent.objects.filter(club=club)
        )
        for name in names.values():
            assert not Player.objects.filter(club=club, name=name).exists()
            assert f" {name} " not in f" {trail} ".replace(",", " ").replace("'", " ")
        transaction.set_rollback(True)


def test_forgetting_ann_leaves_ann_baxter_in_the_trail(club, secretary):
    ann = Player.objects.create(club=club, name="Ann", email="ann@example.org")
    Player.objects.create(club=club, name="Ann Baxter")
    AuditEvent.objects.create(
        club=club,
        user=secretary,
        action="update",
        subject="Ann paid Ann Baxter",
        before={"payer": "ann", "note": 'Ann "the hat" said: ann@example.org'},
        after={"names": ["Ann Baxter", "Ann"]},
    )
    clubs_lifecycle.forget_player(ann, secretary)
    event = AuditEvent.objects.get(subject__contains="paid")
    assert event.subject == "Former player 1 paid Ann Baxter"
    assert event.before == {
        "payer": "Former player 1",
        "note": 'Former player 1 "the hat" said: (a forgotten address)',
    }
    assert event.after == {"names": ["Ann Baxter", "Former player 1"]}


def test_forgetting_a_player_deletes_an_account_that_belongs_to_no_other_club(
    club, secretary, django_user_model, client
):
    ann_user = django_user_model.objects.create_user("ann", "ann@example.org", "pw-ann")
    Membership.objects.create(club=club, user=ann_user, role=Role.VIEWER)
    ann = Player.objects.create(club=club, name="Ann", email="ann@example.org", user=ann_user)
    client.force_login(ann_user)

    clubs_lifecycle.forget_player(ann, secretary)

    assert not django_user_model.objects.filter(pk=ann_user.pk).exists()
    assert not django_user_model.objects.filter(email__iexact="ann@example.org").exists()
    assert not Membership.objects.filter(user_id=ann_user.pk).exists()
    assert not Session.objects.exists()  # logged out everywhere
    assert django_user_model.objects.filter(pk=secretary.pk).exists()


def test_forgetting_a_player_keeps_an_account_that_belongs_to_another_club(
    club, other_club, secretary, django_user_model
):
    both_user = django_user_model.objects.create_user("both", "both@example.org", "pw-both")
    Membership.objects.create(club=club, user=both_user, role=Role.VIEWER)
    Membership.objects.create(club=other_club, user=both_user, role=Role.VIEWER)
    here = Player.objects.create(club=club, name="Bo", email="both@example.org", user=both_user)
    # A player record elsewhere (no membership there) is enough to keep the account too.
    linked_user = django_user_model.objects.create_user("lin", "lin@example.org", "pw-lin")
    Player.objects.create(club=other_club, name="Lin", user=linked_user)
    lin = Player.objects.create(club=club, name="Lin", email="lin@example.org", user=linked_user)

    clubs_lifecycle.forget_player(here, secretary)
    clubs_lifecycle.forget_player(lin, secretary)

    both_user.refresh_from_db()
    assert both_user.email == "both@example.org"
    assert set(both_user.memberships.values_list("club_id", flat=True)) == {
        club.pk,
        other_club.pk,
    }
    assert django_user_model.objects.filter(pk=linked_user.pk).exists()
    here.refresh_from_db()
    assert here.user_id is None and here.name.startswith("Former player")


def test_forgetting_is_all_or_nothing_with_the_account(
    club, secretary, django_user_model, monkeypatch
):
    ann_user = django_user_model.objects.create_user("ann", "ann@example.org", "pw-ann")
    ann = Player.objects.create(club=club, name="Ann", email="ann@example.org", user=ann_user)

    def broken(*args, **kwargs):
        raise RuntimeError("the audit trail's write failed")

    monkeypatch.setattr(AuditEvent.objects, "create", broken)
    with pytest.raises(RuntimeError):
        clubs_lifecycle.forget_player(ann, secretary)

    ann.refresh_from_db()
    assert (ann.name, ann.user_id) == ("Ann", ann_user.pk)
    assert django_user_model.objects.filter(pk=ann_user.pk).exists()


def test_the_clubs_only_secretary_is_not_forgotten_with_their_account(
    club, secretary, django_user_model
):
    me = Player.objects.create(club=club, name="Sec", email="sec@example.org", user=secretary)
    with pytest.raises(clubs_lifecycle.LifecycleError, match="only secretary"):
        clubs_lifecycle.forget_player(me, secretary)
    me.refresh_from_db()
    assert me.name == "Sec" and django_user_model.objects.filter(pk=secretary.pk).exists()
