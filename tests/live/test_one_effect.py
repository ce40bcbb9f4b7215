"""One action, one effect: a form of the referee's day sent twice (a double click, a page sent again) acts once and
says so; a page older than the tournament (another tab, another referee) is refused for what depends on it, and
nothing changes. Each action is audited once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from players.models import AuditEntry
from tests import factories
from tests.live.helpers import federation_players, form_fields, live_tournament
from tournaments.models import LiveAction, LiveEntrant, LiveRound, LiveTournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(9))
    live.tournament.referees.add(referee)
    return live



def test_a_double_click_on_publish_publishes_once_and_says_the_second_was_already_done(signed_in, live):
    signed_in.post(reverse("referee:live_pair", args=[live.pk]), {"pool": "A", "method": "elo-levels", "seed": "5"})
    round_ = LiveRound.objects.get(live=live)
    url = reverse("referee:live_round_publish", args=[live.pk, round_.pk])
    fields = form_fields(signed_in.get(reverse("referee:live_run", args=[live.pk])).content.decode(), url)
    assert set(fields) >= {"action_key", "seen"}
    first = signed_in.post(url, fields)
    second = signed_in.post(url, fields, follow=True)
    assert first.status_code == 302 and second.status_code == 200
    assert "Already done: this form was sent twice" in second.content.decode()
    assert AuditEntry.objects.filter(action="live_publish_round").count() == 1
    assert LiveAction.objects.filter(live=live).count() == 1


def test_a_double_click_on_add_adds_one_player_new_to_the_federation(signed_in, live):
    url = reverse("referee:live_add", args=[live.pk])
    page = signed_in.get(reverse("referee:live_players", args=[live.pk])).content.decode()
    fields = {**form_fields(page, url), "last_name": "Nouveau", "first_name": "Jean", "pool": "A"}
    before = LiveEntrant.objects.filter(live=live).count()
    signed_in.post(url, fields)
    signed_in.post(url, fields)
    assert LiveEntrant.objects.filter(live=live).count() == before + 1
    assert LiveEntrant.objects.filter(live=live, last_name="Nouveau").count() == 1


def test_a_page_from_before_a_draw_again_cannot_publish_the_round_it_showed(signed_in, live):
    """Two tabs: the first shows round 1 proposed, the second draws it again; publishing from the first is refused
    (the proposal it showed is gone), with a true message, and the audit says nothing was published."""
    signed_in.post(reverse("referee:live_pair", args=[live.pk]), {"pool": "A", "method": "elo-levels", "seed": "5"})
    first_tab = signed_in.get(reverse("referee:live_run", args=[live.pk])).content.decode()
    shown = LiveRound.objects.get(live=live)
    publish = reverse("referee:live_round_publish", args=[live.pk, shown.pk])
    old_fields = form_fields(first_tab, publish)
    pair = reverse("referee:live_pair", args=[live.pk])
    second_tab = signed_in.get(reverse("referee:live_run", args=[live.pk])).content.decode()
    again = form_fields(second_tab, pair)
    signed_in.post(pair, {**again, "pool": "A", "method": "elo-levels", "seed": "6"})
    response = signed_in.post(publish, old_fields, follow=True)
    text = response.content.decode()
    assert "This page was out of date" in text and "Nothing was done" in text
    assert not LiveRound.objects.filter(live=live, published_at__isnull=False).exists()
    assert not AuditEntry.objects.filter(action="live_publish_round").exists()


def test_a_stale_page_is_refused_only_for_what_depends_on_it(signed_in, live):
    """Adding a player does not act on what the page showed: a page older than the tournament still adds."""
    url = reverse("referee:live_add", args=[live.pk])
    page = signed_in.get(reverse("referee:live_players", args=[live.pk])).content.decode()
    fields = form_fields(page, url)
    LiveTournament.objects.filter(pk=live.pk).update(version=live.version + 5)
    player = factories.player("Tardif", "Paul", id=4321)
    response = signed_in.post(url, {**fields, "player": str(player.pk), "pool": "A"})
    assert response.status_code == 302
    assert LiveEntrant.objects.filter(live=live, player=player).exists()
