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

from ratings.rulesets import BATTLE_EMPIRE

SYSTEMS = ("adlg", "battle-empire")
SPARE_ID = 99
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


@dataclass
class _Tally:
    games_score: float = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: int = 0
    rounds: list[RoundDetail] = field(default_factory=list)
    opponents: list[int] = field(default_factory=list)  # once per scored game, forfeits left out
    head_to_head: dict[int, int] = field(default_factory=dict)  # opponent -> wins minus losses


def _side_scores(system: str, g: ScoredGame) -> tuple[float, float]:
    if system == "adlg":
        return game_scores(g.result, g.a_losses, g.b_losses)
    return battle_empire_scores(g.result)


def _tally(tally: _Tally, g: ScoredGame, *, side: str, opponent: int, own: float, other: float) -> None:
    letter = _view(g.result, side)
    tally.rounds.append(RoundDetail(g.round, opponent, letter, own, other, g.free))
    if g.free:
        return
    tally.games_score += own
    tally.games += 1
    outcome = 1 if letter[0] == "W" or letter == "FW" else -1 if letter[0] == "L" or letter == "FL" else 0
    tally.wins += outcome == 1
    tally.losses += outcome == -1
    tally.draws += outcome == 0
    tally.head_to_head[opponent] = tally.head_to_head.get(opponent, 0) + outcome
    if g.result not in FORFEITS:
        tally.opponents.append(opponent)


def _pool_of(g: ScoredGame, pools: Mapping[int, str], spare: int) -> str:
    """The pool of the game's real players (a game of the spare belongs to its opponent's pool)."""
    players = [p for p in (g.a, g.b) if p != spare]
    for player in players:
        if player not in pools:
            raise ValueError(f"round {g.round}, table {g.table}: player {player} is not an entrant")
    found = {pools[p] for p in players}
    if len(found) != 1:
        problem = "the spare cannot play itself" if not found else "the players are in different pools"
        raise ValueError(f"round {g.round}, table {g.table}: {problem}")
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
    if system not in SYSTEMS:
        raise ValueError(f"unknown scoring system {system!r} (known: {', '.join(SYSTEMS)})")
    ranked = [e for e in entrants if e.player != spare and e.player not in excluded]
    pools = {e.player: e.pool for e in ranked}
    tallies: dict[tuple[str, int], _Tally] = defaultdict(_Tally)
    for g in sorted(games, key=lambda g: (g.round, g.table)):
        if g.a in excluded or g.b in excluded:
            continue
        pool = _pool_of(g, pools, spare)
        a_score, b_score = _side_scores(system, g)
        _tally(tallies[pool, g.a], g, side="A", opponent=g.b, own=a_score, other=b_score)
        _tally(tallies[pool, g.b], g, side="B", opponent=g.a, own=b_score, other=a_score)
    penalty = {e.player: e.penalty if system in PENALTY_SYSTEMS else 0 for e in ranked}
    final = {key: max(0, t.games_score - penalty.get(key[1], 0)) for key, t in tallies.items()}
    by_pool: dict[str, list[Entrant]] = defaultdict(list)
    for e in ranked:
        by_pool[e.pool].append(e)
    return {
        pool: _rank_pool(pool, members, tallies, final, penalty) for pool, members in sorted(by_pool.items())
    }


def _rank_pool(
    pool: str,
    members: list[Entrant],
    tallies: Mapping[tuple[str, int], _Tally],
    final: Mapping[tuple[str, int], float],
    penalty: Mapping[int, int],
) -> list[StandingRow]:
    empty = _Tally()
    rows = []
    for e in members:
        t = tallies.get((pool, e.player), empty)
        opponents_score = sum(final.get((pool, o), 0) for o in t.opponents)
        rows.append((e, t, final.get((pool, e.player), 0), opponents_score))
    rows.sort(key=lambda r: (-r[2], -r[3], r[0].pre_rating, r[0].player))
    _apply_head_to_head(rows)
    standing = []
    for position, (e, t, score, opponents_score) in enumerate(rows):
        decided_by = None if position == 0 else _decided_by(rows[position - 1], rows[position], rows)
        standing.append(StandingRow(
            rank=position + 1, player=e.player, score=score, opponents_score=opponents_score,
            penalty=penalty[e.player], wins=t.wins, draws=t.draws, losses=t.losses, games=t.games,
            rounds=tuple(t.rounds), decided_by=decided_by,
        ))  # fmt: skip
    return standing


def _tied(x: tuple, y: tuple) -> bool:
    return x[2] == y[2] and x[3] == y[3]


def _group_of(rows: list[tuple], position: int) -> list[int]:
    return [i for i, row in enumerate(rows) if _tied(row, rows[position])]


def _apply_head_to_head(rows: list[tuple]) -> None:
    """Swaps a tie of exactly two players who met when the lower-placed one won their games."""
    position = 0
    while position < len(rows) - 1:
        group = _group_of(rows, position)
        if len(group) == 2:
            upper, lower = rows[group[0]], rows[group[1]]
            if upper[1].head_to_head.get(lower[0].player, 0) < 0:
                rows[group[0]], rows[group[1]] = lower, upper
        position = group[-1] + 1


def _decided_by(above: tuple, below: tuple, rows: list[tuple]) -> str:
    if above[2] != below[2]:
        return "score"
    if above[3] != below[3]:
        return "opponents"
    if len(_group_of(rows, rows.index(below))) == 2 and above[1].head_to_head.get(below[0].player, 0) > 0:
        return "head_to_head"
    if above[0].pre_rating != below[0].pre_rating:
        return "rating"
    return "id"


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
    players = [e for e in entrants if e.player != spare]
    failures = []
    if not official:
        failures.append(CharterFailure("not_official"))
    if len(players) < MIN_PLAYERS:
        failures.append(CharterFailure("too_few_players", {"players": len(players), "minimum": MIN_PLAYERS}))
    clubs = defaultdict(int)
    independents = 0
    for e in players:
        if e.club is None:
            independents += 1
        else:
            clubs[e.club] += 1
    if len(clubs) + independents < MIN_CLUBS:
        params = {"clubs": len(clubs) + independents, "minimum": MIN_CLUBS}
        failures.append(CharterFailure("too_few_clubs", params))
    for club, count in sorted(clubs.items()):
        if 3 * count > 2 * len(players):
            params = {"club": club, "players": count, "total": len(players)}
            failures.append(CharterFailure("club_over_two_thirds", params))
    sizes = defaultdict(int)
    for e in players:
        sizes[e.pool] += 1
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
