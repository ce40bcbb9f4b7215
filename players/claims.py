"""Linking a player's own account to their federation record: the claim, the board's decision, the private token
of a tournament day, the board undoing a link.

Terms
-----
link
    ``Player.user``: the account that is this player. One account per player and one player per account (the
    field is one-to-one). ``players.permissions.player_of(user)`` reads it; nothing else decides who a user is.
claim
    A ``PlayerClaim``: an account asks to be linked to a record. It waits for the board (``claim_confirm``,
    ``claim_refuse``), or a private token confirms it at once (``player_claim_by_token``). An account has at most
    one claim waiting; several accounts may ask for one record, and confirming one refuses the others.
claim token
    A ``ClaimToken``: a private secret bound to one player; single use, expiring; only its digest is stored
    (adlg_site.tokens). Made when the page at a tournament day's private link links a signed-in account (the
    link proves the person: ``claim_by_private_link``), or by the board as a claim code (``claim_code_issue``)
    handed over in person by a referee or a club and typed on the account's claim page.
proof
    ``Player.link_proof``: how the link was made. A token or a code proves it; the board confirming a request on
    the claimant's word does not (it records how it checked: ``claim_confirm``), and such an account sees no
    confidential fact of the record (players.permissions.own_sanctions) until a token or a code proves the link.
claimable record
    A public person's record: not the spare, not excluded (the board closed it), not merged into another (the
    kept record is the one to claim).

Every step writes an audit entry (players.audit). Refusals raise ``ClaimError``, a code the page words for the
person in front of it, in the request's language; audit summaries stay in English.
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from adlg_site import tokens
from players import notices
from players.audit import audit_record
from players.models import ClaimToken, Player, PlayerClaim
from players.selectors import confirmed_email
from rules.words import Refused, gettext_noop
from tournaments.models import Tournament

# A token handed out on a tournament day stays valid this long after it is made, unless told otherwise.
TOKEN_LIFETIME = timedelta(days=60)
# A claim code of the board: handed over in person within weeks, typed by hand (no 0, 1, I, O: misread in print).
CODE_LIFETIME = timedelta(days=30)
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 16  # 80 bits
MAX_MERGE_HOPS = 10


class ClaimError(Refused, ValueError):
    """A refused step; its sentence says why and what to do instead."""

    sentences = {
        "spare": gettext_noop("ID %(id)s is the spare player of a tournament, not a person."),
        "merged": gettext_noop("Record %(id)s was merged into record %(kept)s, which holds the history now: ask for "
                               "%(kept)s instead."),
        "closed": gettext_noop("Record %(id)s is closed by a decision of the technical board: it cannot be linked to "
                               "an account."),
        "already_yours": gettext_noop("Your account is already linked to record %(id)s."),
        "account_linked": gettext_noop("Your account is already linked to record %(id)s (%(name)s): one account is "
                                       "one player."),
        "record_linked": gettext_noop("Record %(id)s is already linked to another account. If that is not yours, "
                                      "write to the technical board."),
        "email_unconfirmed": gettext_noop("Confirm your email address first: the board answers you there."),
        "waiting": gettext_noop("You already asked for record %(id)s: wait for the board's answer, or cancel that "
                                "request first."),
        "asked_twice": gettext_noop("You already asked for a record: wait for the board's answer."),
        "settled": gettext_noop("This request was already settled (%(status)s)."),
        "account_gone": gettext_noop("The account that asked was closed since."),
        "record_linked_undo": gettext_noop("Record %(id)s is already linked to another account: undo that link "
                                           "first."),
        "account_linked_other": gettext_noop("This account is already linked to another record."),
        "refusal_reason": gettext_noop("Give the reason for the refusal: the player reads it on their account "
                                       "page."),
        "unlink_reason": gettext_noop("Give the reason for undoing the link: it is kept in the audit log."),
        "not_linked": gettext_noop("Record %(id)s is linked to no account."),
        "sign_in": gettext_noop("Sign in (or create your account) first, then open the link again."),
        "link_invalid": gettext_noop("This link is not valid: check that it was copied whole, or ask the technical "
                                     "board."),
        "link_used": gettext_noop("This link was already used: it links one account, once."),
        "link_expired": gettext_noop("This link expired: ask the technical board to link your account."),
        "link_of_another": gettext_noop("Your account is already linked to record %(id)s (%(name)s): this link is "
                                        "another player's."),
        "code_invalid": gettext_noop("This claim code is not valid: check that you typed it whole, or ask the "
                                     "technical board."),
        "code_used": gettext_noop("This claim code was already used: it links one account, once."),
        "code_expired": gettext_noop("This claim code expired: ask the technical board for a new one."),
        "code_of_another": gettext_noop("Your account is already linked to record %(id)s (%(name)s): this code is "
                                        "another player's."),
        "check_how": gettext_noop("Say how you checked that the account is this player, and note what you did: "
                                  "both are kept in the audit log."),
        "new_player": gettext_noop("This player has no federation record yet: it is made when the tournament is "
                                   "published. Open the link again then."),
    }


# --- what may be claimed -----------------------------------------------------------------------------------------



def _kept_record(player: Player) -> Player:
    target = player
    for _hop in range(MAX_MERGE_HOPS):
        if target.merged_into_id is None:
            break
        target = Player.objects.get(pk=target.merged_into_id)
    return target


def record_problem(player: Player) -> ClaimError | None:
    """Why this record cannot be claimed by anyone, or None."""
    if player.is_spare:
        return ClaimError.one("spare", id=player.pk)
    if player.merged_into_id is not None:
        kept = _kept_record(player)
        return ClaimError.one("merged", id=player.pk, kept=kept.pk)
    if player.is_excluded:
        return ClaimError.one("closed", id=player.pk)
    return None


def claim_problem(*, user, player: Player) -> ClaimError | None:
    """Why this account may not ask for this record now, or None: said on the page before the button."""
    problem = record_problem(player)
    if problem:
        return problem
    linked = Player.objects.filter(user=user).first()
    if linked is not None:
        if linked.pk == player.pk:
            return ClaimError.one("already_yours", id=player.pk)
        return ClaimError.one("account_linked", id=linked.pk, name=linked.full_name)
    if player.user_id is not None:
        return ClaimError.one("record_linked", id=player.pk)
    if confirmed_email(user) is None:
        return ClaimError.one("email_unconfirmed")
    waiting = PlayerClaim.objects.filter(user=user, status=PlayerClaim.PENDING).first()
    if waiting is not None:
        return ClaimError.one("waiting", id=waiting.player_id)
    return None


# --- the player's side -------------------------------------------------------------------------------------------


def claim_ask(*, user, player: Player, message: str = "") -> PlayerClaim:
    """The account asks to be linked to `player`; the board decides (its queue, /board/claims/)."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        problem = claim_problem(user=user, player=player)
        if problem:
            raise problem
        try:
            with transaction.atomic():
                claim = PlayerClaim.objects.create(user=user, player=player, message=(message or "").strip()[:500])
        except IntegrityError:  # a second tab asked at the same moment
            raise ClaimError.one("asked_twice") from None
        audit_record(user=user, action="claim_ask", obj=claim,
                     summary=f"Account {user.pk} asks to be linked to player {player.pk}",
                     changes={"player": player.pk, "account": user.pk})
    return claim


def claim_cancel(*, user) -> PlayerClaim | None:
    """The account takes back its waiting request."""
    with transaction.atomic():
        claim = PlayerClaim.objects.select_for_update().filter(user=user, status=PlayerClaim.PENDING).first()
        if claim is None:
            return None
        claim.status = PlayerClaim.CANCELLED
        claim.decided_at = timezone.now()
        claim.save(update_fields=["status", "decided_at"])
        audit_record(user=user, action="claim_cancel", obj=claim,
                     summary=f"Account {user.pk} cancels its request for player {claim.player_id}",
                     changes={"player": claim.player_id})
    return claim


def account_claims(user) -> QuerySet[PlayerClaim]:
    return PlayerClaim.objects.filter(user=user).select_related("player").order_by("-created_at", "-id")


# --- the board's side --------------------------------------------------------------------------------------------


def claims_pending() -> QuerySet[PlayerClaim]:
    """The board's queue, oldest first."""
    return (PlayerClaim.objects.filter(status=PlayerClaim.PENDING)
            .select_related("user", "player__club", "player__country").order_by("created_at", "id"))


def claim_checks(player: Player, *, tournaments: int = 5) -> dict:
    """What helps the board check a claim on words: the record's last tournaments with their referees (to ask
    them), its club, and the accounts the record had before (links the board undid)."""
    played = (Tournament.objects.filter(Q(games__player_a=player) | Q(games__player_b=player)).distinct()
              .prefetch_related("referees").order_by("-end_date", "-id")[:tournaments])
    return {
        "tournaments": [{"tournament": t, "referee": t.referee_shown,
                         "accounts": [confirmed_email(u) or u.get_username() for u in t.referees.all()]}
                        for t in played],
        "club": player.club,
        "former_accounts": list(PlayerClaim.objects.filter(player=player, status=PlayerClaim.UNDONE)
                                .select_related("user").order_by("-decided_at", "-id")),
    }


_PROOF_OF = {PlayerClaim.BY_BOARD: Player.PROOF_WORDS, PlayerClaim.BY_TOKEN: Player.PROOF_TOKEN,
             PlayerClaim.BY_CODE: Player.PROOF_CODE}


def _link(*, player: Player, user, claim: PlayerClaim, by, via: str) -> None:
    """Inside a transaction holding the player's row: make the link, settle this claim, refuse the others."""
    now = timezone.now()
    player.user = user
    player.link_proof = _PROOF_OF[via]
    player.save(update_fields=["user", "link_proof"])
    claim.status = PlayerClaim.CONFIRMED
    claim.via = via
    claim.decided_at = now
    claim.decided_by = by if via == PlayerClaim.BY_BOARD and getattr(by, "is_authenticated", False) else None
    claim.save(update_fields=["status", "via", "decided_at", "decided_by"])
    others = PlayerClaim.objects.filter(status=PlayerClaim.PENDING).exclude(pk=claim.pk)
    for other in others.filter(player=player).select_for_update():
        other.status = PlayerClaim.REFUSED
        other.reason = "This record was linked to another account."
        other.decided_at = now
        other.save(update_fields=["status", "reason", "decided_at"])
        audit_record(user=by, action="claim_refuse", obj=other,
                     summary=f"Request of account {other.user_id} for player {player.pk} refused: the record was "
                             f"linked to account {user.pk}",
                     changes={"player": player.pk, "account": other.user_id})
    for other in others.filter(user=user).select_for_update():  # the account's own request for another record
        other.status = PlayerClaim.CANCELLED
        other.decided_at = now
        other.save(update_fields=["status", "decided_at"])


def claim_confirm(*, claim: PlayerClaim, user, checked_how: str, note: str) -> PlayerClaim:
    """The board links the account to the record it asked for, on the claimant's word: it says how it checked
    (``PlayerClaim.CHECKS``) and notes what it did, both audited. The link is on words (Player.PROOF_WORDS)."""
    note = (note or "").strip()
    if checked_how not in dict(PlayerClaim.CHECKS) or not note:
        raise ClaimError.one("check_how")
    with transaction.atomic():
        claim = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
        if claim.status != PlayerClaim.PENDING:
            raise ClaimError.one("settled", status=dict(PlayerClaim.STATUS_CHOICES)[claim.status])
        if claim.user_id is None:
            raise ClaimError.one("account_gone")
        player = Player.objects.select_for_update().get(pk=claim.player_id)
        problem = record_problem(player)
        if problem is None and player.user_id is not None:
            problem = ClaimError.one("record_linked_undo", id=player.pk)
        if problem is None and Player.objects.filter(user_id=claim.user_id).exists():
            problem = ClaimError.one("account_linked_other")
        if problem:
            raise problem
        claim.checked_how, claim.check_note = checked_how, note[:500]
        claim.save(update_fields=["checked_how", "check_note"])
        _link(player=player, user=claim.user, claim=claim, by=user, via=PlayerClaim.BY_BOARD)
        audit_record(user=user, action="claim_confirm", obj=claim,
                     summary=f"Account {claim.user_id} linked to player {player.pk} (request confirmed by the board, "
                             f"on the player's word)",
                     changes={"player": player.pk, "account": claim.user_id, "checked_how": checked_how,
                              "note": claim.check_note})
        notices.claim_decided(claim)
    return claim


def claim_refuse(*, claim: PlayerClaim, user, reason: str) -> PlayerClaim:
    """The board refuses a request; the reason is shown to the account that asked."""
    reason = (reason or "").strip()
    if not reason:
        raise ClaimError.one("refusal_reason")
    with transaction.atomic():
        claim = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
        if claim.status != PlayerClaim.PENDING:
            raise ClaimError.one("settled", status=dict(PlayerClaim.STATUS_CHOICES)[claim.status])
        claim.status = PlayerClaim.REFUSED
        claim.reason = reason[:500]
        claim.decided_at = timezone.now()
        claim.decided_by = user
        claim.save(update_fields=["status", "reason", "decided_at", "decided_by"])
        audit_record(user=user, action="claim_refuse", obj=claim,
                     summary=f"Request of account {claim.user_id} for player {claim.player_id} refused",
                     changes={"player": claim.player_id, "account": claim.user_id, "reason": claim.reason})
        notices.claim_decided(claim)
    return claim


def player_unlink(*, player: Player, user, reason: str) -> Player:
    """The board undoes a link (a mistaken confirmation, a shared account): the record stays, the account too."""
    reason = (reason or "").strip()
    if not reason:
        raise ClaimError.one("unlink_reason")
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        account = player.user_id
        if account is None:
            raise ClaimError.one("not_linked", id=player.pk)
        player.user = None
        player.save(update_fields=["user"])
        PlayerClaim.objects.filter(player=player, user_id=account, status=PlayerClaim.CONFIRMED).update(
            status=PlayerClaim.UNDONE, reason=reason[:500], decided_at=timezone.now(), decided_by=user)
        audit_record(user=user, action="player_unlink", obj=player,
                     summary=f"Link between player {player.pk} and account {account} undone by the board",
                     changes={"user": [account, None], "reason": reason})
    return player


# --- proofs: a tournament day's private link, the board's claim code -------------------------------------------


def _expiry(tournament) -> datetime:
    if tournament is not None:
        end = datetime.combine(tournament.end_date, datetime.max.time())
        return timezone.make_aware(end) + TOKEN_LIFETIME
    return timezone.now() + TOKEN_LIFETIME


def claim_token_issue(*, player: Player, tournament=None, expires_at: datetime | None = None) -> str:
    """Make a claim token for `player` and return its secret, which is stored nowhere: hand it to the player at
    once. A tournament's token lives until TOKEN_LIFETIME after it ends, another until TOKEN_LIFETIME from now,
    unless `expires_at` says otherwise."""
    secret = tokens.secret_new()
    ClaimToken.objects.create(player=player, tournament=tournament, kind=ClaimToken.LINK,
                              digest=tokens.digest(secret), expires_at=expires_at or _expiry(tournament))
    return secret


def code_normalised(code: str) -> str:
    """A claim code as typed (spaces, dashes, lower case) reduced to its letters and digits."""
    return re.sub(r"[^A-Z0-9]", "", (code or "").upper())[:64]


def claim_code_issue(*, player: Player, user) -> tuple[str, datetime]:
    """The board makes a one-time claim code for `player`, to be printed and handed over in person (a referee, a
    club): returns the code, grouped by four for reading, and when it expires. Shown once; audited."""
    problem = record_problem(player)
    if problem:
        raise problem
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    expires_at = timezone.now() + CODE_LIFETIME
    with transaction.atomic():
        row = ClaimToken.objects.create(player=player, kind=ClaimToken.CODE, digest=tokens.digest(code),
                                        expires_at=expires_at, created_by=user)
        audit_record(user=user, action="claim_code_issue", obj=player,
                     summary=f"Claim code made for player {player.pk}",
                     changes={"token": row.pk, "expires_at": expires_at.isoformat()})
    return "-".join(code[i:i + 4] for i in range(0, CODE_LENGTH, 4)), expires_at


def player_claim_by_code(*, user, code: str) -> Player:
    """The account types a claim code of the board: linked at once, the link proved."""
    return player_claim_by_token(user=user, token=code_normalised(code), code=True)


def claim_by_private_link(*, user, player: Player | None, tournament) -> Player:
    """The page at a tournament day's private link links the signed-in account to the link's player: whoever
    opened the link holds it, and the link was handed to that player alone. A claim token is made for the
    entrant and spent at once; on a refusal nothing is kept."""
    if player is None:
        raise ClaimError.one("new_player")
    with transaction.atomic():
        return player_claim_by_token(user=user, token=claim_token_issue(player=player, tournament=tournament))


def claim_token_player(token: str) -> Player | None:
    """The record a tournament day's claim token would link, while the token can still be used (read only: the page
    that asks to confirm names the record, so the player sees it is theirs)."""
    row = tokens.find(ClaimToken.objects.filter(kind=ClaimToken.LINK, used_at__isnull=True,
                                                expires_at__gt=timezone.now()).select_related("player"), token)
    return row.player if row is not None else None


def player_claim_by_token(*, user, token: str, code: bool = False) -> Player:
    """Link `user` to the player the token (or the claim code) was made for, at once (no board): it proves the
    account's holder is that player. Single use; refused when expired, used, of a record that cannot be claimed,
    of a player linked to another account, or for an account linked to another player. An account already linked
    to that player on words has its link proved."""
    word = "code" if code else "link"
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        raise ClaimError.one("sign_in")
    with transaction.atomic():
        row = tokens.find(ClaimToken.objects.select_for_update(), token)
        if row is None or (row.kind == ClaimToken.CODE) != code:
            raise ClaimError.one(f"{word}_invalid")
        if row.used_at is not None:
            raise ClaimError.one(f"{word}_used")
        if row.expires_at <= timezone.now():
            raise ClaimError.one(f"{word}_expired")
        player = Player.objects.select_for_update().get(pk=row.player_id)
        problem = record_problem(player)
        if problem:
            raise problem
        if player.user_id is not None and player.user_id != user.pk:
            raise ClaimError.one("record_linked", id=player.pk)
        linked = Player.objects.filter(user=user).exclude(pk=player.pk).first()
        if linked is not None:
            raise ClaimError.one(f"{word}_of_another", id=linked.pk, name=linked.full_name)
        row.used_at = timezone.now()
        row.used_by = user
        row.save(update_fields=["used_at", "used_by"])
        via = PlayerClaim.BY_CODE if code else PlayerClaim.BY_TOKEN
        proof = _PROOF_OF[via]
        source = "a claim code of the board" if code else (
            f"the private link of tournament {row.tournament_id}" if row.tournament_id else "a claim token")
        if player.user_id == user.pk:  # already this account's: the token is spent, and proves the link
            if player.link_proof not in Player.PROVED:
                player.link_proof = proof
                player.save(update_fields=["link_proof"])
                audit_record(user=user, action="claim_proof", obj=player,
                             summary=f"Link of account {user.pk} to player {player.pk} proved by {source}",
                             changes={"player": player.pk, "account": user.pk, "token": row.pk, "proof": proof})
            return player
        claim = PlayerClaim.objects.filter(user=user, player=player, status=PlayerClaim.PENDING).first()
        if claim is None:
            PlayerClaim.objects.filter(user=user, status=PlayerClaim.PENDING).update(
                status=PlayerClaim.CANCELLED, decided_at=timezone.now())
            claim = PlayerClaim.objects.create(user=user, player=player)
        _link(player=player, user=user, claim=claim, by=user, via=via)
        audit_record(user=user, action="claim_code" if code else "claim_token", obj=claim,
                     summary=f"Account {user.pk} linked to player {player.pk} by {source}",
                     changes={"player": player.pk, "account": user.pk, "token": row.pk,
                              "tournament": row.tournament_id})
    return player
