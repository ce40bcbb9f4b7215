"""What the site tells people by email, one function per notice: an entry recorded or refused, a list received,
returned or accepted, the reminder before the lists' deadline, the lists published, a claim confirmed or refused,
a sanction recorded, and the list checker's digest of new lists ("tournament rated" is ratings.notifications',
composed here). The services call them; each writes its email in the recipient's language and hands it to the
worker once the action's transaction commits (players.mail.email_later): a mail server that fails delays the
email (the task retries), never the action.

Terms
-----
kind
    What an account can turn off, one kind per line of ``KINDS`` (its account page, or the one-click link in the
    footer of every such email and its List-Unsubscribe header). The rating emails keep their own setting
    (AccountSettings.rating_emails); the others are listed in AccountSettings.muted. Every kind is on by default.
recipient
    An active account with a confirmed address; the email speaks the account's language (AccountSettings).
opt-out link
    SITE_URL + a signed token (the account and the kind; django.core.signing, its own salt): it needs no sign-in,
    and it can only turn that kind off for that account.
record
    Each email is a SentEmail row, written in the action's transaction and stamped by the worker when the mail
    server takes it; a notice with a `key` is written at most once (the reminder per entry, the digest per
    tournament, checker and day).
"""

from __future__ import annotations

import re
from email.utils import parseaddr

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from players.mail import email_later
from players.models import AccountSettings, Player, SentEmail
from players.selectors import confirmed_email

ENTRIES, LISTS, LIST_REMINDER, LISTS_PUBLISHED = "entries", "lists", "list_reminder", "lists_published"
CLAIMS, SANCTIONS, TOURNAMENT_RATED, LISTS_WAITING = "claims", "sanctions", "tournament_rated", "lists_waiting"
KINDS = {
    ENTRIES: _("my entries: recorded, or refused by the referee"),
    LISTS: _("my army lists: received, returned by the checker, accepted"),
    LIST_REMINDER: _("a reminder three days before the lists' deadline when my list is missing or returned"),
    LISTS_PUBLISHED: _("the lists of my tournament published"),
    CLAIMS: _("my request to be linked to a record: confirmed or refused"),
    SANCTIONS: _("a sanction the board records about me"),
    TOURNAMENT_RATED: _("a tournament I played is rated, with my new rating"),
    LISTS_WAITING: _("new lists to check (list checkers: one email a day per tournament)"),
}
OPT_OUT_SALT = "players.notices.opt-out"
ACCOUNT = "account"  # allauth's emails (confirm an address, reset a password): always sent, never a kind


# --- preferences and the one-click opt-out -----------------------------------------------------------------------


def wants(user, kind: str, own: AccountSettings | None = None) -> bool:
    own = own or AccountSettings.objects.filter(user=user).first() or AccountSettings(user=user)
    if kind == TOURNAMENT_RATED:
        return own.rating_emails
    return kind not in (own.muted or [])


def kinds_wanted(user) -> set[str]:
    own = AccountSettings.objects.filter(user=user).first() or AccountSettings(user=user)
    return {kind for kind in KINDS if wants(user, kind, own)}


def kinds_save(*, user, wanted) -> AccountSettings:
    """The kinds this account hears of (the others are turned off)."""
    wanted = set(wanted)
    own, _created = AccountSettings.objects.get_or_create(user=user)
    own.rating_emails = TOURNAMENT_RATED in wanted
    own.muted = sorted(kind for kind in KINDS if kind != TOURNAMENT_RATED and kind not in wanted)
    own.save(update_fields=["rating_emails", "muted"])
    return own


def kind_mute(*, user, kind: str) -> None:
    if kind in KINDS:
        kinds_save(user=user, wanted=kinds_wanted(user) - {kind})


def opt_out_token(user_id: int, kind: str) -> str:
    return signing.dumps([user_id, kind], salt=OPT_OUT_SALT, compress=True)


def opt_out_read(token: str) -> tuple[int, str] | None:
    """The account and kind a token names, or None for a token the site did not sign."""
    try:
        user_id, kind = signing.loads(token, salt=OPT_OUT_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    return (user_id, kind) if isinstance(user_id, int) and kind in KINDS else None


def one_line(text: str) -> str:
    """A template's text as a subject: its line breaks and runs of spaces made one space; a no-break space (French
    puts one before a colon) stays."""
    return re.sub(r"[ \t\r\n]+", " ", text).strip()


def site_link(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def sender() -> str:
    """The site's name (in the active language) on the configured sending address."""
    # Left unencoded: Django encodes a non-ASCII name when it sends (formataddr would encode it here already).
    name = str(settings.SITE_NAME).replace('"', "").replace("\\", "")
    return f'"{name}" <{parseaddr(settings.DEFAULT_FROM_EMAIL)[1]}>'



# --- composing -----------------------------------------------------------------------------------------------------


def recipient_address(user) -> str | None:
    """The account's confirmed address (its primary first), or None."""
    if user is None or not user.is_active:
        return None
    return confirmed_email(user)


def greeting_name(user, address: str) -> str:
    """Who the email greets: the player's first name (or full name), else the address; never a username the site
    made up."""
    player = Player.objects.filter(user=user).only("first_name", "last_name").first()
    if player is not None:
        return player.first_name or player.full_name
    return address


def compose(user, kind: str, event: str, context: dict, *, key: str | None = None,
            own: AccountSettings | None = None) -> tuple[EmailMessage, SentEmail] | None:
    """The email of `event` (templates emails/<event>_subject.txt and _message.txt) for `user`, recorded; None
    when the account has no confirmed address, turned this kind off, or already had the email of this key."""
    own = own or AccountSettings.objects.filter(user=user).first() or AccountSettings(user=user)
    address = recipient_address(user)
    if address is None or not wants(user, kind, own):
        return None
    language = own.language or settings.LANGUAGE_CODE
    stop_url = site_link(reverse("email_stop", args=[opt_out_token(user.pk, kind)]))
    with translation.override(language):
        context = {**context, "name": greeting_name(user, address), "site_name": str(settings.SITE_NAME),
                   "stop_url": stop_url, "account_url": site_link(reverse("account")), "kind": KINDS[kind],
                   "site_url": settings.SITE_URL.rstrip("/")}
        subject = one_line(render_to_string(f"emails/{event}_subject.txt", context))
        body = render_to_string(f"emails/{event}_message.txt", context)
        from_email = sender()
    headers = {"List-Unsubscribe": f"<{stop_url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    try:
        with transaction.atomic():
            record = SentEmail.objects.create(user=user, address=address, kind=event, language=language,
                                              subject=subject[:300], key=key)
    except IntegrityError:  # this key's email was written already
        return None
    return EmailMessage(subject=subject, body=body, from_email=from_email, to=[address], headers=headers), record


def _notify(user, kind: str, event: str, context: dict, *, key: str | None = None) -> bool:
    composed = compose(user, kind, event, context, key=key)
    if composed is None:
        return False
    message, record = composed
    email_later(message, record=record.pk)
    return True


def _tournament_context(tournament) -> dict:
    return {"tournament": tournament, "tournament_url": site_link(reverse("tournament_detail", args=[tournament.pk]))}


def _entry_user(entry):
    return entry.player.user if entry.player.user_id else None


# --- one function per notice -----------------------------------------------------------------------------------


def entry_recorded(entry) -> bool:
    user = _entry_user(entry)
    return user is not None and _notify(user, ENTRIES, "entry_recorded", {
        **_tournament_context(entry.tournament), "entry": entry,
        "deadline": entry.tournament.announcement.list_deadline})


def entry_refused(entry) -> bool:
    user = _entry_user(entry)
    return user is not None and _notify(user, ENTRIES, "entry_refused", {
        **_tournament_context(entry.tournament), "entry": entry, "reason": entry.reason})


def list_received(army_list) -> bool:
    entry = army_list.entry
    user = _entry_user(entry)
    return user is not None and _notify(user, LISTS, "list_received", {
        **_tournament_context(entry.tournament), "army_list": army_list})


def list_checked(army_list) -> bool:
    """Returned with the checker's comment, or accepted as compliant."""
    entry = army_list.entry
    user = _entry_user(entry)
    event = "list_accepted" if army_list.status == army_list.COMPLIANT else "list_returned"
    return user is not None and _notify(user, LISTS, event, {
        **_tournament_context(entry.tournament), "army_list": army_list, "comment": army_list.comment})


def list_reminder(entry, army_list=None) -> bool:
    """Sent once per entry (its key), whatever runs of the reminders follow."""
    user = _entry_user(entry)
    return user is not None and _notify(user, LIST_REMINDER, "list_reminder", {
        **_tournament_context(entry.tournament), "army_list": army_list,
        "deadline": entry.tournament.announcement.list_deadline}, key=f"list_reminder:{entry.pk}")


def lists_published(entry) -> bool:
    user = _entry_user(entry)
    return user is not None and _notify(user, LISTS_PUBLISHED, "lists_published",
                                        _tournament_context(entry.tournament), key=f"lists_published:{entry.pk}")


def lists_waiting(*, user, tournament, waiting: int, new: int, day) -> bool:
    """The checker's digest: once per tournament, checker and day (its key)."""
    return _notify(user, LISTS_WAITING, "lists_waiting", {
        **_tournament_context(tournament), "waiting": waiting, "new": new,
        "lists_url": site_link(reverse("board:lists_home"))}, key=f"lists_waiting:{tournament.pk}:{user.pk}:{day}")


def claim_decided(claim) -> bool:
    if claim.user_id is None:
        return False
    event = "claim_confirmed" if claim.status == claim.CONFIRMED else "claim_refused"
    return _notify(claim.user, CLAIMS, event, {
        "claim": claim, "player": claim.player,
        "player_url": site_link(reverse("player_detail", args=[claim.player_id]))})


def sanction_recorded(sanction) -> bool:
    """To the player's account, with how to write to the board; the confidential reason only when the account's
    link to the record is proved (players.permissions.link_unproved)."""
    player = sanction.player
    if player.user_id is None:
        return False
    return _notify(player.user, SANCTIONS, "sanction_recorded", {
        "sanction": sanction, "reason": sanction.reason if player.link_proof in Player.PROVED else "",
        "write_url": site_link(reverse("board_write"))})
