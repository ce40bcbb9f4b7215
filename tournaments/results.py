"""Standings, performance ratings and charter outcome of the tournaments a replay went through.

Reads nothing: the replay hands over the facts it loaded and the engine's history; this module calls the
pure scoring rules and writes the derived rows of exactly those tournaments.
"""

from __future__ import annotations

import json
from collections import defaultdict

from players.models import SPARE_ID, Club
from ratings.engine import History
from ratings.facts import Facts
from ratings.history_writer import rows_insert
from tournaments.models import Standing, Tournament, TournamentOutcome
from tournaments.scoring import (
    CharterEntrant,
    Entrant,
    ScoredGame,
    average_rating,
    charter_failures,
    performance_rating,
    standings,
)

STANDING_COLUMNS = (
    "tournament_id", "pool", "rank", "player_id", "score", "opponents_score", "penalty", "wins", "draws", "losses",
    "games", "tiebreak", "rating_before", "rating_after", "performance", "detail",
)
SCORING_SYSTEM = {"adlg-2018": "adlg", "adlg-annex-a": "adlg", "battle-empire": "battle-empire"}


def _rated_outcomes(facts: Facts, history: History):
    """Per tournament and player: last rating after, opponents' ratings, wins and losses in rated games."""
    results = {g[0]: g[5] for t in facts.info.values() for g in t.games}
    after: dict[int, dict[int, int]] = defaultdict(dict)
    opponents: dict[tuple[int, int], list[int]] = defaultdict(list)
    record: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    rated = defaultdict(int)
    for gid, tid, a, b, before_a, change_a, _, before_b, change_b, *_ in history.games:
        rated[tid] += 1
        winner = _winner(results[gid])
        for me, _, before, change, opp_before, side in ((a, b, before_a, change_a, before_b, "A"),
                                                          (b, a, before_b, change_b, before_a, "B")):
            if me == SPARE_ID:
                continue
            after[tid][me] = before + change
            opponents[(tid, me)].append(opp_before)
            if winner == side:
                record[(tid, me)][0] += 1
            elif winner is not None:
                record[(tid, me)][1] += 1
    return after, opponents, record, rated


def _winner(result: str) -> str | None:
    if result.startswith("A") or result == "FA":
        return "A"
    if result.startswith("B") or result == "FB":
        return "B"
    return None


def tournament_results_write(*, facts: Facts, history: History, system) -> None:
    ruleset = system.get_ruleset()
    scoring_system = SCORING_SYSTEM.get(ruleset.code, "adlg")
    tids = list(facts.info)
    Standing.objects.filter(tournament_id__in=tids)._raw_delete(Standing.objects.db)
    TournamentOutcome.objects.filter(tournament_id__in=tids)._raw_delete(TournamentOutcome.objects.db)
    after, opponents, record, rated = _rated_outcomes(facts, history)
    club_names = dict(Club.objects.values_list("id", "name"))
    standing_rows, outcome_rows = [], []
    for tid, info in facts.info.items():
        pre = history.pre_tournament.get(tid, {})
        entrants = [
            Entrant(player=player, pool=pool, penalty=penalty, pre_rating=pre.get(player, (ruleset.initial_rating,))[0])
            for player, pool, penalty, _ in info.registrations
        ]
        games = [ScoredGame(round=rnd, table=table, a=a, b=b, result=result, a_losses=a_loss or 0,
                            b_losses=b_loss or 0, free=free)
                 for _, rnd, table, a, b, result, a_loss, b_loss, free in info.games]
        pools = standings(system=scoring_system, entrants=entrants, games=games, excluded=facts.excluded)
        ranked_pre = []
        for pool, rows in pools.items():
            for row in rows:
                key = (tid, row.player)
                before = pre.get(row.player, (None,))[0]
                ranked_pre.append(before)
                wins, losses = record.get(key, (0, 0))
                performance = performance_rating(opponents=opponents.get(key, ()), wins=wins, losses=losses,
                                                 scale=ruleset.scale)
                standing_rows.append((
                    tid, pool, row.rank, row.player, float(row.score), float(row.opponents_score), row.penalty,
                    row.wins, row.draws, row.losses, row.games, row.decided_by or "", before,
                    after[tid].get(row.player, before), performance, _rounds_json(row.rounds),
                ))
        failures = _charter(info, pools, club_names)
        counts = info.counts_override if info.counts_override is not None else (info.official and not failures)
        if scoring_system != "adlg":
            counts = False  # the championship is L'Art de la Guerre's (charter App. 6)
        outcome_rows.append((tid, average_rating([r for r in ranked_pre if r is not None]),
                             sum(len(rows) for rows in pools.values()), rated.get(tid, 0),
                             _json([{"code": f.code, "params": dict(f.params)} for f in failures]), counts))
    rows_insert(table=Standing._meta.db_table, columns=STANDING_COLUMNS, rows=standing_rows)
    rows_insert(table=TournamentOutcome._meta.db_table,
                columns=("tournament_id", "average_rating", "ranked_players", "rated_games", "charter_failures",
                         "counts"),
                rows=outcome_rows)
    Tournament.objects.filter(pk__in=tids, status=Tournament.RECEIVED).update(status=Tournament.RATED)


def _charter(info, pools, club_names: dict[int, str]):
    club_of = {player: club for player, _, _, club in info.registrations}
    entrants = [
        CharterEntrant(player=row.player, club=club_names.get(club_of.get(row.player)), pool=pool)
        for pool, rows in pools.items() for row in rows
    ]
    pool_of = {row.player: pool for pool, rows in pools.items() for row in rows}
    rounds: dict[str, set[int]] = defaultdict(set)
    for _, rnd, _, a, b, _, _, _, free in info.games:
        if free:
            continue
        pool = pool_of.get(a) or pool_of.get(b)
        if pool is not None:
            rounds[pool].add(rnd)
    return charter_failures(official=info.official, entrants=entrants,
                            rounds_by_pool={pool: len(rounds.get(pool, ())) for pool in pools})


def _json(value) -> str:
    # COPY and executemany take JSON as text: PostgreSQL casts it to jsonb, SQLite stores it as it is.
    return json.dumps(value, separators=(",", ":"))


def _rounds_json(rounds) -> str:
    """The cross-table row of a player: one object per round (dataclasses.asdict is ten times slower)."""
    return _json([
        {"round": r.round, "opponent": r.opponent, "result": r.result, "score": r.score,
         "opponent_score": r.opponent_score, "free": r.free}
        for r in rounds
    ])
