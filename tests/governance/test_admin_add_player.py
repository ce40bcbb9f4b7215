"""The admin's add-player form gives the next free ID itself (RULES.md §8): never 99, never a retired ID."""

from __future__ import annotations

import pytest
from django.urls import reverse

from players.models import SPARE_ID, AuditEntry, Player, RetiredId
from players.services import next_free_id_preview
from tests.governance.factories import make_player

pytestmark = pytest.mark.django_db

INLINE = {"opening_balances-TOTAL_FORMS": "0", "opening_balances-INITIAL_FORMS": "0",
          "opening_balances-MIN_NUM_FORMS": "0", "opening_balances-MAX_NUM_FORMS": "1000"}


@pytest.fixture
def admin_client(client, board):
    client.force_login(board)
    return client


def test_the_add_form_shows_the_next_free_id_and_asks_for_none(admin_client):
    make_player(pk=120)
    RetiredId.objects.create(id=121, reason="excluded")
    page = admin_client.get(reverse("admin:players_player_add")).content.decode()
    assert "122: the next free ID, given when you save" in page
    assert 'name="id"' not in page


def test_a_player_added_in_the_admin_gets_the_next_free_id(admin_client):
    make_player(pk=97)
    RetiredId.objects.create(id=98, reason="old site")
    expected = next_free_id_preview()
    assert expected == 100  # neither the retired 98 nor the spare's 99
    response = admin_client.post(reverse("admin:players_player_add"),
                                 {"last_name": "Nouveau", "first_name": "Nina", "id": SPARE_ID, **INLINE})
    assert response.status_code == 302
    player = Player.objects.get(last_name="Nouveau")
    assert player.pk == expected  # an ID typed in is ignored
    assert next_free_id_preview() == expected + 1
    assert AuditEntry.objects.filter(action="create", object_id=str(expected)).exists()


def test_an_id_cannot_be_changed_in_the_admin(admin_client):
    player = make_player("Garde", "Son", pk=150)
    url = reverse("admin:players_player_change", args=[player.pk])
    assert 'name="id"' not in admin_client.get(url).content.decode()
    admin_client.post(url, {"last_name": "Garde", "first_name": "Son", "id": 151, **INLINE})
    assert not Player.objects.filter(pk=151).exists() and Player.objects.filter(pk=150).exists()
