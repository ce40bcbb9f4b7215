"""What every page's header shows a signed-in user: who they are, their player page and account, and the links of
their roles (players.permissions decides; the pages check again). Read only when a page draws it."""

from __future__ import annotations

from dataclasses import dataclass

from allauth.account.models import EmailAddress
from django.utils.functional import SimpleLazyObject

from players import permissions
from players.models import Player, PlayerClaim


@dataclass(frozen=True)
class AccountMenu:
    label: str  # the player's name, else the account's address, else its username
    player: Player | None
    referee: bool  # the referees' pages (result sheets, their tournaments)
    board: bool
    pending_claims: int  # the board's queue of requests to link a record


def account_menu(user) -> AccountMenu:
    player = permissions.player_of(user)
    board = permissions.is_board(user)
    referee = board or permissions.is_referee(user)
    label = player.full_name if player is not None else ""
    if not label and not referee:
        label = (EmailAddress.objects.filter(user=user).order_by("-primary", "id").values_list("email", flat=True)
                 .first() or user.email)
    pending = PlayerClaim.objects.filter(status=PlayerClaim.PENDING).count() if board else 0
    return AccountMenu(label=label or user.get_username(), player=player, referee=referee, board=board,
                       pending_claims=pending)


def account(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"account_menu": SimpleLazyObject(lambda: account_menu(user))}
