"""A live tournament ready to run: players of the federation with ratings and clubs, a calendar tournament."""

from __future__ import annotations

import random
import re
from datetime import date

from tests import factories
from tournaments.live.entrants import NewEntrant
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.live.start import live_begin
from tournaments.models import LiveRound, LiveTable, LiveTournament, Tournament


def federation_players(count: int = 9, *, clubs: int = 3, first_id: int = 2001) -> list:
    made = []
    for n in range(count):
        club = factories.club(f"Club {n % clubs + 1}") if clubs else None
        player = factories.player(f"Player{n + 1}", "Test", id=first_id + n, club=club)
        factories.rating(player, value=1200 - 17 * n, games=20)
        made.append(player)
    return made


def live_tournament(players, *, rounds: int = 3, user=None, swiss: str = "", name: str = "Open live",
                    start: date = date(2026, 11, 21), players_enter_results: bool = False) -> LiveTournament:
    tournament = factories.tournament(name, start=start, end=start, rounds=rounds, status=Tournament.REGISTERED)
    return live_begin(tournament, entrants=[NewEntrant(player=p.pk) for p in players], swiss=swiss, user=user,
                      players_enter_results=players_enter_results)


def random_result(rng: random.Random) -> Result:
    code = rng.choice(["A", "B", "D", "A", "B"])
    losses = sorted(rng.sample(range(0, 101, 5), 2))
    if code == "A":
        return Result(0, "A", losses[0], losses[1])
    if code == "B":
        return Result(0, "B", losses[1], losses[0])
    return Result(0, "D", losses[0], losses[1])


def play_round(live: LiveTournament, number: int, rng: random.Random, *, pool: str = "A", seed: int = 7,
               user=None) -> LiveRound:
    """Pair, publish and fill one round with random results."""
    round_ = round_pair(live, pool=pool, seed=seed if number == 1 else None, user=user)
    round_publish(round_, user=user)
    results = []
    for table in LiveTable.objects.filter(round=round_).order_by("table"):
        r = random_result(rng)
        if table.b_id is None:
            r = Result(0, "A", 0, 100)
        results.append(Result(table.table, r.result, r.a_losses, r.b_losses))
    results_record(live, number, results, user=user)
    return round_


def form_fields(html: str, action: str) -> dict[str, str]:
    """The hidden fields of the page's form posting to `action`: what a browser would send."""
    form = re.search(r'<form method="post" action="' + re.escape(action) + r'"[^>]*>(.*?)</form>', html, re.S)
    assert form is not None, f"no form to {action}"
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(1)))
