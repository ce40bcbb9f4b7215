"""The charter's conditions for a tournament to count for the championship (RULES.md §7; charter App. 1).

Terms
-----
ranked player
    A player of the tournament's standings: neither the spare nor excluded.
club
    The club a player entered with; an independent player (no club) counts as a club of one.
minimum rounds
    Charter App. 1 §4: the ideal number of players for R rounds is 2^R, so a pool of under 16 players needs 3
    rounds, 16-31 need 4, 32-63 need 5, 64 or more need 6.
failure
    A condition not met, as a code and its figures; `charter_failure_message` words it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.rulesets import SPARE_ID
from rules.words import ENGLISH, Words, gettext_noop, ngettext_noop

MIN_PLAYERS = 8
MIN_CLUBS = 3


def club_round(round: int, rounds: int) -> bool:
    """Whether club-mates are kept apart in this round: round 1 when R <= 3; rounds 1 and 2 when R >= 4
    (App. 2 §2.a.ii). The pairing keeps them apart; the sheet check warns when they met."""
    return round == 1 or (round == 2 and rounds >= 4)


def club_key(club: str | None) -> str | None:
    """A club as compared, to tell club-mates: spaces collapsed and case ignored ("Les  Aigles" and "les aigles"
    are one club); None for an independent player, who has no club-mate."""
    key = " ".join((club or "").split()).casefold()
    return key or None


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


def charter_failures(*, official: bool, entrants: Sequence[CharterEntrant],
                     rounds_by_pool: Mapping[str, int]) -> list[CharterFailure]:
    """Every condition the tournament fails, on its ranked players (pass neither the spare nor an excluded
    player): official; at least 8 players; from at least 3 clubs, an independent player counting as a club of
    one; no club above two thirds of them; each pool with at least its minimum rounds."""
    players = [e for e in entrants if e.player != SPARE_ID]
    failures = []
    if not official:
        failures.append(CharterFailure("not_official"))
    if len(players) < MIN_PLAYERS:
        failures.append(CharterFailure("too_few_players", {"players": len(players), "minimum": MIN_PLAYERS}))
    clubs: dict[str, int] = defaultdict(int)
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
    sizes: dict[str, int] = defaultdict(int)
    for e in players:
        sizes[e.pool] += 1
    for pool in sorted(set(sizes) | set(rounds_by_pool)):
        rounds, minimum = rounds_by_pool.get(pool, 0), minimum_rounds(sizes[pool])
        if rounds < minimum:
            params = {"pool": pool, "players": sizes[pool], "rounds": rounds, "minimum": minimum}
            failures.append(CharterFailure("too_few_rounds", params))
    return failures


NBSP = "\u00a0"  # between a figure and its unit: "1 h 15" never breaks

_TEMPLATES = {
    "not_official": gettext_noop("The tournament is not official."),
    "too_few_players": gettext_noop("The tournament ranks {players}; at least {minimum} are needed."),
    "too_few_clubs": gettext_noop(
        "The players come from {clubs} (an independent player counts as a club of one); at least {minimum} are "
        "needed."
    ),
    "club_over_two_thirds": gettext_noop("The club {club} has {count} of the {total} players: more than two thirds."),
    "too_few_rounds": gettext_noop("{where}{rounds} for {players}; at least {minimum} are needed."),
}

_COUNTS = {
    "players": ngettext_noop("{count} player", "{count} players"),
    "clubs": ngettext_noop("{count} club", "{count} clubs"),
    "rounds": ngettext_noop("{count} round", "{count} rounds"),
}
_POOL = gettext_noop("Pool {pool}: ")


def charter_failure_message(failure: CharterFailure, words: Words = ENGLISH) -> str:
    """A condition not met, in the words given (English by default; the shell gives the reader's language)."""
    if failure.code not in _TEMPLATES:
        raise ValueError(f"unknown charter failure {failure.code!r}")
    p = failure.params
    values = {k: words.ngettext(*_COUNTS[k], p[k]).format(count=p[k]) for k in _COUNTS if k in p}
    if failure.code == "club_over_two_thirds":
        values["count"] = p["players"]
    if failure.code == "too_few_rounds":
        values["where"] = words.gettext(_POOL).format(pool=p["pool"]) if p["pool"] else ""
    return words.gettext(_TEMPLATES[failure.code]).format(**{**p, **values})


# --- before the tournament (App. 1 §6, §8, §11; App. 7 §2) ------------------------------------------------------
#
# game duration
#     §6: "in principle" 1 h 15 for 100 points, 2 h 30 for 200, 3 h 30 for 300. **Decision**: between those the
#     duration is interpolated linearly and rounded up to 5 minutes (150 points: 1 h 55; 250 points: 3 h 00);
#     outside 100-300 points (§5 allows no other individual format) the charter gives none. A referee may announce
#     another duration, but must explain it (§6: "this must be clearly explained to everyone").
# list deadline
#     §11: the lists are sent "at least one week before the tournament": the deadline is at the latest 7 days
#     before the first day.
# identical lists
#     §8: at most 2 identical lists in a tournament of under 20 players, 3 from 20. **Decision**: "identical" is
#     the charter's "identical armies": two lists are identical when they are lists of the same army of the
#     official army lists, i.e. bear the same army number (compared by `army_number_key`). The file's bytes or the
#     link never make two lists identical or different: every player's workbook carries their own name, and the
#     charter's concern is a theme drawing many of the same army. Counted per pool, against the tournament's
#     entered players.
# late list
#     App. 7 §2: a list sent late costs 20 points of the tournament score.

CHARTER_MINUTES = {100: 75, 200: 150, 300: 210}
LIST_DEADLINE_DAYS = 7
LATE_LIST_PENALTY = 20
IDENTICAL_LISTS_SMALL, IDENTICAL_LISTS_LARGE, IDENTICAL_LISTS_FROM = 2, 3, 20


def game_minutes(army_points: int | None) -> int | None:
    """The charter's duration of a game for an army size (§6), in minutes; None outside 100-300 points."""
    if army_points is None or not 100 <= army_points <= 300:
        return None
    if army_points in CHARTER_MINUTES:
        return CHARTER_MINUTES[army_points]
    low = 100 if army_points < 200 else 200
    high = low + 100
    exact = CHARTER_MINUTES[low] + (CHARTER_MINUTES[high] - CHARTER_MINUTES[low]) * (army_points - low) / 100
    return int(-(-exact // 5) * 5)


def duration_words(minutes: int) -> str:
    """75 -> "1 h 15", 150 -> "2 h 30", 45 -> "45 min" (the charter's own spelling, the same in French)."""
    hours, rest = divmod(minutes, 60)
    if not hours:
        return f"{rest}{NBSP}min"
    return f"{hours}{NBSP}h{NBSP}{rest:02d}" if rest else f"{hours}{NBSP}h"


def identical_list_limit(players: int) -> int:
    """§8: how many identical lists a tournament of `players` entered players allows."""
    return IDENTICAL_LISTS_SMALL if players < IDENTICAL_LISTS_FROM else IDENTICAL_LISTS_LARGE


def army_number_key(number: str) -> str:
    """An army number as compared: case and spaces ignored, a leading zero dropped ("045" and "45" are one army,
    "IV/12" and "iv / 12" too)."""
    key = "".join((number or "").split()).casefold()
    return key.lstrip("0") or key


@dataclass(frozen=True)
class IdenticalLists:
    """Lists of one army in one pool beyond the charter's limit: the army's number, the entries, the limit."""

    pool: str
    army_number: str
    entries: tuple
    limit: int


def identical_lists(lists: Sequence[tuple[object, str, str]], *, players: int) -> list[IdenticalLists]:
    """The groups of identical lists over the limit (§8). `lists` are (entry, pool, army number) of the current
    lists of the entered players; `players` is how many players are entered in the tournament."""
    limit = identical_list_limit(players)
    groups: dict[tuple[str, str], list] = defaultdict(list)
    shown: dict[tuple[str, str], str] = {}
    for entry, pool, number in lists:
        key = (pool, army_number_key(number))
        if not key[1]:
            continue
        groups[key].append(entry)
        shown.setdefault(key, number.strip())
    return [IdenticalLists(key[0], shown[key], tuple(entries), limit)
            for key, entries in sorted(groups.items()) if len(entries) > limit]
