"""Charts drawn on the server as inline SVG: no script, no internet, and they print.

Pure functions from numbers to markup. Every piece of text (player names, labels) goes through
format_html, so a name like `<b>"Ann" & co</b>` is escaped; the result is marked safe only once
it has been built from escaped parts. Each chart carries its own text alternative: a <title> and
a <desc> (named by aria-labelledby) for the line chart, an aria-label and <title> for a sparkline.
Floats are used for pixel positions only; the values and their labels stay exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

Number = int | Fraction

# Okabe-Ito colours (told apart with colour-blindness) and dash patterns (told apart in grey print).
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#8c6d31")
DASHES = ("", "6 3", "2 3", "8 3 2 3")


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[Number]
    # The period of the player's first hand: a newcomer's line starts there, not as a flat zero
    # from the season's start. Values before it are not drawn.
    start: int = 0


# The end labels' room (the chart's right margin) holds this many characters of 12 px text.
END_LABEL_CHARS = 23


def _end_label(name: str, value: str) -> str:
    """ "Name +£1.20", the name cut short with "…" where the two would not fit the margin."""
    room = END_LABEL_CHARS - len(value) - 1
    if len(name) > room:
        name = name[: max(room - 1, 1)].rstrip() + "…"
    return f"{name} {value}"


def _style(i: int) -> tuple[str, str]:
    return COLOURS[i % len(COLOURS)], DASHES[(i // len(COLOURS)) % len(DASHES)]


def nice_ticks(low: Number, high: Number, count: int = 5) -> list[Fraction]:
    """Round tick values (1, 2 or 5 times a power of ten) covering low..high, always with 0;
    whole numbers when low and high are whole."""
    whole = all(isinstance(v, int) or v.denominator == 1 for v in (low, high))
    low, high = Fraction(min(low, 0)), Fraction(max(high, 0))
    if low == high:
        high = low + 1
    raw = (high - low) / count
    power = Fraction(10) ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if whole:
        step = max(step, Fraction(1))  # whole pence, cents or points
    first = math.floor(low / step)
    last = math.ceil(high / step)
    return [step * i for i in range(first, last + 1)]


def _fmt(value: float) -> str:
    return "%.1f" % value  # noqa: UP031 (the fastest way, and charts have thousands of these)


def _x_labels(labels: Sequence[str], x: Callable[[int], float]) -> list[tuple[int, str]]:
    """Which x-axis labels fit without overlapping: always the first and the last, then as many
    evenly spaced ones between as there is room for (about 7 px a character)."""
    n = len(labels)
    if n == 0:
        return []
    if n == 1:
        return [(0, "middle")]

    def span(i: int, anchor: str) -> tuple[float, float]:
        width = 7 * len(labels[i])
        left = {"start": x(i), "end": x(i) - width, "middle": x(i) - width / 2}[anchor]
        return left, left + width

    last_left, _ = span(n - 1, "end")
    chosen = [(0, "start")]
    right = span(0, "start")[1]
    step = max(1, n // 6)
    for i in range(step, n - 1, step):
        left, end = span(i, "middle")
        if left > right + 12 and end < last_left - 12:
            chosen.append((i, "middle"))
            right = end
    if last_left > span(0, "start")[1] + 12:
        chosen.append((n - 1, "end"))
    return chosen


def line_chart(
    series: Sequence[Series],
    labels: Sequence[str],
    *,
    title: str,
    description: str,
    value_format: Callable[[Number], str] = str,
    chart_id: str = "chart",
    width: int = 760,
    height: int = 340,
) -> SafeString:
    """Lines of values over the shared x-axis `labels`, each labelled with its name at its end."""
    left, right, top, bottom = 78, 170, 14, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for s in series for v in s.values] or [0]
    ticks = nice_ticks(min(values), max(values))
    lo, hi = ticks[0], ticks[-1]
    n = max(len(labels), 1)

    def x(i: int) -> float:
        return left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    lo_f, span_f = float(lo), float(hi - lo)

    def y(v: Number) -> float:
        return top + plot_h - (float(v) - lo_f) / span_f * plot_h

    parts = [
        format_html(
            '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {} {}" '
            'role="img" aria-labelledby="{}-title {}-desc" font-size="12" '
            'font-family="DejaVu Sans, sans-serif">',
            width,
            height,
            chart_id,
            chart_id,
        ),
        format_html('<title id="{}-title">{}</title>', chart_id, title),
        format_html('<desc id="{}-desc">{}</desc>', chart_id, description),
    ]
    for t in ticks:
        parts.append(
            format_html(
                '<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="{}" stroke-width="{}"/>'
                '<text x="{}" y="{}" text-anchor="end" fill="#5b6670">{}</text>',
                left,
                left + plot_w,
                _fmt(y(t)),
                _fmt(y(t)),
                "#1d232a" if t == 0 else "#d5dbe0",
                "1.2" if t == 0 else "1",
                left - 6,
                _fmt(y(t) + 4),
                value_format(t),
            )
        )
    for i, anchor in _x_labels(labels, x):
        parts.append(
            format_html(
                '<text x="{}" y="{}" text-anchor="{}" fill="#5b6670">{}</text>',
                _fmt(x(i)),
                height - bottom + 18,
                anchor,
                labels[i],
            )
        )
    ends: list[tuple[float, int]] = []
    for k, s in enumerate(series):
        if not s.values:
            continue
        colour, dash = _style(k)
        drawn = [(i, v) for i, v in enumerate(s.values) if i >= s.start]
        points = " ".join("%.1f,%.1f" % (x(i), y(v)) for i, v in drawn)  # noqa: UP031
        parts.append(
            format_html(
                '<polyline points="{}" fill="none" stroke="{}" stroke-width="2.2" '
                'stroke-dasharray="{}" stroke-linejoin="round"><title>{}: {}</title></polyline>',
                points,
                colour,
                dash or "none",
                s.name,
                value_format(s.values[-1]),
            )
        )
        ends.append((y(s.values[-1]), k))
    # End labels, nudged apart so that close finishes stay readable.
    ends.sort()
    placed: list[float] = []
    for end_y, k in ends:
        label_y = max(end_y, placed[-1] + 14) if placed else end_y
        placed.append(label_y)
        colour, _ = _style(k)
        s = series[k]
        parts.append(
            format_html(
                '<text x="{}" y="{}" fill="{}">{}<title>{}</title></text>',
                left + plot_w + 6,
                _fmt(label_y + 4),
                colour,
                _end_label(s.name, value_format(s.values[-1])),
                s.name,
            )
        )
    parts.append(mark_safe("</svg>"))
    return mark_safe("".join(parts))


def sparkline(
    values: Sequence[Number], *, label: str, width: int = 96, height: int = 24
) -> SafeString:
    """A small trend line with no axes; `label` is its text alternative."""
    if not values:
        return format_html('<span class="muted" aria-label="{}">-</span>', label)
    pad = 2
    floats = [float(v) for v in values]  # pixel positions only
    lo, hi = min(min(floats), 0.0), max(max(floats), 0.0)
    span = (hi - lo) or 1.0
    n = len(values)

    def x(i: int) -> float:
        return pad + ((width - 2 * pad) * i / (n - 1) if n > 1 else (width - 2 * pad) / 2)

    def y(v: float) -> float:
        return pad + (height - 2 * pad) * (hi - v) / span

    points = " ".join("%.1f,%.1f" % (x(i), y(v)) for i, v in enumerate(floats))  # noqa: UP031
    last = values[-1]
    colour = "#1b6e3a" if last > 0 else "#a32020" if last < 0 else "#5b6670"
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="spark" viewBox="0 0 {w} {h}" '
        'width="{w}" height="{h}" role="img" aria-label="{label}"><title>{label}</title>'
        '<line x1="0" x2="{w}" y1="{zero}" y2="{zero}" stroke="#d5dbe0" stroke-width="1"/>'
        '<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.6" '
        'stroke-linejoin="round"/><circle cx="{cx}" cy="{cy}" r="2" fill="{colour}"/></svg>',
        w=width,
        h=height,
        label=label,
        zero=_fmt(y(0.0)),
        points=points,
        colour=colour,
        cx=_fmt(x(n - 1)),
        cy=_fmt(y(floats[-1])),
    )


def data_rows(series: Sequence[Series], value_format: Callable[[Number], str]) -> SafeString:
    """Table rows (<tr>) with each series' values, for a chart's data table (every name and value
    escaped; built with plain joins, as a long season has thousands of cells)."""
    rows = []
    for s in series:
        cells = "".join(
            f'<td class="num">{escape(value_format(v)) if i >= s.start else ""}</td>'
            for i, v in enumerate(s.values)
        )
        rows.append(f'<tr><th scope="row">{escape(s.name)}</th>{cells}</tr>')
    return mark_safe("".join(rows))
