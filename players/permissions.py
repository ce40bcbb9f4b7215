"""Who sees and does what: the one place that decides. Views, the API, exports and the admin all ask here.

Roles (a user may hold several):
- *board*: a member of the technical board, i.e. an active ``user.is_staff`` account. The board may do everything.
- *referee of a tournament*: an active user listed in ``tournament.referees``.
- *referee*: a user who referees at least one tournament, or who was given the permission
  ``tournaments.add_tournament`` in the admin (how the board lets a new organiser register a first tournament).
- *player*: a user linked to a federation ID (``Player.user``). Being a player grants nothing beyond the public site.
- *anonymous*: everybody else; sees the public site only.

Sanctions (charter App. 7 §3, RULES.md §8): yellow and red cards, with the player's identity, are seen by the
board, and by a referee only while refereeing the player: for the *entrants* of a tournament that referee runs,
from its first day until a week after its last (``start_date <= today <= end_date + CARDS_AFTER_END``). The
entrants are the players of its tournament day on the site (``LiveEntrant``) and the players registered in the
calendar before its first day (``Registration``). A registration made on or after the first day of a player who is
not a player of the tournament day (a result sheet's, say) shows nothing: any referee can send a sheet listing
anyone. Before the first day a referee sees nobody's cards, so adding players to a tournament that
has not begun shows nothing either. Every card a referee is shown is written to the audit log (the cards page
does it, the only page that shows them to a referee). A yellow card past its expiry date is shown to nobody but
the board (the nightly task erases it). A player signed in with a linked account sees their own sanctions,
with their reasons (their account page, their data), never another's and never who recorded them, once the link
is proved (a private link or a claim code: players.claims; a link on words alone shows none); otherwise
the reason of a sanction is the board's alone. Nobody but the board sees exclusions' reasons; an exclusion
itself is visible publicly only as the player's absence.

Only the board makes an account a referee (the admin, or naming it as a referee of a tournament it registers):
a referee may name as co-referees only accounts that referee already (tournaments.before.forms).

What others import:

    is_board(user)                                  the board's decisions (sanctions, merges, IDs, overrides,
                                                    exceptions, withdrawn results, closed years, the audit log)
    is_referee(user)                                is_referee_of(user, tournament)
    player_of(user) -> Player | None                the one answer to "which player is this account?"
    own_sanctions(user) -> Sanction queryset        a player's own, for their account page and their data (none
                                                    while the link is on words alone: link_unproved(user))
    can_view_sanctions(user, player, *, today=None) can_view_tournament_cards(user, tournament, *, today=None)
    visible_sanctions(user, qs=None, *, today=None) -> Sanction queryset (empty when nothing may be seen)
    cards_entrants(user, *, today=None, tournament=None) -> player IDs whose cards a referee may see today
    can_manage_tournament(user, tournament)         its sheets, corrections and tournament day
    can_send_sheet(user, tournament | None)         can_see_sheet(user, sheet)
    my_tournaments(user) -> Tournament queryset     can_register_tournament(user)
    is_list_checker(user, tournament)               can_check_lists(user, tournament): the lists before publication
    can_manage_entries(user, tournament)            refusing an entry, lifting a late-list penalty
    spare_only(user, tournament)                    is_entry_player(user, entry)
    rule_required(rule, *, tournament_kwarg=None)   the one guard of a page (below), is_signed_in its loosest rule
    permission_for(rule)                            a DRF permission class from a rule of the user

Every ``can_*`` function takes the user first and returns a bool; anonymous and inactive users get False.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from datetime import date, timedelta
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import F, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from rest_framework.permissions import BasePermission

from players.models import Player, Sanction
from tournaments.models import Announcement, LiveEntrant, Registration, Tournament

# --- roles ------------------------------------------------------------------------------------------------------


def _active(user) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False) and getattr(user, "is_active", False))


def is_signed_in(user) -> bool:
    """Any active account: the guard of a page whose own object (an entry, a sheet, a table) decides the rest."""
    return _active(user)


def is_board(user) -> bool:
    return _active(user) and bool(user.is_staff)


def is_referee_of(user, tournament) -> bool:
    if not _active(user) or tournament is None or tournament.pk is None:
        return False
    return tournament.referees.filter(pk=user.pk).exists()


def is_referee(user) -> bool:
    if not _active(user):
        return False
    return user.refereed_tournaments.exists() or user.has_perm("tournaments.add_tournament")


def player_of(user):
    """The federation record linked to this account, or None."""
    if not _active(user):
        return None
    return Player.objects.filter(user=user).first()


def _today(today: date | None) -> date:
    return today or timezone.localdate()


# A referee sees the cards of a tournament's entrants from its first day until this long after its last (the
# sheet, a correction).
CARDS_AFTER_END = timedelta(days=7)


def cards_tournaments(user, *, today: date | None = None) -> QuerySet:
    """The tournaments this user referees whose cards window is open: first day <= today <= last day + a week."""
    today = _today(today)
    return Tournament.objects.filter(referees=user, start_date__lte=today, end_date__gte=today - CARDS_AFTER_END)


def cards_entrants(user, *, today: date | None = None, tournament=None) -> QuerySet:
    """The players whose cards this referee may see today, as a queryset of player IDs: the entrants (players of the
    tournament day, and registrations made before the first day) of the tournaments of ``cards_tournaments``,
    of `tournament` alone when given."""
    tournaments = cards_tournaments(user, today=today)
    if tournament is not None:
        tournaments = tournaments.filter(pk=tournament.pk)
    registered = Registration.objects.filter(tournament__in=tournaments,
                                             registered_at__date__lt=F("tournament__start_date"))
    playing = LiveEntrant.objects.filter(live__tournament__in=tournaments, player__isnull=False)
    return Player.objects.filter(Q(pk__in=registered.values("player_id")) | Q(pk__in=playing.values("player_id"))
                                 ).values("pk")


# --- sanctions ---------------------------------------------------------------------------------------------------


def visible_sanctions(user, qs: QuerySet | None = None, *, today: date | None = None) -> QuerySet:
    """The sanctions of `qs` (default: all) this user may see, with the player's identity."""
    if qs is None:
        qs = Sanction.objects.all()
    if is_board(user):
        return qs
    if not _active(user):
        return qs.none()
    today = _today(today)
    return (
        qs.filter(kind__in=[Sanction.YELLOW, Sanction.RED], player_id__in=cards_entrants(user, today=today))
        .exclude(kind=Sanction.YELLOW, expires_on__lt=today)
    )


def own_sanctions(user, *, today: date | None = None) -> QuerySet:
    """The sanctions of the player this account is linked to, as the player sees them on their account page and
    in their data: their own, never another's. A yellow card past its expiry is gone for them as for everyone
    but the board. Who recorded a sanction is never shown to the player (the pages and the export leave it out)."""
    player = player_of(user)
    if player is None or player.link_proof not in Player.PROVED:
        # A link the board made on the claimant's word alone shows nothing confidential until it is proved.
        return Sanction.objects.none()
    return Sanction.objects.filter(player=player).exclude(kind=Sanction.YELLOW, expires_on__lt=_today(today))


def link_unproved(user) -> bool:
    """Is this account linked to its player on words alone (players.claims: no token, no code yet)?"""
    player = player_of(user)
    return player is not None and player.link_proof not in Player.PROVED


def can_view_sanctions(user, player, *, today: date | None = None) -> bool:
    """May this user see the yellow and red cards of this player (that the player has any is another matter)?"""
    if is_board(user):
        return True
    if not _active(user) or player is None:
        return False
    return cards_entrants(user, today=today).filter(pk=player.pk).exists()


def can_view_tournament_cards(user, tournament, *, today: date | None = None) -> bool:
    """The cards page of a tournament: the board always, its referees until a week after its last day. Before its
    first day the page lists no card (``cards_entrants`` is empty) and says from when it will."""
    if is_board(user):
        return True
    return is_referee_of(user, tournament) and tournament.end_date + CARDS_AFTER_END >= _today(today)


# --- tournaments -------------------------------------------------------------------------------------------------


def can_manage_tournament(user, tournament) -> bool:
    """Its result sheets and corrections, its tournament day: the board and the tournament's referees."""
    return is_board(user) or is_referee_of(user, tournament)


def my_tournaments(user) -> QuerySet:
    if not _active(user):
        return Tournament.objects.none()
    return Tournament.objects.filter(referees=user)


def can_register_tournament(user) -> bool:
    return is_board(user) or is_referee(user)


def can_send_sheet(user, tournament) -> bool:
    """A sheet for a tournament of the site: its referees and the board. A tournament new to the site (None):
    any referee."""
    if tournament is None:
        return can_register_tournament(user)
    return can_manage_tournament(user, tournament)


def can_see_sheet(user, sheet) -> bool:
    """An uploaded sheet: the board, whoever sent it, and the referees of its tournament."""
    if is_board(user) or (sheet.uploaded_by_id is not None and sheet.uploaded_by_id == user.pk):
        return True
    return sheet.tournament is not None and can_manage_tournament(user, sheet.tournament)


# --- before a tournament: entries and army lists (tournaments.before) -------------------------------------------------


def is_list_checker(user, tournament) -> bool:
    try:
        checker_id = tournament.announcement.list_checker_id
    except Announcement.DoesNotExist:
        return False
    return bool(checker_id and getattr(user, "is_active", False) and checker_id == user.pk)


def can_check_lists(user, tournament) -> bool:
    """The lists before publication, and their check: the list checker, the referees, the board."""
    return is_board(user) or is_referee_of(user, tournament) or is_list_checker(user, tournament)


def can_manage_entries(user, tournament) -> bool:
    """Refusing an entry, lifting a penalty: the referees and the board (not the list checker)."""
    return is_board(user) or is_referee_of(user, tournament)


def spare_only(user, tournament) -> bool:
    """App. 1 §9: a referee of the tournament or its list checker plays only as the spare."""
    return is_referee_of(user, tournament) or is_list_checker(user, tournament)


def is_entry_player(user, entry) -> bool:
    player = player_of(user)
    return player is not None and player.pk == entry.player_id


# --- views -------------------------------------------------------------------------------------------------------


def _positional_count(function) -> int:
    return sum(1 for p in inspect.signature(function).parameters.values()
               if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


def rule_required(rule: Callable[..., bool], *, tournament_kwarg: str | None = None):
    """Guard a function view with one of the rules above.

    Without `tournament_kwarg` the rule is called as ``rule(user)``. With it, the tournament whose primary key is
    in that URL keyword is loaded (404 when missing), the rule is called as ``rule(user, tournament)`` (or
    ``rule(user)`` for a rule of the user alone, such as ``can_override``) and the view receives the object as its
    ``tournament`` keyword argument instead of the key.
    Anonymous visitors are sent to the login page; signed-in users who may not get 403.
    """

    takes_tournament = _positional_count(rule) >= 2

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            user = request.user
            if not _active(user):  # before any lookup: a visitor learns nothing, not even which IDs exist
                return redirect_to_login(request.get_full_path())
            if tournament_kwarg is not None:
                tournament = get_object_or_404(Tournament, pk=kwargs.pop(tournament_kwarg))
                allowed = rule(user, tournament) if takes_tournament else rule(user)
                kwargs["tournament"] = tournament
            else:
                allowed = rule(user)
            if not allowed:
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


# --- the API (Django REST framework) -----------------------------------------------------------------------------


def permission_for(rule: Callable[[object], bool]) -> type[BasePermission]:
    """A DRF permission class that lets through the users `rule(user)` allows."""

    class RulePermission(BasePermission):
        def has_permission(self, request, view):
            return rule(request.user)

    RulePermission.__name__ = f"May_{rule.__name__}"
    return RulePermission
