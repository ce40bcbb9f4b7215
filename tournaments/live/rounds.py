"""The tournament day's rounds (PAIRING.md §3-§5): a round proposed by the charter's methods, paired by hand, changed
by a swap, then published to the players. A proposal is the referee's draft: nothing of it is public."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict

from django.db import transaction
from django.utils import timezone

from players.audit import audit_record
from rules.pairing import (
    GROUPS,
    MANUAL,
    PairingRefused,
    choose_system,
    deal_groups,
    ideal_number,
    initial_standing,
    pair_manually,
    pair_round,
    round_one_methods,
)
from rules.pairing.messages import notice_text
from rules.rulesets import SPARE_ID
from tournaments.live.pools import (
    PoolState,
    bump,
    drop_proposal,
    key_of,
    locked,
    next_table,
    pool_for_round,
    pool_state,
    rules_entrants,
)
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveEntrant, LiveRound, LiveTable, LiveTournament


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
               user=None) -> LiveRound:
    """Propose the next round of a pool by the charter (any earlier proposal is replaced)."""
    with transaction.atomic():
        live, state, number = _pool_to_pair(live, pool)
        if method is not None and number != 1:
            raise LiveRefused.one("method_round_one_only")
        system = live.systems.get(pool)
        if number == 1:
            system = _system_from_round_one(live, state)
        drop_proposal(live, pool, number)
        rules_pool, _ = pool_for_round(state, number)
        try:
            pairing = pair_round(rules_pool, system=system, method=method, seed=seed,
                                 first_table=next_table(live, number))
        except PairingRefused as exc:
            raise LiveRefused.from_pairing(exc) from None
        round_ = LiveRound.objects.create(
            live=live, pool=pool, number=number, system=pairing.system, stage=pairing.stage or "",
            seed=pairing.seed, warnings=[asdict(w) for w in pairing.warnings])
        _save_tables(round_, state, [(p.table, p.a, p.b) for p in pairing.pairs])
        bump(live)
    return round_


def _system_from_round_one(live: LiveTournament, state: PoolState) -> str:
    """The pool's system from round 2 on, fixed by P when round 1 is paired; the two groups dealt if it has them."""
    players = rules_entrants(state, 1)
    try:
        system = choose_system(len(players), live.tournament.rounds, live.swiss or None)
    except PairingRefused as exc:
        raise LiveRefused.from_pairing(exc) from None
    if system == GROUPS:
        for key, group in deal_groups(initial_standing(players)).items():
            state.entrants[key].group = group
        LiveEntrant.objects.bulk_update(state.entrants.values(), ["group"])
    live.systems = {**live.systems, state.pool: system}
    live.save(update_fields=["systems"])
    return system


def _save_tables(round_: LiveRound, state: PoolState, pairs: Iterable[tuple[int, int, int]]) -> None:
    LiveTable.objects.bulk_create([
        LiveTable(round=round_, table=table, a=state.entrants[a], b=None if b == SPARE_ID else state.entrants[b])
        for table, a, b in pairs
    ])


def round_pair_manually(live: LiveTournament, *, pool: str = "A", pairs: Sequence[tuple[int, int]],
                        reason: str = "", user=None) -> LiveRound:
    """The referee's own pairs for the next round (round 1 `manual`, or a round the rules cannot pair)."""
    with transaction.atomic():
        live, state, number = _pool_to_pair(live, pool)
        if number == 1:
            players = rules_entrants(state, 1)
            if MANUAL not in round_one_methods(len(players), live.tournament.rounds):
                raise LiveRefused.one("elo_levels_required", players=len(players),
                                      ideal=ideal_number(live.tournament.rounds))
            _system_from_round_one(live, state)
        drop_proposal(live, pool, number)
        round_ = _manual_round(live, state, number, pairs, reason=reason, warned_before=())
        audit_record(user=user, action="live_pair_manually", obj=live.tournament,
                     summary=f"pool {pool} round {number} paired by hand", changes={"reason": reason})
        bump(live)
    return round_


def _manual_round(live: LiveTournament, state: PoolState, number: int, pairs: Sequence[tuple[int, int]], *,
                  reason: str, warned_before: Iterable[dict], system: str = MANUAL, seed: int | None = None,
                  stage: str = "") -> LiveRound:
    rules_pool, _ = pool_for_round(state, number)
    withdrawn = [k for k, e in state.entrants.items() if k not in rules_pool.by_id]
    elsewhere = [key_of(e) for e in live.entrants.exclude(pool=state.pool)]
    try:
        pairing = pair_manually(rules_pool, pairs, withdrawn=withdrawn, elsewhere=elsewhere,
                                first_table=next_table(live, number))
    except PairingRefused as exc:
        raise LiveRefused.from_pairing(exc) from None
    warnings = [asdict(w) for w in pairing.warnings]
    new = [w for w in warnings if w not in list(warned_before)]
    if new and not reason.strip():
        raise LiveRefused.one("reason_required", warnings="; ".join(notice_text(w["code"], w["params"])
                                                                      for w in new))
    round_ = LiveRound.objects.create(live=live, pool=state.pool, number=number, system=system, stage=stage,
                                      seed=seed, warnings=warnings, reason=reason.strip())
    _save_tables(round_, state, [(p.table, p.a, p.b) for p in pairing.pairs])
    return round_


def round_swap(round_: LiveRound, first: int, second: int, *, reason: str = "", user=None) -> LiveRound:
    """Swap two players of a proposed round (keys); a rule bent by the swap needs a reason, kept and shown."""
    with transaction.atomic():
        live = locked(round_.live_id)
        round_ = LiveRound.objects.select_for_update().get(pk=round_.pk)
        if round_.published_at is not None:
            raise LiveRefused.one("round_published", round=round_.number)
        state = pool_state(live, round_.pool)
        swap = {first: second, second: first}
        pairs = [(swap.get(a, a), swap.get(b, b)) for a, b in _pairs_of(round_)]
        number, system, seed, stage, before = (round_.number, round_.system, round_.seed, round_.stage,
                                               round_.warnings)
        round_.delete()
        new = _manual_round(live, state, number, pairs, reason=reason, warned_before=before, system=system,
                            seed=seed, stage=stage)
        audit_record(user=user, action="live_swap", obj=live.tournament,
                     summary=f"pool {new.pool} round {number}: {first} and {second} swapped",
                     changes={"reason": reason})
        bump(live)
    return new


def _pairs_of(round_: LiveRound) -> list[tuple[int, int]]:
    return [(key_of(t.a), key_of(t.b) if t.b else SPARE_ID)
            for t in round_.tables.select_related("a", "b").order_by("table")]


def round_publish(round_: LiveRound, *, user=None) -> None:
    with transaction.atomic():
        live = locked(round_.live_id)
        LiveRound.objects.filter(pk=round_.pk, published_at__isnull=True).update(published_at=timezone.now())
        audit_record(user=user, action="live_publish_round", obj=live.tournament,
                     summary=f"pool {round_.pool} round {round_.number} published"
                             + (f" (seed {round_.seed})" if round_.seed is not None else ""))
        bump(live)
