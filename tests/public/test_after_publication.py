"""After publication (PAIRING.md §7): the tournament's page leads with the standings, the announcement and the
entries folded below them; a player's private link leads to the final standings with their own line marked; a
day handed over to a spreadsheet says that the referee finishes it in the result sheet."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from players.models import Player
from tests.entries.conftest import announce
from tests.governance.factories import make_player, make_tournament
from tests.live.helpers import federation_players, live_tournament
from tournaments.live.links import entrant_link_path
from tournaments.models import LiveTournament, Standing, Tournament

pytestmark = pytest.mark.django_db


def _standings(tournament, players):
    for rank, player in enumerate(players, start=1):
        Standing.objects.create(tournament=tournament, pool="A", rank=rank, player=player, score=300 - 10 * rank,
                                opponents_score=100, rating_before=1000, rating_after=1000 + 5 - rank)


@pytest.fixture
def announced(referee):
    tournament = make_tournament("Open annoncé", referees=[referee])
    announce(tournament, referee)
    return tournament


def test_before_the_results_the_page_opens_with_the_announcement(client, announced):
    page = client.get(reverse("tournament_detail", args=[announced.pk])).content.decode()
    assert 'id="announcement"' in page and "before-folded" not in page
    assert page.index('id="announcement"') < page.index('id="championship-status"')


def test_after_the_results_the_standings_lead_and_the_announcement_folds_below(client, announced):
    _standings(announced, [make_player("Premier", "Joueur"), make_player("Second", "Joueur")])
    page = client.get(reverse("tournament_detail", args=[announced.pk])).content.decode()
    standings = page.index('id="pool-a"')
    assert standings < page.index('id="championship-status"') < page.index("before-folded")
    assert standings < page.index('id="announcement"') and standings < page.index('id="entries"')
    assert re.search(r'<details class="card spaced before-folded"><summary>The announcement and the entries',
                     page)


def test_the_final_standings_mark_the_line_the_address_names(client, announced):
    first, second = make_player("Premier", "Joueur"), make_player("Second", "Joueur")
    _standings(announced, [first, second])
    page = client.get(reverse("tournament_detail", args=[announced.pk]) + f"?me={second.pk}").content.decode()
    marked = re.findall(r'<tr class="me" id="me">\s*<td class="num">(\d+)</td>', page)
    assert marked == ["2"] and page.count("your line") == 1
    unmarked = client.get(reverse("tournament_detail", args=[announced.pk]) + "?me=abc").content.decode()
    assert 'class="me"' not in unmarked


@pytest.fixture
def published():
    live = live_tournament(federation_players(4, first_id=5001), start=timezone.localdate())
    LiveTournament.objects.filter(pk=live.pk).update(published_at=timezone.now())
    live.refresh_from_db()
    _standings(live.tournament, [entrant.player for entrant in live.entrants.order_by("pk")])
    return live


def test_a_private_link_of_a_published_day_leads_to_the_players_marked_line(client, published):
    entrant = published.entrants.order_by("pk")[1]
    owner = get_user_model().objects.create_user("proprietaire", password="x-long-pass-123")
    Player.objects.filter(pk=entrant.player_id).update(user=owner, link_proof=Player.PROOF_TOKEN)
    response = client.get(entrant_link_path(entrant))  # nothing to offer a visitor: straight to the standings
    expected = reverse("tournament_detail", args=[published.pk]) + f"?me={entrant.player_id}#me"
    assert response.status_code == 301 and response["Location"] == expected  # for good: permanent
    page = client.get(expected).content.decode()
    assert re.findall(r'<tr class="me" id="me">\s*<td class="num">(\d+)</td>', page) == ["2"]


def test_a_private_link_with_a_record_to_link_keeps_the_offer_and_leads_to_the_marked_line(client, published):
    entrant = published.entrants.order_by("pk")[0]
    page = client.get(entrant_link_path(entrant)).content.decode()
    assert "Your federation record" in page  # the offer to link the record stays
    assert f"?me={entrant.player_id}#me" in page and "My line in the final standings" in page


def test_a_private_link_of_a_day_handed_over_says_the_referee_finishes_in_the_sheet(client):
    live = live_tournament(federation_players(4, first_id=6001), start=timezone.localdate())
    LiveTournament.objects.filter(pk=live.pk).update(handed_over_at=timezone.now())
    Tournament.objects.filter(pk=live.pk).update(end_date=timezone.localdate())
    page = client.get(entrant_link_path(live.entrants.first())).content.decode()
    assert "The referee finishes Open live in the result sheet" in page and "is over" not in page


def test_a_private_link_of_a_day_published_long_ago_still_leads_to_the_standings_never_a_bare_404(client, published):
    entrant = published.entrants.order_by("pk")[0]
    Tournament.objects.filter(pk=published.pk).update(start_date=timezone.localdate() - timezone.timedelta(days=400),
                                                      end_date=timezone.localdate() - timezone.timedelta(days=400))
    response = client.get(entrant_link_path(entrant))
    assert response.status_code == 301
    assert response["Location"] == reverse("tournament_detail", args=[published.pk]) + f"?me={entrant.player_id}#me"
