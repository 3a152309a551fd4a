"""The scoring core: contracts, rule sets, scoring a hand, settle-up and standings arithmetic.

Pure Python with no Django import: the rules live here and only here (DESIGN.md section 2).
"""

from scoring import draw, presets, seating, standings, table, tournament
from scoring.contracts import (
    ALL_PASSED,
    CONTRACTS,
    MISDEAL,
    TRICKS_IN_HAND,
    Contract,
    Leader,
    Trump,
    TrumpKind,
)
from scoring.hands import Hand, InvalidHand, Outcome, Penalty, Result, score_hand, validate
from scoring.presets import PRESETS, preset
from scoring.rules import AllPassed, InvalidRuleSet, Payment, Redeal, RuleSet, SitOut, Stake
from scoring.settle import settle_up

__all__ = [
    "ALL_PASSED",
    "CONTRACTS",
    "MISDEAL",
    "PRESETS",
    "TRICKS_IN_HAND",
    "AllPassed",
    "Contract",
    "Hand",
    "InvalidHand",
    "InvalidRuleSet",
    "Leader",
    "Outcome",
    "Payment",
    "Penalty",
    "Redeal",
    "Result",
    "RuleSet",
    "SitOut",
    "Stake",
    "Trump",
    "TrumpKind",
    "draw",
    "preset",
    "presets",
    "score_hand",
    "seating",
    "settle_up",
    "standings",
    "table",
    "tournament",
    "validate",
]
