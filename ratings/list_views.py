"""Public pages of the official lists: the lists of a system, one list (with its CSV and JSON), and what changed
between two lists. A list's downloads are the same bytes whoever asks, in whatever language: the list is frozen."""

from __future__ import annotations

import csv
import io
import json

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from adlg_site.inputs import whole_number
from ratings.models import OfficialList, RatingSystem
from ratings.official_list_reads import (
    list_csv_rows,
    list_document,
    list_page_rows,
    lists_compared,
    official_list,
    official_lists,
)
from ratings.selectors import rank_name, rating_systems, ruleset_ranks
from rules.rulesets import Ruleset

PAGE_SIZE = 50


def _system(code: str) -> tuple[RatingSystem, list[RatingSystem]]:
    systems = rating_systems()
    system = next((s for s in systems if s.code == code), None)
    if system is None:
        raise Http404(_("No rating system %(code)s.") % {"code": code})
    return system, systems


# Beyond any list number or database integer: answered 404 without asking the database.
LARGEST = 999999999


def _list(system: RatingSystem, number: int) -> OfficialList:
    found = official_list(system.code, number) if number <= LARGEST else None
    if found is None:
        raise Http404(_("No official list no. %(number)s of %(system)s.") % {"number": number, "system": system.name})
    return found


def _rank_names(ruleset: Ruleset) -> dict[str, str]:
    language = get_language()
    return {r.code: rank_name(r, language) for r in ruleset_ranks(ruleset)}


def official_list_index(request, system: str):
    current, systems = _system(system)
    return render(request, "public/official_lists.html", {
        "system": current, "systems": systems, "lists": official_lists(current.code)})


def official_list_view(request, system: str, number: int):
    current, systems = _system(system)
    official = _list(current, number)
    paginator = Paginator(range(official.players), PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    rows = list_page_rows(official, page.start_index() - 1 if official.players else 0, page.end_index())
    names = _rank_names(current.get_ruleset())
    for row in rows:
        row.rank_name = names.get(row.rank_code, row.rank_code)
    return render(request, "public/official_list.html", {
        "system": current, "systems": systems, "official": official, "rows": rows, "page": page,
        "previous": official_list(current.code, official.number - 1)})


def official_list_csv(request, system: str, number: int):
    current, _systems = _system(system)
    official = _list(current, number)
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(list_csv_rows(official))
    response = HttpResponse(text.getvalue().encode(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (f'attachment; filename="official-list-{current.code}-{official.number}-'
                                       f'{official.valid_from:%Y-%m-%d}.csv"')
    return response


def official_list_json(request, system: str, number: int):
    current, _systems = _system(system)
    official = _list(current, number)
    body = json.dumps(list_document(official), ensure_ascii=False, sort_keys=True).encode()
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = (f'attachment; filename="official-list-{current.code}-{official.number}-'
                                       f'{official.valid_from:%Y-%m-%d}.json"')
    return response


def official_list_changes(request, system: str, number: int):
    """What changed from an earlier list (?since=M, the previous one by default) to list `number`."""
    current, systems = _system(system)
    newer = _list(current, number)
    older_number = whole_number(request.GET.get("since", ""), minimum=1, maximum=LARGEST) or newer.number - 1
    older = official_list(current.code, older_number) if older_number != newer.number else None
    error = ""
    comparison = None
    if older is None:
        error = (_("No official list no. %(number)s of %(system)s to compare with.")
                 % {"number": older_number, "system": current.name}) if older_number > 0 else \
            _("This is the first list: there is no earlier one to compare with.")
    else:
        if older.number > newer.number:
            older, newer = newer, older
        comparison = lists_compared(older, newer)
        names = _rank_names(current.get_ruleset())
        for change in comparison.changes:
            for row in (change.before, change.after):
                if row is not None:
                    row.rank_name = names.get(row.rank_code, row.rank_code)
    return render(request, "public/official_list_changes.html", {
        "system": current, "systems": systems, "official": newer, "comparison": comparison, "error": error,
        "lists": official_lists(current.code)}, status=200 if comparison else 404)
