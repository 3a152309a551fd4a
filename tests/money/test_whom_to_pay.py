"""Whom a player pays and who pays him: each other player once, the net of what is still owed."""

from __future__ import annotations

import pytest

from club.money.models import Debt
from club.money.queries.whom_to_pay import whom_to_pay
from club.money.services.ledger import mark_paid


@pytest.mark.parametrize(
    ("debts", "owes", "owed"),
    [
        ([], [], []),
        # Ann owes Bob 6 and Cat 4: she pays Bob first (the larger), then Cat.
        ([("Ann", "Cat", 4), ("Ann", "Bob", 6)], [("Bob", 6), ("Cat", 4)], []),
        # A debt each way between Ann and Bob shows as the difference, once.
        ([("Ann", "Bob", 6), ("Bob", "Ann", 2)], [("Bob", 4)], []),
        ([("Ann", "Bob", 2), ("Bob", "Ann", 2)], [], []),
        (
            [("Bob", "Ann", 5), ("Dan", "Ann", 5), ("Ann", "Cat", 1)],
            [("Cat", 1)],
            [("Bob", 5), ("Dan", 5)],
        ),
    ],
)
def test_whom_ann_pays(night, players, debts, owes, owed):
    by_name = {p.name: p for p in players}
    for payer, payee, amount in debts:
        Debt.objects.create(
            club=night.season.club,
            night=night,
            payer=by_name[payer],
            payee=by_name[payee],
            amount=amount,
        )
    result = whom_to_pay(night.season.club, by_name["Ann"])
    assert [(c.player.name, c.amount) for c in result.owes] == owes
    assert [(c.player.name, c.amount) for c in result.owed] == owed
    assert result.balance == sum(a for _, a in owed) - sum(a for _, a in owes)


def test_what_is_paid_is_no_longer_owed(night, players, secretary, django_assert_num_queries):
    ann, bob = players[:2]
    club = night.season.club
    debt = Debt.objects.create(club=club, night=night, payer=ann, payee=bob, amount=6)
    mark_paid(debt, 4, secretary, club=club)
    with django_assert_num_queries(1):
        result = whom_to_pay(club, ann)
    assert [(c.player.name, c.amount) for c in result.owes] == [("Bob", 2)]
    mark_paid(debt, None, secretary, club=club)
    assert whom_to_pay(club, ann).owes == []
