"""What each printed sheet shows, put together from the pages' own queries (club/queries/) and
the scoring core, so that a sheet always has the same figures as the page it belongs to.

No arithmetic on amounts happens here: the table rows, running totals, nets and settle-up come
from the queries; dealers, sit-outs and trumps on the blank score cards from scoring.table; the
standings from the standings page's table (club.grades.display.tables.StandingsTable, the text of its CSV) and
chart; a player's figures from the player page's queries, written as that page writes them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.utils.safestring import SafeString

import scoring
from club.clubs.models import Club, Player, Season
from club.grades.display.season_chart import CHART_PLAYERS, season_chart
from club.grades.display.tables import StandingsTable, format_average, format_measure
from club.grades.queries import player as pq
from club.grades.queries import standings as sq
from club.grades.queries.standings import Ladder
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


@dataclass(frozen=True)
class StandingsLine:
    cells: list[str]  # the standings table's own text (as on the page and in its CSV)
    qualified: bool


@dataclass(frozen=True)
class StandingsSheet:
    ladder: Ladder
    header: list[str]
    lines: list[StandingsLine]
    chart: SafeString | None
    chart_caption: str
    provisional: bool  # a night in the range is still open

    @property
    def qualified(self) -> list[StandingsLine]:
        return [line for line in self.lines if line.qualified]

    @property
    def below_line(self) -> list[StandingsLine]:
        return [line for line in self.lines if not line.qualified]


def _text(value: object) -> str:
    """A table value as the CSV writes it: None is an empty cell."""
    return "" if value is None else str(value)


def open_nights(season: Season, date_from: dt.date | None, date_to: dt.date | None) -> bool:
    """Whether any night of the season in the range is still open (its figures may change)."""
    nights = Night.objects.filter(season=season, status=Night.Status.OPEN)
    if date_from:
        nights = nights.filter(date__gte=date_from)
    if date_to:
        nights = nights.filter(date__lte=date_to)
    return nights.exists()


def standings_sheet(club: Club, ladder: Ladder) -> StandingsSheet:
    """The standings page's table (every row, in ladder order, the CSV's text but the averages
    as the page says them, "+1.7p") and its chart."""
    table = StandingsTable(ladder, club)
    table.spoken_averages = True
    values = table.as_values()
    header = [_text(v) for v in next(values)]
    lines = [
        StandingsLine([_text(v) for v in cells], row.qualified)
        for cells, row in zip(values, ladder.rows, strict=True)
    ]
    chart, caption = None, ""
    leaders = ladder.rows[:CHART_PLAYERS]
    if leaders and ladder.nights:
        trend = sq.trends(
            ladder.season,
            ladder.nights,
            [r.player_id for r in leaders],
            ladder.method,
            ladder=ladder,
        )
        chart, series = season_chart(club, ladder, leaders, trend, chart_id="sheet")
        caption = f"The leading {len(series)} players, {trend.unit} by {trend.unit}."
    return StandingsSheet(
        ladder=ladder,
        header=header,
        lines=lines,
        chart=chart,
        chart_caption=caption,
        provisional=open_nights(ladder.season, ladder.date_from, ladder.date_to),
    )


# -- a player's statement ------------------------------------------------------------------------


def _percent(value: Fraction) -> str:
    return f"{round(value)}%"  # as the player page writes it


@dataclass(frozen=True)
class StatementNight:
    night: pq.NightResult
    net: str
    running: str
    points: str
    running_points: str


@dataclass(frozen=True)
class StatementContract:
    name: str
    declared: int
    made: int
    percent: str
    gain: str
    average: str


@dataclass(frozen=True)
class Statement:
    player: Player
    season: Season
    totals: pq.Summary
    net: str
    average: str
    percent_made: str
    points_total: str
    uses_points: bool
    best: pq.NightResult | None
    worst: pq.NightResult | None
    best_net: str
    worst_net: str
    nights: list[StatementNight]  # oldest first
    contracts: list[StatementContract]
    position: sq.Row | None  # the player's line in the season's standings
    ranked: int  # players ranked (qualified) in the standings
    provisional: bool
    # Money owed on the club's ledger, everything not yet marked paid (+: owed to the player;
    # -: the player owes); None for a points club, or when the caller did not ask.
    balance: int | None = None
    balance_text: str = ""


def _all_nights(season: Season, player: Player) -> list[pq.NightResult]:
    """Every night of the player's season, oldest first (the player page's pages, all of them)."""
    first = pq.night_history(season, player, 1)
    nights = list(first.object_list)
    for number in range(2, first.paginator.num_pages + 1):
        nights += pq.night_history(season, player, number).object_list
    return nights[::-1]


def player_statement(
    club: Club, season: Season, player: Player, balance: int | None = None
) -> Statement:
    """A player's nights and totals for a season, with the player page's figures, and the money
    owed on the ledger when the caller gives the `balance`."""

    def money(value: int) -> str:
        return club.format_amount(value, signed=True)

    def points(value: int) -> str:
        return format_measure(club, value, True, signed=False)

    def per_contract(value: Fraction) -> str:
        # Money as every amount on the sheet, to the club's unit ("+£1.08", "-$0.36"); points
        # to two places, as the pages give an average of points ("+1.50 pts").
        if club.unit_kind == Club.UnitKind.POINTS:
            return format_average(club, value)
        return money(_to_unit(value))

    totals = pq.summary(season, player)
    best, worst = pq.best_and_worst(season, player)
    ladder = sq.ladder(season)
    position = next((r for r in ladder.rows if r.player_id == player.pk), None)
    return Statement(
        player=player,
        season=season,
        totals=totals,
        net=money(totals.net),
        average=format_average(club, totals.average),
        percent_made=_percent(Fraction(100 * totals.made, totals.declared))
        if totals.declared
        else "-",
        points_total=points(totals.points),
        uses_points=season.standings_method == "points",
        best=best,
        worst=worst,
        best_net=money(best.net) if best else "",
        worst_net=money(worst.net) if worst else "",
        nights=[
            StatementNight(
                n, money(n.net), money(n.running_net), points(n.points), points(n.running_points)
            )
            for n in _all_nights(season, player)
        ],
        contracts=[
            StatementContract(
                r.contract.display_name,
                r.declared,
                r.made,
                _percent(r.percent_made),
                money(r.gain),
                per_contract(r.average_gain),
            )
            for r in pq.contracts(season, player)
        ],
        position=position,
        ranked=len(ladder.qualified),
        provisional=open_nights(season, None, None),
        balance=balance,
        balance_text=_balance_text(club, balance),
    )


def _to_unit(value: Fraction) -> int:
    """An average to the nearest whole unit of the club (a penny, a cent, a point), a half to the
    even neighbour: the "Per contract" column prints it as every other amount on the sheet."""
    return round(value)


def _balance_text(club: Club, balance: int | None) -> str:
    if balance is None:
        return ""
    if balance > 0:
        return f"owed {club.format_amount(balance)}"
    if balance < 0:
        return f"owes {club.format_amount(-balance)}"
    return "square"
