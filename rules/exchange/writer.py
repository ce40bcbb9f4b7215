"""Writes a tournament in the exchange format (docs/exchange.md) from the facts the result sheet's reader gives,
so that reading what was written gives the same facts back (tests/exchange hold the two to it).

Terms
-----
player reference
    A federation ID as a number (the spare's 99 too), or a new player's tag (``"N1"``) as text: what the Players
    sheet's ID column holds.
source
    Who wrote the document: free to the writer, ignored by the reader. The site writes its address, the
    tournament's page and the time of the export.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.exchange.layout import iso
from rules.exchange.reader import EXCHANGE_FORMAT
from rules.sheet.parsed import SheetGame, SheetPlayer, SheetTournament


def player_reference(key: str) -> int | str:
    return key if key.startswith("N") else int(key)


def exchange_document(*, tournament: SheetTournament, players: Iterable[SheetPlayer], games: Iterable[SheetGame],
                      source: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The document of one tournament: players in the order given, games by round and table."""
    document: dict[str, Any] = {"format": EXCHANGE_FORMAT}
    if source:
        document["source"] = dict(source)
    document["tournament"] = {
        "id": tournament.tournament_id,
        "name": tournament.name,
        "rating_system": tournament.rating_system,
        "start": iso(tournament.start),
        "end": iso(tournament.end),
        "city": tournament.city,
        "country": tournament.country,
        "organising_club": tournament.organising_club,
        "referee": tournament.referee,
        "army_points": tournament.army_points,
        "rounds": tournament.rounds,
        "worlds": tournament.worlds,
        "official": tournament.official,
    }
    document["players"] = [
        {
            "id": player_reference(player.key),
            "last_name": player.last_name or None,
            "first_name": player.first_name or None,
            "club": player.club,
            "country": player.country,
            "pool": player.pool,
            "army": player.army,
            "penalty": player.penalty,
            "penalty_reason": player.penalty_reason,
        }
        for player in players
    ]
    document["games"] = [
        {
            "round": game.round,
            "table": game.table,
            "a": player_reference(game.a),
            "b": player_reference(game.b),
            "result": game.result,
            "a_losses": game.a_losses,
            "b_losses": game.b_losses,
            "free": game.free,
        }
        for game in sorted(games, key=lambda g: (g.round, g.table))
    ]
    return document
