"""'My tournaments' on the player's account page (tournaments.before.my_entries): each entry with its list's state,
the deadline, what to do next, withdrawing (confirmed first), the tournament day's private link while it runs,
then the result and the rating change; read in a fixed number of queries."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from players.models import Player
from tests.entries.conftest import after_deadline, send
from tests.governance.factories import make_player, make_tournament
from tests.live.helpers import live_tournament
from tournaments.before.army_lists import army_list_check
from tournaments.before.entries import entry_register
from tournaments.before.my_entries import my_entries
from tournaments.live.links import entrant_link_path
from tournaments.models import Entry, Standing

pytestmark = pytest.mark.django_db


def _section(client) -> str:
    page = client.get(reverse("account")).content.decode()
    return page[page.index('id="my-tournaments"'):page.index('aria-labelledby="record-heading"')]


def test_an_entry_without_a_list_says_to_send_one_by_the_deadline(client, entry, player_user):
    client.force_login(player_user)
    mine = _section(client)
    deadline = entry.tournament.announcement.list_deadline
    assert entry.tournament.name in mine and "pool A" in mine
    assert "Army list: not sent yet; send it by" in mine and str(deadline.year) in mine
    assert "Send my army list" in mine and reverse("entry_withdraw", args=[entry.tournament_id]) in mine


def test_a_list_waiting_for_the_check_leaves_nothing_to_do(client, entry, player_user):
    send(player_user, entry)
    client.force_login(player_user)
    mine = _section(client)
    assert "waiting for the check" in mine and "Send my" not in mine


def test_a_returned_list_shows_the_checkers_comment_and_asks_to_send_it_again(client, entry, player_user, checker):
    army_list_check(user=checker, army_list=send(player_user, entry), compliant=False,
                    comment="Two generals too many")
    client.force_login(player_user)
    mine = _section(client)
    assert "returned" in mine and "Two generals too many" in mine and "Send my list again" in mine


def test_a_compliant_list_says_so(client, entry, player_user, checker):
    army_list_check(user=checker, army_list=send(player_user, entry), compliant=True)
    client.force_login(player_user)
    mine = _section(client)
    assert "Your army list is compliant." in mine and "Send my" not in mine


def test_a_late_list_shows_its_penalty(client, entry, player_user):
    send(player_user, entry, now=after_deadline(entry.tournament.announcement.list_deadline))
    client.force_login(player_user)
    mine = _section(client)
    assert "Your list arrived after the deadline: 20 penalty points off your score" in mine


def test_no_list_after_the_deadline_is_late(entry, linked_player):
    deadline = entry.tournament.announcement.list_deadline
    [row] = my_entries(player=linked_player, today=deadline + timedelta(days=1))
    assert row.list_state == "missing" and row.next_step == "send" and not row.may_withdraw


def test_a_refused_entry_gives_the_referees_reason(client, entry, player_user, referee):
    from tournaments.before.entries import entry_refuse

    entry_refuse(user=referee, entry=entry, reason="Full")
    client.force_login(player_user)
    assert "Your entry was refused. The referee's reason: Full" in _section(client)


def test_my_tournaments_is_on_my_account_page_only(client, entry, linked_player):
    page = client.get(reverse("player_detail", args=[linked_player.pk])).content.decode()
    assert 'id="my-tournaments"' not in page


def test_withdrawing_from_the_account_page_asks_first_then_comes_back(client, entry, player_user):
    client.force_login(player_user)
    url = reverse("entry_withdraw", args=[entry.tournament_id])
    page = client.get(url + "?back=account").content.decode()
    assert "Yes, withdraw my entry" in page and 'name="back" value="account"' in page
    assert Entry.objects.get(pk=entry.pk).status == Entry.ENTERED
    response = client.post(url, {"confirm": "yes", "back": "account"})
    assert response["Location"] == reverse("account") + "#my-tournaments"
    assert Entry.objects.get(pk=entry.pk).status == Entry.WITHDRAWN
    assert "You have withdrawn from this tournament." in _section(client)


def _live_entry(player_user, linked_player, *, proof=Player.PROOF_TOKEN):
    from tests import factories

    others = [factories.player(f"Autre{n}", "Joueur", id=4100 + n) for n in range(3)]
    live = live_tournament([linked_player, *others])
    Entry.objects.create(tournament=live.tournament, player=linked_player, pool="A")
    Player.objects.filter(pk=linked_player.pk).update(link_proof=proof)
    return live


def test_the_private_link_is_on_the_account_page_while_the_day_runs(client, player_user, linked_player):
    live = _live_entry(player_user, linked_player)
    client.force_login(player_user)
    link = entrant_link_path(live.entrants.get(player=linked_player))
    assert link in _section(client)
    live.published_at = timezone.now()
    live.save(update_fields=["published_at"])
    assert link not in _section(client)


def test_an_account_linked_on_words_alone_is_not_shown_the_private_link(client, player_user, linked_player):
    live = _live_entry(player_user, linked_player, proof=Player.PROOF_WORDS)
    client.force_login(player_user)
    assert entrant_link_path(live.entrants.get(player=linked_player)) not in _section(client)


def test_after_the_results_the_entry_shows_the_rank_and_the_rating_change(client, player_user, linked_player):
    tournament = make_tournament("Open classé", start=date(2024, 3, 9))
    Entry.objects.create(tournament=tournament, player=linked_player, pool="A")
    Standing.objects.create(tournament=tournament, pool="A", rank=2, player=linked_player, score=210.5,
                            opponents_score=300, rating_before=1000, rating_after=1012)
    Standing.objects.create(tournament=tournament, pool="A", rank=1, player=make_player("Premier", "Joueur"),
                            score=250, opponents_score=300)
    client.force_login(player_user)
    mine = _section(client)
    assert "Ranked 2 of 2, score 210.50." in mine and "Rating change: +12." in mine
    assert f"?me={linked_player.pk}#me" in mine


@pytest.mark.parametrize("count", [1, 10])
def test_my_tournaments_are_read_in_five_queries_whatever_their_number(django_assert_num_queries, referee,
                                                                       player_user, linked_player, count):
    from tests.entries.conftest import announce

    for n in range(count):
        tournament = make_tournament(f"Tournoi {n}", referees=[referee])
        announce(tournament, referee)
        entry = entry_register(user=player_user, tournament=tournament, pool="A")
        if n % 2:
            send(player_user, entry)
    with django_assert_num_queries(5):
        rows = my_entries(player=linked_player)
    assert len(rows) == count
