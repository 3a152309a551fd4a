"""Closing a night is one transaction: when writing its debts fails, nothing of the close stays.

The night is still open (no close time, no closer, no correction window), it has no debts and no
publication, and the audit trail has no "closed" event for it; closing it again, the fault gone,
closes it with its settle-up's debts. On the real database, committed (PostgreSQL and SQLite):
the database itself refuses the debts, or the ledger's write raises before it writes them.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection

from club.clubs.models import AuditEvent
from club.money.models import Debt, Publication
from club.play.models import Night
from club.play.services.nights import close_night
from tests.kits.ledger_kit import core_payments, play

# The ledger's write that closing a night reaches, as "module.function": patched through its
# module's attribute. (A signal's receiver is connected by reference, so patching its name
# changes nothing: point this at what the receiver calls through its module.)
LEDGER_WRITE_ON_CLOSE = "club.money.services.ledger.sync_night"

TRIGGER = "test_refuse_debts"
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


class LedgerFailed(Exception):
    """The ledger's write failing, as a bug or a lost connection would make it."""


def refuse_debts() -> None:
    """The database refuses every new debt (as a constraint the settle-up broke would)."""
    table = connection.ops.quote_name(Debt._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"CREATE FUNCTION {TRIGGER}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                "RAISE EXCEPTION 'debts refused by the test' USING ERRCODE = '23514'; END $$"
            )
            cursor.execute(
                f"CREATE TRIGGER {TRIGGER} BEFORE INSERT ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION {TRIGGER}()"
            )
        else:
            cursor.execute(
                f"CREATE TRIGGER {TRIGGER} BEFORE INSERT ON {table} "
                "BEGIN SELECT RAISE(ABORT, 'debts refused by the test'); END"
            )


def accept_debts() -> None:
    table = connection.ops.quote_name(Debt._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"DROP TRIGGER IF EXISTS {TRIGGER} ON {table}")
            cursor.execute(f"DROP FUNCTION IF EXISTS {TRIGGER}()")
        else:
            cursor.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}")


@pytest.fixture
def refused_by_the_database():
    refuse_debts()
    try:
        yield IntegrityError, accept_debts
    finally:
        accept_debts()  # the trigger is schema: the flush after the test would keep it


@pytest.fixture
def raised_by_the_ledger(monkeypatch):
    calls = []

    def failing(*args, **kwargs):
        calls.append(args)
        raise LedgerFailed("the ledger could not write the night's debts")

    monkeypatch.setattr(LEDGER_WRITE_ON_CLOSE, failing)
    yield LedgerFailed, monkeypatch.undo
    assert calls, f"closing the night never reached {LEDGER_WRITE_ON_CLOSE}"


@pytest.mark.parametrize("fault", ["refused_by_the_database", "raised_by_the_ledger"])
def test_a_close_whose_debts_fail_leaves_the_night_open(
    fault, request, night, table4, players, secretary
):
    ann, bob, cat, dan = players[:4]
    play(table4, secretary, bob, "solo", 6)
    play(table4, secretary, cat, "abundance", 8)
    assert core_payments(night), "the night's settle-up makes debts to write"
    error, remove_fault = request.getfixturevalue(fault)

    with pytest.raises(error):
        close_night(night, secretary)

    stored = Night.objects.get(pk=night.pk)
    assert stored.status == Night.Status.OPEN
    assert (stored.closed_at, stored.closed_by, stored.publish_after, stored.published_at) == (
        None,
        None,
        None,
        None,
    )
    assert not Debt.objects.filter(night=night).exists()
    assert not Publication.objects.filter(night=night).exists()
    assert not AuditEvent.objects.filter(night=night, action=AuditEvent.Action.CLOSE).exists()

    # Nothing of the failed close is in the way: the fault gone, the same close goes through.
    remove_fault()
    close_night(Night.objects.get(pk=night.pk), secretary)
    assert Night.objects.get(pk=night.pk).status == Night.Status.CLOSED
    debts = Debt.objects.filter(night=night).values_list("payer__name", "payee__name", "amount")
    assert sorted(debts) == sorted(core_payments(night))
    assert AuditEvent.objects.filter(night=night, action=AuditEvent.Action.CLOSE).count() == 1
