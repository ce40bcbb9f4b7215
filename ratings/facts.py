"""Read the stored facts of one rating system into the engine's plain values, in a handful of bulk queries."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date

from django.db.models import Min, Q

from players.models import SPARE_ID, OpeningBalance, Player
from ratings.engine import Game, Opening, Tournament
from ratings.models import ClosedYear, RatingSystem
from tournaments.models import Game as GameRow
from tournaments.models import Registration
from tournaments.models import Tournament as TournamentRow


@dataclass
class TournamentInfo:
    """What the standings and the championship need beyond the engine's Tournament."""

    id: int
    name: str
    start: date
    end: date
    country: str
    official: bool
    worlds: bool
    rounds: int
    counts_override: bool | None
    registrations: list[tuple] = field(default_factory=list)  # (player, pool, penalty, club_id)
    games: list[tuple] = field(default_factory=list)  # (id, round, table, a, b, result, a_loss, b_loss, free)


@dataclass
class Facts:
    system: RatingSystem
    tournaments: list[Tournament]
    info: dict[int, TournamentInfo]
    openings: list[Opening]
    closed_years: list[int]
    excluded: frozenset[int]
    player_country: dict[int, str | None]
    player_club: dict[int, int | None]


def facts_load(*, system: RatingSystem, since: date | None = None) -> Facts:
    """Every fact the replay of `system` needs; with `since`, only the tournaments ending on or after it."""
    tournaments_qs = TournamentRow.objects.filter(system=system).exclude(status=TournamentRow.REGISTERED)
    if since is not None:
        tournaments_qs = tournaments_qs.filter(end_date__gte=since)
    rows = tournaments_qs.values_list(
        "id", "name", "start_date", "end_date", "country_id", "official", "worlds", "rounds", "counts_override"
    )
    info = {
        tid: TournamentInfo(tid, name, start, end, country, official, worlds, rounds, override)
        for tid, name, start, end, country, official, worlds, rounds, override in rows
    }
    game_filter = Q(tournament__system=system) & ~Q(tournament__status=TournamentRow.REGISTERED)
    if since is not None:
        game_filter &= Q(tournament__end_date__gte=since)
    games_by_tournament: dict[int, list[Game]] = defaultdict(list)
    for gid, tid, rnd, table, a, b, result, a_loss, b_loss, free in (
        GameRow.objects.filter(game_filter)
        .order_by()
        .values_list("id", "tournament_id", "round", "table", "player_a_id", "player_b_id", "result",
                     "a_losses", "b_losses", "free")
        .iterator(chunk_size=20000)
    ):
        games_by_tournament[tid].append(Game(gid, rnd, table, a, b, result, free))
        info[tid].games.append((gid, rnd, table, a, b, result, a_loss, b_loss, free))
    registration_filter = Q(tournament__system=system) & ~Q(tournament__status=TournamentRow.REGISTERED)
    if since is not None:
        registration_filter &= Q(tournament__end_date__gte=since)
    players_by_tournament: dict[int, list[int]] = defaultdict(list)
    for tid, player, pool, penalty, club in (
        Registration.objects.filter(registration_filter)
        .order_by()
        .values_list("tournament_id", "player_id", "pool", "penalty", "club_id")
        .iterator(chunk_size=20000)
    ):
        players_by_tournament[tid].append(player)
        info[tid].registrations.append((player, pool, penalty, club))
    tournaments = [
        Tournament(
            id=t.id, start=t.start, end=t.end, official=t.official,
            games=games_by_tournament.get(t.id, ()), players=players_by_tournament.get(t.id, ()),
        )
        for t in info.values()
    ]
    openings = [
        Opening(player, rating, games, as_of)
        for player, rating, games, as_of in OpeningBalance.objects.filter(system=system).values_list(
            "player_id", "rating", "games", "as_of"
        )
    ]
    excluded = frozenset(Player.objects.filter(excluded_at__isnull=False).values_list("id", flat=True))
    people = Player.objects.exclude(pk=SPARE_ID).values_list("id", "country_id", "club_id")
    return Facts(
        system=system,
        tournaments=tournaments,
        info=info,
        openings=openings,
        closed_years=sorted(ClosedYear.objects.filter(system=system).values_list("year", flat=True)),
        excluded=excluded,
        player_country={pid: country for pid, country, _ in people},
        player_club={pid: club for pid, _, club in people},
    )


def earliest_tournament_end(*, system: RatingSystem, player_id: int) -> date | None:
    """The end date of the first tournament of `system` the player took part in (where their replay starts)."""
    return (
        TournamentRow.objects.filter(system=system)
        .filter(Q(games__player_a_id=player_id) | Q(games__player_b_id=player_id)
                | Q(registrations__player_id=player_id))
        .aggregate(first=Min("end_date"))["first"]
    )
