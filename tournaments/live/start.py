"""Starting a tournament day: a calendar tournament run live from the referee's pages, or a tournament created and
run live from a JSON description (the `live_start` command, PAIRING.md §8); the referee's settings of the day."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.db import transaction
from django.utils import timezone

from players.audit import audit_record
from players.models import Club, Country
from ratings.models import RatingSystem
from tournaments.live.entrants import NewEntrant, entrant_add
from tournaments.live.pools import bump, locked
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveTournament, Tournament


def live_begin(tournament: Tournament, *, entrants: Sequence[NewEntrant] = (), swiss: str = "",
               players_enter_results: bool = False, user=None) -> LiveTournament:
    """Make a calendar tournament a live one, with its first players."""
    if swiss not in ("", LiveTournament.CLASSIC, LiveTournament.ADAPTED):
        raise LiveRefused.one("fault", message=f"swiss must be classic or adapted, not {swiss!r}")
    with transaction.atomic():
        live, created = LiveTournament.objects.get_or_create(
            tournament=tournament,
            defaults={"swiss": swiss, "players_enter_results": players_enter_results, "started_by": user})
        if not created:
            raise LiveRefused.one("fault", message=f"tournament {tournament.pk} is already run live")
        if user is not None and getattr(user, "is_authenticated", False):
            tournament.referees.add(user)
        for entrant in entrants:
            entrant_add(live, entrant, user=user, audit=False)
        audit_record(user=user, action="live_start", obj=tournament,
                     summary=f"run live with {len(entrants)} players")
    return live


def live_start_from_json(data: dict, *, user=None, today: date | None = None) -> LiveTournament:
    """Create a calendar tournament and run it live, as the technical board would (PAIRING.md §8 live_start)."""
    required = ("name", "system", "start_date", "end_date", "rounds", "city", "country", "referee", "players")
    missing = [k for k in required if data.get(k) in (None, "")]
    if missing:
        raise LiveRefused.one("fault", message=f"missing: {', '.join(missing)}")
    try:
        system = RatingSystem.objects.get(code=data["system"])
        start, end = date.fromisoformat(str(data["start_date"])), date.fromisoformat(str(data["end_date"]))
        rounds = int(data["rounds"])
        players = [NewEntrant(player=int(p["id"]), pool=str(p.get("pool") or "A"),
                              hat=int(p["hat"]) if p.get("hat") is not None else None) for p in data["players"]]
    except RatingSystem.DoesNotExist:
        raise LiveRefused.one("fault", message=f"unknown rating system {data['system']!r}") from None
    except (ValueError, TypeError, KeyError) as exc:
        raise LiveRefused.one("fault", message=f"bad value: {exc}") from None
    if end < start or not 1 <= rounds <= 12:
        raise LiveRefused.one("fault", message="the end date is before the start, or rounds is not 1-12")
    if not Country.objects.filter(pk=str(data["country"]).upper()).exists():
        raise LiveRefused.one("fault", message=f"unknown country {data['country']!r}")
    club = None
    if data.get("organising_club"):
        club = Club.objects.filter(name__iexact=str(data["organising_club"])).first()
    with transaction.atomic():
        tournament = Tournament.objects.create(
            system=system, name=str(data["name"])[:150], start_date=start, end_date=end, city=str(data["city"])[:100],
            country_id=str(data["country"]).upper(), organising_club=club, referee_name=str(data["referee"])[:150],
            army_points=data.get("army_points"), rounds=rounds, worlds=bool(data.get("worlds", False)),
            official=bool(data.get("official", True)), announced_on=today or timezone.localdate(),
            pools=len({p.pool for p in players}) or 1)
        live = live_begin(tournament, entrants=players, swiss=str(data.get("swiss") or ""), user=user)
    return live


def live_allow_self_entry(live: LiveTournament, allowed: bool, *, user=None) -> None:
    """Let the players enter their own table's results (each confirming), or stop it: the referee's choice,
    changeable during the day; results already in stay."""
    with transaction.atomic():
        live = locked(live)
        if live.players_enter_results == allowed:
            return
        LiveTournament.objects.filter(pk=live.pk).update(players_enter_results=allowed)
        audit_record(user=user, action="live_self_entry", obj=live.tournament,
                     summary="players enter their results" if allowed else "the referee enters the results")
        bump(live)
