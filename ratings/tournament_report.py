"""A tournament's report (rules.report) from the rows its publication wrote: the standings, the rating history's
events, the championship points and the armies its players named. Only published facts: a tournament not yet
rated has no report, an excluded player's games and places are already void in those rows, and the armies of a
tournament whose lists are not public are left out (ratings.armies)."""

from __future__ import annotations

from championship.models import ChampionshipResult
from players.models import OpeningBalance
from ratings.armies import army_aliases, lists_hidden
from ratings.models import RatingEvent
from rules import report
from rules.armies import army_of
from rules.rulesets import SPARE_ID
from tournaments.models import Registration, Standing, Tournament


def tournament_report(tournament: Tournament) -> report.Report | None:
    """The report of a rated tournament; None before it is rated."""
    if tournament.status != Tournament.RATED:
        return None
    standings = list(Standing.objects.filter(tournament=tournament, player__excluded_at__isnull=True)
                     .select_related("player").order_by("pool", "rank"))
    # Found by the history's (date, seq) index, as the tournament page finds them.
    events = list(RatingEvent.objects.filter(system=tournament.system_id, date=tournament.end_date,
                                             tournament=tournament, kind=RatingEvent.GAME)
                  .values_list("player_id", "opponent_id", "rating_before", "opponent_rating", "expected", "score",
                               "games_before", "game__round"))
    # Every rated player of the tournament has a place in its standings; an excluded one has neither.
    names = {s.player_id: s.player.full_name for s in standings}
    ids = set(names)
    standings = [(s.pool, s.rank, s.player_id, s.score, s.rating_before, s.rating_after) for s in standings]

    podiums: dict[str, list] = {}
    for pool, rank, player, score, _before, _after in standings:
        if rank <= 3 and player in names:
            podiums.setdefault(pool, []).append((rank, names[player], score))
    games = [(names[a], names[b], ra, rb, p, s, rnd) for a, b, ra, rb, p, s, _g, rnd in events
             if a < b and b != SPARE_ID and a in names and b in names]
    gains, losses = report.moves(report.Move(names[player], before, after) for _p, _r, player, _s, before, after
                                 in standings if player in names and before is not None and after is not None)
    opened = set(OpeningBalance.objects.filter(system=tournament.system_id, player_id__in=ids)
                 .values_list("player_id", flat=True))
    new = sorted({names[a] for a, *_, games_before, _rnd in events if games_before == 0 and a not in opened
                  and a in names})
    armies = []
    typed = dict(Registration.objects.filter(tournament=tournament).exclude(army="")
                 .values_list("player_id", "army"))
    if typed and tournament.pk not in lists_hidden([tournament.pk]):
        aliases = army_aliases()
        named = {p: army_of(army, aliases) for p, army in typed.items()}
        armies = report.army_lines((named[e[0]], e[0], e[5]) for e in events if e[0] in named and e[0] in names)
    points = [(names[p], float(points)) for p, points in ChampionshipResult.objects.filter(tournament=tournament)
              .order_by("-points", "player_id").values_list("player_id", "points")[:report.MOST] if p in names]
    return report.Report(
        [report.Podium(pool, places) for pool, places in podiums.items()], report.upsets(games), gains, losses,
        new, armies, points)
