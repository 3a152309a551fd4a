"""The Solo grade: how well a player does against the players they actually met, hand by hand.

Pure Python (no Django). It takes hands and returns ratings; the app stores them
(club/grades/services/grades.py). The rating arithmetic is openskill's Plackett-Luce model (Weng
and Lin's
Bayesian approximation, MIT licence): each player has a skill estimate `mu` and an uncertainty
`sigma`, which shrinks as evidence comes in. What this module decides on top of it:

**What winning a hand means.** The declaring side wins when the scoring core says the contract was
made (after any revoke penalty), and loses when it failed; over- and under-tricks do not count. The
hand is rated the way it is paid: against each opponent. A solo, misère or abundance is one duel
between the declarer and each opponent (three duels at a table of four, two at a table of three),
all from the ratings before the hand and added up, so the declarer moves about three times as far as
each opponent, as the money does. Prop & Cop is one game between the two pairs. (Rating the
declarer against the three opponents as one team would sum their skills and make every lone
declarer a heavy underdog.) An all-passed hand that is redealt is not rated; a general misère is a
loss for the player who took the last trick against each other player. The player sitting out at a
table of five is not in the hand at all.

**Weight of a hand.** A hand counts as much as the square root of its contract's stake in the
`standard` preset's units (Prop & Cop and solo 1, misère 2, abundance 3, open misère 4, abundance
declared 6; a general misère at the solo stake): a failed open misère tells more than a failed solo,
but not six times as much, because the big calls come with big hands. The weight scales the
change of `mu` and raises the shrinking factor of `sigma` to its power, as if the hand had been
seen that many times. A fixed scale, not the hand's rule set: grades of clubs under different
stakes compare, and re-scoring a season under another rule set leaves them alone.

**Older hands count less.** Before each hand every player's `sigma` grows a little (openskill's
`tau`, per hand) and, for the days since the player last played, by `TAU_PER_DAY` per day, never
beyond a newcomer's. A player back after a year away is less certain, so their new results move
them further than their old ones hold them: old results fade without being deleted.

**What is shown.** The grade is `GRADE_BASE + GRADE_SCALE * (mu - MU)` (a newcomer is 1000) with
"±" two sigmas on the same scale (about 95 % sure). It is provisional until the player has played
`MIN_HANDS` rated hands.

**Order.** Ratings are path-dependent, so hands are rated in one documented order: each hand's
`order` key, which the app makes (night date, night id, round, table number, hand number). Hands
of the same round at different tables never share a player, so their order makes no difference
at all (`rate` gives the same ratings); only hands that share players depend on their order, and
that is the order they were played in. The arithmetic is deterministic floating point.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from scoring.contracts import ALL_PASSED, MISDEAL, Contract

MU = 25.0
SIGMA = MU / 3  # a newcomer's uncertainty
BETA = MU / 6
TAU_PER_HAND = MU / 300  # openskill's default dynamics, once per hand played
TAU_PER_DAY = 0.2  # a year away adds about 3.8 to a settled sigma (sqrt(365) * 0.2)
MIN_HANDS = 60  # rated hands before a grade stops being provisional
GRADE_BASE = 1000
GRADE_SCALE = 40  # grade points per unit of mu

# The `standard` preset's base stakes (DESIGN.md section 4): the weight of a hand is their root.
STANDARD_STAKES = {
    Contract.PROP_COP: 1,
    Contract.SOLO: 1,
    Contract.MISERE: 2,
    Contract.ABUNDANCE: 3,
    Contract.ROYAL_ABUNDANCE: 3,
    Contract.OPEN_MISERE: 4,
    Contract.ABUNDANCE_DECLARED: 6,
}
GENERAL_MISERE_STAKE = 1  # played at the solo stake

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=0.0)


@dataclass(frozen=True)
class Rating:
    """One player's rating after the hands so far."""

    mu: float = MU
    sigma: float = SIGMA
    hands: int = 0  # rated hands played
    day: int | None = None  # the day (date ordinal) of the last rated hand

    def aged(self, day: int) -> Rating:
        """The rating at the start of a hand played on `day`: less certain with time away, and a
        little less certain with every hand (so that it never freezes)."""
        variance = self.sigma**2 + TAU_PER_HAND**2
        if self.day is not None and day > self.day:
            variance += TAU_PER_DAY**2 * (day - self.day)
        return replace(self, sigma=min(SIGMA, math.sqrt(variance)))


@dataclass(frozen=True)
class GradeHand:
    """A hand as the grade sees it: one side against the rest, and who won."""

    # The key hands are rated in: anything that sorts (the app: date, night, round, table, number).
    order: Any
    day: int  # the date's ordinal, for the ageing
    side: tuple[str, ...]  # the declarer, or the Prop & Cop pair, or a general misère's loser
    rest: tuple[str, ...]  # everyone else taking part (not a player sitting out)
    side_won: bool
    weight: float = 1.0

    @property
    def players(self) -> tuple[str, ...]:
        return self.side + self.rest

    @property
    def is_pairs(self) -> bool:
        return len(self.side) == 2


def stake_weight(contract: str) -> float:
    """How much a hand of this contract counts (see the module's docstring)."""
    if contract == ALL_PASSED:
        return math.sqrt(GENERAL_MISERE_STAKE)
    return math.sqrt(STANDARD_STAKES[Contract(contract)])


def grade_hand(
    order: Any,
    day: int,
    players: Sequence[str],
    contract: str,
    declarer: str | None,
    partner: str | None,
    made: bool | None,
    last_trick_by: str | None = None,
) -> GradeHand | None:
    """The hand as a result between sides, or None when it is not rated (all passed and
    redealt, cards wrongly dealt, a deal void for revokes on both sides: `made` None). `players`
    are those taking part, `made` the scoring core's result."""
    if contract == MISDEAL or (contract != ALL_PASSED and made is None):
        return None
    if contract == ALL_PASSED:
        if last_trick_by is None:
            return None
        side: tuple[str, ...] = (last_trick_by,)
        won = False
    else:
        if declarer is None or made is None:
            raise ValueError("A contract needs a declarer and a result")
        side = (declarer,) if partner is None else (declarer, partner)
        won = made
    rest = tuple(p for p in players if p not in side)
    if not rest or any(p not in players for p in side):
        raise ValueError("Every side of a rated hand must be at the table")
    return GradeHand(order, day, side, rest, won, stake_weight(contract))


def _weighted(
    before: PlackettLuceRating, after: PlackettLuceRating, weight: float
) -> tuple[float, float]:
    """The change of one game, counted `weight` times: mu moves `weight` times as far, and sigma
    shrinks by the game's factor to the power `weight`."""
    return (after.mu - before.mu) * weight, (after.sigma / before.sigma) ** weight


def rate_hand(ratings: Mapping[str, Rating], hand: GradeHand) -> dict[str, Rating]:
    """The new ratings of the hand's players (players not in `ratings` start as newcomers)."""
    start = {p: ratings.get(p, Rating()).aged(hand.day) for p in hand.players}
    model = {p: _MODEL.rating(mu=r.mu, sigma=r.sigma) for p, r in start.items()}
    ranks = [0, 1] if hand.side_won else [1, 0]
    moved = {p: 0.0 for p in hand.players}
    shrunk = {p: 1.0 for p in hand.players}
    if hand.is_pairs:
        games = [(hand.side, hand.rest)]
    else:  # one duel against each opponent, all from the ratings before the hand
        games = [(hand.side, (opponent,)) for opponent in hand.rest]
    for side, rest in games:
        teams = [[model[p] for p in side], [model[p] for p in rest]]
        after = _MODEL.rate(teams, ranks=list(ranks))
        for names, team, new_team in zip((side, rest), teams, after, strict=True):
            for player, old, new in zip(names, team, new_team, strict=True):
                d_mu, factor = _weighted(old, new, hand.weight)
                moved[player] += d_mu
                shrunk[player] *= factor
    return {
        p: Rating(
            mu=start[p].mu + moved[p],
            sigma=start[p].sigma * shrunk[p],
            hands=start[p].hands + 1,
            day=hand.day,
        )
        for p in hand.players
    }


def replay(
    hands: Iterable[GradeHand], start: Mapping[str, Rating] | None = None
) -> Iterator[tuple[GradeHand, dict[str, Rating]]]:
    """Rate the hands in their `order` from the `start` ratings; yields each hand with its
    players' ratings after it (the snapshots the app keeps)."""
    ratings = dict(start or {})
    for hand in sorted(hands, key=lambda h: h.order):
        after = rate_hand(ratings, hand)
        ratings.update(after)
        yield hand, after


def rate(
    hands: Iterable[GradeHand], start: Mapping[str, Rating] | None = None
) -> dict[str, Rating]:
    """Every player's rating after the hands (and the `start` ratings of anyone not in them)."""
    ratings = dict(start or {})
    for _, after in replay(hands, start):
        ratings.update(after)
    return ratings


@dataclass(frozen=True)
class Grade:
    """A rating as the pages show it: "1,084 ± 96", provisional before MIN_HANDS hands."""

    value: int
    plus_minus: int
    hands: int
    provisional: bool

    def __str__(self) -> str:
        text = f"{self.value:,} ± {self.plus_minus:,}"
        return f"{text} (provisional)" if self.provisional else text


def grade_value(mu: float) -> int:
    return round(GRADE_BASE + GRADE_SCALE * (mu - MU))


def shown(rating: Rating, min_hands: int = MIN_HANDS) -> Grade:
    return Grade(
        value=grade_value(rating.mu),
        plus_minus=round(2 * GRADE_SCALE * rating.sigma),
        hands=rating.hands,
        provisional=rating.hands < min_hands,
    )
