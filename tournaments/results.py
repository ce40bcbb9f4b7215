"""Standings, performance ratings and charter outcome of the tournaments a replay went through.

Reads nothing but the clubs' names: the replay hands over the facts it loaded and the engine's history;
`tournament_results_rows` calls the pure scoring rules and returns the derived rows of exactly those
tournaments (the replay computes them while its history is being written), and `tournament_results_write`
replaces them in the database.

Speed: this runs for every tournament of a full replay (a million games; bench/standings.py). The standings
work on the facts' own tuples (`tournaments.scoring.standings_from_rows`) and the rated games are read in one
pass over the history. The cross-table (each player's rounds) is not stored: the tournament page works it out
from the games (tournaments.selectors), which halved what a full replay writes. The tests hold the rows, byte
for byte, to those of a plain reference (tests/ratings/test_results_equivalence.py).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from operator import itemgetter

from django.db import connection

from players.models import SPARE_ID, Club
from ratings.engine import GameRecord, History, collector_paused
from ratings.facts import Facts
from ratings.history_writer import COPY_NULL, copy_text, other_systems, replacing, rows_insert, rows_merge
from ratings.rulesets import Ruleset
from tournaments.models import Standing, Tournament, TournamentOutcome
from tournaments.scoring import average_rating, charter_failures_from_rows, performance_rating, standings_from_rows

STANDING_COLUMNS = (
    "tournament_id", "pool", "rank", "player_id", "score", "opponents_score", "penalty", "wins", "draws", "losses",
    "games", "tiebreak", "rating_before", "rating_after", "performance",
)
OUTCOME_COLUMNS = ("tournament_id", "average_rating", "ranked_players", "rated_games", "charter_failures", "counts")
SCORING_SYSTEM = {"adlg-2018": "adlg", "adlg-annex-a": "adlg", "battle-empire": "battle-empire"}

# The fields of a History.games row that the rated outcomes read, by name.
_RATED_FIELDS = itemgetter(*(GameRecord._fields.index(name) for name in (
    "game", "tournament", "a", "b", "before_a", "change_a", "before_b", "change_b")))
_TOURNAMENT = itemgetter(GameRecord._fields.index("tournament"))


def club_names() -> dict[int, str]:
    """What `tournament_results_rows` needs of the clubs (the charter's one-club rule)."""
    return dict(Club.objects.values_list("id", "name"))


def tournament_results_encoded(results: tuple[list[tuple], list[tuple]]) -> list[str] | None:
    """The standings of `results` as COPY text lines on PostgreSQL (None elsewhere): made by the replay's own
    thread while the other one writes, so that the writer only sends them."""
    return list(standing_lines(results[0])) if connection.vendor == "postgresql" else None


def tournament_results_write(*, facts: Facts, results: tuple[list[tuple], list[tuple]], system,
                             full: bool = False, encoded: list[str] | None = None) -> None:
    """Write the standings and outcomes (`results`, from tournament_results_rows) of the tournaments of `facts`;
    `encoded`: the standings already as COPY lines (tournament_results_encoded). `full`: facts hold every
    tournament of the system (a replay from scratch)."""
    tids = list(facts.info)
    TournamentOutcome.objects.filter(tournament_id__in=tids)._raw_delete(TournamentOutcome.objects.db)
    standing_rows, outcome_rows = results
    table = Standing._meta.db_table
    pg = connection.vendor == "postgresql"
    lines = (encoded if encoded is not None else standing_lines(standing_rows)) if pg else None
    if pg and (not full or Standing.objects.filter(tournament__system=system).exists()):
        # After a correction, or a replay from scratch of a stored history, most standings come out as they
        # were: only the differing ones are written (and readers are not held up). A first replay bulk-writes.
        of_system = f"e.tournament_id IN (SELECT id FROM {Tournament._meta.db_table} WHERE system_id = %s)"  # noqa: S608
        stale, params = (of_system, [system.code]) if full else ("e.tournament_id = ANY(%s)", [tids])
        rows_merge(table=table, columns=STANDING_COLUMNS, key=("tournament_id", "player_id"), stale=stale,
                   params=params, rows=lines, encoded=True)
    else:
        stale = Standing.objects.filter(tournament__system=system) if full else Standing.objects.filter(
            tournament_id__in=tids)
        whole = full and not Standing.objects.filter(tournament__system_id__in=other_systems(system)).exists()
        with replacing(table=table, stale=stale, full=full, whole=whole):
            # On PostgreSQL COPY text lines, made here: rows_insert's value-by-value encoding costs twice as much.
            rows_insert(table=table, columns=STANDING_COLUMNS,
                        **({"rows": lines, "encoded": True} if pg else {"rows": standing_rows}))
    rows_insert(table=TournamentOutcome._meta.db_table, columns=OUTCOME_COLUMNS, rows=outcome_rows)
    Tournament.objects.filter(pk__in=tids, status=Tournament.RECEIVED).update(status=Tournament.RATED)


def counting_placings(facts: Facts, results: tuple[list[tuple], list[tuple]]
                      ) -> tuple[dict[int, tuple], dict[int, list[tuple]]]:
    """What the championship needs of `results` (tournament_results_rows): the tournaments that count,
    {tournament: (end, rounds, worlds, country)}, and their placings {tournament: [(pool, rank, player, score,
    scored rounds)]}. Pure: the championship need not read back the rows being written."""
    standing_rows, outcome_rows = results
    counting = {}
    for row in outcome_rows:
        if row[-1]:
            t = facts.info[row[0]]
            counting[t.id] = (t.end, t.rounds, t.worlds, t.country)
    placings: dict[int, list[tuple]] = defaultdict(list)
    for row in standing_rows:
        if row[0] in counting:
            placings[row[0]].append((row[1], row[2], row[3], row[4], row[10]))
    return counting, placings


def tournament_results_rows(
    *, facts: Facts, history: History, ruleset: Ruleset, club_names: dict[int, str]
) -> tuple[list[tuple], list[tuple]]:
    """(Standing rows in STANDING_COLUMNS order, TournamentOutcome rows in OUTCOME_COLUMNS order) of every
    tournament of `facts`. Pure: reads only its arguments (`facts.info`, `facts.excluded`, the history)."""
    with collector_paused():  # hundreds of thousands of small acyclic tuples
        return _rows(facts, history, ruleset, club_names)


def _rows(facts: Facts, history: History, ruleset: Ruleset, club_names: dict[int, str]):
    scoring_system = SCORING_SYSTEM.get(ruleset.code, "adlg")
    scale, excluded = ruleset.scale, facts.excluded
    unrated = (ruleset.initial_rating,)
    rated_outcomes = _rated_outcomes(facts, history)
    rated_games = Counter(map(_TOURNAMENT, history.games))
    standing_rows: list[tuple] = []
    add = standing_rows.append
    outcome_rows = []
    for tid, info in facts.info.items():
        pre = history.pre_tournament.get(tid, {})
        rated = rated_outcomes.get(tid, {})
        entrants = [(player, pool, penalty, pre.get(player, unrated)[0])
                    for player, pool, penalty, _ in info.registrations]
        club_of = {player: club for player, _, _, club in info.registrations}
        pools = standings_from_rows(system=scoring_system, entrants=entrants, games=info.games, excluded=excluded)
        ranked_pre = []
        charter_entrants = []  # (player, club name, pool) of the ranked players
        pool_of = {}
        for pool, rows in pools.items():
            for rank, player, score, opponents_score, penalty, wins, draws, losses, games, _, tiebreak in rows:
                before = pre.get(player, _NO_RATING)[0]
                ranked_pre.append(before)
                charter_entrants.append((player, club_names.get(club_of.get(player)), pool))
                pool_of[player] = pool
                outcome = rated.get(player)
                if outcome is None:
                    after, performance = before, None
                else:
                    after, opponents, rated_wins, rated_losses = outcome
                    performance = performance_rating(opponents=opponents, wins=rated_wins, losses=rated_losses,
                                                     scale=scale)
                add((tid, pool, rank, player, float(score), float(opponents_score), penalty, wins, draws, losses,
                     games, tiebreak or "", before, after, performance))
        failures = _charter(info, pools, charter_entrants, pool_of)
        counts = info.counts_override if info.counts_override is not None else (info.official and not failures)
        if scoring_system != "adlg":
            counts = False  # the championship is L'Art de la Guerre's (charter App. 6)
        outcome_rows.append((tid, average_rating([r for r in ranked_pre if r is not None]),
                             len(ranked_pre), rated_games.get(tid, 0),
                             _json([{"code": f.code, "params": dict(f.params)} for f in failures]) if failures
                             else "[]", counts))
    return standing_rows, outcome_rows


class _Winners(dict):
    """result code -> winning side 'A', 'B' or None, worked out once per code."""

    def __missing__(self, result: str) -> str | None:
        self[result] = side = _winner(result)
        return side


def _rated_outcomes(facts: Facts, history: History) -> dict[int, dict[int, list]]:
    """tournament -> player -> [rating after the last rated game, opponents' ratings before each game, wins,
    losses], over the player's rated games of the tournament (the spare left out)."""
    outcomes: dict[int, dict[int, list]] = {}
    winners = _Winners()
    current = None
    players: dict[int, list] = {}
    winner_of: dict[int, str | None] = {}
    for gid, tid, a, b, before_a, change_a, before_b, change_b in map(_RATED_FIELDS, history.games):
        if tid != current:  # the history lists a tournament's games together
            current = tid
            players = outcomes.setdefault(tid, {})
            winner_of = {g[0]: winners[g[5]] for g in facts.info[tid].games}
        winner = winner_of[gid]
        if a != SPARE_ID:
            outcome = players.get(a)
            if outcome is None:
                outcome = players[a] = [0, [], 0, 0]
            outcome[0] = before_a + change_a
            outcome[1].append(before_b)
            if winner == "A":
                outcome[2] += 1
            elif winner is not None:
                outcome[3] += 1
        if b != SPARE_ID:
            outcome = players.get(b)
            if outcome is None:
                outcome = players[b] = [0, [], 0, 0]
            outcome[0] = before_b + change_b
            outcome[1].append(before_a)
            if winner == "B":
                outcome[2] += 1
            elif winner is not None:
                outcome[3] += 1
    return outcomes


def _winner(result: str) -> str | None:
    if result.startswith("A") or result == "FA":
        return "A"
    if result.startswith("B") or result == "FB":
        return "B"
    return None


def _charter(info, pools, entrants: list[tuple], pool_of: dict[int, str]):
    """The charter's failures: `entrants` are the ranked players' (player, club name, pool), `pool_of` their pools."""
    # A game's pool is its first player's, else its second's ('' counts as none, as it always has); the spare
    # and excluded players have none. Free games are no rounds of the charter.
    played = {(pool_of.get(a) or pool_of.get(b), rnd) for _, rnd, _, a, b, _, _, _, free in info.games if not free}
    rounds = dict.fromkeys(pools, 0)
    for pool, _ in played:
        if pool is not None:
            rounds[pool] += 1
    return charter_failures_from_rows(official=info.official, entrants=entrants, rounds_by_pool=rounds)


def standing_lines(rows):
    """Standing rows (STANDING_COLUMNS) as PostgreSQL COPY text lines: exactly what rows_insert writes for the
    tuples (ratings.history_writer.copy_text, value by value), one f-string a row.

    The columns' types are fixed: ints (never None or bool), floats, strings, and None only in rating_before,
    rating_after and performance."""
    null = COPY_NULL
    for tid, pool, rank, player, score, opponents_score, penalty, wins, draws, losses, games, tiebreak, before, \
            after, performance in rows:
        yield (f"{tid}\t{_copy_str(pool)}\t{rank}\t{player}\t{score!r}\t{opponents_score!r}\t{penalty}\t{wins}\t"
               f"{draws}\t{losses}\t{games}\t{_copy_str(tiebreak)}\t{null if before is None else before}\t"
               f"{null if after is None else after}\t{null if performance is None else repr(performance)}")


def _copy_str(text: str) -> str:
    # Pool names and tie-breaks seldom hold anything to escape: skip str.translate then.
    if "\\" in text or "\t" in text or "\n" in text or "\r" in text:
        return copy_text(text)
    return text


def _json(value) -> str:
    # COPY and executemany take JSON as text: PostgreSQL casts it to jsonb, SQLite stores it as it is.
    return json.dumps(value, separators=(",", ":"))


_NO_RATING = (None,)
