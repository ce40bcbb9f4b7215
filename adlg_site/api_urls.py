"""The read API under /api/ (namespace "api"): public GETs, OpenAPI schema and a docs page that needs no CDN."""

from functools import lru_cache

from django.http import JsonResponse
from django.shortcuts import render
from django.urls import path, re_path
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from adlg_site.api_base import PublicReadMixin
from championship.api import ChampionshipRankingView, ChampionshipYearListView
from players.api import PlayerDetailView, PlayerListView
from ratings.api import OfficialListListView, RatingSystemListView, RulesetDetailView, RulesetListView
from tournaments.api import TournamentDetailView, TournamentExchangeView, TournamentListView
from tournaments.live.api import LiveDetailView, LiveListView, LiveRoundView
from tournaments.sheets import api as api_upload

app_name = "api"


@extend_schema(exclude=True)
class ApiRootView(PublicReadMixin, APIView):
    """Links to every collection of the read API."""

    def get(self, request):
        def link(name):
            return reverse(f"api:{name}", request=request)

        return Response({
            "players": link("player-list"),
            "tournaments": link("tournament-list"),
            "live": link("live-list"),
            "championship": link("championship-years"),
            "systems": link("system-list"),
            "rulesets": link("ruleset-list"),
            "schema": link("schema"),
            "docs": link("docs"),
        })


@lru_cache(maxsize=1)
def _operations() -> list[dict]:
    """The operations of the schema, for the docs page (generated once per process)."""
    schema = SchemaGenerator(urlconf="adlg_site.urls").get_schema(request=None, public=True)
    rows = []
    for route, methods in schema.get("paths", {}).items():
        for method, operation in methods.items():
            rows.append({
                "method": method.upper(),
                "path": route,
                "browsable": "{" not in route,
                "summary": operation.get("summary", ""),
                "description": operation.get("description", ""),
                "parameters": [
                    {"name": p["name"], "where": p["in"], "required": p.get("required", False),
                     "type": p.get("schema", {}).get("type", ""), "description": p.get("description", "")}
                    for p in operation.get("parameters", [])
                ],
            })
    return rows


def api_not_found(request, rest=""):
    """A path under one of the read API's collections that matches no endpoint: a JSON 404."""
    return JsonResponse({"detail": "Not found: no such API endpoint (see /api/docs/)."}, status=404)


def api_docs(request):
    return render(request, "public/api_docs.html", {"operations": _operations()})


urlpatterns = [
    path("", ApiRootView.as_view(), name="root"),
    path("players/", PlayerListView.as_view(), name="player-list"),
    path("players/<int:pk>/", PlayerDetailView.as_view(), name="player-detail"),
    path("tournaments/", TournamentListView.as_view(), name="tournament-list"),
    path("tournaments/<int:pk>/", TournamentDetailView.as_view(), name="tournament-detail"),
    path("tournaments/<int:pk>/exchange/", TournamentExchangeView.as_view(), name="tournament-exchange"),
    path("live/", LiveListView.as_view(), name="live-list"),
    path("live/<int:pk>/", LiveDetailView.as_view(), name="live-detail"),
    path("live/<int:pk>/rounds/<int:number>/", LiveRoundView.as_view(), name="live-round"),
    path("championship/", ChampionshipYearListView.as_view(), name="championship-years"),
    path("championship/<int:year>/", ChampionshipRankingView.as_view(), name="championship-ranking"),
    path("systems/", RatingSystemListView.as_view(), name="system-list"),
    path("systems/<str:code>/lists/", OfficialListListView.as_view(), name="official-list-list"),
    path("rulesets/", RulesetListView.as_view(), name="ruleset-list"),
    path("rulesets/<str:code>/", RulesetDetailView.as_view(), name="ruleset-detail"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", api_docs, name="docs"),
    *api_upload.urlpatterns,  # POST sheets/ (referees and the board), GET sheets/<id>/
    # A malformed ID or year under the read API's own collections answers in JSON, not with the HTML 404 page.
    # Only these prefixes, placed last: the endpoints above always match first. [\s\S], not '.': a path may
    # hold an encoded newline, which '.' does not match (schemathesis found one).
    re_path(r"^(?P<rest>(?:players|tournaments|live|championship|rulesets|sheets|systems)/[\s\S]*)\Z", api_not_found),
]
