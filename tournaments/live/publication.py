"""Publishing the tournament day (PAIRING.md §7): the official workbook built from the live data, imported through
the same checks and the same import as an uploaded sheet. Nothing of a live tournament is rated before this."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from rules.rulesets import SPARE_ID, SPARE_NAME
from tournaments.entries import sheet_columns
from tournaments.live.pools import locked, pool_names, pool_state, sheet_id
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveEntrant, LiveTournament
from tournaments.sheets.services import SheetOutcome, sheet_import_bytes
from tournaments.sheets.template import result_workbook


def live_publish(live: LiveTournament, *, user=None) -> SheetOutcome:
    """Build the official workbook from the live data and import it as an upload (PAIRING.md §7)."""
    with transaction.atomic():
        live = locked(live)
        data = live_workbook(live)
        tournament = live.tournament
        outcome = sheet_import_bytes(data=data, file_name=f"live-{tournament.pk}.xlsx", user=user)
        if outcome.ok:
            live.published_sheet = outcome.sheet
            live.published_at = timezone.now()
            live.version += 1
            live.save(update_fields=["published_sheet", "published_at", "version"])
            tags = {sheet_id(e): e.pk for e in live.entrants.filter(player__isnull=True)}
            for tag, player in outcome.new_players.items():
                LiveEntrant.objects.filter(live=live, pk=tags[tag]).update(player_id=player)
    return outcome


def live_workbook(live: LiveTournament) -> bytes:
    """The official result sheet of the live tournament (its Tournament ID, players and every game)."""
    tournament = live.tournament
    problems = []
    games = []
    pools = pool_names(live)
    for pool in pools:
        state = pool_state(live, pool)
        if state.played < tournament.rounds or not state.complete():
            problems.append(("not_complete", {"pool": pool, "played": state.played - (not state.complete()),
                                              "rounds": tournament.rounds}))
        number = {r.pk: r.number for r in state.rounds}
        for t in state.tables:
            games.append((number[t.round_id], t.table, sheet_id(t.a), sheet_id(t.b) if t.b else SPARE_ID,
                          t.result, t.a_losses, t.b_losses, "yes" if t.free else "no"))
    if problems:
        raise LiveRefused(problems)
    entrants = list(live.entrants.order_by("pool", "-rating", "pk"))
    entered = sheet_columns(tournament=tournament)  # an entry's army and late-list penalty (tournaments.entries)
    players = [(sheet_id(e), e.last_name, e.first_name, e.club or None, e.country or None, e.pool,
                *entered.get(e.player_id, (None, None, None))) for e in entrants]
    spares = sorted({pool for g in games if SPARE_ID in (g[2], g[3]) for pool in pools})
    players += [(SPARE_ID, SPARE_NAME, None, None, None, pool) for pool in spares[:1]]
    values = {
        "tournament_id": tournament.pk, "name": tournament.name, "rating_system": tournament.system_id,
        "start": tournament.start_date, "end": tournament.end_date, "city": tournament.city,
        "country": tournament.country_id,
        "organising_club": tournament.organising_club.name if tournament.organising_club else None,
        "referee": tournament.referee_name or "-", "army_points": tournament.army_points,
        "rounds": tournament.rounds, "worlds": tournament.worlds, "official": tournament.official,
    }
    return result_workbook(tournament=values, players=players, games=sorted(games))
