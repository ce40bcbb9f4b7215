"""The technical board's decisions about players: sanctions, exclusions, merges, retired IDs (its decisions about
tournaments are tournaments.services').

Terms (RULES.md §8, charter App. 7 §3):
- *yellow card*: kept one year, then erased. ``expires_on`` is the last day it is kept: decided on 10 March 2025,
  it is erased on 11 March 2026 (a card of 29 February is kept until 28 February of the next year).
- *red card*: kept; its public notice names no one ("A red card was given on <date>.").
- *exclusion*: the player leaves every public list, the ID is retired, the player's games are void for
  everyone and history replays.
- *merge*: two records of one person; the duplicate's facts move to the kept record, the duplicate keeps
  existing (``merged_into``) so old links resolve, and its ID is retired.
- *retired ID*: never given again by ``players.services.player_ids_allocate``.
- *withdrawal*: the board takes back a card or an exclusion it recorded (an appeal upheld, a mistaken ID), with a
  reason kept in the audit trail. A withdrawn card is erased as an expired yellow card is (its public notice goes
  with it); a withdrawn exclusion gives the player back their ID, lists and games, and history replays.

Every service changes facts in one transaction, writes an audit entry, and asks for the replays those facts need
(``ratings.requests.replay_request``, enqueued after commit). Errors the board can fix raise ``GovernanceError``
with a message that says what is wrong and what to do, in the language of the request (the audit stays in English).

Confidentiality: a sanction's reason is kept on the sanction only, never in the audit trail, so erasing a
yellow card erases its reason.
"""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format

from players import notices
from players.audit import audit_record, model_changes, snapshot
from players.models import SPARE_ID, OpeningBalance, Player, RetiredId, Sanction
from ratings.requests import replay_request
from rules.words import Refused, gettext_noop
from tournaments.models import Game, Registration, Tournament


class GovernanceError(Refused, ValueError):
    """A refused decision; its sentences say why and what to do instead."""

    sentences = {
        "exclusion_reason": gettext_noop("Give the reason for the exclusion: it is required."),
        "card_reason": gettext_noop("Give the reason for the card: it is required."),
        "withdrawal_reason": gettext_noop("Give the reason for the withdrawal: it is kept in the audit log."),
        "retirement_reason": gettext_noop("Give the reason for the retirement: it is required."),
        "spare_excluded": gettext_noop("ID %(id)s is the spare player, not a person: it cannot be excluded."),
        "already_excluded": gettext_noop("Player %(id)s was already excluded on %(date)s."),
        "merged_excluded": gettext_noop("Player %(id)s was merged into %(keep)s: exclude player %(keep)s instead."),
        "playing_live": gettext_noop(
            "Player %(id)s plays in %(tournaments)s, run live on the site and not yet published: with an excluded "
            "player in it, the tournament could not be published. Ask its referee to publish it first (Run a "
            "tournament live, Publish the tournament), then exclude the player: the exclusion voids their games "
            "there too."),
        "unknown_sanction": gettext_noop("Unknown sanction %(kind)r: choose yellow, red or exclusion (a reminder is "
                                         "not recorded)."),
        "spare_sanctioned": gettext_noop("ID %(id)s is the spare player, not a person: it cannot be sanctioned."),
        "merged_sanctioned": gettext_noop("Player %(id)s was merged into %(keep)s: sanction player %(keep)s "
                                          "instead."),
        "excluded_card": gettext_noop("Player %(id)s is excluded: a card adds nothing."),
        "sanction_gone": gettext_noop("Sanction #%(id)s was already withdrawn (by someone else, or by a second "
                                      "click): nothing more to do."),
        "not_exclusion": gettext_noop("Sanction #%(id)s is a card, not an exclusion."),
        "id_not_whole": gettext_noop("An ID is a whole number above 0."),
        "spare_id": gettext_noop("ID %(id)s is the spare player's: it is never given anyway."),
        "id_retired": gettext_noop("ID %(id)s is already retired."),
        "id_held": gettext_noop("ID %(id)s belongs to %(name)s: exclude the player or merge the record into another "
                                "instead of retiring the ID."),
        "merge_itself": gettext_noop("Choose two different players: a record cannot be merged into itself."),
        "spare_merged": gettext_noop("ID %(id)s is the spare player: it cannot be merged."),
        "already_merged": gettext_noop("Player %(id)s was already merged into %(keep)s."),
        "excluded_merged": gettext_noop("Player %(id)s is excluded: an excluded record cannot be merged."),
        "played_together": gettext_noop(
            "Players %(keep)s and %(duplicate)s are both registered in tournament(s) %(tournaments)s: two people "
            "played there, so they are not duplicates. If one row of a sheet is wrong, correct the sheet first."),
        "decision_reason": gettext_noop("Give the reason for the decision: it is shown publicly next to the "
                                        "tournament."),
        "results_withdrawal_reason": gettext_noop("Give the reason for withdrawing the results: it is kept in the "
                                                  "audit log."),
        "no_results": gettext_noop("This tournament has no results to withdraw."),
        "exception_reason": gettext_noop("Give the reason for the exception: it is required."),
        "opening_balances": gettext_noop(
            "Players %(keep)s and %(duplicate)s both have an opening balance in %(systems)s: delete the wrong one in "
            "the admin (Players → opening balances), then merge."),
    }
    tournament_sentence = gettext_noop("tournament %(id)s (%(name)s, %(date)s)")

    @classmethod
    def wording(cls, code: str, params: dict, words, names=None) -> str:
        if code == "playing_live":  # each tournament named in the reader's words
            named = [words.gettext(cls.tournament_sentence) % {**t, "date": date_format(t["date"])}
                     for t in params["tournaments"]]
            params = {**params, "tournaments": ", ".join(named)}
        return super().wording(code, params, words, names)


def _one_year_after(day: date) -> date:
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # 29 February
        return day.replace(year=day.year + 1, day=28)


def red_card_notice(decided_on: date) -> str:
    """The public text of a red card: a date and nothing else (charter App. 7 §3: no name, no motive)."""
    return f"A red card was given on {decided_on.isoformat()}."


def _require_reason(reason: str | None, code: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise GovernanceError.one(code)
    return reason


def _player_systems(player_ids: list[int]) -> dict[str, date | None]:
    """The rating systems where these players have facts, with the end date of their earliest tournament.

    None means "from scratch" (an opening balance starts the history before any tournament).
    """
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
    reason = _require_reason(reason, "exclusion_reason")
    decided_on = decided_on or timezone.localdate()
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.is_spare:
            raise GovernanceError.one("spare_excluded", id=SPARE_ID)
        if player.is_excluded:
            raise GovernanceError.one("already_excluded", id=player.pk, date=player.excluded_at)
        if player.merged_into_id is not None:
            raise GovernanceError.one("merged_excluded", id=player.pk, keep=player.merged_into_id)
        _refuse_while_playing_live(player)
        before = snapshot(player)
        player.excluded_at = timezone.now()
        player.save(update_fields=["excluded_at"])
        sanction = Sanction.objects.create(player=player, kind=Sanction.EXCLUSION, reason=reason,
                                           decided_on=decided_on, created_by=_user_or_none(user))
        _retire(player.pk, f"excluded (sanction #{sanction.pk})")
        audit_record(user=user, action="player_exclude", obj=player,
                     summary=f"Player {player.pk} excluded, ID retired (sanction #{sanction.pk})",
                     changes={**model_changes(player, before), "sanction": sanction.pk})
        notices.sanction_recorded(sanction)
        # An exclusion voids the player's games for everyone from the first one: replay those systems from
        # scratch (exclusions are rare; from scratch is always right).
        for code in sorted(_player_systems([player.pk])):
            replay_request(system=code, since=None, reason=f"player {player.pk} excluded")
    return sanction


def _refuse_while_playing_live(player: Player) -> None:
    """**Decision**: a player of a tournament run live on the site, not yet published, cannot be excluded. Its
    publication imports its workbook through the sheet's checks, which refuse an excluded player: the tournament
    could never be published (a withdrawal keeps the games already played in the workbook). The board publishes
    it first (its referee does), then excludes: the exclusion voids the player's games there too."""
    running = list(Tournament.objects.filter(live__entrants__player=player, live__published_at__isnull=True,
                                              live__handed_over_at__isnull=True)
                   .distinct().order_by("start_date", "pk"))
    if running:
        raise GovernanceError.one("playing_live", id=player.pk, tournaments=[
            {"id": t.pk, "name": t.name, "date": t.start_date} for t in running])


def _user_or_none(user):
    return user if getattr(user, "is_authenticated", False) else None


# --- sanctions ---------------------------------------------------------------------------------------------------


def sanction_give(*, player: Player, kind: str, reason: str, user, decided_on: date | None = None,
                  tournament=None) -> Sanction:
    """Record a yellow card, a red card or an exclusion (then `player_exclude`). A reminder leaves no trace.

    `tournament`: where it happened, if anywhere; a red card's public notice names it (and the date, no one)."""
    if kind == Sanction.EXCLUSION:
        return player_exclude(player=player, reason=reason, user=user, decided_on=decided_on)
    if kind not in (Sanction.YELLOW, Sanction.RED):
        raise GovernanceError.one("unknown_sanction", kind=kind)
    reason = _require_reason(reason, "card_reason")
    decided_on = decided_on or timezone.localdate()
    if player.is_spare:
        raise GovernanceError.one("spare_sanctioned", id=SPARE_ID)
    if player.merged_into_id is not None:
        raise GovernanceError.one("merged_sanctioned", id=player.pk, keep=player.merged_into_id)
    if player.is_excluded:
        raise GovernanceError.one("excluded_card", id=player.pk)
    with transaction.atomic():
        sanction = Sanction.objects.create(
            player=player, kind=kind, reason=reason, decided_on=decided_on, created_by=_user_or_none(user),
            expires_on=_one_year_after(decided_on) if kind == Sanction.YELLOW else None,
            public_notice=red_card_notice(decided_on) if kind == Sanction.RED else "", tournament=tournament,
        )
        audit_record(user=user, action=f"sanction_{kind}", obj=sanction,
                     summary=f"{kind} card for player {player.pk} decided on {decided_on.isoformat()}",
                     changes={"player": player.pk, "kind": kind, "decided_on": decided_on.isoformat(),
                              "expires_on": sanction.expires_on.isoformat() if sanction.expires_on else None,
                              "tournament": tournament.pk if tournament is not None else None})
        notices.sanction_recorded(sanction)
    return sanction


def sanction_withdraw(*, sanction: Sanction, reason: str, user) -> Player:
    """Take back a card or an exclusion. A card is erased (its public notice with it); an exclusion gives the player
    back: listed again, the ID in use again, the games counted again, history replayed from scratch."""
    reason = _require_reason(reason, "withdrawal_reason")
    if sanction.kind == Sanction.EXCLUSION:
        return player_exclusion_withdraw(sanction=sanction, reason=reason, user=user)
    with transaction.atomic():
        # Locked and read again: the same card withdrawn twice at once (two board members, a double click), the
        # second finds it gone and is told so.
        sanction = _locked_or_withdrawn(Sanction.objects.select_related("player"), sanction.pk)
        # The card's own (confidential) reason is erased with it, as when a yellow card expires; the audit keeps
        # that a card existed and why the board withdrew it.
        audit_record(user=user, action="sanction_withdrawn", obj=sanction,
                     summary=f"{sanction.kind} card of player {sanction.player_id} decided on "
                             f"{sanction.decided_on.isoformat()} withdrawn",
                     changes={"player": sanction.player_id, "kind": sanction.kind,
                              "decided_on": sanction.decided_on.isoformat(), "withdrawal_reason": reason})
        sanction.delete()
    return sanction.player


def _locked_or_withdrawn(sanctions, pk: int) -> Sanction:
    """The sanction, locked until the transaction ends; GovernanceError if it is gone (withdrawn meanwhile)."""
    sanction = sanctions.select_for_update().filter(pk=pk).first()
    if sanction is None:
        raise GovernanceError.one("sanction_gone", id=pk)
    return sanction


def player_exclusion_withdraw(*, sanction: Sanction, reason: str, user) -> Player:
    """Withdraw an exclusion: the player is back on every list with their ID and games; history replays."""
    reason = _require_reason(reason, "withdrawal_reason")
    with transaction.atomic():
        sanction = _locked_or_withdrawn(Sanction.objects.all(), sanction.pk)
        if sanction.kind != Sanction.EXCLUSION:
            raise GovernanceError.one("not_exclusion", id=sanction.pk)
        player = Player.objects.select_for_update().get(pk=sanction.player_id)
        before = snapshot(player)
        player.excluded_at = None
        player.save(update_fields=["excluded_at"])
        # The ID was retired by the exclusion only (not by a merge or the board for another reason): it is the
        # player's again. IDs are given above every player's, so it could never go to someone else anyway.
        RetiredId.objects.filter(pk=player.pk, reason=f"excluded (sanction #{sanction.pk})").delete()
        others = Sanction.objects.filter(player=player, kind=Sanction.EXCLUSION).exclude(pk=sanction.pk)
        withdrawn = [sanction.pk, *others.values_list("pk", flat=True)]
        audit_record(user=user, action="exclusion_withdrawn", obj=player,
                     summary=f"Exclusion of player {player.pk} withdrawn (sanction #{sanction.pk}); history replays",
                     changes={**model_changes(player, before), "sanctions": withdrawn, "withdrawal_reason": reason})
        Sanction.objects.filter(pk__in=withdrawn).delete()
        # The player's games count again for everyone, from the first: replay those systems from scratch.
        for code in sorted(_player_systems([player.pk])):
            replay_request(system=code, since=None, reason=f"exclusion of player {player.pk} withdrawn")
    return player


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
    reason = _require_reason(reason, "retirement_reason")
    if player_id is None or player_id <= 0:
        raise GovernanceError.one("id_not_whole")
    if player_id == SPARE_ID:
        raise GovernanceError.one("spare_id", id=SPARE_ID)
    with transaction.atomic():
        if RetiredId.objects.filter(pk=player_id).exists():
            raise GovernanceError.one("id_retired", id=player_id)
        holder = Player.objects.filter(pk=player_id).first()
        if holder is not None and not holder.is_excluded and holder.merged_into_id is None:
            raise GovernanceError.one("id_held", id=player_id, name=holder.full_name)
        retired = RetiredId.objects.create(id=player_id, reason=reason[:200])
        audit_record(user=user, action="retire_id", obj=retired, summary=f"ID {player_id} retired: {reason}"[:300])
    return retired


# --- merge -------------------------------------------------------------------------------------------------------


def merge_conflicts(*, keep: Player, duplicate: Player) -> list[tuple[str, dict]]:
    """Why these two records cannot be merged, as GovernanceError's reasons (empty: they can). The board's page
    shows them before its button, and `player_merge` checks them again under its locks."""
    if keep.pk == duplicate.pk:
        return [("merge_itself", {})]
    problems = []
    for player in (keep, duplicate):
        if player.is_spare:
            problems.append(("spare_merged", {"id": SPARE_ID}))
        elif player.merged_into_id is not None:
            problems.append(("already_merged", {"id": player.pk, "keep": player.merged_into_id}))
        elif player.is_excluded:
            problems.append(("excluded_merged", {"id": player.pk}))
    both = set(Registration.objects.filter(player=keep).values_list("tournament_id", flat=True)) & set(
        Registration.objects.filter(player=duplicate).values_list("tournament_id", flat=True))
    met = Game.objects.filter(Q(player_a=keep, player_b=duplicate) | Q(player_a=duplicate, player_b=keep))
    shared = sorted(both | set(met.values_list("tournament_id", flat=True)))
    if shared:
        problems.append(("played_together", {"keep": keep.pk, "duplicate": duplicate.pk,
                                             "tournaments": ", ".join(map(str, shared))}))
    clash = sorted(
        set(OpeningBalance.objects.filter(player=keep).values_list("system_id", flat=True))
        & set(OpeningBalance.objects.filter(player=duplicate).values_list("system_id", flat=True))
    )
    if clash:
        problems.append(("opening_balances", {"keep": keep.pk, "duplicate": duplicate.pk,
                                              "systems": ", ".join(clash)}))
    return problems


def player_merge(*, keep: Player, duplicate: Player, user) -> Player:
    """Move the duplicate's registrations, games, opening balances, cards and account to `keep`."""
    if keep.pk == duplicate.pk:
        raise GovernanceError.one("merge_itself")
    with transaction.atomic():
        locked = Player.objects.select_for_update().in_bulk([keep.pk, duplicate.pk])
        keep, duplicate = locked[keep.pk], locked[duplicate.pk]
        problems = merge_conflicts(keep=keep, duplicate=duplicate)
        if problems:
            raise GovernanceError(problems)
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
