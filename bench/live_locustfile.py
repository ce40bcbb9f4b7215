"""The users of bench/live_load.py's tournament day: phones on the public live page, one referee entering results,
and an abusive client searching and claiming at full speed.

Run by bench/live_load.py (which sets LIVE_TOURNAMENT, LIVE_REFEREE, LIVE_PASSWORD, LIVE_FIRST_TABLE and, for the
abusive client, LIVE_PLAYER, LIVE_PLAYER_PASSWORD and LIVE_CLAIM_TABLE; for the players at their private links,
LIVE_LINKS and LIVE_REFEREE_TABLES); not a test. The classes to run are named on locust's command line: the hall is
Phone, Referee and LinkPlayer, the abusive client Searcher and Claimer. The site runs
with production settings behind no proxy here, so every request says what the federation's proxy would add: that
it came through HTTPS (X-Forwarded-Proto) and from which address (X-Forwarded-For, the site being told to trust
one proxy). Signed-in users' cookies, Secure as in production, are sent by hand.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re

import gevent
from locust import FastHttpUser, HttpUser, between, constant, constant_pacing, task

TOURNAMENT = int(os.environ.get("LIVE_TOURNAMENT", "0"))
# Every phone and the referee are on the venue's Wi-Fi, one address for the whole hall (the limits' worst case);
# the abusive client is elsewhere, on an address of its own.
HALL, ABUSER = "198.51.100.20", "203.0.113.66"
HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-For": HALL}
AWAY = {"X-Forwarded-Proto": "https", "X-Forwarded-For": ABUSER}
GZIP = {"Accept-Encoding": "gzip"}  # as every phone's browser asks
# The referee's form for one table of a round (tournaments/live/urls.py); the referee enters the tables from
# LIVE_FIRST_TABLE on and never the abusive player's, the last.
RESULT_URL = "/referee/live/{tournament}/rounds/{round}/tables/{table}/"
ROUND, TABLES = 3, 63
# The referee enters the tables up to REFEREE_TABLES; the players of the tables after them (LIVE_LINKS, a JSON file
# of their private links) enter theirs at their links; the abusive player's table is the last, after both.
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
        # The round clock's face, every 20 s as static/js/clock.js asks for it (every other poll).
        self.polls = getattr(self, "polls", 0) + 1
        if self.polls % 2:
            self.client.get(f"/tournaments/{TOURNAMENT}/live/clock/", headers=HTTPS, name="clock")


class SignedIn(HttpUser):
    """A user who signs in (with the site's form, as a person does) and sends their cookies by hand. A request is an
    error unless it answers one of the statuses expected of it, and a redirect to the sign-in page is always one:
    a user signed out by mistake must not pass for one whose requests succeed."""

    abstract = True
    proxy = HTTPS

    def sign_in(self, username: str, password: str) -> None:
        self.cookies: dict[str, str] = {}
        page = self._send("get", "/accounts/login/", name="sign-in", expect=(200,))
        token = self.cookies.get("csrftoken") or _form_token(page.text)
        self._send("post", "/accounts/login/", name="sign-in", expect=(302,),
                   data={"login": username, "password": password, "csrfmiddlewaretoken": token})

    def _send(self, method: str, path: str, *, expect: tuple[int, ...], referer: str | None = None, **kwargs):
        origin = self.host.replace("http://", "https://")
        headers = dict(self.proxy, Referer=origin + (referer or path), Origin=origin)
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        with self.client.request(method, path, headers=headers, allow_redirects=False, catch_response=True,
                                 **kwargs) as response:
            for cookie in response.cookies:
                self.cookies[cookie.name] = cookie.value
            if response.status_code not in expect or "/accounts/login/" in response.headers.get("Location", ""):
                response.failure(f"{response.status_code} {response.headers.get('Location', '')}")
            else:
                response.success()
        return response


class Referee(SignedIn):
    """The referee: signs in, then enters round 3's results table by table."""

    fixed_count = 1
    wait_time = between(2, 4)

    def on_start(self) -> None:
        self.table = int(os.environ.get("LIVE_FIRST_TABLE", "1")) - 1
        self.sign_in(os.environ["LIVE_REFEREE"], os.environ["LIVE_PASSWORD"])

    @task
    def enter_result(self) -> None:
        if self.table >= REFEREE_TABLES:
            return
        self.table += 1
        token = self.cookies.get("csrftoken", "")
        losses = (self.table * 7) % 60
        # A refused or failed entry (4xx, 5xx) counts as an error in locust's figures.
        self._send("post", RESULT_URL.format(tournament=TOURNAMENT, round=ROUND, table=self.table),
                   name="enter result", expect=(302,),
                   data={"result": "A", "a_losses": losses, "b_losses": 100, "csrfmiddlewaretoken": token})


class LinkPlayer(SignedIn):
    """A player at their private link (no account): opens it, enters their table's result with the page's hidden
    fields (both players of a table the same, so that it counts), then opens it again now and then to see it
    counted. From the hall's address; the page's Referrer-Policy is strict-origin, so a browser's Referer is the
    site's origin, never the path."""

    fixed_count = len(_LINKS)
    wait_time = constant_pacing(30)

    def on_start(self) -> None:
        self.link = _LINKS[next(_NEXT_LINK) % len(_LINKS)]
        self.cookies = {}
        gevent.sleep(random.uniform(0, 20))  # the players finish their games at different moments
        page = self._send("get", self.link["path"], name="private link", expect=(200,))
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page.text))
        self._send("post", self.link["path"], name="private link: enter result", expect=(302,),
                   data={**fields, "result": self.link["result"], "a_losses": self.link["a_losses"],
                         "b_losses": self.link["b_losses"]})

    def _send(self, method: str, path: str, *, expect: tuple[int, ...], **kwargs):
        return super()._send(method, path, expect=expect, referer="/", **kwargs)

    @task
    def look(self) -> None:
        self._send("get", self.link["path"], name="private link", expect=(200,))


class Searcher(FastHttpUser):
    """The abusive client's searches: the live page asked for a name, on several connections, without a pause.
    Refused past its limit (429), which is what it is measured for: a 429 is not counted as an error."""

    fixed_count = 6
    wait_time = constant(0)

    @task
    def search(self) -> None:
        query = f"Joueur{random.randrange(3000):04d}"
        with self.client.get(f"/tournaments/{TOURNAMENT}/live/?q={query}", headers=dict(AWAY, **GZIP),
                             name="abusive search", catch_response=True) as response:
            if response.status_code in (200, 429):
                response.success()


# Two results the player changes between, so that every claim saved is a change the pages show, the worst case.
CLAIMS = ({"result": "A", "a_losses": 40, "b_losses": 100}, {"result": "B", "a_losses": 100, "b_losses": 40})


class Claimer(SignedIn):
    """The abusive client's claims: a player signed in from the same address sends their table's result again and
    again without a pause (a 302 back to the page when saved, 429 past the limit; neither is an error)."""

    fixed_count = 2
    wait_time = constant(0)
    proxy = AWAY

    def on_start(self) -> None:
        self.sign_in(os.environ["LIVE_PLAYER"], os.environ["LIVE_PLAYER_PASSWORD"])
        self.url = f"/tournaments/{TOURNAMENT}/live/tables/{os.environ['LIVE_CLAIM_TABLE']}/"

    @task
    def claim(self) -> None:
        self._send("post", self.url, name="abusive claim", expect=(302, 429),
                   data={**random.choice(CLAIMS), "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")})


def _form_token(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    return found.group(1) if found else ""
