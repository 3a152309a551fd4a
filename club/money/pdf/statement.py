"""What each printed sheet shows, put together from the pages' own queries (club/queries/) and
the scoring core, so that a sheet always has the same figures as the page it belongs to.

No arithmetic on amounts happens here: the table rows, running totals, nets and settle-up come
from the queries; dealers, sit-outs and trumps on the blank score cards from scoring.table; the
standings from the standings page's table (club.grades.display.tables.StandingsTable, the text of
its CSV) and
chart; a player's figures from the player page's queries, written as that page writes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from club.clubs.models import Club, Player, Season
from club.grades.display.tables import format_average, format_measure
from club.grades.pdf.sheets import open_nights
from club.grades.queries import player as pq
from club.grades.queries import standings as sq


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
