"""The users of bench/live_load.py's tournament day: phones on the public live page, one referee entering results,
players entering their table's result at their private links.

Run by bench/live_load.py (which sets LIVE_TOURNAMENT, LIVE_REFEREE, LIVE_PASSWORD and LIVE_LINKS, a JSON file of
the players' links); not a test. The site runs
with production settings behind no proxy here, so every request says it came through HTTPS as the federation's
proxy would (X-Forwarded-Proto), and the referee's cookies, Secure as in production, are sent by hand.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re

import gevent
from locust import FastHttpUser, HttpUser, between, constant_pacing, task

TOURNAMENT = int(os.environ.get("LIVE_TOURNAMENT", "0"))
HTTPS = {"X-Forwarded-Proto": "https"}
GZIP = {"Accept-Encoding": "gzip"}  # as every phone's browser asks
# The referee's form for one table of a round (tournaments/live_urls.py).
RESULT_URL = "/referee/live/{tournament}/rounds/{round}/tables/{table}/"
ROUND, TABLES = 3, 64
# The referee enters the tables up to REFEREE_TABLES; the players of the others enter theirs at their links.
REFEREE_TABLES = int(os.environ.get("LIVE_REFEREE_TABLES", str(TABLES)))
_LINKS = json.loads(open(os.environ["LIVE_LINKS"]).read()) if os.environ.get("LIVE_LINKS") else []  # noqa: SIM115
_NEXT_LINK = itertools.count()


class Phone(FastHttpUser):
    """A player's phone: opens the live page, then polls its fragment every 10 s as static/js/live.js does.
    (FastHttpUser: 300 of them must not take the cores the site is measured on.)"""

    wait_time = constant_pacing(10)

    def on_start(self) -> None:
        # Phones opened the page at any moment, not in locust's batches of one second: without this offset the
        # users spawned together poll together for the whole run, a burst no hall of players sends.
        gevent.sleep(random.uniform(0, 10))
        self.etag = None
        self.client.get(f"/tournaments/{TOURNAMENT}/live/", headers=dict(HTTPS, **GZIP), name="live page")

    @task
    def poll(self) -> None:
        headers = dict(HTTPS, **GZIP, **({"If-None-Match": self.etag} if self.etag else {}))
        # 304 (nothing new) and 200 are successes; locust counts 4xx and 5xx as errors.
        response = self.client.get(f"/tournaments/{TOURNAMENT}/live/now/", headers=headers, name="live fragment")
        self.etag = response.headers.get("ETag") or self.etag


class Referee(HttpUser):
    """The referee: signs in, then enters round 3's results table by table."""

    fixed_count = 1
    wait_time = between(2, 4)

    def on_start(self) -> None:
        self.table = 0
        self.cookies: dict[str, str] = {}
        page = self._send("get", "/accounts/login/", name="sign-in")
        token = self.cookies.get("csrftoken") or _form_token(page.text)
        self._send("post", "/accounts/login/", name="sign-in",
                   data={"username": os.environ["LIVE_REFEREE"], "password": os.environ["LIVE_PASSWORD"],
                         "csrfmiddlewaretoken": token})

    def _send(self, method: str, path: str, **kwargs):
        origin = self.host.replace("http://", "https://")
        headers = dict(HTTPS, Referer=origin + path, Origin=origin)
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        response = self.client.request(method, path, headers=headers, allow_redirects=False, **kwargs)
        for cookie in response.cookies:
            self.cookies[cookie.name] = cookie.value
        return response

    @task
    def enter_result(self) -> None:
        if self.table >= REFEREE_TABLES:
            return
        self.table += 1
        token = self.cookies.get("csrftoken", "")
        losses = (self.table * 7) % 60
        # A refused or failed entry (4xx, 5xx) counts as an error in locust's figures.
        self._send("post", RESULT_URL.format(tournament=TOURNAMENT, round=ROUND, table=self.table),
                   name="enter result",
                   data={"result": "A", "a_losses": losses, "b_losses": 100, "csrfmiddlewaretoken": token})


class LinkPlayer(HttpUser):
    """A player at their private link (no account): opens it, enters their table's result (both players of a table
    the same, so that it counts), then opens it again now and then to see it counted. HttpUser with its cookies
    sent by hand, as the referee's: the CSRF cookie is Secure, as in production."""

    fixed_count = len(_LINKS)
    wait_time = constant_pacing(30)

    def on_start(self) -> None:
        self.link = _LINKS[next(_NEXT_LINK) % len(_LINKS)]
        self.cookies: dict[str, str] = {}
        gevent.sleep(random.uniform(0, 20))  # the players finish their games at different moments
        page = self._send("get", self.link["path"], name="private link")
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page.text))
        self._send("post", self.link["path"], name="private link: enter result",
                   data={**fields, "result": self.link["result"], "a_losses": self.link["a_losses"],
                         "b_losses": self.link["b_losses"]})

    def _send(self, method: str, path: str, **kwargs):
        origin = self.host.replace("http://", "https://")
        # strict-origin, as the page's Referrer-Policy makes a browser send it: the origin, never the path.
        headers = dict(HTTPS, **GZIP, Referer=origin + "/", Origin=origin)
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        with self.client.request(method, path, headers=headers, allow_redirects=False, catch_response=True,
                                 **kwargs) as response:
            for cookie in response.cookies:
                self.cookies[cookie.name] = cookie.value
            # The entry answers a redirect to the link; anything else is an error.
            if response.status_code != (302 if method == "post" else 200):
                response.failure(f"{response.status_code}")
            return response

    @task
    def look(self) -> None:
        self._send("get", self.link["path"], name="private link")


def _form_token(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    return found.group(1) if found else ""
