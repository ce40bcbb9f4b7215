"""The rating-history SVG, drawn without Django from plain points."""

from __future__ import annotations

import re
from datetime import date

from defusedxml import ElementTree as ET

from ratings.charts import ADJUSTMENT, TOURNAMENT, ChartLabels, ChartPoint, rating_chart_svg

LABELS = ChartLabels(title="Rating history", description="From 2022 to 2024", rating="rating", year="year")
SVG = "{http://www.w3.org/2000/svg}"
DECIMAL = re.compile(r"\d+(\.\d+)?")


def chart(points):
    return ET.fromstring(rating_chart_svg(points, labels=LABELS, chart_id="c"))


def test_it_draws_nothing_without_points():
    assert rating_chart_svg([], labels=LABELS) == ""


def test_it_draws_a_polyline_through_every_point():
    points = [ChartPoint(1000 + 10 * i, date(2022, 1, 1 + i)) for i in range(5)]
    line = chart(points).find(f"{SVG}polyline")
    assert len(line.get("points").split()) == 5


def test_it_marks_tournaments_and_adjustments_differently_with_tooltips():
    points = [
        ChartPoint(1000, date(2022, 3, 1)),
        ChartPoint(1030, date(2022, 3, 1), TOURNAMENT, "Open de Paris: 1000 → 1030"),
        ChartPoint(980, date(2022, 12, 31), ADJUSTMENT, "Inactivity <2022> & co"),
    ]
    svg = chart(points)
    circles = svg.findall(f"{SVG}circle")
    diamonds = svg.findall(f"{SVG}polygon")
    assert len(circles) == 1 and len(diamonds) == 1
    assert circles[0].find(f"{SVG}title").text == "Open de Paris: 1000 → 1030"
    assert diamonds[0].find(f"{SVG}title").text == "Inactivity <2022> & co"  # escaped, so the XML parses


def test_it_labels_each_year_and_rating_ticks():
    points = [ChartPoint(900, date(2021, 5, 1)), ChartPoint(1100, date(2022, 5, 1)), ChartPoint(1250, date(2024, 1, 1))]
    texts = [t.text for t in chart(points).iter(f"{SVG}text")]
    for year in ("2021", "2022", "2024"):
        assert year in texts
    assert "900" in texts and "1250" in texts or "1300" in texts
    assert "rating" in texts and "year" in texts


def test_it_is_accessible_with_a_title_and_a_description():
    svg = chart([ChartPoint(1000, date(2022, 1, 1))])
    assert svg.get("role") == "img"
    assert svg.find(f"{SVG}title").text == "Rating history"
    assert svg.find(f"{SVG}desc").text == "From 2022 to 2024"


def test_it_uses_dots_for_decimals_whatever_the_language():
    line = chart([ChartPoint(1000, date(2022, 1, 1)), ChartPoint(1003, date(2022, 1, 2))]).find(f"{SVG}polyline")
    pairs = line.get("points").split()
    assert len(pairs) == 2
    for pair in pairs:
        # Two numbers with a dot for decimals, and exactly one comma: the separator, never a decimal comma.
        x, y = pair.split(",")
        assert DECIMAL.fullmatch(x) and DECIMAL.fullmatch(y), pair
