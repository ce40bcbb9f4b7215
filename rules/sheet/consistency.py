"""The sheet checked against itself: the games with each other and with the players, and the charter's
conditions. Asked only once both Players and Games were read (rules.sheet.reading).

Terms
-----
spare
    The player with ID 99 who plays against the odd player of a pool (charter App. 2 §2.b). It is listed in
    Players like everyone who plays, but one spare may serve every pool, so its pool and club are ignored: it is
    exempt from the pool, club and "meeting twice" checks, and plays once a round per pool.
a game's pool
    The pool of its first player who is listed and not the spare (casefolded), or none.
ranked player
    A player of the sheet other than the spare who appears in at least one game (charter App. 1 §3 counts
    players who played).
last round
    The tournament's Rounds value (or the highest round of the Games sheet when Rounds is unreadable): free
    games are allowed only there (charter App. 2 §5).
"""

from __future__ import annotations

from rules.charter import CharterEntrant, charter_failures, club_key, club_round
from rules.sheet.checks import free_game_faults, same_player_faults
from rules.sheet.format import SPARE
from rules.sheet.parsed import SheetGame, SheetPlayer
from rules.sheet.reading import Reading


def check_games(reading: Reading) -> None:
    sheet = "Games"
    columns = reading.game_columns
    players = reading.players
    rounds = reading.fields.get("rounds")
    last_round = rounds if isinstance(rounds, int) else max((g.round for g in reading.games), default=0)
    # Rounds unknown (reported elsewhere): round 1 alone is a club round whatever R.
    known_rounds = rounds if isinstance(rounds, int) else 0
    seen_in_round: dict[tuple[int, str, str], int] = {}  # (round, key, pool of a spare's game) -> row
    met: dict[frozenset[str], int] = {}
    for game in reading.games:
        a_cell, b_cell = f"{columns['a']}{game.row}", f"{columns['b']}{game.row}"
        listed = True
        for key, place in ((game.a, a_cell), (game.b, b_cell)):
            # The spare too: every player of a game is registered in the tournament, 99 included.
            if key not in players:
                reading.error("not_in_players", sheet, place, key=key)
                listed = False
        if not reading.faults(same_player_faults(a=game.a, b=game.b), sheet, lambda _field, b_cell=b_cell: b_cell):
            continue
        pool = game_pool(players, game)
        for key, place in ((game.a, a_cell), (game.b, b_cell)):
            # One spare may serve every pool (all use ID 99), so it is once per round *per pool*.
            slot = (game.round, key, pool if key == SPARE else "")
            if slot in seen_in_round:
                reading.error(
                    "player_twice_in_round",
                    sheet,
                    place,
                    key=key,
                    round=game.round,
                    first_row=seen_in_round[slot],
                )
            else:
                seen_in_round[slot] = game.row
        if not listed:
            continue
        # The spare has no pool and no club: it is left out of both checks.
        a = players.get(game.a) if game.a != SPARE else None
        b = players.get(game.b) if game.b != SPARE else None
        if a is not None and b is not None:
            if a.pool.casefold() != b.pool.casefold():
                reading.error(
                    "different_pools", sheet, b_cell, a=a.key, pool_a=a.pool, b=b.key, pool_b=b.pool
                )
            if club_round(game.round, known_rounds) and club_key(a.club) and club_key(a.club) == club_key(b.club):
                reading.warning(
                    "same_club_pairing", sheet, b_cell, a=a.key, b=b.key, club=a.club, round=game.round
                )
        if SPARE not in (game.a, game.b):
            pair = frozenset((game.a, game.b))
            if pair in met:
                reading.error("players_met_twice", sheet, a_cell, a=game.a, b=game.b, first_row=met[pair])
            else:
                met[pair] = game.row
    for game in reading.games:
        place = f"{columns.get('free', columns['round'])}{game.row}"
        reading.faults(
            free_game_faults(free=game.free, round_number=game.round, last_round=last_round),
            sheet,
            lambda _field, place=place: place,
        )


def game_pool(players: dict[str, SheetPlayer], game: SheetGame) -> str:
    for key in (game.a, game.b):
        player = players.get(key)
        if key != SPARE and player is not None:
            return player.pool.casefold()
    return ""


def check_players_play(reading: Reading) -> None:
    playing = {key for game in reading.games for key in (game.a, game.b)}
    for player in reading.players.values():
        if player.key != SPARE and player.key not in playing:
            reading.warning(
                "player_without_game",
                "Players",
                f"{reading.player_columns['id']}{player.row}",
                key=player.key,
            )


def check_charter(reading: Reading) -> None:
    """The charter's conditions (App. 1 §3-4) as warnings. They decide whether an AdlG tournament counts
    for the championship, which Battle Empire does not have, so they are checked for AdlG only."""
    if reading.fields.get("rating_system") != "adlg":
        return
    playing = {key for game in reading.games for key in (game.a, game.b)}
    ranked = [p for p in reading.players.values() if p.key != SPARE and p.key in playing]
    rounds_by_pool: dict[str, set[int]] = {p.pool: set() for p in ranked}
    spellings = {p.pool.casefold(): p.pool for p in ranked}
    for game in reading.games:
        pool = spellings.get(game_pool(reading.players, game))
        if pool is not None and not game.free:
            rounds_by_pool[pool].add(game.round)
    # One club however its name is cased or spaced: the first spelling met stands for all.
    clubs: dict[str, str] = {}
    entrants = [
        CharterEntrant(
            # A tag has no ID yet: it stands as -k for Nk, an ID the federation never gives.
            player=p.player_id if p.player_id is not None else -int(p.key[1:]),
            club=clubs.setdefault(club_key(p.club), p.club) if p.club else None,
            pool=p.pool,
        )
        for p in ranked
    ]
    failures = charter_failures(
        official=bool(reading.fields.get("official", True)),
        entrants=entrants,
        rounds_by_pool={pool: len(rounds) for pool, rounds in rounds_by_pool.items()},
    )
    for failure in failures:
        place = {"not_official": "official", "too_few_rounds": "rounds"}.get(failure.code)
        cell = reading.tournament_cells.get(place, "") if place else ""
        reading.warning(failure.code, "Tournament", cell, **dict(failure.params))
