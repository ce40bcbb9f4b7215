"""The result-sheet upload API: POST /api/sheets/ (multipart `file`) imports a sheet in one step, GET
/api/sheets/<id>/ follows it. Token or session authentication; referees and the board only.

The answer to an upload is the line `import_results --json` prints: {"ok", "tournament_id", "new_players",
"errors", "warnings"}, messages in the request's language (Accept-Language: fr). 201 when imported, 200 when the
same file was already imported (nothing changed), 400 with the report when refused, 403 when the sheet names a
tournament the caller does not referee, 413 when the file is over the size limit (checked before it is read).
"""

from __future__ import annotations

import logging
from pathlib import PurePath

from django import forms
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.exceptions import APIException
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from adlg_site import words
from adlg_site.limits import ClientRateThrottle
from players import permissions
from ratings.models import ReplayRequest
from rules.words import Forbidden
from tournaments.models import Sheet
from tournaments.sheets.forms import check_sheet_file, too_big_message, upload_too_big
from tournaments.sheets.services import (
    SheetOutcome,
    sheet_import,
    sheet_import_committed,
    sheet_receive_as,
    stored_report,
)
from tournaments.sheets.upload_limits import upload_wait_seconds

logger = logging.getLogger(__name__)


class IssueSerializer(serializers.Serializer):
    sheet = serializers.CharField(
        help_text=gettext_lazy("Tournament, Players or Games; blank for the whole file")
    )
    cell = serializers.CharField(help_text=gettext_lazy("e.g. E14; blank for a whole sheet"))
    code = serializers.CharField()
    message = serializers.CharField(help_text=gettext_lazy("what to fix, in the request's language"))


class ImportResultSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    tournament_id = serializers.IntegerField(allow_null=True)
    new_players = serializers.DictField(
        child=serializers.IntegerField(),
        help_text=gettext_lazy("tag of the sheet (N1, N2…) -> federation ID given"),
    )
    errors = IssueSerializer(many=True)
    warnings = IssueSerializer(many=True)


class SheetUploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text=gettext_lazy(
        "the official result sheet, .xlsx, or a tournament in the exchange format (docs/exchange.md), .json; at most "
        "5 MB"))


@extend_schema_field({"type": "string", "enum": [code for code, _label in ReplayRequest.STATUS_CHOICES],
                      "nullable": True})
class ReplayStatusField(serializers.CharField):
    """The status of the replay the import asked for; null before the import."""


class SheetStatusSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    file_name = serializers.CharField()
    # A plain string, not an enum: the tournaments' "status" enum already takes the name in the schema.
    status = serializers.CharField(help_text=gettext_lazy(
        "received, rejected (errors to fix), checked (waiting for confirmation), imported (ratings being "
        "updated), replayed (published), failed, discarded"))
    status_display = serializers.CharField()
    published = serializers.BooleanField()
    finished = serializers.BooleanField(help_text=gettext_lazy("false while the import or the replay runs"))
    tournament_id = serializers.IntegerField(allow_null=True)
    uploaded_at = serializers.DateTimeField()
    imported_at = serializers.DateTimeField(allow_null=True)
    replay_status = ReplayStatusField(allow_null=True)
    new_players = serializers.DictField(child=serializers.IntegerField())
    errors = IssueSerializer(many=True)
    warnings = IssueSerializer(many=True)


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


class SheetTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "file_too_large"


def _refusal(code: str, message: str) -> dict:
    """The import_results shape for a file refused before it is read."""
    issue = {"sheet": "", "cell": "", "code": code, "message": message}
    return {"ok": False, "tournament_id": None, "new_players": {}, "errors": [issue], "warnings": []}


MayUploadSheets = permissions.permission_for(permissions.can_register_tournament)


class SheetUploadThrottle(BaseThrottle):
    """The upload page's limit (tournaments.sheets.upload_limits), shared with it: one count per account."""

    def allow_request(self, request, view) -> bool:
        self._wait = upload_wait_seconds(request.user) if request.method == "POST" else 0
        return not self._wait

    def wait(self) -> int:
        return self._wait

UPLOADED = OpenApiExample(
    "imported",
    response_only=True,
    status_codes=["201"],
    value={
        "ok": True,
        "tournament_id": 412,
        "new_players": {"N1": 2311},
        "errors": [],
        "warnings": [],
    },
)


class SheetUploadView(APIView):
    # Token first: an anonymous caller gets 401 with "WWW-Authenticate: Token", not a bare 403.
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    parser_classes = [MultiPartParser, FormParser]
    permission_classes = [IsAuthenticated, MayUploadSheets]
    throttle_classes = [ClientRateThrottle, SheetUploadThrottle]

    def initial(self, request, *args, **kwargs):
        # Before authentication: the session's CSRF check would read (and buffer) the whole body.
        if request.method == "POST" and upload_too_big(request.META.get("CONTENT_LENGTH")):
            raise SheetTooLarge(too_big_message())
        super().initial(request, *args, **kwargs)

    @extend_schema(
        operation_id="sheets_upload",
        tags=["sheets"],
        summary="Upload and import a result sheet",
        request={"multipart/form-data": SheetUploadSerializer},
        responses={
            201: OpenApiResponse(ImportResultSerializer, description="imported"),
            200: OpenApiResponse(ImportResultSerializer, description="already imported: nothing changed"),
            400: OpenApiResponse(ImportResultSerializer, description="refused: the report lists every error"),
            403: OpenApiResponse(
                DetailSerializer, description="not a referee of this tournament nor the board"
            ),
            401: OpenApiResponse(DetailSerializer, description="no credentials: sign in or send a token"),
            413: OpenApiResponse(DetailSerializer, description="file over the size limit"),
            429: OpenApiResponse(DetailSerializer, description="too many uploads: wait and retry"),
            500: OpenApiResponse(DetailSerializer, description="a fault of the site: nothing was kept"),
        },
        examples=[UPLOADED],
    )
    def post(self, request):
        file = request.FILES.get("file")
        if file is None:
            return Response(
                _refusal("no_file", _("Send the result sheet in the multipart field “file”.")),
                status=status.HTTP_400_BAD_REQUEST,
            )
        try:
            check_sheet_file(file)
        except forms.ValidationError as invalid:
            code = "file_too_large" if invalid.code == "too_big" else "not_xlsx"
            return Response(_refusal(code, invalid.messages[0]), status=status.HTTP_400_BAD_REQUEST)
        try:
            with transaction.atomic():
                sheet, _parsed, report = sheet_receive_as(
                    user=request.user, data=file.read(), file_name=PurePath(file.name).name
                )
                outcome = (
                    sheet_import(sheet=sheet, user=request.user, refuse_if_live=True) if report.ok
                    else SheetOutcome(sheet, report)
                )
        except Forbidden:  # answered 403 with its words (adlg_site.api_base.exception_handler)
            raise
        except Exception:
            # A fault of the site. After the commit (a cache or broker failing in an on-commit hook) the import
            # stands, and the answer says so; before it, everything was rolled back and the caller may retry.
            logger.exception("API import of %s failed", file.name)
            committed = _committed_import(request, file)
            if committed is not None:
                return committed
            return Response(
                {
                    "detail": _(
                        "The import failed because of a problem on the site; nothing was kept. "
                        "Try again in a few minutes."
                    )
                },
                status=status.HTTP_500_INTERNAL_SERVER_ERROR,
            )
        code = status.HTTP_400_BAD_REQUEST
        if outcome.ok:
            code = status.HTTP_200_OK if outcome.unchanged else status.HTTP_201_CREATED
        return Response(
            outcome.as_json(words.language()),
            status=code,
            headers={"Location": f"{request.path.rstrip('/')}/{sheet.pk}/"},
        )


def _committed_import(request, file) -> Response | None:
    """The answer for an upload whose import committed before the failure, or None when nothing was kept."""
    file.seek(0)
    sheet = sheet_import_committed(data=file.read(), user=request.user)
    if sheet is None:
        return None
    report = stored_report(sheet)
    return Response(
        {"ok": True, "tournament_id": sheet.tournament_id, "new_players": sheet.new_players or {},
         "errors": [], "warnings": report.get("warnings", [])},
        status=status.HTTP_201_CREATED,
        headers={"Location": f"{request.path.rstrip('/')}/{sheet.pk}/"},
    )


class SheetStatusView(APIView):
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="sheets_status",
        tags=["sheets"],
        summary="Follow an uploaded result sheet until its ratings are published",
        responses={
            200: SheetStatusSerializer,
            401: OpenApiResponse(DetailSerializer, description="no credentials: sign in or send a token"),
            404: OpenApiResponse(DetailSerializer, description="not yours"),
        },
    )
    def get(self, request, pk: int):
        sheet = get_object_or_404(
            Sheet.objects.defer("content").select_related("tournament", "replay_request"), pk=pk
        )
        if not permissions.can_see_sheet(request.user, sheet):
            raise Http404
        report = stored_report(sheet)
        replay = sheet.replay_request.status if sheet.replay_request is not None else None
        data = {
            "id": sheet.pk,
            "file_name": sheet.file_name,
            "status": sheet.status,
            "status_display": str(sheet.get_status_display()),
            "published": sheet.status == Sheet.REPLAYED,
            "finished": sheet.status not in (Sheet.RECEIVED, Sheet.IMPORTED) or replay == "failed",
            "tournament_id": sheet.tournament_id,
            "uploaded_at": sheet.uploaded_at,
            "imported_at": sheet.imported_at,
            "replay_status": replay,
            "new_players": sheet.new_players or {},
            "errors": report.get("errors", []),
            "warnings": report.get("warnings", []),
        }
        return Response(SheetStatusSerializer(data).data)


urlpatterns = [
    path("sheets/", SheetUploadView.as_view(), name="sheet-upload"),
    path("sheets/<int:pk>/", SheetStatusView.as_view(), name="sheet-status"),
]
