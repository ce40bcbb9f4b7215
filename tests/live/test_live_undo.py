"""The rounds of a real day, as a referee reported them failing: the system chosen at the start never blocks round 1;
changes that keep every table's number and their reasons; draws discarded and rounds withdrawn, kept and listed; a
publication that only claims what it did (PAIRING.md §3-§5, 2026-11-26)."""

from __future__ import annotations

import random
from io import BytesIO

import pytest
from openpyxl import load_workbook

from players.models import AuditEntry
from rules.rulesets import SPARE_ID
from tests import factories
from tests.live.helpers import federation_players, live_tournament, play_round, random_result
from tournaments.live.draws import discarded_check, draw_check
from tournaments.live.entrants import NewEntrant, entrant_add, entrant_withdraw
from tournaments.live.pools import key_of
from tournaments.live.publication import live_publish, live_workbook
from tournaments.live.refusals import LiveRefused
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import (
    round_move_table,
    round_pair,
    round_publish,
    round_swap,
    round_withdraw,
)
from tournaments.live.start import live_begin
from tournaments.models import LiveDiscardedDraw, LiveRound, LiveTable, Tournament

pytestmark = pytest.mark.django_db


def _tables(round_) -> list[tuple[int, int, int]]:
    return [(t.table, key_of(t.a), key_of(t.b) if t.b else SPARE_ID)
            for t in LiveTable.objects.filter(round=round_).select_related("a", "b").order_by("table")]


def _two_pools(a: int = 14, b: int = 8, *, rounds: int = 3):
    """Pool A of `a` players and pool B of `b`, as the reported day's hall: A paired first, then B."""
    players = federation_players(a + b, clubs=5)
    tournament = factories.tournament("Two pools", rounds=rounds, status=Tournament.REGISTERED)
    return live_begin(tournament, entrants=[NewEntrant(player=p.pk, pool="A" if n < a else "B")
                                            for n, p in enumerate(players)])


def _results(live, round_, rng, **extra) -> None:
    results = []
    for table in LiveTable.objects.filter(round=round_).order_by("table"):
        r = random_result(rng) if table.b_id else Result(0, "A", 0, 100)
        results.append(Result(table.table, r.result, r.a_losses, r.b_losses, confirmed=True, **extra))
    results_record(live, round_.number, results)


# --- 6: the classic/adapted choice made at the start


def test_a_classic_choice_with_26_players_for_32_pairs_round_one_and_its_note_says_why():
    """A real day: 26 players for 32 with "classic" chosen at the start: round 1 was refused ("classic Swiss is not
    allowed") and no page changed it. The charter's system applies and round 1 says so."""
    live = live_tournament(federation_players(26), rounds=5, swiss="classic")
    round_ = round_pair(live, seed=1)
    live.refresh_from_db()
    assert live.systems == {"A": "adapted"}
    assert round_.notes == [{"code": "swiss_choice_not_applied",
                             "params": {"swiss": "classic", "system": "adapted", "players": 26, "ideal": 32}}]


def test_round_one_says_which_system_follows_when_nothing_was_chosen():
    live = live_tournament(federation_players(9), rounds=3)
    assert round_pair(live, seed=1).notes[0]["code"] == "system_charter"


# --- 7: changes keep the tables' numbers and their reasons


def test_a_swap_exchanges_two_players_and_every_table_keeps_its_number():
    """A real day: a swap moved pool A from tables 1-7 to 12-18 in an 11-table room."""
    live = _two_pools()
    first = round_pair(live, pool="A", seed=3)
    other = round_pair(live, pool="B", seed=4)
    before = _tables(first)
    assert [t for t, _, _ in before] == list(range(1, 8)) and [t for t, _, _ in _tables(other)] == list(range(8, 12))
    (_, a1, b1), (_, a2, b2) = before[0], before[1]
    swapped = round_swap(first, b1, b2, reason="")
    after = _tables(swapped)
    assert [t for t, _, _ in after] == list(range(1, 8))
    assert {frozenset(p[1:]) for p in after[:2]} == {frozenset((a1, b2)), frozenset((a2, b1))}
    assert after[2:] == before[2:]
    assert [t for t, _, _ in _tables(other)] == list(range(8, 12))


def test_every_swap_keeps_its_reason_and_a_later_swap_never_drops_an_earlier_one():
    live = live_tournament(federation_players(8, clubs=8))
    round_ = round_pair(live, seed=2)
    (_, a1, b1), (_, a2, b2), (_, a3, b3), (_, a4, b4) = _tables(round_)
    round_swap(round_, b1, b2, reason="Ann asked for her friend's table")
    round_ = round_swap(round_, b3, b4, reason="")
    assert [c["reason"] for c in round_.changes] == ["Ann asked for her friend's table", ""]
    assert [c["kind"] for c in round_.changes] == ["swap", "swap"]


def test_a_swap_that_makes_two_players_meet_again_is_refused_in_their_names():
    """The result sheet refuses two players meeting twice: the swap is refused when typed, not the publication."""
    live = live_tournament(federation_players(4, clubs=4), rounds=3)
    play_round(live, 1, random.Random(1))
    met = _tables(LiveRound.objects.get(live=live, number=1))
    second = round_pair(live)
    pairs = _tables(second)
    x, y = met[0][1], met[0][2]
    table_x = next(p for p in pairs if x in p[1:])
    partner = table_x[1] if table_x[2] == x else table_x[2]
    with pytest.raises(LiveRefused) as refused:
        round_swap(second, partner, y, reason="they asked")
    code, params = refused.value.notices[0]
    assert code == "rematch_unpublishable" and {params["a"], params["b"]} == {x, y}
    names = {key_of(e): f"{e.first_name} {e.last_name}" for e in live.entrants.all()}
    text = refused.value.messages("en", names.get)[0]
    assert "have already met: two players never meet twice" in text and str(x) not in text
    assert LiveRound.objects.get(pk=second.pk).changes == []


def test_a_swap_giving_the_spare_a_player_it_met_needs_a_reason_named_in_words():
    live = live_tournament(federation_players(5, clubs=5), rounds=3)
    play_round(live, 1, random.Random(1))
    had_spare = next(a for _, a, b in _tables(LiveRound.objects.get(live=live, number=1)) if b == SPARE_ID)
    met = {frozenset(p[1:]) for p in _tables(LiveRound.objects.get(live=live, number=1))}
    second = round_pair(live)
    pairs = _tables(second)
    spare_partner = next(a for _, a, b in pairs if b == SPARE_ID)
    mate = next(b if a == had_spare else a for _, a, b in pairs if had_spare in (a, b))
    assert frozenset((spare_partner, mate)) not in met  # the swap bends one rule only: the spare again
    with pytest.raises(LiveRefused) as refused:
        round_swap(second, had_spare, spare_partner)
    code, params = refused.value.notices[0]
    assert code == "reason_required" and params["warnings"][0]["code"] == "rematch"
    names = {key_of(e): f"{e.first_name} {e.last_name}" for e in live.entrants.all()}
    names[SPARE_ID] = "Spare"
    text = refused.value.messages("en", names.get)[0]
    assert "have already met: paired again by the referee" in text and names[had_spare] in text
    swapped = round_swap(second, had_spare, spare_partner, reason="Paul must leave early")
    assert swapped.changes[-1]["reason"] == "Paul must leave early"


def test_a_pair_is_given_a_chosen_table_by_exchanging_two_tables_numbers():
    live = _two_pools()
    first = round_pair(live, pool="A", seed=3)
    round_pair(live, pool="B", seed=4)
    before = dict((t, (a, b)) for t, a, b in _tables(first))
    moved = round_move_table(first, 5, 1, reason="Paul uses a wheelchair: table 1 is by the door")
    after = dict((t, (a, b)) for t, a, b in _tables(moved))
    assert after[1] == before[5] and after[5] == before[1]
    assert sorted(after) == list(range(1, 8))
    assert moved.changes[-1]["reason"] == "Paul uses a wheelchair: table 1 is by the door"


def test_a_pair_may_take_a_table_of_another_pools_proposal_but_not_of_a_published_round():
    live = _two_pools()
    first = round_pair(live, pool="A", seed=3)
    other = round_pair(live, pool="B", seed=4)
    round_move_table(other, 8, 1, reason="accessible table")
    assert 1 in [t for t, _, _ in _tables(other)] and 8 in [t for t, _, _ in _tables(first)]
    round_publish(first)
    with pytest.raises(LiveRefused) as refused:
        round_move_table(other, 1, 2)
    assert refused.value.notices[0][0] == "table_published"


def test_pairing_again_asks_before_it_discards_the_referees_changes():
    live = live_tournament(federation_players(8, clubs=8))
    round_ = round_pair(live, seed=2)
    (_, a1, b1), (_, a2, b2), *_ = _tables(round_)
    round_swap(round_, b1, b2, reason="friends")
    with pytest.raises(LiveRefused) as refused:
        round_pair(live, reason="a new draw")
    assert refused.value.notices[0] == ("changes_would_be_lost", {"count": 1})
    assert LiveRound.objects.get(pk=round_.pk).changes  # still there
    again = round_pair(live, reason="a new draw", discard_changes=True)
    kept = LiveDiscardedDraw.objects.get(live=live)
    assert (kept.kind, kept.seed, kept.reason, kept.changes[0]["reason"]) == ("drawn_again", 2, "a new draw",
                                                                              "friends")
    assert again.seed != 2 or _tables(again)  # a new seed, drawn by the site


def test_a_draw_drawn_again_keeps_its_tables_and_is_kept_with_its_seed():
    live = _two_pools()
    first = round_pair(live, pool="A", seed=3)
    round_pair(live, pool="B", seed=4)
    again = round_pair(live, pool="A", reason="wrong method")
    assert [t for t, _, _ in _tables(again)] == list(range(1, 8))
    kept = LiveDiscardedDraw.objects.get(live=live)
    assert (kept.seed, kept.number, kept.pool) == (3, 1, "A")
    assert [p["table"] for p in kept.pairs] == list(range(1, 8)) and kept.pairs[0]["a_name"]
    assert first.pk != again.pk


# --- 7: withdrawing a round


def test_a_published_round_with_results_is_withdrawn_only_once_its_results_are_discarded():
    live = live_tournament(federation_players(9))
    round_ = play_round(live, 1, random.Random(1), seed=11)
    with pytest.raises(LiveRefused) as refused:
        round_withdraw(live, pool="A", reason="the wrong players were in")
    assert refused.value.notices[0] == ("round_has_results", {"round": 1, "pool": "A", "count": 5})
    with pytest.raises(LiveRefused) as refused:
        round_withdraw(live, pool="A", reason="  ", discard_results=True)
    assert refused.value.notices[0][0] == "withdraw_reason_required"
    assert LiveRound.objects.filter(pk=round_.pk).exists()
    kept = round_withdraw(live, pool="A", reason="the wrong players were in", discard_results=True)
    assert not LiveRound.objects.filter(live=live).exists()
    assert (kept.kind, kept.was_published, kept.results_discarded, kept.seed) == ("withdrawn", True, 5, 11)
    redrawn = round_pair(live)
    assert redrawn.number == 1 and redrawn.seed is not None


def test_round_two_withdrawn_after_its_results_is_paired_again_the_same_way():
    live = live_tournament(federation_players(10, clubs=5), rounds=4)
    rng = random.Random(4)
    play_round(live, 1, rng, seed=5)
    second = play_round(live, 2, rng)
    pairs = _tables(second)
    round_withdraw(live, pool="A", reason="a result of table 3 was entered on table 4", discard_results=True)
    again = round_pair(live)
    assert again.number == 2 and _tables(again) == pairs


def test_a_pool_paired_again_after_a_withdrawal_gets_its_tables_back():
    """The reported day's room of 11 tables: pool A withdrawn and paired again takes 1-7 again, not 12-18."""
    live = _two_pools()
    first = round_pair(live, pool="A", seed=3)
    round_publish(first)
    round_publish(round_pair(live, pool="B", seed=4))
    round_withdraw(live, pool="A", reason="pool A drawn with the wrong hats")
    again = round_pair(live, pool="A")
    assert [t for t, _, _ in _tables(again)] == list(range(1, 8))


def test_with_nothing_to_withdraw_the_referee_is_told():
    live = live_tournament(federation_players(4))
    with pytest.raises(LiveRefused) as refused:
        round_withdraw(live, pool="A", reason="nothing")
    assert refused.value.notices[0] == ("no_round_to_withdraw", {"pool": "A"})


# --- 9: publishing only what is there


def test_publishing_a_round_no_longer_there_or_already_published_claims_nothing():
    live = live_tournament(federation_players(8))
    shown = round_pair(live, seed=1)
    round_pair(live, seed=2)  # drawn again in another tab: the round shown is gone
    with pytest.raises(LiveRefused) as refused:
        round_publish(shown)
    assert refused.value.notices[0][0] == "round_gone"
    assert not AuditEntry.objects.filter(action="live_publish_round").exists()
    current = LiveRound.objects.get(live=live)
    round_publish(current)
    with pytest.raises(LiveRefused) as refused:
        round_publish(current)
    assert refused.value.notices[0][0] == "round_already_published"
    assert AuditEntry.objects.filter(action="live_publish_round").count() == 1


def test_a_player_new_to_the_federation_who_never_played_gets_no_id_at_publication():
    players = federation_players(4)
    live = live_tournament(players, rounds=1)
    never = entrant_add(live, NewEntrant(last_name="Absent", first_name="Eve", club="Club 1", country="FR"))
    entrant_withdraw(live, never, from_round=1)
    play_round(live, 1, random.Random(2))
    players_sheet = load_workbook(BytesIO(live_workbook(live)), read_only=True)["Players"]
    assert f"N{never.pk}" not in [row[0] for row in players_sheet.iter_rows(min_row=2, values_only=True)]
    outcome = live_publish(live)
    assert outcome.ok, outcome.report.as_dict()
    assert outcome.new_players == {}
    never.refresh_from_db()
    assert never.player_id is None


def test_the_workbook_so_far_holds_the_games_entered_and_the_current_round_without_results():
    live = live_tournament(federation_players(6), rounds=3)
    play_round(live, 1, random.Random(3))
    second = round_pair(live)
    round_publish(second)
    with pytest.raises(LiveRefused):
        live_workbook(live)
    games = list(load_workbook(BytesIO(live_workbook(live, partial=True)), read_only=True)["Games"]
                 .iter_rows(min_row=2, values_only=True))
    played = [g for g in games if g[0] is not None]
    assert [g[0] for g in played] == [1, 1, 1, 2, 2, 2]
    assert all(g[4] for g in played[:3]) and not any(g[4] for g in played[3:])


# --- checking a draw


def test_a_published_draw_re_run_from_its_seed_gives_the_published_pairs():
    live = live_tournament(federation_players(9, clubs=3))
    round_ = round_pair(live, seed=77)
    round_publish(round_)
    check = draw_check(live, "A", 1)
    assert check.same and [(p.table, p.a, p.b) for p in check.pairs] == _tables(round_)


def test_the_check_says_which_pairs_a_swap_altered_with_its_reason():
    live = live_tournament(federation_players(8, clubs=8))
    round_ = round_pair(live, seed=5)
    (_, a1, b1), (_, a2, b2), *_ = _tables(round_)
    round_swap(round_, b1, b2, reason="a father and his son")
    round_publish(round_)
    check = draw_check(live, "A", 1)
    assert not check.same
    broken = [p for p in check.pairs if not p.kept]
    assert {(p.a, p.b) for p in broken} == {(a1, b1), (a2, b2)}
    assert all(p.changes[0]["reason"] == "a father and his son" for p in broken)
    assert {frozenset(m[1:]) for m in check.made_by_changes} == {frozenset((a1, b2)), frozenset((a2, b1))}


def test_round_two_is_checked_from_the_standing_the_results_gave():
    live = live_tournament(federation_players(8))
    play_round(live, 1, random.Random(8))
    second = round_pair(live)
    round_publish(second)
    check = draw_check(live, "A", 2)
    assert check.same and check.same_standing and check.seed is None


def test_a_discarded_draw_is_checked_the_same_way():
    live = live_tournament(federation_players(8))
    round_pair(live, seed=40)
    round_pair(live, reason="hats forgotten")
    kept = LiveDiscardedDraw.objects.get(live=live)
    check = discarded_check(live, kept.pk)
    assert check.same and check.seed == 40


# --- results


def test_a_win_where_the_winner_lost_more_is_recorded_once_confirmed():
    live = live_tournament(federation_players(4))
    round_publish(round_pair(live, seed=1))
    with pytest.raises(LiveRefused) as refused:
        results_record(live, 1, [Result(1, "A", 60, 20)])
    assert refused.value.notices[0][0] == "winner_lost_more"
    assert refused.value.notices[0][1]["table"] == 1
    recorded = results_record(live, 1, [Result(1, "A", 60, 20, confirmed=True)])
    assert (recorded[0].result, recorded[0].a_losses) == ("A", 60)


def test_a_second_referee_entry_on_a_table_never_overwrites_silently(referee):
    live = live_tournament(federation_players(4))
    round_publish(round_pair(live, seed=1))
    shown = LiveTable.objects.get(round__live=live, table=1).revision
    results_record(live, 1, [Result(1, "A", 10, 40, revision=shown)], user=referee)
    same = results_record(live, 1, [Result(1, "A", 10, 40, revision=shown)])  # the same result: no conflict
    assert same == []
    with pytest.raises(LiveRefused) as refused:
        results_record(live, 1, [Result(1, "B", 50, 10, revision=shown)])
    code, params = refused.value.notices[0]
    assert (code, params["by"], params["result"]) == ("result_conflict", "referee", "A 10% / 40%")
    now = LiveTable.objects.get(round__live=live, table=1)
    assert (now.result, now.revision) == ("A", shown + 1)
    results_record(live, 1, [Result(1, "B", 50, 10, revision=now.revision)])
    assert LiveTable.objects.get(round__live=live, table=1).result == "B"


def test_a_refused_file_of_results_lists_every_table_in_one_pass():
    live = live_tournament(federation_players(6))
    round_publish(round_pair(live, seed=1))
    with pytest.raises(LiveRefused) as refused:
        results_record(live, 1, [Result(1, "X"), Result(2, "A", 10, 20), Result(9, "A", 1, 2)])
    assert [params["table"] for _, params in refused.value.notices] == [1, 9]
    assert not LiveTable.objects.filter(round__live=live).exclude(result="").exists()


def test_each_action_of_the_day_is_audited_once():
    live = live_tournament(federation_players(6, clubs=6))
    round_ = round_pair(live, seed=1)
    (_, a1, b1), (_, a2, b2), _ = _tables(round_)
    round_swap(round_, b1, b2)
    round_move_table(round_, 1, 2)
    round_publish(round_)
    _results(live, round_, random.Random(1))
    round_withdraw(live, pool="A", reason="redo", discard_results=True)
    counts = {action: AuditEntry.objects.filter(action=action).count()
              for action in ("live_pair", "live_swap", "live_table", "live_publish_round", "live_results",
                             "live_unpair")}
    assert counts == dict.fromkeys(counts, 1)
