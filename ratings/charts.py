"""The rating-history chart of the player page, drawn on the server as SVG (readable without JavaScript).

Terms
-----
point
    The rating after one event of the player's history (a rated game or an inactivity adjustment); the first
    point is the rating before the first event. Points are spaced evenly, in history order, so a tournament of
    six games takes six steps whatever its dates.
marker
    A shape on a point that a reader may want to hover: a circle at the last game of each tournament, a
    diamond at each inactivity adjustment, a square at the opening balance a migrated player started from. Each
    marker and the line carry an SVG <title> (the browser's tooltip).
variant
    'wide' (760 units across, for a screen) or 'narrow' (360, for a phone): the page draws both and the stylesheet
    shows one, so the labels keep a readable size at either width instead of shrinking with the drawing.
year tick
    A vertical grid line at the first point of each calendar year, labelled with the year.

No Django here: the caller passes plain points and the translated labels, and marks the result safe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from html import escape

TOURNAMENT = "tournament"
ADJUSTMENT = "adjustment"
OPENING = "opening"
SIZES = {"wide": (760, 280), "narrow": (360, 240)}
NICE_STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass(frozen=True, slots=True)
class ChartPoint:
    rating: int
    when: date
    marker: str | None = None  # TOURNAMENT, ADJUSTMENT or None
    label: str = ""  # the tooltip of the marker


@dataclass(frozen=True, slots=True)
class ChartLabels:
    title: str
    description: str
    rating: str
    year: str


def _step(low: int, high: int, most_ticks: int = 6) -> int:
    span = max(high - low, 1)
    return next((s for s in NICE_STEPS if span / s <= most_ticks), NICE_STEPS[-1])


def _fmt(value: float) -> str:
    # SVG needs a dot as decimal separator whatever the language of the page.
    return f"{value:.1f}".rstrip("0").rstrip(".")


def rating_chart_svg(
    points: Sequence[ChartPoint], *, labels: ChartLabels, chart_id: str = "chart", variant: str = "wide",
) -> str:
    """The SVG markup of the chart; an empty string when there is nothing to draw."""
    if not points:
        return ""
    width, height = SIZES[variant]
    left, right, top, bottom = (52, 16, 14, 34) if variant == "wide" else (46, 10, 12, 34)
    plot_w, plot_h = width - left - right, height - top - bottom
    ratings = [p.rating for p in points]
    step = _step(min(ratings), max(ratings), most_ticks=6 if variant == "wide" else 5)
    low = (min(ratings) // step) * step
    high = -(-max(ratings) // step) * step
    if high == low:
        low, high = low - step, high + step
    count = len(points)

    def x(i: int) -> float:
        return left + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y(rating: float) -> float:
        return top + plot_h * (high - rating) / (high - low)

    esc = escape
    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart {variant}" id="{esc(chart_id)}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="{title_id} {desc_id}">',
        f'<title id="{title_id}">{esc(labels.title)}</title>',
        f'<desc id="{desc_id}">{esc(labels.description)}</desc>',
        f'<rect class="plot" x="{left}" y="{top}" width="{plot_w}" height="{plot_h}"/>',
    ]
    # Rating axis: horizontal grid lines with their values.
    for value in range(low, high + 1, step):
        gy = _fmt(y(value))
        out.append(f'<line class="grid" x1="{left}" y1="{gy}" x2="{left + plot_w}" y2="{gy}"/>')
        out.append(f'<text class="tick" x="{left - 6}" y="{gy}" text-anchor="end" dy="0.35em">{value}</text>')
    out.append(
        f'<text class="axis-label" transform="rotate(-90)" x="{_fmt(-(top + plot_h / 2))}" y="12" '
        f'text-anchor="middle">{esc(labels.rating)}</text>'
    )
    # Year axis: a line at the first point of each year; labels too close to the previous one are skipped.
    last_label_x = -1000.0
    previous_year = None
    for i, point in enumerate(points):
        if point.when.year != previous_year:
            previous_year = point.when.year
            gx = x(i)
            out.append(f'<line class="grid year" x1="{_fmt(gx)}" y1="{top}" x2="{_fmt(gx)}" y2="{top + plot_h}"/>')
            if gx - last_label_x >= 34:
                # A label at an edge is anchored inside the drawing, not cut in half by it.
                anchor = "start" if gx - left < 14 else "end" if left + plot_w - gx < 14 else "middle"
                out.append(f'<text class="tick year" x="{_fmt(gx)}" y="{top + plot_h + 16}" '
                           f'text-anchor="{anchor}">{point.when.year}</text>')
                last_label_x = gx
    out.append(f'<text class="axis-label" x="{left + plot_w / 2:.0f}" y="{height - 2}" '
               f'text-anchor="middle">{esc(labels.year)}</text>')
    line = " ".join(f"{_fmt(x(i))},{_fmt(y(p.rating))}" for i, p in enumerate(points))
    out.append(f'<polyline class="line" points="{line}"><title>{esc(labels.title)}</title></polyline>')
    for i, point in enumerate(points):
        px, py = _fmt(x(i)), _fmt(y(point.rating))
        tip = f"<title>{esc(point.label)}</title>" if point.label else ""
        if point.marker == TOURNAMENT:
            out.append(f'<circle class="marker tournament" cx="{px}" cy="{py}" r="4">{tip}</circle>')
        elif point.marker == OPENING:
            out.append(f'<rect class="marker opening" x="{_fmt(x(i) - 4.5)}" y="{_fmt(y(point.rating) - 4.5)}" '
                       f'width="9" height="9">{tip}</rect>')
        elif point.marker == ADJUSTMENT:
            cx, cy = x(i), y(point.rating)
            diamond = " ".join(f"{_fmt(cx + dx)},{_fmt(cy + dy)}" for dx, dy in ((0, -6), (6, 0), (0, 6), (-6, 0)))
            out.append(f'<polygon class="marker adjustment" points="{diamond}">{tip}</polygon>')
    out.append("</svg>")
    return "\n".join(out)
