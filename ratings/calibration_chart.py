"""The calibration page's plot, drawn on the server as SVG (readable without JavaScript, and on a phone).

One band of rating difference per column, evenly spaced; up the side, the higher-rated player's score as a
percentage. The ratings' prediction is a line through hollow circles; what the players scored is a filled square
with its 95 % interval as a vertical bar. A band under the minimum sample has its prediction and no square. The
drawing is 360 units wide, the width of a phone, and scales up with the page: the labels stay readable at either.

No Django here: the caller passes the bands and the translated labels, and marks the result safe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from rules.calibration import Band

WIDTH, HEIGHT = 360, 250


@dataclass(frozen=True, slots=True)
class CalibrationLabels:
    title: str
    description: str
    score: str  # the vertical axis
    difference: str  # the horizontal axis
    predicted: str
    observed: str


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def calibration_svg(bands: Sequence[Band], *, labels: CalibrationLabels, chart_id: str) -> str:
    """The SVG markup of the plot; an empty string when there is no band."""
    if not bands:
        return ""
    left, right, top, bottom = 40, 8, 26, 40
    plot_w, plot_h = WIDTH - left - right, HEIGHT - top - bottom
    values = [b.predicted for b in bands] + [v for b in bands if b.interval for v in b.interval]
    low = min(0.4, (min(values) * 10) // 1 / 10)
    high = max(1.0, -(-max(values) * 10 // 1) / 10)
    step = 0.1 if high - low <= 0.7 else 0.2

    def x(i: int) -> float:
        return left + plot_w * (i + 0.5) / len(bands)

    def y(score: float) -> float:
        return top + plot_h * (high - score) / (high - low)

    esc = escape
    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="calibration-chart" id="{esc(chart_id)}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="{title_id} {desc_id}">',
        f'<title id="{title_id}">{esc(labels.title)}</title>',
        f'<desc id="{desc_id}">{esc(labels.description)}</desc>',
        f'<rect class="plot" x="{left}" y="{top}" width="{plot_w}" height="{plot_h}"/>',
    ]
    tick = low
    while tick <= high + 1e-9:
        gy = _fmt(y(tick))
        out.append(f'<line class="grid" x1="{left}" y1="{gy}" x2="{left + plot_w}" y2="{gy}"/>')
        out.append(f'<text class="tick" x="{left - 4}" y="{gy}" text-anchor="end" dy="0.35em">'
                   f'{round(tick * 100)}</text>')
        tick += step
    out.append(f'<text class="axis-label" transform="rotate(-90)" x="{_fmt(-(top + plot_h / 2))}" y="10" '
               f'text-anchor="middle">{esc(labels.score)}</text>')
    every = 1 if len(bands) <= 8 else 2  # a label every other band when they would touch
    for i, band in enumerate(bands):
        if i % every == 0 or i == len(bands) - 1:
            text = f"{band.low}+" if band.high is None else str(band.low)
            out.append(f'<text class="tick" x="{_fmt(x(i))}" y="{top + plot_h + 14}" text-anchor="middle">'
                       f'{text}</text>')
    out.append(f'<text class="axis-label" x="{left + plot_w / 2:.0f}" y="{HEIGHT - 4}" text-anchor="middle">'
               f'{esc(labels.difference)}</text>')
    line = " ".join(f"{_fmt(x(i))},{_fmt(y(b.predicted))}" for i, b in enumerate(bands))
    out.append(f'<polyline class="predicted" points="{line}"/>')
    for i, band in enumerate(bands):
        cx = _fmt(x(i))
        out.append(f'<circle class="predicted" cx="{cx}" cy="{_fmt(y(band.predicted))}" r="3.5">'
                   f'<title>{esc(labels.predicted)}: {band.predicted * 100:.1f}</title></circle>')
        if band.interval is None or band.observed is None:
            continue
        y_low, y_high = _fmt(y(band.interval.low)), _fmt(y(band.interval.high))
        out.append(f'<line class="interval" x1="{cx}" y1="{y_low}" x2="{cx}" y2="{y_high}"/>')
        oy = y(band.observed)
        out.append(f'<rect class="observed" x="{_fmt(x(i) - 3.5)}" y="{_fmt(oy - 3.5)}" width="7" height="7">'
                   f'<title>{esc(labels.observed)}: {band.observed * 100:.1f} '
                   f'({band.interval.low * 100:.1f}–{band.interval.high * 100:.1f})</title></rect>')
    # The legend, above the plot.
    out.append(f'<circle class="predicted" cx="{left + 6}" cy="11" r="3.5"/>'
               f'<text class="legend" x="{left + 14}" y="11" dy="0.35em">{esc(labels.predicted)}</text>')
    mid = left + plot_w / 2 + 10
    out.append(f'<rect class="observed" x="{_fmt(mid - 3.5)}" y="7.5" width="7" height="7"/>'
               f'<line class="interval" x1="{_fmt(mid)}" y1="3" x2="{_fmt(mid)}" y2="19"/>'
               f'<text class="legend" x="{_fmt(mid + 8)}" y="11" dy="0.35em">{esc(labels.observed)}</text>')
    out.append("</svg>")
    return "\n".join(out)
