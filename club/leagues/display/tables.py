"""The league table as django-tables2 draws it: on the page, and as values for the CSV (amounts
as numbers in the league's major unit there, named in the header)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import django_tables2 as tables

from club.clubs.models import Club
from club.leagues.queries.table import Line

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
# Columns a phone can do without (hidden by the stylesheet on narrow screens).
OPTIONAL = {"th": {"class": "num opt"}, "td": {"class": "num opt"}}


def csv_unit(club: Club) -> str:
    return club.currency_symbol if club.unit_kind == Club.UnitKind.MONEY else "points"


class LeagueTable(tables.Table):
    position = tables.Column("#", attrs=NUM)
    club_name = tables.Column("Club")
    played = tables.Column("P", attrs=NUM)
    won = tables.Column("W", attrs=NUM)
    tied = tables.Column("T", attrs=NUM)
    lost = tables.Column("L", attrs=NUM)
    aggregate = tables.Column("Aggregate", attrs=OPTIONAL)
    points = tables.Column("Pts", attrs=NUM)

    class Meta:
        attrs = {"class": "standings league-table"}
        orderable = False
        empty_text = "No club plays in this league yet."

    def __init__(self, lines: list[Line], club: Club, numbers: bool = False, **kwargs: Any):
        # `club` is the league's own club: its unit is the league's.
        self.club = club
        self.numbers = numbers
        super().__init__(lines, **kwargs)
        if numbers:
            self.columns["aggregate"].column.verbose_name = f"Aggregate ({csv_unit(club)})"

    def render_aggregate(self, value: int) -> str:
        return self.club.format_amount(value, signed=True)

    def value_aggregate(self, value: int) -> Any:
        if self.club.unit_kind != Club.UnitKind.MONEY or self.club.minor_units <= 1:
            return value
        places = len(str(self.club.minor_units - 1))  # 100 -> 2: "0.28", "0.00"
        return (Decimal(value) / self.club.minor_units).quantize(Decimal(1).scaleb(-places))
