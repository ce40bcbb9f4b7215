"""The armies' page and a player's armies: names mapped by the board, mirror games left out, no share under the
minimum sample, in English and French."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError

from players.governance import player_exclude
from tests import factories
from tests.public.conftest import text
from tournaments.models import ArmyAlias, Registration


@pytest.fixture
def played(db):
    cache.clear()
    fed = factories.federation(6)
    armies = ["Carthaginois", "carthage n°45", "Romains", "Romains", "Gaulois", "Gaulois"]
    for player, army in zip(fed.players, armies, strict=True):
        Registration.objects.filter(player=player).update(army=army)
    return fed


def test_the_armies_page_counts_names_through_the_boards_mapping(visitor, played):
    page = text(visitor.get("/armies/"))
    assert "Carthaginois" in page and "carthage n°45" in page  # two armies until the board maps them
    ArmyAlias(name="CARTHAGINOIS", army="Carthaginian").save()
    ArmyAlias(name="Carthage N°45", army="Carthaginian").save()
    page = text(visitor.get("/armies/"))
    assert "Carthaginian" in page and "Carthaginois" not in page
    assert "too few games" in page and "Win share" in page
    assert "No two armies have met 20 times yet." in page


def test_a_name_is_mapped_once(db):
    ArmyAlias(name="Romains", army="Roman").save()
    with pytest.raises(ValidationError):
        ArmyAlias(name=" romains", army="Roman (early)").full_clean()


def test_a_players_page_shows_their_record_with_and_against_each_army(client, played):
    player = played.players[0]
    page = text(client.get(f"/players/{player.id}/", HTTP_ACCEPT_LANGUAGE="en"))
    assert 'id="armies-title"' in page and "Carthaginois" in page and "With each army played" in page
    page = text(client.get(f"/players/{player.id}/", HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Armées" in page and "trop peu de parties" in page


def test_an_excluded_players_games_leave_the_armies(visitor, played, django_user_model):
    board = django_user_model.objects.create_user("board-member", is_staff=True)
    before = text(visitor.get("/armies/"))
    assert "carthage n°45" in before
    player_exclude(player=played.players[1], reason="loaded dice", user=board)
    from ratings.services import replay_pending

    replay_pending(system_code="adlg")
    cache.clear()
    assert "carthage n°45" not in text(visitor.get("/armies/"))


def test_a_tournaments_armies_stay_out_while_its_army_lists_are_not_public(visitor, played):
    from tournaments.models import ArmyList, Entry

    # Lists sent on the site and never published (no announcement publishing them): the army is the player's secret.
    entry = Entry.objects.create(tournament=played.tournament, player=played.players[0], pool="A")
    ArmyList.objects.create(entry=entry, army_name="Carthaginois", army_number="45", kind="link",
                            url="https://example.org/")
    cache.clear()
    page = text(visitor.get("/armies/"))
    assert "Carthaginois" not in page and "Romains" not in page
    assert "Carthaginois" not in text(visitor.get(f"/tournaments/{played.tournament.id}/"))
    assert "Carthaginois" not in text(visitor.get(f"/players/{played.players[0].id}/"))
