"""The referee adds players in bulk on the day's players page: IDs or names pasted one a line, each read as the name
search reads it, shown found / not found / ambiguous / repeated / already playing, then added all at once through
the same service and checks as one (one transaction, all or nothing, one new version)."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from players.models import AuditEntry
from tests import factories
from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live.entrants import (
    AMBIGUOUS,
    FOUND,
    NOT_FOUND,
    PLAYING,
    REPEATED,
    entrants_add,
    pasted_players,
)
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveEntrant, LiveTournament, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(6))
    live.tournament.referees.add(referee)
    return live


@pytest.fixture
def newcomers():
    return [factories.player("Lefèvre", "Benoît", id=301), factories.player("Martin", "Paul", id=302),
            factories.player("Martin", "Pierre", id=303), factories.player("Dupont", "Jean", id=304),
            factories.player("Dupontel", "Jean", id=305)]


def _statuses(live, text):
    return [(line.status, line.player.pk if line.player else None) for line in pasted_players(live, text)]


# --- reading the paste


def test_an_id_or_a_name_found_by_the_search_is_resolved(live, newcomers):
    assert _statuses(live, "302\nPierre Martin\n") == [(FOUND, 302), (FOUND, 303)]


def test_accents_and_capitals_are_ignored_as_the_search_ignores_them(live, newcomers):
    assert _statuses(live, "benoit LEFEVRE") == [(FOUND, 301)]


def test_a_line_that_finds_no_one_is_not_found(live, newcomers):
    assert _statuses(live, "Nobody Here\n999999") == [(NOT_FOUND, None), (NOT_FOUND, None)]


def test_a_name_that_finds_several_is_ambiguous_with_its_candidates(live, newcomers):
    [line] = pasted_players(live, "Martin")
    assert line.status == AMBIGUOUS and [p.pk for p in line.candidates] == [302, 303]


def test_a_whole_name_settles_a_search_that_finds_a_longer_name_too(live, newcomers):
    assert _statuses(live, "Jean Dupont\nDupont Jean") == [(FOUND, 304), (REPEATED, 304)]


def test_the_same_player_twice_in_the_paste_is_repeated(live, newcomers):
    assert _statuses(live, "301\nBenoît Lefèvre") == [(FOUND, 301), (REPEATED, 301)]


def test_a_player_already_in_the_tournament_is_said_to_play(live, newcomers):
    assert _statuses(live, "2001") == [(PLAYING, 2001)]


# --- adding them


def test_the_players_found_are_added_at_once_to_the_pool_and_hat_with_one_new_version(live, newcomers, referee):
    version = LiveTournament.objects.get(pk=live.pk).version
    added = entrants_add(live, [301, 302], pool="a", hat=2, user=referee)
    assert [(e.player_id, e.pool, e.hat, e.present, e.joined_round) for e in added] == [
        (301, "A", 2, True, 1), (302, "A", 2, True, 1)]
    assert LiveTournament.objects.get(pk=live.pk).version == version + 1
    assert set(Registration.objects.filter(tournament=live.tournament, player_id__in=[301, 302])
               .values_list("player_id", flat=True)) == {301, 302}
    assert AuditEntry.objects.filter(action="live_add_player").count() == 2


def test_one_player_refused_adds_none_of_them(live, newcomers):
    version = LiveTournament.objects.get(pk=live.pk).version
    with pytest.raises(LiveRefused) as refused:
        entrants_add(live, [301, 2001], pool="A")
    assert [code for code, _ in refused.value.notices] == ["already_playing"]
    with pytest.raises(LiveRefused):
        entrants_add(live, [301, 301], pool="A")
    assert not LiveEntrant.objects.filter(live=live, player_id=301).exists()
    assert LiveTournament.objects.get(pk=live.pk).version == version


def test_a_pool_that_is_not_the_tournaments_is_refused(live, newcomers):
    with pytest.raises(LiveRefused) as refused:
        entrants_add(live, [301], pool="Z")
    assert refused.value.notices == [("pool_not_the_tournaments", {"pool": "Z", "pools": "A", "input": "pool"})]
    assert not LiveEntrant.objects.filter(live=live, player_id=301).exists()


def test_after_round_one_the_players_added_are_late_players(live, newcomers):
    play_round(live, 1, random.Random(3))
    added = entrants_add(live, [301, 302], pool="A")
    assert [e.joined_round for e in added] == [2, 2]


# --- the page


def _check(client, live, text, pool="A", hat=""):
    return client.post(reverse("referee:live_paste_check", args=[live.pk]), {"lines": text, "pool": pool,
                                                                            "hat": hat})


def test_the_page_checks_the_paste_then_adds_every_player_in_one_step(client, live, newcomers, referee):
    client.force_login(referee)
    page = _check(client, live, "benoit lefevre\n302", hat="1").content.decode()
    assert "Add these 2 players to pool A" in page
    form = re.search(r'<form method="post" action="' + re.escape(reverse("referee:live_paste_add", args=[live.pk]))
                     + r'">(.*?)</form>', page, re.S)[1]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    assert (fields["players"], fields["pool"], fields["hat"]) == ("301,302", "A", "1")
    response = client.post(reverse("referee:live_paste_add", args=[live.pk]), fields)
    assert response.status_code == 302
    assert set(LiveEntrant.objects.filter(live=live, player_id__in=[301, 302]).values_list("hat", flat=True)) == {1}
    again = client.post(reverse("referee:live_paste_add", args=[live.pk]), fields, follow=True)
    assert "Already done" in again.content.decode()


def test_the_page_lists_the_lines_not_found_and_ambiguous_and_offers_no_add(client, live, newcomers, referee):
    client.force_login(referee)
    page = _check(client, live, "Nobody\nMartin\n2001").content.decode()
    assert "not found" in page and "several players: give the ID" in page and "already plays" in page
    assert "Paul Martin (ID 302" in page and "Pierre Martin (ID 303" in page
    assert reverse("referee:live_paste_add", args=[live.pk]) not in page
    assert not LiveEntrant.objects.filter(live=live, player_id__in=[302, 303]).exists()


def test_the_page_in_french_says_the_lines_in_french(client, live, newcomers, referee):
    client.force_login(referee)
    client.cookies["django_language"] = "fr"
    page = client.post(reverse("referee:live_paste_check", args=[live.pk]), {"lines": "Nobody\n301", "pool": "A"},
                       HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "introuvable" in page and "Ajouter plusieurs joueurs de la fédération" in page


def test_an_add_refused_by_the_service_is_shown_and_changes_nothing(client, live, newcomers, referee):
    client.force_login(referee)
    response = client.post(reverse("referee:live_paste_add", args=[live.pk]),
                           {"players": "301,2001", "pool": "A", "hat": "", "lines": "301\n2001"})
    assert response.status_code == 400
    assert "already plays in this tournament" in response.content.decode()
    assert not LiveEntrant.objects.filter(live=live, player_id=301).exists()


def test_only_the_referee_pastes(client, live, newcomers, player_user):
    client.force_login(player_user)
    assert _check(client, live, "301").status_code == 403


def test_the_paste_form_and_the_new_player_form_share_no_id_on_the_players_page(client, live, newcomers, referee):
    """A label or a test that finds a field by its id must find the one it means (pool and hat are in both)."""
    client.force_login(referee)
    for page in (client.get(reverse("referee:live_players", args=[live.pk])).content.decode(),
                 _check(client, live, "benoit lefevre\n302", hat="1").content.decode()):
        ids = re.findall(r'\sid="([^"]+)"', page)
        assert {"pool-choice-paste", "pool-choice-new", "new-pool-paste", "new-pool-new",
                "pool-choice-find"} <= set(ids)
        assert sorted({i for i in ids if ids.count(i) > 1}) == []
