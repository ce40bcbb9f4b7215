"""The header's menu offers a signed-in person only pages they can open: every link of it answers 200, never 403."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests import factories as f
from tests.accounts.helpers import account

pytestmark = pytest.mark.django_db


def menu_links(page: str) -> list[str]:
    menu = page[page.index('id="site-menu"'):page.index("</header>")]
    return sorted(set(re.findall(r'<a href="(/[^"]*)"', menu)))


def _every_link_opens(client) -> list[str]:
    links = menu_links(client.get(reverse("home")).content.decode())
    answers = {link: client.get(link, follow=True).status_code for link in links}  # /ratings/ redirects
    assert all(status == 200 for status in answers.values()), answers
    return links


def test_a_linked_players_menu_opens_every_page_it_offers_and_their_own(client):
    player = f.player("Martin", "Paul")
    client.force_login(account(player=player))
    links = _every_link_opens(client)
    assert reverse("player_detail", args=[player.pk]) in links and reverse("account") in links
    assert reverse("referee:home") not in links and reverse("admin:index") not in links


def test_a_referees_menu_opens_every_page_it_offers(client):
    user = get_user_model().objects.create_user("ref", password="ref-pass-123")
    f.tournament("Open de Lyon").referees.add(user)
    client.force_login(user)
    links = _every_link_opens(client)
    assert reverse("referee:home") in links and reverse("admin:index") not in links


def test_a_board_members_menu_opens_every_page_it_offers(client):
    user = get_user_model().objects.create_user("member", password="member-pass-123", is_staff=True)
    client.force_login(user)
    links = _every_link_opens(client)
    assert reverse("board:home") in links and reverse("admin:index") in links
