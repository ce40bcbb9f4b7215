"""Read API of the tournaments: the list, and one tournament with its standings and games."""

from __future__ import annotations

import django_filters
from django.db.models import Q
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from adlg_site.api_base import ERRORS, IntegerFilter, PublicReadMixin, StandardPagination, TextFilter
from adlg_site.words import languages
from ratings.models import RatingSystem
from tournaments.models import Tournament
from tournaments.selectors import charter_failure_text, tiebreak_text, tournament_detail, tournament_list
from tournaments.sheets.exchange import tournament_exchange


class TournamentFilter(django_filters.FilterSet):
    year = IntegerFilter(
        field_name="end_date", lookup_expr="year", min_value=1900, max_value=2999, help_text="Year of the end date."
    )
    country = TextFilter(
        method="filter_country", max_length=2, help_text="ISO 3166 code of the host country, e.g. FR."
    )
    system = django_filters.ModelChoiceFilter(
        queryset=RatingSystem.objects.all(),
        field_name="system",
        to_field_name="code",
        help_text="Rating system code.",
    )
    status = django_filters.ChoiceFilter(choices=Tournament.STATUS_CHOICES)
    search = TextFilter(
        method="filter_search", max_length=80, help_text="Words of the name or city."
    )
    ordering = django_filters.OrderingFilter(
        fields=(("end_date", "end_date"), ("start_date", "start_date")),
        help_text="end_date or start_date, - for descending (default -end_date).",
    )

    class Meta:
        model = Tournament
        fields: list[str] = []

    def filter_country(self, queryset, name, value):
        return queryset.filter(country_id=value.upper())

    def filter_search(self, queryset, name, value):
        value = value.strip()
        return queryset.filter(Q(name__icontains=value) | Q(city__icontains=value)) if value else queryset

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        return queryset.order_by(*(queryset.query.order_by or ("-end_date", "-start_date")), "-id")


class CharterFailureSerializer(serializers.Serializer):
    code = serializers.CharField()
    params = serializers.DictField()
    message_en = serializers.CharField()
    message_fr = serializers.CharField()


def _failures(outcome) -> list[dict]:
    items = (outcome.charter_failures or []) if outcome else []
    rows = []
    for item in items:
        code = item.get("code", "") if isinstance(item, dict) else str(item)
        params = item.get("params", {}) if isinstance(item, dict) else {}
        rows.append(
            {
                "code": code,
                "params": params,
                # message_en, message_fr: the API's fields, one per language of the site
                **{f"message_{code}": charter_failure_text(item, code) for code in languages()},
            }
        )
    return rows


class TournamentSerializer(serializers.ModelSerializer):
    system = serializers.CharField(source="system_id")
    country = serializers.CharField(source="country_id")
    organising_club = serializers.CharField(source="organising_club.name", allow_null=True)
    counts = serializers.SerializerMethodField(
        help_text="Counts for the championship: the board's override, else the charter checks; null until rated."
    )
    charter_failures = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "system",
            "start_date",
            "end_date",
            "city",
            "country",
            "organising_club",
            "format",
            "rounds",
            "pools",
            "worlds",
            "official",
            "status",
            "counts",
            "counts_override",
            "override_reason",
            "charter_failures",
        ]

    @staticmethod
    def _outcome(obj):
        try:
            return obj.outcome
        except Tournament.outcome.RelatedObjectDoesNotExist:
            return None

    @extend_schema_field(serializers.BooleanField(allow_null=True))
    def get_counts(self, obj):
        if obj.counts_override is not None:
            return obj.counts_override
        outcome = self._outcome(obj)
        return outcome.counts if outcome else None

    @extend_schema_field(CharterFailureSerializer(many=True))
    def get_charter_failures(self, obj):
        return _failures(self._outcome(obj))


class RoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    opponent = serializers.IntegerField(allow_null=True, source="opponent.id")
    result = serializers.CharField(help_text="From the player's side: W, L, D, DD, FW, FL, W+, W++, L+, L++.")
    score = serializers.FloatField(allow_null=True)
    free = serializers.BooleanField()


class StandingSerializer(serializers.Serializer):
    pool = serializers.CharField(source="standing.pool")
    rank = serializers.IntegerField(source="standing.rank")
    player = serializers.IntegerField(source="standing.player_id")
    name = serializers.CharField(source="standing.player.full_name")
    score = serializers.FloatField(source="standing.score")
    opponents_score = serializers.FloatField(source="standing.opponents_score")
    tiebreak = serializers.CharField(
        source="standing.tiebreak",
        help_text="What placed the row below the one above: score, opponents, "
        "head_to_head, rating or id; empty for the first.",
    )
    tiebreak_text = serializers.CharField()
    penalty = serializers.IntegerField(source="standing.penalty")
    penalty_reason = serializers.CharField()
    wins = serializers.IntegerField(source="standing.wins")
    draws = serializers.IntegerField(source="standing.draws")
    losses = serializers.IntegerField(source="standing.losses")
    games = serializers.IntegerField(source="standing.games")
    rating_before = serializers.IntegerField(source="standing.rating_before", allow_null=True)
    rating_after = serializers.IntegerField(source="standing.rating_after", allow_null=True)
    performance = serializers.FloatField(source="standing.performance", allow_null=True)
    championship_points = serializers.DecimalField(max_digits=8, decimal_places=2, allow_null=True)
    rounds = serializers.SerializerMethodField()

    @extend_schema_field(RoundSerializer(many=True))
    def get_rounds(self, line):
        return RoundSerializer([c for c in line.cells if c is not None], many=True).data


class GameSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="game.round")
    table = serializers.IntegerField(source="game.table")
    player_a = serializers.IntegerField(source="a.player.id")
    player_b = serializers.IntegerField(source="b.player.id")
    result = serializers.CharField(source="game.result")
    a_losses = serializers.IntegerField(source="game.a_losses", allow_null=True)
    b_losses = serializers.IntegerField(source="game.b_losses", allow_null=True)
    free = serializers.BooleanField(source="game.free")
    change_a = serializers.IntegerField(source="a.change", allow_null=True, help_text="Rating change of A.")
    change_b = serializers.IntegerField(source="b.change", allow_null=True, help_text="Rating change of B.")


class TournamentDetailSerializer(TournamentSerializer):
    average_rating = serializers.FloatField(source="outcome.average_rating", allow_null=True)
    ranked_players = serializers.IntegerField(source="outcome.ranked_players", allow_null=True)
    rated_games = serializers.IntegerField(source="outcome.rated_games", allow_null=True)
    standings = StandingSerializer(many=True, source="api_standings")
    games = GameSerializer(many=True, source="api_games")

    class Meta(TournamentSerializer.Meta):
        fields = [
            *TournamentSerializer.Meta.fields,
            "average_rating",
            "ranked_players",
            "rated_games",
            "standings",
            "games",
        ]


@extend_schema(
    summary="Tournaments, newest first", responses={200: TournamentSerializer(many=True), **ERRORS}
)
class TournamentListView(PublicReadMixin, generics.ListAPIView):
    serializer_class = TournamentSerializer
    filterset_class = TournamentFilter
    pagination_class = StandardPagination

    def get_queryset(self):
        return tournament_list()


@extend_schema(
    summary="One tournament with its standings and games",
    responses={200: TournamentDetailSerializer, **ERRORS},
)
class TournamentDetailView(PublicReadMixin, generics.RetrieveAPIView):
    serializer_class = TournamentDetailSerializer
    queryset = Tournament.objects.all()

    def retrieve(self, request, *args, **kwargs):
        detail = tournament_detail(tournament_id=int(kwargs["pk"]), language="en")
        if detail is None:
            raise Http404
        tournament = detail.tournament
        lines = [line for pool in detail.pools for line in pool.lines]
        for line in lines:
            line.tiebreak_text = tiebreak_text(line.standing.tiebreak)
        tournament.api_standings = lines
        tournament.api_games = [line for _, games in detail.rounds for line in games]
        return Response(TournamentDetailSerializer(tournament, context={"request": request}).data)


@extend_schema(
    summary="One tournament in the exchange format (adlg-tournament/1)",
    description="The facts of its result sheet, as docs/exchange.md describes and "
                "docs/exchange/tournament-v1.schema.json checks; POST /api/sheets/ takes the same document back. "
                "404 for a tournament without results.",
    responses={200: OpenApiTypes.OBJECT, **ERRORS},
)
class TournamentExchangeView(PublicReadMixin, APIView):
    def get(self, request, pk: int):
        source = {"site": request.build_absolute_uri("/"),
                  "tournament_page": request.build_absolute_uri(f"/tournaments/{int(pk)}/")}
        document = tournament_exchange(tournament_id=int(pk), source=source)
        if document is None:
            raise Http404
        return Response(document)
