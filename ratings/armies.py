"""The armies' statistics (rules.armies) from the published facts: the rated games of the rating history (an
excluded player's games are void there, games against the spare are left out: the spare has no army) and the
armies their players named in the result sheet's `Army` column, through the board's mapping of names
(tournaments.models.ArmyAlias). A tournament whose army lists were sent on the site counts its armies only once
those lists are public (tournaments.before.army_lists.lists_published): until then an army is the player's secret.

The federation's records are worked out once per replay and mapping, and kept in the cache.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from django.core.cache import cache
from django.db.models import F, Q

from ratings.models import RatingEvent, RatingSystem, ReplayLock
from rules.armies import ArmyGame, Record, TypedName, UnmappedName, army_records, player_army_records, unmapped_names
from rules.rulesets import SPARE_ID
from tournaments.before.army_lists import lists_published
from tournaments.models import ArmyAlias, ArmyList, Registration, Tournament

CACHE_SECONDS = 3600


def army_aliases() -> dict[str, str]:
    return dict(ArmyAlias.objects.values_list("key", "army"))


def lists_hidden(tournaments: Iterable[int]) -> set[int]:
    """Of these tournaments, those whose army lists were sent on the site and are not public."""
    with_lists = Tournament.objects.filter(
        pk__in=ArmyList.objects.filter(entry__tournament__in=list(tournaments)).values("entry__tournament"))
    return {t.pk for t in with_lists if not lists_published(tournament=t)}


def _games(events, armies: dict[tuple[int, int], str], hidden: set[int]) -> list[ArmyGame]:
    games = []
    for tournament, player, opponent, score in events:
        if tournament in hidden:
            continue
        mine, theirs = armies.get((tournament, player), ""), armies.get((tournament, opponent), "")
        if mine or theirs:
            games.append(ArmyGame(mine, theirs, score, player, opponent))
    return games


def system_army_games(system: RatingSystem) -> list[ArmyGame]:
    """Each rated game between two real players of `system`, once, with the armies its players named."""
    armies = {(t, p): army for t, p, army in Registration.objects.filter(tournament__system=system)
              .exclude(army="").values_list("tournament_id", "player_id", "army").iterator(chunk_size=20_000)}
    events = (RatingEvent.objects.filter(system=system, kind=RatingEvent.GAME, player_id__lt=F("opponent_id"))
              .exclude(opponent_id=SPARE_ID).order_by()
              .values_list("tournament_id", "player_id", "opponent_id", "score").iterator(chunk_size=20_000))
    return _games(events, armies, lists_hidden({t for t, _ in armies}))


def federation_army_records(system: RatingSystem) -> tuple[list[Record], list[Record]]:
    """Every army's record in `system`, and the army-against-army lines with enough games (rules.armies)."""
    aliases = army_aliases()
    replayed = ReplayLock.objects.filter(system=system).values_list("replayed_at", flat=True).first()
    version = hashlib.sha256(repr(sorted(aliases.items())).encode()).hexdigest()[:16]
    key = f"armies:{system.code}:{replayed.isoformat() if replayed else '-'}:{version}"
    found = cache.get(key)
    if found is None:
        found = army_records(system_army_games(system), aliases)
        cache.set(key, found, CACHE_SECONDS)
    return found


def player_army_record(*, player_id: int, events: Iterable[RatingEvent]) -> tuple[list[Record], list[Record]]:
    """A player's record with each army they played and against each army they met, from their rating events of
    one system (the player page has read them already): one query when no army was named, three or four else."""
    games = [(e.tournament_id, player_id, e.opponent_id, e.score) for e in events
             if e.kind == RatingEvent.GAME and e.opponent_id not in (None, SPARE_ID)]
    tournaments = {t for t, *_ in games}
    if not tournaments:
        return [], []
    armies = {(t, p): army for t, p, army in Registration.objects.filter(
        Q(player_id=player_id) | Q(player_id__in={o for _, _, o, _ in games}), tournament__in=tournaments)
        .exclude(army="").values_list("tournament_id", "player_id", "army")}
    if not armies:
        return [], []
    return player_army_records(player_id, _games(games, armies, lists_hidden(tournaments)), army_aliases())


def unmapped_army_names() -> list[UnmappedName]:
    """The army names typed in the published results (both systems) that the board has not mapped, for its page
    of army names; a tournament whose army lists are still secret is left out, as from the statistics."""
    typed = list(Registration.objects.exclude(army="").order_by("tournament__start_date", "pk")
                 .values_list("army", "tournament_id", "tournament__start_date"))
    hidden = lists_hidden({tournament for _, tournament, _ in typed})
    return unmapped_names((TypedName(*row) for row in typed if row[1] not in hidden), army_aliases())
