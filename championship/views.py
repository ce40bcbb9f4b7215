"""Public pages of the championship: a year's overall, national and international rankings."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from championship.selectors import (
    INTERNATIONAL,
    NATIONAL,
    OVERALL,
    championship_countries,
    championship_ranking,
    championship_years,
    counted_results,
    national_ranking_countries,
)
from players.models import Country
from ratings.selectors import country_name

PAGE_SIZE = 100


def championship_index(request):
    years = championship_years()
    if not years:
        return render(request, "public/championship.html", {"years": [], "year": None, "scope": OVERALL})
    return redirect("championship_year", year=years[0])


def championship_year(request, year: int):
    return _ranking(request, year=year, scope=OVERALL)


def championship_international(request, year: int):
    return _ranking(request, year=year, scope=INTERNATIONAL)


def championship_country(request, year: int, country: str):
    return _ranking(request, year=year, scope=NATIONAL, country=country.upper())


def _ranking(request, *, year: int, scope: str, country: str | None = None):
    language = get_language()
    years = championship_years()
    chosen = None
    eligible = national_ranking_countries()
    if scope == NATIONAL:
        chosen = Country.objects.filter(pk=country).first()
        if chosen is None:
            raise Http404(_("No country %(code)s.") % {"code": country})
    has_ranking = scope != NATIONAL or country in eligible
    totals = championship_ranking(year=year, scope=scope, country=country) if has_ranking else []
    page = Paginator(totals, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = list(page.object_list)
    results = counted_results(year=year, player_ids=[t.player_id for t in rows])
    for position, total in enumerate(rows, start=page.start_index()):
        total.position = total.international_rank if scope == INTERNATIONAL else (
            position if scope == NATIONAL else total.rank)
        total.counted = results.get(total.player_id, [])
        total.country_name = country_name(total.country or total.player.country, language)
    countries = sorted(
        ({"code": c.code, "name": country_name(c, language), "eligible": c.code in eligible}
         for c in championship_countries(year=year)), key=lambda c: c["name"])
    return render(request, "public/championship.html", {
        "years": years,
        "year": year,
        "scope": scope,
        "country": chosen,
        "country_label": country_name(chosen, language) if chosen else "",
        "has_ranking": has_ranking,
        "countries": countries,
        "not_eligible": any(not c["eligible"] for c in countries),
        "page": page,
        "rows": rows,
    })
