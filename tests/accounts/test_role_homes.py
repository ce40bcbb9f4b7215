"""Each role finds its work: after signing in each account lands on the page of its most specific role (a safe
`next` first), the header links the pages of every role it has, and a 403 says where the account's own pages are."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tests.accounts.helpers import PASSWORD, account
from tests.entries.conftest import announce
from tests.governance.factories import make_player, make_tournament
from tests.live.helpers import federation_players, live_tournament

pytestmark = pytest.mark.django_db

User = get_user_model()


def _user(name: str, **extra):
    return User.objects.create_user(name, password=PASSWORD, **extra)


def _sign_in(client, login: str, next_url: str | None = None):
    url = reverse("login") + (f"?next={next_url}" if next_url is not None else "")
    return client.post(url, {"login": login, "password": PASSWORD})


def _referee_of_a_coming_tournament(name="arbitre"):
    user = _user(name)
    make_tournament("Open à venir", referees=[user])
    return user


def _checker(name="verificateur"):
    user = _user(name)
    referee = _user(name + "_ref")
    tournament = make_tournament("Tournoi vérifié", referees=[referee])
    announce(tournament, referee, list_checker=user)
    return user


def header_links(page: str) -> list[str]:
    menu = page[page.index('id="site-menu"'):page.index("</header>")]
    return re.findall(r'<a href="(/[^"?]*)', menu)


def test_a_player_lands_on_their_account(client):
    account(player=make_player("Lebrun", "Anne"))
    user = User.objects.get(player__last_name="Lebrun")
    assert _sign_in(client, user.username)["Location"] == reverse("account")


def test_a_referee_lands_on_their_tournaments(client):
    _referee_of_a_coming_tournament()
    assert _sign_in(client, "arbitre")["Location"] == reverse("board:my_tournaments")


def test_a_list_checker_lands_on_the_lists_waiting(client):
    _checker()
    assert _sign_in(client, "verificateur")["Location"] == reverse("board:lists_home")


def test_a_board_member_lands_on_the_boards_home(client):
    _user("membre", is_staff=True)
    assert _sign_in(client, "membre")["Location"] == reverse("board:home")


def test_an_account_with_several_roles_lands_on_the_most_specific_and_links_the_others(client):
    user = _checker("multiple")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    make_tournament("Open de l'arbitre", referees=[user])
    assert _sign_in(client, "multiple")["Location"] == reverse("board:lists_home")
    links = header_links(client.get(reverse("board:lists_home")).content.decode())
    for page in ("board:lists_home", "board:my_tournaments", "board:home"):
        assert reverse(page) in links


def test_the_referee_of_a_running_tournament_day_lands_on_it_before_anything_else(client):
    user = _checker("jour")
    live = live_tournament(federation_players(4), start=timezone.localdate())
    live.tournament.referees.add(user)
    assert _sign_in(client, "jour")["Location"] == reverse("referee:live_home")


def test_the_referee_of_a_tournament_due_today_and_not_yet_started_lands_on_the_tournament_day(client):
    """A real day: the referee signs in at the venue to start a calendar tournament (its dates may be wrong)."""
    user = _user("jourj")
    make_tournament("Tournoi du jour", start=timezone.localdate() - timedelta(days=10), referees=[user])
    assert _sign_in(client, "jourj")["Location"] == reverse("referee:live_home")


def test_a_safe_next_is_honoured_and_the_home_page_is_no_destination(client):
    _referee_of_a_coming_tournament()
    assert _sign_in(client, "arbitre", "/ratings/adlg/")["Location"] == "/ratings/adlg/"
    client.logout()
    assert _sign_in(client, "arbitre", "/")["Location"] == reverse("board:my_tournaments")


def test_an_unsafe_next_lands_on_the_roles_page(client):
    _referee_of_a_coming_tournament()
    response = _sign_in(client, "arbitre", "https://evil.example.org/")
    assert response["Location"] == reverse("board:my_tournaments")


# --- the header


def test_the_header_offers_sign_in_and_sign_up_when_signed_out(client):
    page = client.get(reverse("tournament_list")).content.decode()
    header = page[page.index('id="site-menu"'):page.index("</header>")]
    assert f'{reverse("login")}?next={reverse("tournament_list")}' in header
    assert reverse("account_signup") in header


@pytest.mark.parametrize(("role", "expected", "absent"), [
    ("player", ["account"], ["board:home", "board:my_tournaments", "board:lists_home"]),
    ("referee", ["account", "board:my_tournaments", "referee:home"], ["board:home", "board:lists_home"]),
    ("checker", ["account", "board:lists_home"], ["board:home", "board:my_tournaments"]),
    ("board", ["account", "board:home", "referee:home"], ["board:lists_home", "board:my_tournaments"]),
])
def test_the_header_links_the_pages_of_the_accounts_roles(client, role, expected, absent):
    user = {"player": lambda: account(player=make_player("Joueur", "Seul")),
            "referee": _referee_of_a_coming_tournament, "checker": _checker,
            "board": lambda: _user("membre", is_staff=True)}[role]()
    client.force_login(user)
    links = header_links(client.get(reverse("tournament_list")).content.decode())
    assert reverse("login") not in links
    for name in expected:
        assert reverse(name) in links, name
    for name in absent:
        assert reverse(name) not in links, name


# --- the 403 page


def test_a_403_names_the_accounts_own_pages(client):
    _checker()
    client.force_login(User.objects.get(username="verificateur"))
    response = client.get(reverse("board:home"))
    assert response.status_code == 403
    page = response.content.decode()
    own = page[page.index("Your own pages"):page.index("Where to go from here")]
    assert reverse("board:lists_home") in own and reverse("account") in own
    assert f'href="{reverse("board:home")}"' not in own and "verificateur" in page  # no address: its username


def test_a_403_of_a_player_leads_to_their_account_by_their_name(client):
    player = make_player("Lebrun", "Anne")
    client.force_login(account("anne@example.org", player=player))
    page = client.get(reverse("board:sanctions")).content.decode()
    own = page[page.index("Your own pages"):page.index("Where to go from here")]
    assert re.findall(r'href="([^"]+)"', own) == [reverse("account")]
    assert f"Signed in as <strong>{player.full_name}</strong>" in page and "anne@example.org" not in page


# --- the pages they land on


def test_the_checkers_page_counts_the_lists_waiting_per_tournament(client):
    from tests.entries.conftest import send
    from tournaments.before.entries import entry_register

    checker = _checker()
    tournament = checker.checked_tournaments.get().tournament
    for n in range(2):
        user = account(player=make_player(f"Joueur{n}", "Liste"))
        send(user, entry_register(user=user, tournament=tournament, pool="A"))
    client.force_login(checker)
    page = client.get(reverse("board:lists_home")).content.decode()
    assert "2 lists wait for the check" in page


def test_the_boards_home_counts_what_waits_for_it(client):
    from players.models import PlayerClaim, Sanction

    board = _user("membre", is_staff=True)
    claimant = account()
    PlayerClaim.objects.create(user=claimant, player=make_player("Réclamé", "Joueur"), status=PlayerClaim.PENDING)
    carded = make_player("Carton", "Double")
    today = timezone.localdate()
    for kind, expires in ((Sanction.YELLOW, today + timedelta(days=100)), (Sanction.RED, None)):
        Sanction.objects.create(player=carded, kind=kind, reason="r", decided_on=today, expires_on=expires)
    client.force_login(board)
    page = client.get(reverse("board:home")).content.decode()
    waiting = page[page.index("What waits for the board"):page.index("</section>")]
    labels = re.findall(r'<span class="value">(\d+)</span><span class="label">([^<]+)</span>', waiting)
    assert labels == [("1", "requests to link a record"), ("0", "army lists to check"),
                      ("1", "players with more than one current card"), ("0", "failed replays")]


def test_signing_in_names_the_person_never_a_username_allauth_made_for_them(client):
    user = account("preux.nouveau@example.org")
    assert user.username != "" and user.username not in "preux.nouveau@example.org"
    said = client.post(reverse("login"), {"login": "preux.nouveau@example.org", "password": PASSWORD}, follow=True)
    page = said.content.decode()
    assert "preux.nouveau@example.org" in page and user.username not in page
    player = make_player("Preux", "Nouveau")
    player.user = user
    player.save(update_fields=["user"])
    client.logout()
    page = client.post(reverse("login"), {"login": "preux.nouveau@example.org", "password": PASSWORD},
                       follow=True).content.decode()
    assert "Nouveau Preux" in page and user.username not in page
