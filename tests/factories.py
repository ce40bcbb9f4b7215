"""Test data for the public pages and the API: facts and the derived rows the replay would write.

The derived rows (PlayerRating, RatingEvent, Standing, TournamentOutcome, ChampionshipResult, ChampionshipTotal)
are written directly, consistently with the engine (`rules.elo.game_change`), so the page tests do not
depend on the replay service. Every function takes keyword arguments with sensible defaults.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from django.db.models import F

from championship.models import ChampionshipResult, ChampionshipTotal
from players.models import Club, Country, Player, RetiredId
from ratings.models import PlayerRating, RatingCount, RatingEvent, RatingSystem
from ratings.positions import rating_counts_recount
from rules.elo import game_change
from rules.ranks import rank_for
from tournaments.models import Game, Registration, Standing, Tournament, TournamentOutcome

_ids = itertools.count(1000)


def country(code: str = "FR", name: str | None = None, name_fr: str | None = None) -> Country:
    obj, _ = Country.objects.get_or_create(code=code, defaults={"name": name or code, "name_fr": name_fr or ""})
    return obj


def club(name: str = "Les Aigles", country_code: str | None = "FR") -> Club:
    obj, _ = Club.objects.get_or_create(name=name, defaults={"country_id": country_code})
    return obj


def player(last_name: str = "Dupont", first_name: str = "Jean", *, id: int | None = None, club: Club | None = None,
           country_code: str | None = "FR", excluded: bool = False, merged_into: Player | None = None) -> Player:
    from django.utils import timezone

    pid = id if id is not None else next(_ids)
    while id is None and (pid == 99 or Player.objects.filter(pk=pid).exists()):
        pid = next(_ids)
    created = Player.objects.create(id=pid, last_name=last_name, first_name=first_name, club=club,
                                    country_id=country_code, excluded_at=timezone.now() if excluded else None,
                                    merged_into=merged_into)
    if excluded or merged_into is not None:  # as players.governance does: the ID is never given again
        RetiredId.objects.get_or_create(id=pid, defaults={"reason": "excluded" if excluded else "merged"})
    return created


def system(code: str = "adlg") -> RatingSystem:
    return RatingSystem.objects.get(code=code)


def rating(player: Player, *, system_code: str = "adlg", value: int = 1000, games: int = 10,
           last_played: date | None = None) -> PlayerRating:
    ruleset = system(system_code).get_ruleset()
    before = PlayerRating.objects.filter(system_id=system_code, player=player).values_list("rating", flat=True).first()
    row = PlayerRating.objects.update_or_create(
        system_id=system_code, player=player,
        defaults={"rating": value, "games": games, "rank_code": rank_for(ruleset, value, games).code,
                  "last_played": last_played},
    )[0]
    if before != value:
        _count_moves(system_code, before, value)
    return row


def _count_moves(system_code: str, before: int | None, after: int) -> None:
    """The per-rating counts after one player's rating went from `before` (None: unrated) to `after`, as the replay
    keeps them: recounting every rating each time was a good part of building a federation of a few hundred."""
    if before is not None:
        RatingCount.objects.filter(system_id=system_code, rating=before).update(players=F("players") - 1)
        RatingCount.objects.filter(system_id=system_code, rating=before, players=0).delete()
    count, created = RatingCount.objects.get_or_create(system_id=system_code, rating=after, defaults={"players": 1})
    if not created:
        RatingCount.objects.filter(pk=count.pk).update(players=F("players") + 1)


def renumber_positions(system_code: str = "adlg") -> None:
    """The per-rating counts positions are read from, as the replay keeps them."""
    rating_counts_recount(system_code)


def tournament(name: str = "Open de Paris", *, system_code: str = "adlg", start: date = date(2024, 3, 9),
               end: date | None = None, country_code: str = "FR", city: str = "Paris", status: str = Tournament.RATED,
               rounds: int = 3, official: bool = True, counts_override: bool | None = None,
               override_reason: str = "", worlds: bool = False, organising_club: Club | None = None) -> Tournament:
    return Tournament.objects.create(
        system_id=system_code, name=name, start_date=start, end_date=end or start + timedelta(days=1), city=city,
        country_id=country_code, status=status, rounds=rounds, official=official, counts_override=counts_override,
        override_reason=override_reason, worlds=worlds, organising_club=organising_club)


def _next_seq(system_code: str) -> int:
    last = RatingEvent.objects.filter(system_id=system_code).order_by("-seq").values_list("seq", flat=True).first()
    return (last or 0) + 1


@dataclass
class Played:
    tournament: Tournament
    games: list[Game] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)


def _scores(result: str) -> tuple[float, float]:
    return {"A": (100, 10), "B": (10, 100), "D": (40, 40), "DD": (58, 58)}.get(result, (50, 50))


def rated_tournament(players: list[Player], *, name: str = "Open de Paris", system_code: str = "adlg",
                     start: date = date(2024, 3, 9), rounds: int = 3, results: list[str] | None = None,
                     counts: bool = True, charter_failures: list | None = None, points: bool = True,
                     penalty: dict[int, tuple[int, str]] | None = None, **kwargs) -> Played:
    """A rated tournament between `players` with every derived row, as a replay would leave them.

    Round r pairs the players in a rotation; results cycle through `results` (A wins by default).
    """
    t = tournament(name, system_code=system_code, start=start, rounds=rounds, **kwargs)
    ruleset = system(system_code).get_ruleset()
    state = {r.player_id: [r.rating, r.games] for r in PlayerRating.objects.filter(system_id=system_code,
                                                                                    player__in=players)}
    for p in players:
        state.setdefault(p.id, [ruleset.initial_rating, 0])
    before = {pid: values[0] for pid, values in state.items()}
    penalty = penalty or {}
    for p in players:
        points_off, reason = penalty.get(p.id, (0, ""))
        Registration.objects.create(tournament=t, player=p, pool="A", club=p.club, penalty=points_off,
                                    penalty_reason=reason)
    cycle = itertools.cycle(results or ["A"])
    seq = _next_seq(system_code)
    played = Played(tournament=t)
    detail: dict[int, list[dict]] = {p.id: [] for p in players}
    score: dict[int, float] = {p.id: 0.0 for p in players}
    record: dict[int, list[int]] = {p.id: [0, 0, 0] for p in players}
    events = []
    order = list(players)
    for rnd in range(1, rounds + 1):
        for table, (a, b) in enumerate(zip(order[0::2], order[1::2], strict=False), start=1):
            result = next(cycle)
            game = Game.objects.create(tournament=t, round=rnd, table=table, player_a=a, player_b=b, result=result,
                                       a_losses=30, b_losses=60)
            played.games.append(game)
            (ra, ga), (rb, gb) = state[a.id], state[b.id]
            da, db, ka, kb, pa = game_change(ruleset, ra, ga, rb, gb, result)
            sa, sb = ruleset.result_values[result]
            for me, opp, r_me, g_me, r_opp, d, k, p, s in ((a, b, ra, ga, rb, da, ka, pa, sa),
                                                          (b, a, rb, gb, ra, db, kb, 1 - pa, sb)):
                events.append(RatingEvent(system_id=system_code, player=me, seq=seq, kind=RatingEvent.GAME,
                                          date=t.end_date, tournament=t, game=game, opponent=opp, rating_before=r_me,
                                          rating_after=r_me + d, change=d, games_before=g_me, opponent_rating=r_opp,
                                          k=k, expected=p, score=s))
                seq += 1
            state[a.id] = [ra + da, ga + 1]
            state[b.id] = [rb + db, gb + 1]
            game_a, game_b = _scores(result)
            score[a.id] += game_a
            score[b.id] += game_b
            for me, opp, s, mine, theirs in ((a, b, sa, game_a, game_b), (b, a, sb, game_b, game_a)):
                letter = "W" if s > 0.5 else ("D" if s == 0.5 else "L")
                record[me.id]["WDL".index(letter)] += 1
                # The shape of rules.standings.RoundDetail (the opponents' score tie-break reads it).
                detail[me.id].append({"round": rnd, "opponent": opp.id, "result": letter, "score": mine,
                                      "opponent_score": theirs, "free": False})
        order = order[:1] + order[-1:] + order[1:-1]  # rotate all but the first: new pairs each round
    RatingEvent.objects.bulk_create(events)
    for p in players:
        rating(p, system_code=system_code, value=state[p.id][0], games=state[p.id][1], last_played=t.end_date)
    renumber_positions(system_code)
    opp_score = {pid: sum(score[e["opponent"]] for e in entries) for pid, entries in detail.items()}
    ranked = sorted(players, key=lambda p: (-(score[p.id] - penalty.get(p.id, (0, ""))[0]), -opp_score[p.id], p.id))
    final = {p.id: score[p.id] - penalty.get(p.id, (0, ""))[0] for p in players}
    for rank, p in enumerate(ranked, start=1):
        wins, draws, losses = record[p.id]
        above = ranked[rank - 2] if rank > 1 else None
        decided_by = "" if above is None else ("score" if final[above.id] != final[p.id] else (
            "opponents" if opp_score[above.id] != opp_score[p.id] else "id"))
        played.standings.append(Standing.objects.create(
            tournament=t, pool="A", rank=rank, player=p, score=score[p.id] - penalty.get(p.id, (0, ""))[0],
            opponents_score=opp_score[p.id], penalty=penalty.get(p.id, (0, ""))[0], wins=wins, draws=draws,
            losses=losses, games=wins + draws + losses, tiebreak=decided_by,
            rating_before=before[p.id], rating_after=state[p.id][0], performance=before[p.id] + 50.0))
    TournamentOutcome.objects.create(
        tournament=t, average_rating=sum(before.values()) / len(before), ranked_players=len(players),
        rated_games=len(played.games), charter_failures=charter_failures or [], counts=counts)
    if counts and points:
        n = len(ranked)
        for rank, p in enumerate(ranked, start=1):
            ChampionshipResult.objects.create(tournament=t, player=p, year=t.end_date.year,
                                              points=Decimal(f"{20.0 * (n + 1 - rank) / n + 5:.2f}"), counted=True)
    return played


def championship_totals(year: int) -> list[ChampionshipTotal]:
    """Totals of `year` from its results as the championship service would: best four, ranked, ties by ID."""
    ChampionshipTotal.objects.filter(year=year).delete()
    by_player: dict[int, list[ChampionshipResult]] = {}
    for result in ChampionshipResult.objects.filter(year=year).select_related("player", "tournament"):
        by_player.setdefault(result.player_id, []).append(result)
    rows = []
    for pid, results in by_player.items():
        results.sort(key=lambda r: -r.points)
        for i, result in enumerate(results):
            result.counted = i < 4
            result.save(update_fields=["counted"])
        best = results[:4]
        countries = {r.tournament.country_id for r in results}
        rows.append((pid, sum((r.points for r in best), Decimal(0)), len(best), results[0].player.country_id,
                     len(countries) >= 2 or any(r.tournament.worlds for r in results)))
    rows.sort(key=lambda row: (-row[1], row[0]))
    totals = []
    international = 0
    for rank, (pid, total, count, country_code, is_international) in enumerate(rows, start=1):
        international += is_international
        totals.append(ChampionshipTotal.objects.create(
            year=year, player_id=pid, total=total, results=count, rank=rank, international=is_international,
            international_rank=international if is_international else None, country_id=country_code))
    return totals


def adjustment(player: Player, *, year: int, before: int, after: int, system_code: str = "adlg") -> RatingEvent:
    last = RatingEvent.objects.filter(player=player, system_id=system_code).order_by("-seq").first()
    return RatingEvent.objects.create(
        system_id=system_code, player=player, seq=_next_seq(system_code), kind=RatingEvent.ADJUSTMENT,
        date=date(year, 12, 31), year=year, rating_before=before, rating_after=after, change=after - before,
        games_before=(last.games_before + 1) if last else 0)


@dataclass
class Federation:
    """A small federation: players from three countries, a rated tournament, championship totals."""

    players: list[Player]
    clubs: list[Club]
    played: Played
    year: int

    @property
    def tournament(self) -> Tournament:
        return self.played.tournament


def federation(size: int = 6, *, year: int = 2024, rounds: int = 3) -> Federation:
    clubs = [club("Les Aigles", "FR"), club("Brussels Legion", "BE"), club("Roma Victrix", "IT")]
    names = ["Dupont", "Martin", "Bernard", "Peeters", "Rossi", "Leroy", "Janssens", "Bianchi", "Moreau", "Ferrari"]
    players = []
    for i in range(size):
        home = clubs[i % 3]
        players.append(player(f"{names[i % len(names)]}{'' if i < len(names) else i}", f"Player{i}", club=home,
                              country_code=home.country_id))
    played = rated_tournament(players if len(players) % 2 == 0 else players[:-1], start=date(year, 3, 9),
                              rounds=rounds, results=["A", "B", "D"])
    championship_totals(year)
    return Federation(players=players, clubs=clubs, played=played, year=year)
