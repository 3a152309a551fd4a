"""Tournament seating: which players sit together at each table in each round.

`plan(players, rounds, seed)` returns one list per round of tables, each table a list of players in
seat order. It is pure and deterministic for a seed: every random choice comes from a
`random.Random` seeded from `seed` (string seeds hash through SHA-512, so `PYTHONHASHSEED` plays no
part), and no set of names is ever iterated without sorting it first.

What a plan guarantees:

* every current player sits exactly once in every planned round, at tables sized by `table_sizes`;
* sitting out is shared fairly, as a hard rule: each round the seats at the odd tables (tables of 5,
  where one player sits out each hand, or tables of 3) go to the players who have had the fewest
  such seats so far, so that nobody gets a second odd-table seat before everyone has had one, at
  every prefix of the rounds (a late entrant starts with none, so catches up first);
* repeated meetings are kept as few as it can: where an explicit design exists (the affine
  geometries over GF(4), for 16 and 64 players) its parallel classes are the first rounds, so that
  no two players meet twice; otherwise each round is built greedily and improved by a bounded tabu
  search that minimises, lexicographically, the largest number of times any pair has met and then
  the number of pairs meeting again;
* rounds are planned one at a time, each from its own seeded generator, so a plan for fewer rounds
  is a prefix of the plan for more rounds, and re-planning with `played` set to a prefix of a plan
  for the same players gives back that plan.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations, product

__all__ = ["max_meetings", "meetings", "plan", "table_sizes"]

Table = list[str]
Round = list[Table]
Plan = list[Round]
# What the functions accept as a plan: any sequences, such as tuples read back from the database.
PlanLike = Sequence[Sequence[Sequence[str]]]

# Tables of these sizes give the odd seats: at a 5 one player sits out each hand, at a 3 there is
# no Prop & Cop. Either is a lesser evening, so these seats are shared out in turn.
ODD_SIZES = (3, 5)

# The tabu search per round stops after this many moves without finding a better round. Measured
# on fields of 6 to 60 over 8 rounds, ten times the patience found no fewer repeats (what is left is
# forced by the earlier rounds and the sitting-out rule) and only cost time.
SEARCH_PATIENCE = 300
# Every round's search stops after this many moves whatever happens, so running time is bounded.
SEARCH_LIMIT = 2000


def table_sizes(n: int) -> list[int]:
    """The table sizes for `n` players, largest first.

    Tables of 4 are the game, so there are as many of them as possible. When `n` is not a multiple
    of 4, `n % 4` of the tables become tables of 5 (one player sits out each hand), which needs
    `n >= 5 * (n % 4)`. Only when that fails (n = 3, 6, 7, 11) do tables of 3 take up the slack
    instead: 3, 3+3, 4+3 and 4+4+3. A table of 2 or 6 is never used. Fewer than 3 players cannot
    make a table, so that raises ValueError.
    """
    if n < 3:
        raise ValueError(f"Seating needs at least 3 players, not {n}")
    fives = n % 4
    if 5 * fives <= n:
        return [5] * fives + [4] * ((n - 5 * fives) // 4)
    # Here n % 4 is 2 or 3 and n is 3, 6, 7 or 11: (4 - n % 4) tables of 3 leave a multiple of 4.
    threes = 4 - fives
    return [4] * ((n - 3 * threes) // 4) + [3] * threes


def meetings(plan: PlanLike) -> dict[tuple[str, str], int]:
    """How many rounds each pair shares a table, keyed by the pair in sorted order.

    Pairs who never meet are left out, so the report lists only who has met whom.
    """
    counts: dict[tuple[str, str], int] = {}
    for round_ in plan:
        for table in round_:
            for a, b in combinations(sorted(table), 2):
                counts[(a, b)] = counts.get((a, b), 0) + 1
    return dict(sorted(counts.items()))


def max_meetings(plan: PlanLike) -> int:
    """The most rounds any pair of players shares a table (0 for a plan with no pairs)."""
    return max(meetings(plan).values(), default=0)


def plan(
    players: Sequence[str],
    rounds: int,
    seed: int = 0,
    played: PlanLike | None = None,
) -> Plan:
    """Seat `players` for `rounds` rounds in all.

    `played` is the rounds already played, in the same shape as the result; they may include
    players who have since withdrawn, and leave out players who have since entered. The result
    begins with exactly those rounds, unchanged, and plans the rest for the current players,
    counting the meetings and odd-table seats of the played rounds too. A late entrant has had no
    odd-table seat, so is among the first to be given one.

    Raises ValueError for fewer than 3 players, a name given twice or blank, fewer than one round,
    fewer rounds than were played, or a played round that seats someone twice.
    """
    names = _check_players(players)
    if rounds < 1:
        raise ValueError(f"A plan needs at least one round, not {rounds}")
    history = _check_played(played or [])
    if rounds < len(history):
        raise ValueError(
            f"{len(history)} rounds have been played, more than the {rounds} asked for"
        )

    index = {name: i for i, name in enumerate(names)}
    count = [[0] * len(names) for _ in names]
    odd_seats = [0] * len(names)
    for round_ in history:
        _record(round_, index, count, odd_seats)

    design = _affine_rounds(names, seed)
    result: Plan = [[list(table) for table in round_] for round_ in history]
    # The explicit design is only followed while the rounds played so far are its own rounds (so
    # re-planning an unchanged field after some of its rounds carries on with the same design).
    following = _same_rounds(history[: len(design)], design[: len(history)])
    while len(result) < rounds:
        number = len(result)
        if following and number < len(design):
            new = design[number]
        else:
            new = _plan_round(names, count, odd_seats, random.Random(f"seating:{seed}:{number}"))
        _record(new, index, count, odd_seats)
        result.append(new)
    return result


def _check_players(players: Sequence[str]) -> list[str]:
    names = list(players)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"A player's name must be a non-blank string, not {name!r}")
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ValueError(f"{name!r} is entered twice")
        seen.add(name)
    table_sizes(len(names))  # raises for too few players
    return names


def _check_played(played: PlanLike) -> Plan:
    history: Plan = []
    for number, round_ in enumerate(played, start=1):
        seated: set[str] = set()
        for table in round_:
            for name in table:
                if name in seated:
                    raise ValueError(f"{name!r} sits twice in played round {number}")
                seated.add(name)
        history.append([list(table) for table in round_])
    return history


def _record(
    round_: Sequence[Sequence[str]], index: dict[str, int], count: list[list[int]], odd: list[int]
) -> None:
    """Add one round's meetings and odd-table seats to the running totals of the current players.

    Players no longer in the field are skipped: their meetings cannot matter any more.
    """
    for table in round_:
        seats = [index[name] for name in table if name in index]
        for a, b in combinations(seats, 2):
            count[a][b] += 1
            count[b][a] += 1
        if len(table) in ODD_SIZES:
            for p in seats:
                odd[p] += 1


def _same_rounds(a: PlanLike, b: PlanLike) -> bool:
    """Whether two lists of rounds seat the same groups, ignoring table and seat order."""

    def groups(rounds: PlanLike) -> list[list[tuple[str, ...]]]:
        return [sorted(tuple(sorted(table)) for table in round_) for round_ in rounds]

    return groups(a) == groups(b)


# GF(4) = {0, 1, w, w + 1} coded as 0..3: addition is XOR, and multiplication goes through
# logarithms to the base w, since the non-zero elements are 1, w, w^2 = w + 1.
_GF4_LOG = {1: 0, 2: 1, 3: 2}
_GF4_EXP = (1, 2, 3)


def _gf4_mul(x: int, y: int) -> int:
    if x == 0 or y == 0:
        return 0
    return _GF4_EXP[(_GF4_LOG[x] + _GF4_LOG[y]) % 3]


def _affine_rounds(names: list[str], seed: int) -> Plan:
    """The resolvable design AG(d, 4) when there are 4**d players (d >= 2), else no rounds.

    The points of the affine space GF(4)^d are the players and its lines the tables of 4. Lines
    with one direction partition the points, so each direction is a round; any two points lie on
    exactly one line, so nobody meets anyone twice over all (4**d - 1) / 3 rounds: 5 rounds for 16
    players and 21 for 64. The seeded generator decides which player is which point, the order
    of the rounds and the seat order.
    """
    n = len(names)
    d = 0
    while 4 ** (d + 1) <= n:
        d += 1
    if d < 2 or 4**d != n:
        return []
    rng = random.Random(f"seating:{seed}:affine")
    points = list(product(range(4), repeat=d))
    where = {point: i for i, point in enumerate(points)}
    who = list(names)
    rng.shuffle(who)
    # One direction per line through the origin: the non-zero vectors whose first non-zero
    # coordinate is 1.
    directions = [v for v in points if any(v) and v[next(i for i, x in enumerate(v) if x)] == 1]
    rng.shuffle(directions)
    design: Plan = []
    for v in directions:
        lines: dict[int, list[int]] = {}
        for p in points:
            line = sorted(
                where[tuple(a ^ _gf4_mul(t, b) for a, b in zip(p, v, strict=True))]
                for t in range(4)
            )
            lines.setdefault(line[0], line)
        round_: Round = []
        for key in sorted(lines):
            table = [who[i] for i in lines[key]]
            rng.shuffle(table)
            round_.append(table)
        rng.shuffle(round_)
        design.append(round_)
    return design


def _plan_round(
    names: list[str],
    count: list[list[int]],
    odd_seats: list[int],
    rng: random.Random,
    sizes: list[int] | None = None,
) -> Round:
    """One round for the current players, given the meetings and odd-table seats so far, at
    tables of `sizes` (by default `table_sizes`; a club night's draw gives its own)."""
    n = len(names)
    sizes = sizes or table_sizes(n)
    odd_places = sum(size for size in sizes if size in ODD_SIZES)

    # Who goes to the odd tables is settled first, as a hard rule: the fewest odd seats so far,
    # ties broken by the generator. Swapping two players with equal odd seats between an odd and
    # an even table keeps that rule, so the search below may do it.
    tiebreak = [rng.random() for _ in range(n)]
    ranked = sorted(range(n), key=lambda p: (odd_seats[p], tiebreak[p]))
    to_odd = ranked[:odd_places]
    to_even = ranked[odd_places:]
    odd_table = [size in ODD_SIZES for size in sizes]

    weight = _weights(n, count)
    tables: list[list[int]] = []
    for pool, odd in ((to_odd, True), (to_even, False)):
        pool = list(pool)
        rng.shuffle(pool)
        for size in (s for s, o in zip(sizes, odd_table, strict=True) if o == odd):
            tables.append(_greedy_table(pool, size, weight))
    # The odd tables were filled first; put the tables back in size order, largest first.
    tables.sort(key=len, reverse=True)

    tables = _tabu_search(tables, weight, odd_seats, rng)
    round_: Round = []
    for table in tables:
        seats = [names[p] for p in table]
        rng.shuffle(seats)
        round_.append(seats)
    return round_


def _weights(n: int, count: list[list[int]]) -> list[list[int]]:
    """The cost of seating each pair together again, given how often they have met.

    A first meeting is free; a pair that has met c >= 1 times costs base ** (c - 1), with base
    above the number of pairs in one round. So one pair meeting for the (c + 1)-th time costs more
    than every pair meeting fewer times put together: the sum is minimised lexicographically,
    first the most meetings of any pair, then how many pairs reach it, and so on down.
    """
    base = 2 * n + 1  # a round has at most 2n pairs (10 pairs per table of 5)
    top = max((max(row) for row in count), default=0)
    cost = [0] + [base ** (c - 1) for c in range(1, top + 1)]
    return [[cost[c] for c in row] for row in count]


def _greedy_table(pool: list[int], size: int, weight: list[list[int]]) -> list[int]:
    """Take `size` players from the (shuffled) pool, each the cheapest to add to those so far."""
    table = [pool.pop()]
    while len(table) < size:
        best = min(range(len(pool)), key=lambda i: sum(weight[pool[i]][q] for q in table))
        table.append(pool.pop(best))
    return table


def _tabu_search(
    tables: list[list[int]], weight: list[list[int]], odd_seats: list[int], rng: random.Random
) -> list[list[int]]:
    """Improve a round by swapping players between tables; return the best round found.

    This is the usual tabu search for the social golfer problem: each move swaps a player who
    meets someone again with any player at another table, choosing the best such swap even when
    it makes things worse (which is what climbs out of local minima), while a player may not go
    back to the table it just left for a few moves unless that would beat the best round so far.
    Swaps between an odd and an even table are only between players with as many odd seats.
    """
    n = len(weight)
    at = [0] * n
    for t, table in enumerate(tables):
        for p in table:
            at[p] = t
    odd = [len(table) in ODD_SIZES for table in tables]
    # conflict[p][t]: what player p would cost at table t (counting p's own table without p).
    conflict = [[sum(weight[p][q] for q in table) for table in tables] for p in range(n)]
    cost = sum(conflict[p][at[p]] for p in range(n)) // 2
    best_cost, best = cost, [list(table) for table in tables]
    # tabu_until[p][t]: the step until which player p may not go back to table t, which stops the
    # search undoing a move at once and cycling.
    tabu_until = [[0] * len(tables) for _ in range(n)]
    stale = 0
    for step in range(1, SEARCH_LIMIT + 1):
        if best_cost == 0 or stale >= SEARCH_PATIENCE:
            break
        # The best swap, preferring one the tabu rule allows (or that beats the best round so
        # far); only when every swap is tabu is the best tabu swap taken, rather than stopping.
        move: tuple[bool, int, int, int] | None = None
        ties = 0
        for p in range(n):
            tp = at[p]
            if conflict[p][tp] == 0:
                continue
            for q in range(n):
                tq = at[q]
                if tq == tp or (odd[tp] != odd[tq] and odd_seats[p] != odd_seats[q]):
                    continue
                delta = (
                    conflict[p][tq]
                    + conflict[q][tp]
                    - conflict[p][tp]
                    - conflict[q][tq]
                    - 2 * weight[p][q]
                )
                tabu = max(tabu_until[p][tq], tabu_until[q][tp]) >= step
                candidate = (tabu and cost + delta >= best_cost, delta, p, q)
                if move is None or candidate[:2] < move[:2]:
                    move, ties = candidate, 1
                elif candidate[:2] == move[:2]:
                    # Among equally good swaps each is as likely to be chosen (reservoir
                    # sampling), so the search does not always favour the first players.
                    ties += 1
                    if rng.randrange(ties) == 0:
                        move = candidate
        if move is None:  # one table only: there is nobody to swap
            break
        _, delta, p, q = move
        tp, tq = at[p], at[q]
        tables[tp][tables[tp].index(p)] = q
        tables[tq][tables[tq].index(q)] = p
        at[p], at[q] = tq, tp
        for x in range(n):
            conflict[x][tp] += weight[x][q] - weight[x][p]
            conflict[x][tq] += weight[x][p] - weight[x][q]
        cost += delta
        tabu_until[p][tp] = tabu_until[q][tq] = step + 2 + rng.randrange(4)
        if cost < best_cost:
            best_cost, best, stale = cost, [list(table) for table in tables], 0
        else:
            stale += 1
    return best
