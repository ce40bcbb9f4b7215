"""The tournament day's rounds (PAIRING.md §3-§5): a round proposed by the charter's methods or paired by hand,
changed (two players swapped, a pair given a chosen table), published to the players, and undone (drawn or paired
again, or the latest round of a pool withdrawn). A proposal is the referee's draft; every draw discarded is kept
with its seed and reason (pools.discard_round) and listed publicly.

Terms
-----
change
    What the referee does to a proposal (PAIRING.md §5, 2026-11-26): a *swap* exchanges two players between
    their tables, every table keeping its number; a *chosen table* exchanges two tables' numbers, so that a pair
    gets the table it needs (an accessible one). Each is kept on the round (LiveRound.changes) with its reason,
    required when the change bends a rule (a rematch, club-mates in a club round).
withdrawing a round
    The latest round of a pool, published or not, deleted with a reason the public page shows; one with results
    only once the referee confirms they are discarded. The pool is then paired again: from round 2 the same
    results give the same pairing, round 1 is drawn again from a new seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

from django.db import transaction
from django.utils import timezone

from players.audit import audit_record
from rules.pairing import (
    GROUPS,
    MANUAL,
    Pairing,
    PairingRefused,
    change_warnings,
    choose_system,
    deal_groups,
    ideal_number,
    initial_standing,
    pair_manually,
    pair_round,
    round_one_methods,
    system_note,
)
from rules.pairing import Pool as RulesPool
from rules.rulesets import SPARE_ID, SPARE_NAME
from tournaments.live.pools import (
    PoolState,
    bump,
    discard_round,
    key_of,
    locked,
    pool_for_round,
    pool_name,
    pool_state,
    rules_entrants,
)
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveDiscardedDraw, LiveEntrant, LiveRound, LiveTable, LiveTournament


def _pool_to_pair(live: LiveTournament, pool: str) -> tuple[LiveTournament, PoolState, int]:
    """The live tournament locked, the pool's state and the number of its next round; refused for an unknown pool,
    a pool whose rounds are all paired or whose last round still lacks results."""
    live = locked(live)
    state = pool_state(live, pool)
    if not state.entrants:
        raise LiveRefused.one("no_such_pool", pool=pool)
    return live, state, _next_number(state)


def _next_number(state: PoolState) -> int:
    rounds = state.live.tournament.rounds
    if state.played >= rounds:
        raise LiveRefused.one("all_rounds_paired", rounds=rounds, pool=state.pool)
    if state.rounds and not state.complete():
        raise LiveRefused.one("round_incomplete", round=state.played, pool=state.pool)
    return state.played + 1


def round_pair(live: LiveTournament, *, pool: str = "A", method: str | None = None, seed: int | None = None,
               reason: str = "", discard_changes: bool = False, user=None) -> LiveRound:
    """Propose the next round of a pool by the charter. A proposal already there is discarded (kept with its seed
    and `reason`), but one the referee changed only when `discard_changes` confirms it."""
    with transaction.atomic():
        pool = pool_name(live, pool)
        live, state, number = _pool_to_pair(live, pool)
        if method is not None and number != 1:
            raise LiveRefused.one("method_round_one_only")
        discarded = _discard_proposal(live, pool, number, reason=reason, discard_changes=discard_changes, user=user)
        system, notes = live.systems.get(pool), []
        if number == 1:
            system, note = _system_from_round_one(live, state)
            notes = [asdict(note)]
        rules_pool, _ = pool_for_round(state, number)
        try:
            pairing = pair_round(rules_pool, system=system, method=method, seed=seed)
        except PairingRefused as exc:
            raise LiveRefused.from_pairing(exc) from None
        numbers = free_tables(live, number, len(pairing.pairs))
        round_ = LiveRound.objects.create(
            live=live, pool=pool, number=number, system=pairing.system, stage=pairing.stage or "",
            seed=pairing.seed, warnings=[asdict(w) for w in pairing.warnings], notes=notes,
            drawn=_drawn(rules_pool, system, pairing, numbers))
        _save_tables(round_, state, [(numbers[n], p.a, p.b) for n, p in enumerate(pairing.pairs)])
        audit_record(user=user, action="live_pair", obj=live.tournament,
                     summary=f"pool {pool} round {number} proposed ({pairing.system}"
                             + (f", seed {pairing.seed}" if pairing.seed is not None else "") + ")"
                             + (f"; the earlier proposal discarded: {reason.strip()}" if discarded else ""))
        bump(live)
    return round_


def _discard_proposal(live: LiveTournament, pool: str, number: int, *, reason: str, discard_changes: bool,
                      user) -> LiveDiscardedDraw | None:
    proposal = live.rounds.filter(pool=pool, number=number, published_at__isnull=True).first()
    if proposal is None:
        return None
    if proposal.changes and not discard_changes:
        raise LiveRefused.one("changes_would_be_lost", count=len(proposal.changes))
    return discard_round(proposal, kind=LiveDiscardedDraw.DRAWN_AGAIN, reason=reason, user=user)


def _drawn(pool: RulesPool, system: str, pairing: Pairing, numbers: Sequence[int]) -> dict:
    """What re-runs the draw (tournaments.live.draws): the pool as the rules read it, the system and method, the
    seed, and the pairs and table numbers it gave."""
    return {
        "players": [[p.id, p.rating, p.club, p.hat, p.group] for p in pool.players],
        "standing": list(pool.standing),
        "played": sorted(sorted(game) for game in pool.played),
        "round": pool.round, "rounds": pool.rounds, "system": system,
        "method": pairing.system if pool.round == 1 else None, "seed": pairing.seed,
        "numbers": list(numbers), "pairs": [[p.a, p.b] for p in pairing.pairs],
    }


def free_tables(live: LiveTournament, number: int, count: int) -> list[int]:
    """The table numbers a pool's pairing takes in round `number` (PAIRING.md §2.5): the numbers no other pool
    uses, from 1 up. A pool paired again (drawn again, a round withdrawn) so gets back the tables it had, and
    never moves to the end of the room."""
    used = set(LiveTable.objects.filter(round__live=live, round__number=number).values_list("table", flat=True))
    numbers, table = [], 1
    while len(numbers) < count:
        if table not in used:
            numbers.append(table)
        table += 1
    return numbers


def _system_from_round_one(live: LiveTournament, state: PoolState):
    """The pool's system from round 2 on, fixed by P when round 1 is paired (the referee's choice of classic or
    adapted only when P = N), the note round 1 shows about it, and the two groups dealt if it has them."""
    players = rules_entrants(state, 1)
    rounds, swiss = live.tournament.rounds, live.swiss or None
    system = choose_system(len(players), rounds, swiss)
    if system == GROUPS:
        for key, group in deal_groups(initial_standing(players)).items():
            state.entrants[key].group = group
        LiveEntrant.objects.bulk_update(state.entrants.values(), ["group"])
    live.systems = {**live.systems, state.pool: system}
    live.save(update_fields=["systems"])
    return system, system_note(len(players), rounds, swiss)


def _save_tables(round_: LiveRound, state: PoolState, pairs) -> None:
    LiveTable.objects.bulk_create([
        LiveTable(round=round_, table=table, a=state.entrants[a], b=None if b == SPARE_ID else state.entrants[b])
        for table, a, b in pairs
    ])


def round_pair_manually(live: LiveTournament, *, pool: str = "A", pairs: Sequence[tuple[int, int]],
                        reason: str = "", user=None) -> LiveRound:
    """The referee's own pairs for the next round (round 1 `manual`, or a round the rules cannot pair)."""
    with transaction.atomic():
        pool = pool_name(live, pool)
        live, state, number = _pool_to_pair(live, pool)
        notes = []
        if number == 1:
            players = rules_entrants(state, 1)
            if MANUAL not in round_one_methods(len(players), live.tournament.rounds):
                raise LiveRefused.one("elo_levels_required", players=len(players),
                                      ideal=ideal_number(live.tournament.rounds))
            notes = [asdict(_system_from_round_one(live, state)[1])]
        _discard_proposal(live, pool, number, reason=reason, discard_changes=True, user=user)
        rules_pool, _ = pool_for_round(state, number)
        withdrawn = [k for k in state.entrants if k not in rules_pool.by_id]
        elsewhere = [key_of(e) for e in live.entrants.exclude(pool=state.pool)]
        try:
            pairing = pair_manually(rules_pool, pairs, withdrawn=withdrawn, elsewhere=elsewhere)
        except PairingRefused as exc:
            raise LiveRefused.from_pairing(exc) from None
        _refuse_unpublishable(pairing.warnings)
        warnings = [asdict(w) for w in pairing.warnings]
        if warnings and not reason.strip():
            raise LiveRefused.one("reason_required", warnings=warnings)
        numbers = free_tables(live, number, len(pairing.pairs))
        round_ = LiveRound.objects.create(live=live, pool=pool, number=number, system=MANUAL, warnings=warnings,
                                          reason=reason.strip(), notes=notes)
        _save_tables(round_, state, [(numbers[n], p.a, p.b) for n, p in enumerate(pairing.pairs)])
        audit_record(user=user, action="live_pair_manually", obj=live.tournament,
                     summary=f"pool {pool} round {number} paired by hand", changes={"reason": reason.strip()})
        bump(live)
    return round_


def _proposal(round_: LiveRound) -> tuple[LiveTournament, LiveRound]:
    """The live tournament locked and the round as it is now, still a proposal, or the refusal saying why not."""
    live = locked(round_.live_id)
    current = LiveRound.objects.select_for_update().filter(pk=round_.pk).first()
    if current is None:
        raise LiveRefused.one("round_gone", round=round_.number, pool=round_.pool)
    if current.published_at is not None:
        raise LiveRefused.one("round_published", round=current.number)
    return live, current


def _change(kind: str, reason: str, user, **values) -> dict:
    by = user.get_username() if getattr(user, "is_authenticated", False) else ""
    return {"kind": kind, **values, "reason": reason.strip(), "at": timezone.now().isoformat(), "by": by}


def round_swap(round_: LiveRound, first: int, second: int, *, reason: str = "", user=None) -> LiveRound:
    """Exchange two players (keys, 99 the spare) of a proposed round between their tables; every table keeps its
    number (PAIRING.md §5). A rule the swap bends (a rematch, club-mates in a club round) needs a reason; the
    change is kept with its reason, given or not."""
    with transaction.atomic():
        live, round_ = _proposal(round_)
        state = pool_state(live, round_.pool)
        rules_pool, _ = pool_for_round(state, round_.number)
        tables = list(round_.tables.select_related("a", "b").order_by("table"))
        seat = {}
        for table in tables:
            seat[key_of(table.a)] = (table, "a")
            seat[key_of(table.b) if table.b else SPARE_ID] = (table, "b")
        for key in (first, second):
            if key not in seat:
                raise LiveRefused.one("not_in_round", player=key)
        (one, one_side), (other, other_side) = seat[first], seat[second]
        # The two players by name for the audit log ("149 and 193 swapped" said nothing), read before they move.
        names = [f"{e.first_name} {e.last_name}".strip() if e is not None else SPARE_NAME
                 for e in (getattr(one, one_side), getattr(other, other_side))]
        if one is other:
            raise LiveRefused.one("same_table", a=first, b=second)
        made = []
        for table, side, coming in ((one, one_side, second), (other, other_side, first)):
            keys = {"a": key_of(table.a), "b": key_of(table.b) if table.b else SPARE_ID, side: coming}
            a, b = _oriented(keys["a"], keys["b"], rules_pool)
            table.a, table.b = state.entrants[a], None if b == SPARE_ID else state.entrants[b]
            made.append((a, b))
        found = change_warnings(rules_pool, made)
        _refuse_unpublishable(found)
        bent = [asdict(w) for w in found]
        if bent and not reason.strip():
            raise LiveRefused.one("reason_required", warnings=bent)
        LiveTable.objects.bulk_update([one, other], ["a", "b"])
        moved = {key for pair in made for key in pair}
        round_.warnings = [w for w in round_.warnings if not moved & _players_of(w)] + bent
        round_.changes = [*round_.changes, _change("swap", reason, user, a=first, b=second,
                                                    tables=[one.table, other.table], warnings=bent)]
        round_.save(update_fields=["warnings", "changes"])
        audit_record(user=user, action="live_swap", obj=live.tournament,
                     summary=f"pool {round_.pool} round {round_.number}: {names[0]} (table {one.table}) and "
                             f"{names[1]} (table {other.table}) swapped",
                     changes={"pool": round_.pool, "round": round_.number, "a": f"{names[0]} ({first})",
                              "table_a": one.table, "b": f"{names[1]} ({second})", "table_b": other.table,
                              "reason": reason.strip()})
        bump(live)
    return round_


def _refuse_unpublishable(warnings) -> None:
    """**Decision** (PAIRING.md §7, 2026-11-26: publication never refuses what the site could have refused when it
    was typed): a rematch of two players is refused when the referee types it, since the result sheet the day is
    published as refuses two players meeting twice (RESULT_SHEET.md, charter App. 2 §2.a.i). A second game against
    the spare, which the sheet accepts, is a rule bent that needs a reason (§2.2, §5)."""
    rematches = [(w.code, {"a": w.params["a"], "b": w.params["b"]}) for w in warnings
                 if w.code == "rematch" and SPARE_ID not in (w.params["a"], w.params["b"])]
    if rematches:
        raise LiveRefused([("rematch_unpublishable", params) for _, params in rematches])


def _oriented(a: int, b: int, pool: RulesPool) -> tuple[int, int]:
    """§2.5: the higher placed player is `a`, the spare always `b`."""
    last = len(pool.place) + 1
    if a == SPARE_ID or (b != SPARE_ID and pool.place.get(b, last) < pool.place.get(a, last)):
        return b, a
    return a, b


def _players_of(warning: dict) -> set:
    params = warning.get("params", {})
    return {params[k] for k in ("a", "b", "player", "lowest") if k in params}


def round_move_table(round_: LiveRound, table: int, to: int, *, reason: str = "", user=None) -> LiveRound:
    """Give the pair at `table` of a proposed round the table `to` (an accessible table, say): the two tables'
    numbers are exchanged, so the round's tables stay 1, 2, 3… (PAIRING.md §5). The table `to` may be another
    pool's, in a proposal of the same round."""
    with transaction.atomic():
        live, round_ = _proposal(round_)
        source = round_.tables.filter(table=table).select_related("a", "b").first()
        if source is None:
            raise LiveRefused.one("no_such_table", round=round_.number, table=table)
        if to == table:
            raise LiveRefused.one("same_table_number", table=table)
        target = LiveTable.objects.select_related("round", "a", "b").filter(
            round__live=live, round__number=round_.number, table=to).first()
        if target is None:
            raise LiveRefused.one("no_such_table", round=round_.number, table=to)
        if target.round.published_at is not None:
            raise LiveRefused.one("table_published", table=to)
        if target.round_id == source.round_id:
            LiveTable.objects.filter(pk=source.pk).update(table=0)  # (round, table) is unique: through 0
        LiveTable.objects.filter(pk=target.pk).update(table=table)
        LiveTable.objects.filter(pk=source.pk).update(table=to)
        pair = [key_of(source.a), key_of(source.b) if source.b else SPARE_ID]
        other = [key_of(target.a), key_of(target.b) if target.b else SPARE_ID]
        change = _change("table", reason, user, table=table, to=to, pair=pair, other=other)
        for changed in {round_.pk: round_, target.round_id: target.round}.values():
            changed.changes = [*changed.changes, change]
            changed.save(update_fields=["changes"])
        audit_record(user=user, action="live_table", obj=live.tournament,
                     summary=f"round {round_.number}: the pair of table {table} moves to table {to}",
                     changes={"reason": reason.strip()})
        bump(live)
    round_.refresh_from_db()
    return round_


def round_withdraw(live: LiveTournament, *, pool: str = "A", reason: str, discard_results: bool = False,
                   user=None) -> LiveDiscardedDraw:
    """Withdraw the latest round of a pool, published or not (PAIRING.md §5), kept with its reason among the
    discarded draws; a round with results only when `discard_results` confirms that they are discarded. The
    pool is then paired again."""
    with transaction.atomic():
        live = locked(live)
        pool = pool_name(live, pool)
        round_ = live.rounds.filter(pool=pool).order_by("-number").first()
        if round_ is None:
            raise LiveRefused.one("no_round_to_withdraw", pool=pool)
        if not reason.strip():
            raise LiveRefused.one("withdraw_reason_required", round=round_.number)
        entered = round_.tables.exclude(result="").count()
        if entered and not discard_results:
            raise LiveRefused.one("round_has_results", round=round_.number, pool=pool, count=entered)
        if round_.number == 1:  # the system and the groups are fixed again when round 1 is paired again
            live.systems = {k: v for k, v in live.systems.items() if k != pool}
            live.save(update_fields=["systems"])
            live.entrants.filter(pool=pool).update(group="")
        kept = discard_round(round_, kind=LiveDiscardedDraw.WITHDRAWN, reason=reason, user=user)
        audit_record(user=user, action="live_unpair", obj=live.tournament,
                     summary=f"pool {pool} round {kept.number} withdrawn"
                             + (" (published)" if kept.was_published else "")
                             + (f", {entered} results discarded" if entered else ""),
                     changes={"reason": reason.strip()})
        bump(live)
    return kept


def round_publish(round_: LiveRound, *, user=None) -> LiveRound:
    """Publish a proposed round to the players. A round no longer there (drawn again, withdrawn) or already
    published is refused: nothing is published, audited or claimed."""
    with transaction.atomic():
        live = locked(round_.live_id)
        current = LiveRound.objects.select_for_update().filter(pk=round_.pk).first()
        if current is None:
            raise LiveRefused.one("round_gone", round=round_.number, pool=round_.pool)
        if current.published_at is not None:
            raise LiveRefused.one("round_already_published", round=current.number, pool=current.pool)
        current.published_at = timezone.now()
        current.save(update_fields=["published_at"])
        audit_record(user=user, action="live_publish_round", obj=live.tournament,
                     summary=f"pool {current.pool} round {current.number} published"
                             + (f" (seed {current.seed})" if current.seed is not None else ""))
        bump(live)
    return current
