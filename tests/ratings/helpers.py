"""A small federation for the service tests, built through the real entry points."""

from __future__ import annotations

from datetime import date, timedelta

from championship.models import ChampionshipResult, ChampionshipTotal
from players.services import players_import_csv
from ratings.models import PlayerRating, RatingCount, RatingEvent
from tests.sheets.builders import SheetBuilder
from tournaments.models import Standing, TournamentOutcome
from tournaments.sheets.services import sheet_import_bytes

ROSTER = """id,last_name,first_name,club,country,rating,games,as_of
101,Martin,Paul,Alpha,FR,1350,40,2019-12-31
102,Bernard,Luc,Alpha,FR,,,
103,Dubois,Marc,Alpha,FR,,,
104,Smith,John,Beta,GB,1200,25,2019-12-31
105,Jones,Alan,Beta,GB,,,
106,Brown,Ian,Beta,GB,,,
107,Garcia,Ana,Gamma,ES,,,
108,Lopez,Juan,Gamma,ES,,,
201,Rossi,Marco,Alpha,IT,,,
202,Weber,Hans,Beta,DE,,,
203,Silva,Rui,Gamma,PT,,,
"""


def roster() -> None:
    players_import_csv(text=ROSTER)


def sheet(*, name: str, start: date, two_pools: bool = False, tournament_id: int | None = None,
          new_players: dict | None = None, first_game: tuple[str, int, int] | None = None) -> bytes:
    """The builders' valid sheet, renamed and dated; its tags N1/N2 are replaced by known IDs when given;
    `first_game`: another result, A losses and B losses for its first game (101 against 104 in round 1)."""
    builder = SheetBuilder.valid(two_pools=two_pools)
    if first_game is not None:
        for header, value in zip(("Result", "A losses %", "B losses %"), first_game, strict=True):
            builder.set_game(0, header, value)
    builder.set("Name", name).set("Start date", start).set("End date", start + timedelta(days=1))
    if tournament_id is not None:
        builder.set("Tournament ID", tournament_id)
    for tag, pid in (new_players or {}).items():
        for row in builder.players:
            if row[0] == tag:
                row[0] = pid
        for row in builder.games:
            row[2] = pid if row[2] == tag else row[2]
            row[3] = pid if row[3] == tag else row[3]
    return builder.build()


def imported(data: bytes, name: str = "sheet.xlsx"):
    outcome = sheet_import_bytes(data=data, file_name=name)
    assert outcome.ok, outcome.report.as_dict()
    return outcome


def derived_state() -> dict:
    """Every derived row, without surrogate keys, so two replays can be compared exactly."""
    return {
        "events": list(RatingEvent.objects.order_by("system_id", "seq").values_list(
            "system_id", "player_id", "seq", "kind", "date", "tournament_id", "game_id", "opponent_id", "year",
            "rating_before", "rating_after", "change", "games_before", "opponent_rating", "k", "expected",
            "score", "last_played_before")),
        "ratings": list(PlayerRating.objects.order_by("system_id", "player_id").values_list(
            "system_id", "player_id", "rating", "games", "rank_code", "last_played")),
        "counts": list(RatingCount.objects.order_by("system_id", "rating").values_list(
            "system_id", "rating", "players")),
        "standings": list(Standing.objects.order_by("tournament_id", "player_id").values_list(
            "tournament_id", "pool", "rank", "player_id", "score", "opponents_score", "penalty", "wins", "draws",
            "losses", "games", "tiebreak", "rating_before", "rating_after", "performance")),
        "outcomes": list(TournamentOutcome.objects.order_by("tournament_id").values_list(
            "tournament_id", "average_rating", "ranked_players", "rated_games", "charter_failures", "counts")),
        "results": list(ChampionshipResult.objects.order_by("tournament_id", "player_id").values_list(
            "tournament_id", "player_id", "year", "points", "counted")),
        "totals": list(ChampionshipTotal.objects.order_by("year", "player_id").values_list(
            "year", "player_id", "total", "results", "rank", "international", "international_rank", "country_id")),
    }
