"""Per-client rate limits of the pages and the API, applied with one line:

    @rate_limited("search")                     a function view; its rate is settings.RATE_LIMITS["search"]
    @rate_limited("live_page", rate="120/m")    or one given here ("N/s", "N/m", "N/h", "N/15m"...)
    @rate_limited("live_page", when=costly)     counting only the requests for which costly(request) is true
                                                (a page that is cheap from the cache is never refused)
    failures_wait(request, "group")             what counts failures only (a wrong password): 0, or the seconds to
    failure_count(request, "group")             wait; each failure counted where it happens
    throttle_classes = [ClientRateThrottle]     a DRF view (every API view has it by default); `scope` names
                                                the group, settings.RATE_LIMITS[scope] its rate

A page over its limit answers 429 with the site's "too many requests" page (on a bare layout) and Retry-After;
the API answers 429 in JSON with Retry-After (DRF's Throttled).

Terms
-----
client
    A signed-in account, counted as one wherever it connects from; signed out, a client address
    (adlg_site.client.client_address: the configured proxy header only, never what a client wrote), an IPv6
    address counted with its /64 network (one subscriber's line holds all of it).
group
    What a limit counts: one page or a set of pages sharing a budget (the whole API is the group "api").
limit, window
    At most N requests of one client and group in a window of S seconds. The count lives in the cache and is
    atomic (django-ratelimit: the window's first request ``add``s the count with the window's expiry, the next
    ones ``incr`` it; on Redis that is SET NX EX then INCR, on the embedded default's local memory cache both
    hold a lock), so concurrent requests cannot slip past it. Windows are fixed (each client's offset by a hash
    of its key): across a window's edge a client may send up to twice the limit, never more.
Redis down
    The count cannot be read or written: the request passes (RATELIMIT_FAIL_OPEN). A throttle must not take the
    site down with the cache; the cache's breaker (adlg_site.cache) makes that answer immediate.
"""

from __future__ import annotations

import ipaddress
from functools import wraps

from django.conf import settings
from django.http import HttpResponse
from django.template import loader
from django_ratelimit.core import get_usage
from rest_framework.throttling import BaseThrottle

from adlg_site.client import client_address


def client_key(group: str, request) -> str:
    """The client a request counts for (see the terms)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"account:{user.pk}"
    address = client_address(request)
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:  # no address at all (a test client, a Unix socket): one shared count
        return "address:?"
    if parsed.version == 6:
        return f"network:{ipaddress.ip_network(f'{parsed}/64', strict=False)}"
    return f"address:{parsed}"


def limit_wait(request, group: str, *, rate: str | None = None, key: str | None = None) -> int:
    """Count this request for its client and group: 0 when it may go on, else the seconds to wait. `key` counts
    it for something else than the client (a private link: whoever holds it, from wherever)."""
    usage = get_usage(request, group=group, key=client_key if key is None else (lambda _group, _request: key),
                      rate=rate or settings.RATE_LIMITS[group], increment=True)
    if usage is None or not usage["should_limit"]:
        return 0
    return max(1, int(usage["time_left"]))


def failures_wait(request, group: str) -> int:
    """Seconds the client must wait after too many failures of `group` (a wrong password), else 0. Counts
    nothing: each failure is counted by failure_count."""
    usage = get_usage(request, group=group, key=client_key, rate=settings.RATE_LIMITS[group], increment=False)
    if usage is None or usage["count"] < usage["limit"]:
        return 0
    return max(1, int(usage["time_left"]))


def failure_count(request, group: str) -> None:
    get_usage(request, group=group, key=client_key, rate=settings.RATE_LIMITS[group], increment=True)


def too_many_requests(request, wait: int) -> HttpResponse:
    """The "too many requests" page in the visitor's language, on the bare layout without the request's context
    (no session, account or messages read, which stay for the next page): a script that ignores Retry-After sends
    hundreds of these a second, and each must cost a small part of the page it was refused."""
    body = loader.render_to_string("429.html", {"wait": wait, "layout": "_bare.html"})
    response = HttpResponse(body, status=429)
    if wait:
        response["Retry-After"] = str(wait)
    return response


def rate_limited(group: str, *, rate: str | None = None, when=None):
    """A function view's per-client limit (see the module's terms); with `when`, only the requests for which
    when(request) is true are counted and refused."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            wait = limit_wait(request, group, rate=rate) if when is None or when(request) else 0
            if wait:
                return too_many_requests(request, wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


class ClientRateThrottle(BaseThrottle):
    """DRF's throttle on the same count as the pages': one client (account or address) per `scope`."""

    scope = "api"
    rate: str | None = None  # None: settings.RATE_LIMITS[scope]

    def allow_request(self, request, view) -> bool:
        self._wait = limit_wait(request, self.scope, rate=self.rate)
        return not self._wait

    def wait(self) -> int:
        return self._wait

    def get_ident(self, request) -> str:
        return client_address(request)
