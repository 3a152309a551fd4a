"""Whom a player owes and who owes him, over all seasons: each other player once, with the net of
what is still owed between the two (so a debt each way shows as the difference)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from club.clubs.models import Club, Player
from club.money.services import ledger


@dataclass(frozen=True)
class Counterpart:
    """Another player and what is still owed between the two, in the club's minor unit (> 0)."""

    player: Player
    amount: int


@dataclass(frozen=True)
class WhomToPay:
    owes: list[Counterpart] = field(default_factory=list)  # whom this player pays
    owed: list[Counterpart] = field(default_factory=list)  # who pays this player

    @property
    def balance(self) -> int:
        """+: others owe him on balance; -: he owes."""
        return sum(c.amount for c in self.owed) - sum(c.amount for c in self.owes)


def whom_to_pay(club: Club, player: Player) -> WhomToPay:
    """One query over the player's open debts."""
    net: dict[int, int] = defaultdict(int)  # other player's id -> + they owe him, - he owes them
    others: dict[int, Player] = {}
    for debt in ledger.open_debts(club, player):
        if debt.payee_id == player.pk:
            net[debt.payer_id] += debt.outstanding
            others[debt.payer_id] = debt.payer
        else:
            net[debt.payee_id] -= debt.outstanding
            others[debt.payee_id] = debt.payee

    def ordered(rows: list[Counterpart]) -> list[Counterpart]:
        return sorted(rows, key=lambda c: (-c.amount, c.player.name))

    return WhomToPay(
        owes=ordered([Counterpart(others[pk], -v) for pk, v in net.items() if v < 0]),
        owed=ordered([Counterpart(others[pk], v) for pk, v in net.items() if v > 0]),
    )
