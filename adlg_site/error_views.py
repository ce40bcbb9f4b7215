"""The error pages (400, 403, 404, 429, 500) in the site's layout and the visitor's language.

Django renders 403 and 404 with the request (so a signed-in referee still sees their account and pages). Its 400
and 500 handlers render without it; these two give the 400 page the request, and the 500 page only what cannot
fail again: no context processor (no session, no database), so a crash of the database still gets a page.
"""

from __future__ import annotations

import logging

from django.http import HttpResponseBadRequest, HttpResponseServerError
from django.template import loader
from django.views import defaults
from django.views.decorators.csrf import requires_csrf_token

from adlg_site import limits

logger = logging.getLogger(__name__)


@requires_csrf_token
def bad_request(request, exception):
    try:
        body = loader.render_to_string("400.html", request=request)
    except Exception:  # a request too broken for the layout (a bad host name): Django's plain page
        logger.exception("the 400 page could not be rendered with its request")
        return defaults.bad_request(request, exception)
    return HttpResponseBadRequest(body)


@requires_csrf_token
def server_error(request):
    try:
        body = loader.render_to_string("500.html", {"request": request})
    except Exception:
        logger.exception("the 500 page could not be rendered")
        return defaults.server_error(request)
    return HttpResponseServerError(body)


def too_many_requests(request):
    """django-allauth's limits (sign-ups, password resets, confirmation emails; with Redis down, all of them) answer
    with this page: allauth does not say how long the client should wait, the site's own limits do
    (adlg_site.limits)."""
    return limits.too_many_requests(request, 0)
