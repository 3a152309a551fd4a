"""What each printed sheet shows, put together from the pages' own queries (club/queries/) and
the scoring core, so that a sheet always has the same figures as the page it belongs to.

No arithmetic on amounts happens here: the table rows, running totals, nets and settle-up come
from the queries; dealers, sit-outs and trumps on the blank score cards from scoring.table; the
standings from the standings page's table (club.grades.display.tables.StandingsTable, the text of
its CSV) and
chart; a player's figures from the player page's queries, written as that page writes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import scoring
from club.clubs.models import Player
from club.play.models import Night
from club.play.queries.night import NightSummary, TableSummary, night_summary, night_tables
from club.play.queries.table_sheet import TableSheet, table_sheets

# Blank score cards: rows to write hands in, by default and at most.
CARD_HANDS = 24
MAX_CARD_HANDS = 60


@dataclass(frozen=True)
class StakeRow:
    contract: str
    base: int
    over: int
    under: int


@dataclass(frozen=True)
class Stakes:
    """A rule set as the sheets print it: one row per contract, lowest first, and its options."""

    name: str
    rows: list[StakeRow]
    payment: str  # "per opponent" or "winner only"
    sit_out: str  # who sits out at a table of five
    all_passed: str

    @property
    def has_extra_tricks(self) -> bool:
        return any(r.over or r.under for r in self.rows)


SIT_OUT_TEXT = {
    scoring.SitOut.DEALER_RIGHT: "the player on the dealer's right",
    scoring.SitOut.DEALER: "the dealer",
}
PAYMENT_TEXT = {
    scoring.Payment.PER_OPPONENT: "per opponent",
    scoring.Payment.WINNER_ONLY: "winner only",
}
ALL_PASSED_TEXT = {
    scoring.AllPassed.REDEAL: "redeal",
    scoring.AllPassed.GOULASH: "goulash",
    scoring.AllPassed.GENERAL_MISERE: "general misère",
}


def stakes(name: str, rules: scoring.RuleSet) -> Stakes:
    return Stakes(
        name=name,
        rows=[
            StakeRow(c.display_name, s.base, s.over, s.under)
            for c, s in ((c, rules.stake(c)) for c in scoring.Contract)
        ],
        payment=PAYMENT_TEXT[rules.payment],
        sit_out=SIT_OUT_TEXT[rules.sit_out],
        all_passed=ALL_PASSED_TEXT[rules.all_passed],
    )


# -- the night settlement sheet ------------------------------------------------------------------


@dataclass(frozen=True)
class TableBlock:
    summary: TableSummary
    sheet: TableSheet

    @property
    def number(self) -> int:
        return self.summary.table.number


@dataclass(frozen=True)
class NightSheet:
    night: Night
    summary: NightSummary
    tables: list[TableBlock]
    stakes: Stakes

    @property
    def final(self) -> bool:
        return self.night.is_published

    @property
    def widest_table(self) -> int:
        return max((len(t.sheet.seats) for t in self.tables), default=4)


def night_sheet(night: Night) -> NightSheet:
    """Every table's hands (the table page's rows), the nets and settle-up (the night page's)."""
    summary = night_summary(night)
    sheets = table_sheets([t.table for t in summary.tables])
    blocks = [TableBlock(t, sheets[t.table.pk]) for t in summary.tables]
    rule_set = night.season.rule_set
    return NightSheet(night, summary, blocks, stakes(rule_set.name, rule_set.rules))


# -- blank score cards ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CardRow:
    number: int
    dealer: Player
    sitting_out: Player | None
    trump: scoring.Trump | None


@dataclass(frozen=True)
class ScoreCard:
    summary: TableSummary
    rows: list[CardRow]

    @property
    def players(self) -> list[Player]:
        return self.summary.players

    @property
    def first_dealer(self) -> Player | None:
        return self.summary.first_dealer

    @property
    def has_sit_out(self) -> bool:
        return any(r.sitting_out is not None for r in self.rows)

    @property
    def has_trumps(self) -> bool:
        return any(r.trump is not None for r in self.rows)

    @property
    def lead_columns(self) -> int:
        """Columns before the players' own: hand, dealer, [sits out], [trumps], contract,
        declarer, partner, tricks, result."""
        return 7 + self.has_sit_out + self.has_trumps


def card_rows(
    players: Sequence[Player], first_dealer: int, rules: scoring.RuleSet, hands: int
) -> list[CardRow]:
    """The deal, the sit-out and any rotating trump of hands 1..`hands`, from scoring.table."""
    if not players:
        return []
    keys = [str(p.pk) for p in players]
    by_key = dict(zip(keys, players, strict=True))
    rows = []
    for number in range(1, hands + 1):
        dealer = scoring.table.dealer_for(keys, first_dealer, number)
        out = scoring.table.sitting_out(keys, dealer, rules)
        rows.append(
            CardRow(
                number=number,
                dealer=by_key[dealer],
                sitting_out=by_key[out] if out else None,
                trump=scoring.table.trump_for(rules, number),
            )
        )
    return rows


def score_cards(night: Night, hands: int = CARD_HANDS) -> list[ScoreCard]:
    """One blank card per table of the night: seats in order, dealers and sit-outs pre-filled."""
    rules = night.season.rule_set.rules
    return [
        ScoreCard(t, card_rows(t.players, t.table.first_dealer, rules, hands))
        for t in night_tables(night)
    ]


def card_hands(value: str | None) -> int:
    """`?hands=` on the score cards: rows per card, within 1..MAX_CARD_HANDS."""
    # Plain digits 0-9 only, and few of them ("²" is a digit to isdigit(), not to int()).
    value = (value or "").strip()
    if not (value.isascii() and value.isdigit()):
        return CARD_HANDS
    if len(value) > 4:  # more rows than any card holds, and too long for int() to read at will
        return MAX_CARD_HANDS
    return max(1, min(MAX_CARD_HANDS, int(value)))


# -- the season standings ------------------------------------------------------------------------
