"""The tournament day's players (PAIRING.md §6): adding a player known to the federation or new to it, a late
arrival, a withdrawal from a round on."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from players.audit import audit_record
from players.models import Player
from ratings.selectors import current_ratings
from rules.pairing import GROUPS
from rules.rulesets import SPARE_ID
from rules.sheet.format import TEXT_LIMITS
from tournaments.live.pools import bump, drop_proposal, locked, next_table, published_numbers
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveEntrant, LiveRound, LiveTable, LiveTournament, Registration


@dataclass(frozen=True)
class NewEntrant:
    """A player to add: `player` a federation ID, or None with the names of a player new to the federation."""

    player: int | None = None
    last_name: str = ""
    first_name: str = ""
    club: str = ""
    country: str = ""
    pool: str = "A"
    hat: int | None = None


def entrant_add(live: LiveTournament, new: NewEntrant, *, user=None, audit: bool = True) -> LiveEntrant:
    """Add a player; after round 1 a late arrival, with a forfeit defeat for each round already published."""
    with transaction.atomic():
        live = locked(live)
        tournament = live.tournament
        if new.hat not in (None, 1, 2):
            raise LiveRefused.one("hat_invalid")
        pool = (new.pool or "A").strip()[:TEXT_LIMITS["pool"]] or "A"
        if new.player is not None:
            player = Player.objects.filter(pk=new.player).select_related("club", "country").first()
            if player is None or player.merged_into_id is not None or player.pk == SPARE_ID:
                raise LiveRefused.one("unknown_player", player=new.player)
            if player.excluded_at is not None:
                raise LiveRefused.one("excluded_player", player=player.full_name)
            if live.entrants.filter(player=player).exists():
                raise LiveRefused.one("already_playing", player=player.full_name)
            rating = current_ratings(tournament.system, players=[player.pk]).get(player.pk)
            entrant = LiveEntrant(
                live=live, player=player, last_name=player.last_name, first_name=player.first_name,
                club=player.club.name if player.club else "", country=player.country_id or "",
                rating=rating.rating if rating else tournament.system.get_ruleset().initial_rating)
        else:
            if not new.last_name.strip():
                raise LiveRefused.one("name_required")
            entrant = LiveEntrant(live=live, last_name=new.last_name.strip()[:TEXT_LIMITS["last_name"]],
                                  first_name=new.first_name.strip()[:TEXT_LIMITS["first_name"]],
                                  club=new.club.strip()[:TEXT_LIMITS["club"]],
                                  country=new.country.strip().upper()[:2],
                                  rating=tournament.system.get_ruleset().initial_rating)
        entrant.pool, entrant.hat = pool, new.hat
        published = published_numbers(live, pool)
        entrant.joined_round = len(published) + 1
        if entrant.joined_round > tournament.rounds:
            raise LiveRefused.one("all_rounds_paired", rounds=tournament.rounds, pool=pool)
        if live.systems.get(pool) == GROUPS:
            entrant.group = _smaller_group(live, pool)
        entrant.save()
        for number in published:  # PAIRING.md §6: a forfeit defeat for each round missed, against the spare
            LiveTable.objects.create(round=LiveRound.objects.get(live=live, pool=pool, number=number),
                                     table=next_table(live, number), a=entrant, b=None, result="FB",
                                     missed=True, entered_by=user, entered_at=timezone.now())
        drop_proposal(live, pool, entrant.joined_round)
        if entrant.player_id is not None:
            Registration.objects.get_or_create(tournament=tournament, player_id=entrant.player_id,
                                               defaults={"pool": pool})
        if audit:
            audit_record(user=user, action="live_add_player", obj=tournament,
                         summary=f"{entrant} joins pool {pool} in round {entrant.joined_round}")
        bump(live)
    return entrant


def _smaller_group(live: LiveTournament, pool: str) -> str:
    """**Decision**: a late player of the two-groups system joins the group with fewer players still in (B on a
    tie, the group dealt second)."""
    counts = {"A": 0, "B": 0}
    for group in live.entrants.filter(pool=pool, withdrawn_from__isnull=True).values_list("group", flat=True):
        if group in counts:
            counts[group] += 1
    return "A" if counts["A"] < counts["B"] else "B"


def entrant_withdraw(live: LiveTournament, entrant: LiveEntrant, *, from_round: int, user=None) -> None:
    """Withdraw a player from `from_round` on: not paired from then (PAIRING.md §6)."""
    with transaction.atomic():
        live = locked(live)
        rounds = live.tournament.rounds
        if not 1 <= from_round <= rounds:
            raise LiveRefused.one("round_out_of_range", round=from_round, rounds=rounds)
        published = published_numbers(live, entrant.pool)
        if from_round <= len(published):
            raise LiveRefused.one("withdraw_round", round=from_round, next=len(published) + 1)
        LiveEntrant.objects.filter(pk=entrant.pk).update(withdrawn_from=from_round)
        drop_proposal(live, entrant.pool, from_round)
        audit_record(user=user, action="live_withdraw", obj=live.tournament,
                     summary=f"{entrant} withdraws from round {from_round}")
        bump(live)
