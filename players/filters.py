"""What the read API accepts in its query strings, and the refusal of everything else.

Terms
-----
allowed parameter
    A filter of the view's FilterSet (search and ordering are filters too), `page` and `page_size` on a
    paginated list, `format` everywhere (DRF's format override), plus what a view names in `extra_query_params`.
unknown parameter
    Anything else. It is refused with a 400 that names it and lists the allowed ones: a typo such as
    `?contry=FR` must not silently return the whole list.
"""

from __future__ import annotations

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError, ValidationError

from ratings.models import PlayerRating, RatingSystem
from ratings.rating_list import player_search_q


class UnknownQueryParameter(APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "unknown_query_parameter"
    default_detail = _("Unknown query parameter.")


class StrictQueryParamsMixin:
    """Refuses (400) any query parameter the view does not know."""

    extra_query_params: tuple[str, ...] = ()

    def allowed_query_params(self) -> set[str]:
        allowed = {"format", *self.extra_query_params}
        filterset_class = getattr(self, "filterset_class", None)
        if filterset_class is not None:
            allowed.update(filterset_class.base_filters)
        paginator = getattr(self, "paginator", None)
        if paginator is not None:
            allowed.add(getattr(paginator, "page_query_param", "page"))
            size = getattr(paginator, "page_size_query_param", None)
            if size:
                allowed.add(size)
        return allowed

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        allowed = self.allowed_query_params()
        unknown = sorted(set(request.query_params) - allowed)
        if unknown:
            raise UnknownQueryParameter(
                _("Unknown query parameter(s): %(unknown)s. Allowed here: %(allowed)s.")
                % {"unknown": ", ".join(unknown), "allowed": ", ".join(sorted(allowed))}
            )


class StrictFilterBackend(DjangoFilterBackend):
    """django-filter's backend, with an invalid value answered as {"detail": "<parameter>: <problem>"}."""

    def filter_queryset(self, request, queryset, view):
        try:
            return super().filter_queryset(request, queryset, view)
        except ValidationError as exc:
            problems = exc.detail if isinstance(exc.detail, dict) else {"": exc.detail}
            text = "; ".join(
                f"{name}: {' '.join(str(m) for m in (messages if isinstance(messages, list) else [messages]))}"
                for name, messages in problems.items()
            )
            raise ParseError(text) from None


class IntegerFilter(django_filters.NumberFilter):
    """A whole number (django-filter's NumberFilter takes decimals)."""

    field_class = forms.IntegerField


def _search(queryset, name, value):
    return queryset.filter(player_search_q(value, prefix="player__")) if value.strip() else queryset


class PlayerRatingFilter(django_filters.FilterSet):
    """Filters of GET /api/players/: one system's rating list (the default system when none is given)."""

    system = django_filters.ModelChoiceFilter(
        queryset=RatingSystem.objects.all(), field_name="system", to_field_name="code",
        help_text="Rating system code (adlg, battle-empire…); the first system when absent.")
    country = django_filters.CharFilter(method="filter_country", max_length=2,
                                        help_text="ISO 3166 code of the player's country, e.g. FR.")
    club = IntegerFilter(field_name="player__club_id", min_value=0, max_value=2**31 - 1, help_text="Club ID.")
    rank = django_filters.CharFilter(field_name="rank_code", max_length=40,
                                     help_text="Rank code, e.g. knight (see /api/rulesets/).")
    active_since = django_filters.DateFilter(field_name="last_played", lookup_expr="gte",
                                             help_text="Only players with a rated game on or after this date.")
    search = django_filters.CharFilter(method=_search, max_length=80,
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

