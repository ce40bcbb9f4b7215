"""Who may do what: every role against every action, through players.permissions and through the pages."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import AnonymousUser, Permission
from django.urls import reverse
from django.utils import timezone

from players import permissions
from players.governance import sanction_give
from players.models import Sanction
from tests.governance.factories import make_player, make_tournament, register

ROLES = ["anonymous", "player", "referee", "other_referee", "board"]

# action -> the roles allowed. "referee" runs `tournament`, "other_referee" runs another one.
MATRIX = {
    "view_sanctions": {"referee", "board"},
    "manage_tournament": {"referee", "board"},  # its sheets, corrections and tournament day
    "send_sheet": {"referee", "board"},
    "tournament_cards": {"referee", "board"},
    "board_decisions": {"board"},  # sanctions, merges, IDs, overrides, exceptions, withdrawn results, the audit
    "register_tournament": {"referee", "other_referee", "board"},
}


def check(action, user, tournament, entrant):
    playing = tournament.start_date  # the cards are seen while the tournament is refereed
    return {
        "view_sanctions": lambda: permissions.can_view_sanctions(user, entrant, today=playing),
        "manage_tournament": lambda: permissions.can_manage_tournament(user, tournament),
        "send_sheet": lambda: permissions.can_send_sheet(user, tournament),
        "tournament_cards": lambda: permissions.can_view_tournament_cards(user, tournament, today=playing),
        "board_decisions": lambda: permissions.is_board(user),
        "register_tournament": lambda: permissions.can_register_tournament(user),
    }[action]()


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", sorted(MATRIX))
def test_it_allows_exactly_the_roles_of_the_matrix(personas, tournament, entrant, action, role):
    assert check(action, personas[role], tournament, entrant) is (role in MATRIX[action])


def test_it_refuses_an_inactive_board_member(board, tournament):
    board.is_active = False
    assert not permissions.is_board(board)
    assert not permissions.can_manage_tournament(board, tournament)


def test_it_lets_a_new_organiser_register_with_the_permission_the_board_grants(django_user_model):
    organiser = django_user_model.objects.create_user("organiser", password="x-pass-123")
    assert not permissions.can_register_tournament(organiser)
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    organiser = django_user_model.objects.get(pk=organiser.pk)  # permissions are cached per instance
    assert permissions.can_register_tournament(organiser)
    assert not permissions.is_board(organiser)


# --- sanctions visibility ----------------------------------------------------------------------------------------


@pytest.fixture
def cards(db, board, entrant):
    yellow = sanction_give(player=entrant, kind=Sanction.YELLOW, reason="insulted the referee", user=board,
                           decided_on=timezone.localdate())
    red = sanction_give(player=entrant, kind=Sanction.RED, reason="loaded dice", user=board,
                        decided_on=timezone.localdate())
    stranger = make_player("Inconnu", "Pierre")
    other = sanction_give(player=stranger, kind=Sanction.YELLOW, reason="late list", user=board,
                          decided_on=timezone.localdate())
    return yellow, red, other


def test_it_shows_the_board_every_sanction(board, cards):
    assert set(permissions.visible_sanctions(board)) == set(cards)


def test_it_shows_a_referee_only_the_cards_of_their_tournaments_players(referee, tournament, cards):
    yellow, red, _other = cards
    assert set(permissions.visible_sanctions(referee, today=tournament.start_date)) == {yellow, red}


@pytest.mark.parametrize("role", ["anonymous", "player", "other_referee"])
def test_it_shows_no_sanction_to_others(personas, tournament, cards, role):
    assert list(permissions.visible_sanctions(personas[role], today=tournament.start_date)) == []


def test_it_shows_the_referee_no_card_before_the_first_day(referee, tournament, entrant, cards):
    day_before = tournament.start_date - timedelta(days=1)
    assert not permissions.can_view_sanctions(referee, entrant, today=day_before)
    assert list(permissions.visible_sanctions(referee, today=day_before)) == []
    assert list(permissions.cards_entrants(referee, today=day_before, tournament=tournament)) == []
    assert list(permissions.cards_entrants(referee, today=tournament.start_date, tournament=tournament)) == [
        {"pk": entrant.pk}]


def test_it_hides_the_cards_from_the_referee_a_week_after_the_tournament_has_ended(referee, tournament, entrant,
                                                                                   cards):
    week_after = tournament.end_date + timedelta(days=7)
    after_end = tournament.end_date + timedelta(days=8)
    assert permissions.can_view_sanctions(referee, entrant, today=week_after)
    assert list(permissions.visible_sanctions(referee, today=week_after))
    assert permissions.can_view_tournament_cards(referee, tournament, today=week_after)
    assert not permissions.can_view_sanctions(referee, entrant, today=after_end)
    assert list(permissions.visible_sanctions(referee, today=after_end)) == []
    assert not permissions.can_view_tournament_cards(referee, tournament, today=after_end)


def test_it_hides_an_expired_yellow_card_from_the_referee_before_it_is_erased(referee, entrant, cards):
    yellow, red, _other = cards
    day_after_expiry = yellow.expires_on + timedelta(days=1)
    make_tournament("Much later", start=day_after_expiry, referees=[referee])
    register(referee.refereed_tournaments.get(name="Much later"), entrant)
    assert set(permissions.visible_sanctions(referee, today=day_after_expiry)) == {red}


# --- the decorator and the DRF permission --------------------------------------------------------------------------


def test_it_lists_my_tournaments(referee, tournament, other_tournament):
    assert list(permissions.my_tournaments(referee)) == [tournament]
    assert list(permissions.my_tournaments(AnonymousUser())) == []


@pytest.mark.parametrize("role", ROLES)
def test_it_makes_a_drf_permission_of_a_rule(personas, role):
    request = SimpleNamespace(method="POST", user=personas[role])
    may_register = permissions.permission_for(permissions.can_register_tournament)()
    assert may_register.has_permission(request, None) is (role in MATRIX["register_tournament"])


# --- the pages ---------------------------------------------------------------------------------------------------

BOARD_PAGES = ["board:sanctions", "board:merge", "board:ids", "board:tournaments", "board:audit"]
TOURNAMENT_BOARD_PAGES = ["board:tournament_override", "board:tournament_exception"]
REFEREE_PAGES = ["board:home", "board:tournament_register", "board:my_tournaments"]


def _login(client, user):
    if user.is_authenticated:
        client.force_login(user)


def _expect(response, allowed: bool, role: str):
    if allowed:
        assert response.status_code == 200, response
    elif role == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code in (403, 404)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", BOARD_PAGES)
def test_it_opens_the_board_pages_to_the_board_only(client, personas, name, role):
    _login(client, personas[role])
    _expect(client.get(reverse(name)), role == "board", role)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", TOURNAMENT_BOARD_PAGES)
def test_it_opens_the_tournament_decisions_to_the_board_only(client, personas, tournament, name, role):
    _login(client, personas[role])
    _expect(client.get(reverse(name, args=[tournament.pk])), role == "board", role)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", REFEREE_PAGES)
def test_it_opens_the_referee_pages_to_referees_and_the_board(client, personas, name, role):
    _login(client, personas[role])
    _expect(client.get(reverse(name)), role in {"referee", "other_referee", "board"}, role)


@pytest.mark.parametrize("role", ROLES)
def test_it_opens_a_tournaments_cards_to_its_referee_and_the_board(client, personas, tournament, role):
    _login(client, personas[role])
    _expect(client.get(reverse("board:tournament_cards", args=[tournament.pk])), role in {"referee", "board"}, role)


def test_it_refuses_a_referee_the_pages_of_another_referees_tournament(client, referee, other_tournament):
    client.force_login(referee)
    response = client.get(reverse("board:tournament_cards", args=[other_tournament.pk]))
    assert response.status_code in (403, 404)
    response = client.get(reverse("board:tournament_override", args=[other_tournament.pk]))
    assert response.status_code in (403, 404)


def test_it_answers_404_for_a_tournament_that_does_not_exist(client, board):
    client.force_login(board)
    assert client.get(reverse("board:tournament_cards", args=[999999])).status_code == 404
