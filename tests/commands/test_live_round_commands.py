"""live_unpair exactly as PAIRING.md §8 writes it, and live_result refusing a big file fast."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rules.rulesets import SPARE_ID
from tests.commands.cli import run
from tests.commands.test_live_commands import pair, results_csv, start
from tests.live.helpers import federation_players
from tournaments.live.rounds import round_pair, round_swap
from tournaments.models import LiveDiscardedDraw, LiveRound, LiveTable, LiveTournament

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_live_unpair_withdraws_the_latest_round_and_exits_1_while_it_has_results(tmp_path):
    tid = start(tmp_path, federation_players(8))
    first = pair(tid, "--seed", "7")
    run("live_result", str(tid), "1", "--file", results_csv(tmp_path, first["pairs"]))

    code, out, err = run("live_unpair", str(tid), "--pool", "A", "--reason", "the hats were wrong")
    assert code == 1 and "confirm that they are discarded" in err and out == ""
    assert LiveRound.objects.filter(live_id=tid).count() == 1

    code, out, err = run("live_unpair", str(tid), "--pool", "A", "--reason", "the hats were wrong",
                         "--discard-results")
    assert code == 0, err
    assert "round 1 withdrawn" in out and "4 results discarded" in out
    assert not LiveRound.objects.filter(live_id=tid).exists()
    kept = LiveDiscardedDraw.objects.get(live_id=tid)
    assert (kept.seed, kept.reason, kept.was_published) == (7, "the hats were wrong", True)
    again = pair(tid)
    assert again["round"] == 1 and again["seed"] is not None


@pytest.mark.django_db
def test_live_unpair_refusals_exit_1_with_the_reason(tmp_path):
    tid = start(tmp_path, federation_players(4))
    code, _, err = run("live_unpair", str(tid), "--pool", "A", "--reason", "nothing to withdraw")
    assert code == 1 and "Pool A has no round to withdraw." in err
    code, _, err = run("live_unpair", str(tid), "--pool", "A", "--reason", "  ")
    assert code == 1 and "--reason" in err
    code, _, err = run("live_unpair", "999999", "--pool", "A", "--reason", "x")
    assert code == 1 and "no tournament" in err


def test_live_unpair_without_its_reason_is_a_usage_error_exiting_1():
    done = subprocess.run([sys.executable, "manage.py", "live_unpair", "1", "--pool", "A"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "--reason" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.django_db
def test_a_refused_file_of_2000_rows_is_refused_fast_naming_each_table(tmp_path):
    """A refused 2,000-row CSV took 22 s, each row tried in its own transaction."""
    tid = start(tmp_path, federation_players(8))
    pair(tid, "--seed", "3")
    lines = ["table,result,a_losses,b_losses,free"] + [f"{n},X,10,20,no" for n in range(1, 2001)]
    path = tmp_path / "big.csv"
    path.write_text("\n".join(lines) + "\n")
    began = time.monotonic()
    code, _, err = run("live_result", str(tid), "1", "--file", str(path))
    took = time.monotonic() - began
    assert code == 1 and took < 5, took
    problems = err.strip().splitlines()
    assert len(problems) == 2000
    assert problems[0].startswith("table 1: ") and problems[-1] == "table 2000: Round 1 has no table 2000."
    assert not LiveTable.objects.filter(round__live_id=tid).exclude(result="").exists()


@pytest.mark.django_db
def test_live_pair_replaces_a_proposal_changed_on_the_pages_and_keeps_it(tmp_path):
    tid = start(tmp_path, federation_players(8))
    proposal = round_pair(LiveTournament.objects.get(pk=tid), seed=5)
    tables = list(proposal.tables.select_related("a", "b").order_by("table"))
    round_swap(proposal, tables[0].b.player_id, tables[1].b.player_id, reason="friends")
    printed = pair(tid, "--seed", "6")
    assert printed["seed"] == 6
    kept = LiveDiscardedDraw.objects.get(live_id=tid)
    assert (kept.seed, kept.reason, kept.changes[0]["reason"]) == (5, "replaced by live_pair", "friends")


@pytest.mark.django_db
@pytest.mark.parametrize("seed", ["1", "2", "3"])
def test_live_pair_hats_in_an_odd_pool_gives_the_spare_the_last_name_of_the_larger_hat(tmp_path, seed):
    """PAIRING.md §2.3, decision of 2026-12-02: 4 in hat 1, 3 in hat 2 (the lowest rated in hat 2): every game is
    one name from each hat, and the spare meets the name of hat 1 left over."""
    players = federation_players(7)
    hats = {p.pk: 1 if n < 4 else 2 for n, p in enumerate(players)}
    path = tmp_path / "hats.json"
    path.write_text(json.dumps({"name": "Open live", "system": "adlg", "start_date": "2026-11-21",
                                "end_date": "2026-11-22", "rounds": 3, "city": "Paris", "country": "FR",
                                "referee": "Jean Arbitre",
                                "players": [{"id": p.pk, "hat": hats[p.pk]} for p in players]}))
    code, out, err = run("live_start", str(path), "--json")
    assert code == 0, err
    tid = json.loads(out.strip().splitlines()[-1])["tournament_id"]
    drawn = pair(tid, "--method", "hats", "--seed", seed)
    assert drawn["system"] == "hats" and drawn["seed"] == int(seed) and len(drawn["pairs"]) == 4
    *games, spare = drawn["pairs"]
    assert spare["b"] == SPARE_ID and hats[spare["a"]] == 1
    assert all(hats[g["a"]] != hats[g["b"]] for g in games)
