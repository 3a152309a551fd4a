"""Money owed: a night's settle-up payments become IOUs (`Debt`) until paid.

Every change is a new row (a `Settlement`: paid, netted or voided) and every balance is a sum over
rows, never a stored figure. A debt's outstanding amount is its amount less its settlements; a
player's balance is what the others still owe them less what they still owe.

Each write locks the debts it settles (SELECT ... FOR UPDATE) so that two people marking the same
payment at once cannot together pay more than is owed. Points clubs have no debts at all.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, IntegerField, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

import scoring
from club.clubs.models import AuditEvent, Club, Player
from club.money.models import Debt, Netting, Settlement
from club.play.models import Night, ScoreLine, TableLink


class LedgerError(Exception):
    """A change to the ledger refused; the message says why."""


def keeps_ledger(club: Club) -> bool:
    """Money clubs carry what is owed; a points club has nothing to pay."""
    return club.unit_kind == Club.UnitKind.MONEY


def _settled_subquery(kinds: tuple[str, ...] | None = None) -> Subquery:
    settlements = Settlement.objects.filter(debt=OuterRef("pk"), undone_at__isnull=True)
    if kinds is not None:
        settlements = settlements.filter(kind__in=kinds)
    return Subquery(
        settlements.order_by().values("debt").annotate(total=Sum("amount")).values("total")[:1],
        output_field=IntegerField(),
    )


class Outstanding(TypedDict):
    """What with_outstanding adds to each debt."""

    settled: int
    outstanding: int


if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    # A debt read with what is still owed on it (see with_outstanding).
    OwedDebt = WithAnnotations[Debt, Outstanding]
else:
    OwedDebt = Debt


def with_outstanding(debts: QuerySet[Debt]) -> QuerySet[OwedDebt]:
    """Annotate each debt with `settled` and `outstanding` (amount less every settlement)."""
    return debts.annotate(settled=Coalesce(_settled_subquery(), Value(0))).annotate(
        outstanding=F("amount") - F("settled")
    )


def open_debts_query(club: Club, player: Player | None = None) -> QuerySet[OwedDebt]:
    """Debts with something still owed, oldest night first."""
    debts = Debt.objects.filter(club=club)
    if player is not None:
        debts = debts.filter(Q(payer=player) | Q(payee=player))
    return (
        with_outstanding(debts)
        .filter(outstanding__gt=0)
        .select_related("night", "payer", "payee")
        .order_by("night__date", "night_id", "id")
    )


def open_debts(club: Club, player: Player | None = None) -> list[OwedDebt]:
    """Debts with something still owed, oldest night first: one query."""
    return list(open_debts_query(club, player))


def night_debts(night: Night) -> list[OwedDebt]:
    """The night's debts (open or not) with what is outstanding on each: one query."""
    return list(
        with_outstanding(Debt.objects.filter(night=night))
        .select_related("payer", "payee")
        .order_by("payer__name", "payee__name", "id")
    )


def owed_pairs(club: Club, player_ids: list[int] | None = None) -> dict[tuple[int, int], int]:
    """(payer id, payee id) -> what the payer still owes the payee over all nights: one GROUP BY
    in the database, at most one row per pair of players whatever the number of debts."""
    debts = with_outstanding(Debt.objects.filter(club=club)).filter(outstanding__gt=0)
    if player_ids is not None:
        debts = debts.filter(Q(payer__in=player_ids) | Q(payee__in=player_ids))
    rows = debts.values("payer", "payee").annotate(total=Sum("outstanding")).order_by()
    return {(row["payer"], row["payee"]): row["total"] for row in rows}


def balances(club: Club, player_ids: list[int] | None = None) -> dict[int, int]:
    """player id -> balance (+: others owe them; -: they owe), over the unsettled debts: one query.

    Without `player_ids`, players with nothing outstanding are absent (their balance is 0)."""
    result: dict[int, int] = defaultdict(int)
    for (payer, payee), owed in owed_pairs(club, player_ids).items():
        result[payee] += owed
        result[payer] -= owed
    if player_ids is not None:
        return {pk: result.get(pk, 0) for pk in player_ids}
    return {pk: value for pk, value in result.items() if value}


def balance(player: Player) -> int:
    return balances(player.club, [player.pk])[player.pk]


def _lock(debt_ids: list[int]) -> None:
    """Lock these debts' rows, in id order (so two writers never wait on each other in a
    circle). Sums over their settlements must be read after this, in a statement of their own."""
    list(
        Debt.objects.select_for_update()
        .filter(pk__in=debt_ids)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _audit(
    club: Club,
    night: Night | None,
    user: User | None,
    subject: str,
    after: Any,
    link: TableLink | None = None,
) -> None:
    AuditEvent.objects.create(
        club=club,
        night=night,
        user=user,
        link=link,
        action=AuditEvent.Action.CREATE,
        subject=subject[:120],
        after=after,
    )


# A night's debts follow its settle-up ---------------------------------------------------------


def _night_nets(night: Night) -> dict[int, int]:
    rows = ScoreLine.objects.filter(night=night).values("player").annotate(net=Sum("amount"))
    return {row["player"]: row["net"] for row in rows.order_by()}


def settle_up_sizes(nights: list[Night]) -> dict[int, int]:
    """night id -> how many payments its settle-up has, the debts closing it makes when it has
    none yet (0 for a points club, and for winner-only points): one query."""
    if not nights or not keeps_ledger(nights[0].season.club):
        return {night.pk: 0 for night in nights}
    rows = (
        ScoreLine.objects.filter(night__in=nights)
        .values("night", "player__name")
        .annotate(net=Sum("amount"))
        .order_by()
    )
    # By name, as sync_night settles them.
    nets: dict[int, dict[str, int]] = defaultdict(dict)
    for row in rows:
        nets[row["night"]][row["player__name"]] = row["net"]
    return {
        night.pk: len(scoring.settle_up(nets[night.pk])) if sum(nets[night.pk].values()) == 0 else 0
        for night in nights
    }


def sync_night(night: Night, user: User | None = None) -> bool:
    """Make the night's debts match its settle-up; True when they changed.

    Called (inside the caller's transaction, with the night row locked) when a night is closed,
    corrected in its correction window and published. What was already paid or netted on the
    night's debts stays paid: the new debts settle each player's net less what they have paid or
    received. When the figures still agree, nothing is written, so calling it again is harmless."""
    club = night.season.club
    if not keeps_ledger(club):
        return False
    nets = _night_nets(night)
    if sum(nets.values()) != 0:
        return False  # winner-only points: nothing changes hands
    _lock(list(Debt.objects.filter(night=night).values_list("pk", flat=True)))
    debts = list(
        with_outstanding(Debt.objects.filter(night=night)).annotate(
            voided=Coalesce(_settled_subquery((Settlement.Kind.VOIDED,)), Value(0))
        )
    )
    # What each player still has to receive (+) or pay (-) for this night.
    remaining = dict(nets)
    outstanding: dict[int, int] = defaultdict(int)
    for debt in debts:
        moved = debt.amount - debt.outstanding - debt.voided  # paid or netted
        remaining[debt.payer_id] = remaining.get(debt.payer_id, 0) + moved
        remaining[debt.payee_id] = remaining.get(debt.payee_id, 0) - moved
        outstanding[debt.payee_id] += debt.outstanding
        outstanding[debt.payer_id] -= debt.outstanding
    if all(outstanding.get(pk, 0) == value for pk, value in remaining.items()) and all(
        remaining.get(pk, 0) == value for pk, value in outstanding.items()
    ):
        return False
    for debt in debts:
        if debt.outstanding > 0:
            Settlement.objects.create(
                debt=debt, amount=debt.outstanding, kind=Settlement.Kind.VOIDED, by=user
            )
    # Settled by name, as the night page shows it (club.play.queries.night.settle): the same nets
    # give the same debts whatever the players' ids (a club restored from its backup).
    names = dict(Player.objects.filter(pk__in=list(remaining)).values_list("pk", "name"))
    ids = {name: pk for pk, name in names.items()}
    payments = scoring.settle_up({names[pk]: value for pk, value in remaining.items()})
    Debt.objects.bulk_create(
        Debt(club=club, night=night, payer_id=ids[payer], payee_id=ids[payee], amount=amount)
        for payer, payee, amount in payments
    )
    return True


# Paying and netting -------------------------------------------------------------------------


@dataclass(frozen=True)
class Paid:
    debt: Debt
    amount: int
    outstanding: int  # still owed after this payment


def mark_paid(
    debt: Debt,
    amount: int | None,
    user: User | None,
    *,
    club: Club,
    note: str = "",
    via: str = "",
    link: TableLink | None = None,
) -> Paid:
    """Record `amount` (all that is owed when None) paid on the debt; refuses more than is owed.

    `club` is the club of whoever asks: a debt of another club is refused. `via` says how a
    payment marked without a login came in (a table's link, the payee's own link)."""
    with transaction.atomic():
        # Lock first, then sum: on PostgreSQL a sum read in the locking statement itself comes
        # from before the wait, so two payers would both see the whole debt still owed.
        _lock([debt.pk])
        locked = with_outstanding(Debt.objects.select_related("payer", "payee", "night")).get(
            pk=debt.pk
        )
        if locked.club_id != club.pk:
            raise LedgerError("That payment is not one of this club's.")
        owed = locked.outstanding
        if owed <= 0:
            raise LedgerError(f"{locked.payer} owes {locked.payee} nothing more on this one.")
        paying = owed if amount is None else amount
        if isinstance(paying, bool) or not isinstance(paying, int) or paying <= 0:
            raise LedgerError("Enter an amount greater than nothing.")
        if paying > owed:
            raise LedgerError(
                f"{locked.payer} owes {locked.payee} only {club.format_amount(owed)}: "
                f"{club.format_amount(paying)} is more than is owed."
            )
        Settlement.objects.create(
            debt=locked,
            amount=paying,
            kind=Settlement.Kind.PAID,
            by=user,
            note=note[:120],
            via=via[:120],
            link=link,
        )
        _audit(
            club,
            locked.night,
            user,
            f"Payment: {locked.payer} paid {locked.payee} {club.format_amount(paying)}",
            {
                "payer": locked.payer.name,
                "payee": locked.payee.name,
                "paid": paying,
                "still_owed": owed - paying,
                **({"note": note} if note else {}),
                **({"via": via} if via else {}),
            },
            link=link,
        )
    return Paid(locked, paying, owed - paying)


def undo_payment(settlement: Settlement, user: User | None, *, club: Club) -> bool:
    """A secretary takes back a payment (one marked through a link by the wrong person, say): it
    stays on record, marked undone, and the debt is owed again. False if it was undone already."""
    with transaction.atomic():
        _lock([settlement.debt_id])
        debt = Debt.objects.select_related("payer", "payee", "night").get(pk=settlement.debt_id)
        if debt.club_id != club.pk or settlement.kind != Settlement.Kind.PAID:
            raise LedgerError("That payment is not one this club can undo.")
        if not Settlement.objects.filter(pk=settlement.pk, undone_at__isnull=True).update(
            undone_at=timezone.now(), undone_by=user
        ):
            return False
        amount = club.format_amount(settlement.amount)
        _audit(
            club,
            debt.night,
            user,
            f"Payment undone: {debt.payer} paid {debt.payee} {amount}",
            {"payer": debt.payer.name, "payee": debt.payee.name, "undone": settlement.amount}
            | ({"via": settlement.via} if settlement.via else {}),
        )
    return True


def link_payments(debt_ids: list[int]) -> dict[int, list[Settlement]]:
    """Payments marked without a login (a table's link, a payee's own link) on these debts, by
    debt id, newest first, undone ones included: one query."""
    found: dict[int, list[Settlement]] = defaultdict(list)
    rows = (
        Settlement.objects.filter(debt_id__in=debt_ids, kind=Settlement.Kind.PAID)
        .exclude(via="")
        .order_by("-at", "-id")
    )
    for settlement in rows:
        found[settlement.debt_id].append(settlement)
    return dict(found)


@dataclass(frozen=True)
class Netted:
    amount: int
    payer: Player  # who still owes after netting (None-like when both are square)
    payee: Player
    left: int  # the one payment left between them


def net_pair(club: Club, first: Player, second: Player, user: User | None) -> Netted:
    """Set off what two players owe each other across nights, as one recorded action.

    Ann owes Bob 40 from last week and Bob owes Ann 25 tonight: 25 is netted off both sides
    (oldest debts first) and one payment of 15 from Ann to Bob is left. Balances do not move."""
    if first.pk == second.pk:
        raise LedgerError("Choose two different players.")
    if first.club_id != club.pk or second.club_id != club.pk:
        raise LedgerError("Both players must be players of this club.")
    with transaction.atomic():
        pair = [first, second]
        between = Debt.objects.filter(club=club, payer__in=pair, payee__in=pair)
        _lock(list(between.values_list("pk", flat=True)))
        debts = list(
            with_outstanding(between)
            .filter(outstanding__gt=0)
            .select_related("night")
            .order_by("night__date", "night_id", "id")
        )
        one_way = [d for d in debts if d.payer_id == first.pk]
        other_way = [d for d in debts if d.payer_id == second.pk]
        owed_one = sum(d.outstanding for d in one_way)
        owed_other = sum(d.outstanding for d in other_way)
        amount = min(owed_one, owed_other)
        if amount == 0:
            raise LedgerError(
                f"{first} and {second} do not owe each other both ways: nothing to net."
            )
        netting = Netting.objects.create(club=club, by=user, amount=amount)
        for side in (one_way, other_way):
            left = amount
            for debt in side:
                if left == 0:
                    break
                take = min(left, debt.outstanding)
                Settlement.objects.create(
                    debt=debt, amount=take, kind=Settlement.Kind.NETTED, netting=netting, by=user
                )
                left -= take
        payer, payee = (first, second) if owed_one > owed_other else (second, first)
        left = abs(owed_one - owed_other)
        _audit(
            club,
            None,
            user,
            f"Netting: {first} and {second} set off {club.format_amount(amount)}",
            {
                first.name: -owed_one + owed_other,
                "netted": amount,
                "left": f"{payer} pays {payee} {club.format_amount(left)}" if left else "square",
            },
        )
    return Netted(amount, payer, payee, left)


@dataclass(frozen=True)
class Pair:
    """Two players who owe each other both ways: netting would save a payment."""

    first: Player
    second: Player
    first_owes: int
    second_owes: int

    @property
    def netted(self) -> int:
        return min(self.first_owes, self.second_owes)


def nettable_pairs(owed: dict[tuple[int, int], int], players: dict[int, Player]) -> list[Pair]:
    """From what each pair owes (owed_pairs), the pairs who owe each other in both directions."""
    pairs = []
    for (a, b), amount in sorted(owed.items()):
        back = owed.get((b, a), 0)
        if a < b and amount and back:
            pairs.append(Pair(players[a], players[b], amount, back))
    return sorted(pairs, key=lambda p: (p.first.name.lower(), p.second.name.lower()))


def marked_for_payee(
    player: Player, night: Night | None = None, limit: int = 20
) -> list[Settlement]:
    """Payments to this player that someone marked without a login (a table's link, their own
    link), newest first: what the payee is shown, so a payment they never had is noticed."""
    rows = Settlement.objects.filter(debt__payee=player, kind=Settlement.Kind.PAID).exclude(via="")
    if night is not None:
        rows = rows.filter(debt__night=night)
    return list(
        rows.select_related("debt", "debt__payer", "debt__night").order_by("-at", "-id")[:limit]
    )
