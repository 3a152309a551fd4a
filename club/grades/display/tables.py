"""django-tables2 tables, and how standings figures are written (the same text on the page and in
the CSV export)."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django_tables2.data import TableListData

from club.clubs.models import Club
from club.grades.queries.standings import Ladder, Row
from club.lib.money import format_spoken, minor_suffix

PER_PAGE = 50  # players on one page of the standings
MAX_PER_PAGE = 500  # the most a ?per_page= may ask for
NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
# Columns a phone can do without (hidden by the stylesheet on narrow screens).
OPTIONAL = {"th": {"class": "num opt"}, "td": {"class": "num opt"}}


def format_points(club: Club, points: int | Fraction, signed: bool = False) -> str:
    """Ladder points, whatever the club's money unit: "12 pts"."""
    label = club.points_label or "pts"
    sign = "+" if signed and points > 0 else ""
    if isinstance(points, Fraction) and points.denominator != 1:
        return f"{sign}{_decimal(points, 2):,} {label}"
    return f"{sign}{int(points):,} {label}"


def _decimal(value: Fraction, places: int) -> Decimal:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


def format_average(club: Club, value: Fraction, points: bool = False, exact: bool = False) -> str:
    """An average per hand as people say it: under one unit of currency in pence or cents
    ("+1.4p", "-0.3¢"); one unit or more in the club's money format, to its smallest unit as
    every amount is ("+£1.08", never "+£1.0800"); otherwise, and always with `exact` (the CSV),
    to two places finer than the unit: "+£0.0137", "+£1.2500", "+0.42 pts". A sign only when
    the figure shown is not zero."""
    if not (points or exact):
        spoken = format_spoken(club, value, signed=True)
        if spoken is not None:
            return spoken
        if minor_suffix(club) is not None:  # one unit or more (99.96p included): in pounds
            return club.format_amount(round(value), signed=True)
    if points or club.unit_kind == Club.UnitKind.POINTS:
        label = club.points_label or ("pts" if points else "")
        shown = _decimal(value, 2)
        suffix = f" {label}" if label else ""
        prefix = ""
    else:
        minor = max(club.minor_units, 1)
        shown = _decimal(value / minor, (len(str(minor - 1)) if minor > 1 else 0) + 2)
        suffix, prefix = "", club.currency_symbol
    sign = "-" if shown < 0 else "+" if shown > 0 else ""
    return f"{sign}{prefix}{abs(shown):,}{suffix}"


def format_measure(club: Club, value: int, points: bool, signed: bool = True) -> str:
    """A total: money in the club's unit, or ladder points."""
    if points:
        return format_points(club, value, signed=signed)
    return club.format_amount(value, signed=signed)


# The standings CSV's Move for a player who kept their place (the page and the sheet show "=").
NO_CHANGE_WORD = "same"


def format_move(row: Row) -> str:
    if row.is_new:
        return "new"
    move = row.move
    if move is None:
        return ""
    return f"▲{move}" if move > 0 else f"▼{-move}" if move < 0 else "="


def csv_unit(club: Club) -> str:
    """What a spreadsheet's amounts are counted in: "£", "$", or the club's points label."""
    if club.unit_kind == Club.UnitKind.POINTS:
        return club.points_label or "points"
    return club.currency_symbol or "major units"


def _empty_range(ladder: Ladder) -> str:
    start, end = ladder.date_from, ladder.date_to
    if start and end:
        return f"No hands were played between {start:%-d %b %Y} and {end:%-d %b %Y}."
    if start:
        return f"No hands have been played since {start:%-d %b %Y}."
    return f"No hands were played up to {end:%-d %b %Y}."


class LadderData(TableListData):
    """The standings rows: whatever column the table is sorted by, the qualified players stay
    above the line and the others below it."""

    def order_by(self, aliases: Any) -> None:
        super().order_by(aliases)
        self.data.sort(key=lambda row: not row.qualified)  # stable: keeps the column's order


def _row_class(record: Row, table: StandingsTable) -> str:
    if record.qualified:
        return ""
    return "below-line first-below" if record.player_id == table.first_below else "below-line"


class StandingsTable(tables.Table):
    # Empty cells stay empty (not django-tables2's dash), so that the CSV reads like the page.
    rank = tables.Column("#", order_by=("position",), attrs=NUM, default="")
    name = tables.Column("Player", order_by=("name",))
    nights = tables.Column("Nights", attrs=NUM)
    hands = tables.Column("Hands", attrs=OPTIONAL)
    declared = tables.Column("Declared", attrs=OPTIONAL)
    made = tables.Column("Made", attrs=OPTIONAL)
    counted = tables.Column("Net", attrs=NUM)
    average = tables.Column("Per hand", attrs=OPTIONAL)
    last_night = tables.Column(
        "Last night", order_by=("last_night_key",), attrs=OPTIONAL, default=""
    )
    move = tables.Column("Move", order_by=("move_key",), attrs=NUM, empty_values=())
    trend = tables.Column("Trend", orderable=False, exclude_from_export=True, empty_values=())

    class Meta:
        template_name = "grades/standings_table.html"
        attrs = {"class": "standings"}
        row_attrs = {"class": _row_class}
        empty_text = "No hands have been played in this season yet."

    def __init__(self, ladder: Ladder, club: Club, numbers: bool = False, **kwargs: Any) -> None:
        self.club = club
        self.ladder = ladder
        # For a spreadsheet (the CSV): amounts as numbers in major units, the unit in the header.
        self.numbers = numbers
        self.trends: dict[int, SafeString] = {}
        below = ladder.below_line
        self.first_below = below[0].player_id if below else None
        super().__init__(LadderData(list(ladder.rows)), **kwargs)
        points = ladder.uses_points
        heading = "Points" if points else "Net"
        if ladder.best_nights:
            heading += f" (best {ladder.best_nights})"
        self.columns["counted"].column.verbose_name = heading
        if points:
            self.columns["average"].column.verbose_name = "Points per hand"
            self.columns["last_night"].column.verbose_name = "Last night (pts)"
        elif numbers:
            unit = f" ({csv_unit(club)})"
            self.columns["counted"].column.verbose_name = heading + unit
            self.columns["average"].column.verbose_name += unit
            self.columns["last_night"].column.verbose_name += unit
        if ladder.date_from or ladder.date_to:
            self.empty_text = _empty_range(ladder)

    def paginate(self, *args: Any, per_page: int | None = None, **kwargs: Any) -> None:
        """Paginate, keeping a ?per_page= from the address between 1 and MAX_PER_PAGE."""
        per_page = min(max(per_page or PER_PAGE, 1), MAX_PER_PAGE)
        super().paginate(*args, per_page=per_page, **kwargs)

    def rendered_rows(self) -> list[tuple[str, SafeString]]:
        """The rows on this page as (class, cells markup), built here in one pass with the same
        render_ methods as django-tables2's cells but without its per-cell template work (which
        costs about 0.2 ms a cell); the header, sorting and pagination stay django-tables2's."""
        page = getattr(self, "page", None)
        bound_rows = page.object_list if page is not None else list(self.rows)
        columns = [
            (c.name, f"<td {c.attrs['td'].as_html()}>", getattr(self, f"render_{c.name}", None))
            for c in self.columns
        ]
        result = []
        for bound in bound_rows:
            record = bound.record
            cells = []
            for name, opening, render in columns:
                value = render(record) if render else getattr(record, name)
                cells.append(f"{opening}{conditional_escape(value)}</td>")
            result.append((_row_class(record, self), mark_safe("".join(cells))))
        return result

    spoken_averages = False  # value_average: the full figure (CSV) or pence as on the page

    def _points(self) -> bool:
        return self.ladder.uses_points

    def render_rank(self, record: Row) -> str:
        return "" if record.rank is None else str(record.rank)

    def value_rank(self, record: Row) -> str:
        return self.render_rank(record)

    def render_name(self, record: Row) -> SafeString:
        url = reverse("player_detail", args=[self.club.slug, record.player_id])
        query = f"?season={self.ladder.season.pk}"
        return format_html('<a href="{}{}">{}</a>', url, query, record.name)

    def value_name(self, record: Row) -> str:
        return record.name

    def render_counted(self, record: Row) -> SafeString:
        return self._amount(record.counted)

    def value_counted(self, record: Row) -> str | int | Decimal:
        if self.numbers:
            return self._number(record.counted)
        return format_measure(self.club, record.counted, self._points())

    def render_average(self, record: Row) -> str:
        return format_average(self.club, record.average, points=self._points())

    def value_average(self, record: Row) -> str | int | Decimal:
        """The CSV keeps the full figure, not the rounded pence of the page (the printed sheet,
        for people, sets spoken_averages)."""
        if self.numbers:
            return self._number(record.average, average=True)
        return format_average(
            self.club, record.average, points=self._points(), exact=not self.spoken_averages
        )

    def render_last_night(self, record: Row) -> SafeString | str:
        return "" if record.last_night is None else self._amount(record.last_night)

    def value_last_night(self, record: Row) -> str | int | Decimal:
        if record.last_night is None:
            return ""
        if self.numbers:
            return self._number(record.last_night)
        return format_measure(self.club, record.last_night, self._points())

    def _number(self, value: int | Fraction, average: bool = False) -> int | Decimal:
        """A figure for a spreadsheet: money in major units (pence / 100), an average to a
        hundredth of the minor unit; points as they are, an average to two places."""
        if self._points() or self.club.unit_kind == Club.UnitKind.POINTS:
            return _decimal(Fraction(value), 2) if average else int(value)
        minor = max(self.club.minor_units, 1)
        places = (len(str(minor - 1)) if minor > 1 else 0) + (2 if average else 0)
        return _decimal(Fraction(value) / minor, places)

    def render_move(self, record: Row) -> SafeString:
        text = format_move(record)
        if record.is_new:
            return format_html('<span class="move" title="New on the ladder">{}</span>', text)
        move = record.move
        if not move:
            return format_html('<span class="move muted">{}</span>', text)
        what = f"Up {move}" if move > 0 else f"Down {-move}"
        places = "place" if abs(move) == 1 else "places"
        css = "gain" if move > 0 else "loss"
        return format_html(
            '<span class="move {}" title="{} {} since the last night">{}</span>',
            css,
            what,
            places,
            text,
        )

    def value_move(self, record: Row) -> str:
        # The CSV says "same" for no change: a lone "=" is a formula to a spreadsheet, and the
        # apostrophe that would guard it shows in the cell.
        if self.numbers and not record.is_new and record.move == 0:
            return NO_CHANGE_WORD
        return format_move(record)

    def render_trend(self, record: Row) -> SafeString | str:
        return self.trends.get(record.player_id, "")

    def _amount(self, value: int) -> SafeString:
        css = "gain" if value > 0 else "loss" if value < 0 else "muted"
        return format_html(
            '<span class="{}">{}</span>', css, format_measure(self.club, value, self._points())
        )
