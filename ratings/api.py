"""Read API of the rating systems and of the rulesets (RULES.md §1, read from rules.rulesets.RULESETS)."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from adlg_site.api_base import ERRORS, PublicReadMixin
from ratings.models import OfficialList, RatingSystem
from rules.rulesets import RULESETS


class KBandSerializer(serializers.Serializer):
    k = serializers.IntegerField()
    min_games = serializers.IntegerField(allow_null=True)
    max_games = serializers.IntegerField(allow_null=True)
    min_rating = serializers.IntegerField(allow_null=True)
    max_rating = serializers.IntegerField(allow_null=True)


class OutcomeSerializer(serializers.Serializer):
    code = serializers.CharField()
    a = serializers.FloatField(help_text="Result value S of side A.")
    b = serializers.FloatField(help_text="Result value S of side B.")


class RankDataSerializer(serializers.Serializer):
    code = serializers.CharField()
    name_en = serializers.CharField()
    name_fr = serializers.CharField()
    min_rating = serializers.IntegerField(allow_null=True)
    min_games = serializers.IntegerField()


class InactivityStepSerializer(serializers.Serializer):
    above = serializers.IntegerField()
    amount = serializers.IntegerField()


class RulesetSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()
    initial_rating = serializers.IntegerField()
    scale = serializers.IntegerField(help_text="D in P = 1 / (1 + 10^((N_opp - N) / D)).")
    k_bands = KBandSerializer(many=True, help_text="The first band whose conditions hold gives K.")
    gap = serializers.IntegerField(allow_null=True, help_text="A gain becomes 0 when leading by this or more.")
    outcomes = OutcomeSerializer(many=True)
    forfeits = serializers.ListField(child=serializers.CharField())
    period = serializers.ChoiceField(choices=["game", "tournament"])
    rounding = serializers.ChoiceField(choices=["truncate", "half_away"])
    ranks = RankDataSerializer(many=True)
    unproven_rank = RankDataSerializer(allow_null=True)
    inactivity = InactivityStepSerializer(many=True)
    inactivity_floor = serializers.IntegerField(allow_null=True)
    spare_rating = serializers.IntegerField()

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["forfeits"] = sorted(data["forfeits"])
        return data


class RatingSystemSerializer(serializers.ModelSerializer):
    class Meta:
        model = RatingSystem
        fields = ["code", "name", "ruleset", "position"]


@extend_schema(summary="The rulesets the site knows", responses={200: RulesetSerializer(many=True), **ERRORS})
class RulesetListView(PublicReadMixin, APIView):
    filter_backends: list = []

    def get(self, request):
        return Response(RulesetSerializer(list(RULESETS.values()), many=True).data)


@extend_schema(
    summary="One ruleset",
    parameters=[OpenApiParameter("code", OpenApiTypes.STR, OpenApiParameter.PATH, description="e.g. adlg-2018")],
    responses={200: RulesetSerializer, **ERRORS},
)
class RulesetDetailView(PublicReadMixin, APIView):
    filter_backends: list = []

    def get(self, request, code: str):
        ruleset = RULESETS.get(code)
        if ruleset is None:
            raise Http404
        return Response(RulesetSerializer(ruleset).data)


@extend_schema(summary="The rating systems (one per game)", responses={200: RatingSystemSerializer(many=True),
                                                                      **ERRORS})
class RatingSystemListView(PublicReadMixin, generics.ListAPIView):
    serializer_class = RatingSystemSerializer
    queryset = RatingSystem.objects.all()
    pagination_class = None


class OfficialListSerializer(serializers.ModelSerializer):
    system = serializers.CharField(source="system_id")
    date = serializers.DateField(source="valid_from", help_text="In force from this date until the next list's.")
    by_hand = serializers.SerializerMethodField(help_text="True when the board issued it, false for the monthly one.")
    rows = serializers.SerializerMethodField(help_text="Its rows: GET /api/players/?system=…&list=N.")

    class Meta:
        model = OfficialList
        fields = ["system", "number", "date", "issued_at", "by_hand", "players", "rows"]

    def get_by_hand(self, obj: OfficialList) -> bool:
        return obj.issued_by_id is not None

    def get_rows(self, obj: OfficialList) -> str:
        url = reverse("api:player-list", request=self.context.get("request"))
        return f"{url}?system={obj.system_id}&list={obj.number}"


@extend_schema(
    summary="The official lists of one rating system, the newest first",
    parameters=[OpenApiParameter("code", OpenApiTypes.STR, OpenApiParameter.PATH, description="e.g. adlg")],
    responses={200: OfficialListSerializer(many=True), **ERRORS},
)
class OfficialListListView(PublicReadMixin, generics.ListAPIView):
    serializer_class = OfficialListSerializer
    pagination_class = None
    filter_backends: list = []

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return OfficialList.objects.none()
        code = self.kwargs["code"]
        if not RatingSystem.objects.filter(code=code).exists():
            raise Http404
        return OfficialList.objects.filter(system_id=code).order_by("-number")
