"""What importing a checked result sheet would change, shown to the referee before they confirm. Writes nothing.

Terms:
- *before*: a player's rating and rated games before the tournament, from the stored history: the state the
  replay service keeps for each player (ratings.selectors.ratings_at, events dated before the tournament
  starts), else the player's opening balance (a rating migrated from the old site), else the ruleset's
  initial rating for a player new to this rating system (every player added by the sheet).
- *after*: the same after the engine (rules.history.replay) has rated this tournament's games alone, the way
  the replay will. Tournaments that end while this one is played, or a year closed since, may still move the
  published values by a point or two: the preview says so.
- *new player*: a row of the Players sheet with a tag (``N1``, ``N2``…) instead of a federation ID; the real
  ID is given on import. Until then the engine knows them by a negative stand-in ID.
"""

from __future__ import annotations

from dataclasses import dataclass

from players.models import SPARE_ID, OpeningBalance, Player
from ratings.models import RatingSystem
from ratings.selectors import ratings_at
from rules.facts import Entrant, Game, Opening, Tournament
from rules.history import replay
from rules.sheet.parsed import ParsedSheet, SheetTournament
from tournaments.models import Tournament as TournamentRow


@dataclass(frozen=True)
class PlayerChange:
    key: str  # as in the sheet: '123', or a tag 'N1'
    player_id: int | None  # None for a player new to the federation
    last_name: str
    first_name: str
    club: str | None
    pool: str
    rating_before: int
    rating_after: int
    games_before: int  # rated games before the tournament
    rated_games: int  # rated games in this tournament

    @property
    def new(self) -> bool:
        return self.player_id is None

    @property
    def change(self) -> int:
        return self.rating_after - self.rating_before


@dataclass(frozen=True)
class Preview:
    tournament: SheetTournament
    system_name: str
    games: int  # rows of the Games sheet
    rated_games: int  # games the engine rates (forfeits and unofficial tournaments are not rated)
    players: list[PlayerChange]  # by pool, then rating after (highest first)
    # A correction (the sheet carries a Tournament ID): what the site holds now and the sheet replaces.
    replaces: TournamentRow | None = None
    replaced_games: int = 0
    replaced_players: int = 0

    @property
    def fills_calendar(self) -> bool:
        """The sheet names a tournament of the calendar that has no results yet: it gives them, it corrects
        nothing (the referee's pre-filled sheet, or a published live day sent again after a withdrawal)."""
        return self.replaces is not None and self.replaces.status == TournamentRow.REGISTERED

    @property
    def new_players(self) -> list[PlayerChange]:
        return [p for p in self.players if p.new]

    @property
    def known_players(self) -> list[PlayerChange]:
        return [p for p in self.players if not p.new]


def _engine_ids(parsed: ParsedSheet) -> dict[str, int]:
    """Sheet key -> the ID the engine rates: the federation ID, or a negative stand-in for a tag."""
    ids: dict[str, int] = {}
    for number, player in enumerate(parsed.players, start=1):
        ids[player.key] = player.player_id if player.player_id is not None else -number
    return ids


def sheet_preview(parsed: ParsedSheet) -> Preview:
    """The preview of a sheet whose report is ok (parsed.tournament is set)."""
    info = parsed.tournament
    if info is None:
        raise ValueError("only a sheet whose report is ok can be previewed")
    system = RatingSystem.objects.get(code=info.rating_system)
    ruleset = system.get_ruleset()
    replaces = None
    replaced_games = replaced_players = 0
    since = info.start
    if info.tournament_id is not None:
        replaces = TournamentRow.objects.filter(pk=info.tournament_id).first()
        if replaces is not None:
            # The corrected tournament's own events are dated its (old) end: leave them out of "before".
            since = min(since, replaces.start_date)
            replaced_games = replaces.games.count()
            replaced_players = replaces.registrations.count()
    ids = _engine_ids(parsed)
    known_ids = {pid for pid in ids.values() if pid > 0 and pid != SPARE_ID}
    start_state = ratings_at(system, since, players=known_ids)
    openings = [
        Opening(player, rating, games, as_of)
        for player, rating, games, as_of in OpeningBalance.objects.filter(
            system=system, player_id__in=known_ids
        ).values_list("player_id", "rating", "games", "as_of")
    ]
    tournament = Tournament(
        id=info.tournament_id or 0,
        start=info.start,
        end=info.end,
        official=info.official,
        games=[
            Game(number, g.round, g.table, ids[g.a], ids[g.b], g.result, free=g.free)
            for number, g in enumerate(parsed.games, start=1)
        ],
        entrants=[Entrant(pid) for pid in ids.values() if pid != SPARE_ID],
    )
    history = replay(ruleset, tournaments=[tournament], openings=openings, start_state=start_state)
    before = history.pre_tournament.get(tournament.id, {})
    site = {p.id: p for p in Player.objects.filter(id__in=known_ids).select_related("club")}
    changes = []
    for player in parsed.players:
        pid = ids[player.key]
        if pid == SPARE_ID:
            continue
        rating_before, games_before = before.get(pid, (ruleset.initial_rating, 0))
        final = history.final.get(pid)
        known = site.get(pid)
        changes.append(
            PlayerChange(
                key=player.key,
                player_id=player.player_id,
                last_name=known.last_name if known else player.last_name,
                first_name=known.first_name if known else player.first_name,
                club=player.club,
                pool=player.pool,
                rating_before=rating_before,
                rating_after=final.rating if final else rating_before,
                games_before=games_before,
                rated_games=(final.games - games_before) if final else 0,
            )
        )
    changes.sort(key=lambda c: (c.pool, -c.rating_after, c.last_name.casefold(), c.key))
    return Preview(
        tournament=info,
        system_name=system.name,
        games=len(parsed.games),
        rated_games=len({e.game for e in history.events if e.game is not None}),
        players=changes,
        replaces=replaces,
        replaced_games=replaced_games,
        replaced_players=replaced_players,
    )
