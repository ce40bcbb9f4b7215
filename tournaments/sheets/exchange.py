"""A tournament of the site in the exchange format (docs/exchange.md): the facts its result sheet gave, as JSON, for
another federation's site or a referee's other tool. Read back (rules.exchange), it gives the same tournament.

A tournament is exported once it has results (any status but registered). An excluded player leaves it, with his
games, as he leaves every public page (his games are void); everything else is what the public page shows.
"""

from __future__ import annotations

from typing import Any

from players.models import Player
from rules.exchange import exchange_document
from rules.sheet.parsed import SheetGame, SheetPlayer, SheetTournament
from tournaments.models import Game, Registration, Tournament


def exchange_file_name(tournament_id: int) -> str:
    return f"tournament-{tournament_id}.json"


def tournament_exchange(*, tournament_id: int, source: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The document of a tournament with results, or None (no such tournament, or no results yet). Three queries."""
    tournament = (
        Tournament.objects.select_related("organising_club").exclude(status=Tournament.REGISTERED)
        .filter(pk=tournament_id).first()
    )
    if tournament is None:
        return None
    registrations = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player", "club").order_by("row", "id")
    )
    excluded = {r.player_id for r in registrations if r.player.excluded_at is not None}
    games = list(
        Game.objects.filter(tournament=tournament).order_by("round", "table", "id")
        .values_list("round", "table", "player_a_id", "player_b_id", "result", "a_losses", "b_losses", "free")
    )
    players = [_player(r, index) for index, r in enumerate(registrations, start=2) if r.player_id not in excluded]
    return exchange_document(
        tournament=SheetTournament(
            tournament_id=tournament.pk, name=tournament.name, rating_system=tournament.system_id,
            start=tournament.start_date, end=tournament.end_date, city=tournament.city,
            country=tournament.country_id,
            organising_club=tournament.organising_club.name if tournament.organising_club else None,
            # A tournament the site knows without its referee's name: null, which the schema allows in an export.
            referee=tournament.referee_name or None,  # type: ignore[arg-type]
            army_points=tournament.army_points, rounds=tournament.rounds,
            worlds=tournament.worlds, official=tournament.official,
        ),
        players=players,
        games=[
            SheetGame(row=0, round=rnd, table=table, a=str(a), b=str(b), result=result, a_losses=a_losses,
                      b_losses=b_losses, free=free)
            for rnd, table, a, b, result, a_losses, b_losses, free in games
            if a not in excluded and b not in excluded
        ],
        source=source,
    )


def _player(registration: Registration, row: int) -> SheetPlayer:
    player: Player = registration.player
    return SheetPlayer(
        row=row, key=str(player.pk), player_id=player.pk, last_name=player.last_name,
        first_name=player.first_name, club=registration.club.name if registration.club else None,
        country=player.country_id, pool=registration.pool or "A", army=registration.army or None,
        penalty=registration.penalty, penalty_reason=registration.penalty_reason or None,
    )
