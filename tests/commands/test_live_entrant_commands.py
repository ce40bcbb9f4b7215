"""live_add, live_remove, live_move exactly as PAIRING.md §8 writes them, and live_start's strict JSON:
each success, each refusal exiting 1 with its reason on stderr and changing nothing, never a traceback."""

from __future__ import annotations

import json
import random
from datetime import date, timedelta

import pytest

from tests.commands.cli import run
from tests.commands.test_live_commands import last_json, pair, results_csv, start
from tests.live.helpers import federation_players
from tournaments.models import LiveEntrant, LiveRound, LiveTable, LiveTournament, Tournament

pytestmark = pytest.mark.django_db


def _entrants(tid: int) -> list[tuple]:
    return sorted(LiveEntrant.objects.filter(live_id=tid).values_list("player_id", "pool", "hat", "joined_round",
                                                                          "present"))


def test_live_add_puts_a_player_in_a_pool_and_hat_before_round_one_and_later_makes_a_late_player(tmp_path):
    players = federation_players(8)
    tid = start(tmp_path, players[:5])
    code, out, err = run("live_add", str(tid), str(players[5].pk), "--pool", "B", "--hat", "2")
    assert code == 0, err
    assert f"({players[5].pk}) plays in pool B, hat 2 of tournament {tid}." in out
    assert (players[5].pk, "B", 2, 1, True) in _entrants(tid)
    pairs = pair(tid, "--seed", "3")["pairs"]
    run("live_result", str(tid), "1", "--file", results_csv(tmp_path, pairs))
    code, out, err = run("live_add", str(tid), str(players[6].pk))
    assert code == 0, err
    assert "from round 2 (a late player: no game in the rounds missed)" in out
    assert not LiveTable.objects.filter(round__live_id=tid, round__number=1, a__player=players[6]).exists()
    assert pair(tid)["round"] == 2


def test_live_add_refusals_exit_one_with_the_reason_and_change_nothing(tmp_path):
    players = federation_players(5)
    tid = start(tmp_path, players[:4])
    before = _entrants(tid)
    for args, reason in [
        (("live_add", str(tid), str(players[0].pk)), "already plays in this tournament"),
        (("live_add", str(tid), "424242"), "No player has the ID 424242"),
        (("live_add", str(tid), "99"), "No player has the ID 99"),
        (("live_add", str(tid), "5.9"), "PLAYER_ID must be a whole number, not '5.9'"),
        (("live_add", str(tid), "9" * 30), "PLAYER_ID must be a whole number from 1 to 2147483647"),
        (("live_add", str(tid), str(players[4].pk), "--hat", "3"), "--hat must be a whole number from 1 to 2"),
        (("live_add", str(tid), str(players[4].pk), "--pool", "=SUM(A1)"), "a spreadsheet would run it"),
        (("live_add", "999999", str(players[4].pk)), "no tournament with ID 999999"),
    ]:
        code, out, err = run(*args)
        assert code == 1, args
        assert reason in err, (args, err)
    assert _entrants(tid) == before


def test_live_remove_removes_a_player_with_no_game_and_refuses_one_with_a_game(tmp_path):
    players = federation_players(7)
    tid = start(tmp_path, players[:6])
    run("live_add", str(tid), str(players[6].pk))
    code, out, err = run("live_remove", str(tid), str(players[6].pk))
    assert code == 0, err
    assert f"({players[6].pk}) removed from tournament {tid}." in out
    assert not LiveEntrant.objects.filter(live_id=tid, player=players[6]).exists()
    pair(tid, "--seed", "2")
    before = _entrants(tid)
    code, out, err = run("live_remove", str(tid), str(players[0].pk))
    assert code == 1 and "withdraw instead" in err and "Traceback" not in err
    code, out, err = run("live_remove", str(tid), str(players[6].pk))
    assert code == 1 and f"player {players[6].pk} does not play in tournament {tid}" in err
    assert _entrants(tid) == before


def test_live_move_changes_pool_and_hat_until_round_one_of_those_pools_is_paired(tmp_path):
    players = federation_players(8)
    tid = start(tmp_path, players)
    code, out, err = run("live_move", str(tid), str(players[0].pk), "--pool", "B", "--hat", "1")
    assert code == 0, err
    assert "pool B, hat 1" in out
    code, out, err = run("live_move", str(tid), str(players[0].pk), "--hat", "none")
    assert code == 0 and "pool B, no hat" in out
    for player in players[1:4]:
        assert run("live_move", str(tid), str(player.pk), "--pool", "B")[0] == 0
    pair(tid, "--pool", "B", "--seed", "1")
    before = _entrants(tid)
    for args, reason in [
        (("live_move", str(tid), str(players[0].pk), "--pool", "A"), "Round 1 of pool B is published"),
        (("live_move", str(tid), str(players[5].pk), "--pool", "B"), "Round 1 of pool B is published"),
        (("live_move", str(tid), str(players[5].pk)), "give --pool P, --hat 1|2|none"),
        (("live_move", str(tid), str(players[5].pk), "--hat", "4"), "--hat (1, 2 or none) must be a whole number"),
        (("live_move", str(tid), "424242", "--pool", "C"), "player 424242 does not play"),
    ]:
        code, out, err = run(*args)
        assert code == 1, args
        assert reason in err, (args, err)
    assert _entrants(tid) == before


def _start_json(tmp_path, **changes) -> tuple[int, str, str]:
    """live_start with the players 2001-2004 (federation_players(4), made by the test) and `changes`."""
    data = {"name": "Open live", "system": "adlg", "start_date": "2026-11-21", "end_date": "2026-11-22",
            "rounds": 3, "city": "Paris", "country": "FR", "referee": "Jean Arbitre",
            "players": [{"id": pk} for pk in (2001, 2002, 2003, 2004)], **changes}
    path = tmp_path / "tournament.json"
    path.write_text(json.dumps(data))
    return run("live_start", str(path), "--json")


@pytest.mark.parametrize(("changes", "reason"), [
    ({"worlds": "false"}, "worlds must be true or false (JSON booleans), not a text"),
    ({"official": 1}, "official must be true or false"),
    ({"players_enter_results": "yes"}, "players_enter_results must be true or false"),
    ({"players": [{"id": 5.9}]}, "players[1].id must be a federation ID (a positive whole number), not a number"),
    ({"players": [{"id": "2001"}]}, "players[1].id must be a federation ID"),
    ({"players": [{"id": True}]}, "players[1].id must be a federation ID"),
    ({"players": [{"id": 2001, "hat": "1"}]}, "players[1].hat must be 1, 2 or null"),
    ({"players": [{"id": 2001, "pool": 7}]}, "players[1].pool must be a text"),
    ({"players": [2001]}, "players[1] must be an object"),
    ({"name": {"first": "Open"}}, "name must be a text, not an object"),
    ({"city": ["Paris"]}, "city must be a text, not a list"),
    ({"rounds": "5"}, "rounds must be a whole number, not a text"),
    ({"rounds": 4.0}, "rounds must be a whole number, not a number"),
    ({"rounds": 13}, "rounds must be a whole number from 1 to 12, not 13"),
    ({"army_points": 50}, "army_points must be a whole number from 100 to 300, not 50"),
    ({"army_points": "many"}, "army_points must be a whole number"),
    ({"start_date": 20261121}, "start_date must be a date written YYYY-MM-DD"),
    ({"end_date": "21/11/2026"}, "end_date must be a date written YYYY-MM-DD"),
    ({"end_date": "2026-11-20"}, "The end date 2026-11-20 is before the start date 2026-11-21"),
    ({"start_date": (date.today() + timedelta(days=3)).isoformat(),
      "end_date": (date.today() + timedelta(days=4)).isoformat()}, "is after today"),
    ({"country": "UK"}, "unknown country 'UK'"),
    ({"system": "chess"}, "unknown rating system 'chess'"),
    ({"swiss": "dutch"}, 'swiss must be "classic" or "adapted"'),
    ({"name": "=HYPERLINK(1)"}, "a spreadsheet would run it as a formula"),
    ({"referee": "x" * 151}, "more than the 150 the site keeps"),
    ({"name": "   "}, "missing: name"),
])
def test_live_start_takes_strict_json_types_and_refuses_the_rest_with_a_clear_reason(tmp_path, changes, reason):
    federation_players(4)
    code, out, err = _start_json(tmp_path, **changes)
    assert code == 1, out
    assert reason in err, err
    assert "Traceback" not in err and last_json(out)["ok"] is False
    assert not Tournament.objects.exists()


def test_live_start_states_its_dates_past_ones_included_and_keeps_the_players_own_results_choice(tmp_path):
    federation_players(4)
    code, out, err = _start_json(tmp_path, start_date="2025-05-03", end_date="2025-05-04", worlds=False,
                                 official=True, players_enter_results=True, army_points=200,
                                 players=[{"id": 2001, "pool": "A", "hat": 1}, {"id": 2002, "hat": None},
                                          {"id": 2003}, {"id": 2004, "pool": "A", "hat": 2}])
    assert code == 0, err
    live = LiveTournament.objects.get(pk=last_json(out)["tournament_id"])
    tournament = live.tournament
    assert (tournament.start_date, tournament.end_date, tournament.worlds, tournament.army_points) == \
        (date(2025, 5, 3), date(2025, 5, 4), False, 200)
    assert live.players_enter_results is True
    assert all(live.entrants.values_list("present", flat=True))
    code, out, err = _start_json(tmp_path, worlds=True, name="Worlds live")
    assert code == 0 and Tournament.objects.get(name="Worlds live").worlds is True


def test_a_whole_late_arrival_run_by_the_commands_publishes(tmp_path):
    """A real day's failure, by the commands: 5 players (the spare in round 1), a sixth added after round 1."""
    players = federation_players(6)
    tid = start(tmp_path, players[:5])
    rng = random.Random(1)
    pairs = pair(tid, "--seed", "4")["pairs"]
    run("live_result", str(tid), "1", "--file", results_csv(tmp_path, pairs))
    assert run("live_add", str(tid), str(players[5].pk))[0] == 0
    for number in (2, 3):
        pairs = pair(tid)["pairs"]
        assert all(99 not in (p["a"], p["b"]) for p in pairs)
        run("live_result", str(tid), str(number), "--file", results_csv(tmp_path, pairs, name=f"r{rng.random()}.csv"))
    code, out, err = run("live_publish", str(tid), "--json")
    assert code == 0, err
    assert not LiveRound.objects.filter(live_id=tid, published_at__isnull=True).exists()


# --- the command line itself


BAD_COMMAND_LINES = [
    ["live_add"],
    ["live_add", "123456", "2001"],
    ["live_add", "123456", "2001", "--hat", "three"],
    ["live_remove", "123456"],
    ["live_remove", "123456", "N12"],
    ["live_move", "123456", "2001", "--pool", "B"],
    ["live_move", "x", "2001"],
]


@pytest.mark.parametrize("argv", BAD_COMMAND_LINES)
def test_the_command_line_exits_one_without_a_traceback(argv, bad_command_lines):
    result = bad_command_lines[tuple(argv)]
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr and result.stderr.strip()


def test_the_commands_take_a_pool_name_without_its_capitals(tmp_path):
    """`--pool b` where pool B exists is pool B (live_add, live_move, live_pair, live_standings), never a pool "b"
    of its own; the options are PAIRING.md §8's, unchanged."""
    players = federation_players(9)
    tid = start(tmp_path, players[:8])
    for player in players[:4]:
        assert run("live_move", str(tid), str(player.pk), "--pool", "B")[0] == 0
    code, out, err = run("live_add", str(tid), str(players[8].pk), "--pool", "b")
    assert code == 0, err
    assert "plays in pool B" in out
    assert sorted(set(LiveEntrant.objects.filter(live_id=tid).values_list("pool", flat=True))) == ["A", "B"]
    assert run("live_move", str(tid), str(players[5].pk), "--pool", "b")[0] == 0
    drawn = pair(tid, "--pool", "b", "--seed", "3")
    assert drawn["pool"] == "B" and drawn["round"] == 1
    code, out, err = run("live_standings", str(tid), "--pool", "b", "--format", "csv")
    assert code == 0, err
