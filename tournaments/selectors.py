"""Reads of the public tournament pages: the list by year and country, and one tournament in full.

Terms
-----
status
    registered (announced, no results yet), received (a result sheet is in, ratings not yet updated), rated.
counts
    Whether the tournament counts for the championship: the board's override when it gave one
    (Tournament.counts_override, with its public reason), else the replay's conclusion (TournamentOutcome.counts,
    with the charter conditions that failed in TournamentOutcome.charter_failures).
cross-table
    Per pool, one row per ranked player and one column per round: the opponent (by rank in the pool), the result
    and the game score, worked out from the tournament's games by the scoring rules when the page is read (a
    few hundred games: nothing worth storing for every tournament of a replay).
tie-break
    Standing.tiebreak: what separated the player from the one ranked just below (RULES.md §6), in words.
championship applies
    Only L'Art de la Guerre tournaments count for the championship (charter App. 6): a Battle Empire tournament
    never counts, whatever its charter conditions or a board decision, and its page says so.
void game
    A game of a player excluded since: it counts for no one. The cross-table marks the round of the other player
    (never naming the excluded one).

A tournament page is read in a fixed number of queries (see `tournament_detail`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from adlg_site.words import say
from championship.models import ChampionshipResult
from players import permissions
from players.models import SPARE_ID, Country, Player
from players.selectors import person_name
from ratings.models import RatingEvent
from rules.championship import ChampionshipTerms, championship_terms
from rules.charter import (
    MIN_CLUBS,
    MIN_PLAYERS,
    CharterFailure,
    charter_failure_message,
    duration_words,
    game_minutes,
    minimum_rounds,
)
from rules.facts import Entrant
from rules.facts import Game as GameFact
from rules.scoring import game_scores
from rules.standings import RoundDetail
from rules.standings import standings as pool_standings
from tournaments.before import entries as entry_rules
from tournaments.before.army_lists import PublishedList, published_lists
from tournaments.before.entries import ListedEntry, entry_listing, entry_of
from tournaments.models import (
    AnnouncedPool,
    Announcement,
    Entry,
    Game,
    Registration,
    Standing,
    Tournament,
    TournamentOutcome,
)


def tournament_list(
    *,
    year: int | None = None,
    country: str | None = None,
    system: str | None = None,
    status: str | None = None,
    search: str | None = None,
) -> QuerySet[Tournament]:
    rows = Tournament.objects.select_related("country", "system", "outcome", "organising_club", "live")
    if year:
        rows = rows.filter(end_date__year=year)
    if country:
        rows = rows.filter(country_id=country.upper())
    if system:
        rows = rows.filter(system_id=system)
    if status:
        rows = rows.filter(status=status)
    if search:
        rows = rows.filter(Q(name__icontains=search) | Q(city__icontains=search))
    return rows.order_by("-end_date", "-start_date", "-id")


def results_on_site(tournament: Tournament) -> bool:
    """Whether a tournament's results are on the site (a sheet imported: status received or rated, or games). Such
    a tournament is never run live: a rated tournament is corrected by a new sheet (PAIRING.md §7)."""
    return tournament.status != Tournament.REGISTERED or tournament.games.exists()


def coming_first(tournaments, *, today: date | None = None) -> list:
    """A referee's tournaments as they look for them: those still to come or under way first, the nearest first;
    then those over, the latest first."""
    today = today or timezone.localdate()
    coming = sorted((t for t in tournaments if t.end_date >= today), key=lambda t: (t.start_date, t.pk))
    over = sorted((t for t in tournaments if t.end_date < today), key=lambda t: (t.start_date, t.pk), reverse=True)
    return coming + over


def without_results() -> Q:
    """The tournaments whose results are not on the site (see results_on_site), as a condition."""
    return Q(status=Tournament.REGISTERED) & Q(~Exists(Game.objects.filter(tournament=OuterRef("pk"))))


def tournament_years() -> list[int]:
    return sorted({d.year for d in Tournament.objects.dates("end_date", "year")}, reverse=True)


def tournament_countries() -> QuerySet[Country]:
    return Country.objects.filter(Exists(Tournament.objects.filter(country=OuterRef("pk"))))


def latest_rated_tournaments(*, limit: int = 8) -> list[Tournament]:
    return list(tournament_list(status=Tournament.RATED)[:limit])


def upcoming_tournaments(*, today: date | None = None, limit: int = 8) -> list[Tournament]:
    return list(
        Tournament.objects.filter(status=Tournament.REGISTERED, start_date__gt=today or date.today())
        .select_related("country", "system")
        .order_by("start_date", "id")[:limit]
    )


# --- words for codes ------------------------------------------------------------------------------------


def charter_failure_text(failure: object, language: str | None) -> str:
    """One item of TournamentOutcome.charter_failures ({"code", "params"}) as a sentence, worded by
    rules.charter; a code it does not know is shown as it is rather than breaking the page."""
    if isinstance(failure, CharterFailure):
        item = failure
    elif isinstance(failure, Mapping):
        item = CharterFailure(str(failure.get("code", "")), dict(failure.get("params") or {}))
    else:
        item = CharterFailure(str(failure))
    try:
        return say(charter_failure_message, item, lang=language)
    except (KeyError, TypeError, ValueError):
        return item.code.replace("_", " ")


def tiebreak_text(code: str) -> str:
    """What decided a place, in words (translated in the current language)."""
    words = {
        "": "—",  # the first of a pool: placed below no one
        "score": _("score"),
        "opponents": _("opponents' score"),
        "head_to_head": _("their game against each other"),
        "rating": _("lower rating before the tournament"),
        "id": _("lower ID"),
    }
    return words.get(code, code.replace("_", " "))


# --- the counts column ----------------------------------------------------------------------------------


def championship_applies(tournament: Tournament) -> bool:
    """Whether the tournament's game has a championship: L'Art de la Guerre's only (charter App. 6), as its
    ruleset says (rules.rulesets.Ruleset.championship)."""
    return tournament.system.get_ruleset().championship


@dataclass(frozen=True)
class CountsVerdict:
    """Whether a tournament counts for the championship, why, and who decided."""

    counts: bool | None  # None: not decided yet (no results)
    by_board: bool
    reasons: list[str]
    applies: bool = True  # False: the game has no championship (Battle Empire)


def counts_verdict(tournament: Tournament, language: str | None) -> CountsVerdict:
    if not championship_applies(tournament):
        return CountsVerdict(False, False, [_("Only L'Art de la Guerre tournaments count for the championship.")],
                             applies=False)
    if tournament.counts_override is not None:
        reason = tournament.override_reason.strip()
        return CountsVerdict(tournament.counts_override, True, [reason] if reason else [])
    outcome = _outcome(tournament)
    if outcome is None:
        if not tournament.official:
            return CountsVerdict(False, False, [charter_failure_text("not_official", language)])
        return CountsVerdict(None, False, [])
    reasons = [charter_failure_text(f, language) for f in outcome.charter_failures or []]
    return CountsVerdict(outcome.counts, False, reasons)


def _outcome(tournament: Tournament) -> TournamentOutcome | None:
    try:
        return tournament.outcome
    except TournamentOutcome.DoesNotExist:
        return None


# --- one tournament -------------------------------------------------------------------------------------


@dataclass
class Side:
    player: Player
    public: bool
    change: int | None = None

    @property
    def is_spare(self) -> bool:
        return self.player.id == SPARE_ID


@dataclass
class GameLine:
    game: Game
    a: Side
    b: Side


@dataclass
class CrossCell:
    round: int
    opponent_rank: int | None
    opponent: Player | None
    result: str
    letter: str
    score: float | None
    note: str = ""
    free: bool = False
    void: bool = False  # against a player excluded since: counts for no one (the opponent is not named)

    @property
    def spare(self) -> bool:
        return self.opponent is not None and self.opponent.id == SPARE_ID

    @property
    def forfeit(self) -> bool:
        return self.result.startswith("F")


@dataclass
class StandingLine:
    standing: Standing
    penalty_reason: str
    championship_points: object | None
    cells: list[CrossCell | None] = field(default_factory=list)
    terms: ChampionshipTerms | None = None  # the points' formula laid out, when the line has points

    @property
    def change(self) -> int | None:
        s = self.standing
        if s.rating_before is None or s.rating_after is None:
            return None
        return s.rating_after - s.rating_before


@dataclass
class Pool:
    name: str
    lines: list[StandingLine]
    rounds: list[int]


@dataclass
class BeforeTheTournament:
    """What the tournament's page shows before the day (charter App. 1 §12): the announcement, the entries as the
    viewer may see them (tournaments.before.entries), the viewer's own entry, and the army lists once published."""

    announcement: Announcement | None
    pools: list[AnnouncedPool]
    duration: str  # the games' duration in words ("2 h 30")
    charter_duration: bool  # the charter's duration for the army points (App. 1 §6)
    checker: str  # the list checker's name; "" when the referees check the lists or the checker has no name
    named_checker: bool  # the announcement names a list checker (their name may still be unknown: `checker` "")
    phase: str  # tournaments.before.entries: unannounced, open, closed, started
    entries: list[ListedEntry]
    my_entry: Entry | None
    published: list[PublishedList] | None
    can_check: bool  # the viewer is a referee, the list checker or the board


def before_the_tournament(*, tournament: Tournament, viewer=None, today: date | None = None
                          ) -> BeforeTheTournament | None:
    """The announcement and the entries of a tournament; None for one never announced that has started (an older
    tournament, or one whose sheet came without an announcement)."""
    today = today or timezone.localdate()
    announcement = entry_rules.announcement_of(tournament)
    if announcement is None and today >= tournament.start_date:
        return None
    pools, duration, charter, checker = [], "", False, ""
    if announcement is not None:
        pools = list(announcement.pool_themes.all())
        duration = duration_words(announcement.game_minutes)
        charter = announcement.game_minutes == game_minutes(tournament.army_points)
        if announcement.list_checker_id:
            # Neither a player's nor the account's name, and the page says "the list checker".
            checker = person_name(announcement.list_checker)
    return BeforeTheTournament(
        announcement=announcement, pools=pools, duration=duration, charter_duration=charter, checker=checker,
        named_checker=bool(announcement and announcement.list_checker_id),
        phase=entry_rules.entries_phase(tournament, today=today),
        entries=entry_listing(tournament=tournament, viewer=viewer, today=today),
        my_entry=entry_of(user=viewer, tournament=tournament) if viewer is not None else None,
        published=published_lists(tournament=tournament, today=today),
        can_check=viewer is not None and permissions.can_check_lists(viewer, tournament),
    )


@dataclass
class TournamentDetail:
    tournament: Tournament
    outcome: TournamentOutcome | None
    verdict: CountsVerdict
    pools: list[Pool]
    rounds: list[tuple[int, list[GameLine]]]
    charter_failures: list[str]
    scoring: str = "losses"  # the ruleset's scoring family: "losses" (App. 4 game scores) or "values"
    margins: bool = False  # whether wins come in margins (Battle Empire's A+, A++)
    before: BeforeTheTournament | None = None  # the announcement and the entries (App. 1 §12)

    @property
    def has_championship_points(self) -> bool:
        return any(line.championship_points is not None for pool in self.pools for line in pool.lines)


def tournament_detail(*, tournament_id: int, language: str | None, viewer=None,
                      today: date | None = None) -> TournamentDetail | None:
    """The whole tournament page in six queries, and its announcement and entries (`before_the_tournament`) as
    `viewer` may see them, when it has them."""
    tournament = (
        Tournament.objects.select_related("country", "system", "outcome", "organising_club", "live", "announcement")
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None:
        return None
    standings = list(
        Standing.objects.filter(tournament=tournament, player__in=Player.objects.public())
        .select_related("player__club", "player__country")
        .order_by("pool", "rank", "player_id")
    )
    registrations = {r.player_id: r for r in Registration.objects.filter(tournament=tournament)}
    games = list(
        Game.objects.filter(tournament=tournament)
        .select_related("player_a", "player_b")
        .order_by("round", "table", "id")
    )
    changes = {
        (game_id, player_id): change
        # Found by (system, date), the history's own index: a tournament's events bear its end date.
        for game_id, player_id, change in RatingEvent.objects.filter(
            system_id=tournament.system_id, date=tournament.end_date, tournament=tournament, kind=RatingEvent.GAME
        ).values_list("game_id", "player_id", "change")
    }
    points = dict(ChampionshipResult.objects.filter(tournament=tournament).values_list("player_id", "points"))
    players = {g.player_a_id: g.player_a for g in games} | {g.player_b_id: g.player_b for g in games}
    players.update({s.player_id: s.player for s in standings})
    void = {}  # player -> rounds of their games against a player excluded since
    for game in games:
        for me, other in ((game.player_a, game.player_b), (game.player_b, game.player_a)):
            if other.excluded_at is not None and me.excluded_at is None:
                void.setdefault(me.id, set()).add(game.round)
    pools = _pools(standings, registrations, points, players, _rounds_by_player(tournament, registrations, games),
                   void)
    for pool in pools:
        size = len(pool.lines)  # the pool's ranked players: the standings the replay wrote
        for line in pool.lines:
            if line.championship_points is not None:
                s = line.standing
                line.terms = championship_terms(players=size, rounds=tournament.rounds, rank=s.rank, score=s.score,
                                                games=s.games, worlds=tournament.worlds)
    rounds: dict[int, list[GameLine]] = {}
    for game in games:
        a, b = (
            _side(game.player_a, changes.get((game.id, game.player_a_id))),
            _side(game.player_b, changes.get((game.id, game.player_b_id))),
        )
        if game.player_a.excluded_at is not None or game.player_b.excluded_at is not None:
            continue  # an excluded player's games are void and never shown
        rounds.setdefault(game.round, []).append(GameLine(game=game, a=a, b=b))
    outcome = _outcome(tournament)
    failures = [
        charter_failure_text(f, language) for f in (outcome.charter_failures if outcome else []) or []
    ]
    return TournamentDetail(
        tournament=tournament,
        outcome=outcome,
        verdict=counts_verdict(tournament, language),
        pools=pools,
        rounds=sorted(rounds.items()),
        charter_failures=failures,
        scoring=tournament.system.get_ruleset().scoring,
        margins=any(code.endswith("+") for code in tournament.system.get_ruleset().result_codes),
        before=before_the_tournament(tournament=tournament, viewer=viewer, today=today),
    )


def _side(player: Player, change: int | None) -> Side:
    public = player.excluded_at is None and player.merged_into_id is None and player.id != SPARE_ID
    return Side(player=player, public=public, change=change)


def _rounds_by_player(tournament: Tournament, registrations: dict[int, Registration],
                      games: list[Game]) -> dict[int, tuple[RoundDetail, ...]]:
    """Each ranked player's rounds from their view, by the standings' rules, exactly as the replay ranked them."""
    excluded = {p.id for g in games for p in (g.player_a, g.player_b) if p.excluded_at is not None}
    entrants = [Entrant(r.player_id, r.pool, r.penalty) for r in registrations.values()]
    facts = [GameFact(g.id, g.round, g.table, g.player_a_id, g.player_b_id, g.result, g.a_losses, g.b_losses, g.free)
             for g in games]
    try:
        pools = pool_standings(tournament.system.get_ruleset(), entrants=entrants, games=facts, excluded=excluded)
    except ValueError:
        return {}  # games the sheet checks refuse (only by hand in the admin): no cross-table rather than a 500
    return {row.player: row.rounds for ranked in pools.values() for row in ranked}


def _pools(
    standings: list[Standing],
    registrations: dict[int, Registration],
    points: dict,
    players: dict[int, Player],
    rounds_of: dict[int, tuple[RoundDetail, ...]],
    void: dict[int, set[int]] | None = None,
) -> list[Pool]:
    void = void or {}
    by_pool: dict[str, list[Standing]] = {}
    for standing in standings:
        by_pool.setdefault(standing.pool, []).append(standing)
    pools = []
    for name, rows in by_pool.items():
        rank_of = {s.player_id: s.rank for s in rows}
        lines, rounds = [], set()
        for s in rows:
            registration = registrations.get(s.player_id)
            line = StandingLine(
                standing=s,
                penalty_reason=registration.penalty_reason if registration else "",
                championship_points=points.get(s.player_id),
            )
            for entry in rounds_of.get(s.player_id, ()):
                cell = _cell(entry, rank_of, players)
                if cell is not None:
                    line.cells.append(cell)
                    rounds.add(cell.round)
            for round_no in sorted(void.get(s.player_id, ())):
                line.cells.append(CrossCell(round=round_no, opponent_rank=None, opponent=None, result="", letter="",
                                            score=None, note=_("void game: the opponent was excluded"), void=True))
                rounds.add(round_no)
            lines.append(line)
        ordered = sorted(rounds)
        for line in lines:  # one cell per round of the pool, None where the player had no game
            by_round = {cell.round: cell for cell in line.cells}
            line.cells = [by_round.get(r) for r in ordered]
        pools.append(Pool(name=name, lines=lines, rounds=ordered))
    return pools


def _cell(entry: RoundDetail, rank_of: dict[int, int], players: dict[int, Player]) -> CrossCell | None:
    """One round of a player, the result seen from the player: W, L, D, DD, FW, FL, W+, W++, L+, L++."""
    round_no, opponent_id, result, score, free = entry.round, entry.opponent, entry.result, entry.score, entry.free
    opponent = players.get(opponent_id)
    if opponent is not None and opponent.excluded_at is not None:
        return None
    notes = []
    if free:
        notes.append(_("free game (counts for the rating only)"))
    if result.startswith("F"):
        notes.append(_("forfeit (not rated)"))
    return CrossCell(
        round=round_no,
        opponent_rank=rank_of.get(opponent_id),
        opponent=opponent,
        result=result,
        letter=_letter(result),
        score=score,
        note="; ".join(notes),
        free=bool(free),
    )


def _letter(result: str) -> str:
    """W, D or L for the colour of a cross-table cell."""
    code = result.lstrip("F")[:1].upper()
    return code if code in {"W", "D", "L"} else ""


# --- the rules page -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreExample:
    """One line of the App. 4 table on the rules page: a result with losses, and the scores the rules give."""

    result: str
    a_losses: int
    b_losses: int
    a: int
    b: int


def game_score_examples() -> list[ScoreExample]:
    """Worked examples of the AdlG game scores, each computed by rules.scoring (the replay's rules)."""
    cases = [("A", 0, 60), ("A", 23, 100), ("A", 100, 100), ("B", 45, 12), ("D", 20, 45), ("D", 60, 10),
             ("DD", 70, 70), ("FA", 0, 0)]
    return [ScoreExample(result, a_losses, b_losses, *game_scores(result, a_losses, b_losses))
            for result, a_losses, b_losses in cases]


def charter_rules() -> dict:
    """The charter's conditions for a tournament to count (App. 1), from the numbers the replay checks."""
    sizes = [(1, 15), (16, 31), (32, 63), (64, None)]
    return {
        "min_players": MIN_PLAYERS,
        "min_clubs": MIN_CLUBS,
        "rounds": [{"low": low, "high": high, "rounds": minimum_rounds(low)} for low, high in sizes],
    }
