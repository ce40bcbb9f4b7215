"""The replay's standing and outcome rows are exactly those of the plain computation.

`tournaments.results` computes the rows of every tournament on tuples, in one pass over the history
(bench/standings.py). Here a compact reference computes them the straightforward way — the reference standings
and charter of tests/engine/test_scoring_speed_equivalence.py — and the rows must be equal value for value, type
for type, and the charter's JSON text byte for byte: on a synthetic federation (both scoring systems) and in the
database after a replay.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import date, timedelta

import pytest
from django.db import connection
from django.utils import timezone

from bench.standings import federation_inputs
from players.models import SPARE_ID, Player
from ratings.copy_binary import BinaryCopy, column_of
from ratings.engine import Game, replay
from ratings.engine import Tournament as EngineTournament
from ratings.event_columns import record_columns
from ratings.facts import Facts, TournamentInfo, facts_load, facts_of
from ratings.history_writer import binary_types, rows_insert
from ratings.models import RatingSystem
from ratings.services import replay_from_scratch
from rules.rulesets import get_ruleset
from tests.engine.test_scoring_speed_equivalence import reference_charter_failures, reference_standings
from tests.ratings.helpers import imported, roster, sheet
from tests.sheets.builders import SheetBuilder
from tournaments.models import Standing, TournamentOutcome
from tournaments.results import (
    OUTCOME_COLUMNS,
    STANDING_COLUMNS,
    club_names,
    counting_placings,
    tournament_results,
    tournament_results_rows,
)
from tournaments.scoring import CharterEntrant, Entrant, ScoredGame


def _standings_facts(info: dict, games: dict, registrations: dict, excluded: frozenset) -> Facts:
    """What the standings read of the facts: the tournaments, their games and registrations (rows by
    tournament, without its ID) and the excluded players."""
    return facts_of(info=info, tournaments=[], excluded=excluded,
                    games=[(tid, *row) for tid, rows in games.items() for row in rows],
                    registrations=[(tid, *row) for tid, rows in registrations.items() for row in rows])


def _json(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def reference_rows(*, facts, history, ruleset, club_names):
    """tournaments.results as first written: dataclasses, dicts per player, json.dumps per row."""
    system = {"adlg-2018": "adlg", "adlg-annex-a": "adlg", "battle-empire": "battle-empire"}.get(ruleset.code, "adlg")
    games_of = {tid: facts.games.rows(index) for index, tid in enumerate(facts.info)}
    registrations_of = {tid: facts.registrations.rows(index) for index, tid in enumerate(facts.info)}
    results = {g[0]: g[5] for games in games_of.values() for g in games}
    after, opponents, rated = defaultdict(dict), defaultdict(list), defaultdict(int)
    record = defaultdict(lambda: [0, 0])
    for gid, tid, a, b, before_a, change_a, _, before_b, change_b, *_ in history.games:
        rated[tid] += 1
        result = results[gid]
        winner = "A" if result.startswith("A") or result == "FA" else "B" if result.startswith("B") or result == "FB" \
            else None
        for me, before, change, opponent_before, side in ((a, before_a, change_a, before_b, "A"),
                                                          (b, before_b, change_b, before_a, "B")):
            if me == SPARE_ID:
                continue
            after[tid][me] = before + change
            opponents[tid, me].append(opponent_before)
            if winner == side:
                record[tid, me][0] += 1
            elif winner is not None:
                record[tid, me][1] += 1
    standing_rows, outcome_rows = [], []
    for tid, info in facts.info.items():
        pre = history.pre_tournament.get(tid, {})
        entrants = [Entrant(p, pool, penalty, pre.get(p, (ruleset.initial_rating,))[0])
                    for p, pool, penalty, _ in registrations_of[tid]]
        games = [ScoredGame(rnd, table, a, b, result, a_loss or 0, b_loss or 0, free)
                 for _, rnd, table, a, b, result, a_loss, b_loss, free in games_of[tid]]
        pools = reference_standings(system=system, entrants=entrants, games=games, excluded=facts.excluded)
        ranked_pre = []
        for pool, rows in pools.items():
            for row in rows:
                before = pre.get(row.player, (None,))[0]
                ranked_pre.append(before)
                wins, losses = record.get((tid, row.player), (0, 0))
                met = opponents.get((tid, row.player), ())
                performance = (sum(met) + ruleset.scale * (wins - losses)) / len(met) if met else None
                standing_rows.append((
                    tid, pool, row.rank, row.player, float(row.score), float(row.opponents_score), row.penalty,
                    row.wins, row.draws, row.losses, row.games, row.decided_by or "", before,
                    after[tid].get(row.player, before), performance,
                ))
        club_of = {player: club for player, _, _, club in registrations_of[tid]}
        pool_of = {row.player: pool for pool, rows in pools.items() for row in rows}
        rounds = defaultdict(set)
        for _, rnd, _, a, b, _, _, _, free in games_of[tid]:
            pool = pool_of.get(a) or pool_of.get(b)
            if not free and pool is not None:
                rounds[pool].add(rnd)
        failures = reference_charter_failures(
            official=info.official,
            entrants=[CharterEntrant(row.player, club_names.get(club_of.get(row.player)), pool)
                      for pool, rows in pools.items() for row in rows],
            rounds_by_pool={pool: len(rounds.get(pool, ())) for pool in pools},
        )
        counts = info.counts_override if info.counts_override is not None else (info.official and not failures)
        known = [r for r in ranked_pre if r is not None]
        outcome_rows.append((tid, sum(known) / len(known) if known else None, sum(len(r) for r in pools.values()),
                             rated.get(tid, 0), _json([{"code": f.code, "params": dict(f.params)} for f in failures]),
                             counts if system == "adlg" else False))
    return standing_rows, outcome_rows


def standing_binary(rows: list[tuple]) -> BinaryCopy:
    """The reference COPY data of standing rows: each column of Python values through column_of, in the type
    the model gives it."""
    values_of = list(zip(*rows, strict=True)) if rows else [()] * len(STANDING_COLUMNS)
    return BinaryCopy([column_of(pgtype, values) for pgtype, values in zip(
        binary_types(Standing, STANDING_COLUMNS), values_of, strict=True)], len(rows))


def exactly(rows):
    """Rows in a form that tells 1 from 1.0 and 0 from False."""
    return [tuple(repr(value) for value in row) for row in rows]


@pytest.mark.parametrize("system", ["adlg", "battle-empire"])
def test_the_rows_of_a_synthetic_federation_equal_the_reference(system):
    facts, history, ruleset, club_names = federation_inputs(players=2_000, games=20_000, seed=5, system=system)
    standings, outcomes = tournament_results_rows(facts=facts, history=history, ruleset=ruleset,
                                                  club_names=club_names)
    expected_standings, expected_outcomes = reference_rows(facts=facts, history=history, ruleset=ruleset,
                                                           club_names=club_names)
    assert len(standings) == len(expected_standings) > 9_000
    assert exactly(standings) == exactly(expected_standings)
    assert exactly(outcomes) == exactly(expected_outcomes)
    # Not vacuous: the federation has two pools, penalties, forfeits, free games, ties and charter failures.
    assert {row[1] for row in standings} == {"", "A", "B"}
    assert {row[11] for row in standings} >= {"", "score", "opponents", "rating"}
    assert any(row[4] != "[]" for row in outcomes)


@pytest.mark.parametrize("system", ["adlg", "battle-empire"])
def test_the_rows_are_the_same_from_the_records_the_expansion_hands_over(system):
    # The replay hands over the records' columns with each game's result already looked up (the history's
    # expansion): the winners of the performance ratings come from them instead of from the facts.
    facts, history, ruleset, club_names = federation_inputs(players=2_000, games=20_000, seed=5, system=system)
    handed = record_columns(history.games).with_results(facts.result_of(), tuple(sorted(ruleset.result_values)))
    inputs = {"facts": facts, "history": history, "ruleset": ruleset, "club_names": club_names}
    plain, given = tournament_results(**inputs), tournament_results(**inputs, records=handed)
    assert exactly(given.standings.rows()) == exactly(plain.standings.rows())
    assert given.outcomes == plain.outcomes
    performances = [row[14] for row in plain.standings.rows() if row[14] is not None]
    assert len(set(performances)) > 100  # not vacuous: the winners move performance ratings


@pytest.mark.parametrize("system", ["adlg", "battle-empire"])
def test_the_standing_columns_give_the_bytes_and_the_placings_of_their_rows(system):
    # The replay sends the columns without making the rows: the same COPY bytes, the same championship placings.
    facts, history, ruleset, club_names = federation_inputs(players=2_000, games=20_000, seed=5, system=system)
    results = tournament_results(facts=facts, history=history, ruleset=ruleset, club_names=club_names)
    rows = results.standings.rows()
    if connection.vendor == "postgresql":  # the binary types are PostgreSQL's
        assert b"".join(results.standings.binary()) == b"".join(standing_binary(rows))
    counting, placings = counting_placings(facts, results)
    expected = defaultdict(list)
    for row in rows:
        if row[0] in counting:
            expected[row[0]].append((row[1], row[2], row[3], row[4], row[10]))
    assert placings.by_tournament() == expected
    assert len(counting) > 10 if system == "adlg" else not counting
    assert any(value is None for row in rows for value in row[12:])  # NULLs among them


def test_the_championship_points_of_a_replay_are_those_of_each_placing_worked_out_alone():
    # championship_rows works the points out once per distinct combination over columns; the rules state them
    # one placing at a time (championship.points), as the replay first did, pool sizes counted from every row.
    from collections import Counter

    from championship.points import round_points, tournament_points
    from championship.services import Stored, championship_rows

    facts, history, ruleset, club_names = federation_inputs(players=2_000, games=20_000, seed=5)
    counting, placings = counting_placings(facts, tournament_results(
        facts=facts, history=history, ruleset=ruleset, club_names=club_names))
    expected = []
    for tid, rows in placings.by_tournament().items():
        end, rounds, worlds, _ = counting[tid]
        sizes = Counter(pool for pool, *_ in rows)
        expected += [(tid, player, end.year, int(round_points(tournament_points(
            players=sizes[pool], rounds=rounds, rank=rank, score=score, games=games, worlds=worlds)).scaleb(2)))
            for pool, rank, player, score, games in rows if games > 0]
    stored = Stored(kept={}, results={}, totals={}, countries={}, bulk=True)
    got = [row[:4] for row in championship_rows(stored=stored, replayed=counting, placings=placings).result_rows()]
    assert got == expected
    assert len(expected) > 1000 and len({cents for *_, cents in expected}) > 500  # not vacuous
    assert len({len(set(pool for pool, *_ in rows)) for rows in placings.by_tournament().values()}) > 1  # pools


@pytest.mark.django_db
def test_standings_sent_in_binary_read_back_as_the_rows():
    if connection.vendor != "postgresql":
        pytest.skip("binary COPY is PostgreSQL's")
    rows = [
        (7, "A\tB\\C\nD\rE", 1, 101, 181.0, 0.0, 20, 2, 0, 0, 2, "", None, None, None),
        (7, "", 2, 102, 1.25, 10.5, 0, 0, 1, 1, 2, "head_to_head", 1000, 1012, 1234.5),
        (8, "Poule é", 1, 103, 0.0, 0.0, 0, 0, 0, 0, 0, "", 1500, None, 1.0 / 3.0),
    ]
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE standing_copy (LIKE tournaments_standing INCLUDING IDENTITY)")
        rows_insert(table="standing_copy", columns=STANDING_COLUMNS, rows=standing_binary(rows))
        cursor.execute(f"SELECT {', '.join(STANDING_COLUMNS)} FROM standing_copy ORDER BY player_id")  # noqa: S608 - model columns
        stored = cursor.fetchall()
        cursor.execute("DROP TABLE standing_copy")
    assert exactly(stored) == exactly(rows)


def test_small_tournaments_reaching_every_corner_equal_the_reference():
    """Hand-made cases the synthetic federation seldom makes: a round whose only game is against the spare
    (as player B, then as A) in the pool '' and in a named pool, an excluded player's games, a player
    registered without games, a tournament without any game, Battle Empire."""
    ruleset = get_ruleset("adlg-2018")
    day = date(2024, 1, 6)
    cases = {
        1: ("", [(1, 1, 1, 2, "A", 10, 60), (2, 1, 1, SPARE_ID, "A", 0, 40), (3, 1, 3, 2, "D", 30, 30)]),
        2: ("A", [(1, 1, 1, 2, "B", 50, 20), (2, 1, 1, SPARE_ID, "A", 0, 40), (3, 1, SPARE_ID, 3, "B", 30, 5)]),
        3: ("", [(1, 1, 1, 7, "A", 10, 60), (1, 2, 2, 3, "FA", None, None), (2, 1, 7, 3, "DD", None, None)]),
        4: ("", []),
    }
    info, games_of, registrations_of, tournaments, gid = {}, {}, {}, [], 0
    for tid, (pool, games) in cases.items():
        rows = []
        for rnd, table, a, b, result, a_loss, b_loss in games:
            gid += 1
            rows.append((gid, rnd, table, a, b, result, a_loss, b_loss, False))
        registrations = [(p, pool, 20 if p == 2 else 0, None if p == 3 else 1) for p in (1, 2, 3, 4, 7)]
        info[tid] = TournamentInfo(tid, f"T{tid}", day, day, "FR", True, False, 3, None)
        games_of[tid], registrations_of[tid] = rows, registrations
        tournaments.append(EngineTournament(tid, day, day, True, [Game(g[0], *g[1:6], g[8]) for g in rows],
                                            [r[0] for r in registrations]))
        day += timedelta(days=7)
    excluded = frozenset({7})
    facts = _standings_facts(info, games_of, registrations_of, excluded)
    history = replay(ruleset, tournaments=tournaments, excluded=excluded)
    got = tournament_results_rows(facts=facts, history=history, ruleset=ruleset, club_names={1: "Alpha"})
    expected = reference_rows(facts=facts, history=history, ruleset=ruleset, club_names={1: "Alpha"})
    assert exactly(got[0]) == exactly(expected[0])
    assert exactly(got[1]) == exactly(expected[1])
    assert '"rounds":2' in got[1][0][4]  # the pool '' does not count its round against the spare as B


def test_no_tournament_gives_no_row():
    history = replay(get_ruleset("adlg-2018"), tournaments=[])
    facts = _standings_facts({}, {}, {}, frozenset())
    assert tournament_results_rows(facts=facts, history=history, ruleset=get_ruleset("adlg-2018"),
                                   club_names={}) == ([], [])


def test_a_game_of_two_pools_is_refused_with_the_scoring_rules_message():
    day = date(2024, 1, 6)
    registrations = [(1, "A", 0, None), (2, "B", 0, None), (3, "A", 0, None), (4, "B", 0, None)]
    games = [(1, 1, 1, 1, 3, "A", 10, 60, False), (2, 1, 2, 2, 4, "A", 10, 60, False),
             (3, 2, 1, 1, 2, "B", 50, 20, False)]
    info = {1: TournamentInfo(1, "T", day, day, "FR", True, False, 3, None)}
    facts = _standings_facts(info, {1: games}, {1: registrations}, frozenset())
    ruleset = get_ruleset("adlg-2018")
    history = replay(ruleset, tournaments=[EngineTournament(1, day, day, True, [
        Game(g[0], *g[1:6], g[8]) for g in games], [r[0] for r in registrations])])
    with pytest.raises(ValueError, match="round 2, table 1: the players are in different pools"):
        tournament_results_rows(facts=facts, history=history, ruleset=ruleset, club_names={})


def _penalised_sheet(new_players: dict) -> bytes:
    """The builders' valid sheet, later in the year, with two penalties; N1/N2 are the players made before."""
    builder = SheetBuilder.valid()
    builder.set("Name", "Autumn Open").set("Start date", date(2024, 10, 5)).set("End date", date(2024, 10, 6))
    for row in builder.players:
        row[0] = new_players.get(row[0], row[0])
    for row in builder.games:
        row[2], row[3] = new_players.get(row[2], row[2]), new_players.get(row[3], row[3])
    builder.set_player(101, "Penalty", 20).set_player(101, "Penalty reason", "late list")
    builder.set_player(104, "Penalty", 100).set_player(104, "Penalty reason", "disrespect to the referee")
    return builder.build()


@pytest.mark.django_db(transaction=True)
def test_the_rows_a_replay_writes_equal_the_reference_byte_for_byte():
    roster()
    imported(sheet(name="Summer Cup", start=date(2024, 7, 6), two_pools=True))
    first = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    imported(_penalised_sheet(first.new_players))
    Player.objects.filter(pk=108).update(excluded_at=timezone.now())  # void games, one fewer ranked player
    system = RatingSystem.objects.get(code="adlg")
    replay_from_scratch(system=system)

    facts = facts_load(system=system)
    ruleset = system.get_ruleset()
    history = replay(ruleset, tournaments=facts.tournaments, openings=facts.openings,
                     closed_years=facts.closed_years, excluded=facts.excluded)
    expected_standings, expected_outcomes = reference_rows(
        facts=facts, history=history, ruleset=ruleset, club_names=club_names())
    assert first.tournament_id in {row[0] for row in expected_outcomes}

    def stored(model, columns, order):
        quote = connection.ops.quote_name
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {', '.join(map(quote, columns))} FROM {quote(model._meta.db_table)} "  # noqa: S608
                           f"ORDER BY {order}")
            return cursor.fetchall()

    def comparable(rows, json_column=None, bool_column=None):
        # SQLite keeps the JSON text as written (compared byte for byte) and booleans as 0/1; PostgreSQL keeps
        # jsonb, handed back in its own canonical text: compared parsed there.
        out = []
        for row in rows:
            row = list(row)
            if connection.vendor != "sqlite" and json_column is not None:
                row[json_column] = json.loads(row[json_column]) if isinstance(row[json_column], str) \
                    else row[json_column]
            if bool_column is not None:
                row[bool_column] = bool(row[bool_column])
            out.append(tuple(row))
        return out

    standings = stored(Standing, STANDING_COLUMNS, "tournament_id, pool, rank")
    expected = sorted(expected_standings, key=lambda r: (r[0], r[1], r[2]))
    assert len(standings) == len(expected) >= 20
    assert comparable(standings) == comparable(expected)
    assert {row[6] for row in standings} >= {0, 20, 100}  # the penalties went through
    outcomes = stored(TournamentOutcome, OUTCOME_COLUMNS, "tournament_id")
    assert comparable(outcomes, 4, 5) == comparable(sorted(expected_outcomes), 4, 5)
    assert 108 not in {row[3] for row in standings}


@pytest.mark.django_db(transaction=True)
def test_the_tournament_pages_cross_table_is_worked_out_from_the_games():
    # Not stored by the replay: read from the games by the scoring rules (tournaments.selectors).
    from tournaments.selectors import tournament_detail

    roster()
    outcome = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    detail = tournament_detail(tournament_id=outcome.tournament_id, language="en")
    (pool,) = detail.pools
    lines = {line.standing.player_id: line for line in pool.lines}
    rank = {player: line.standing.rank for player, line in lines.items()}
    cells = {cell.round: cell for cell in lines[105].cells}
    assert (cells[1].result, cells[1].opponent_rank) == ("DD", rank[108])
    assert cells[2].result == "FW" and "forfeit" in cells[2].note
    assert (cells[3].letter, cells[3].opponent.pk, cells[3].opponent_rank) == ("L", 101, rank[101])
    assert pool.rounds == [1, 2, 3] and all(len(line.cells) == 3 for line in pool.lines)
