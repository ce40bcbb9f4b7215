"""The read API's shared plumbing: what every endpoint accepts in its query strings (and the refusal of everything
else), its pagination and its error answers.

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
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, ParseError, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from adlg_site.words import refusal_text
from rules.words import Forbidden


def exception_handler(exc, context):
    """DRF's, and a service's Forbidden answered as DRF answers its PermissionDenied: 403, {"detail": why}."""
    if isinstance(exc, Forbidden):
        set_rollback()
        return Response({"detail": " ".join(refusal_text(exc))}, status=status.HTTP_403_FORBIDDEN)
    return drf_exception_handler(exc, context)


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="What is wrong with the request.")


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
    """A whole number (django-filter's NumberFilter takes decimals), described in the schema as the API reads it:
    an integer between its min_value and max_value."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        schema = {"type": "integer"}
        if self.extra.get("min_value") is not None:
            schema["minimum"] = self.extra["min_value"]
        if self.extra.get("max_value") is not None:
            schema["maximum"] = self.extra["max_value"]
        self._spectacular_annotation = {"field": schema}  # drf-spectacular's override, per filter


class TextFilter(django_filters.CharFilter):
    """A text, described in the schema as the API reads it: at most its max_length characters, no NUL character
    (adlg_site.middleware answers 400 to one)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        schema = {"type": "string", "pattern": "^[^\\x00]*$"}
        if self.extra.get("max_length") is not None:
            schema["maxLength"] = self.extra["max_length"]
        self._spectacular_annotation = {"field": schema}


ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Unknown query parameter or invalid filter value."),
    404: OpenApiResponse(ErrorSerializer, description="Not found (or a page past the last one)."),
    429: OpenApiResponse(ErrorSerializer, description="Too many requests from this client (settings.RATE_LIMITS): "
                                                      "wait the seconds of Retry-After."),
}


class StandardPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


class PublicReadMixin(StrictQueryParamsMixin):
    """Public reading: anyone may GET; the unknown query parameters are refused."""

    permission_classes = [AllowAny]
    filter_backends = [StrictFilterBackend]
    http_method_names = ["get", "head", "options"]
