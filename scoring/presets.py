"""The four preset rule sets, each taken from the public rule texts that docs/rules.md lists by
title ("The rule texts"): Hoyle, the Primer, Anna Cubed, the Bidding table and the Cash table.

Each number carries the passage it comes from, cited by the text's short title and its section.
Where a text is silent on an option (revokes, a table of five), the preset keeps the rule of
Hoyle's "A Digest of the Laws" and says so.
"""

from __future__ import annotations

from scoring.contracts import Contract as C
from scoring.contracts import Trump
from scoring.rules import AllPassed, Payment, Redeal, RuleSet, SitOut, Stake

# Hoyle (Hoyle's Games Modernized, "Solo Whist"), section "The Stakes": "six, twelve, and eighteen
# ... propositions and solos are paid for at 6d. each, misères at 1s., and abondances at 1s. 6d."
# "the partners receive 6d. each if they make eight tricks, and 1d. each for every trick over eight"
# and "pay their opponents 6d. each, and 1d. for each under-trick". Abundance: "it is not uncommon
# here to double the value of the over-tricks, but not of the under-tricks" - "A player making ten
# tricks would, with double over-tricks, receive 1s. 8d. from each, and, if he only made eight
# tricks, would pay 1s. 7d. each" (18 + 2 over; 18 + 1 under). "An abondance in trumps is of the
# same money value". "the misère ouverte is double the price of the ordinary misère, and the
# abondance declarée double the price of the ordinary abondance" (24 and 36). "There are ... no over
# or under-tricks" at misère and "no under-tricks at the call of an abondance declarée".
HOYLE = RuleSet(
    name="hoyle",
    unit="pence",
    payment=Payment.PER_OPPONENT,
    stakes={
        C.PROP_COP: Stake(6, over=1, under=1),
        C.SOLO: Stake(6, over=1, under=1),
        C.MISERE: Stake(12),
        C.ABUNDANCE: Stake(18, over=2, under=1),
        C.ROYAL_ABUNDANCE: Stake(18, over=2, under=1),
        C.OPEN_MISERE: Stake(24),
        C.ABUNDANCE_DECLARED: Stake(36),
    },
    # "If they, however, make a 'slam' ... they would receive 1s. 4d., that is, double for the
    # over-tricks - five over-tricks at 2d. each = 10d., and 6d. for the original declaration."
    prop_cop_slam_double=True,
    # Digest of the Laws: "The penalty for every revoke is the loss of three tricks".
    revoke_tricks=3,
    # "the cards are thrown up, and there is a fresh deal"; "It is sometimes arranged ... to play
    # what is called a general misère ... pays an agreed stake, equal as a rule to the stake of a
    # solo, to each of his adversaries": off by default, at the solo stake when a club turns it on.
    all_passed=AllPassed.REDEAL,
    general_misere_stake=6,
    # "one man stands out every round, the person chosen being he who sits to the dealer's right".
    sit_out=SitOut.DEALER_RIGHT,
    # "In this case as in the simple abondance, he names his own trump suit".
    abundance_declared_names_trumps=True,
    # Digest of the Laws: "A fresh deal is necessary if a card is exposed or faced in the pack, or
    # if there is a misdeal. This new deal is by the same player, and there is no penalty."
    redeal_by=Redeal.SAME,
    source="Hoyle's Games Modernized, Solo Whist (Wikisource)",
)

# Primer, "The Bidding Phase" ("The Prop (1) ... Solo (1) ... Misère (2) ... Abundance (3) ...
# Abundance in Trumps (3) ... Misère Ouverte (4) ... Abundance Declared (6)") and "Scoring or
# Settling up" ("each of the other players must pay the winning player $1 apiece"); Bidding table
# ("+/- 3 (wins or loses one unit from other players)" for a solo, "Both proposer and accepter
# score" at Prop and Cop). Neither pays over- or under-tricks.
STANDARD = RuleSet(
    name="standard",
    unit="units",
    payment=Payment.PER_OPPONENT,
    stakes={
        C.PROP_COP: Stake(1),
        C.SOLO: Stake(1),
        C.MISERE: Stake(2),
        C.ABUNDANCE: Stake(3),
        C.ROYAL_ABUNDANCE: Stake(3),
        C.OPEN_MISERE: Stake(4),
        C.ABUNDANCE_DECLARED: Stake(6),
    },
    # Silent on revokes: the Hoyle digest's three tricks.
    revoke_tricks=3,
    # Primer: "In the event that all players pass, they can discard their hands and the deal will
    # rotate clockwise"; Bidding table: "If everyone passes ... the hands are thrown in and dealt
    # again."
    all_passed=AllPassed.REDEAL,
    general_misere_stake=1,
    # Silent on five players; the dealer sitting out is the common school practice.
    sit_out=SitOut.DEALER,
    # Primer: "Abundance Declared ... there are no trump suits"; Bidding table: "There is no trump".
    abundance_declared_names_trumps=False,
    # Primer: "the deal will rotate clockwise to the next dealer, with this hand being declared a
    # misdeal".
    redeal_by=Redeal.NEXT,
    # Primer: "a number of cards of a particular suit, which was not the suit the dealer exposed,
    # this player may want to bid abundance"; "Abundance in Trumps ... will use the suit exposed
    # by the dealer": the hand records the turned suit, and an abundance cannot name it.
    record_turned_suit=True,
    abundance_in_turned_suit=False,
    source="Solo Whist primer and Solo Whist - Bidding",
)

# Anna Cubed ("Rules of Solo", Piddock and Pounds), section 4 "The Bidding": Table 1 scores Prop 1,
# Cop 1, Solo 1, Misere 2, Abundance 3, Abundance Trumps 3, Misere Ouverte 4, Abundance Declared 6.
# Section 6: "If a player wins or makes the contract they receive the points for that bet ... Other
# players are not penalised ... if the player fails ... no points are awarded to or removed from any
# player".
ANNA_CUBED = RuleSet(
    name="anna-cubed",
    unit="points",
    payment=Payment.WINNER_ONLY,
    stakes={
        C.PROP_COP: Stake(1),
        C.SOLO: Stake(1),
        C.MISERE: Stake(2),
        C.ABUNDANCE: Stake(3),
        C.ROYAL_ABUNDANCE: Stake(3),
        C.OPEN_MISERE: Stake(4),
        C.ABUNDANCE_DECLARED: Stake(6),
    },
    # Silent on revokes: the Hoyle digest's three tricks.
    revoke_tricks=3,
    # "A goulash occurs if all four players pass ... The trump suit is also incremented."
    all_passed=AllPassed.GOULASH,
    general_misere_stake=1,
    sit_out=SitOut.DEALER,
    # "Abundance Declared ... There are no trumps and the bidder plays the first card."
    abundance_declared_names_trumps=False,
    # "The trump suit in the first hand is always Hearts ... The order is always Hearts, Clubs,
    # Diamonds, Spades, and No Trumps. These are cycled".
    trump_rotation=(Trump.HEARTS, Trump.CLUBS, Trump.DIAMONDS, Trump.SPADES, Trump.NO_TRUMPS),
    # Silent on misdeals: the Hoyle digest's "new deal is by the same player".
    redeal_by=Redeal.SAME,
    source="Anna Cubed, Rules of Solo (Piddock and Pounds, 2006)",
)

# Cash table ("Solo Whist", a one-page summary), its scoring: "if bid was successful, opponents pay
# the amount to the soloist, else the soloist pays the amount to every opponent": "Prop/Cop - $0.10
# + $.01 per overtrick", "Solo - $0.10 + $0.01 per OT", "Misere - $0.25", "Abondance - $0.50",
# "Royal - $0.60", "Open - $0.75", "Slam - $1.00". No under-trick payment is named, so a failed
# contract pays the bare stake.
CENTS = RuleSet(
    name="cents",
    unit="cents",
    payment=Payment.PER_OPPONENT,
    stakes={
        C.PROP_COP: Stake(10, over=1),
        C.SOLO: Stake(10, over=1),
        C.MISERE: Stake(25),
        C.ABUNDANCE: Stake(50),
        C.ROYAL_ABUNDANCE: Stake(60),
        C.OPEN_MISERE: Stake(75),
        C.ABUNDANCE_DECLARED: Stake(100),
    },
    # Silent on revokes: the Hoyle digest's three tricks.
    revoke_tricks=3,
    all_passed=AllPassed.REDEAL,
    general_misere_stake=10,
    sit_out=SitOut.DEALER,
    # "Slam ... Bidder pledges to take all 13 tricks. Bidder leads, no trump."
    abundance_declared_names_trumps=False,
    # Silent on misdeals: the Hoyle digest's "new deal is by the same player".
    redeal_by=Redeal.SAME,
    source="Solo Whist, a one-page summary with cash stakes",
)

PRESETS: dict[str, RuleSet] = {r.name: r for r in (HOYLE, STANDARD, ANNA_CUBED, CENTS)}
# How people name each preset: its key ("anna-cubed") is for files and URLs.
TITLES: dict[str, str] = {
    "hoyle": "Hoyle",
    "standard": "Standard",
    "anna-cubed": "Anna Cubed",
    "cents": "Cents",
}


def title(name: str) -> str:
    """A rule set's name as people read it: a preset's key ("hoyle") by its title ("Hoyle"),
    any other name as it is."""
    return TITLES.get(name, name)


def preset(name: str) -> RuleSet:
    """A preset by name: "hoyle", "standard", "anna-cubed" or "cents"; KeyError otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(
            f"No preset rule set called {name!r}; the presets are {', '.join(PRESETS)}"
        ) from None
