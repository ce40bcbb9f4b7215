"""Read API of the players: the rating list of a system and one player with ratings and history."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.exceptions import ParseError
from rest_framework.response import Response
from rest_framework.reverse import reverse

from adlg_site.api_base import ERRORS, PublicReadMixin, StandardPagination
from players.filters import PlayerRatingFilter
from players.models import Player
from players.selectors import player_lookup
from players.serializers import PlayerDetailSerializer, PlayerRatingRowSerializer
from ratings.models import PlayerRating, RatingEvent, RatingSystem
from ratings.positions import with_positions
from ratings.rating_list import hidden_player_ids


def rulesets_by_system() -> dict:
    return {s.code: s.get_ruleset() for s in RatingSystem.objects.all()}


@extend_schema(summary="Rating list of one system", responses={200: PlayerRatingRowSerializer(many=True), **ERRORS})
class PlayerListView(PublicReadMixin, generics.ListAPIView):
    """Public players of one rating system, best first. Excluded players, merged records and the spare never
    appear."""

    serializer_class = PlayerRatingRowSerializer
    filterset_class = PlayerRatingFilter
    pagination_class = StandardPagination

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation (also a system check): no database
            return PlayerRating.objects.none()
        # The hidden players by a short list of IDs rather than a join (see ratings.rating_list.hidden_player_ids).
        return (PlayerRating.objects.exclude(player_id__in=hidden_player_ids())
                .select_related("player__club", "player__country"))

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "rulesets": rulesets_by_system()}

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        return with_positions(page) if page is not None else None


@extend_schema(
    summary="One player, with ratings and rating history",
    parameters=[OpenApiParameter("system", OpenApiTypes.STR, description="Only this rating system (code).")],
    responses={200: PlayerDetailSerializer, 301: None, **ERRORS},
)
class PlayerDetailView(PublicReadMixin, generics.RetrieveAPIView):
    """A public player. A merged record answers 301 to the record it was merged into."""

    serializer_class = PlayerDetailSerializer
    queryset = Player.objects.public()
    extra_query_params = ("system",)

    def retrieve(self, request, *args, **kwargs):
        found = player_lookup(player_id=int(kwargs["pk"]))
        if found.redirect_to is not None:
            response = Response(status=301)
            response["Location"] = reverse("api:player-detail", kwargs={"pk": found.redirect_to}, request=request)
            return response
        if found.player is None:
            raise Http404
        system = request.query_params.get("system")
        rulesets = rulesets_by_system()
        if system and system not in rulesets:
            raise ParseError(f"Unknown rating system {system!r}: choose one of {', '.join(rulesets)}.")
        player = found.player
        ratings = PlayerRating.objects.filter(player=player).order_by("system__position", "system_id")
        history = (RatingEvent.objects.filter(player=player).select_related("tournament", "opponent", "game")
                   .order_by("system_id", "seq"))
        if system:
            ratings, history = ratings.filter(system_id=system), history.filter(system_id=system)
        player.api_ratings = with_positions(ratings)
        player.api_history = list(history)
        return Response(PlayerDetailSerializer(player, context={"rulesets": rulesets, "request": request}).data)

