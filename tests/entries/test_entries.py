"""Entering a tournament on the site: a linked player enters an announced tournament and a pool, may withdraw until
the deadline, may be listed without the name; the referee refuses an entry with a reason; whoever sees the lists
plays only as the spare; the day starts with the entered players."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser

from players.models import AuditEntry
from rules.words import Forbidden
from tests.entries.conftest import announce
from tests.governance.factories import make_player
from tournaments.before.entries import (
    EntryRefused,
    day_players,
    entry_listing,
    entry_refuse,
    entry_register,
    entry_withdraw,
)
from tournaments.models import Entry


def codes(call):
    with pytest.raises(EntryRefused) as refused:
        call()
    return refused.value.code


# --- entering ----------------------------------------------------------------------------------------------------


def test_a_linked_player_enters_an_announced_tournament_in_a_pool(client, announced, player_user, linked_player):
    client.force_login(player_user)
    assert client.get(f"/tournaments/{announced.pk}/entry/").status_code == 200
    response = client.post(f"/tournaments/{announced.pk}/entry/register/", {"pool": "A"})
    assert response.status_code == 302
    entry = Entry.objects.get()
    assert (entry.player, entry.pool, entry.status) == (linked_player, "A", Entry.ENTERED)
    assert AuditEntry.objects.filter(action="entry_register", object_id=str(entry.pk)).exists()


def test_an_account_not_linked_to_a_federation_player_cannot_enter(client, announced, player_user):
    assert codes(lambda: entry_register(user=player_user, tournament=announced, pool="A")) == "not_a_player"
    client.force_login(player_user)
    page = client.get(f"/tournaments/{announced.pk}/entry/").content.decode()
    assert "not linked to a federation player" in page
    assert client.post(f"/tournaments/{announced.pk}/entry/register/", {"pool": "A"}).status_code == 400
    assert not Entry.objects.exists()


def test_only_the_announced_pools_are_offered(announced, player_user, linked_player):
    assert codes(lambda: entry_register(user=player_user, tournament=announced, pool="Z")) == "unknown_pool"


def test_entries_open_with_the_announcement_and_close_after_the_deadline(tournament, referee, player_user,
                                                                         linked_player):
    assert codes(lambda: entry_register(user=player_user, tournament=tournament, pool="A")) == "not_announced"
    announce(tournament, referee)
    deadline = tournament.announcement.list_deadline
    assert entry_register(user=player_user, tournament=tournament, pool="A", today=deadline).status == "entered"
    Entry.objects.all().delete()
    assert codes(lambda: entry_register(user=player_user, tournament=tournament, pool="A",
                                        today=deadline + timedelta(days=1))) == "entries_closed"


def test_a_player_withdraws_until_the_deadline_and_not_after(announced, player_user, linked_player):
    deadline = announced.announcement.list_deadline
    entry = entry_register(user=player_user, tournament=announced, pool="A")
    assert codes(lambda: entry_withdraw(user=player_user, entry=entry, today=deadline + timedelta(days=1))) == (
        "entries_closed")
    assert Entry.objects.get().status == Entry.ENTERED
    assert entry_withdraw(user=player_user, entry=entry, today=deadline).status == Entry.WITHDRAWN
    # Withdrawn, they may enter again while entries are open.
    assert entry_register(user=player_user, tournament=announced, pool="A").status == Entry.ENTERED


def test_a_player_withdraws_on_the_page_once_they_confirm(client, announced, player_user, linked_player):
    entry_register(user=player_user, tournament=announced, pool="A")
    client.force_login(player_user)
    url = f"/tournaments/{announced.pk}/entry/withdraw/"
    assert url in client.get(f"/tournaments/{announced.pk}/entry/").content.decode()
    confirmation = client.get(url)
    assert confirmation.status_code == 200 and 'name="confirm" value="yes"' in confirmation.content.decode()
    assert client.post(url).status_code == 400  # not confirmed: the question again, nothing done
    assert Entry.objects.get().status == Entry.ENTERED
    response = client.post(url, {"confirm": "yes"})
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{announced.pk}/entry/"
    assert Entry.objects.get().status == Entry.WITHDRAWN


def test_only_the_player_withdraws_their_entry(announced, player_user, linked_player, other_user, other_linked,
                                               referee):
    entry = entry_register(user=player_user, tournament=announced, pool="A")
    for user in (other_user, referee):
        with pytest.raises(Forbidden):
            entry_withdraw(user=user, entry=entry)


# --- the referee refuses -----------------------------------------------------------------------------------------


def test_the_referee_refuses_an_entry_with_a_reason_the_player_reads(client, announced, referee, player_user,
                                                                     linked_player):
    entry = entry_register(user=player_user, tournament=announced, pool="A")
    client.force_login(referee)
    response = client.post(f"/board/tournaments/{announced.pk}/entries/{entry.pk}/refuse/",
                           {f"refuse-{entry.pk}-reason": "The hall holds 24 players."})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert (entry.status, entry.reason) == (Entry.REFUSED, "The hall holds 24 players.")
    assert AuditEntry.objects.filter(action="entry_refuse").exists()
    client.force_login(player_user)
    assert "The hall holds 24 players." in client.get(f"/tournaments/{announced.pk}/entry/").content.decode()
    # A refused entry stays refused.
    assert codes(lambda: entry_register(user=player_user, tournament=announced, pool="A")) == "refused"


def test_a_refusal_without_a_reason_is_refused_beside_the_field(client, announced, referee, player_user,
                                                                linked_player):
    entry = entry_register(user=player_user, tournament=announced, pool="A")
    client.force_login(referee)
    response = client.post(f"/board/tournaments/{announced.pk}/entries/{entry.pk}/refuse/",
                           {f"refuse-{entry.pk}-reason": "   "})
    assert response.status_code == 400
    assert Entry.objects.get().status == Entry.ENTERED


def test_neither_the_list_checker_nor_another_referee_refuses_an_entry(announced, checker, other_referee,
                                                                       player_user, linked_player):
    entry = entry_register(user=player_user, tournament=announced, pool="A")
    for user in (checker, other_referee, player_user):
        with pytest.raises(Forbidden):
            entry_refuse(user=user, entry=entry, reason="no")


# --- anonymity ---------------------------------------------------------------------------------------------------


def test_a_player_listed_without_the_name_is_anonymous_to_others_until_the_start(
        client, announced, referee, checker, player_user, linked_player, other_user, other_linked, board):
    entry_register(user=player_user, tournament=announced, pool="A", listed_without_name=True)
    entry_register(user=other_user, tournament=announced, pool="A")

    def names(viewer, today=None):
        return [line.player.full_name if line.player else None
                for line in entry_listing(tournament=announced, viewer=viewer, today=today)]

    for viewer in (AnonymousUser(), other_user):
        assert names(viewer) == [None, "Joueur Autre"]
    for viewer in (player_user, referee, checker, board):
        assert names(viewer) == ["Simple Joueur", "Joueur Autre"]
    assert names(AnonymousUser(), today=announced.start_date) == ["Simple Joueur", "Joueur Autre"]
    page = client.get(f"/tournaments/{announced.pk}/").content.decode()
    assert "Simple Joueur" not in page and "Les Hoplites" in page  # the other player's club only
    assert page.count("name withheld at the player") == 1
    client.force_login(player_user)
    assert "Simple Joueur" in client.get(f"/tournaments/{announced.pk}/").content.decode()


# --- who plays only as the spare (App. 1 §9) ---------------------------------------------------------------------


def test_the_list_checker_and_the_referees_enter_only_as_the_spare(announced, checker, referee):
    for user, name in ((checker, "Vérif"), (referee, "Arbitre")):
        make_player(name, "X", user=user)
        assert codes(lambda u=user: entry_register(user=u, tournament=announced, pool="A")) == "spare_only"
        assert entry_register(user=user, tournament=announced, pool="A", as_spare=True).as_spare
    assert day_players(tournament=announced) == []


def test_the_spare_box_is_offered_to_the_checker_only(client, announced, checker, player_user, linked_player):
    make_player("Vérif", "X", user=checker)
    client.force_login(checker)
    assert "as_spare" in client.get(f"/tournaments/{announced.pk}/entry/").content.decode()
    client.force_login(player_user)
    assert "as_spare" not in client.get(f"/tournaments/{announced.pk}/entry/").content.decode()


def test_a_tournament_not_announced_yet_says_so_and_shows_no_entry_list(client, tournament):
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "has not published the full announcement yet" in page and 'id="entries"' not in page
