"""Tournament scores, standings and the charter's conditions (RULES.md §6, §7; charter App. 1 and 4).

Terms
-----
losses
    Whole percentages 0-100 of an army lost in a game.
game score
    What a game is worth in the tournament (AdlG: 10-100 from the result and the losses; Battle Empire:
    the result value S, 0/0.5/1/1.25/1.5).
forfeit
    'FA' / 'FB': won by A / B because the opponent was absent: 81 for the winner, 10 for the absent player.
free game
    A last-round game played by mutual agreement: rated for Elo, but left out of scores and standings.
void game
    A game of an excluded player: counted for no one.
pool
    A group of players ranked separately inside a tournament.
ranked player
    Every entrant of a pool that is neither the spare nor excluded, with or without games (a registered
    player with no game scores 0 minus the penalty, floored at 0).
tournament score
    Sum of the player's game scores minus penalty points, never below 0 (no penalties in Battle Empire).
    The spare's score is the sum of its game scores in the pool: it is not ranked, but counts as an opponent.
opponents' score
    Sum of the tournament scores of the opponents met (once per game), forfeits left out.
tie-breaks
    score, then opponents' score, then, for a tie of exactly two players who met, the result of their
    games, then the lower pre-tournament rating, then the lower ID. Each row says which one placed it
    below the row above ('score', 'opponents', 'head_to_head', 'rating', 'id').
scored rounds (T)
    Games counted in the score: forfeits included, free and void games not.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

from rules.rulesets import BATTLE_EMPIRE, SPARE_ID

SYSTEMS = ("adlg", "battle-empire")
FORFEITS = {"FA": "A", "FB": "B"}  # code -> winning side
ADLG_RESULTS = ("A", "B", "D", "DD", "FA", "FB")
PENALTY_SYSTEMS = ("adlg",)

MIN_PLAYERS = 8
MIN_CLUBS = 3


# --- game scores --------------------------------------------------------------------------------------


def _check_losses(*losses: int) -> None:
    for value in losses:
        if not 0 <= value <= 100:
            raise ValueError(f"losses are whole percentages from 0 to 100, not {value!r}")


def _won(winner_losses: int) -> tuple[int, int]:
    """(winner, loser): the winner loses a point per 5% suffered, the loser gains one per 5% inflicted."""
    return max(81, 100 - winner_losses // 5), min(29, 10 + winner_losses // 5)


def _drawn(own: int, other: int) -> int:
    # The charter's range is 31-58; 100% losses on a drawn game would leave it otherwise.
    return max(31, min(58, 40 + 2 * (other // 10) - own // 10))


def game_scores(result: str, a_losses: int = 0, b_losses: int = 0) -> tuple[int, int]:
    """AdlG game scores (A, B) for a result code of the sheet."""
    _check_losses(a_losses, b_losses)
    if result == "A":
        return _won(a_losses)
    if result == "B":
        b, a = _won(b_losses)
        return a, b
    if result == "D":
        return _drawn(a_losses, b_losses), _drawn(b_losses, a_losses)
    if result == "DD":
        return 58, 58
    if result == "FA":
        return 81, 10
    if result == "FB":
        return 10, 81
    raise ValueError(f"unknown AdlG result {result!r} (known: {', '.join(ADLG_RESULTS)})")


def battle_empire_scores(result: str) -> tuple[float, float]:
    try:
        return BATTLE_EMPIRE.result_values[result]
    except KeyError:
        known = ", ".join(BATTLE_EMPIRE.result_values)
        raise ValueError(f"unknown Battle Empire result {result!r} (known: {known})") from None


def _view(result: str, side: str) -> str:
    """The result letter from one player's view: W, L, D, DD, FW, FL; Battle Empire W+, W++, L+, L++."""
    if result in ("D", "DD"):
        return result
    if result in FORFEITS:
        return "FW" if FORFEITS[result] == side else "FL"
    won = result[0] == side
    return ("W" if won else "L") + result[1:]


# --- standings ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entrant:
    player: int
    pool: str = ""
    penalty: int = 0
    pre_rating: int = 1000


@dataclass(frozen=True, slots=True)
class ScoredGame:
    round: int
    table: int
    a: int
    b: int
    result: str
    a_losses: int = 0
    b_losses: int = 0
    free: bool = False


@dataclass(frozen=True, slots=True)
class RoundDetail:
    """One game from a player's view. Free games are listed (flagged) but count for nothing here."""

    round: int
    opponent: int
    result: str
    score: float
    opponent_score: float
    free: bool = False


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    player: int
    score: float
    opponents_score: float
    penalty: int
    wins: int
    draws: int
    losses: int
    games: int
    rounds: tuple[RoundDetail, ...]
    decided_by: str | None  # the tie-break that placed this row below the one above; None for the first


# The standings are computed on plain tuples: the replay ranks every tournament of the federation (a million
# games), and a dataclass per game, per round and per player costs several times the rules themselves.
# `standings` (dataclasses in and out) and `standings_from_rows` (tuples in and out) share this one
# implementation.
#
# Row layouts of `standings_from_rows`:
#   entrant  (player, pool, penalty, pre_rating)                                   - Entrant's fields
#   game     (id, round, table, a, b, result, a_losses, b_losses, free)            - ratings.facts'
#            TournamentInfo.games layout; the id is not used; losses are ints, None counting as 0 (the
#            facts leave them blank for forfeits)
#   standing (rank, player, score, opponents_score, penalty, wins, draws, losses, games, rounds, decided_by)
#            - StandingRow's fields, with rounds a tuple of (round, opponent, result, score, opponent_score,
#            free) - RoundDetail's fields.

# A tally is a list, indexed by these (WINS, DRAWS and LOSSES also number the counters of the columnar
# standings, tournaments.standings_columns): [game scores, wins, draws, losses, rounds, opponents' tally keys].
# `games` is not kept: every scored game adds one to exactly one of wins, draws and losses.
_SCORE, WINS, DRAWS, LOSSES, _ROUNDS, _OPPONENTS = range(6)
_EMPTY_TALLY = (0, 0, 0, 0, (), ())
_COUNTER = {1: WINS, 0: DRAWS, -1: LOSSES}  # outcome -> its counter in a tally


def _new_tally() -> list:
    return [0, 0, 0, 0, [], []]


def outcome_value(letter: str) -> int:
    """1, 0 or -1: a win, a draw or a loss, from a result letter of one player's view (see _view)."""
    return 1 if letter[0] == "W" or letter == "FW" else -1 if letter[0] == "L" or letter == "FL" else 0


def game_figures(system: str, result: str, a_losses: int | None, b_losses: int | None) -> tuple:
    """What a game's result and losses give: (A's score, B's score, A's letter, B's letter, A's tally
    counter, B's tally counter, whether it counts in the opponents' scores, i.e. is not a forfeit).

    Raises ValueError for an unknown result or losses outside 0-100. Cached by the caller: a federation has
    a few thousand distinct (result, losses), against a million games."""
    if system == "adlg":
        a, b = game_scores(result, a_losses or 0, b_losses or 0)
    else:
        a, b = battle_empire_scores(result)
    view_a, view_b = _view(result, "A"), _view(result, "B")
    counter_a, counter_b = _COUNTER[outcome_value(view_a)], _COUNTER[outcome_value(view_b)]
    return a, b, view_a, view_b, counter_a, counter_b, result not in FORFEITS


# system -> {(result, a_losses, b_losses) or, without losses in the scores, result: game_figures(...)}.
# Bounded: only valid (result, losses) are stored, 6 x 102 x 102 at most for AdlG.
GAME_FIGURES: dict[str, dict] = {system: {} for system in SYSTEMS}
SCORED_BY_LOSSES = {"adlg": True, "battle-empire": False}
_ROUND_TABLE = itemgetter(1, 2)


def _pool_of(rnd: int, table: int, a: int, b: int, pools: Mapping[int, str], spare: int) -> str:
    """The pool of the game's real players (a game of the spare belongs to its opponent's pool)."""
    players = [p for p in (a, b) if p != spare]
    for player in players:
        if player not in pools:
            raise ValueError(f"round {rnd}, table {table}: player {player} is not an entrant")
    found = {pools[p] for p in players}
    if len(found) != 1:
        problem = "the spare cannot play itself" if not found else "the players are in different pools"
        raise ValueError(f"round {rnd}, table {table}: {problem}")
    return found.pop()


def standings(
    *,
    system: str,
    entrants: Sequence[Entrant],
    games: Sequence[ScoredGame],
    spare: int = SPARE_ID,
    excluded: frozenset[int] = frozenset(),
) -> dict[str, list[StandingRow]]:
    """The standings of every pool, keyed by pool name."""
    pools = standings_from_rows(
        system=system,
        entrants=[(e.player, e.pool, e.penalty, e.pre_rating) for e in entrants],
        games=[(None, g.round, g.table, g.a, g.b, g.result, g.a_losses, g.b_losses, g.free) for g in games],
        spare=spare,
        excluded=excluded,
    )
    return {
        pool: [StandingRow(*row[:9], tuple(RoundDetail(*r) for r in row[9]), row[10]) for row in rows]
        for pool, rows in pools.items()
    }


def standings_from_rows(
    *,
    system: str,
    entrants: Sequence[tuple],
    games: Sequence[tuple],
    spare: int = SPARE_ID,
    excluded: frozenset[int] | set[int] = frozenset(),
) -> dict[str, list[tuple]]:
    """`standings` on plain tuples (layouts above): the standing rows of every pool, keyed by pool name."""
    if system not in SYSTEMS:
        raise ValueError(f"unknown scoring system {system!r} (known: {', '.join(SYSTEMS)})")
    figures, by_losses = GAME_FIGURES[system], SCORED_BY_LOSSES[system]
    ranked = [e for e in entrants if e[0] != spare and e[0] not in excluded]
    pools = {e[0]: e[1] for e in ranked}
    # Tallies are keyed by player: a ranked player plays in one pool only (checked below). The spare may
    # play in every pool and has a tally in each, keyed (spare, pool).
    tallies: defaultdict = defaultdict(_new_tally)
    for _, rnd, table, a, b, result, a_losses, b_losses, free in sorted(games, key=_ROUND_TABLE):
        try:
            pool = pools[a]
            common = pools[b] == pool
        except KeyError:  # the spare, an excluded player, or not an entrant
            common = False
        if common:
            key_a, key_b = a, b  # two ranked players of one pool (so neither excluded nor the spare)
        elif a in excluded or b in excluded:
            continue  # void for everyone
        else:
            pool = _pool_of(rnd, table, a, b, pools, spare)  # a game of the spare; raises for a wrong game
            key_a = (spare, pool) if a == spare else a
            key_b = (spare, pool) if b == spare else b
        try:
            fig = figures[(result, a_losses, b_losses) if by_losses else result]
        except KeyError:
            fig = figures[(result, a_losses, b_losses) if by_losses else result] = game_figures(
                system, result, a_losses, b_losses
            )
        a_score, b_score, view_a, view_b, counter_a, counter_b, counted = fig
        tally_a, tally_b = tallies[key_a], tallies[key_b]
        # A's side first, then B's: the order of the rounds, sums and opponents of a player against itself.
        # Literal indices (see _SCORE ... _OPPONENTS): this loop runs once per game of the federation.
        tally_a[4].append((rnd, b, view_a, a_score, b_score, free))
        tally_b[4].append((rnd, a, view_b, b_score, a_score, free))
        if free:
            continue  # listed in the cross-table, counted for nothing
        tally_a[0] += a_score
        tally_a[counter_a] += 1
        tally_b[0] += b_score
        tally_b[counter_b] += 1
        if counted:
            tally_a[5].append(key_b)
            tally_b[5].append(key_a)
    applies = system in PENALTY_SYSTEMS
    penalty = {e[0]: e[2] if applies else 0 for e in ranked}
    final = {key: max(0, t[_SCORE] - penalty.get(key, 0)) for key, t in tallies.items()}
    by_pool: dict[str, list[tuple]] = defaultdict(list)
    for e in ranked:
        by_pool[e[1]].append(e)
    return {
        pool: _rank_pool(pool, members, pools, tallies, final, penalty)
        for pool, members in sorted(by_pool.items())
    }


def _rank_pool(
    pool: str,
    members: list[tuple],
    pools: Mapping[int, str],
    tallies: Mapping,
    final: Mapping,
    penalty: Mapping[int, int],
) -> list[tuple]:
    # One sort on (-score, -opponents' score, pre-tournament rating, ID, entry order): the entry order keeps
    # the sort stable for a player listed twice, and stops the comparison before the entrant and its tally.
    # Head-to-head then reorders ties of exactly two.
    rows = []
    for position, e in enumerate(members):
        player = e[0]
        tally = tallies.get(player) if pools[player] == pool else None  # a player listed in two pools
        if tally is None:
            rows.append((0, 0, e[3], player, position, e, _EMPTY_TALLY, 0, 0))
        else:
            score = final[player]
            opponents_score = sum(map(final.__getitem__, tally[_OPPONENTS]))  # in game order, as floats add
            rows.append((-score, -opponents_score, e[3], player, position, e, tally, score, opponents_score))
    rows.sort()
    # Rows tied with the row above on score and opponents' score (ties are contiguous after the sort, and rare).
    tied = {i for i in range(1, len(rows)) if rows[i][7] == rows[i - 1][7] and rows[i][8] == rows[i - 1][8]}
    pairs = {i for i in tied if i - 1 not in tied and i + 1 not in tied}  # lower rows of ties of exactly two
    for i in pairs:
        if _head_to_head(rows[i - 1], rows[i]) < 0:
            rows[i - 1], rows[i] = rows[i], rows[i - 1]
    standing = []
    above = None
    for position, row in enumerate(rows):
        e, tally, score = row[5], row[6], row[7]
        if above is None:
            decided_by = None
        elif position not in tied:
            decided_by = "score" if above[7] != score else "opponents"
        elif position in pairs and _head_to_head(above, row) > 0:
            decided_by = "head_to_head"
        elif above[2] != e[3]:
            decided_by = "rating"
        else:
            decided_by = "id"
        wins, draws, losses = tally[WINS], tally[DRAWS], tally[LOSSES]
        standing.append((position + 1, e[0], score, row[8], penalty[e[0]], wins, draws, losses,
                         wins + draws + losses, tuple(tally[_ROUNDS]), decided_by))
        above = row
    return standing


def _head_to_head(row: tuple, other: tuple) -> int:
    """Wins minus losses of the player of `row` against the player of `other` (rows of _rank_pool), in their
    scored games.

    Computed only for a tie of exactly two, from the cross-table: rarer than keeping it for every game."""
    opponent = other[3]
    return sum(outcome_value(r[2]) for r in row[6][_ROUNDS] if r[1] == opponent and not r[5])


# --- tournament figures -------------------------------------------------------------------------------


def performance_rating(*, opponents: Sequence[int], wins: int, losses: int, scale: int) -> float | None:
    """(sum of opponents' ratings + D x (wins - losses)) / rated games; None without games."""
    if not opponents:
        return None
    return (sum(opponents) + scale * (wins - losses)) / len(opponents)


def average_rating(ratings: Sequence[int]) -> float | None:
    return sum(ratings) / len(ratings) if ratings else None


# --- charter conditions (App. 1) ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CharterEntrant:
    player: int
    club: str | None  # None: an independent player, a club of one
    pool: str = ""


@dataclass(frozen=True)
class CharterFailure:
    code: str
    params: dict = field(default_factory=dict)


def minimum_rounds(players: int) -> int:
    """Charter App. 1 §4: the ideal number of players for R rounds is 2^R."""
    if players < 16:
        return 3
    if players < 32:
        return 4
    if players < 64:
        return 5
    return 6


def charter_failures(
    *,
    official: bool,
    entrants: Sequence[CharterEntrant],
    rounds_by_pool: Mapping[str, int],
    spare: int = SPARE_ID,
) -> list[CharterFailure]:
    """Every charter condition the tournament fails, on its ranked players (pass no excluded player)."""
    return charter_failures_from_rows(
        official=official, entrants=[(e.player, e.club, e.pool) for e in entrants], rounds_by_pool=rounds_by_pool,
        spare=spare,
    )


def charter_failures_from_rows(
    *,
    official: bool,
    entrants: Sequence[tuple[int, str | None, str]],
    rounds_by_pool: Mapping[str, int],
    spare: int = SPARE_ID,
) -> list[CharterFailure]:
    """`charter_failures` on (player, club, pool) tuples: the replay checks every tournament of the federation."""
    players = [e for e in entrants if e[0] != spare]
    failures = []
    if not official:
        failures.append(CharterFailure("not_official"))
    if len(players) < MIN_PLAYERS:
        failures.append(CharterFailure("too_few_players", {"players": len(players), "minimum": MIN_PLAYERS}))
    clubs = defaultdict(int)
    independents = 0
    for _, club, _ in players:
        if club is None:
            independents += 1
        else:
            clubs[club] += 1
    if len(clubs) + independents < MIN_CLUBS:
        params = {"clubs": len(clubs) + independents, "minimum": MIN_CLUBS}
        failures.append(CharterFailure("too_few_clubs", params))
    for club, count in sorted(clubs.items()):
        if 3 * count > 2 * len(players):
            params = {"club": club, "players": count, "total": len(players)}
            failures.append(CharterFailure("club_over_two_thirds", params))
    sizes = defaultdict(int)
    for _, _, pool in players:
        sizes[pool] += 1
    for pool in sorted(set(sizes) | set(rounds_by_pool)):
        rounds, minimum = rounds_by_pool.get(pool, 0), minimum_rounds(sizes[pool])
        if rounds < minimum:
            params = {"pool": pool, "players": sizes[pool], "rounds": rounds, "minimum": minimum}
            failures.append(CharterFailure("too_few_rounds", params))
    return failures


def _plural(count: int, one: str, many: str, lang: str) -> str:
    singular = count == 1 if lang == "en" else count < 2  # French: "0 joueur", "1 joueur", "2 joueurs"
    return f"{count} {one if singular else many}"


NBSP = "\u00a0"  # French puts a (non-breaking) space before ';' and ':'

_TEMPLATES = {
    "not_official": {
        "en": "The tournament is not official.",
        "fr": "Le tournoi n'est pas officiel.",
    },
    "too_few_players": {
        "en": "The tournament ranks {players}; at least {minimum} are needed.",
        "fr": "Le tournoi classe {players}" + NBSP + "; il en faut au moins {minimum}.",
    },
    "too_few_clubs": {
        "en": "The players come from {clubs} (an independent player counts as a club of one); "
        "at least {minimum} are needed.",
        "fr": "Les joueurs viennent de {clubs} (un joueur indépendant compte pour un club)"
        + NBSP
        + "; il en faut au moins {minimum}.",
    },
    "club_over_two_thirds": {
        "en": "The club {club} has {count} of the {total} players: more than two thirds.",
        "fr": "Le club {club} compte {count} des {total} joueurs" + NBSP + ": plus des deux tiers.",
    },
    "too_few_rounds": {
        "en": "{where}{rounds} for {players}; at least {minimum} are needed.",
        "fr": "{where}{rounds} pour {players}" + NBSP + "; il en faut au moins {minimum}.",
    },
}

_WORDS = {
    "en": {"players": ("player", "players"), "clubs": ("club", "clubs"), "rounds": ("round", "rounds")},
    "fr": {"players": ("joueur", "joueurs"), "clubs": ("club", "clubs"), "rounds": ("ronde", "rondes")},
}


def charter_failure_message(failure: CharterFailure, lang: str = "en") -> str:
    if lang not in _WORDS:
        raise ValueError(f"no messages in {lang!r} (known: {', '.join(_WORDS)})")
    if failure.code not in _TEMPLATES:
        raise ValueError(f"unknown charter failure {failure.code!r}")
    p = failure.params
    words = _WORDS[lang]
    values = {k: _plural(p[k], *words[k], lang) for k in ("players", "clubs", "rounds") if k in p}
    if failure.code == "club_over_two_thirds":
        values["count"] = p["players"]
    if failure.code == "too_few_rounds":
        label = "Pool {}: " if lang == "en" else "Poule {}" + NBSP + ": "
        values["where"] = label.format(p["pool"]) if p["pool"] else ""
    return _TEMPLATES[failure.code][lang].format(**{**p, **values})
