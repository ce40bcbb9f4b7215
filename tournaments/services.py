"""The technical board's decisions about tournaments: whether one counts for the championship, its results taken
out, an exception to the registration rules. Each changes the facts in one transaction, is audited, and asks for
the replay that follows (ratings.requests); a refusal raises players.governance.GovernanceError, which the board's
pages show.
"""

from __future__ import annotations

from django.db import transaction

from players.audit import audit_record, model_changes, snapshot
from players.governance import GovernanceError
from ratings.requests import replay_request
from tournaments.models import Tournament


def tournament_override(*, tournament, counts: bool | None, reason: str, user):
    """The board decides whether a tournament counts for the championship (None: follow the charter's checks)."""
    reason = (reason or "").strip()
    if counts is not None and not reason:
        raise GovernanceError.one("decision_reason")
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
    reason = (reason or "").strip()
    if not reason:
        raise GovernanceError.one("results_withdrawal_reason")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status == Tournament.REGISTERED:
            raise GovernanceError.one("no_results")
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
    reason = (reason or "").strip()
    if approved and not reason:
        raise GovernanceError.one("exception_reason")
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
