"""The board's page of army names: the names typed in the results that it has not mapped, their spellings side by
side, with how often each was typed, a link to map each in the admin; a tournament whose lists are secret left out;
the board's alone, in both languages."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.armies import TypedName, unmapped_names
from rules.names import name_key
from tests import factories
from tests.public.conftest import text
from tournaments.models import ArmyAlias, ArmyList, Entry, Registration

DAY = date(2026, 11, 21)


def test_the_spellings_of_one_name_are_one_unmapped_name_shown_as_most_often_typed():
    typed = [TypedName("Carthaginois", 1, DAY), TypedName("carthaginois ", 2, date(2026, 12, 1)),
             TypedName("CARTHAGINOIS", 3, DAY), TypedName("carthaginois", 3, DAY),
             TypedName("Romains", 1, DAY), TypedName("", 1, DAY)]

    names = unmapped_names(typed, {name_key("Romains"): "Roman"})

    assert [n.name for n in names] == ["carthaginois"]
    carthage = names[0]
    assert (carthage.spellings, carthage.players, carthage.tournaments) == (3, 4, 3)
    assert carthage.last == date(2026, 12, 1)


@given(st.lists(st.tuples(st.sampled_from(["Gaulois", "gaulois", "Romains", "Perses", "perses ", "Égyptiens"]),
                          st.integers(1, 5)), max_size=30),
       st.sets(st.sampled_from(["Gaulois", "Romains", "Perses", "Egyptiens"])))
def test_every_typed_name_is_mapped_or_listed_once_and_counted_in_full(rows, mapped):
    aliases = {name_key(name): name for name in mapped}
    typed = [TypedName(name, tournament, DAY) for name, tournament in rows]

    names = unmapped_names(typed, aliases)

    keys = [n.key for n in names]
    assert keys == sorted(set(keys))
    assert not set(keys) & set(aliases)
    assert sum(n.players for n in names) == sum(1 for t in typed if name_key(t.name) not in aliases)


@pytest.fixture
def typed(db):
    fed = factories.federation(4)
    for player, army in zip(fed.players, ["Carthaginois", "carthage n°45", "Romains", "romains"], strict=True):
        Registration.objects.filter(player=player).update(army=army)
    return fed


def test_the_board_sees_each_name_not_mapped_with_a_link_to_map_it(client, board, typed):
    ArmyAlias(name="carthage n°45", army="Carthaginian").save()
    client.force_login(board)

    page = text(client.get("/board/army-names/", HTTP_ACCEPT_LANGUAGE="en"))

    assert "2 names typed and not mapped" in page and "1 name mapped." in page
    assert "Carthaginois" in page and "carthage n°45" not in page
    assert "<td>Romains <span class=\"muted small\">(2 spellings)</span></td>" in page
    html = client.get("/board/army-names/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "/admin/tournaments/armyalias/add/?name=Carthaginois" in html
    form = client.get("/admin/tournaments/armyalias/add/?name=Carthaginois").content.decode()
    assert 'value="Carthaginois"' in form  # the admin's form starts from the name


def test_the_page_is_in_french_too(client, board, typed):
    client.force_login(board)
    page = text(client.get("/board/army-names/", HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Noms d’armée" in page and "saisis et non rattachés" in page


def test_a_tournament_whose_lists_are_secret_keeps_its_armies_off_the_page(client, board, typed):
    entry = Entry.objects.create(tournament=typed.tournament, player=typed.players[0], pool="A")
    ArmyList.objects.create(entry=entry, army_name="Carthaginois", army_number="45", kind="link",
                            url="https://example.org/")
    client.force_login(board)
    page = text(client.get("/board/army-names/", HTTP_ACCEPT_LANGUAGE="en"))
    assert "Carthaginois" not in page and "Every name typed is mapped." in page


def test_only_the_board_sees_it(client, typed, django_user_model):
    assert client.get("/board/army-names/").status_code == 302  # to sign in
    client.force_login(django_user_model.objects.create_user("a-player"))
    assert client.get("/board/army-names/").status_code == 403
