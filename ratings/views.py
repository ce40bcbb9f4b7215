"""Public pages of the ratings: the rating list of a system (with its downloads) and the rules page."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from datetime import date

from django import forms
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from openpyxl import Workbook

from adlg_site.csv_export import csv_writer, localised_row
from championship.selectors import championship_rules
from ratings.armies import federation_army_records
from ratings.calibration import calibrations_stored, stored_calibration
from ratings.calibration_chart import CalibrationLabels, calibration_svg
from ratings.models import RatingSystem
from ratings.official_list_reads import last_rated_tournament, latest_lists
from ratings.rating_list import RatingListPaginator, last_tournament_changes, rating_list, rating_rows
from ratings.selectors import (
    country_name,
    filter_choices,
    game_calculation,
    rank_name,
    rating_systems,
    ruleset_ranks,
)
from rules.predictions import outlook, percent, what_if
from rules.rulesets import RULESETS, SPARE_ID, Ruleset
from rules.shares import MIN_GAMES
from rules.spreadsheet import neutralised_row
from tournaments.selectors import charter_rules, game_score_examples, tiebreak_text

PAGE_SIZE = 50
EXPORT_CHUNK = 2000
SORT_CHOICES = [
    ("rating", gettext_lazy("rating")),
    ("name", gettext_lazy("name")),
    ("games", gettext_lazy("games")),
    ("last_played", gettext_lazy("last played")),
]


class RatingListForm(forms.Form):
    q = forms.CharField(label=gettext_lazy("Name or ID"), required=False, max_length=80)
    country = forms.ChoiceField(label=gettext_lazy("Country"), required=False)
    club = forms.TypedChoiceField(label=gettext_lazy("Club"), required=False, coerce=int, empty_value=None)
    rank = forms.ChoiceField(label=gettext_lazy("Rank"), required=False)
    active = forms.BooleanField(label=gettext_lazy("Played in the last 12 months"), required=False)
    sort = forms.ChoiceField(label=gettext_lazy("Sort by"), required=False, choices=SORT_CHOICES)

    def __init__(self, data, *, ruleset: Ruleset, language: str):
        super().__init__(data, label_suffix="")
        everyone = [("", _("all"))]
        choices = filter_choices(language)
        self.fields["country"].choices = everyone + choices["country"]
        self.fields["club"].choices = everyone + choices["club"]
        self.fields["rank"].choices = everyone + [(r.code, rank_name(r, language)) for r in ruleset_ranks(ruleset)]

    def filters(self) -> dict:
        """The valid filters; an invalid one is ignored (and its error shown by the form)."""
        data = self.cleaned_data if self.is_bound and hasattr(self, "cleaned_data") else {}
        return {
            "search": (data.get("q") or "").strip() or None,
            "country": data.get("country") or None,
            "club": data.get("club") or None,
            "rank": data.get("rank") or None,
            "active": bool(data.get("active")),
            "sort": data.get("sort") or "rating",
        }


def select_options(field: forms.BoundField) -> str:
    """The <option>s of a select, built in one pass: Django's widget templates cost ~0.1 ms per option, and
    the club and country lists have hundreds."""
    chosen = "" if field.value() is None else str(field.value())
    return mark_safe("".join(  # noqa: S308 - every value and label is escaped here
        f'<option value="{escape(str(value))}"{" selected" if str(value) == chosen else ""}>{escape(str(label))}'
        "</option>"
        for value, label in field.field.choices
    ))


def _system_or_404(code: str, systems: list[RatingSystem]) -> RatingSystem:
    system = next((s for s in systems if s.code == code), None)
    if system is None:
        raise Http404(_("No rating system %(code)s.") % {"code": code})
    return system


def _list_form(request, system: RatingSystem) -> tuple[RatingListForm, dict]:
    form = RatingListForm(request.GET, ruleset=system.get_ruleset(), language=get_language())
    form.is_valid()
    return form, form.filters()


def _decorate(rows, ruleset: Ruleset, language: str) -> None:
    """Rank and country names in the page's language, the player's link and the last game's date, made once
    per page: the template's own {% url %} and |date cost more than the rest of a row together."""
    names = {r.code: rank_name(r, language) for r in ruleset_ranks(ruleset)}
    dates: dict = {}  # a page's players share a few tournament dates: each is formatted once
    for row in rows:
        row.rank_name = names.get(row.rank_code, row.rank_code)
        row.country_name = country_name(row.player.country, language)
        row.url = reverse("player_detail", args=[row.player_id])
        played = row.last_played
        if played not in dates:
            dates[played] = date_format(played) if played else "—"  # the site's one date format
        row.last_played_text = dates[played]


def ratings_index(request):
    first = RatingSystem.objects.order_by("position", "code").first()
    if first is None:
        raise Http404(_("No rating system yet."))
    return redirect("rating_list", system=first.code)


def rating_list_view(request, system: str):
    systems = rating_systems()
    current = _system_or_404(system, systems)
    form, filters = _list_form(request, current)
    listing = rating_list(system=current, **filters)
    page = RatingListPaginator(listing, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = rating_rows(list(page.object_list), system=current, by_player=listing.by_player,
                       positions=listing.positions)
    _decorate(rows, current.get_ruleset(), get_language())
    changes = last_tournament_changes(system=current, player_ids=[row.player_id for row in rows])
    for row in rows:
        row.last_change = changes.get(row.player_id)
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "public/rating_list.html", {
        "systems": systems,
        "system": current,
        "form": form,
        "options": {name: select_options(form[name]) for name in ("country", "club", "rank", "sort")},
        "page": page,
        "rows": rows,
        "filtered": any(v for k, v in filters.items() if k != "sort"),
        # How many filters are on (a sort other than by rating counts): the folded filters' summary says it.
        "filter_count": sum(1 for k, v in filters.items() if v and (k != "sort" or v != "rating")),
        "query": query.urlencode(),
        "active_since": date.today().replace(year=date.today().year - 1) if filters["active"] else None,
        # Which figures the page shows (live), and the official list it offers beside them.
        "official": latest_lists([current.code]).get(current.code),
        "last_rated": last_rated_tournament(current.code),
    })


def _export_rows(request, system: str):
    current = _system_or_404(system, rating_systems())
    form, filters = _list_form(request, current)
    ruleset = current.get_ruleset()
    language = get_language()
    names = {r.code: rank_name(r, language) for r in ruleset_ranks(ruleset)}
    header = [_("position"), _("ID"), _("last name"), _("first name"), _("club"), _("country"), _("rating"),
              _("rank"), _("games"), _("last played")]

    def rows():
        yield header
        listing = rating_list(system=current, **filters)
        keys = listing[:]
        for start in range(0, len(keys), EXPORT_CHUNK):
            for row in rating_rows(keys[start:start + EXPORT_CHUNK], system=current, by_player=listing.by_player,
                                   positions=listing.positions):
                player = row.player
                yield [row.position, player.id, player.last_name, player.first_name,
                       player.club.name if player.club else "", player.country_id or "", row.rating,
                       names.get(row.rank_code, row.rank_code), row.games,
                       row.last_played.isoformat() if row.last_played else ""]

    return current, rows()


class _Echo:
    def write(self, value):
        return value


def rating_list_csv(request, system: str):
    current, rows = _export_rows(request, system)
    writer = csv_writer(_Echo())  # semicolons in French, commas in English: the reader's spreadsheet splits on them
    # Every text neutralised: a player named =HYPERLINK(...) must reach the spreadsheet as text (rules.spreadsheet);
    # then decimals written as the language does (a localised "-3,5" is a number, not a formula to neutralise).
    response = StreamingHttpResponse((writer.writerow(localised_row(neutralised_row(row))) for row in rows),
                                     content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ratings-{current.code}-{date.today():%Y-%m-%d}.csv"'
    return response


def rating_list_xlsx(request, system: str):
    current, rows = _export_rows(request, system)
    workbook = Workbook(write_only=True)  # streams rows to the file: memory stays flat on 100,000 players
    sheet = workbook.create_sheet(current.name[:31])
    for row in rows:
        sheet.append(neutralised_row(row))  # openpyxl writes a text starting with "=" as a live formula
    buffer = io.BytesIO()
    workbook.save(buffer)
    response = HttpResponse(buffer.getvalue(),
                            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    response["Content-Disposition"] = f'attachment; filename="ratings-{current.code}-{date.today():%Y-%m-%d}.xlsx"'
    return response


# --- the rules page and its calculator ------------------------------------------------------------------

RESULT_LABELS = {
    "A": gettext_lazy("A wins"),
    "A+": gettext_lazy("A wins, decisive victory"),
    "A++": gettext_lazy("A wins, overwhelming victory"),
    "B": gettext_lazy("B wins"),
    "B+": gettext_lazy("B wins, decisive victory"),
    "B++": gettext_lazy("B wins, overwhelming victory"),
    "D": gettext_lazy("draw"),
    "DD": gettext_lazy("double demoralisation (a draw)"),
}


# What each ruleset applies, in the reader's words: the ruleset's own name is the rules' English label.
RULESET_SOURCES = {
    "adlg-2018": gettext_lazy("the charter v3 (2018)"),
    "adlg-annex-a": gettext_lazy("the ELO annex A (before 2018)"),
    "battle-empire": gettext_lazy("the Battle Empire Elo rules"),
    "classic-elo": gettext_lazy("classic Elo (FIDE-like, tournament period)"),
}


def _result_choices(codes=None) -> list[tuple[str, str]]:
    codes = codes or dict.fromkeys(code for ruleset in RULESETS.values() for code in ruleset.result_values)
    return [(code, f"{code} — {RESULT_LABELS.get(code, code)}") for code in codes]


class CalculatorForm(forms.Form):
    system = forms.ChoiceField(label=gettext_lazy("Rating system"))
    rating_a = forms.IntegerField(label=gettext_lazy("Rating of A"), min_value=0, max_value=5000, initial=1000)
    games_a = forms.IntegerField(label=gettext_lazy("Rated games of A"), min_value=0, max_value=100000, initial=0)
    rating_b = forms.IntegerField(label=gettext_lazy("Rating of B"), min_value=0, max_value=5000, initial=1200)
    games_b = forms.IntegerField(label=gettext_lazy("Rated games of B"), min_value=0, max_value=100000, initial=10)
    result = forms.ChoiceField(label=gettext_lazy("Result"), choices=_result_choices)

    def __init__(self, data, *, systems: list[RatingSystem]):
        super().__init__(data, label_suffix="")
        self.systems = {s.code: s for s in systems}
        self.fields["system"].choices = [(s.code, s.name) for s in systems]
        # Offer only the results the chosen system rates (A+ and A++ are Battle Empire's): the system asked for,
        # else the first offered. The field still takes any code, so that a code of another system (an old link)
        # is answered by clean()'s sentence naming the system's codes. site.js swaps the list when the system
        # changes, from data-results.
        chosen = self.systems.get((data or {}).get("system")) or (systems[0] if systems else None)
        by_system = {s.code: _result_choices(s.get_ruleset().result_values) for s in systems}
        result = self.fields["result"]
        if chosen is not None:
            result.widget.choices = by_system[chosen.code]
        result.widget.attrs["data-results"] = json.dumps(
            {code: [[value, str(label)] for value, label in choices] for code, choices in by_system.items()},
            ensure_ascii=False)

    def clean(self):
        data = super().clean()
        system = self.systems.get(data.get("system"))
        result = data.get("result")
        if system is not None and result:
            ruleset = system.get_ruleset()
            if result not in ruleset.result_values:
                known = ", ".join(ruleset.result_values)
                self.add_error("result", _("%(result)s is not a rated result in %(system)s: choose one of "
                                           "%(known)s.") % {"result": result, "system": system.name, "known": known})
            else:
                data["ruleset"] = ruleset
        return data


def rules(request):
    systems = rating_systems()
    language = get_language()
    fields = set(CalculatorForm.base_fields)
    bound = any(name in request.GET for name in fields)
    form = CalculatorForm(request.GET if bound else None, systems=systems)
    calculation = None
    if bound and form.is_valid():
        data = form.cleaned_data
        calculation = game_calculation(ruleset=data["ruleset"], rating_a=data["rating_a"], games_a=data["games_a"],
                                       rating_b=data["rating_b"], games_b=data["games_b"], result=data["result"])
    sides = []
    if calculation is not None:
        c = calculation
        for side, (rating, games, opp, opp_games, p) in (
                ("A", (c.rating_a, c.games_a, c.rating_b, c.games_b, c.p_a)),
                ("B", (c.rating_b, c.games_b, c.rating_a, c.games_a, c.p_b))):
            sides.append({"side": side, "percent": percent(p), "outlook": outlook(p),
                          "outcomes": what_if(c.ruleset, rating, games, opp, opp_games)})
    explained = [_explain(system, system.get_ruleset(), language) for system in systems]
    return render(request, "public/rules.html", {
        "systems": explained,
        "form": form,
        "calculation": calculation,
        "sides": sides,
        # the system's name as the site shows it everywhere, in either language (the ruleset's name is the
        # rules' English label, "charter v3 (2018)", not a word for the page)
        "calculation_system": form.systems.get(form.cleaned_data["system"]) if calculation else None,
        "result_label": RESULT_LABELS.get(calculation.result, calculation.result) if calculation else "",
        "scores": game_score_examples(),
        "charter": charter_rules(),
        "championship": championship_rules(),
        "tiebreaks": [tiebreak_text(code) for code in ("score", "opponents", "head_to_head", "rating", "id")],
        "spare_id": SPARE_ID,
    })


def _explain(system: RatingSystem, ruleset: Ruleset, language: str) -> dict:
    """The ruleset of `system` in words, generated from its data (never written by hand)."""
    ranks = []
    ladder = ruleset.ranks
    for i, rank in enumerate(ladder):
        upper = ladder[i + 1].min_rating - 1 if i + 1 < len(ladder) else None
        ranks.append({"name": rank_name(rank, language), "code": rank.code, "low": rank.min_rating, "high": upper,
                      "games": rank.min_games})
    unproven = None
    if ruleset.unproven_rank is not None:
        gated = next((r for r in ladder if r.min_games), None)
        unproven = {"name": rank_name(ruleset.unproven_rank, language),
                    "rating": gated.min_rating if gated else ruleset.unproven_rank.min_rating,
                    "games": gated.min_games if gated else 0}
    return {
        "system": system,
        "ruleset": ruleset,
        "source": RULESET_SOURCES.get(ruleset.code, ruleset.name),
        "k_bands": [_k_band_text(band) for band in ruleset.k_bands],
        "outcomes": [{"code": o.code, "label": RESULT_LABELS.get(o.code, o.code), "a": o.a, "b": o.b}
                     for o in ruleset.outcomes],
        "forfeits": sorted(ruleset.forfeits),
        "ranks": ranks,
        "unproven": unproven,
        "rounding": _rounding_text(ruleset),
        "period": _period_text(ruleset),
        "inactivity": [_("−%(amount)s when the rating is above %(above)s") % {"amount": s.amount, "above": s.above}
                       for s in ruleset.inactivity],
    }


def _k_band_text(band) -> dict:
    conditions = []
    if band.max_games is not None:
        conditions.append(_("fewer than %(n)s rated games") % {"n": band.max_games + 1})
    if band.min_games is not None:
        conditions.append(_("at least %(n)s rated games") % {"n": band.min_games})
    if band.min_rating is not None:
        conditions.append(_("rating at least %(n)s") % {"n": band.min_rating})
    if band.max_rating is not None:
        conditions.append(_("rating at most %(n)s") % {"n": band.max_rating})
    return {"k": band.k, "when": _(" and ").join(conditions) if conditions else _("otherwise")}


def _rounding_text(ruleset: Ruleset) -> str:
    if ruleset.rounding == "truncate":
        return _("The change is truncated toward zero (35.76 gives 35, −14.2 gives −14).")
    return _("The change is rounded to the nearest whole number, halves away from zero (8.5 gives 9, −8.5 gives −9).")


def _period_text(ruleset: Ruleset) -> str:
    if ruleset.period == "game":
        return _("Games are rated one after another, in round order, each from the ratings and game counts left "
                 "by the previous one.")
    return _("Every game of a tournament is rated from the ratings before the tournament; each player's changes "
             "are added up and rounded once.")



# --- the calibration page ------------------------------------------------------------------------------------


@dataclass
class CalibrationSection:
    system: RatingSystem
    row: object  # ratings.models.Calibration, or None before the first replay
    result: object  # rules.calibration.Calibration
    chart: str
    wins_above_one: bool  # Battle Empire: a win can score more than 1


def calibration_page(request):
    systems = rating_systems()
    stored = calibrations_stored(systems)
    sections = []
    for system in systems:
        row = stored.get(system.code)
        result = stored_calibration(row) if row else None
        chart = ""
        if result and result.bands:
            labels = CalibrationLabels(
                title=_("How well the %(system)s ratings predict") % {"system": system.name},
                description=_("For each band of rating difference, the score the ratings predicted for the "
                              "higher-rated player and the score they made, in per cent, with the interval chance "
                              "alone would keep it in 19 times out of 20."),
                score=_("score of the higher-rated, %"), difference=_("rating difference"),
                predicted=_("predicted"), observed=_("scored"))
            svg = calibration_svg(result.bands, labels=labels, chart_id=f"calibration-{system.code}")
            chart = mark_safe(svg)  # noqa: S308 - calibration_svg escapes every label
        sections.append(CalibrationSection(system, row, result, chart,
                                           system.get_ruleset().max_result_value > 1))
    return render(request, "public/calibration.html", {"sections": sections, "min_games": MIN_GAMES})


# --- the armies' page ------------------------------------------------------------------------------------------


def armies_page(request):
    systems = rating_systems()
    sections = []
    for system in systems:
        records, pairs = federation_army_records(system)
        sections.append({"system": system, "records": records, "pairs": pairs})
    return render(request, "public/armies.html", {"sections": sections, "min_games": MIN_GAMES})
