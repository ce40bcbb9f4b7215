"""Excluding a player (RULES.md §8): off every public list, ID retired for good, games void, history replayed."""

from __future__ import annotations

from datetime import date
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from players.governance import GovernanceError, player_exclude, player_merge, sanction_give
from players.models import SPARE_ID, AuditEntry, OpeningBalance, Player, RetiredId, Sanction
from players.services import next_free_id_preview, player_ids_allocate
from ratings.models import ReplayRequest
from tests.governance.factories import make_player, make_tournament, play
from tournaments.live.entrants import NewEntrant
from tournaments.live.start import live_begin
from tournaments.models import LiveTournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def cheat():
    return make_player("Tricheur", "Marc")


def test_it_removes_the_player_from_public_lists(board, cheat):
    player_exclude(player=cheat, reason="loaded dice", user=board)
    assert not Player.objects.public().filter(pk=cheat.pk).exists()
    cheat.refresh_from_db()
    assert cheat.is_excluded


def test_it_records_the_exclusion_with_its_reason(board, cheat):
    sanction = player_exclude(player=cheat, reason="loaded dice", user=board)
    assert (sanction.kind, sanction.reason, sanction.player_id, sanction.created_by) == (
        Sanction.EXCLUSION, "loaded dice", cheat.pk, board)


def test_it_retires_the_id_and_never_gives_it_again(board):
    highest = make_player("Dernier", "Inscrit", pk=next_free_id_preview())
    player_exclude(player=highest, reason="cheating", user=board)
    assert RetiredId.objects.filter(pk=highest.pk).exists()
    with transaction.atomic():
        given = player_ids_allocate(5)
    assert highest.pk not in given
    assert min(given) == highest.pk + 1
    assert next_free_id_preview() > max(given)


def test_it_asks_for_a_replay_of_every_system_the_player_played_in(board, cheat):
    opponent = make_player("Adversaire", "Luc")
    play(make_tournament("AdlG", start=date(2024, 5, 4)), cheat, opponent)
    play(make_tournament("BE", start=date(2024, 6, 4), system="battle-empire"), opponent, cheat)
    player_exclude(player=cheat, reason="cheating", user=board)
    requests = ReplayRequest.objects.order_by("system_id")
    assert [(r.system_id, r.since) for r in requests] == [("adlg", None), ("battle-empire", None)]
    assert all(str(cheat.pk) in r.reason for r in requests)


def test_it_replays_a_player_known_only_by_an_opening_balance(board, cheat):
    OpeningBalance.objects.create(player=cheat, system_id="adlg", rating=1600, games=12)
    player_exclude(player=cheat, reason="cheating", user=board)
    assert ReplayRequest.objects.filter(system_id="adlg", since=None).count() == 1


def test_it_needs_no_replay_for_a_player_without_history(board, cheat):
    player_exclude(player=cheat, reason="cheating", user=board)
    assert not ReplayRequest.objects.exists()


def test_it_audits_the_exclusion(board, cheat):
    player_exclude(player=cheat, reason="loaded dice", user=board)
    entry = AuditEntry.objects.get(action="player_exclude")
    assert (entry.user, entry.object_id) == (board, str(cheat.pk))
    assert entry.changes["excluded_at"][0] is None


def test_it_is_what_an_exclusion_sanction_does(board, cheat):
    sanction_give(player=cheat, kind=Sanction.EXCLUSION, reason="cheating", user=board, decided_on=date(2025, 1, 5))
    cheat.refresh_from_db()
    assert cheat.is_excluded
    assert Sanction.objects.get(player=cheat).decided_on == date(2025, 1, 5)


@pytest.mark.parametrize("reason", ["", "   "])
def test_it_needs_a_reason(board, cheat, reason):
    with pytest.raises(GovernanceError, match="reason"):
        player_exclude(player=cheat, reason=reason, user=board)
    cheat.refresh_from_db()
    assert not cheat.is_excluded


def test_it_refuses_the_spare(board):
    with pytest.raises(GovernanceError, match="spare"):
        player_exclude(player=Player.objects.get(pk=SPARE_ID), reason="x", user=board)


def test_it_refuses_to_exclude_twice(board, cheat):
    player_exclude(player=cheat, reason="cheating", user=board)
    with pytest.raises(GovernanceError, match="already excluded"):
        player_exclude(player=cheat, reason="cheating again", user=board)
    assert Sanction.objects.filter(player=cheat).count() == 1


def test_it_points_from_a_merged_duplicate_to_the_kept_record(board, cheat):
    duplicate = make_player("Tricheur", "M.")
    player_merge(keep=cheat, duplicate=duplicate, user=board)
    with pytest.raises(GovernanceError, match=f"exclude player {cheat.pk} instead"):
        player_exclude(player=duplicate, reason="cheating", user=board)


# --- a player of a tournament run live -----------------------------------------------------------------------------


@pytest.fixture
def running_live(cheat, referee):
    """A tournament run live on the site, the cheat among its players, not yet published."""
    tournament = make_tournament("Open du Direct", start=date(2026, 11, 21), referees=[referee])
    return live_begin(tournament, entrants=[NewEntrant(player=cheat.pk), NewEntrant(player=make_player("Autre").pk)],
                      user=referee)


def test_it_refuses_to_exclude_a_player_of_a_tournament_run_live_and_names_the_tournament(board, cheat,
                                                                                          running_live):
    with pytest.raises(GovernanceError) as refused:
        player_exclude(player=cheat, reason="loaded dice", user=board)
    message = str(refused.value)
    assert f"tournament {running_live.pk} (Open du Direct, 21 Nov 2026)" in message
    assert "publish it first" in message
    cheat.refresh_from_db()
    assert not cheat.is_excluded and not Sanction.objects.filter(player=cheat).exists()


def test_it_refuses_a_withdrawn_player_of_it_too(board, cheat, running_live):
    running_live.entrants.filter(player=cheat).update(withdrawn_from=2)  # the games already played stay
    with pytest.raises(GovernanceError, match="run live on the site"):
        player_exclude(player=cheat, reason="loaded dice", user=board)


def test_it_excludes_the_player_once_the_tournament_day_is_published(board, cheat, running_live):
    LiveTournament.objects.filter(pk=running_live.pk).update(published_at=timezone.now())
    player_exclude(player=cheat, reason="loaded dice", user=board)
    cheat.refresh_from_db()
    assert cheat.is_excluded


def test_the_boards_page_says_why_it_refuses(client, board, cheat, running_live):
    client.force_login(board)
    response = client.post(reverse("board:sanctions"), {
        "player": cheat.pk, "kind": "exclusion", "reason": "loaded dice", "decided_on": "2026-11-21",
        "confirm": "yes"})
    assert "run live on the site and not yet published" in response.content.decode()
    assert not Sanction.objects.filter(player=cheat).exists()


def test_the_exclude_player_command_says_why_it_refuses(cheat, running_live):
    with pytest.raises(CommandError, match="run live on the site"):
        call_command("exclude_player", str(cheat.pk), "--reason", "loaded dice", stdout=StringIO())
