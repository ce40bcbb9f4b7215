"""Where a request comes from, as the site can trust it: one client address for everything that counts requests
(sign-in lockouts, the per-client rate limits of the pages and the API).

Terms
-----
client address
    REMOTE_ADDR, or, behind reverse proxies of ours, the address the outermost of them received the connection
    from: TRUSTED_PROXY_HEADER names the header they append it to (X-Forwarded-For) and TRUSTED_PROXY_COUNT how
    many of them append. A client can write anything in that header itself; what it wrote stands to the left of
    what our proxies appended, and is never read. Without TRUSTED_PROXY_HEADER the header is not read at all.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    """The client address (see the terms); REMOTE_ADDR when the proxy header is absent or shorter than expected."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    header = settings.TRUSTED_PROXY_HEADER
    count = settings.TRUSTED_PROXY_COUNT
    if not header or count < 1:
        return remote
    key = "HTTP_" + header.upper().replace("-", "_")
    hops = [hop.strip() for hop in request.META.get(key, "").split(",") if hop.strip()]
    if len(hops) < count:
        return remote
    candidate = hops[-count]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:  # our proxy never writes anything but an address: a misconfiguration, not a client
        return remote
