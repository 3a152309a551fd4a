"""Each settle-up payment is an IOU until paid; part-payments, netting, balances."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

import pytest
from django.db import IntegrityError, transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from club.clubs.models import AuditEvent, Player
from club.money.models import Debt, Settlement
from club.money.services import ledger
from club.money.services import publish as publish_service
from club.money.services.ledger import LedgerError, balances, mark_paid, net_pair, sync_night
from club.play.models import Night
from club.play.services.nights import close_night
from tests.kits.ledger_kit import core_payments, play


@pytest.fixture(autouse=True)
def after_commit_at_once(monkeypatch):
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())


def debts_by_name(night: Night) -> list[tuple[str, str, int]]:
    return sorted(
        Debt.objects.filter(night=night).values_list("payer__name", "payee__name", "amount")
    )


def test_closing_turns_the_settle_up_into_debts(night, table4, players, secretary):
    ann, bob, cat, dan = players[:4]
    play(table4, secretary, bob, "solo", 6)
    play(table4, secretary, cat, "abundance", 8)
    close_night(night, secretary)
    assert debts_by_name(night) == sorted(core_payments(night))
    # Closing again after a reopen with nothing changed writes nothing new.
    from club.play.services.nights import reopen_night

    reopen_night(night, secretary)
    close_night(night, secretary)
    assert debts_by_name(night) == sorted(core_payments(night))
    assert not Settlement.objects.exists()


def test_part_payment_then_the_rest_and_never_more_than_owed(
    night, table4, players, secretary, club
):
    ann, bob = players[:2]
    play(table4, secretary, bob, "solo", 5)  # Bob +18: Ann, Cat and Dan each pay him 6
    close_night(night, secretary)
    debt = Debt.objects.get(night=night, payer=ann)
    assert (debt.payee, debt.amount) == (bob, 6)
    paid = mark_paid(debt, 4, secretary, club=club)
    assert paid.outstanding == 2 and balances(club, [ann.pk, bob.pk]) == {ann.pk: -2, bob.pk: 14}
    with pytest.raises(LedgerError, match=r"only £0\.02"):
        mark_paid(debt, 3, secretary, club=club)
    with pytest.raises(LedgerError, match="greater than nothing"):
        mark_paid(debt, 0, secretary, club=club)
    assert mark_paid(debt, None, secretary, club=club).amount == 2  # the rest
    with pytest.raises(LedgerError, match="nothing more"):
        mark_paid(debt, None, secretary, club=club)
    assert balances(club, [ann.pk])[ann.pk] == 0
    assert list(
        Settlement.objects.filter(debt=debt).values_list("amount", "kind", "by__username")
    ) == [(4, "paid", "sec"), (2, "paid", "sec")]
    assert AuditEvent.objects.filter(subject="Payment: Ann paid Bob £0.04").exists()


def test_a_payment_of_another_club_is_refused(night, table4, players, secretary, other_club):
    play(table4, secretary, players[1], "solo", 5)
    close_night(night, secretary)
    debt = Debt.objects.filter(night=night).first()
    with pytest.raises(LedgerError, match="not one of this club"):
        mark_paid(debt, None, secretary, club=other_club)
    assert not Settlement.objects.exists()


def test_the_database_refuses_a_debt_between_clubs(night, players, other_club):
    stranger = Player.objects.create(club=other_club, name="Zed")
    ann = players[0]
    with pytest.raises(IntegrityError), transaction.atomic():
        Debt.objects.create(
            club=night.season.club, night=night, payer=ann, payee=stranger, amount=5
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Debt.objects.create(club=other_club, night=night, payer=ann, payee=players[1], amount=5)
    debt = Debt.objects.create(
        club=night.season.club, night=night, payer=ann, payee=players[1], amount=5
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Debt.objects.filter(pk=debt.pk).update(payee=stranger)


def _night(season, day: int) -> Night:
    return Night.objects.create(season=season, date=dt.date(2026, 11, day), status="closed")


def test_netting_across_nights_leaves_one_payment_and_moves_no_balance(
    season, players, secretary, club, monkeypatch
):
    ann, bob = players[:2]
    week1, week2 = _night(season, 13), _night(season, 20)
    figures = {week1.pk: {ann.pk: -40, bob.pk: 40}, week2.pk: {ann.pk: 25, bob.pk: -25}}
    monkeypatch.setattr(ledger, "_night_nets", lambda night: figures[night.pk])
    sync_night(week1)
    sync_night(week2)
    before = balances(club, [ann.pk, bob.pk])
    assert before == {ann.pk: -15, bob.pk: 15}
    netted = net_pair(club, ann, bob, secretary)
    assert (netted.amount, netted.payer, netted.payee, netted.left) == (25, ann, bob, 15)
    assert balances(club, [ann.pk, bob.pk]) == before
    open_now = ledger.open_debts(club)
    assert [(d.payer, d.payee, d.outstanding, d.night) for d in open_now] == [(ann, bob, 15, week1)]
    with pytest.raises(LedgerError, match="nothing to net"):
        net_pair(club, ann, bob, secretary)
    assert AuditEvent.objects.filter(subject__startswith="Netting: Ann and Bob").count() == 1


def test_points_clubs_keep_no_ledger(night, table4, players, secretary, club):
    club.unit_kind = "points"
    club.save()
    play(table4, secretary, players[1], "solo", 5)
    close_night(night, secretary)
    assert not Debt.objects.exists()


# Hypothesis: random nights, corrections, payments, part-payments and nettings ----------------

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def zero_sum_nets(draw_list: list[int]) -> list[int]:
    return [*draw_list, -sum(draw_list)]


nets_strategy = st.lists(st.integers(-60, 60), min_size=1, max_size=4).map(zero_sum_nets)
steps = st.lists(
    st.one_of(
        st.tuples(st.just("night"), nets_strategy),
        st.tuples(st.just("correct"), nets_strategy),  # the last night's figures change
        st.tuples(st.just("pay"), st.integers(0, 50), st.integers(1, 70)),  # debt index, amount
        st.tuples(st.just("pay_all"), st.integers(0, 50)),
        st.tuples(st.just("net"), st.integers(0, 10)),  # one of the pairs owing both ways
    ),
    min_size=1,
    max_size=14,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=steps)
def test_balances_are_always_the_unpaid_payments(steps, season, club, secretary, monkeypatch):
    Settlement.objects.all().delete()
    Debt.objects.all().delete()
    Night.objects.filter(season=season).delete()
    players = [Player.objects.get_or_create(club=club, name=n)[0] for n in NAMES]
    figures: dict[int, dict[int, int]] = {}
    monkeypatch.setattr(ledger, "_night_nets", lambda night: figures[night.pk])
    # The model: what each player should end up owed, from the nets and the cash that moved.
    expected: dict[int, int] = defaultdict(int)
    nights: list[Night] = []
    for step in steps:
        kind = step[0]
        if kind in ("night", "correct"):
            nets = {p.pk: n for p, n in zip(players, step[1], strict=False)}
            if kind == "correct" and nights:
                night = nights[-1]
                for pk, n in figures[night.pk].items():
                    expected[pk] -= n
            else:
                night = _night(season, 1 + len(nights) % 28)
                nights.append(night)
            figures[night.pk] = nets
            for pk, n in nets.items():
                expected[pk] += n
            sync_night(night, secretary)
        elif kind in ("pay", "pay_all"):
            debts = ledger.open_debts(club)
            if not debts:
                continue
            debt = debts[step[1] % len(debts)]
            amount = None if kind == "pay_all" else step[2]
            if amount is not None and amount > debt.outstanding:
                with pytest.raises(LedgerError):
                    mark_paid(debt, amount, secretary, club=club)
                continue
            paid = mark_paid(debt, amount, secretary, club=club)
            expected[debt.payee_id] -= paid.amount
            expected[debt.payer_id] += paid.amount
        else:
            pairs = ledger.nettable_pairs(ledger.owed_pairs(club), {p.pk: p for p in players})
            first, second = (
                (pairs[step[1] % len(pairs)].first, pairs[step[1] % len(pairs)].second)
                if pairs
                else (players[0], players[step[1] % 4 + 1])
            )
            before = balances(club, [p.pk for p in players])
            try:
                net_pair(club, first, second, secretary)
                event("netted")
            except LedgerError:
                event("nothing to net")
            # Netting never changes anyone's balance.
            assert balances(club, [p.pk for p in players]) == before
        # After every step: the balances are the sums of what is still unpaid, as the model says.
        now = balances(club, [p.pk for p in players])
        assert now == {p.pk: expected[p.pk] for p in players}
        unpaid = defaultdict(int)
        for debt in ledger.open_debts(club):
            assert 0 < debt.outstanding <= debt.amount
            unpaid[debt.payee_id] += debt.outstanding
            unpaid[debt.payer_id] -= debt.outstanding
        assert {pk: v for pk, v in unpaid.items() if v} == {pk: v for pk, v in now.items() if v}
        assert sum(now.values()) == 0


@pytest.mark.django_db(transaction=True)
def test_two_people_marking_the_same_payment_at_once_never_pay_more_than_owed(
    night, table4, players, secretary, club
):
    """The secretary and the payee both mark Ann's 6p paid at the same moment, 10 times over
    on fresh debts: the debt row lock lets one through, the other is refused (or, on SQLite, told
    the database is busy); the settlements never exceed the debt."""
    import threading

    from django.db import connection

    play(table4, secretary, players[1], "solo", 5)
    close_night(night, secretary)
    debt = Debt.objects.get(night=night, payer=players[0])
    for attempt in range(10):
        if attempt:
            debt = Debt.objects.create(
                club=club, night=night, payer=players[0], payee=players[1], amount=6
            )
        barrier = threading.Barrier(2)
        outcomes = []

        def pay(debt=debt, barrier=barrier, outcomes=outcomes):
            try:
                barrier.wait()
                outcomes.append(mark_paid(debt, 5, secretary, club=club).amount)
            except Exception as error:
                outcomes.append(error)
            finally:
                connection.close()

        threads = [threading.Thread(target=pay) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        paid = sum(s.amount for s in Settlement.objects.filter(debt=debt))
        assert paid == 5, outcomes
        refused = [o for o in outcomes if not isinstance(o, int)]
        assert len(refused) == 1
        if connection.vendor == "postgresql":
            assert isinstance(refused[0], LedgerError) and "only £0.01" in str(refused[0])
        else:
            assert isinstance(refused[0], LedgerError) or "locked" in str(refused[0])


def test_a_night_whose_money_owed_was_paid_cannot_be_deleted(
    night, table4, players, secretary, club
):
    """Money records never lose their history. A reopened night can be deleted while
    nobody has paid any of its money owed, not after."""
    from club.clubs.services.setup import SetupError
    from club.play.services.night_setup import delete_night
    from club.play.services.nights import reopen_night

    ann, bob = players[:2]
    play(table4, secretary, bob, "solo", 5)
    close_night(night, secretary)
    mark_paid(Debt.objects.get(night=night, payer=ann), 4, secretary, club=club)
    reopen_night(night, secretary)
    with pytest.raises(SetupError, match="1 payment of its money owed"):
        delete_night(night, secretary)
    assert Night.objects.filter(pk=night.pk).exists()
    assert Settlement.objects.filter(debt__night=night, amount=4).count() == 1


def test_a_reopened_night_with_nothing_paid_can_still_be_deleted(night, table4, players, secretary):
    from club.play.services.night_setup import delete_night
    from club.play.services.nights import reopen_night

    play(table4, secretary, players[1], "solo", 5)
    close_night(night, secretary)
    reopen_night(night, secretary)
    delete_night(night, secretary)
    assert not Night.objects.filter(pk=night.pk).exists()
    assert not Debt.objects.exists()
