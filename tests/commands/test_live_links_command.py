"""live_links (PAIRING.md §8): every entrant's private link as id,name,path, the path relative to the site's root;
each link opens that player's page while the tournament runs, and a reissued one replaces it."""

from __future__ import annotations

import csv
import io
import json

import pytest

from adlg_site import tokens
from tests.commands.cli import run
from tests.commands.test_live_commands import start
from tests.live.helpers import federation_players
from tournaments.live.entrants import NewEntrant, entrant_add
from tournaments.live.links import entrant_by_link, entrant_link_token, link_reissue
from tournaments.models import LiveEntrant, LiveTournament

pytestmark = pytest.mark.django_db


def test_it_lists_every_entrant_with_a_path_of_their_own(tmp_path):
    players = federation_players(5)
    tid = start(tmp_path, players)
    entrant_add(LiveTournament.objects.get(pk=tid), NewEntrant(last_name="Nouveau", first_name="Jean", country="FR"))
    code, out, err = run("live_links", str(tid))
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["id", "name", "path"]
    assert len(rows) == 6
    new_row = next(r for r in rows if r["name"] == "Nouveau Jean")
    assert new_row["id"].startswith("N")
    assert {r["id"] for r in rows} - {new_row["id"]} == {str(p.pk) for p in players}
    paths = [r["path"] for r in rows]
    assert len(set(paths)) == 6 and all(p.startswith(f"/tournaments/{tid}/live/me/") and p.endswith("/")
                                        for p in paths)
    for row in rows:
        token = row["path"].rstrip("/").rsplit("/", 1)[1]
        assert entrant_by_link(tid, token).pk == LiveEntrant.objects.get(link_digest=tokens.digest(token)).pk


def test_json_gives_the_same_links(tmp_path):
    tid = start(tmp_path, federation_players(4))
    _, csv_out, _ = run("live_links", str(tid))
    code, out, err = run("live_links", str(tid), "--format", "json")
    assert code == 0, err
    as_json = json.loads(out)
    assert [{**row, "id": str(row["id"])} for row in as_json] == list(csv.DictReader(io.StringIO(csv_out)))
    assert all(isinstance(row["id"], int) for row in as_json)  # a federation ID is a number, as in live_pair


def test_a_reissued_link_replaces_the_old_one_and_another_tournaments_link_opens_nothing(tmp_path):
    tid = start(tmp_path, federation_players(4))
    other = start(tmp_path, federation_players(4, first_id=3001))
    live = LiveTournament.objects.get(pk=tid)
    entrant = live.entrants.first()
    old = entrant_link_token(entrant)
    link_reissue(live, entrant)
    entrant.refresh_from_db()
    new = entrant_link_token(entrant)
    assert new != old
    assert entrant_by_link(tid, old) is None
    assert entrant_by_link(tid, new).pk == entrant.pk
    assert entrant_by_link(other, new) is None


def test_an_unknown_tournament_exits_one_with_the_reason():
    code, _, err = run("live_links", "424242")
    assert code == 1 and err.strip() and "Traceback" not in err
