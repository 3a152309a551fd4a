"""Money owed as the pages list it: each debt with what is paid, whether the reader may mark it
paid, and where the form posts. The night page, the ledger, "my results" and a table's link page
all draw their rows here, so the table page need not import the ledger's views. Where each form
posts is the page's to say (a URL is a view's business): the caller passes `pay_url`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from club.clubs.models import Club, Player
from club.money.models import Debt, Settlement
from club.money.services import ledger
from club.money.services.ledger import OwedDebt
from club.play.models import Seat, Table


class LinkedTable(Protocol):
    """A table reached through its link, as the table page's route describes it (a query module
    reads its attributes; it does not import the views that define it)."""

    @property
    def club(self) -> Club: ...
    @property
    def table(self) -> Table: ...
    @property
    def via(self) -> object | None: ...


def pay_rows(
    club: Club,
    debts: list[OwedDebt],
    can_manage: bool,
    me: Player | None,
    pay_url: Callable[[Debt], str],
    marked: dict[int, list[Settlement]] | None = None,
) -> list[dict[str, Any]]:
    """The debts as the pay partial shows them; the payee (or the secretary) may mark them paid.

    `pay_url` gives the URL each debt's form posts to; `marked` (from ledger.link_payments) the
    payments marked on each without a login, shown to the payee and, with an Undo, to the
    secretary."""
    return [
        {
            "debt": debt,
            "paid": debt.amount - debt.outstanding,
            "can_pay": debt.outstanding > 0
            and (can_manage or (me is not None and me.pk == debt.payee_id)),
            "pay_url": pay_url(debt),
            "marked": (marked or {}).get(debt.pk, []),
        }
        for debt in debts
    ]


def table_debts(table: Table) -> list[OwedDebt]:
    """The night's debts owed to the players of this table (the payees mark them at the table)."""
    seated = set(Seat.objects.filter(table=table).values_list("player", flat=True))
    return [d for d in ledger.night_debts(table.night) if d.payee_id in seated]


def link_pay_rows(
    route: LinkedTable, pay_url: Callable[[Debt], str]
) -> list[dict[str, Any]] | None:
    """The table link page's "money owed" while its night's results are provisional: what is
    owed to the players at this table, each with a form for the payee; None when there is
    nothing to show, and always once the results are published (the link then writes nothing)."""
    night, club = route.table.night, route.club
    if route.via is None or not night.is_provisional or not ledger.keeps_ledger(club):
        return None
    debts = table_debts(route.table)
    return pay_rows(club, debts, True, None, pay_url)
