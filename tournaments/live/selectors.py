"""What is read of a live tournament, by its pages (tournaments.live.referee_views and public_views), the read API
(tournaments.live.api) and the `live_*` commands: its rounds with their tables and names, and the standings after
each complete round. A handful of queries whatever the size of the tournament: entrants, rounds and tables are
read once, and the pools' states are built from them (no query per round).

Terms
-----
public ID
    How a live player is named outside the site's pages: their federation ID; for a player new to the federation
    (no ID before publication) the tag `N<entrant row>`, the tag the official workbook gives them, so that the
    `new_players` of the publication's report ({"N12": 2345}) says which ID each one received. The spare is 99.
public round
    A published round (LiveRound.published_at set). A proposed round is the referee's draft: the API and the
    commands never show it; they show the published rounds and the standings after the complete rounds.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.names import name_key
from rules.predictions import chances, outlook, percent
from rules.rulesets import SPARE_ID, SPARE_NAME
from rules.scoring import scores
from rules.standings import RoundDetail
from tournaments.live.pools import PoolState, key_of, pool_standings, sheet_id
from tournaments.live.refusals import notice_text
from tournaments.models import (
    Announcement,
    LiveDiscardedDraw,
    LiveEntrant,
    LiveRound,
    LiveTable,
    LiveTournament,
    Tournament,
)
from tournaments.selectors import without_results


@dataclass
class Seat:
    """A player of a proposal as the referee checks it before publishing: their place in the standing the round was
    paired from, their score and their opponents' score (round 1: their rating), their group in the two-groups
    system, their hat and club (a hat draw and the clubs kept apart are checked at a glance)."""

    place: int | None
    score: float | None
    opponents_score: float | None
    rating: int | None
    group: str
    hat: int | None = None
    club: str = ""


@dataclass
class TableView:
    pk: int
    table: int
    a: LiveEntrant
    b: LiveEntrant | None  # None: the spare
    a_key: int
    b_key: int
    a_name: str
    b_name: str
    result: str
    a_losses: int | None
    b_losses: int | None
    free: bool
    missed: bool
    a_score: float | None  # the game scores as they count (rules.scoring), once the result is in
    b_score: float | None
    reported: bool  # one player entered a result, waiting for the other
    revision: int = 0
    # What each player reported while the result is not in: {"result", "a_losses", "b_losses", "free"} or None
    # (the table's columns claim_a and claim_b).
    report_a: dict | None = None
    report_b: dict | None = None
    a_seat: Seat | None = None
    b_seat: Seat | None = None  # None: the spare
    by_referee: bool = False  # the result in was the referee's entry (not the two players agreeing)
    # A's chances (rules.predictions) from both ratings at the start of the tournament (the spare's fixed one).
    a_chances: float = 0.5

    @property
    def b_chances(self) -> float:
        return 1.0 - self.a_chances

    @property
    def a_percent(self) -> int:
        return percent(self.a_chances)

    @property
    def b_percent(self) -> int:
        return percent(self.b_chances)

    @property
    def a_outlook(self) -> str:
        return outlook(self.a_chances)

    @property
    def b_outlook(self) -> str:
        return outlook(self.b_chances)

    @property
    def disputed(self) -> bool:
        """Both players entered a result and they differ: the referee settles the table (PAIRING.md §6)."""
        return not self.result and None not in (self.report_a, self.report_b) and self.report_a != self.report_b

    @property
    def reports(self) -> list[tuple[dict, str]]:
        """The players' reports waiting to count, each with the name of who entered it."""
        return [(report, name) for report, name in ((self.report_a, self.a_name), (self.report_b, self.b_name))
                if report]

    @property
    def names(self) -> str:
        """Both names, folded (rules.names.name_key: accents and case aside): what a player's search is matched
        against, on the server and by the page's script."""
        return name_key(f"{self.a_name} {self.b_name}")


@dataclass
class ChangeView:
    """A change of the referee's to a round (PAIRING.md §5), players named: a swap of `a` and `b` between
    `tables`, or the pair `pair` given table `to` instead of `table` (the pair `other` taking `table`)."""

    kind: str
    reason: str
    warnings: list[str]
    a: str = ""
    b: str = ""
    tables: list[int] = field(default_factory=list)
    table: int | None = None
    to: int | None = None
    pair: str = ""
    other: str = ""


@dataclass
class DiscardedView:
    """A draw the referee discarded (drawn or paired again, withdrawn, dropped when the players changed), as the
    public page lists it."""

    pk: int
    number: int
    kind: str
    system: str
    seed: int | None
    reason: str
    was_published: bool
    results_discarded: int
    discarded_at: object
    pairs: list[tuple[int, str, str, str]]  # (table, A's name, B's name, the result discarded)
    changes: list[ChangeView]
    checkable: bool
    warnings: list[str] = field(default_factory=list)  # the rules the draw bent, in the reader's words

    @property
    def round(self):  # what _method.html reads: the system and the seed
        return self


@dataclass
class RoundView:
    round: LiveRound
    tables: list[TableView]
    warnings: list[str]
    notes: list[str] = field(default_factory=list)
    changes: list[ChangeView] = field(default_factory=list)
    discarded: list[DiscardedView] = field(default_factory=list)  # earlier draws of this round, discarded

    @property
    def number(self) -> int:
        return self.round.number

    @property
    def pool(self) -> str:
        return self.round.pool

    @property
    def published(self) -> bool:
        return self.round.published_at is not None

    @property
    def entered(self) -> int:
        return sum(1 for t in self.tables if t.result)

    @property
    def complete(self) -> bool:
        return all(t.result for t in self.tables)


@dataclass
class StandingLine:
    rank: int
    key: int
    name: str
    club: str
    score: float
    opponents_score: float
    wins: int
    draws: int
    losses: int
    games: int  # scored rounds
    tiebreak: str | None  # what placed the line below the one above (rules.standings)
    withdrawn_from: int | None = None  # withdrawn: not paired from this round on (marked on the pages)
    rounds: tuple[RoundDetail, ...] = ()  # each game from the player's view, by round: the cross-table's cells


@dataclass
class PoolView:
    pool: str
    rounds: list[RoundView]  # by number; the last may be a proposal
    standings: dict[int, list[StandingLine]]  # after round r (complete rounds only), r -> lines
    entrants: list[LiveEntrant]
    system: str | None = None  # from round 2 on, fixed when round 1 is paired
    by_key: dict[int, LiveEntrant] = field(default_factory=dict)
    discarded: list[DiscardedView] = field(default_factory=list)  # every discarded draw of the pool

    def discarded_public(self) -> list[DiscardedView]:
        """What the public pages list: a withdrawn published round at once; a draft discarded before publishing
        once its round is published (the players never saw the draft, but may check it then)."""
        published = len(self.published_rounds)
        return [d for d in self.discarded if d.was_published or d.number <= published]

    def discarded_current(self) -> list[DiscardedView]:
        """The public discarded draws of the current round and after (a round withdrawn and not yet paired
        again); those of earlier rounds are listed with their round."""
        current = self.current
        return [d for d in self.discarded_public() if current is None or d.number >= current.number]

    @property
    def latest(self) -> RoundView | None:
        """The round a withdrawal would withdraw: the pool's last, published or not."""
        return self.rounds[-1] if self.rounds else None

    @property
    def complete_rounds(self) -> int:
        return max(self.standings, default=0)

    @property
    def published_rounds(self) -> list[RoundView]:
        return [r for r in self.rounds if r.published]

    @property
    def current(self) -> RoundView | None:
        """The round the hall plays now: the last published one."""
        published = self.published_rounds
        return published[-1] if published else None

    @property
    def proposal(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds and not self.rounds[-1].published else None

    @property
    def last_standings(self) -> tuple[int, list[StandingLine]] | None:
        if not self.standings:
            return None
        number = max(self.standings)
        return number, self.standings[number]

    def standing_before(self, number: int) -> list[tuple[int, float]] | None:
        """(key, score) in the order of the standing round `number` follows: after round number - 1 once it and
        every round before it are complete, else None."""
        lines = self.standings.get(number - 1)
        return None if lines is None else [(line.key, line.score) for line in lines]

    @property
    def playing(self) -> list[LiveEntrant]:
        """Checked in and not withdrawn: those the next round pairs (late players from their round)."""
        return [e for e in self.entrants if e.withdrawn_from is None and e.present]

    @property
    def absent(self) -> list[LiveEntrant]:
        """Not checked in (yet): not paired."""
        return [e for e in self.entrants if not e.present]

    @property
    def started(self) -> bool:
        """Round 1 of the pool is published: pools and hats are fixed, a player checked in now is late."""
        return any(r.number == 1 for r in self.published_rounds)


@dataclass
class LiveView:
    live: LiveTournament
    pools: list[PoolView] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)

    @property
    def running(self) -> bool:
        return self.live.published_at is None

    def rounds(self, number: int) -> list[RoundView]:
        """Round `number` in every pool where it is published."""
        return [r for pool in self.pools for r in pool.published_rounds if r.number == number]

    def name(self, key) -> str:
        try:
            return self.names.get(int(key), str(key))
        except (TypeError, ValueError):
            return str(key)


def spare_name() -> str:
    """The spare's name (rules.rulesets.SPARE_NAME) in the reader's language."""
    return _("Spare")


def entrant_name(entrant: LiveEntrant) -> str:
    return f"{entrant.first_name} {entrant.last_name}".strip()


def live_view(live: LiveTournament, *, language: str = "en") -> LiveView:
    """Every pool of the live tournament: its rounds (published and proposed) with their tables and names, and
    its standings after each complete round."""
    tournament = live.tournament
    ruleset = tournament.system.get_ruleset()
    entrants = list(LiveEntrant.objects.filter(live=live).order_by("pool", "-rating", "pk"))
    rounds = list(LiveRound.objects.filter(live=live).order_by("pool", "number"))
    tables = list(LiveTable.objects.filter(round__live=live).order_by("table"))
    by_pk = {e.pk: e for e in entrants}
    tables_of: dict[int, list[LiveTable]] = {}
    for table in tables:  # the entrants already read: no query per table
        table.a = by_pk[table.a_id]
        table.b = by_pk[table.b_id] if table.b_id else None
        tables_of.setdefault(table.round_id, []).append(table)
    names = {key_of(e): entrant_name(e) for e in entrants}
    names[SPARE_ID] = spare_name()
    view = LiveView(live, names=names)

    def name(key):
        return view.name(key)

    discarded = list(LiveDiscardedDraw.objects.filter(live=live).order_by("number", "discarded_at", "pk"))
    pools = sorted({e.pool for e in entrants} | {r.pool for r in rounds}) or ["A"]
    for pool in pools:
        pool_entrants = [e for e in entrants if e.pool == pool]
        pool_rounds = [r for r in rounds if r.pool == pool]
        gone = [_discarded_view(d, language, name) for d in discarded if d.pool == pool]
        round_views = []
        for round_ in pool_rounds:
            own = tables_of.get(round_.pk, [])
            round_views.append(RoundView(
                round_, [table_view(t, ruleset) for t in own], _words(round_.warnings, language, name),
                _words(round_.notes, language, name), [change_view(c, language, name) for c in round_.changes],
                [d for d in gone if d.number == round_.number]))
        published = [r for r in pool_rounds if r.published_at is not None]
        by_key = {key_of(e): e for e in pool_entrants}
        standings = {}
        for number in range(1, len(published) + 1):
            done = published[:number]
            done_tables = [t for r in done for t in tables_of.get(r.pk, [])]
            if not all(t.result for t in done_tables):
                break
            state = PoolState(live, pool, by_key, done, done_tables)
            standings[number] = [
                StandingLine(row.rank, row.player, name(row.player), _club(by_key, row.player), row.score,
                             row.opponents_score, row.wins, row.draws, row.losses, row.games, row.decided_by,
                             by_key[row.player].withdrawn_from if row.player in by_key else None, row.rounds)
                for row in pool_standings(state)]
        for round_view in round_views:
            _seat(round_view, standings.get(round_view.number - 1), by_key)
        view.pools.append(PoolView(pool, round_views, standings, pool_entrants, (live.systems or {}).get(pool),
                                   by_key, gone))
    return view


def _words(notices, language: str, name) -> list[str]:
    return [notice_text(w.get("code", ""), w.get("params", {}), language, name) for w in notices or []]


def change_view(change: dict, language: str, name) -> ChangeView:
    def pair(keys) -> str:
        return " – ".join(name(k) for k in keys or [])

    return ChangeView(kind=change.get("kind", ""), reason=change.get("reason", ""),
                      warnings=_words(change.get("warnings"), language, name), a=name(change.get("a")),
                      b=name(change.get("b")), tables=list(change.get("tables") or []), table=change.get("table"),
                      to=change.get("to"), pair=pair(change.get("pair")), other=pair(change.get("other")))


def _discarded_view(kept: LiveDiscardedDraw, language: str, name) -> DiscardedView:
    pairs = [(p.get("table"), p.get("a_name") or name(p.get("a")),
              p.get("b_name") or (spare_name() if p.get("b") == SPARE_ID else name(p.get("b"))),
              _result_text(p)) for p in kept.pairs]
    return DiscardedView(kept.pk, kept.number, kept.kind, kept.system, kept.seed, kept.reason, kept.was_published,
                         kept.results_discarded, kept.discarded_at, pairs,
                         [change_view(c, language, name) for c in kept.changes], kept.drawn is not None,
                         _words(kept.warnings, language, name))


def _result_text(pair: dict) -> str:
    """A discarded table's result as it was entered: the code and the losses (the sheet's words)."""
    if not pair.get("result"):
        return ""
    losses = pair.get("a_losses"), pair.get("b_losses")
    return pair["result"] + ("" if losses == (None, None) else f" {losses[0]}% / {losses[1]}%")


def _seat(round_view: RoundView, lines: list[StandingLine] | None, by_key: dict[int, LiveEntrant]) -> None:
    """Each player's place, score and opponents' score in the standing the round was paired from."""
    drawn = round_view.round.drawn or {}
    place = {key: n for n, key in enumerate(drawn.get("standing") or [], 1)}
    line = {row.key: row for row in lines or []}
    if not place:
        place = {row.key: row.rank for row in lines or []}
    first = round_view.number == 1  # hats are round 1's

    def seat(key: int) -> Seat | None:
        entrant = by_key.get(key)
        if entrant is None:
            return None
        row = line.get(key)
        return Seat(place.get(key), row.score if row else None, row.opponents_score if row else None,
                    entrant.rating, entrant.group, entrant.hat if first else None, entrant.club)

    for table in round_view.tables:
        table.a_seat, table.b_seat = seat(table.a_key), seat(table.b_key)


def _club(by_key: dict[int, LiveEntrant], key: int) -> str:
    entrant = by_key.get(key)
    return entrant.club if entrant is not None else ""


def table_view(table: LiveTable, ruleset) -> TableView:
    a_score = b_score = None
    # A code of another ruleset cannot be in a live table (checked on entry); it would be shown blank.
    with suppress(ValueError):
        if table.result:
            a_score, b_score = scores(ruleset, table.result, table.a_losses, table.b_losses)
    return TableView(
        pk=table.pk, table=table.table, a=table.a, b=table.b, a_key=key_of(table.a),
        b_key=key_of(table.b) if table.b else SPARE_ID, a_name=entrant_name(table.a),
        b_name=entrant_name(table.b) if table.b else spare_name(), result=table.result, a_losses=table.a_losses,
        b_losses=table.b_losses, free=table.free, missed=table.missed, a_score=a_score, b_score=b_score,
        reported=not table.result and (table.claim_a is not None or table.claim_b is not None),
        revision=table.revision, report_a=None if table.result else table.claim_a,
        report_b=None if table.result else table.claim_b,
        by_referee=bool(table.result) and table.entered_by_id is not None,
        a_chances=chances(ruleset, table.a.rating, table.b.rating if table.b else ruleset.spare_rating))


def public_id(entrant: LiveEntrant | None) -> int | str:
    """The federation ID, the tag N<row> of a player new to the federation, or 99 for the spare (None)."""
    return SPARE_ID if entrant is None else sheet_id(entrant)


def public_name(entrant: LiveEntrant | None) -> str:
    """"Last First", or the spare's English name: how the read API and the commands name a player."""
    return SPARE_NAME if entrant is None else str(entrant)


def announced_method(tournament: Tournament) -> str | None:
    """The first game's pairing method the tournament's announcement gave (App. 1 §12), None without one: round 1
    of every pool starts with it chosen (PAIRING.md §3, decision of 2026-12-02)."""
    return Announcement.objects.filter(tournament=tournament).values_list("first_round", flat=True).first() or None


def live_find(tournament_id: int) -> LiveTournament | None:
    if not 0 < tournament_id < 2**63:  # the ID is a foreign key: the database would not take a larger number
        return None
    # Not the published sheet: only its ID is shown, and its row carries the whole workbook.
    return LiveTournament.objects.select_related("tournament__system", "tournament__country").filter(
        pk=tournament_id).first()


def live_running_now(*, today: date | None = None, days: int = 2) -> list[LiveTournament]:
    """The tournaments running live, for the home page: not yet published, ended no more than `days` days ago (a
    run the referee never published does not stay on the home page for ever)."""
    today = today or timezone.localdate()
    return list(live_list(running=True).filter(tournament__end_date__gte=today - timedelta(days=days))[:10])


def referees_a_live_run(user) -> bool:
    """Whether this account is a referee of a tournament running live now."""
    return LiveTournament.objects.running().filter(tournament__referees=user).exists()


# How far back a tournament with no results still waits for its referee to run it (dates entered wrongly in the
# calendar are corrected when the day starts).
DAY_TO_RUN_DAYS_BACK = 30


def referees_a_day_now(user) -> bool:
    """Whether this account referees a tournament whose day is now: running live, or due from tomorrow back (a
    month at most), its results not on the site and not run live yet: the referee signs in to start it. One query:
    every signed-in page's menu asks it."""
    today = timezone.localdate()
    due = without_results() & Q(live__isnull=True, start_date__lte=today + timedelta(days=1),
                                end_date__gte=today - timedelta(days=DAY_TO_RUN_DAYS_BACK))
    running = Q(live__in=LiveTournament.objects.running())
    return Tournament.objects.filter(due | running, referees=user).exists()


def live_list(*, running: bool | None = None) -> QuerySet[LiveTournament]:
    """The tournaments run live, the latest first; `running`: run on the site now (True: neither published nor
    handed over to a spreadsheet) or published (False)."""
    rows = LiveTournament.objects.select_related("tournament__country", "tournament__system")
    if running:
        rows = rows.running()
    elif running is False:
        rows = rows.filter(published_at__isnull=False)
    return rows.order_by("-tournament__start_date", "-tournament_id")
