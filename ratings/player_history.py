"""A player's history, as the player page shows it: in each rating system their rating, rank and next rank, the
tournaments they played with the rating before and after, every rated game and adjustment; the head-to-head
record against an opponent; their championship results by year with the terms of each.

Terms
-----
event
    A RatingEvent: one rated game or one inactivity adjustment of the player, in history order (seq).
result letter
    W, D or L from the player's side, read from the result value S of the event: above 0.5 a win
    (Battle Empire wins are worth 1, 1.25 or 1.5), 0.5 a draw (a double demoralisation too), below a loss.
head-to-head
    The rated games of two players against each other, in every system, and the W/D/L record they make.
opening balance
    The rating and game count a player migrated from the former site started from (RULES.md §2): the first line
    of their history here, so that the games listed and the games counted agree.
championship terms
    What a championship result is made of (rules.championship.ChampionshipTerms): the placing points from
    the rank R among N, plus the score points from the score S over T rounds.

A profile is read in a fixed number of queries (see `player_profile`), whatever the length of the history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.db.models import Count

from championship.models import ChampionshipResult, ChampionshipTotal
from players.models import SPARE_ID, OpeningBalance, Player
from players.selectors import is_public
from ratings.models import PlayerRating, RatingEvent, RatingSystem
from ratings.positions import with_positions
from ratings.selectors import rank_by_code
from rules.championship import championship_terms
from rules.ranks import NextRank, next_rank
from rules.rulesets import Rank, Ruleset
from tournaments.models import Standing, Tournament


def result_letter(score: float | None) -> str:
    if score is None:
        return ""
    if score > 0.5:
        return "W"
    return "D" if score == 0.5 else "L"


@dataclass
class GameRow:
    event: RatingEvent
    system: RatingSystem
    letter: str
    opponent_public: bool

    @property
    def opponent(self) -> Player | None:
        return self.event.opponent

    @property
    def opponent_is_spare(self) -> bool:
        return self.event.opponent_id == SPARE_ID


@dataclass
class TournamentRow:
    tournament: Tournament
    rating_before: int
    rating_after: int
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    standing: Standing | None = None

    @property
    def change(self) -> int:
        return self.rating_after - self.rating_before


@dataclass
class SystemSection:
    """The player in one rating system."""

    system: RatingSystem
    ruleset: Ruleset
    rating: PlayerRating | None
    rank: Rank | None
    next_rank: NextRank | None
    events: list[RatingEvent] = field(default_factory=list)
    tournaments: list[TournamentRow] = field(default_factory=list)
    games: list[GameRow] = field(default_factory=list)
    adjustments: list[RatingEvent] = field(default_factory=list)
    opening: OpeningBalance | None = None

    @property
    def games_here(self) -> int:
        """Rated games played since the opening balance (all of them without one)."""
        total = self.rating.games if self.rating is not None else len(self.games)
        return total - (self.opening.games if self.opening is not None else 0)


@dataclass
class ChampionshipYear:
    year: int
    total: ChampionshipTotal | None
    results: list[ChampionshipResult]  # each with .terms: ChampionshipTerms, or None without its standing


@dataclass
class HeadToHead:
    opponent: Player
    games: list[GameRow]

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.letter == "W")

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.letter == "D")

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games if g.letter == "L")


@dataclass
class PlayerProfile:
    player: Player
    sections: list[SystemSection]
    championship: list[ChampionshipYear]

    def all_games(self) -> list[GameRow]:
        return [game for section in self.sections for game in section.games]

    def opponents(self) -> list[Player]:
        """The public players met in rated games, by name: the choices of the head-to-head form."""
        met = {g.event.opponent_id: g.event.opponent for g in self.all_games() if g.opponent_public}
        return sorted(met.values(), key=lambda p: (p.last_name.lower(), p.first_name.lower(), p.id))

    def head_to_head(self, opponent_id: int) -> HeadToHead | None:
        games = [g for g in self.all_games() if g.opponent_public and g.event.opponent_id == opponent_id]
        if not games:
            return None
        games.sort(key=lambda g: (g.event.date, g.system.position, g.event.seq))
        return HeadToHead(opponent=games[0].event.opponent, games=games)


def player_profile(*, player: Player) -> PlayerProfile:
    """Everything the player page shows, in nine queries whatever the history's length."""
    systems = list(RatingSystem.objects.all())
    ratings = {r.system_id: r for r in with_positions(PlayerRating.objects.filter(player=player))}
    events = list(
        RatingEvent.objects.filter(player=player)
        .select_related("tournament", "opponent", "game")
        .order_by("seq", "id")
    )
    standings = {s.tournament_id: s for s in Standing.objects.filter(player=player)}
    openings = {o.system_id: o for o in OpeningBalance.objects.filter(player=player)}
    sections = []
    for system in systems:
        own_events = [e for e in events if e.system_id == system.code]
        rating = ratings.get(system.code)
        if rating is None and not own_events:
            continue
        sections.append(_section(system, rating, own_events, standings, openings.get(system.code)))
    return PlayerProfile(player=player, sections=sections,
                         championship=player_championship(player=player, standings=standings))


def _section(system: RatingSystem, rating: PlayerRating | None, events: list[RatingEvent],
             standings: dict[int, Standing], opening: OpeningBalance | None = None) -> SystemSection:
    ruleset = system.get_ruleset()
    rank = nxt = None
    if rating is not None:
        rank = rank_by_code(ruleset, rating.rank_code)
        nxt = next_rank(ruleset, rating.rating, rating.games)
    section = SystemSection(system=system, ruleset=ruleset, rating=rating, rank=rank, next_rank=nxt, events=events,
                            opening=opening)
    by_tournament: dict[int, TournamentRow] = {}
    for event in events:
        if event.kind == RatingEvent.ADJUSTMENT:
            section.adjustments.append(event)
            continue
        letter = result_letter(event.score)
        section.games.append(GameRow(event=event, system=system, letter=letter,
                                     opponent_public=is_public(event.opponent)))
        if event.tournament is None:
            continue  # an adjustment, or a tournament deleted a moment ago (the replay it requested removes these)
        row = by_tournament.get(event.tournament_id)
        if row is None:
            row = by_tournament[event.tournament_id] = TournamentRow(
                tournament=event.tournament, rating_before=event.rating_before, rating_after=event.rating_after,
                standing=standings.get(event.tournament_id))
        row.rating_after = event.rating_after
        row.games += 1
        row.wins += letter == "W"
        row.draws += letter == "D"
        row.losses += letter == "L"
    # Newest first: what a player looks for is their latest tournament and game.
    section.tournaments = list(reversed(by_tournament.values()))
    section.games.reverse()
    section.adjustments.reverse()
    return section


def player_championship(*, player: Player, standings: dict[int, Standing] | None = None) -> list[ChampionshipYear]:
    """The player's championship results by year, newest first, each marked counted (best four) or dropped, with
    the terms of its formula (from the player's standings, read here unless given, and one grouped count of
    the pools' ranked players)."""
    totals = {t.year: t for t in ChampionshipTotal.objects.filter(player=player)}
    found = list(ChampionshipResult.objects.filter(player=player).select_related("tournament")
                 .order_by("-year", "-points", "tournament__end_date"))
    if standings is None:
        standings = {s.tournament_id: s for s in Standing.objects.filter(player=player)}
    sizes = {}
    if found:
        sizes = {(row["tournament_id"], row["pool"]): row["n"] for row in (
            Standing.objects.filter(tournament_id__in=[r.tournament_id for r in found])
            .values("tournament_id", "pool").annotate(n=Count("id")).order_by())}
    results: dict[int, list[ChampionshipResult]] = {}
    for result in found:
        standing = standings.get(result.tournament_id)
        result.terms = None  # the standing it came from is gone: a replay is on its way
        if standing is not None:
            result.terms = championship_terms(players=sizes.get((result.tournament_id, standing.pool), 0),
                                       rounds=result.tournament.rounds, rank=standing.rank, score=standing.score,
                                       games=standing.games, worlds=result.tournament.worlds)
        results.setdefault(result.year, []).append(result)
    years = sorted(set(totals) | set(results), reverse=True)
    return [ChampionshipYear(year=y, total=totals.get(y), results=results.get(y, [])) for y in years]


def last_event_date(section: SystemSection) -> date | None:
    return section.events[-1].date if section.events else None
