"""Public pages of the tournaments: the list by year and country, and one tournament in full."""

from __future__ import annotations

import json

from django import forms
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from adlg_site.inputs import whole_number
from ratings.official_list_reads import list_in_force
from ratings.selectors import country_name, rating_systems
from ratings.tournament_report import tournament_report
from tournaments.models import Tournament
from tournaments.selectors import (
    counts_verdict,
    tiebreak_text,
    tournament_countries,
    tournament_detail,
    tournament_list,
    tournament_years,
)
from tournaments.sheets.exchange import exchange_file_name, tournament_exchange

PAGE_SIZE = 50


class TournamentFilterForm(forms.Form):
    year = forms.TypedChoiceField(label=gettext_lazy("Year"), required=False, coerce=int, empty_value=None)
    country = forms.ChoiceField(label=gettext_lazy("Country"), required=False)
    system = forms.ChoiceField(label=gettext_lazy("Game"), required=False)
    status = forms.ChoiceField(
        label=gettext_lazy("Status"),
        required=False,
        choices=[("", gettext_lazy("all")), *Tournament.STATUS_CHOICES],
    )
    q = forms.CharField(label=gettext_lazy("Name or city"), required=False, max_length=80)

    def __init__(self, data, *, language: str, systems):
        super().__init__(data, label_suffix="")
        everyone = [("", _("all"))]
        self.fields["year"].choices = everyone + [(y, str(y)) for y in tournament_years()]
        self.fields["country"].choices = everyone + sorted(
            ((c.code, country_name(c, language)) for c in tournament_countries()), key=lambda c: c[1]
        )
        self.fields["system"].choices = everyone + [(s.code, s.name) for s in systems]


def tournament_list_view(request):
    language = get_language()
    systems = rating_systems()
    form = TournamentFilterForm(request.GET, language=language, systems=systems)
    filters = {}
    if form.is_valid():
        data = form.cleaned_data
        filters = {
            "year": data["year"],
            "country": data["country"] or None,
            "system": data["system"] or None,
            "status": data["status"] or None,
            "search": data["q"].strip() or None,
        }
    page = Paginator(tournament_list(**filters), PAGE_SIZE).get_page(request.GET.get("page"))
    for tournament in page.object_list:
        tournament.verdict = counts_verdict(tournament, language)
        tournament.country_name = country_name(tournament.country, language)
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request, "public/tournament_list.html", {"form": form, "page": page, "query": query.urlencode()}
    )


def tournament_detail_view(request, tournament_id: int):
    language = get_language()
    detail = tournament_detail(tournament_id=tournament_id, language=language, viewer=request.user)
    if detail is None:
        raise Http404(_("No tournament with this ID."))
    for pool in detail.pools:
        for line in pool.lines:
            line.tiebreak_text = tiebreak_text(line.standing.tiebreak)
            line.country_name = country_name(line.standing.player.country, language)
    return render(
        request,
        "public/tournament_detail.html",
        {
            "detail": detail,
            "tournament": detail.tournament,
            "country_name": country_name(detail.tournament.country, language),
            # A player's own line, marked: where a private link of the finished day leads (not a secret: an ID).
            "me": whole_number(request.GET.get("me") or "", minimum=1),
            # The official list in force on its first day (lists are frozen and never backdated: it never changes).
            "official_list": list_in_force(detail.tournament.system_id, detail.tournament.start_date),
            "report": tournament_report(detail.tournament),
        },
    )


def tournament_exchange_view(request, tournament_id: int):
    """The tournament in the exchange format (docs/exchange.md), as a file to save."""
    source = {"site": request.build_absolute_uri("/"),
              "tournament_page": request.build_absolute_uri(reverse("tournament_detail", args=[tournament_id]))}
    document = tournament_exchange(tournament_id=tournament_id, source=source)
    if document is None:
        raise Http404(_("No tournament with results with this ID."))
    response = HttpResponse(json.dumps(document, ensure_ascii=False, indent=1) + "\n",
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{exchange_file_name(tournament_id)}"'
    return response


def tournament_report_text(request, tournament_id: int):
    """The tournament's report as plain text in the reader's language, to paste into the federation's forum."""
    tournament = Tournament.objects.filter(pk=tournament_id).select_related("system").first()
    found = tournament_report(tournament) if tournament is not None else None
    if found is None:
        raise Http404(_("This tournament has no report yet: it comes with its published results."))
    text = render_to_string("public/tournament_report.txt", {
        "tournament": tournament, "report": found,
        "url": request.build_absolute_uri(reverse("tournament_detail", args=[tournament.pk]))}, request=request)
    return HttpResponse(text, content_type="text/plain; charset=utf-8")
