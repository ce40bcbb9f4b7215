"""How armies fare: each army's record in rated games, army against army, and a player's record with and against
each army.

Terms
-----
army name, army
    What a result sheet's `Army` column (or a compliant list, which the day's sheet carries) says, as typed:
    "Carthaginois", "Carthaginian", "carthage n°45". The board maps names to one army (`aliases`: a name's key ->
    the army); a name it has not mapped is its own army, trimmed. Names are compared by `name_key` (accents, case
    and spaces aside), so "Carthaginois" and "carthaginois " are one name before any mapping.
army game
    A rated game whose two players both named an army: an excluded player's games are not rated, so never here.
    A game between two players of the same army (a mirror game) says nothing of the army and is left out.
record
    Games, wins, draws and losses, read from each side's result value: above one half a win (Battle Empire's
    1.25 and 1.5 too), one half a draw (AdlG's double demoralisation too), below a loss.
win share
    (wins + draws / 2) / games, with its 95 % Wilson interval, shown only from the minimum sample on
    (rules.shares): below it the record is shown without a share.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import NamedTuple

from rules.names import name_key
from rules.shares import MIN_GAMES, Share, share


class ArmyGame(NamedTuple):
    army_a: str  # as typed
    army_b: str
    s_a: float  # A's result value
    player_a: int | None = None
    player_b: int | None = None


class Record(NamedTuple):
    army: str
    opponent: str  # the opposing army of an army-against-army line; "" for an army's whole record
    games: int
    wins: int
    draws: int
    losses: int
    share: Share | None  # None under the minimum sample


def army_of(name: str, aliases: Mapping[str, str]) -> str:
    """The army a typed name stands for: the board's mapping of its key, else the name itself, trimmed; "" for
    no name."""
    key = name_key(name)
    if not key:
        return ""
    return aliases.get(key) or " ".join(name.split())


def _outcome(s: float) -> int:
    return 0 if s > 0.5 else 1 if s == 0.5 else 2  # index of wins, draws, losses


class _Names:
    """Armies by key (one army whatever the case or spaces), each shown as first met."""

    def __init__(self, aliases: Mapping[str, str]) -> None:
        self.aliases = aliases
        self.shown: dict[str, str] = {}

    def key(self, name: str) -> str:
        army = army_of(name, self.aliases)
        key = name_key(army)
        if key:
            self.shown.setdefault(key, army)
        return key


def _records(counts: dict[tuple[str, str], list[int]], names: _Names, min_games: int) -> list[Record]:
    records = []
    for (army, opponent), (wins, draws, losses) in counts.items():
        games = wins + draws + losses
        records.append(Record(names.shown[army], names.shown.get(opponent, ""), games, wins, draws, losses,
                              share(wins + draws / 2, games, min_games=min_games)))
    return sorted(records, key=lambda r: (-r.games, name_key(r.army), name_key(r.opponent)))


def army_records(games: Iterable[ArmyGame], aliases: Mapping[str, str] | None = None, *,
                 min_games: int = MIN_GAMES, pair_min_games: int | None = None) -> tuple[list[Record], list[Record]]:
    """Each army's record, most played first, and the army-against-army lines of the pairs with at least
    `pair_min_games` games (the minimum sample by default)."""
    names = _Names(aliases or {})
    pair_min = min_games if pair_min_games is None else pair_min_games
    whole: dict[tuple[str, str], list[int]] = {}
    pairs: dict[tuple[str, str], list[int]] = {}
    for game in games:
        a, b = names.key(game.army_a), names.key(game.army_b)
        if not a or not b or a == b:
            continue  # an army missing, or a mirror game
        outcome = _outcome(game.s_a)
        mirror = 2 - outcome
        whole.setdefault((a, ""), [0, 0, 0])[outcome] += 1
        whole.setdefault((b, ""), [0, 0, 0])[mirror] += 1
        pairs.setdefault((a, b), [0, 0, 0])[outcome] += 1
        pairs.setdefault((b, a), [0, 0, 0])[mirror] += 1
    lines = [r for r in _records(pairs, names, min_games) if r.games >= pair_min]
    return _records(whole, names, min_games), lines


def player_army_records(player: int, games: Iterable[ArmyGame], aliases: Mapping[str, str] | None = None, *,
                        min_games: int = MIN_GAMES) -> tuple[list[Record], list[Record]]:
    """A player's record with each army they played (`army` theirs) and against each army they met (`army` the
    opponent's), mirror games included: here the player, not the army, is what is counted."""
    names = _Names(aliases or {})
    played: dict[tuple[str, str], list[int]] = {}
    met: dict[tuple[str, str], list[int]] = {}
    for game in games:
        if player not in (game.player_a, game.player_b):
            continue
        as_a = game.player_a == player
        outcome = _outcome(game.s_a) if as_a else 2 - _outcome(game.s_a)
        mine = names.key(game.army_a if as_a else game.army_b)
        theirs = names.key(game.army_b if as_a else game.army_a)
        if mine:
            played.setdefault((mine, ""), [0, 0, 0])[outcome] += 1
        if theirs:
            met.setdefault((theirs, ""), [0, 0, 0])[outcome] += 1
    return _records(played, names, min_games), _records(met, names, min_games)


class TypedName(NamedTuple):
    """An army name as one player named it at one tournament (a result sheet's `Army` cell)."""

    name: str
    tournament: int
    day: date


class UnmappedName(NamedTuple):
    key: str  # name_key: the names that are one before any mapping
    name: str  # its spelling most often typed (the first met of those)
    spellings: int  # how many spellings of it were typed
    players: int  # how many times it was typed: one player at one tournament each
    tournaments: int
    last: date  # the latest tournament it was typed at


def unmapped_names(typed: Iterable[TypedName], aliases: Mapping[str, str]) -> list[UnmappedName]:
    """The names typed that the board has not mapped to an army, by key, in the order of their keys: the spellings
    of one army ("carthage n45", "carthaginian", "carthaginois") come side by side, for the board to map them."""
    found: dict[str, dict] = {}
    for name, tournament, day in typed:
        key = name_key(name)
        if not key or key in aliases:
            continue
        entry = found.setdefault(key, {"spellings": {}, "tournaments": set(), "players": 0, "last": day})
        spelling = " ".join(name.split())
        entry["spellings"][spelling] = entry["spellings"].get(spelling, 0) + 1
        entry["tournaments"].add(tournament)
        entry["players"] += 1
        entry["last"] = max(entry["last"], day)
    return [UnmappedName(key, max(entry["spellings"], key=entry["spellings"].get), len(entry["spellings"]),
                         entry["players"], len(entry["tournaments"]), entry["last"])
            for key, entry in sorted(found.items())]
