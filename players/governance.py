"""The technical board's decisions: sanctions, exclusions, merges, retired IDs, championship overrides.

Terms (RULES.md §8, charter App. 7 §3):
- *yellow card*: kept one year, then erased. ``expires_on`` is the last day it is kept: decided on 10 March 2025,
  it is erased on 11 March 2026 (a card of 29 February is kept until 28 February of the next year).
- *red card*: kept; its public notice names no one ("A red card was given on <date>.").
- *exclusion*: the player leaves every public list, the ID is retired, the player's games are void for
  everyone and history replays.
- *merge*: two records of one person; the duplicate's facts move to the kept record, the duplicate keeps
  existing (``merged_into``) so old links resolve, and its ID is retired.
- *retired ID*: never given again by ``players.services.player_ids_allocate``.

Every service changes facts in one transaction, writes an audit entry, and asks for the replays those facts need
(``ratings.requests.replay_request``, enqueued after commit). Errors the board can fix raise ``GovernanceError``
with a message that says what is wrong and what to do.

Confidentiality: a sanction's reason is kept on the sanction only, never in the audit trail, so erasing a
yellow card erases its reason.
"""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from players.audit import audit_record, model_changes, snapshot
from players.models import SPARE_ID, OpeningBalance, Player, RetiredId, Sanction


class GovernanceError(ValueError):
    """A refused decision; the message says why and what to do instead."""


def _one_year_after(day: date) -> date:
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # 29 February
        return day.replace(year=day.year + 1, day=28)


def red_card_notice(decided_on: date) -> str:
    """The public text of a red card: a date and nothing else (charter App. 7 §3: no name, no motive)."""
    return f"A red card was given on {decided_on.isoformat()}."


def _require_reason(reason: str | None, what: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise GovernanceError(f"Give the reason for the {what}: it is required.")
    return reason


def _player_systems(player_ids: list[int]) -> dict[str, date | None]:
    """The rating systems where these players have facts, with the end date of their earliest tournament.

    None means "from scratch" (an opening balance starts the history before any tournament).
    """
    from tournaments.models import Game, Registration

    systems: dict[str, date | None] = {}

    def add(code: str, day: date | None) -> None:
        if code not in systems:
            systems[code] = day
        elif systems[code] is not None:
            systems[code] = None if day is None else min(systems[code], day)

    games = Game.objects.filter(Q(player_a_id__in=player_ids) | Q(player_b_id__in=player_ids))
    for code, day in games.values_list("tournament__system_id", "tournament__end_date").distinct():
        add(code, day)
    registrations = Registration.objects.filter(player_id__in=player_ids)
    for code, day in registrations.values_list("tournament__system_id", "tournament__end_date").distinct():
        add(code, day)
    for code in OpeningBalance.objects.filter(player_id__in=player_ids).values_list("system_id", flat=True):
        add(code, None)
    return systems


def _retire(player_id: int, reason: str) -> None:
    RetiredId.objects.get_or_create(id=player_id, defaults={"reason": reason[:200]})


# --- exclusion ---------------------------------------------------------------------------------------------------


def player_exclude(*, player: Player, reason: str, user, decided_on: date | None = None) -> Sanction:
    """Exclude a player: leaves every public list, ID retired, games void, history replayed from scratch."""
    from ratings.requests import replay_request

    reason = _require_reason(reason, "exclusion")
    decided_on = decided_on or timezone.localdate()
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.is_spare:
            raise GovernanceError(f"ID {SPARE_ID} is the spare player, not a person: it cannot be excluded.")
        if player.is_excluded:
            raise GovernanceError(f"Player {player.pk} was already excluded on {player.excluded_at:%Y-%m-%d}.")
        if player.merged_into_id is not None:
            raise GovernanceError(f"Player {player.pk} was merged into {player.merged_into_id}: exclude "
                                  f"player {player.merged_into_id} instead.")
        before = snapshot(player)
        player.excluded_at = timezone.now()
        player.save(update_fields=["excluded_at"])
        sanction = Sanction.objects.create(player=player, kind=Sanction.EXCLUSION, reason=reason,
                                           decided_on=decided_on, created_by=_user_or_none(user))
        _retire(player.pk, f"excluded (sanction #{sanction.pk})")
        audit_record(user=user, action="player_exclude", obj=player,
                     summary=f"Player {player.pk} excluded, ID retired (sanction #{sanction.pk})",
                     changes={**model_changes(player, before), "sanction": sanction.pk})
        # An exclusion voids the player's games for everyone from the first one: replay those systems from
        # scratch (exclusions are rare; from scratch is always right).
        for code in sorted(_player_systems([player.pk])):
            replay_request(system=code, since=None, reason=f"player {player.pk} excluded")
    return sanction


def _user_or_none(user):
    return user if getattr(user, "is_authenticated", False) else None


# --- sanctions ---------------------------------------------------------------------------------------------------


def sanction_give(*, player: Player, kind: str, reason: str, user, decided_on: date | None = None) -> Sanction:
    """Record a yellow card, a red card or an exclusion (then `player_exclude`). A reminder leaves no trace."""
    if kind == Sanction.EXCLUSION:
        return player_exclude(player=player, reason=reason, user=user, decided_on=decided_on)
    if kind not in (Sanction.YELLOW, Sanction.RED):
        raise GovernanceError(f"Unknown sanction {kind!r}: choose yellow, red or exclusion (a reminder is not "
                              f"recorded).")
    reason = _require_reason(reason, "card")
    decided_on = decided_on or timezone.localdate()
    if player.is_spare:
        raise GovernanceError(f"ID {SPARE_ID} is the spare player, not a person: it cannot be sanctioned.")
    if player.merged_into_id is not None:
        raise GovernanceError(f"Player {player.pk} was merged into {player.merged_into_id}: sanction player "
                              f"{player.merged_into_id} instead.")
    if player.is_excluded:
        raise GovernanceError(f"Player {player.pk} is excluded: a card adds nothing.")
    with transaction.atomic():
        sanction = Sanction.objects.create(
            player=player, kind=kind, reason=reason, decided_on=decided_on, created_by=_user_or_none(user),
            expires_on=_one_year_after(decided_on) if kind == Sanction.YELLOW else None,
            public_notice=red_card_notice(decided_on) if kind == Sanction.RED else "",
        )
        audit_record(user=user, action=f"sanction_{kind}", obj=sanction,
                     summary=f"{kind} card for player {player.pk} decided on {decided_on.isoformat()}",
                     changes={"player": player.pk, "kind": kind, "decided_on": decided_on.isoformat(),
                              "expires_on": sanction.expires_on.isoformat() if sanction.expires_on else None})
    return sanction


def yellow_cards_expire(*, today: date | None = None) -> int:
    """Erase the yellow cards kept for their year (expires_on before today). Safe to run twice."""
    today = today or timezone.localdate()
    with transaction.atomic():
        expired = list(Sanction.objects.select_for_update().filter(kind=Sanction.YELLOW, expires_on__lt=today))
        for sanction in expired:
            # The reason is erased with the card: the audit keeps only that a card existed.
            audit_record(user=None, action="sanction_expire", obj=sanction,
                         summary=f"yellow card of player {sanction.player_id} erased after one year",
                         changes={"player": sanction.player_id, "decided_on": sanction.decided_on.isoformat(),
                                  "expires_on": sanction.expires_on.isoformat()})
        Sanction.objects.filter(pk__in=[s.pk for s in expired]).delete()
    return len(expired)


# --- IDs ---------------------------------------------------------------------------------------------------------


def player_retire_id(*, player_id: int, reason: str, user) -> RetiredId:
    """Retire an ID nobody holds, so it is never given (e.g. an ID the old site used for someone else)."""
    reason = _require_reason(reason, "retirement")
    if player_id is None or player_id <= 0:
        raise GovernanceError("An ID is a whole number above 0.")
    if player_id == SPARE_ID:
        raise GovernanceError(f"ID {SPARE_ID} is the spare player's: it is never given anyway.")
    with transaction.atomic():
        if RetiredId.objects.filter(pk=player_id).exists():
            raise GovernanceError(f"ID {player_id} is already retired.")
        holder = Player.objects.filter(pk=player_id).first()
        if holder is not None and not holder.is_excluded and holder.merged_into_id is None:
            raise GovernanceError(f"ID {player_id} belongs to {holder.full_name}: exclude the player or merge "
                                  f"the record into another instead of retiring the ID.")
        retired = RetiredId.objects.create(id=player_id, reason=reason[:200])
        audit_record(user=user, action="retire_id", obj=retired, summary=f"ID {player_id} retired: {reason}"[:300])
    return retired


# --- merge -------------------------------------------------------------------------------------------------------


def player_merge(*, keep: Player, duplicate: Player, user) -> Player:
    """Move the duplicate's registrations, games, opening balances, cards and account to `keep`."""
    from ratings.requests import replay_request
    from tournaments.models import Game, Registration

    if keep.pk == duplicate.pk:
        raise GovernanceError("Choose two different players: a record cannot be merged into itself.")
    with transaction.atomic():
        locked = Player.objects.select_for_update().in_bulk([keep.pk, duplicate.pk])
        keep, duplicate = locked[keep.pk], locked[duplicate.pk]
        for player in (keep, duplicate):
            if player.is_spare:
                raise GovernanceError(f"ID {SPARE_ID} is the spare player: it cannot be merged.")
            if player.merged_into_id is not None:
                raise GovernanceError(f"Player {player.pk} was already merged into {player.merged_into_id}.")
            if player.is_excluded:
                raise GovernanceError(f"Player {player.pk} is excluded: an excluded record cannot be merged.")
        both = set(Registration.objects.filter(player=keep).values_list("tournament_id", flat=True)) & set(
            Registration.objects.filter(player=duplicate).values_list("tournament_id", flat=True))
        met = Game.objects.filter(Q(player_a=keep, player_b=duplicate) | Q(player_a=duplicate, player_b=keep))
        shared = sorted(both | set(met.values_list("tournament_id", flat=True)))
        if shared:
            raise GovernanceError(
                f"Players {keep.pk} and {duplicate.pk} are both registered in tournament(s) "
                f"{', '.join(map(str, shared))}: two people played there, so they are not duplicates. "
                f"If one row of a sheet is wrong, correct the sheet first."
            )
        clash = sorted(
            set(OpeningBalance.objects.filter(player=keep).values_list("system_id", flat=True))
            & set(OpeningBalance.objects.filter(player=duplicate).values_list("system_id", flat=True))
        )
        if clash:
            raise GovernanceError(
                f"Players {keep.pk} and {duplicate.pk} both have an opening balance in {', '.join(clash)}: "
                f"delete the wrong one in the admin (Players → opening balances), then merge."
            )
        systems = _player_systems([duplicate.pk])
        moved = {
            "registrations": Registration.objects.filter(player=duplicate).update(player=keep),
            "games_as_a": Game.objects.filter(player_a=duplicate).update(player_a=keep),
            "games_as_b": Game.objects.filter(player_b=duplicate).update(player_b=keep),
            "opening_balances": OpeningBalance.objects.filter(player=duplicate).update(player=keep),
            "sanctions": Sanction.objects.filter(player=duplicate).update(player=keep),
        }
        before = snapshot(duplicate)
        duplicate.merged_into = keep
        account = duplicate.user
        duplicate.user = None
        duplicate.save(update_fields=["merged_into", "user"])
        if account is not None and keep.user_id is None:
            keep.user = account
            keep.save(update_fields=["user"])
            moved["account"] = account.pk
        _retire(duplicate.pk, f"merged into {keep.pk}")
        audit_record(user=user, action="player_merge", obj=duplicate,
                     summary=f"Player {duplicate.pk} merged into {keep.pk}, ID {duplicate.pk} retired",
                     changes={**model_changes(duplicate, before), "keep": keep.pk, "moved": moved})
        for code, since in sorted(systems.items()):
            replay_request(system=code, since=since, reason=f"player {duplicate.pk} merged into {keep.pk}")
    return keep


# --- championship ------------------------------------------------------------------------------------------------


def tournament_override(*, tournament, counts: bool | None, reason: str, user):
    """The board decides whether a tournament counts for the championship (None: follow the charter's checks)."""
    from ratings.requests import replay_request
    from tournaments.models import Tournament

    reason = (reason or "").strip()
    if counts is not None and not reason:
        raise GovernanceError("Give the reason for the decision: it is shown publicly next to the tournament.")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.counts_override == counts and tournament.override_reason == reason:
            return tournament
        before = snapshot(tournament)
        tournament.counts_override = counts
        tournament.override_reason = reason
        tournament.save(update_fields=["counts_override", "override_reason"])
        label = {True: "counts", False: "does not count", None: "follows the charter's checks"}[counts]
        audit_record(user=user, action="tournament_override", obj=tournament,
                     summary=f"Tournament {tournament.pk} {label}", changes=model_changes(tournament, before))
        replay_request(system=tournament.system_id, since=tournament.end_date,
                       reason=f"championship override of tournament {tournament.pk}")
    return tournament


def tournament_results_withdraw(*, tournament, reason: str, user):
    """Take a tournament's results out (a sheet imported by mistake, results the board annuls): its games and
    registrations go, it is back to announced, and the replay from its end recomputes everything after it: its
    rating events, standings, outcome and championship points go with that replay, the only writer of derived
    rows."""
    from ratings.requests import replay_request
    from tournaments.models import Tournament

    reason = (reason or "").strip()
    if not reason:
        raise GovernanceError("Give the reason for withdrawing the results: it is kept in the audit log.")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status == Tournament.REGISTERED:
            raise GovernanceError("This tournament has no results to withdraw.")
        games = tournament.games.count()
        tournament.games.all().delete()
        tournament.registrations.all().delete()
        tournament.status = Tournament.REGISTERED
        tournament.save(update_fields=["status"])
        audit_record(user=user, action="tournament_results_withdrawn", obj=tournament,
                     summary=f"Results of tournament {tournament.pk} withdrawn ({games} games)",
                     changes={"reason": reason, "games": games})
        replay_request(system=tournament.system_id, since=tournament.end_date,
                       reason=f"results of tournament {tournament.pk} withdrawn")
    return tournament


def tournament_exception_approve(*, tournament, approved: bool, reason: str, user):
    """Approve (or withdraw) an exception to the registration rules of charter App. 1 §1-2."""
    from ratings.requests import replay_request
    from tournaments.models import Tournament

    reason = (reason or "").strip()
    if approved and not reason:
        raise GovernanceError("Give the reason for the exception: it is required.")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        before = snapshot(tournament)
        tournament.exception_approved = approved
        tournament.exception_reason = reason
        tournament.save(update_fields=["exception_approved", "exception_reason"])
        audit_record(user=user, action="tournament_exception", obj=tournament,
                     summary=f"Registration exception {'approved' if approved else 'withdrawn'} for tournament "
                             f"{tournament.pk}", changes=model_changes(tournament, before))
        if tournament.games.exists():
            replay_request(system=tournament.system_id, since=tournament.end_date,
                           reason=f"registration exception of tournament {tournament.pk}")
    return tournament


def audit_entries(*, action: str = "", object_type: str = "", object_id: str = "", username: str = "",
                  since: date | None = None):
    """The audit trail filtered for the board's reader (a selector)."""
    from players.models import AuditEntry

    qs = AuditEntry.objects.select_related("user")
    if action:
        qs = qs.filter(action=action)
    if object_type:
        qs = qs.filter(object_type__iexact=object_type)
    if object_id:
        qs = qs.filter(object_id=object_id)
    if username:
        qs = qs.filter(user__username__iexact=username)
    if since:
        qs = qs.filter(at__date__gte=since)
    return qs
