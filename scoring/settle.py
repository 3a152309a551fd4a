"""Settle-up: the fewest payments that bring every player's net for a night to zero."""

from __future__ import annotations

from collections.abc import Mapping

# Up to this many players with a non-zero net (after the pairs whose nets cancel, which are always
# settled pairwise), the answer is exactly minimal (a search over the 2^n subsets, about 0.2 s at
# 18); beyond it a greedy pass needs at most n - 1 payments.
EXACT_LIMIT = 18

Payment = tuple[str, str, int]  # (payer, payee, amount)


def settle_up(nets: Mapping[str, int]) -> list[Payment]:
    """The fewest (payer, payee, amount) payments settling `nets`; ValueError unless they sum to 0.

    The minimum number of payments is n - k, where k is the largest number of groups the players
    can be split into with every group summing to zero: each group settles in (size - 1) payments.
    """
    for player, net in nets.items():
        if isinstance(net, bool) or not isinstance(net, int):
            raise ValueError(f"{player}'s net must be a whole number of units, not {net!r}")
    total = sum(nets.values())
    if total != 0:
        raise ValueError(f"The nets do not balance: they sum to {total}, not 0")
    live = sorted((p, n) for p, n in nets.items() if n != 0)
    pairs, rest = _cancelling_pairs(live)
    groups = pairs + (_zero_sum_groups(rest) if len(rest) <= EXACT_LIMIT else [rest])
    payments: list[Payment] = []
    for group in groups:
        payments.extend(_settle_group(group))
    return sorted(payments)


def _cancelling_pairs(
    live: list[tuple[str, int]],
) -> tuple[list[list[tuple[str, int]]], list[tuple[str, int]]]:
    """Pair off players whose nets cancel (x and -x), in name order; returns the pairs and the rest.

    Some fewest-payments settlement always has such a pair as a group of its own: in a zero-sum
    group holding both, the others would sum to zero and make a group by themselves; across two
    groups, the pair and the rest of the two groups make as many groups again."""
    waiting: dict[int, list[tuple[str, int]]] = {}
    pairs: list[list[tuple[str, int]]] = []
    for player in live:
        partners = waiting.get(-player[1])
        if partners:
            pairs.append([partners.pop(0), player])
        else:
            waiting.setdefault(player[1], []).append(player)
    return pairs, sorted(p for left in waiting.values() for p in left)


def _zero_sum_groups(live: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Split the players into the most groups that each sum to zero."""
    n = len(live)
    if n == 0:
        return []
    values = [net for _, net in live]
    size = 1 << n
    sums = [0] * size
    best = [0] * size  # best[mask]: most zero-sum groups the players of `mask` split into
    for mask in range(1, size):
        low = mask & -mask
        i = low.bit_length() - 1
        sums[mask] = sums[mask ^ low] + values[i]
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            candidate = best[mask ^ bit]
            if candidate > most:
                most = candidate
            rest ^= bit
        best[mask] = most + (1 if sums[mask] == 0 else 0)

    # Walk back from everybody, peeling one player at a time along an optimal path; each time the
    # remaining set sums to zero, the players peeled since the last such point form a group.
    groups: list[list[tuple[str, int]]] = []
    mask = size - 1
    current: list[tuple[str, int]] = []
    while mask:
        gain = 1 if sums[mask] == 0 else 0
        if gain and current:
            groups.append(current)
            current = []
        rest = mask
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] == best[mask] - gain:
                break
            rest ^= bit
        current.append(live[bit.bit_length() - 1])
        mask ^= bit
    groups.append(current)
    return groups


def _settle_group(group: list[tuple[str, int]]) -> list[Payment]:
    """Settle a zero-sum group in at most size - 1 payments, biggest debtor to biggest creditor."""
    debtors = sorted(((-net, p) for p, net in group if net < 0), reverse=True)
    creditors = sorted(((net, p) for p, net in group if net > 0), reverse=True)
    payments: list[Payment] = []
    d = c = 0
    owed = [amount for amount, _ in debtors]
    due = [amount for amount, _ in creditors]
    while d < len(debtors) and c < len(creditors):
        amount = min(owed[d], due[c])
        payments.append((debtors[d][1], creditors[c][1], amount))
        owed[d] -= amount
        due[c] -= amount
        if owed[d] == 0:
            d += 1
        if due[c] == 0:
            c += 1
    return payments
