"""Starting a tournament day (PAIRING.md §7): a calendar tournament run live from the referee's pages, or a tournament
created and run live from a JSON description (the `live_start` command, §8); cancelling a start; the referee's
settings of the day.

Terms
-----
results on the site
    A tournament whose result sheet was imported (status received or rated, or games on the site). It is never
    run live: a rated tournament is corrected by a new sheet.
its dates
    A live run starts on a day within the tournament's dates. Started on another day, the referee first gives the
    real dates and rounds: the calendar entry is corrected (and audited) before the start. `live_start` states the
    dates itself, past dates included; never a start after today (the publication would refuse it).
cancelled
    A live run with no round published may be cancelled: its players, proposals and settings go, the tournament is
    a calendar entry again, and its public page no longer says it is live.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.utils import timezone

from players.audit import audit_record
from players.models import Country, Player
from players.selectors import club_named
from players.services import club_for_name
from ratings.models import RatingSystem
from rules.sheet.checks import text_faults
from rules.sheet.values import cell_text
from tournaments.before.entries import day_players
from tournaments.live.entrants import NewEntrant, entrant_add, tournament_pools
from tournaments.live.pools import bump, locked
from tournaments.live.refusals import LiveRefused
from tournaments.models import Announcement, LiveTournament, Registration, Tournament
from tournaments.selectors import results_on_site

MAX_ROUNDS = 12
MAX_DAYS = 31  # a tournament's last day at most this long after its first: a longer span is a typed year
ARMY_POINTS = (100, 300)  # RESULT_SHEET.md: the sheet refuses other values


@dataclass(frozen=True)
class TournamentDates:
    """The real dates and rounds of a tournament, as the referee confirms them before starting it live."""

    start: date
    end: date
    rounds: int


def live_begin(tournament: Tournament, *, entrants: Sequence[NewEntrant] = (), swiss: str = "",
               players_enter_results: bool = False, user=None) -> LiveTournament:
    """Make a calendar tournament a live one, with its first players."""
    if swiss not in ("", LiveTournament.CLASSIC, LiveTournament.ADAPTED):
        raise LiveRefused.one("fault", message=f"swiss must be classic or adapted, not {swiss!r}")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if results_on_site(tournament):
            raise LiveRefused.one("results_on_site", name=tournament.name)
        live, created = LiveTournament.objects.get_or_create(
            tournament=tournament,
            defaults={"swiss": swiss, "players_enter_results": players_enter_results, "started_by": user})
        if not created:
            raise LiveRefused.one("already_live", name=tournament.name)
        if user is not None and getattr(user, "is_authenticated", False):
            tournament.referees.add(user)
        pools = tournament_pools(live)
        for entrant in entrants:
            entrant_add(live, entrant, user=user, audit=False, pools=pools)
        audit_record(user=user, action="live_start", obj=tournament,
                     summary=f"run live with {len(entrants)} players")
    return live


def dates_problems(dates: TournamentDates, *, today: date) -> list[tuple[str, dict]]:
    """What is wrong with dates a live run starts on today (each a LiveRefused notice)."""
    problems: list[tuple[str, dict]] = []
    if not 1 <= dates.rounds <= MAX_ROUNDS:
        problems.append(("rounds_invalid", {"rounds": dates.rounds}))
    if dates.end < dates.start:
        problems.append(("end_before_start", {"start": dates.start.isoformat(), "end": dates.end.isoformat()}))
    elif (dates.end - dates.start).days > MAX_DAYS:
        problems.append(("dates_too_far_apart", {"start": dates.start.isoformat(), "end": dates.end.isoformat(),
                                                 "days": MAX_DAYS}))
    elif dates.start > today:
        problems.append(("start_in_future", {"start": dates.start.isoformat(), "today": today.isoformat()}))
    elif dates.end < today:
        problems.append(("dates_exclude_today", {"start": dates.start.isoformat(), "end": dates.end.isoformat(),
                                                 "today": today.isoformat()}))
    return problems


def on_its_dates(tournament: Tournament, *, today: date | None = None) -> bool:
    today = today or timezone.localdate()
    return tournament.start_date <= today <= tournament.end_date


def live_start_calendar(tournament: Tournament, *, dates: TournamentDates | None = None, swiss: str = "",
                        players_enter_results: bool = False, user=None, today: date | None = None) -> LiveTournament:
    """The referee's start of a calendar tournament (PAIRING.md §7): its dates and rounds corrected first when they
    differ from what the referee confirms (audited), refused on a day outside them; its players registered in the
    calendar enter it absent, to be checked in."""
    today = today or timezone.localdate()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if results_on_site(tournament):
            raise LiveRefused.one("results_on_site", name=tournament.name)
        if dates is not None:
            problems = dates_problems(dates, today=today)
            if problems:
                raise LiveRefused(problems)
            _dates_correct(tournament, dates, user=user)
        if not on_its_dates(tournament, today=today):
            raise LiveRefused.one("dates_exclude_today", start=tournament.start_date.isoformat(),
                                  end=tournament.end_date.isoformat(), today=today.isoformat())
        # The calendar's registrations and the players' own entries (tournaments.before.entries); an excluded player
        # or a merged duplicate among them does not play (and does not block).
        players = day_players(tournament=tournament)
        allowed = set(Player.objects.filter(pk__in=[p.player_id for p in players], excluded_at__isnull=True,
                                            merged_into__isnull=True).values_list("pk", flat=True))
        entrants = [NewEntrant(player=p.player_id, pool=p.pool, present=False)
                    for p in sorted(players, key=lambda p: (p.pool, p.player_id)) if p.player_id in allowed]
        return live_begin(tournament, entrants=entrants, swiss=swiss, players_enter_results=players_enter_results,
                          user=user)


def _dates_correct(tournament: Tournament, dates: TournamentDates, *, user=None) -> None:
    before = {"start_date": tournament.start_date, "end_date": tournament.end_date, "rounds": tournament.rounds}
    after = {"start_date": dates.start, "end_date": dates.end, "rounds": dates.rounds}
    if before == after:
        return
    Tournament.objects.filter(pk=tournament.pk).update(**after)
    for key, value in after.items():
        setattr(tournament, key, value)
    changes = {key: [str(before[key]), str(after[key])] for key in after if before[key] != after[key]}
    # The dates derived from the start move with it (PAIRING.md §7, decision of 2026-12-02): the army lists'
    # deadline keeps its distance to the first day.
    shift = dates.start - before["start_date"]
    announcement = Announcement.objects.select_for_update().filter(tournament=tournament).first()
    if shift and announcement is not None:
        deadline = announcement.list_deadline + shift
        changes["list_deadline"] = [str(announcement.list_deadline), str(deadline)]
        Announcement.objects.filter(pk=announcement.pk).update(list_deadline=deadline)
    audit_record(user=user, action="tournament_dates", obj=tournament,
                 summary="dates and rounds confirmed by the referee before running it live"
                         + ("; the army lists' deadline moved with the start" if "list_deadline" in changes else ""),
                 changes=changes)


def live_cancel(live: LiveTournament, *, user=None) -> Tournament:
    """Cancel a live run that has no round published: it is a calendar tournament again (see the module's terms).
    The registrations the run made go with it; those of the calendar stay."""
    with transaction.atomic():
        live = locked(live)
        published = live.rounds.filter(published_at__isnull=False).order_by("number", "pool").first()
        if published is not None:
            raise LiveRefused.one("cannot_cancel", round=published.number, pool=published.pool)
        tournament = live.tournament
        players = [pk for pk in live.entrants.values_list("player_id", flat=True) if pk is not None]
        added, _ = Registration.objects.filter(tournament=tournament, player_id__in=players,
                                               registered_at__gte=live.started_at).delete()
        audit_record(user=user, action="live_cancel", obj=tournament,
                     summary=f"live run cancelled before round 1 ({len(players)} federation players, "
                             f"{live.entrants.count() - len(players)} new ones)",
                     changes={"entrants": live.entrants.count(), "registrations_removed": added})
        live.delete()
    return tournament


# --- live_start (PAIRING.md §8): a JSON description, strictly typed


def _json_type(value) -> str:
    return {bool: "true/false", int: "a number", float: "a number", str: "a text", list: "a list",
            dict: "an object", type(None): "null"}.get(type(value), type(value).__name__)


def _refuse(message: str) -> LiveRefused:
    return LiveRefused.one("fault", message=message)


def _text(data: dict, key: str, *, limit: str, required: bool = True) -> str | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise _refuse(f"{key} must be a text, not {_json_type(value)} ({value!r:.40}).")
    text = cell_text(value)
    if text is None and required:
        raise _refuse(f"missing: {key}")
    faults = text_faults(key=limit, label=key, text=text)
    if faults:
        raise LiveRefused((f.code, f.params) for f in faults)
    return text


def _whole(data: dict, key: str, *, low: int, high: int) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise _refuse(f"{key} must be a whole number, not {_json_type(value)} ({value!r:.40}).")
    if not low <= value <= high:
        raise _refuse(f"{key} must be a whole number from {low} to {high}, not {value}.")
    return value


def _flag(data: dict, key: str, default: bool) -> bool:
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise _refuse(f"{key} must be true or false (JSON booleans), not {_json_type(value)} ({value!r:.40}).")
    return value


def _date(data: dict, key: str) -> date:
    value = data[key]
    if not isinstance(value, str):
        raise _refuse(f"{key} must be a date written YYYY-MM-DD, not {_json_type(value)} ({value!r:.40}).")
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise _refuse(f"{key} must be a date written YYYY-MM-DD, not {value!r:.40}.") from None


def _players(value) -> list[NewEntrant]:
    if not isinstance(value, list):
        raise _refuse('players must be a list of {"id", "pool"?, "hat"?}.')
    players = []
    for number, item in enumerate(value, 1):
        if not isinstance(item, dict):
            raise _refuse(f'players[{number}] must be an object {{"id", "pool"?, "hat"?}}, not {_json_type(item)}.')
        where = f"players[{number}]"
        player_id = item.get("id")
        if not isinstance(player_id, int) or isinstance(player_id, bool) or not 1 <= player_id < 2**31:
            raise _refuse(f"{where}.id must be a federation ID (a positive whole number), not "
                          f"{_json_type(player_id)} ({player_id!r:.40}).")
        pool = item.get("pool")
        if pool is not None and (not isinstance(pool, str) or not pool.strip()):
            raise _refuse(f"{where}.pool must be a text such as \"A\", not {_json_type(pool)} ({pool!r:.40}).")
        hat = item.get("hat")
        if hat is not None and (not isinstance(hat, int) or isinstance(hat, bool) or hat not in (1, 2)):
            raise _refuse(f"{where}.hat must be 1, 2 or null, not {_json_type(hat)} ({hat!r:.40}).")
        players.append(NewEntrant(player=player_id, pool=pool or "A", hat=hat))
    return players


def live_start_from_json(data: dict, *, user=None, today: date | None = None) -> LiveTournament:
    """Create a calendar tournament and run it live, as the technical board would (PAIRING.md §8 live_start).
    Every value has its JSON type (a number is not a text, true is not "true"); anything else is refused, saying
    which key and why, and nothing is created."""
    today = today or timezone.localdate()
    if not isinstance(data, dict):
        raise _refuse("the file must hold one JSON object.")
    required = ("name", "system", "start_date", "end_date", "rounds", "city", "country", "referee", "players")
    missing = [k for k in required if data.get(k) in (None, "")]
    if missing:
        raise _refuse(f"missing: {', '.join(missing)}")
    name = _text(data, "name", limit="name")
    city = _text(data, "city", limit="city")
    referee = _text(data, "referee", limit="referee")
    organiser = _text(data, "organising_club", limit="organising_club", required=False)
    system_code = data["system"]
    if not isinstance(system_code, str) or not RatingSystem.objects.filter(code=system_code).exists():
        raise _refuse(f"unknown rating system {system_code!r:.40} (adlg or battle-empire).")
    country = data["country"]
    if not isinstance(country, str) or not Country.objects.filter(pk=country.strip().upper()).exists():
        raise _refuse(f"unknown country {country!r:.40}: an ISO 3166-1 alpha-2 code such as FR or GB.")
    start, end = _date(data, "start_date"), _date(data, "end_date")
    rounds = _whole(data, "rounds", low=1, high=MAX_ROUNDS)
    problems = [p for p in dates_problems(TournamentDates(start, end, rounds), today=today)
                if p[0] != "dates_exclude_today"]  # past dates are stated here: a tournament entered afterwards
    if problems:
        raise LiveRefused(problems)
    army_points = _whole(data, "army_points", low=ARMY_POINTS[0], high=ARMY_POINTS[1])
    worlds, official = _flag(data, "worlds", False), _flag(data, "official", True)
    players_enter_results = _flag(data, "players_enter_results", False)
    swiss = data.get("swiss") or ""
    if swiss not in ("", LiveTournament.CLASSIC, LiveTournament.ADAPTED):
        raise _refuse(f"swiss must be \"classic\" or \"adapted\", not {swiss!r:.40}.")
    players = _players(data["players"])
    with transaction.atomic():
        club = (club_named(organiser) or club_for_name(organiser, country_id=country.strip().upper())
                if organiser else None)
        tournament = Tournament.objects.create(
            system_id=system_code, name=name, start_date=start, end_date=end, city=city,
            country_id=country.strip().upper(), organising_club=club, referee_name=referee,
            army_points=army_points, rounds=rounds, worlds=worlds, official=official, announced_on=today,
            pools=len({p.pool for p in players}) or 1)
        live = live_begin(tournament, entrants=players, swiss=swiss, players_enter_results=players_enter_results,
                          user=user)
    return live


def live_show_screen_chances(live: LiveTournament, shown: bool, *, user=None) -> None:
    """Show each player's chances on the big screen, or stop showing them: the referee's choice."""
    with transaction.atomic():
        live = locked(live)
        if live.screen_chances == shown:
            return
        LiveTournament.objects.filter(pk=live.pk).update(screen_chances=shown)
        audit_record(user=user, action="live_screen_chances", obj=live.tournament,
                     summary="the big screen shows the chances" if shown else "the big screen hides the chances")
        bump(live)


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

