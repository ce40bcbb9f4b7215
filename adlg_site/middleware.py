"""Middleware of the site's own.

healthz
    GET /healthz answers "ok" before any other middleware: the compose file's healthcheck asks it over plain
    HTTP on the container's own address (127.0.0.1:8000), which the production settings would redirect to HTTPS
    (SECURE_SSL_REDIRECT) and refuse as a host (ALLOWED_HOSTS). It says that the process answers, nothing else.
refuse_nul
    A request with a NUL character (U+0000, ``%00`` in an address) in its path, its query string, its cookies or its
    form-encoded body is refused with 400 before any view reads it: PostgreSQL refuses NUL in text, so a search
    for "a%00b" was a server error. The API answers in JSON, as it does every refusal. A multipart body (an
    upload) is not read here: Django's and DRF's text fields refuse NUL themselves.
ForbiddenAs403
    A service refuses a person who may not do something with rules.words.Forbidden (services know nothing of
    HTTP); a page's view that lets it through answers as Django's PermissionDenied does, with the 403 page. The
    API answers it with its own 403 (adlg_site.api_base.exception_handler), a command with exit 1.
"""

from __future__ import annotations

from django.core.exceptions import BadRequest, PermissionDenied
from django.http import HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

from adlg_site.error_views import bad_request
from rules.words import Forbidden

NUL = "\x00"


def healthz(get_response):
    def middleware(request):
        if request.path_info == "/healthz" and request.method in ("GET", "HEAD"):
            return HttpResponse("ok", content_type="text/plain")
        return get_response(request)

    return middleware


def _carries_nul(request) -> bool:
    if NUL in request.path:
        return True
    for data in (request.GET, request.COOKIES):
        if any(NUL in key or NUL in value for key, value in _pairs(data)):
            return True
    if request.method == "POST" and request.content_type == "application/x-www-form-urlencoded":
        return any(NUL in key or NUL in value for key, value in _pairs(request.POST))
    return False


def _pairs(data):
    if hasattr(data, "lists"):
        return ((key, value) for key, values in data.lists() for value in values)
    return data.items()


def refuse_nul(get_response):
    """Placed before the session and the locale middleware: the refusal reads neither the session (whose cookie
    may be the NUL's carrier) nor the account, and finds the visitor's language itself."""

    def middleware(request):
        if not _carries_nul(request):
            return get_response(request)
        with translation.override(translation.get_language_from_request(request)):
            message = _("The request holds a NUL character (%00), which no address or form of the site takes.")
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message}, status=400)
            return bad_request(request, BadRequest(message))  # the site's 400 page

    return middleware


class ForbiddenAs403:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, Forbidden):
            # Django's own 403 (handler403, the template): the same page a view's PermissionDenied gives.
            raise PermissionDenied from exception
        return None
