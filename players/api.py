"""Read API of the players: the rating list of a system and one player with ratings and history."""

from __future__ import annotations

from datetime import date

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.exceptions import NotFound, ParseError
from rest_framework.response import Response
from rest_framework.reverse import reverse

from adlg_site.api_base import ERRORS, PublicReadMixin, StandardPagination
from adlg_site.inputs import whole_number
from players.filters import OfficialRowFilter, PlayerRatingFilter
from players.models import Player
from players.selectors import player_lookup
from players.serializers import OfficialRowSerializer, PlayerDetailSerializer, PlayerRatingRowSerializer
from ratings.models import OfficialList, PlayerRating, RatingEvent, RatingSystem
from ratings.official_list_reads import list_in_force, official_list, shown
from ratings.positions import with_positions
from ratings.rating_list import hidden_player_ids


def rulesets_by_system() -> dict:
    return {s.code: s.get_ruleset() for s in RatingSystem.objects.all()}


# Which figures an answer of GET /api/players/ holds: "live" (after the last tournament rated), or
# "official-list <number> <date>" (an official list, frozen). The rows of an official list also carry both.
SHOWN_HEADER = "X-Ratings-Shown"


@extend_schema(
    summary="Rating list of one system",
    description="Live ratings by default (after the last tournament rated). With `list` or `as_of`, the rows of "
                "an official list, frozen as issued, each with the list's number and date. The response header "
                f"{SHOWN_HEADER} says which: `live` or `official-list <number> <date>`.",
    parameters=[
        OpenApiParameter("list", {"type": "integer", "minimum": 1, "maximum": 999999999},
                         description="Number of an official list of the system."),
        OpenApiParameter("as_of", OpenApiTypes.DATE, description="The official list in force on this date."),
    ],
    responses={200: PlayerRatingRowSerializer(many=True), **ERRORS},
)
class PlayerListView(PublicReadMixin, generics.ListAPIView):
    """Public players of one rating system, best first. Excluded players, merged records and the spare never
    appear."""

    serializer_class = PlayerRatingRowSerializer
    filterset_class = PlayerRatingFilter
    pagination_class = StandardPagination
    extra_query_params = ("list", "as_of")
    official: OfficialList | None = None

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self.official = self._official_asked(request.query_params)
        if self.official is not None:
            self.serializer_class, self.filterset_class = OfficialRowSerializer, OfficialRowFilter

    @staticmethod
    def _official_asked(params) -> OfficialList | None:
        if "list" not in params and "as_of" not in params:
            return None
        code = params.get("system") or RatingSystem.objects.order_by("position", "code").values_list(
            "code", flat=True).first()
        if "list" in params:
            raw = params["list"]
            number = whole_number(raw, minimum=1, maximum=999999999)
            if number is None:
                raise ParseError(f"list: {raw!r} is not a list number.")
            found = official_list(code or "", number)
            if found is None:
                raise NotFound(f"No official list no. {raw} of {code}.")
            return found
        try:
            day = date.fromisoformat(params["as_of"])
        except ValueError:
            raise ParseError(f"as_of: {params['as_of']!r} is not a date (YYYY-MM-DD).") from None
        found = list_in_force(code or "", day)
        if found is None:
            raise NotFound(f"No official list of {code} was in force on {day.isoformat()}.")
        return found

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation (also a system check): no database
            return PlayerRating.objects.none()
        if self.official is not None:
            return self.official.rows.select_related("official_list")
        # The hidden players by a short list of IDs rather than a join (see ratings.rating_list.hidden_player_ids).
        return (PlayerRating.objects.exclude(player_id__in=hidden_player_ids())
                .select_related("player__club", "player__country"))

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "rulesets": rulesets_by_system()}

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        if page is None:
            return None
        return shown(page) if self.official is not None else with_positions(page)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if response.status_code == 200:
            official = self.official
            response[SHOWN_HEADER] = (f"official-list {official.number} {official.valid_from.isoformat()}"
                                      if official is not None else "live")
        return response


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
        response = Response(PlayerDetailSerializer(player, context={"rulesets": rulesets, "request": request}).data)
        response[SHOWN_HEADER] = "live"  # an official list's figures: GET /api/players/?list=N&search=<id>
        return response

