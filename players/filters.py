"""The filters of the players' read API (GET /api/players/)."""

from __future__ import annotations

import django_filters

from adlg_site.api_base import IntegerFilter, TextFilter
from players.selectors import player_search_q
from ratings.models import OfficialListRow, PlayerRating, RatingSystem


def _search(queryset, name, value):
    return queryset.filter(player_search_q(value, prefix="player__")) if value.strip() else queryset


class PlayerRatingFilter(django_filters.FilterSet):
    """Filters of GET /api/players/: one system's rating list (the default system when none is given)."""

    system = django_filters.ModelChoiceFilter(
        queryset=RatingSystem.objects.all(), field_name="system", to_field_name="code",
        help_text="Rating system code (adlg, battle-empire…); the first system when absent.")
    country = TextFilter(method="filter_country", max_length=2,
                         help_text="ISO 3166 code of the player's country, e.g. FR.")
    club = IntegerFilter(field_name="player__club_id", min_value=0, max_value=2**31 - 1, help_text="Club ID.")
    rank = TextFilter(field_name="rank_code", max_length=40,
                      help_text="Rank code, e.g. knight (see /api/rulesets/).")
    active_since = django_filters.DateFilter(field_name="last_played", lookup_expr="gte",
                                             help_text="Only players with a rated game on or after this date.")
    search = TextFilter(method=_search, max_length=80,
                        help_text="Words of the first or last name, or the exact ID.")
    ordering = django_filters.OrderingFilter(
        fields=(("rating", "rating"), ("player__last_name", "name"), ("games", "games"),
                ("last_played", "last_played")),
        help_text="rating, name, games or last_played; prefix with - for descending. Default: -rating.")

    class Meta:
        model = PlayerRating
        fields: list[str] = []

    def filter_country(self, queryset, name, value):
        return queryset.filter(player__country_id=value.upper())

    def filter_queryset(self, queryset):
        if not self.form.cleaned_data.get("system"):
            first = RatingSystem.objects.order_by("position", "code").values_list("code", flat=True).first()
            queryset = queryset.filter(system_id=first)
        queryset = super().filter_queryset(queryset)
        if not self.form.cleaned_data.get("ordering"):
            queryset = queryset.order_by("-rating", "player_id")
        else:
            queryset = queryset.order_by(*queryset.query.order_by, "player_id")
        return queryset



class OfficialRowFilter(django_filters.FilterSet):
    """The same filters on an official list's frozen rows (GET /api/players/?list=N or ?as_of=DATE): the country,
    club and rank are those the list froze; the search reads the players' names as they are now."""

    system = django_filters.ModelChoiceFilter(
        queryset=RatingSystem.objects.all(), field_name="official_list__system", to_field_name="code",
        help_text=PlayerRatingFilter.base_filters["system"].extra["help_text"])
    country = TextFilter(method="filter_country", max_length=2, help_text="ISO 3166 code of the player's country.")
    club = IntegerFilter(field_name="club_id_then", min_value=0, max_value=2**31 - 1, help_text="Club ID.")
    rank = TextFilter(field_name="rank_code", max_length=40, help_text="Rank code.")
    active_since = django_filters.DateFilter(field_name="last_played", lookup_expr="gte")
    search = TextFilter(method=_search, max_length=80)
    ordering = django_filters.OrderingFilter(
        fields=(("rating", "rating"), ("last_name", "name"), ("games", "games"), ("last_played", "last_played")))

    class Meta:
        model = OfficialListRow
        fields: list[str] = []

    def filter_country(self, queryset, name, value):
        return queryset.filter(country_code=value.upper())

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        if not self.form.cleaned_data.get("ordering"):
            return queryset.order_by("position", "player_id")
        return queryset.order_by(*queryset.query.order_by, "player_id")
