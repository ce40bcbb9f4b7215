"""The board's forms find people and tournaments by name: accent-insensitive, through the site's one name
search; several matches are listed to choose from; the confirmation names the card; withdrawn cards stay in sight."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from players.governance import sanction_give, sanction_withdraw
from players.models import Player, Sanction
from tests.governance.factories import make_player, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def board_client(client, board):
    client.force_login(board)
    return client


def _card(**changes) -> dict:
    return {"kind": "yellow", "reason": "late list twice", "decided_on": "2026-03-12", **changes}


def test_it_finds_the_player_of_a_sanction_by_name_whatever_the_accents(board_client):
    make_player("Moreau", "Benoît", pk=229)
    make_player("Martin", "Paul", pk=230)
    page = board_client.post(reverse("board:sanctions"), _card(player="benoit MOREAU")).content.decode()
    assert "A yellow card for Benoît Moreau (229)?" in page
    assert '<input type="hidden" name="player" value="229">' in page


def test_it_lists_the_players_a_name_matches_when_several_do(board_client):
    make_player("Moreau", "Benoît", pk=229)
    make_player("Moreau", "Luc", pk=301)
    response = board_client.post(reverse("board:sanctions"), _card(player="moreau"))
    page = response.content.decode()
    assert response.status_code == 200 and not Sanction.objects.exists()
    assert "Several players match “moreau”: Benoît Moreau (229), Luc Moreau (301)." in page


def test_it_says_when_no_name_matches(board_client):
    page = board_client.post(reverse("board:sanctions"), _card(player="Nobody")).content.decode()
    assert "No player&#x27;s name matches “Nobody”" in page


def test_it_finds_the_tournament_by_words_of_its_name(board_client):
    make_player("Moreau", "Benoît", pk=229)
    today = date.today()
    lyon = make_tournament("Open de Lyon", start=today.replace(day=1))
    make_tournament("Tournoi de Paris", start=today.replace(day=1))
    page = board_client.post(reverse("board:sanctions"), _card(player="229", tournament="open lyon")).content.decode()
    assert f'<input type="hidden" name="tournament" value="{lyon.pk}">' in page
    page = board_client.post(reverse("board:sanctions"), _card(player="229", tournament="de")).content.decode()
    assert "Several tournaments match “de”" in page and "Open de Lyon" in page and "Tournoi de Paris" in page
    assert "<select" not in page.split('name="tournament"')[0][-200:]  # a search box, not a 130-item drop-down


def test_the_confirmation_names_the_card(board_client):
    make_player("Moreau", "Benoît", pk=229)
    response = board_client.post(reverse("board:sanctions"), _card(player="229", confirm="yes"), follow=True)
    assert "Recorded: the yellow card of 12 March 2026 for Benoît Moreau (229)." in response.content.decode()


def test_withdrawn_sanctions_stay_on_the_page_with_when_and_why(board_client, board):
    player = make_player("Moreau", "Benoît", pk=229)
    card = sanction_give(player=player, kind="yellow", reason="x", user=board, decided_on=date(2026, 3, 12))
    sanction_withdraw(sanction=card, reason="given to the wrong player", user=board)
    page = board_client.get(reverse("board:sanctions")).content.decode()
    assert "Withdrawn sanctions" in page
    assert "yellow card of 12 March 2026 for Benoît Moreau (229)" in page
    assert "given to the wrong player" in page and "withdrawn" in page


def test_it_merges_records_found_by_name(board_client):
    make_player("Moreau", "Benoît", pk=229)
    make_player("Moraud", "Benoit", pk=363)
    page = board_client.post(reverse("board:merge"), {"keep": "benoît moreau", "duplicate": "MORAUD"}).content.decode()
    assert '<input type="hidden" name="keep" value="229">' in page
    assert '<input type="hidden" name="duplicate" value="363">' in page
    response = board_client.post(reverse("board:merge"), {"keep": 229, "duplicate": 363, "confirm": "yes"}, follow=True)
    assert Player.objects.get(pk=363).merged_into_id == 229
    assert "Benoit Moraud (363) merged into Benoît Moreau (229); ID 363 is retired." in response.content.decode()


def test_a_search_too_long_or_with_a_nul_byte_is_a_message_not_an_error(board_client):
    response = board_client.post(reverse("board:sanctions"), _card(player="x" * 500))
    assert response.status_code == 200 and not Sanction.objects.exists()


def test_the_admins_confirmation_names_the_card(admin_client, board):
    card = sanction_give(player=make_player("Moreau", "Benoît", pk=229), kind="yellow", reason="late list",
                         user=board, decided_on=date(2026, 3, 12))
    response = admin_client.post(reverse("admin:players_sanction_change", args=[card.pk]), {
        "reason": "late list, twice", "decided_on": "2026-03-12", "expires_on": "2027-03-12", "tournament": ""},
        follow=True)
    page = response.content.decode()
    assert "yellow card of 12 March 2026 for Benoît Moreau (229)" in page
    assert Sanction.objects.get(pk=card.pk).reason == "late list, twice"
