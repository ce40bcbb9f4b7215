"""The tournament day's results (PAIRING.md §6): the referee's entries, table by table, all or nothing; the players'
own entries, counted once both agree; who may play a free game in the last round."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from players.audit import audit_record
from players.models import Player
from rules.pairing import free_game_players, free_game_problems
from rules.rulesets import SPARE_ID
from rules.scoring import scores
from rules.sheet.checks import game_faults
from rules.sheet.messages import render as fault_text
from tournaments.live.pools import bump, key_of, locked, pool_standings, pool_state
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveRound, LiveTable, LiveTournament

# --- results


@dataclass(frozen=True)
class Result:
    table: int
    result: str
    a_losses: int | None = None
    b_losses: int | None = None
    free: bool = False


def results_record(live: LiveTournament, number: int, results: Sequence[Result], *, user=None,
                   reason: str = "") -> list[LiveTable]:
    """Record tables' results of round `number`, all or nothing (the referee's word is final)."""
    with transaction.atomic():
        live = locked(live)
        tables = {t.table: t for t in LiveTable.objects.select_for_update(of=("self",)).filter(
            round__live=live, round__number=number).select_related("round", "a", "b")}
        problems: list[tuple[str, dict]] = []
        changed: list[LiveTable] = []
        altered: set[tuple[str, int]] = set()  # (pool, round) of a result entered before that now changes
        for result in results:
            table = tables.get(result.table)
            if table is None:
                problems.append(("no_such_table", {"round": number, "table": result.table}))
                continue
            problems += _result_problems(live, table, result)
            if not problems:
                entered = (table.result, table.a_losses, table.b_losses, table.free)
                if table.result and entered != (result.result, result.a_losses, result.b_losses, result.free):
                    altered.add((table.round.pool, table.round.number))
                changed.append(_apply(table, result, user))
        if problems:
            raise LiveRefused(problems)
        later = _later_rounds(live, altered)
        if later and not reason.strip():
            raise LiveRefused.one("result_changed_reason", round=number)
        if later:
            LiveRound.objects.filter(pk__in=later).update(paired_from_other_results=True)
            for round_ in {t.round for t in changed}:
                round_.reason = "\n".join(filter(None, [round_.reason, reason.strip()]))
                round_.save(update_fields=["reason"])
        LiveTable.objects.bulk_update(changed, ["result", "a_losses", "b_losses", "free", "entered_by",
                                                "entered_at", "claim_a", "claim_b"])
        if changed:
            audit_record(user=user, action="live_results", obj=live.tournament,
                         summary=f"round {number}: {len(changed)} results", changes={"reason": reason} if later
                         else None)
        bump(live)
    return changed


def _later_rounds(live: LiveTournament, altered: Iterable[tuple[str, int]]) -> list[int]:
    """The rounds paired after those whose results changed (a first entry changes nothing paired)."""
    rounds = set()
    for pool, number in altered:
        rounds |= set(live.rounds.filter(pool=pool, number__gt=number).values_list("pk", flat=True))
    return sorted(rounds)


def _apply(table: LiveTable, result: Result, user) -> LiveTable:
    table.result, table.a_losses, table.b_losses, table.free = (result.result, result.a_losses, result.b_losses,
                                                                result.free)
    table.entered_by = user if getattr(user, "is_authenticated", False) else None
    table.entered_at = timezone.now()
    table.claim_a = table.claim_b = None
    return table


def _result_problems(live: LiveTournament, table: LiveTable, result: Result) -> list[tuple[str, dict]]:
    round_ = table.round
    if round_.published_at is None:
        return [("round_not_published", {"round": round_.number, "pool": round_.pool})]
    tournament = live.tournament
    faults = game_faults(system=tournament.system_id, a=key_of(table.a), b=key_of(table.b) if table.b else SPARE_ID,
                         result=result.result, a_losses=result.a_losses, b_losses=result.b_losses,
                         round_number=round_.number, rounds=tournament.rounds, free=result.free)
    problems = [("fault", {"message": fault_text(code=f.code, params=f.params, lang="en"),
                           "message_fr": fault_text(code=f.code, params=f.params, lang="fr")}) for f in faults]
    if result.free and not faults:
        if table.b is None:
            return [("free_against_spare", {})]
        may = free_players(live, round_.pool, round_.number)
        problems += [(n.code, n.params) for n in free_game_problems(key_of(table.a), key_of(table.b), may)]
    return problems


def free_players(live: LiveTournament, pool: str, number: int) -> frozenset[int]:
    """Who may play a free game in round `number` of the pool (PAIRING.md §6): none but in the last round."""
    if number != live.tournament.rounds:
        return frozenset()
    state = pool_state(live, pool)
    state.rounds = [r for r in state.rounds if r.number < number]
    state.tables = [t for t in state.tables if t.round_id in {r.pk for r in state.rounds}]
    rows = pool_standings(state)
    return free_game_players(standing=[r.player for r in rows], scores={r.player: r.score for r in rows},
                             round=number, rounds=live.tournament.rounds,
                             game_maximum=game_maximum(live.tournament.system.get_ruleset()))


def game_maximum(ruleset) -> float:
    """The most one game scores for a player in the ruleset (PAIRING.md §6's 100 in AdlG)."""
    return max(max(scores(ruleset, code, 0, 100)) for code in ruleset.result_codes)


def result_claim(live: LiveTournament, table: LiveTable, *, player: Player, result: Result) -> LiveTable:
    """A player's entry of their own table: it counts once both players have entered the same result."""
    with transaction.atomic():
        live = locked(live)
        if not live.players_enter_results:
            raise LiveRefused.one("self_entry_closed")
        table = LiveTable.objects.select_for_update(of=("self",)).select_related("round", "a", "b").get(pk=table.pk)
        side = "a" if table.a.player_id == player.pk else "b" if table.b and table.b.player_id == player.pk else None
        if side is None:
            raise LiveRefused.one("not_your_table")
        if table.result:
            raise LiveRefused.one("result_already_in")
        problems = _result_problems(live, table, result)
        if problems:
            raise LiveRefused(problems)
        claim = {"result": result.result, "a_losses": result.a_losses, "b_losses": result.b_losses,
                 "free": result.free}
        setattr(table, f"claim_{side}", claim)
        if table.claim_a is not None and table.claim_a == table.claim_b:
            _apply(table, result, None)
        table.save(update_fields=["result", "a_losses", "b_losses", "free", "entered_by", "entered_at",
                                  "claim_a", "claim_b"])
        bump(live)
    return table
