"""JSON shapes of the players in the read API."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ratings.models import OfficialListRow, PlayerRating, RatingEvent
from ratings.selectors import rank_by_code
from rules.ranks import next_rank


class RankSerializer(serializers.Serializer):
    code = serializers.CharField()
    name_en = serializers.CharField()
    name_fr = serializers.CharField()


class _RankNames:
    """Rank names from the code stored in PlayerRating; context['rulesets'] maps system code -> Ruleset."""

    def _rank(self, obj: PlayerRating):
        ruleset = self.context.get("rulesets", {}).get(obj.system_id)
        return rank_by_code(ruleset, obj.rank_code) if ruleset else None

    @extend_schema_field(serializers.CharField())
    def get_rank_name_en(self, obj: PlayerRating) -> str:
        rank = self._rank(obj)
        return rank.name_en if rank else obj.rank_code

    @extend_schema_field(serializers.CharField())
    def get_rank_name_fr(self, obj: PlayerRating) -> str:
        rank = self._rank(obj)
        return rank.name_fr if rank else obj.rank_code


def _position_field() -> serializers.IntegerField:
    """Set by ratings.positions.with_positions on the rows the view returns (one field instance per serializer)."""
    return serializers.IntegerField(
        read_only=True, help_text="Place in the system's whole list: one plus the players rated higher (ties share).")


class PlayerRatingRowSerializer(_RankNames, serializers.ModelSerializer):
    """One row of a system's rating list."""

    id = serializers.IntegerField(source="player_id", help_text="Federation ID.")
    last_name = serializers.CharField(source="player.last_name")
    first_name = serializers.CharField(source="player.first_name")
    club_id = serializers.IntegerField(source="player.club_id", allow_null=True)
    club = serializers.CharField(source="player.club.name", allow_null=True)
    country = serializers.CharField(source="player.country_id", allow_null=True)
    system = serializers.CharField(source="system_id")
    rank = serializers.CharField(source="rank_code", help_text="Rank code (see /api/rulesets/).")
    rank_name_en = serializers.SerializerMethodField()
    rank_name_fr = serializers.SerializerMethodField()
    position = _position_field()

    class Meta:
        model = PlayerRating
        fields = ["id", "last_name", "first_name", "club_id", "club", "country", "system", "position", "rating",
                  "rank", "rank_name_en", "rank_name_fr", "games", "last_played"]


class OfficialRowSerializer(serializers.ModelSerializer):
    """One row of an official list (GET /api/players/?list=N or ?as_of=DATE): the fields of a rating list's row,
    as frozen when the list was issued, and the list's number and date."""

    id = serializers.IntegerField(source="player_id", help_text="Federation ID.")
    club_id = serializers.IntegerField(source="club_id_then", allow_null=True)
    club = serializers.SerializerMethodField()
    country = serializers.SerializerMethodField()
    system = serializers.CharField(source="official_list.system_id")
    rank = serializers.CharField(source="rank_code", help_text="Rank code (see /api/rulesets/).")
    rank_name_en = serializers.SerializerMethodField()
    rank_name_fr = serializers.SerializerMethodField()
    list = serializers.IntegerField(source="official_list.number", help_text="Number of the official list.")
    list_date = serializers.DateField(source="official_list.valid_from", help_text="Its date.")

    class Meta:
        model = OfficialListRow
        fields = ["id", "last_name", "first_name", "club_id", "club", "country", "system", "position", "rating",
                  "rank", "rank_name_en", "rank_name_fr", "games", "last_played", "list", "list_date"]

    def _rank(self, obj: OfficialListRow):
        ruleset = self.context.get("rulesets", {}).get(obj.official_list.system_id)
        return rank_by_code(ruleset, obj.rank_code) if ruleset else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_club(self, obj: OfficialListRow):
        return obj.club_name or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_country(self, obj: OfficialListRow):
        return obj.country_code or None

    @extend_schema_field(serializers.CharField())
    def get_rank_name_en(self, obj: OfficialListRow) -> str:
        rank = self._rank(obj)
        return rank.name_en if rank else obj.rank_code

    @extend_schema_field(serializers.CharField())
    def get_rank_name_fr(self, obj: OfficialListRow) -> str:
        rank = self._rank(obj)
        return rank.name_fr if rank else obj.rank_code


class NextRankSerializer(serializers.Serializer):
    code = serializers.CharField(source="rank.code")
    name_en = serializers.CharField(source="rank.name_en")
    name_fr = serializers.CharField(source="rank.name_fr")
    points_needed = serializers.IntegerField()
    games_needed = serializers.IntegerField()


class PlayerSystemRatingSerializer(_RankNames, serializers.ModelSerializer):
    system = serializers.CharField(source="system_id")
    rank = serializers.CharField(source="rank_code")
    rank_name_en = serializers.SerializerMethodField()
    rank_name_fr = serializers.SerializerMethodField()
    next_rank = serializers.SerializerMethodField()
    position = _position_field()

    class Meta:
        model = PlayerRating
        fields = ["system", "rating", "games", "position", "rank", "rank_name_en", "rank_name_fr", "last_played",
                  "next_rank"]

    @extend_schema_field(NextRankSerializer(allow_null=True))
    def get_next_rank(self, obj: PlayerRating):
        ruleset = self.context.get("rulesets", {}).get(obj.system_id)
        nxt = next_rank(ruleset, obj.rating, obj.games) if ruleset else None
        return NextRankSerializer(nxt).data if nxt else None


class RatingEventSerializer(serializers.ModelSerializer):
    """One change of the player's rating: a rated game or an inactivity adjustment."""

    system = serializers.CharField(source="system_id")
    tournament = serializers.IntegerField(source="tournament_id", allow_null=True)
    tournament_name = serializers.CharField(source="tournament.name", allow_null=True)
    game = serializers.IntegerField(source="game_id", allow_null=True)
    round = serializers.IntegerField(source="game.round", allow_null=True)
    opponent = serializers.SerializerMethodField(help_text="Opponent's ID (99: the spare).")
    opponent_name = serializers.SerializerMethodField()
    expected = serializers.FloatField(allow_null=True, help_text="Expected score P before the game.")
    score = serializers.FloatField(allow_null=True, help_text="Result value S of the game.")

    class Meta:
        model = RatingEvent
        fields = ["system", "seq", "kind", "date", "year", "tournament", "tournament_name", "game", "round",
                  "opponent", "opponent_name", "opponent_rating", "rating_before", "rating_after", "change",
                  "games_before", "k", "expected", "score"]

    @staticmethod
    def _shown(obj: RatingEvent) -> bool:
        opponent = obj.opponent
        return opponent is not None and opponent.excluded_at is None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_opponent(self, obj: RatingEvent):
        return obj.opponent_id if self._shown(obj) else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_opponent_name(self, obj: RatingEvent):
        return obj.opponent.full_name if self._shown(obj) else None


class PlayerDetailSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    last_name = serializers.CharField()
    first_name = serializers.CharField()
    club_id = serializers.IntegerField(allow_null=True)
    club = serializers.CharField(source="club.name", allow_null=True)
    country = serializers.CharField(source="country_id", allow_null=True)
    ratings = PlayerSystemRatingSerializer(many=True, source="api_ratings")
    history = RatingEventSerializer(many=True, source="api_history")
