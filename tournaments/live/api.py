"""Read API of the tournaments run live (PAIRING.md): the list, one tournament with its pools, published rounds,
tables and standings, and one round across its pools.

Only published rounds are public: a round the referee has proposed and not published is not shown (nor its
tables). Players are named by `id` (federation ID) or, for a player new to the federation, by `tag` (`N<n>`,
the tag the published workbook gives them; `new_players` of the publication maps it to the ID received); the
spare is id 99. The standings are those after the rounds complete so far, as `live_standings` prints them.
Reading is limited per client (LiveReadThrottle, the site's count of adlg_site.limits under its own group
"live_api"): a signed-in account wherever it connects from, else the client address as the whole site reads it.
"""

from __future__ import annotations

import django_filters
from django.http import Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from adlg_site.api_base import ERRORS, ErrorSerializer, PublicReadMixin, StandardPagination
from adlg_site.limits import ClientRateThrottle
from rules.rulesets import SPARE_ID, SPARE_NAME
from tournaments.live.selectors import LiveView, RoundView, live_find, live_list, live_view
from tournaments.models import LiveEntrant, LiveTournament


class LiveReadThrottle(ClientRateThrottle):
    """Apart from the rest of the API's count (settings.RATE_LIMITS["live_api"]): the live day's readers poll."""

    scope = "live_api"


LIVE_ERRORS = {**ERRORS, 429: OpenApiResponse(ErrorSerializer, description="Too many requests: wait and retry.")}


# --- the shapes


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="Federation ID (99: the spare); null for a player "
                                                              "new to the federation until publication.")
    tag = serializers.CharField(allow_null=True, help_text="N<n> for a player new to the federation, else null.")
    name = serializers.CharField()


class LivePlayerSerializer(PlayerRefSerializer):
    club = serializers.CharField(help_text="Empty: independent.")
    country = serializers.CharField()
    pool = serializers.CharField()
    group = serializers.CharField(help_text="Two-groups system: A or B; else empty.")
    rating = serializers.IntegerField(help_text="Rating when the tournament started.")
    joined_round = serializers.IntegerField()
    withdrawn_from = serializers.IntegerField(allow_null=True, help_text="Not paired from this round on.")
    present = serializers.BooleanField(help_text="Checked in: only players present are paired; one checked in "
                                                 "after round 1 of the pool joins from joined_round.")


class LiveTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    a = PlayerRefSerializer()
    b = PlayerRefSerializer(help_text="id 99: the spare.")
    result = serializers.CharField(allow_null=True, help_text="RESULT_SHEET.md code; null until entered.")
    a_losses = serializers.IntegerField(allow_null=True)
    b_losses = serializers.IntegerField(allow_null=True)
    free = serializers.BooleanField()
    missed = serializers.BooleanField(help_text="Always false: a late player has no game in the rounds missed "
                                                "(PAIRING.md §6, 2026-11-26).")


class LiveRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    pool = serializers.CharField()
    system = serializers.CharField(help_text="draw, hats, elo-levels, manual, classic, adapted or groups.")
    stage = serializers.CharField(help_text="Two-groups system: inside, join or joined; else empty.")
    seed = serializers.IntegerField(allow_null=True, help_text="The draw's seed (round 1): the same seed on the "
                                                                "same players gives the same pairing.")
    published_at = serializers.DateTimeField()
    complete = serializers.BooleanField(help_text="Every table has a result.")
    paired_from_other_results = serializers.BooleanField(
        help_text="An earlier result changed after this round was paired.")
    reason = serializers.CharField(help_text="The referee's reason for a rule bent or a result changed.")
    warnings = serializers.ListField(child=serializers.CharField(), help_text="Rules the pairing bends.")
    tables = LiveTableSerializer(many=True)


class LiveStandingSerializer(PlayerRefSerializer):
    rank = serializers.IntegerField()
    score = serializers.FloatField()
    opponents_score = serializers.FloatField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    games = serializers.IntegerField(help_text="Scored rounds.")
    tiebreak = serializers.CharField(allow_null=True, help_text="What placed the row below the one above: score, "
                                                                "opponents, head_to_head, rating or id.")


class LivePoolSerializer(serializers.Serializer):
    pool = serializers.CharField()
    system = serializers.CharField(allow_null=True, help_text="From round 2 on: classic, adapted or groups; null "
                                                              "before round 1 is paired.")
    complete_rounds = serializers.IntegerField(help_text="The standings are those after these rounds.")
    players = LivePlayerSerializer(many=True)
    standings = LiveStandingSerializer(many=True)
    rounds = LiveRoundSerializer(many=True, help_text="Published rounds only.")


class LiveTournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    system = serializers.CharField(help_text="Rating system code.")
    start_date = serializers.DateField()
    end_date = serializers.DateField()
    city = serializers.CharField()
    country = serializers.CharField()
    rounds = serializers.IntegerField()
    running = serializers.BooleanField(help_text="Not yet published; once published it is an ordinary tournament.")
    published_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField(help_text="Changes with every change the live pages show.")
    url = serializers.URLField(help_text="This live tournament in the API.")
    tournament_url = serializers.URLField(help_text="The tournament in the API (standings once rated).")


class LiveTournamentDetailSerializer(LiveTournamentSerializer):
    pools = LivePoolSerializer(many=True)


class LiveRoundDetailSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    round = serializers.IntegerField()
    pools = LiveRoundSerializer(many=True, help_text="The round in each pool where it is published.")


# --- plain values for the serializers


def _ref(entrant: LiveEntrant | None) -> dict:
    if entrant is None:
        return {"id": SPARE_ID, "tag": None, "name": SPARE_NAME}
    new = entrant.player_id is None
    return {"id": entrant.player_id, "tag": f"N{entrant.pk}" if new else None, "name": str(entrant)}


def _player(entrant: LiveEntrant) -> dict:
    return {**_ref(entrant), "club": entrant.club, "country": entrant.country, "pool": entrant.pool,
            "group": entrant.group, "rating": entrant.rating, "joined_round": entrant.joined_round,
            "withdrawn_from": entrant.withdrawn_from, "present": entrant.present}


def _round(view: RoundView) -> dict:
    r = view.round
    return {
        "number": r.number, "pool": r.pool, "system": r.system, "stage": r.stage, "seed": r.seed,
        "published_at": r.published_at, "complete": view.complete,
        "paired_from_other_results": r.paired_from_other_results, "reason": r.reason, "warnings": view.warnings,
        "tables": [{"table": t.table, "a": _ref(t.a), "b": _ref(t.b), "result": t.result or None,
                    "a_losses": t.a_losses, "b_losses": t.b_losses, "free": t.free, "missed": t.missed}
                   for t in view.tables],
    }


def _summary(live: LiveTournament, request) -> dict:
    t = live.tournament
    return {
        "id": t.pk, "name": t.name, "system": t.system_id, "start_date": t.start_date, "end_date": t.end_date,
        "city": t.city, "country": t.country_id, "rounds": t.rounds, "running": live.published_at is None,
        "published_at": live.published_at, "version": live.version,
        "url": request.build_absolute_uri(reverse("api:live-detail", args=[t.pk])),
        "tournament_url": request.build_absolute_uri(reverse("api:tournament-detail", args=[t.pk])),
    }


def _detail(view: LiveView, request) -> dict:
    return {**_summary(view.live, request), "pools": [
        {"pool": pool.pool, "system": pool.system, "complete_rounds": pool.complete_rounds,
         "players": [_player(e) for e in pool.entrants],
         "standings": [{**_ref(pool.by_key[line.key]), "rank": line.rank, "score": line.score,
                        "opponents_score": line.opponents_score, "wins": line.wins, "draws": line.draws,
                        "losses": line.losses, "games": line.games, "tiebreak": line.tiebreak}
                       for line in pool.standings.get(pool.complete_rounds, [])],
         "rounds": [_round(r) for r in pool.published_rounds]}
        for pool in view.pools]}


def _live_or_404(pk) -> LiveTournament:
    live = live_find(int(pk))
    if live is None:
        raise Http404
    return live


# --- the endpoints


class LiveFilter(django_filters.FilterSet):
    running = django_filters.BooleanFilter(method="filter_running",
                                           help_text="true: not yet published; false: published.")

    class Meta:
        model = LiveTournament
        fields: list[str] = []

    def filter_running(self, queryset, name, value):
        return queryset.filter(published_at__isnull=value)


@extend_schema(summary="Tournaments run live, the latest first",
               responses={200: LiveTournamentSerializer(many=True), **LIVE_ERRORS})
class LiveListView(PublicReadMixin, generics.ListAPIView):
    serializer_class = LiveTournamentSerializer
    filterset_class = LiveFilter
    pagination_class = StandardPagination
    throttle_classes = [LiveReadThrottle]

    def get_queryset(self):
        return live_list()

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(LiveTournamentSerializer([_summary(x, request) for x in page],
                                                                    many=True).data)


@extend_schema(summary="One tournament run live: its pools, players, published rounds, tables and standings",
               parameters=[OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH,
                                            description="The tournament's ID.")],
               responses={200: LiveTournamentDetailSerializer, **LIVE_ERRORS})
class LiveDetailView(PublicReadMixin, APIView):
    throttle_classes = [LiveReadThrottle]

    def get(self, request, pk):
        view = live_view(_live_or_404(pk), language="en")
        return Response(LiveTournamentDetailSerializer(_detail(view, request)).data)


@extend_schema(summary="One round of a tournament run live, in every pool where it is published",
               parameters=[OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH,
                                            description="The tournament's ID."),
                           OpenApiParameter("number", OpenApiTypes.INT, OpenApiParameter.PATH,
                                            description="The round.")],
               responses={200: LiveRoundDetailSerializer, **LIVE_ERRORS})
class LiveRoundView(PublicReadMixin, APIView):
    throttle_classes = [LiveReadThrottle]

    def get(self, request, pk, number):
        view = live_view(_live_or_404(pk), language="en")
        rounds = view.rounds(int(number))
        if not rounds:
            raise Http404
        return Response(LiveRoundDetailSerializer({"tournament": view.live.pk, "round": int(number),
                                                   "pools": [_round(r) for r in rounds]}).data)
