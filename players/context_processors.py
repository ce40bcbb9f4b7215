"""What every page's header shows a signed-in user: who they are, their player page and account, and the links of
their roles (players.permissions decides; the pages check again). Read only when a page draws it.

The roles' own pages, most specific first (each account lands on the first it has after signing in,
players.account_adapter, and sees the others in the header and on a 403 page):

- *tournament day*: a referee of a tournament running live now: the tournament day's pages (referee:live_home);
- *list checker*: the list checker of a tournament not yet over: the lists waiting, counted per tournament
  (board:lists_home);
- *referee*: a referee of a tournament of the calendar: their tournaments, coming ones first (board:my_tournaments);
- *board*: the board's home, with what waits for it (board:home);
- *account*: everybody, a player first: their account with "my tournaments" (account).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy

from players import permissions
from players.models import Player, PlayerClaim
from players.selectors import account_address
from tournaments.live.selectors import referees_a_day_now
from tournaments.models import Announcement

ROLE_LABELS = {
    "live": gettext_lazy("Tournament day"),
    "checker": gettext_lazy("Army lists to check"),
    "referee": gettext_lazy("Tournaments I referee"),
    "board": gettext_lazy("Board pages"),
    "account": gettext_lazy("My account"),
}
ROLE_PAGES = {"live": "referee:live_home", "checker": "board:lists_home", "referee": "board:my_tournaments",
              "board": "board:home", "account": "account"}


@dataclass(frozen=True)
class RolePage:
    role: str  # a key of ROLE_PAGES
    url: str

    @property
    def label(self) -> str:
        return str(ROLE_LABELS[self.role])


def role_pages(user) -> list[RolePage]:
    """The pages of the roles this account has, the most specific first; the account's own always last."""
    if not permissions.is_signed_in(user):
        return []
    board = permissions.is_board(user)
    roles = []
    if referees_a_day_now(user):
        roles.append("live")
    if Announcement.objects.filter(list_checker=user, tournament__end_date__gte=timezone.localdate()).exists():
        roles.append("checker")
    # A board member sees every referee's page through the board's; "their tournaments" only when they referee one.
    if user.refereed_tournaments.exists() or (not board and permissions.is_referee(user)):
        roles.append("referee")
    if board:
        roles.append("board")
    roles.append("account")
    return [RolePage(role, reverse(ROLE_PAGES[role])) for role in roles]


def role_home(user) -> str:
    """Where this account lands after signing in: the page of its most specific role."""
    return role_pages(user)[0].url if permissions.is_signed_in(user) else reverse("home")


@dataclass(frozen=True)
class AccountMenu:
    label: str  # the player's name, else the account's address, else its username
    player: Player | None
    referee: bool  # the referees' pages (result sheets, their tournaments)
    board: bool
    pending_claims: int  # the board's queue of requests to link a record
    pages: tuple[RolePage, ...] = ()  # the pages of its roles, most specific first (role_pages)

    @property
    def work_pages(self) -> tuple[RolePage, ...]:
        """The role pages but the account's own (the header links that one on its own)."""
        return tuple(page for page in self.pages if page.role != "account")


def account_menu(user) -> AccountMenu:
    player = permissions.player_of(user)
    board = permissions.is_board(user)
    referee = board or permissions.is_referee(user)
    label = player.full_name if player is not None else ""
    if not label and not referee:
        label = account_address(user)
    pending = PlayerClaim.objects.filter(status=PlayerClaim.PENDING).count() if board else 0
    return AccountMenu(label=label or user.get_username(), player=player, referee=referee, board=board,
                       pending_claims=pending, pages=tuple(role_pages(user)))


def account(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"account_menu": SimpleLazyObject(lambda: account_menu(user))}
