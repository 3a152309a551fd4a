"""Every worked figure in the five rule texts (docs/rules.md lists them by title: Hoyle, the Primer,
Anna Cubed, the Bidding table and the Cash table), scored by scoring.score_hand.

Each case's id names the text (its short title) and the figure; its `quote` is the passage the
expected amounts are read from. Seats are Ann, Bob, Cat, Dan in clockwise order (Cat and Dan are
A-B-C-D's C and D).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

import scoring
from scoring import AllPassed, Contract, Hand, InvalidHand, score_hand
from scoring.table import legal_contracts, players_in_hand, sitting_out, trump_for

FOUR = ("Ann", "Bob", "Cat", "Dan")
THREE = ("Ann", "Bob", "Cat")


@dataclass(frozen=True)
class Case:
    id: str
    quote: str  # the passage of the rule text the figures come from
    rules: str  # preset name
    contract: str
    tricks: int
    amounts: dict[str, int]
    made: bool
    over: int = 0
    under: int = 0
    declarer: str = "Ann"
    partner: str | None = None
    revoke_by: str | None = None
    players: tuple[str, ...] = FOUR
    extra: dict = field(default_factory=dict)


def each(declarer_amount: int, other: int, players=FOUR, declarer="Ann") -> dict[str, int]:
    return {p: (declarer_amount if p == declarer else other) for p in players}


HOYLE_CASES = [
    # --- The Stakes: solo -------------------------------------------------------------------
    Case(
        "hoyle-solo-made-exactly-1s6d",
        "the solo, would therefore earn him who made it 1s. 6d., or more—that is, the three "
        "sixpences, with over-tricks or not",
        "hoyle",
        "solo",
        5,
        each(18, -6),
        made=True,
    ),
    Case(
        "hoyle-solo-made-two-over-or-more",
        "1s. 6d., or more—that is, the three sixpences, with over-tricks or not ... 1d. each "
        "for every trick over",
        "hoyle",
        "solo",
        7,
        each(24, -8),
        made=True,
        over=2,
    ),
    Case(
        "hoyle-solo-one-short-1s9d",
        "in the event of his failing to make five tricks, it would cost him 1s. 9d., or more, "
        "that is, three sixpences, with 3d. (or more) for the under-tricks",
        "hoyle",
        "solo",
        4,
        each(-21, 7),
        made=False,
        under=1,
    ),
    Case(
        "hoyle-solo-three-short-or-more",
        "it would cost him 1s. 9d., or more, that is, three sixpences, with 3d. (or more) for "
        "the under-tricks",
        "hoyle",
        "solo",
        2,
        each(-27, 9),
        made=False,
        under=3,
    ),
    Case(
        "hoyle-solo-no-tricks",
        "1d. for each under-trick, that is, every trick under [the target]",
        "hoyle",
        "solo",
        0,
        each(-33, 11),
        made=False,
        under=5,
    ),
    # --- The Stakes: proposition and acceptance ---------------------------------------------
    Case(
        "hoyle-prop-cop-made-exactly-6d-each",
        "the partners receive 6d. each if they make eight tricks ... It will be seen that they "
        "can each win the 6d. exactly",
        "hoyle",
        "prop_cop",
        8,
        {"Ann": 6, "Bob": 6, "Cat": -6, "Dan": -6},
        made=True,
        partner="Bob",
    ),
    Case(
        "hoyle-prop-cop-two-over",
        "and 1d. each for every trick over eight",
        "hoyle",
        "prop_cop",
        10,
        {"Ann": 8, "Bob": 8, "Cat": -8, "Dan": -8},
        made=True,
        over=2,
        partner="Bob",
    ),
    Case(
        "hoyle-prop-cop-slam-1s4d",
        "If they, however, make a 'slam,' ... they would receive 1s. 4d., that is, double for "
        "the over-tricks—five over-tricks at 2d. each = 10d., and 6d. for the original "
        "declaration",
        "hoyle",
        "prop_cop",
        13,
        {"Ann": 16, "Bob": 16, "Cat": -16, "Dan": -16},
        made=True,
        over=5,
        partner="Bob",
    ),
    Case(
        "hoyle-prop-cop-twelve-tricks-not-a-slam",
        "1d. each for every trick over eight (only the slam doubles the over-tricks)",
        "hoyle",
        "prop_cop",
        12,
        {"Ann": 10, "Bob": 10, "Cat": -10, "Dan": -10},
        made=True,
        over=4,
        partner="Bob",
    ),
    Case(
        "hoyle-prop-cop-one-short-7d-each",
        "Should they fail to make eight tricks, they pay their opponents 6d. each, and 1d. for "
        "each under-trick ... if they lose they must lose 7d. each, or more",
        "hoyle",
        "prop_cop",
        7,
        {"Ann": -7, "Bob": -7, "Cat": 7, "Dan": 7},
        made=False,
        under=1,
        partner="Bob",
    ),
    Case(
        "hoyle-prop-cop-three-short-or-more",
        "they must lose 7d. each, or more",
        "hoyle",
        "prop_cop",
        5,
        {"Ann": -9, "Bob": -9, "Cat": 9, "Dan": 9},
        made=False,
        under=3,
        partner="Bob",
    ),
    Case(
        "hoyle-prop-cop-eldest-accepts-second",
        "the eldest hand passes, the second proposes, the third and fourth pass, and the eldest "
        "hand accepts, then ... A, B would be partners against C, D",
        "hoyle",
        "prop_cop",
        9,
        {"Ann": 7, "Bob": 7, "Cat": -7, "Dan": -7},
        made=True,
        over=1,
        declarer="Bob",
        partner="Ann",
    ),
    Case(
        "hoyle-prop-cop-partners-across-the-table",
        "two players (wherever they sit), undertake to make eight of the thirteen tricks ... "
        "A pays to or receives from C, and B pays to or receives from D",
        "hoyle",
        "prop_cop",
        8,
        {"Ann": 6, "Bob": -6, "Cat": 6, "Dan": -6},
        made=True,
        partner="Cat",
    ),
    # --- The Stakes: misère -----------------------------------------------------------------
    Case(
        "hoyle-misere-made-1s-from-each",
        "If he makes the declaration, he receives 1s. from each of the others",
        "hoyle",
        "misere",
        0,
        each(36, -12),
        made=True,
    ),
    Case(
        "hoyle-misere-failed-1s-each",
        "The misère costs 1s., neither more nor less, therefore the caller risks losing 3s. in "
        "calling misère ... if he fails, he pays 1s. each",
        "hoyle",
        "misere",
        1,
        each(-36, 12),
        made=False,
    ),
    Case(
        "hoyle-misere-failed-no-under-tricks",
        "There are in this case no over or under-tricks, the misère having to be played right "
        "out to win, and being defeated directly the caller has to take a trick",
        "hoyle",
        "misere",
        6,
        each(-36, 12),
        made=False,
    ),
    # --- The Stakes: abondance --------------------------------------------------------------
    Case(
        "hoyle-abundance-made-exactly-1s6d",
        "abondances at 1s. 6d.",
        "hoyle",
        "abundance",
        9,
        each(54, -18),
        made=True,
    ),
    Case(
        "hoyle-abundance-ten-tricks-1s8d",
        "A player making ten tricks would, with double over-tricks, receive 1s. 8d. from each",
        "hoyle",
        "abundance",
        10,
        each(60, -20),
        made=True,
        over=1,
    ),
    Case(
        "hoyle-abundance-eight-tricks-1s7d",
        "if he only made eight tricks, would pay 1s. 7d. each",
        "hoyle",
        "abundance",
        8,
        each(-57, 19),
        made=False,
        under=1,
    ),
    Case(
        "hoyle-abundance-under-tricks-not-doubled",
        "it is not uncommon here to double the value of the over-tricks, but not of the "
        "under-tricks",
        "hoyle",
        "abundance",
        6,
        each(-63, 21),
        made=False,
        under=3,
    ),
    Case(
        "hoyle-royal-abundance-ten-tricks",
        "An abondance in trumps is of the same money value as another abondance",
        "hoyle",
        "royal_abundance",
        10,
        each(60, -20),
        made=True,
        over=1,
    ),
    Case(
        "hoyle-royal-abundance-eight-tricks",
        "An abondance in trumps is of the same money value as another abondance",
        "hoyle",
        "royal_abundance",
        8,
        each(-57, 19),
        made=False,
        under=1,
    ),
    Case(
        "hoyle-open-misere-double-misere-made",
        "the misère ouverte is double the price of the ordinary misère",
        "hoyle",
        "open_misere",
        0,
        each(72, -24),
        made=True,
    ),
    Case(
        "hoyle-open-misere-double-misere-failed",
        "the misère ouverte is double the price of the ordinary misère",
        "hoyle",
        "open_misere",
        3,
        each(-72, 24),
        made=False,
    ),
    Case(
        "hoyle-abundance-declared-double-abundance",
        "the abondance declarée double the price of the ordinary abondance",
        "hoyle",
        "abundance_declared",
        13,
        each(108, -36),
        made=True,
    ),
    Case(
        "hoyle-abundance-declared-one-lost-no-under-tricks",
        "There are no under-tricks at the call of an abondance declarée, as the caller is "
        "beaten directly he loses a trick",
        "hoyle",
        "abundance_declared",
        12,
        each(-108, 36),
        made=False,
    ),
    Case(
        "hoyle-abundance-declared-many-lost-still-no-under-tricks",
        "There are no under-tricks at the call of an abondance declarée",
        "hoyle",
        "abundance_declared",
        8,
        each(-108, 36),
        made=False,
    ),
    # --- A Digest of the Laws: revokes ------------------------------------------------------
    Case(
        "hoyle-revoke-solo-caller-made-eight-pays-6d",
        "supposing a solo-caller revokes, and he has made eight or nine tricks, he would, after "
        "the penalty was paid, have made enough to win the solo. He then only pays 6d., at the "
        "stakes which we have been explaining, to each of his opponents",
        "hoyle",
        "solo",
        8,
        each(-18, 6),
        made=False,
        revoke_by="Ann",
    ),
    Case(
        "hoyle-revoke-solo-caller-made-nine-pays-6d",
        "supposing a solo-caller revokes, and he has made eight or nine tricks ... He then only "
        "pays 6d. ... to each of his opponents",
        "hoyle",
        "solo",
        9,
        each(-18, 6),
        made=False,
        revoke_by="Ann",
    ),
    Case(
        "hoyle-revoke-solo-caller-drops-one-below",
        "If, however, the forfeiture of the tricks brings the offender's number down below the "
        "score required by the declaration, then for each trick short the agreed-upon price of "
        "an under-trick must also be paid",
        "hoyle",
        "solo",
        7,
        each(-21, 7),
        made=False,
        under=1,
        revoke_by="Ann",
    ),
    Case(
        "hoyle-revoke-solo-caller-drops-two-below",
        "for each trick short the agreed-upon price of an under-trick must also be paid",
        "hoyle",
        "solo",
        6,
        each(-24, 8),
        made=False,
        under=2,
        revoke_by="Ann",
    ),
    Case(
        "hoyle-revoke-abundance-caller-drops-below",
        "The penalty for every revoke is the loss of three tricks from the score of the revoking "
        "side ... for each trick short the agreed-upon price of an under-trick must also be paid",
        "hoyle",
        "abundance",
        10,
        each(-60, 20),
        made=False,
        under=2,
        revoke_by="Ann",
    ),
    Case(
        "hoyle-revoke-prop-cop-partners-share-the-fine",
        "The actual offender pays the stakes in all cases of a revoke, except in the instance of "
        "a proposer and acceptor, who, being voluntary partners, pay the fine between them",
        "hoyle",
        "prop_cop",
        9,
        {"Ann": -8, "Bob": -8, "Cat": 8, "Dan": 8},
        made=False,
        under=2,
        partner="Bob",
        revoke_by="Bob",
    ),
    Case(
        "hoyle-revoke-prop-cop-partners-still-enough-tricks",
        "No revoking player or partnership can win a declaration ... he simply loses the "
        "declaration",
        "hoyle",
        "prop_cop",
        12,
        {"Ann": -6, "Bob": -6, "Cat": 6, "Dan": 6},
        made=False,
        partner="Bob",
        revoke_by="Ann",
    ),
    Case(
        "hoyle-revoke-defender-against-solo-pays-for-the-side",
        "The actual offender pays the stakes in all cases of a revoke",
        "hoyle",
        "solo",
        3,
        {"Ann": 21, "Bob": -21, "Cat": 0, "Dan": 0},
        made=True,
        over=1,
        revoke_by="Bob",
    ),
    Case(
        "hoyle-revoke-defender-against-solo-already-made",
        "The penalty for every revoke is the loss of three tricks from the score of the revoking "
        "side ... The actual offender pays the stakes",
        "hoyle",
        "solo",
        6,
        {"Ann": 30, "Bob": 0, "Cat": 0, "Dan": -30},
        made=True,
        over=4,
        revoke_by="Dan",
    ),
    Case(
        "hoyle-revoke-defender-against-prop-cop",
        "The actual offender pays the stakes in all cases of a revoke (each partner still "
        "receives once)",
        "hoyle",
        "prop_cop",
        6,
        {"Ann": 7, "Bob": 7, "Cat": -14, "Dan": 0},
        made=True,
        over=1,
        partner="Bob",
        revoke_by="Cat",
    ),
    Case(
        "hoyle-revoke-against-misere-wins-it",
        "If a card is exposed by one of the adversaries of a misère or misère ouverte, the "
        "misère-caller can immediately claim the stakes ... the stakes being paid by the "
        "offender for himself and his partners. The misère-caller can enforce the same penalty "
        "... if a revoke is made against him",
        "hoyle",
        "misere",
        2,
        {"Ann": 36, "Bob": 0, "Cat": -36, "Dan": 0},
        made=True,
        revoke_by="Cat",
    ),
    Case(
        "hoyle-revoke-against-open-misere-wins-it",
        "the misère-caller can immediately claim the stakes, and is regarded as having won the "
        "declaration, the stakes being paid by the offender for himself and his partners",
        "hoyle",
        "open_misere",
        5,
        {"Ann": 72, "Bob": 0, "Cat": 0, "Dan": -72},
        made=True,
        revoke_by="Dan",
    ),
    Case(
        "hoyle-revoke-by-misere-caller-loses-it",
        "No revoking player or partnership can win a declaration",
        "hoyle",
        "misere",
        0,
        each(-36, 12),
        made=False,
        revoke_by="Ann",
    ),
    Case(
        "hoyle-revoke-by-abundance-declared-caller-loses-it",
        "No revoking player or partnership can win a declaration",
        "hoyle",
        "abundance_declared",
        13,
        each(-108, 36),
        made=False,
        revoke_by="Ann",
    ),
    # --- Solo Whist for three players -------------------------------------------------------
    Case(
        "hoyle-three-players-solo-made-from-two",
        "Solo Whist for three players ... the solo being the lowest call (the stakes being paid "
        "to or by every one of the adversaries)",
        "hoyle",
        "solo",
        6,
        {"Ann": 14, "Bob": -7, "Cat": -7},
        made=True,
        over=1,
        players=THREE,
    ),
    Case(
        "hoyle-three-players-solo-failed-to-two",
        "in the event of his failing to make five tricks, it would cost him ... three sixpences "
        "(two among three players), with ... the under-tricks",
        "hoyle",
        "solo",
        4,
        {"Ann": -14, "Bob": 7, "Cat": 7},
        made=False,
        under=1,
        players=THREE,
    ),
    Case(
        "hoyle-three-players-misere-from-two",
        "If he makes the declaration, he receives 1s. from each of the others",
        "hoyle",
        "misere",
        0,
        {"Ann": -12, "Bob": 24, "Cat": -12},
        made=True,
        declarer="Bob",
        players=THREE,
    ),
]

STANDARD_CASES = [
    Case(
        "primer-solo-made-1-apiece-total-3",
        "If one player bids and makes solo, as another example, each of the other players must "
        "pay the winning player $1 apiece ... for a total of $3",
        "standard",
        "solo",
        5,
        each(3, -1),
        made=True,
    ),
    Case(
        "primer-solo-overtricks-not-paid",
        "each of the other players must pay the winning player $1 apiece (no over-tricks in "
        "this text)",
        "standard",
        "solo",
        9,
        each(3, -1),
        made=True,
        over=4,
    ),
    Case(
        "primer-abundance-made-3-apiece-total-9",
        "if the one player has bid and made abundance, then each player owes the winning player "
        "$3 apiece for a total of $9",
        "standard",
        "abundance",
        9,
        each(9, -3),
        made=True,
    ),
    Case(
        "primer-prop-cop-made-other-two-owe-1-each",
        "if two players bid and make the eight tricks (or more) for a prop and cop bid, the "
        "other two players owe $1 each which goes to the winning players",
        "standard",
        "prop_cop",
        11,
        {"Ann": 1, "Bob": -1, "Cat": -1, "Dan": 1},
        made=True,
        over=3,
        partner="Dan",
    ),
    Case(
        "primer-prop-cop-failed-pay-1-each",
        "However if the two fail to reach eight tricks in their prop and cop bid, they will in "
        "turn pay their opponents $1 each",
        "standard",
        "prop_cop",
        4,
        {"Ann": -1, "Bob": 1, "Cat": 1, "Dan": -1},
        made=False,
        under=4,
        partner="Dan",
    ),
    Case(
        "bidding-table-prop-cop-both-proposer-and-accepter-score",
        "Prop and Cop ... +/- 1 Both proposer and accepter score.",
        "standard",
        "prop_cop",
        8,
        {"Ann": -1, "Bob": 1, "Cat": 1, "Dan": -1},
        made=True,
        declarer="Bob",
        partner="Cat",
    ),
    Case(
        "bidding-table-solo-failed-minus-3",
        "Solo One player attempts to make five tricks alone +/- 3 (wins or loses one unit from "
        "other players)",
        "standard",
        "solo",
        1,
        each(-3, 1),
        made=False,
        under=4,
    ),
    Case(
        "bidding-table-misere-plus-6",
        "Misère One player thinks they will win no tricks +/- 6 (wins or loses two units from "
        "other players)",
        "standard",
        "misere",
        0,
        each(6, -2),
        made=True,
    ),
    Case(
        "bidding-table-misere-minus-6",
        "Misère ... +/- 6 (wins or loses two units from other players)",
        "standard",
        "misere",
        2,
        each(-6, 2),
        made=False,
    ),
    Case(
        "bidding-table-abundance-minus-9",
        "Abundance One player thinks they can win nine tricks +/- 9 (wins or loses three units "
        "from other players)",
        "standard",
        "abundance",
        7,
        each(-9, 3),
        made=False,
        under=2,
    ),
    Case(
        "bidding-table-royal-abundance-plus-9",
        "Royal Abundance One player thinks they can win nine tricks in the current trump +/- 9",
        "standard",
        "royal_abundance",
        11,
        each(9, -3),
        made=True,
        over=2,
    ),
    Case(
        "bidding-table-open-misere-plus-12",
        "Misère Ouverte ... +/- 12 (wins or loses four units from other players)",
        "standard",
        "open_misere",
        0,
        each(12, -4),
        made=True,
    ),
    Case(
        "bidding-table-abundance-declared-plus-18",
        "Abundance Declared One player thinks they can win all 13 tricks +/- 18 (wins or loses "
        "six units from other players)",
        "standard",
        "abundance_declared",
        13,
        each(18, -6),
        made=True,
    ),
    Case(
        "bidding-table-abundance-declared-minus-18",
        "Abundance Declared ... +/- 18 (wins or loses six units from other players)",
        "standard",
        "abundance_declared",
        11,
        each(-18, 6),
        made=False,
    ),
]

ANNA_CUBED_CASES = [
    Case(
        "anna-cubed-solo-made-scores-1-others-not-penalised",
        "If a player wins or makes the contract they receive the points for that bet which are "
        "added to their current score. Other players are not penalised.",
        "anna-cubed",
        "solo",
        7,
        each(1, 0),
        made=True,
        over=2,
    ),
    Case(
        "anna-cubed-prop-and-cop-each-score-1",
        "Prop 1 ... Cop 1 (Table 1); Bidder accepts a previous player's proposal to make 8 tricks",
        "anna-cubed",
        "prop_cop",
        8,
        {"Ann": 1, "Bob": 0, "Cat": 1, "Dan": 0},
        made=True,
        partner="Cat",
    ),
    Case(
        "anna-cubed-prop-cop-failed-scores-nothing",
        "if the player fails to make their contract then no points are awarded to or removed "
        "from any player in that round",
        "anna-cubed",
        "prop_cop",
        7,
        each(0, 0),
        made=False,
        under=1,
        partner="Cat",
    ),
    Case(
        "anna-cubed-solo-failed-scores-nothing",
        "if the player fails to make their contract then no points are awarded to or removed "
        "from any player in that round",
        "anna-cubed",
        "solo",
        2,
        each(0, 0),
        made=False,
        under=3,
    ),
    Case(
        "anna-cubed-misere-2",
        "Misere 2 Bidder aims to lose all tricks playing alone with no trump suit.",
        "anna-cubed",
        "misere",
        0,
        each(2, 0),
        made=True,
    ),
    Case(
        "anna-cubed-abundance-3",
        "Abundance 3 Bidder aims to win 9 tricks playing alone.",
        "anna-cubed",
        "abundance",
        10,
        each(3, 0),
        made=True,
        over=1,
    ),
    Case(
        "anna-cubed-abundance-trumps-3",
        "Abundance Trumps 3 Player aims to win 9 tricks playing alone in the current trump suit.",
        "anna-cubed",
        "royal_abundance",
        9,
        each(3, 0),
        made=True,
    ),
    Case(
        "anna-cubed-misere-ouverte-4",
        "Misere Ouverte 4 Bidder aims to lose all tricks playing alone with no trump suit.",
        "anna-cubed",
        "open_misere",
        0,
        each(4, 0, declarer="Dan"),
        made=True,
        declarer="Dan",
    ),
    Case(
        "anna-cubed-abundance-declared-6",
        "Abundance Declared 6 Bidder aims to win all tricks playing alone.",
        "anna-cubed",
        "abundance_declared",
        13,
        each(6, 0),
        made=True,
    ),
    Case(
        "anna-cubed-abundance-declared-failed-nothing",
        "no points are awarded to or removed from any player in that round",
        "anna-cubed",
        "abundance_declared",
        12,
        each(0, 0),
        made=False,
    ),
]

CENTS_CASES = [
    Case(
        "cash-table-prop-cop-10-made-exactly",
        "Prop/Cop - $0.10 + $.01 per overtrick",
        "cents",
        "prop_cop",
        8,
        {"Ann": 10, "Bob": -10, "Cat": 10, "Dan": -10},
        made=True,
        partner="Cat",
    ),
    Case(
        "cash-table-prop-cop-10-plus-1-per-overtrick",
        "Prop/Cop - $0.10 + $.01 per overtrick",
        "cents",
        "prop_cop",
        10,
        {"Ann": 12, "Bob": -12, "Cat": 12, "Dan": -12},
        made=True,
        over=2,
        partner="Cat",
    ),
    Case(
        "cash-table-prop-cop-slam-not-doubled",
        "Prop/Cop - $0.10 + $.01 per overtrick (no slam bonus in this text)",
        "cents",
        "prop_cop",
        13,
        {"Ann": 15, "Bob": -15, "Cat": 15, "Dan": -15},
        made=True,
        over=5,
        partner="Cat",
    ),
    Case(
        "cash-table-prop-cop-failed-bare-stake",
        "else the soloist pays the amount to every opponent (no under-trick price is named)",
        "cents",
        "prop_cop",
        5,
        {"Ann": -10, "Bob": 10, "Cat": -10, "Dan": 10},
        made=False,
        under=3,
        partner="Cat",
    ),
    Case(
        "cash-table-solo-10-plus-1-per-OT",
        "Solo - $0.10 + $0.01 per OT",
        "cents",
        "solo",
        7,
        each(36, -12),
        made=True,
        over=2,
    ),
    Case(
        "cash-table-solo-failed-bare-stake",
        "if bid was successful, opponents pay the amount to the soloist, else the soloist pays "
        "the amount to every opponent",
        "cents",
        "solo",
        1,
        each(-30, 10),
        made=False,
        under=4,
    ),
    Case(
        "cash-table-misere-25",
        "Misere - $0.25",
        "cents",
        "misere",
        0,
        each(75, -25),
        made=True,
    ),
    Case(
        "cash-table-abondance-50-no-overtricks",
        "Abondance - $0.50",
        "cents",
        "abundance",
        11,
        each(150, -50),
        made=True,
        over=2,
    ),
    Case(
        "cash-table-abondance-failed-50",
        "Abondance - $0.50 ... else the soloist pays the amount to every opponent",
        "cents",
        "abundance",
        6,
        each(-150, 50),
        made=False,
        under=3,
    ),
    Case(
        "cash-table-royal-60",
        "Royal - $0.60",
        "cents",
        "royal_abundance",
        9,
        each(180, -60),
        made=True,
    ),
    Case(
        "cash-table-open-75",
        "Open - $0.75",
        "cents",
        "open_misere",
        0,
        each(225, -75),
        made=True,
    ),
    Case(
        "cash-table-slam-100",
        "Slam - $1.00",
        "cents",
        "abundance_declared",
        13,
        each(300, -100),
        made=True,
    ),
    Case(
        "cash-table-slam-failed-100",
        "Slam - $1.00 ... else the soloist pays the amount to every opponent",
        "cents",
        "abundance_declared",
        12,
        each(-300, 100),
        made=False,
    ),
]

ALL_CASES = HOYLE_CASES + STANDARD_CASES + ANNA_CUBED_CASES + CENTS_CASES


@pytest.mark.parametrize("case", ALL_CASES, ids=[c.id for c in ALL_CASES])
def test_worked_figure(case: Case) -> None:
    assert case.quote  # every case carries the passage it comes from
    hand = Hand(
        players=case.players,
        contract=case.contract,
        declarer=case.declarer,
        partner=case.partner,
        tricks=case.tricks,
        revoke_by=case.revoke_by,
    )
    result = score_hand(hand, scoring.preset(case.rules))
    assert result.amounts == case.amounts
    assert result.made is case.made
    assert result.over_tricks == case.over
    assert result.under_tricks == case.under
    assert result.contract is Contract(case.contract)
    assert result.revoke is (case.revoke_by is not None)


# --- All players pass ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "loser", "expected"),
    [
        pytest.param(
            FOUR,
            "Cat",
            {"Ann": 6, "Bob": 6, "Cat": -18, "Dan": 6},
            id="hoyle-general-misere-four-players",
        ),
        pytest.param(
            THREE, "Ann", {"Ann": -12, "Bob": 6, "Cat": 6}, id="hoyle-general-misere-three-players"
        ),
    ],
)
def test_hoyle_general_misere(players, loser, expected) -> None:
    # Hoyle: "the player who takes the last or thirteenth trick pays an agreed stake, equal as a
    # rule to the stake of a solo, to each of his adversaries".
    rules = scoring.preset("hoyle").copy(all_passed=AllPassed.GENERAL_MISERE)
    assert rules.general_misere_stake == rules.stake(Contract.SOLO).base == 6
    result = score_hand(Hand(players, None, last_trick_by=loser), rules)
    assert result.amounts == expected
    assert result.contract is None
    assert result.made is False
    assert result.stake == 6
    assert result.all_passed is AllPassed.GENERAL_MISERE
    assert result.summary == "General misère"


@pytest.mark.parametrize(
    ("rules", "summary"),
    [
        # Hoyle: "In the case of all the players passing, the cards are thrown up, and there is a
        # fresh deal by the next player in rotation."
        pytest.param("hoyle", "All passed: redeal", id="hoyle-all-pass-fresh-deal"),
        # Primer: "In the event that all players pass, they can discard their hands and the deal
        # will rotate clockwise to the next dealer"; Bidding table: "the hands are thrown in and
        # dealt again".
        pytest.param(
            "standard", "All passed: redeal", id="primer-bidding-table-all-pass-thrown-in"
        ),
        # Anna Cubed: "A goulash occurs if all four players pass."
        pytest.param("anna-cubed", "All passed: goulash", id="anna-cubed-all-pass-goulash"),
        pytest.param("cents", "All passed: redeal", id="cash-table-all-pass-redeal"),
    ],
)
@pytest.mark.parametrize("contract", [None, "all_passed"], ids=["None", "all_passed"])
def test_all_passed_scores_nothing(rules, summary, contract) -> None:
    result = score_hand(Hand(FOUR, contract), scoring.preset(rules))
    assert result.amounts == dict.fromkeys(FOUR, 0)
    assert result.summary == summary
    assert result.stake == 0


# --- Five and three players (Hoyle) --------------------------------------------------------------


def test_hoyle_five_players_dealer_right_sits_out_and_neither_pays_nor_receives() -> None:
    # Hoyle: "Where the table consists of five, one man stands out every round, the person chosen
    # being he who sits to the dealer's right. The person standing out neither pays nor receives
    # on that round."
    rules = scoring.preset("hoyle")
    seats = ("Ann", "Bob", "Cat", "Dan", "Eve")
    assert sitting_out(seats, "Cat", rules) == "Bob"
    in_hand = players_in_hand(seats, "Cat", rules)
    assert in_hand == ("Ann", "Cat", "Dan", "Eve")
    result = score_hand(Hand(in_hand, "solo", "Dan", tricks=5), rules)
    assert result.amounts == {"Ann": -6, "Cat": -6, "Dan": 18, "Eve": -6}
    assert "Bob" not in result.amounts


def test_hoyle_three_players_have_no_proposal_and_acceptance() -> None:
    # Hoyle: "Solo Whist for three players ... There is in this no proposal and acceptance, the
    # solo being the lowest call."
    assert Contract.PROP_COP not in legal_contracts(3)
    assert min(legal_contracts(3), key=lambda c: c.rank) is Contract.SOLO
    with pytest.raises(InvalidHand, match="not played at a table of three"):
        score_hand(Hand(THREE, "prop_cop", "Ann", partner="Bob", tricks=8), scoring.preset("hoyle"))


# --- Anna Cubed trump rotation (section 5 "The Play") --------------------------------------------


@pytest.mark.parametrize(
    ("hand_number", "trump"),
    [
        # "The trump suit in the first hand is always Hearts."
        pytest.param(1, scoring.Trump.HEARTS, id="anna-cubed-first-hand-hearts"),
        # "The order is always Hearts, Clubs, Diamonds, Spades, and No Trumps."
        pytest.param(2, scoring.Trump.CLUBS, id="anna-cubed-second-clubs"),
        pytest.param(3, scoring.Trump.DIAMONDS, id="anna-cubed-third-diamonds"),
        pytest.param(4, scoring.Trump.SPADES, id="anna-cubed-fourth-spades"),
        pytest.param(5, scoring.Trump.NO_TRUMPS, id="anna-cubed-fifth-no-trumps"),
        # "These are cycled; after No Trumps comes Hearts."
        pytest.param(6, scoring.Trump.HEARTS, id="anna-cubed-after-no-trumps-hearts"),
        pytest.param(7, scoring.Trump.CLUBS, id="anna-cubed-cycle-again-clubs"),
        pytest.param(23, scoring.Trump.DIAMONDS, id="anna-cubed-many-hands-later"),
    ],
)
def test_anna_cubed_trump_rotation(hand_number, trump) -> None:
    assert trump_for(scoring.preset("anna-cubed"), hand_number) is trump


def test_anna_cubed_rotation_ignores_the_trump_a_bid_chose() -> None:
    # Anna Cubed: "Clubs is the current trump suit. A player successfully bets Abundance and chooses
    # Spades as trumps. Once the hand has been played to completion the next trump suit will be
    # Diamonds." The rotation depends on the hand number only.
    rules = scoring.preset("anna-cubed")
    assert trump_for(rules, 2) is scoring.Trump.CLUBS
    assert trump_for(rules, 3) is scoring.Trump.DIAMONDS
