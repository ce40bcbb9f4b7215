"""The audit log as people read it: who by name, when in Paris time to the minute, what as a sentence,
the object by its name, a live result per table from what to what, a swap by the players' names; the names of a
page read in one query per kind, not one per row."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from players.audit import audit_described
from players.governance import player_merge, sanction_give, sanction_withdraw
from players.models import AuditEntry
from tests.governance.factories import make_player, make_tournament
from tests.live.helpers import federation_players, live_tournament
from tournaments.live.pools import key_of
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish, round_swap
from tournaments.models import LiveTable

pytestmark = pytest.mark.django_db


@pytest.fixture
def board_client(client, board):
    board.first_name, board.last_name = "Claire", "Dubois"
    board.save()
    client.force_login(board)
    return client


def test_it_says_who_when_and_what_a_merge_did_by_names(board_client, board):
    keep = make_player("Moreau", "Benoît", pk=229)
    duplicate = make_player("Moreau", "Benoit", pk=363)
    player_merge(duplicate=duplicate, keep=keep, user=board)
    AuditEntry.objects.filter(action="player_merge").update(at=datetime(2026, 3, 12, 13, 5, 7, 123456, tzinfo=UTC))
    page = board_client.get(reverse("board:audit")).content.decode()
    assert "merged player Benoit Moreau (363) into Benoît Moreau (229)" in page
    assert "Claire Dubois" in page
    assert "12 March 2026, 14:05" in page  # Paris is UTC+1 in March
    assert "player_merge</td>" not in page and "players.Player 363" not in page and "123456" not in page
    assert '<a href="?action=player_merge">merged player … into …</a>' in page  # the filter's link, in words


def test_it_names_the_card_given_and_withdrawn(board_client, board):
    player = make_player("Martin", "Paul", pk=501)
    card = sanction_give(player=player, kind="yellow", reason="late list", user=board,
                         decided_on=datetime(2026, 3, 12).date())
    sanction_withdraw(sanction=card, reason="a mistake", user=board)
    page = board_client.get(reverse("board:audit")).content.decode()
    assert "recorded the yellow card of 12 March 2026 for Paul Martin (501)" in page
    assert "withdrew the yellow card of 12 March 2026 for Paul Martin (501)" in page


def test_it_speaks_french_to_a_french_reader(board_client, board):
    keep, duplicate = make_player("Moreau", "Benoît", pk=229), make_player("Moreau", "Benoit", pk=363)
    player_merge(duplicate=duplicate, keep=keep, user=board)
    page = board_client.get(reverse("board:audit"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "a fusionné le joueur Benoit Moreau (363) dans Benoît Moreau (229)" in page and "merged player" not in page


def test_it_names_each_live_result_and_swap(board):
    live = live_tournament(federation_players(6, clubs=6))
    round_ = round_pair(live, seed=1)
    tables = list(LiveTable.objects.filter(round=round_).select_related("a", "b").order_by("table"))
    first, second = tables[0].b, tables[1].b
    round_swap(round_, key_of(first), key_of(second))
    round_publish(round_)
    table = LiveTable.objects.select_related("a", "b").get(round=round_, table=1)
    results_record(live, 1, [Result(1, "A", 10, 40, confirmed=True)], user=board)
    results_record(live, 1, [Result(1, "B", 40, 10, confirmed=True)], user=board)
    entries = audit_described(AuditEntry.objects.filter(action__in=["live_results", "live_swap"]).order_by("id"))
    swap, entered, changed = entries
    a, b = (f"{e.first_name} {e.last_name}" for e in (table.a, table.b))
    assert entered.details == [f"round 1, table 1: {a} A 10% / 40% {b} (was: —)"]
    assert changed.details == [f"round 1, table 1: {a} B 40% / 10% {b} (was: A 10% / 40%)"]
    assert entered.what == f"entered results in {live.tournament}"
    assert entered.lines == [] and [line.field for line in changed.lines] == []  # said once, in the details
    names = [f"{e.first_name} {e.last_name}" for e in (first, second)]
    assert swap.details == [f"round 1: {names[0]} ({key_of(first)}) (table 1) and {names[1]} ({key_of(second)}) "
                            f"(table 2) swapped"]


def test_a_page_of_entries_names_everyone_in_a_few_queries(board_client, board, django_assert_max_num_queries):
    players = [make_player("Joueur", f"N{n}") for n in range(30)]
    tournament = make_tournament("Open de Lyon")
    for player in players:
        AuditEntry.objects.create(user=board, action="player_exclude", object_type="players.Player",
                                  object_id=str(player.pk), summary="x")
        AuditEntry.objects.create(user=board, action="live_start", object_type="tournaments.Tournament",
                                  object_id=str(tournament.pk), summary="x")
    with django_assert_max_num_queries(12):
        page = board_client.get(reverse("board:audit")).content.decode()
    assert f"excluded {players[-1]}" in page and "started Open de Lyon" in page


def test_the_admin_lists_the_log_in_words(admin_client, board):
    keep, duplicate = make_player("Moreau", "Benoît", pk=229), make_player("Moreau", "Benoit", pk=363)
    player_merge(duplicate=duplicate, keep=keep, user=board)
    page = admin_client.get(reverse("admin:players_auditentry_changelist")).content.decode()
    assert "merged player Benoit Moreau (363) into Benoît Moreau (229)" in page
    assert "player_merge</td>" not in page


def test_an_entry_of_an_unknown_action_or_a_gone_object_still_reads():
    entry = AuditEntry.objects.create(user=None, action="something_new", object_type="players.Player",
                                      object_id="99999", summary="what it was")
    described = audit_described([entry])[0]
    assert (described.what, described.object_name, described.who) == ("something new", "what it was", "the site")


