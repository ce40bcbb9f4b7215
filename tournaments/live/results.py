"""The tournament day's results (PAIRING.md §6): the referee's entries, table by table, all or nothing; the players'
own entries, counted once both agree; who may play a free game in the last round."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from players.audit import audit_record
from rules.pairing import free_game_players, free_game_problems
from rules.rulesets import SPARE_ID, SPARE_NAME
from rules.scoring import scores, winner_lost_more
from rules.sheet.checks import game_faults
from tournaments.live.pools import bump, key_of, locked, pool_standings, pool_state
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveEntrant, LiveRound, LiveTable, LiveTournament

# --- results

# A table's fields an entry writes (_apply, and a player's claim).
_WRITTEN = ["result", "a_losses", "b_losses", "free", "entered_by", "entered_at", "claim_a", "claim_b", "revision"]


@dataclass(frozen=True)
class Result:
    """One table's result as typed. `revision`: the table's revision the form showed (None: not checked, the
    commands); `confirmed`: the referee confirmed a win with more losses than the loser's."""

    table: int
    result: str
    a_losses: int | None = None
    b_losses: int | None = None
    free: bool = False
    revision: int | None = None
    confirmed: bool = False


def results_record(live: LiveTournament, number: int, results: Sequence[Result], *, user=None,
                   reason: str = "") -> list[LiveTable]:
    """Record tables' results of round `number`, all or nothing (the referee's word is final). Every problem of
    every table is found in one pass, each notice naming its table, before anything is written.

    A table whose result changed since the referee's form showed it (another referee, the players) is refused,
    saying what is there, who entered it and when: the form then shows the new revision, and sending it again
    replaces it. The first entry of a result, or the same result again, is not such a conflict. A win whose
    winner lost more than the loser is refused until the referee confirms it."""
    with transaction.atomic():
        live = locked(live)
        tables = {t.table: t for t in LiveTable.objects.select_for_update(of=("self",)).filter(
            round__live=live, round__number=number).select_related("round", "a", "b", "entered_by")}
        problems: list[tuple[str, dict]] = []
        changed: list[LiveTable] = []
        altered: set[tuple[str, int]] = set()  # (pool, round) of a result entered before that now changes
        entries: list[dict] = []  # each changed table as the audit log names it (_audited)
        may_free: dict[str, frozenset[int]] = {}
        for result in results:
            table = tables.get(result.table)
            if table is None:
                problems.append(("no_such_table", {"round": number, "table": result.table}))
                continue
            found = _result_problems(live, table, result, may_free) or _second_thoughts(table, result)
            problems += [(code, {**params, "table": result.table}) for code, params in found]
            if found or problems:
                continue
            if _entered(table) == _typed(result):
                continue  # the same result again: nothing changes
            if table.result:
                altered.add((table.round.pool, table.round.number))
            entries.append(_audited(table, result))
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
        LiveTable.objects.bulk_update(changed, _WRITTEN)
        if changed:
            audit_record(user=user, action="live_results", obj=live.tournament,
                         summary="; ".join(f"round {number}, table {e['table']}: {e['a']} {e['result']} {e['b']} "
                                           f"(was: {e['was']})" for e in entries),
                         changes={"round": number, "tables": entries, **({"reason": reason} if later else {})})
            bump(live)
    return changed


def result_remove(live: LiveTournament, number: int, table_number: int, *, user=None,
                  revision: int | None = None) -> LiveTable:
    """Take back a table's result (entered on the wrong table, or before the game ended): the table waits for its
    result again, and the players, when they enter results, may enter it. The players' entries go with it.

    Refused, changing nothing: a table with no result; a result changed since the referee's page showed it
    (`revision`: removing what one has not seen would drop another referee's or the players' entry); a round
    followed by a paired round of its pool, whose pairing counted this result: the right result is entered
    instead, with its reason (results_record)."""
    with transaction.atomic():
        live = locked(live)
        table = (LiveTable.objects.select_for_update(of=("self",)).select_related("round", "a", "b")
                 .filter(round__live=live, round__number=number, table=table_number).first())
        if table is None:
            raise LiveRefused.one("no_such_table", round=number, table=table_number)
        if not table.result:
            raise LiveRefused.one("no_result_to_remove", table=table_number)
        shown = _shown(table.result, table.a_losses, table.b_losses)
        if revision is not None and revision != table.revision:
            raise LiveRefused.one("result_remove_conflict", table=table_number, result=shown)
        if _later_rounds(live, [(table.round.pool, number)]):
            raise LiveRefused.one("result_remove_later_paired", round=number, table=table_number)
        entry = {**_audited(table, Result(table_number, "")), "result": "—"}
        _apply(table, Result(table_number, ""), user)  # no result: the players' entries go too
        table.save(update_fields=_WRITTEN)
        audit_record(user=user, action="live_results", obj=live.tournament,
                     summary=f"round {number}, table {table_number}: {entry['a']} – {entry['b']}, result removed "
                             f"(was: {shown})",
                     changes={"round": number, "tables": [entry], "removed": True})
        bump(live)
    return table


def _typed(result: Result) -> tuple:
    return (result.result, result.a_losses, result.b_losses, result.free)


def _entered(table: LiveTable) -> tuple:
    return (table.result, table.a_losses, table.b_losses, table.free)


def _second_thoughts(table: LiveTable, result: Result) -> list[tuple[str, dict]]:
    """What the referee is asked to confirm: a result that replaced the one their form showed, a win with more
    losses than the loser's."""
    if (table.result and result.revision is not None and result.revision != table.revision
            and _entered(table) != _typed(result)):
        at = timezone.localtime(table.entered_at).strftime("%H:%M") if table.entered_at else "?"
        shown = _shown(table.result, table.a_losses, table.b_losses)
        if table.entered_by is None:
            return [("result_conflict_players", {"at": at, "result": shown})]
        by = table.entered_by.get_full_name() or table.entered_by.get_username()
        return [("result_conflict", {"by": by, "at": at, "result": shown})]
    return lost_more_question(table, result)


def lost_more_question(table: LiveTable, result: Result) -> list[tuple[str, dict]]:
    """The question a win whose winner lost more than the loser asks before it is recorded, the same for the
    referee (results_record) and a player (result_report): [] once confirmed, or for any other result."""
    found = None if result.confirmed else winner_lost_more(result.result, result.a_losses, result.b_losses)
    if found is None:
        return []
    side, won, lost = found
    keys = (key_of(table.a), key_of(table.b) if table.b else SPARE_ID)
    return [("winner_lost_more", {"winner": keys[side == "B"], "loser": keys[side == "A"], "winner_losses": won,
                                  "loser_losses": lost, "table": table.table})]


def _shown(result: str, a_losses: int | None, b_losses: int | None) -> str:
    """A result as the conflict message shows it: the code, and the losses when there are some."""
    if a_losses is None and b_losses is None:
        return result
    return f"{result} {'' if a_losses is None else a_losses}% / {'' if b_losses is None else b_losses}%"


def _audited(table: LiveTable, result: Result) -> dict:
    """One table's change as the audit log shows it: who played whom, the result and what it was before ('—' for
    none), so the board reads "round 5, table 3: Moreau A 10% / 40% Martin (was: —)", not "1 results"."""
    def name(entrant) -> str:
        return f"{entrant.first_name} {entrant.last_name}".strip() if entrant is not None else SPARE_NAME

    was = _shown(table.result, table.a_losses, table.b_losses) if table.result else "—"
    return {"table": table.table, "a": name(table.a), "b": name(table.b),
            "result": _shown(result.result, result.a_losses, result.b_losses), "was": was}


def _later_rounds(live: LiveTournament, altered: Iterable[tuple[str, int]]) -> list[int]:
    """The rounds paired after those whose results changed (a first entry changes nothing paired)."""
    rounds = set()
    for pool, number in altered:
        rounds |= set(live.rounds.filter(pool=pool, number__gt=number).values_list("pk", flat=True))
    return sorted(rounds)


def _apply(table: LiveTable, result: Result, user) -> LiveTable:
    table.result, table.a_losses, table.b_losses, table.free = _typed(result)
    table.entered_by = user if getattr(user, "is_authenticated", False) else None
    table.entered_at = timezone.now()
    table.claim_a = table.claim_b = None
    table.revision += 1
    return table


def _result_problems(live: LiveTournament, table: LiveTable, result: Result,
                     may_free: dict[str, frozenset[int]] | None = None) -> list[tuple[str, dict]]:
    round_ = table.round
    if round_.published_at is None:
        return [("round_not_published", {"round": round_.number, "pool": round_.pool})]
    tournament = live.tournament
    faults = game_faults(system=tournament.system_id, a=key_of(table.a), b=key_of(table.b) if table.b else SPARE_ID,
                         result=result.result, a_losses=result.a_losses, b_losses=result.b_losses,
                         round_number=round_.number, rounds=tournament.rounds, free=result.free)
    problems = [("fault", {"code": f.code, "params": dict(f.params)}) for f in faults]
    if result.free and not faults:
        if table.b is None:
            return [("free_against_spare", {})]
        may_free = {} if may_free is None else may_free
        if round_.pool not in may_free:  # once per pool, however many tables
            may_free[round_.pool] = free_players(live, round_.pool, round_.number)
        problems += [(n.code, n.params) for n in free_game_problems(key_of(table.a), key_of(table.b),
                                                                    may_free[round_.pool])]
    return problems


def free_players(live: LiveTournament, pool: str, number: int, *,
                 before: list[tuple[int, float]] | None = None) -> frozenset[int]:
    """Who may play a free game in round `number` of the pool (PAIRING.md §6): none but in the last round.
    `before`: the pool's standing before the round as (key, score) in order, when the page has it already (the
    day's view works every complete round's standing out): the pool is not read again."""
    if number != live.tournament.rounds:
        return frozenset()
    if before is None:
        state = pool_state(live, pool)
        state.rounds = [r for r in state.rounds if r.number < number]
        earlier = {r.pk for r in state.rounds}
        state.tables = [t for t in state.tables if t.round_id in earlier]
        before = [(r.player, r.score) for r in pool_standings(state)]
    return free_game_players(standing=[key for key, _ in before], scores=dict(before),
                             round=number, rounds=live.tournament.rounds,
                             game_maximum=game_maximum(live.tournament.system.get_ruleset()))


def game_maximum(ruleset) -> float:
    """The most one game scores for a player in the ruleset (PAIRING.md §6's 100 in AdlG)."""
    return max(max(scores(ruleset, code, 0, 100)) for code in ruleset.result_codes)


def result_report(live: LiveTournament, table: LiveTable, *, entrant: LiveEntrant, result: Result,
                 user=None) -> LiveTable:
    """A player's entry of their own table: it counts once both players have entered the same result. The one
    service of both ways a player enters it: a signed-in account linked to the player (`user`), and the entrant's
    private link (no `user`: tournaments.live.links). Until the result counts a player may correct their entry;
    two different entries wait for the referee, who settles the table (results_record).

    **Decision** (2026-11-26): a game against the spare is entered by the referee only. Nobody can confirm the
    spare's side, and a result that counts on one player's word alone would be the only one of the day that no
    second person checked; the player is told so at once, instead of waiting for a confirmation that never comes.
    """
    with transaction.atomic():
        live = locked(live)
        if not live.players_enter_results:
            raise LiveRefused.one("self_entry_closed")
        table = LiveTable.objects.select_for_update(of=("self",)).select_related("round", "a", "b").get(pk=table.pk)
        side = "a" if table.a_id == entrant.pk else "b" if table.b_id and table.b_id == entrant.pk else None
        if side is None:
            raise LiveRefused.one("not_your_table")
        if table.b is None:
            raise LiveRefused.one("spare_table_referee")
        if table.result:
            raise LiveRefused.one("result_already_in")
        problems = _result_problems(live, table, result) or lost_more_question(table, result)
        if problems:
            raise LiveRefused(problems)
        claim = {"result": result.result, "a_losses": result.a_losses, "b_losses": result.b_losses,
                 "free": result.free}
        if getattr(table, f"claim_{side}") == claim:
            return table  # the same claim again changes nothing
        waiting = table.claim_a is not None or table.claim_b is not None
        setattr(table, f"claim_{side}", claim)
        table.revision += 1
        counted = table.claim_a is not None and table.claim_a == table.claim_b
        if counted:
            _apply(table, result, None)
        table.save(update_fields=_WRITTEN)
        # Who entered it, in the audit's words: the account, or whoever held the link (never the link itself).
        by = f"private link of {entrant}" if user is None else f"account of {entrant}"
        audit_record(user=user, action="live_claim", obj=live.tournament,
                     summary=f"round {table.round.number} table {table.table}: "
                             f"{_shown(result.result, result.a_losses, result.b_losses)} entered by {by}"
                             + (", both players agree: it counts" if counted else ""),
                     changes={"entrant": entrant.pk, "table": table.pk})
        # The version is what the hall's polled fragment caches on, and the fragment shows a claim only as "one
        # player entered a result": a changed claim (read fresh by the opponent's link page and the referee's,
        # never cached) needs no new version, which would make every phone download the page again.
        if counted or not waiting:
            bump(live)
    return table
