"""The tournament day's pages with Django's client: who reaches them, what a refusal shows, the polled fragment's
ETag, the players' own results, and French."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from players.models import Player
from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live.forms import ManualPairsForm
from tournaments.live.pools import NEW_KEY
from tournaments.live.rounds import round_pair, round_publish
from tournaments.live.selectors import entrant_name
from tournaments.models import LiveRound, LiveTable, LiveTournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(9))
    live.tournament.referees.add(referee)
    return live


def _signed_in(client, user):
    client.force_login(user)
    return client


def _referee_urls(live):
    pk = live.pk
    return [reverse("referee:live_run", args=[pk]), reverse("referee:live_players", args=[pk]),
            reverse("referee:live_start", args=[pk])]


def test_a_visitor_is_sent_to_sign_in_and_changes_nothing(client, live):
    for url in _referee_urls(live):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client.post(reverse("referee:live_pair", args=[live.pk]), {"pool": "A", "method": "elo-levels"})
    assert response.status_code == 302
    assert not LiveRound.objects.exists()


def test_a_referee_of_another_tournament_is_forbidden(client, live, other_referee):
    other = live_tournament(federation_players(4, first_id=3001), name="Other open")
    other.tournament.referees.add(other_referee)
    _signed_in(client, other_referee)
    for url in _referee_urls(live):
        assert client.get(url).status_code == 403
    response = client.post(reverse("referee:live_pair", args=[live.pk]), {"pool": "A", "method": "elo-levels"})
    assert response.status_code == 403
    assert not LiveRound.objects.filter(live=live).exists()
    assert client.get(reverse("referee:live_run", args=[other.pk])).status_code == 200


def test_the_board_may_run_any_tournament(client, live, board):
    _signed_in(client, board)
    assert client.get(reverse("referee:live_run", args=[live.pk])).status_code == 200
    assert client.get(reverse("referee:live_home")).status_code == 200


def test_a_method_the_charter_forbids_is_refused_with_its_words_and_pairs_nothing(client, live, referee):
    _signed_in(client, referee)
    page = client.get(reverse("referee:live_run", args=[live.pk]))
    assert "the charter requires Elo levels" in page.content.decode()
    response = client.post(reverse("referee:live_pair", args=[live.pk]), {"pool": "A", "method": "draw"})
    assert response.status_code == 400
    text = response.content.decode()
    assert "Refused; nothing was changed" in text
    assert "9 players for 8 ideal: the charter requires pairing round 1 by Elo levels." in text
    assert not LiveRound.objects.filter(live=live).exists()
    version = LiveTournament.objects.get(pk=live.pk).version

    response = client.post(reverse("referee:live_pair", args=[live.pk]), {"pool": "A", "method": "elo-levels"})
    assert response.status_code == 302
    round_ = LiveRound.objects.get(live=live)
    assert round_.seed is not None and round_.system == "elo-levels" and round_.published_at is None
    assert LiveTournament.objects.get(pk=live.pk).version > version


def test_the_referee_pairs_publishes_and_enters_a_result_shown_as_it_counts(client, live, referee):
    _signed_in(client, referee)
    client.post(reverse("referee:live_pair", args=[live.pk]), {"pool": "A", "method": "elo-levels", "seed": "7"})
    round_ = LiveRound.objects.get(live=live)
    response = client.post(reverse("referee:live_round_publish", args=[live.pk, round_.pk]))
    assert response.status_code == 302
    url = reverse("referee:live_result", args=[live.pk, 1, 1])
    assert url == f"/referee/live/{live.pk}/rounds/1/tables/1/"
    response = client.post(url, {"result": "A", "a_losses": "10", "b_losses": "50"}, follow=True)
    assert response.status_code == 200
    table = LiveTable.objects.get(round=round_, table=1)
    assert (table.result, table.a_losses, table.b_losses) == ("A", 10, 50)
    # The score as it counts (a win, 10% of losses to 50%: 98 to 12), in the message naming the table and in the
    # table's own card, not merely somewhere on the page.
    text = response.content.decode()
    a, b = escape(entrant_name(table.a)), escape(entrant_name(table.b))
    messages = re.findall(r'<li class="message success">(.*?)</li>', text, re.S)
    assert messages[-1] == f"Table 1: {a} 98 – 12 {b}."  # after those of the pairing and the publication
    card = re.search(r'<section [^>]*id="table-1".*?</section>', text, re.S).group(0)
    assert re.search(r'<p class="entered" role="status">Counts as: <strong><span class="score">98</span> – '
                     r'<span class="score">12</span>\s*</strong>', card)


def test_a_bad_result_is_refused_with_its_words_and_changes_nothing(client, live, referee):
    round_ = round_pair(live, seed=3)
    round_publish(round_)
    _signed_in(client, referee)
    response = client.post(reverse("referee:live_result", args=[live.pk, 1, 1]), {"result": "A"})
    assert response.status_code == 400
    assert "Refused; nothing was changed" in response.content.decode()
    assert not LiveTable.objects.filter(round=round_).exclude(result="").exists()
    response = client.post(reverse("referee:live_result", args=[live.pk, 1, 1]),
                           {"result": "A", "a_losses": "10", "b_losses": "50", "free": "on"})
    assert response.status_code == 400
    assert "free game" in response.content.decode().lower()
    assert not LiveTable.objects.filter(round=round_).exclude(result="").exists()


def test_a_swap_that_bends_a_rule_asks_for_a_reason(client, referee):
    players = federation_players(8, clubs=2)
    live = live_tournament(players)
    live.tournament.referees.add(referee)
    round_ = round_pair(live, method="draw", seed=5)
    tables = list(round_.tables.select_related("a", "b").order_by("table"))
    # Put two club-mates together: A of table 1 against a club-mate from another table.
    first = tables[0]
    mate = next(t.a if t.a.club == first.a.club else t.b for t in tables[1:]
                if first.a.club in (t.a.club, t.b.club))
    _signed_in(client, referee)
    url = reverse("referee:live_swap", args=[live.pk, round_.pk])
    response = client.post(url, {"first": first.b.player_id, "second": mate.player_id, "reason": ""})
    assert response.status_code == 400
    assert "Give the reason" in response.content.decode()
    assert LiveRound.objects.get(live=live).changes == []  # nothing changed
    response = client.post(url, {"first": first.b.player_id, "second": mate.player_id,
                                 "reason": "Players asked to meet"})
    assert response.status_code == 302
    assert LiveRound.objects.get(live=live).changes[-1]["reason"] == "Players asked to meet"


def test_the_fragment_answers_304_to_its_etag_until_something_changes(client, live):
    round_ = round_pair(live, seed=3)
    round_publish(round_)
    url = reverse("live_now", args=[live.pk])
    assert url == f"/tournaments/{live.pk}/live/now/"
    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    from tournaments.live.results import Result, results_record

    results_record(live, 1, [Result(1, "A", 10, 50)])
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    assert "1/5" in again.content.decode()


def test_the_public_page_shows_tables_and_finds_a_table_by_name(client, live):
    rng = random.Random(3)
    play_round(live, 1, rng)
    round_publish(round_pair(live))
    page = client.get(reverse("live_page", args=[live.pk]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "Round 2 of 3" in text and "Standings after round 1" in text and "seed 7" in text
    assert "{#" not in text and "{%" not in text  # no template comment or tag leaks onto the page
    table = LiveTable.objects.filter(round__number=2, b__isnull=False).select_related("a").first()
    found = client.get(reverse("live_page", args=[live.pk]), {"q": table.a.last_name + " " + table.a.first_name})
    assert f"Table {table.table}, round 2" in found.content.decode()
    assert client.get(reverse("live_page", args=[999999])).status_code == 404


def test_the_public_page_speaks_french(client, live):
    play_round(live, 1, random.Random(2))
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("live_page", args=[live.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    text = page.content.decode()
    assert 'lang="fr"' in text
    assert "Classement après la ronde 1" in text
    assert "Trouvez votre table" in text


def test_players_own_results_count_once_both_confirm_and_the_referee_overrides(client, referee, django_user_model):
    players = federation_players(4)
    live = live_tournament(players, players_enter_results=True)
    live.tournament.referees.add(referee)
    round_ = round_pair(live, seed=1)
    round_publish(round_)
    table = round_.tables.select_related("a", "b").first()
    a_user = django_user_model.objects.create_user("a-player", password="x-pass-123")
    b_user = django_user_model.objects.create_user("b-player", password="x-pass-123")
    Player.objects.filter(pk=table.a.player_id).update(user=a_user)
    Player.objects.filter(pk=table.b.player_id).update(user=b_user)
    url = reverse("live_claim", args=[live.pk, table.pk])
    result = {"result": "B", "a_losses": "60", "b_losses": "20"}

    _signed_in(client, a_user)
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert f"Your table: {table.table}" in page
    assert client.post(url, result).status_code == 302
    table.refresh_from_db()
    assert table.result == ""  # one player only: it does not count yet

    _signed_in(client, b_user)
    assert client.post(url, {**result, "b_losses": "25"}).status_code == 302  # a different result: still waiting
    table.refresh_from_db()
    assert table.result == ""
    assert client.post(url, result).status_code == 302
    table.refresh_from_db()
    assert (table.result, table.a_losses, table.b_losses) == ("B", 60, 20)

    # Someone else's table is refused; the referee's word is final.
    other = round_.tables.exclude(pk=table.pk).first()
    response = client.post(reverse("live_claim", args=[live.pk, other.pk]), result)
    assert response.status_code == 400 and "You do not play at this table." in response.content.decode()
    _signed_in(client, referee)
    client.post(reverse("referee:live_result", args=[live.pk, 1, table.table]),
                {"result": "A", "a_losses": "5", "b_losses": "70"})
    table.refresh_from_db()
    assert (table.result, table.a_losses, table.b_losses) == ("A", 5, 70)


def test_self_entry_is_closed_unless_the_referee_allows_it(client, live, django_user_model):
    round_ = round_pair(live, seed=1)
    round_publish(round_)
    table = round_.tables.select_related("a").first()
    user = django_user_model.objects.create_user("a-player", password="x-pass-123")
    Player.objects.filter(pk=table.a.player_id).update(user=user)
    _signed_in(client, user)
    response = client.post(reverse("live_claim", args=[live.pk, table.pk]),
                           {"result": "A", "a_losses": "5", "b_losses": "70"})
    assert response.status_code == 400
    assert "The referee enters the results of this tournament." in response.content.decode()
    table.refresh_from_db()
    assert table.claim_a is None and table.result == ""


def test_a_whole_tournament_through_the_pages_ends_published(client, live, referee):
    from tournaments.models import Tournament

    _signed_in(client, referee)
    rng = random.Random(5)
    for number in (1, 2, 3):
        data = {"pool": "A", "method": "elo-levels", "seed": "9"} if number == 1 else {"pool": "A"}
        assert client.post(reverse("referee:live_pair", args=[live.pk]), data).status_code == 302
        round_ = LiveRound.objects.get(live=live, number=number)
        client.post(reverse("referee:live_round_publish", args=[live.pk, round_.pk]))
        for table in round_.tables.all():
            losses = sorted(rng.sample(range(0, 101, 5), 2))
            response = client.post(reverse("referee:live_result", args=[live.pk, number, table.table]),
                                   {"result": "A", "a_losses": losses[0], "b_losses": losses[1]})
            assert response.status_code == 302, response.content.decode()
    response = client.post(reverse("referee:live_publish", args=[live.pk]))
    assert response.status_code == 302
    assert LiveTournament.objects.get(pk=live.pk).published_sheet is not None
    assert Tournament.objects.get(pk=live.pk).games.count() == 15
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert "The tournament is over and published." in page


def test_a_round_paired_by_hand_refuses_two_players_meeting_twice_and_needs_a_reason_for_the_spare_again(
        client, live, referee):
    """PAIRING.md §7 (2026-11-26): publication never refuses what the site could have refused when it was typed;
    the result sheet refuses two players meeting twice, so the pages refuse it, with or without a reason. A second
    game against the spare, which the sheet accepts, is a rule bent that needs a reason."""
    _signed_in(client, referee)
    play_round(live, 1, random.Random(5))
    first = list(LiveTable.objects.filter(round__number=1).select_related("a", "b").order_by("table"))
    url = reverse("referee:live_pair_manually", args=[live.pk])
    # Round 1's pairs again: every table a rematch.
    again = "\n".join(f"{t.a.player_id} {t.b.player_id if t.b else 99}" for t in first)
    refused = client.post(url, {"pool": "A", "pairs": again, "reason": "the hall has two rooms"})
    assert refused.status_code == 400
    assert "two players never meet twice" in refused.content.decode()
    assert not live.rounds.filter(number=2).exists()
    # The spare's player meets it again; everyone else meets someone new.
    pairs = [t for t in first if t.b is not None]
    spare = next(t for t in first if t.b is None)
    lines = [f"{spare.a.player_id} 99"] + [f"{pairs[n].a.player_id} {pairs[(n + 1) % len(pairs)].b.player_id}"
                                           for n in range(len(pairs))]
    refused = client.post(url, {"pool": "A", "pairs": "\n".join(lines)})
    assert refused.status_code == 400 and "Give the reason" in refused.content.decode()
    accepted = client.post(url, {"pool": "A", "pairs": "\n".join(lines), "reason": "a latecomer rests"})
    assert accepted.status_code == 302
    round_ = live.rounds.get(number=2)
    assert round_.system == "manual" and round_.reason == "a latecomer rests"
    assert {w["code"] for w in round_.warnings} == {"rematch"}


def test_pairs_by_hand_that_are_not_ids_are_refused_with_the_line(client, live, referee):
    _signed_in(client, referee)
    response = client.post(reverse("referee:live_pair_manually", args=[live.pk]), {"pool": "A", "pairs": "12 x"})
    assert response.status_code == 400 and "Line 1" in response.content.decode()
    assert not live.rounds.exists()


@pytest.mark.parametrize(("pairs", "keys"), [("2001 2002", [(2001, 2002)]), ("n12 99", [(NEW_KEY + 12, 99)]),
                                             ("2001-N3\n 2003 , 2004 ", [(2001, NEW_KEY + 3), (2003, 2004)])])
def test_pairs_by_hand_read_federation_ids_and_new_players_tags(pairs, keys):
    form = ManualPairsForm({"pool": "A", "pairs": pairs})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["pairs"] == keys


@pytest.mark.parametrize("word", ["²", "N²", "٣", "１", "0", "N0", "N", "1e3", str(NEW_KEY), "N" + str(NEW_KEY)])
def test_pairs_by_hand_refuse_what_is_not_an_id(word):
    form = ManualPairsForm({"pool": "A", "pairs": f"2001 {word}"})
    assert not form.is_valid()
    assert form.errors["pairs"] == [f"Line 1: {word} is not a player ID."]


def test_a_calendar_tournament_not_run_live_yet_sends_its_referee_to_the_start_page(client, referee):
    from tests import factories
    from tournaments.models import Tournament

    tournament = factories.tournament("Not live yet", status=Tournament.REGISTERED)
    tournament.referees.add(referee)
    _signed_in(client, referee)
    start = reverse("referee:live_start", args=[tournament.pk])
    assert client.get(reverse("referee:live_run", args=[tournament.pk]))["Location"] == start
    posted = client.post(reverse("referee:live_pair", args=[tournament.pk]), {"pool": "A"})
    assert posted.status_code == 302 and posted["Location"] == start
    assert not LiveTournament.objects.filter(pk=tournament.pk).exists()
