"""Read API of the championship: the years, and a year's overall, national or international ranking."""

from __future__ import annotations

import django_filters
from django.db.models import Count
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, serializers
from rest_framework.exceptions import ParseError

from adlg_site.api_base import ERRORS, PublicReadMixin, StandardPagination, TextFilter
from championship.models import ChampionshipTotal
from championship.selectors import (
    INTERNATIONAL,
    NATIONAL,
    OVERALL,
    championship_ranking,
    counted_results,
    national_ranking_countries,
)


class ChampionshipFilter(django_filters.FilterSet):
    """Only the names matter here: the view applies them (a national ranking needs five registered players)."""

    country = TextFilter(method="keep", max_length=2,
                         help_text="National ranking of this country (ISO code); empty when the country has fewer "
                                   "than 5 registered players. Not with international.")
    international = django_filters.BooleanFilter(method="keep",
                                                 help_text="The international ranking. Not with country.")

    class Meta:
        model = ChampionshipTotal
        fields: list[str] = []

    def keep(self, queryset, name, value):
        return queryset


class CountedResultSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament_id")
    tournament_name = serializers.CharField(source="tournament.name")
    end_date = serializers.DateField(source="tournament.end_date")
    points = serializers.DecimalField(max_digits=8, decimal_places=2)


class ChampionshipTotalSerializer(serializers.ModelSerializer):
    position = serializers.IntegerField(help_text="Rank in this ranking (overall, national or international).")
    overall_rank = serializers.IntegerField(source="rank")
    player = serializers.IntegerField(source="player_id")
    last_name = serializers.CharField(source="player.last_name")
    first_name = serializers.CharField(source="player.first_name")
    country = serializers.CharField(source="country_id", allow_null=True)
    results_counted = serializers.IntegerField(source="results")
    counted_results = CountedResultSerializer(many=True, source="api_counted")

    class Meta:
        model = ChampionshipTotal
        fields = ["year", "position", "overall_rank", "player", "last_name", "first_name", "country", "total",
                  "results_counted", "international", "international_rank", "counted_results"]


class ChampionshipYearSerializer(serializers.Serializer):
    year = serializers.IntegerField()
    players = serializers.IntegerField(help_text="Players with a total that year.")


@extend_schema_view(get=extend_schema(operation_id="championship_years", summary="Years with a championship",
                                      responses={200: ChampionshipYearSerializer(many=True), **ERRORS}))
class ChampionshipYearListView(PublicReadMixin, generics.ListAPIView):
    serializer_class = ChampionshipYearSerializer
    pagination_class = None

    def get_queryset(self):
        return (ChampionshipTotal.objects.values("year").annotate(players=Count("id")).order_by("-year"))


@extend_schema_view(get=extend_schema(
    operation_id="championship_ranking",
    summary="A year's championship ranking: overall, national (?country=) or international",
    responses={200: ChampionshipTotalSerializer(many=True), **ERRORS}))
class ChampionshipRankingView(PublicReadMixin, generics.ListAPIView):
    serializer_class = ChampionshipTotalSerializer
    filterset_class = ChampionshipFilter
    pagination_class = StandardPagination

    def scope(self) -> tuple[str, str | None]:
        country = (self.request.query_params.get("country") or "").strip().upper() or None
        international = (self.request.query_params.get("international") or "").lower() in ("true", "1", "yes")
        if country and international:
            raise ParseError("Choose either country or international, not both.")
        if international:
            return INTERNATIONAL, None
        return (NATIONAL, country) if country else (OVERALL, None)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no year
            return ChampionshipTotal.objects.none()
        scope, country = self.scope()
        if scope == NATIONAL and country not in national_ranking_countries():
            return ChampionshipTotal.objects.none()
        return championship_ranking(year=int(self.kwargs["year"]), scope=scope, country=country)

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        rows = list(page if page is not None else queryset)
        scope, _ = self.scope()
        results = counted_results(year=int(self.kwargs["year"]), player_ids=[t.player_id for t in rows])
        start = self.paginator.page.start_index() if page is not None else 1
        for position, total in enumerate(rows, start=start):
            by_scope = {INTERNATIONAL: total.international_rank or position, OVERALL: total.rank}
            total.position = by_scope.get(scope, position)
            total.api_counted = results.get(total.player_id, [])
        return rows
