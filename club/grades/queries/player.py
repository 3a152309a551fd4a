"""A player's season: night by night with running totals (from the night totals), and their
contracts and Prop & Cop partnerships (from their own score lines, through partial indexes).
Every figure is a SQL aggregate; the number of queries does not grow with the season."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, F, Q, QuerySet, Sum, Window

import scoring
from club.clubs.models import Player, Season
from club.play.models import NightTotal, ScoreLine

NIGHTS_PER_PAGE = 50


@dataclass(frozen=True)
class Summary:
    nights: int
    hands: int
    net: int
    points: int
    declared: int
    made: int

    @property
    def average(self) -> Fraction:
        return Fraction(self.net, self.hands) if self.hands else Fraction(0)


@dataclass(frozen=True)
class NightResult:
    night_id: int
    date: dt.date
    title: str
    hands: int
    net: int
    points: int
    declared: int
    made: int
    running_net: int
    running_points: int

    @property
    def name(self) -> str:
        return self.title or f"Club night {self.date:%d %b %Y}"  # as Night.__str__


@dataclass(frozen=True)
class ContractRecord:
    contract: scoring.Contract
    declared: int
    made: int
    gain: int  # the player's total on these hands, in the club's unit

    @property
    def percent_made(self) -> Fraction:
        return Fraction(100 * self.made, self.declared) if self.declared else Fraction(0)

    @property
    def average_gain(self) -> Fraction:
        return Fraction(self.gain, self.declared) if self.declared else Fraction(0)


@dataclass(frozen=True)
class Partnership:
    partner_id: int
    name: str
    hands: int  # Prop & Cop hands on the same side, whoever proposed
    made: int
    net: int  # this player's total on those hands

    @property
    def percent_made(self) -> Fraction:
        return Fraction(100 * self.made, self.hands) if self.hands else Fraction(0)

    @property
    def average(self) -> Fraction:
        return Fraction(self.net, self.hands) if self.hands else Fraction(0)


def _totals(season: Season, player: Player) -> QuerySet[NightTotal]:
    """The player's night totals on the nights that count (not a tournament run apart)."""
    return NightTotal.objects.filter(season=season, player=player, night__counts_in_standings=True)


def summary(season: Season, player: Player) -> Summary:
    row = _totals(season, player).aggregate(
        n_nights=Count("id"),
        n_hands=Sum("hands", default=0),
        n_net=Sum("net", default=0),
        n_points=Sum("points", default=0),
        n_declared=Sum("declared", default=0),
        n_made=Sum("made", default=0),
    )
    return Summary(
        row["n_nights"],
        row["n_hands"],
        row["n_net"],
        row["n_points"],
        row["n_declared"],
        row["n_made"],
    )


def _night_results(qs: Iterable[Any]) -> list[NightResult]:  # rows of NightResult's fields
    return [NightResult(**row) for row in qs]


def night_history(
    season: Season, player: Player, page: int | str | None = 1
) -> Page[Any]:  # of NightResult
    """The player's nights, latest first, each with its running total to that night (a window
    sum over the player's nights in date order); paginated (one count and one page query)."""
    in_order = [F("night__date").asc(), F("night_id").asc()]
    qs = (
        _totals(season, player)
        .annotate(
            date=F("night__date"),
            title=F("night__title"),
            running_net=Window(Sum("net"), order_by=in_order),
            running_points=Window(Sum("points"), order_by=in_order),
        )
        .order_by("-night__date", "-night_id")
        .values(
            "night_id",
            "date",
            "title",
            "hands",
            "net",
            "points",
            "declared",
            "made",
            "running_net",
            "running_points",
        )
    )
    paginator = Paginator(qs, NIGHTS_PER_PAGE)
    result: Page[Any] = paginator.get_page(page)
    result.object_list = _night_results(result.object_list)
    return result


def best_and_worst(
    season: Season, player: Player, points: bool = False
) -> tuple[NightResult | None, NightResult | None]:
    """The player's best and worst nights by net (by points on a points ladder)."""
    measure = "points" if points else "net"
    qs = _totals(season, player).values(
        "night_id",
        "hands",
        "net",
        "points",
        "declared",
        "made",
        date=F("night__date"),
        title=F("night__title"),
        running_net=F("net") * 0,
        running_points=F("points") * 0,
    )
    best = _night_results(qs.order_by(f"-{measure}", "night__date")[:1])
    worst = _night_results(qs.order_by(measure, "night__date")[:1])
    if not best:
        return None, None
    return best[0], worst[0]


def contracts(season: Season, player: Player) -> list[ContractRecord]:
    """Per contract the player called: how often, how often made, and what it won them (from
    their own declared lines, an index-only scan on PostgreSQL)."""
    rows = (
        ScoreLine.objects.filter(
            season=season, player=player, declared=True, night__counts_in_standings=True
        )
        .values("contract")
        .annotate(
            n=Count("id"), n_made=Count("id", filter=Q(declared_made=True)), gain=Sum("amount")
        )
        .order_by()
    )
    records = [
        ContractRecord(scoring.Contract(r["contract"]), r["n"], r["n_made"], r["gain"])
        for r in rows
    ]
    return sorted(records, key=lambda r: r.contract.rank)


def partnerships(season: Season, player: Player) -> list[Partnership]:
    """Prop & Cop hands the player played on the same side as each partner (either of them
    proposing): how many, how many made, and the player's total on them (from their own lines
    that name a partner, an index-only scan on PostgreSQL)."""
    rows = (
        ScoreLine.objects.filter(
            season=season, player=player, mate__isnull=False, night__counts_in_standings=True
        )
        .values("mate_id", "mate__name")
        .annotate(n=Count("id"), n_made=Count("id", filter=Q(made=True)), net=Sum("amount"))
        .order_by()
    )
    found = [
        Partnership(r["mate_id"], r["mate__name"], r["n"], r["n_made"], r["net"]) for r in rows
    ]
    return sorted(found, key=lambda p: (-p.hands, p.name.casefold()))
