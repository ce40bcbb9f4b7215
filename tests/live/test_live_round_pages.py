"""What a real day and a hall under load asked of the referee's and the public pages of the rounds: changes and
undo, proposals one can check, results that never overwrite silently, the preview and the workbook so far; and no
500 from anything a form or an address can send."""

from __future__ import annotations

import random
import re
from datetime import date

import pytest
from django.urls import reverse

from players.models import AuditEntry, Player
from rules.rulesets import SPARE_ID
from tests import factories
from tests.live.helpers import federation_players, form_fields, live_tournament, play_round
from tournaments.live.entrants import NewEntrant
from tournaments.live.pools import key_of
from tournaments.live.rounds import round_pair, round_publish, round_swap, round_withdraw
from tournaments.live.start import live_begin
from tournaments.models import Announcement, LiveDiscardedDraw, LiveRound, LiveTable, LiveTournament, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(8, clubs=8))
    live.tournament.referees.add(referee)
    return live


def _run(client, live) -> str:
    return client.get(reverse("referee:live_run", args=[live.pk])).content.decode()


def _tables(round_):
    return [(t.table, key_of(t.a), key_of(t.b) if t.b else SPARE_ID)
            for t in LiveTable.objects.filter(round=round_).select_related("a", "b").order_by("table")]


# --- pairing: no seed on the pages, proposals one can check


def test_the_pages_never_let_the_referee_choose_a_seed(signed_in, live):
    assert 'name="seed"' not in _run(signed_in, live)
    signed_in.post(reverse("referee:live_pair", args=[live.pk]), {"pool": "A", "method": "draw", "seed": "42"})
    round_ = LiveRound.objects.get(live=live)
    assert round_.seed is not None
    assert 'name="seed"' not in _run(signed_in, live)


def test_a_proposal_shows_each_players_place_score_and_opponents_score(signed_in, live):
    play_round(live, 1, random.Random(1))
    round_pair(live)
    page = _run(signed_in, live)
    assert re.search(r"place 1 · score [\d.]+ · opp. [\d.]+", page)
    assert "Under each name: the place in the standing the round is paired from" in page


def test_the_swap_lists_players_in_table_order_and_a_refused_swap_keeps_both_choices_and_the_reason(signed_in,
                                                                                                    live):
    round_ = round_pair(live, seed=3)
    tables = _tables(round_)
    page = _run(signed_in, live)
    first_select = re.search(r'<select id="swap-first-A" name="first">(.*?)</select>', page, re.S).group(1)
    labels = re.findall(r">(\d+) · ", first_select)
    assert labels == [str(t) for t, _, _ in tables for _ in (0, 1)]
    url = reverse("referee:live_swap", args=[live.pk, round_.pk])
    a, b = tables[0][1], tables[0][2]  # the same table: refused
    response = signed_in.post(url, {"first": a, "second": b, "reason": "asked by both"})
    text = response.content.decode()
    assert response.status_code == 400 and "already play each other" in text
    assert f'<option value="{a}" selected>' in text and f'<option value="{b}" selected>' in text
    assert ">asked by both</textarea>" in text


def test_a_swap_on_the_page_keeps_the_table_numbers_and_says_so(signed_in, live):
    round_ = round_pair(live, seed=3)
    before = _tables(round_)
    url = reverse("referee:live_swap", args=[live.pk, round_.pk])
    response = signed_in.post(url, {"first": before[0][2], "second": before[1][2], "reason": "friends"},
                              follow=True)
    assert "every table keeps its number" in response.content.decode()
    assert [t for t, _, _ in _tables(round_)] == [t for t, _, _ in before]


def test_pair_again_asks_before_it_discards_the_changes(signed_in, live):
    round_ = round_pair(live, seed=3)
    tables = _tables(round_)
    round_swap(round_, tables[0][2], tables[1][2], reason="friends")
    page = _run(signed_in, live)
    assert 'name="discard_changes" required' in page
    url = reverse("referee:live_pair", args=[live.pk])
    refused = signed_in.post(url, {"pool": "A", "method": "draw", "reason": "wrong hats"})
    assert refused.status_code == 400
    assert "Confirm that they are discarded" in refused.content.decode()
    assert LiveRound.objects.get(live=live).pk == round_.pk
    done = signed_in.post(url, {"pool": "A", "method": "draw", "reason": "wrong hats", "discard_changes": "on"})
    assert done.status_code == 302
    assert LiveDiscardedDraw.objects.get(live=live).reason == "wrong hats"


def test_a_chosen_table_on_the_page(signed_in, live):
    round_ = round_pair(live, seed=3)
    before = dict((t, (a, b)) for t, a, b in _tables(round_))
    response = signed_in.post(reverse("referee:live_table", args=[live.pk, round_.pk]),
                              {"table": "4", "to": "1", "reason": "a wheelchair"})
    assert response.status_code == 302
    after = dict((t, (a, b)) for t, a, b in _tables(round_))
    assert after[1] == before[4]
    assert "a wheelchair" in _run(signed_in, live)


# --- withdrawing a round, publicly


def test_a_round_withdrawn_after_results_on_the_page_needs_the_confirmation(signed_in, live, client):
    play_round(live, 1, random.Random(2))
    url = reverse("referee:live_unpair", args=[live.pk])
    page = _run(signed_in, live)
    assert "Discard the 4 results entered in this round" in page
    refused = signed_in.post(url, {"pool": "A", "reason": "hats were wrong"})
    assert refused.status_code == 400 and "confirm that they are discarded" in refused.content.decode()
    assert LiveRound.objects.filter(live=live).exists()
    done = signed_in.post(url, {"pool": "A", "reason": "hats were wrong", "discard_results": "on"})
    assert done.status_code == 302 and not LiveRound.objects.filter(live=live).exists()
    public = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert "Round 1 withdrawn" in public and "hats were wrong" in public
    assert "4 results entered were discarded." in public


def test_the_public_page_lists_a_draft_drawn_again_once_its_round_is_published_and_checks_it(client, live):
    round_pair(live, seed=8)
    round_pair(live, reason="the hats were forgotten")
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert "a draft drawn again" not in page  # the players never saw the draft: listed once the round is out
    round_publish(LiveRound.objects.get(live=live))
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert "Round 1: a draft drawn again" in page and "the hats were forgotten" in page and "seed 8" in page
    kept = LiveDiscardedDraw.objects.get(live=live)
    check = client.get(reverse("live_check_discarded", args=[live.pk, kept.pk]))
    assert check.status_code == 200 and "The re-run gives the pairs of this discarded draw." in check.content.decode()


def test_the_check_page_shows_the_published_pairs_or_the_changes_with_their_reasons(client, live):
    round_ = round_pair(live, seed=21)
    tables = _tables(round_)
    round_swap(round_, tables[0][2], tables[1][2], reason="a father and his son")
    round_publish(round_)
    public = client.get(reverse("live_page", args=[live.pk])).content.decode()
    link = reverse("live_check", args=[live.pk, 1]) + "?pool=A"
    assert link in public and "a father and his son" in public
    page = client.get(link).content.decode()
    assert "The re-run gives the published pairs, but for the changes below." in page
    assert "broken by a swap" in page and "a father and his son" in page and "seed 21" in page
    assert "The pool as it stood" in page


def test_the_check_page_speaks_french(client, live):
    round_publish(round_pair(live, seed=21))
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("live_check", args=[live.pk, 1]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Le nouveau tirage donne les appariements publiés." in page


def test_round_one_notes_the_system_that_follows_on_the_public_page(client, referee):
    live = live_tournament(federation_players(26), rounds=5, swiss="classic")
    round_publish(round_pair(live, seed=1))
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert "the choice of classic Swiss made at the start applies only with exactly 32 players" in page


# --- publishing a round: truthful, once


def test_a_round_published_twice_from_two_tabs_is_published_and_audited_once(signed_in, live):
    round_ = round_pair(live, seed=1)
    url = reverse("referee:live_round_publish", args=[live.pk, round_.pk])
    first = signed_in.post(url)
    again = signed_in.post(url)
    assert first.status_code == 302
    assert again.status_code == 400 and "is already published: nothing more was done" in again.content.decode()
    assert AuditEntry.objects.filter(action="live_publish_round").count() == 1


def test_publishing_a_round_drawn_again_in_another_tab_publishes_nothing(signed_in, live):
    shown = round_pair(live, seed=1)
    round_pair(live, seed=2)
    response = signed_in.post(reverse("referee:live_round_publish", args=[live.pk, shown.pk]))
    assert response.status_code == 400 and "nothing was done" in response.content.decode()
    assert not LiveRound.objects.filter(live=live, published_at__isnull=False).exists()
    assert not AuditEntry.objects.filter(action="live_publish_round").exists()


# --- results


def test_a_win_where_the_winner_lost_more_asks_then_counts(signed_in, live):
    round_publish(round_pair(live, seed=1))
    url = reverse("referee:live_result", args=[live.pk, 1, 1])
    asked = signed_in.post(url, {"result": "A", "a_losses": "60", "b_losses": "20"})
    text = asked.content.decode()
    assert asked.status_code == 400 and "wins with more losses (60%)" in text
    assert 'name="confirm" required' in text
    assert LiveTable.objects.get(round__live=live, table=1).result == ""
    done = signed_in.post(url, {"result": "A", "a_losses": "60", "b_losses": "20", "confirm": "on"})
    assert done.status_code == 302
    assert LiveTable.objects.get(round__live=live, table=1).result == "A"


def test_a_second_entry_is_told_what_is_there_who_entered_it_and_when(client, live, referee, other_referee):
    live.tournament.referees.add(other_referee)
    round_publish(round_pair(live, seed=1))
    client.force_login(referee)
    url = reverse("referee:live_result", args=[live.pk, 1, 2])
    page = client.get(reverse("referee:live_results", args=[live.pk, 1])).content.decode()
    revision = re.search(r'action="' + re.escape(url) + r'".*?name="revision" value="(\d+)"', page, re.S).group(1)
    assert client.post(url, {"result": "A", "a_losses": "10", "b_losses": "40", "revision": revision}).status_code \
        == 302
    client.force_login(other_referee)  # their page was shown before the first entry
    refused = client.post(url, {"result": "B", "a_losses": "50", "b_losses": "10", "revision": revision})
    text = refused.content.decode()
    assert refused.status_code == 400
    assert "Table 2 already has a result, entered by referee at" in text and "A 10% / 40%" in text
    assert LiveTable.objects.get(round__live=live, table=2).result == "A"
    fresh = re.search(r'action="' + re.escape(url) + r'".*?name="revision" value="(\d+)"', text, re.S).group(1)
    assert client.post(url, {"result": "B", "a_losses": "50", "b_losses": "10", "revision": fresh}).status_code \
        == 302
    assert LiveTable.objects.get(round__live=live, table=2).result == "B"


def test_a_free_game_says_it_counts_for_the_rating_only(signed_in, client, live):
    round_publish(round_pair(live, seed=1))
    LiveTable.objects.filter(round__live=live, table=3).update(result="A", a_losses=10, b_losses=40, free=True)
    results = signed_in.get(reverse("referee:live_results", args=[live.pk, 1])).content.decode()
    assert "A free game: it counts for the rating only, not in the standings." in results
    public = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert "free game: counts for the rating only" in public


def test_a_claim_against_the_spare_is_refused_at_once(client, referee, django_user_model):
    players = federation_players(3)
    live = live_tournament(players, players_enter_results=True)
    round_ = round_pair(live, seed=1)
    round_publish(round_)
    spare_table = round_.tables.get(b__isnull=True)
    user = django_user_model.objects.create_user("alone", password="x-pass-123")
    Player.objects.filter(pk=spare_table.a.player_id).update(user=user)
    client.force_login(user)
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert "A game against the spare is entered by the referee" in page
    assert reverse("live_claim", args=[live.pk, spare_table.pk]) not in page  # no form that could never count
    response = client.post(reverse("live_claim", args=[live.pk, spare_table.pk]),
                           {"result": "A", "a_losses": "0", "b_losses": "100"})
    assert response.status_code == 400
    assert "A game against the spare is entered by the referee" in response.content.decode()
    spare_table.refresh_from_db()
    assert spare_table.claim_a is None


# --- the publication: preview, workbook so far


def test_the_preview_shows_every_rating_change_and_names_players_never_cells(signed_in, referee):
    players = federation_players(4, clubs=1)  # one club: round 1 must pair club-mates, a warning
    live = live_tournament(players, rounds=1)
    live.tournament.referees.add(referee)
    play_round(live, 1, random.Random(3))
    page = signed_in.get(reverse("referee:live_publish", args=[live.pk])).content.decode()
    assert "This is what publishing changes" in page
    for player in players:
        assert f"{player.first_name} {player.last_name}" in page
    assert "both of Club 1, play each other in round 1" in page
    # The club and the games on a line of their own under the name, kept apart: "Club 1 1 rated game" read as one.
    assert '<span class="detail muted small">Club 1 · 1 rated game</span>' in page
    assert "Games!" not in page and "Players!" not in page
    response = signed_in.post(reverse("referee:live_publish", args=[live.pk]),
                              form_fields(page, reverse("referee:live_publish", args=[live.pk])))
    assert response.status_code == 302
    assert LiveTournament.objects.get(pk=live.pk).published_at is not None


def test_the_workbook_so_far_downloads_at_any_moment(signed_in, live):
    response = signed_in.get(reverse("referee:live_workbook", args=[live.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/vnd.openxmlformats")
    play_round(live, 1, random.Random(1))
    response = signed_in.get(reverse("referee:live_workbook", args=[live.pk]))
    assert response.status_code == 200 and response.content[:2] == b"PK"
    assert "Download the workbook so far" in _run(signed_in, live)


# --- never a 500


JUNK = ["²", "\x00", "9" * 40, "-1", "", "N²", "１２"]


def test_no_form_of_the_rounds_answers_500_to_junk(signed_in, live):
    round_ = round_pair(live, seed=1)
    pk = live.pk
    posts = {
        reverse("referee:live_pair", args=[pk]): ("pool", "method", "reason", "discard_changes"),
        reverse("referee:live_pair_manually", args=[pk]): ("pool", "pairs", "reason"),
        reverse("referee:live_swap", args=[pk, round_.pk]): ("first", "second", "reason"),
        reverse("referee:live_table", args=[pk, round_.pk]): ("table", "to", "reason"),
        reverse("referee:live_unpair", args=[pk]): ("pool", "reason", "discard_results"),
        reverse("referee:live_self_entry", args=[pk]): ("players_enter_results",),
        reverse("referee:live_screen_chances", args=[pk]): ("screen_chances",),
    }
    for url, fields in posts.items():
        for junk in JUNK:
            for field in fields:
                response = signed_in.post(url, {name: junk if name == field else "" for name in fields})
                assert response.status_code < 500, (url, field, junk)
            assert signed_in.post(url, {}).status_code < 500, url


def test_pairs_by_hand_with_a_superscript_or_a_nul_are_refused_beside_the_field(signed_in, live):
    url = reverse("referee:live_pair_manually", args=[live.pk])
    for pairs in ("² 3", "2001 2002\x00", "N² 2001", "１２ 2001"):
        response = signed_in.post(url, {"pool": "A", "pairs": pairs})
        assert response.status_code == 400, pairs
        assert "Refused; nothing was changed" in response.content.decode()
    assert not LiveRound.objects.filter(live=live).exists()


def test_no_result_form_or_address_answers_500_to_junk(signed_in, live):
    round_publish(round_pair(live, seed=1))
    for junk in JUNK:
        for field in ("result", "a_losses", "b_losses", "free", "reason", "revision", "confirm"):
            data = {"result": "A", "a_losses": "10", "b_losses": "40", field: junk}
            response = signed_in.post(reverse("referee:live_result", args=[live.pk, 1, 1]), data)
            assert response.status_code < 500, (field, junk)
    huge = 10**30
    for url in (f"/referee/live/{live.pk}/rounds/{huge}/", f"/referee/live/{live.pk}/rounds/1/tables/{huge}/",
                f"/referee/live/{live.pk}/proposals/{huge}/swap/", f"/referee/live/{live.pk}/proposals/{huge}/table/",
                f"/referee/live/{live.pk}/proposals/{huge}/publish/"):
        assert signed_in.get(url).status_code < 500, url
        assert signed_in.post(url, {"result": "A"}).status_code < 500, url


def test_no_public_check_address_answers_500(client, live):
    round_publish(round_pair(live, seed=1))
    huge = 10**30
    for url in (f"/tournaments/{live.pk}/live/rounds/{huge}/check/", f"/tournaments/{live.pk}/live/rounds/1/check/"
                "?pool=%C2%B2", f"/tournaments/{live.pk}/live/discarded/{huge}/check/",
                f"/tournaments/{huge}/live/rounds/1/check/"):
        assert client.get(url).status_code == 404, url
    # a NUL anywhere is refused whole by the site (adlg_site.middleware)
    assert client.get(f"/tournaments/{live.pk}/live/rounds/1/check/?pool=%00").status_code == 400
    assert client.get(f"/tournaments/{live.pk}/live/rounds/1/check/").status_code == 200


def test_a_pool_named_with_a_slash_still_gets_its_check_link(client):
    tournament = factories.tournament("Slash open", rounds=3, status=Tournament.REGISTERED)
    live = live_begin(tournament, entrants=[NewEntrant(player=p.pk, pool="A/1") for p in federation_players(4)])
    round_publish(round_pair(live, pool="A/1", seed=1))
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert "?pool=A/1" in page
    assert client.get(reverse("live_check", args=[live.pk, 1]), {"pool": "A/1"}).status_code == 200


def test_round_withdrawn_on_the_page_is_paired_again_with_a_new_seed(signed_in, live):
    play_round(live, 1, random.Random(2), seed=13)
    round_withdraw(live, pool="A", reason="drawn with the wrong list", discard_results=True)
    assert signed_in.post(reverse("referee:live_pair", args=[live.pk]), {"pool": "A", "method": "draw"}).status_code \
        == 302
    again = LiveRound.objects.get(live=live)
    assert again.number == 1 and again.seed != 13


# --- round 1's method: the announced one (PAIRING.md §3, decision of 2026-12-02); hats and clubs at a glance


def _announce(live, method):
    Announcement.objects.create(tournament=live.tournament, game_minutes=120, list_deadline=date(2026, 11, 14),
                                first_round=method)


def _checked_method(page: str) -> str:
    return re.search(r'<input type="radio" name="method" value="([\w-]+)" checked>', page).group(1)


def test_round_one_starts_with_the_method_the_announcement_gave(signed_in, live):
    assert _checked_method(_run(signed_in, live)) == "draw"  # no announcement: the single hat
    _announce(live, "hats")
    page = _run(signed_in, live)
    assert _checked_method(page) == "hats"
    assert "Chosen as the announcement said; you may choose another before pairing." in page


def test_a_proposal_by_another_method_than_the_announced_one_says_it_differs(signed_in, live):
    _announce(live, "hats")
    LiveTournament.objects.get(pk=live.pk).entrants.update(hat=1)
    signed_in.post(reverse("referee:live_pair", args=[live.pk]), {"pool": "A", "method": "draw"})
    page = _run(signed_in, live)
    assert "This method differs from the announcement's (two hats)" in page


def test_an_announced_manual_pairing_points_to_the_pairs_by_hand(signed_in, live):
    _announce(live, "manual")
    page = _run(signed_in, live)
    assert _checked_method(page) == "draw"
    assert "pair it by hand below" in page


def test_a_hat_proposal_shows_each_players_hat_and_club(signed_in, live):
    for n, entrant in enumerate(live.entrants.order_by("pk")):
        entrant.hat = 1 + n % 2
        entrant.save(update_fields=["hat"])
    signed_in.post(reverse("referee:live_pair", args=[live.pk]), {"pool": "A", "method": "hats"})
    page = _run(signed_in, live)
    hats = re.findall(r'<span class="seat-hat">hat (\d)</span>', page)
    clubs = re.findall(r'<span class="seat-club">([^<]+)</span>', page)
    assert sorted(hats) == ["1"] * 4 + ["2"] * 4 and len(clubs) == 8
    # one name from each hat at every table: checked on the page as the referee does
    for pair in re.findall(r'<li class="pair".*?</li>', page, re.S):
        assert sorted(re.findall(r'seat-hat">hat (\d)', pair)) == ["1", "2"]


def test_the_run_page_says_why_each_discarded_draw_was_discarded_and_the_rules_it_bent(signed_in, referee):
    live = live_tournament(federation_players(6, clubs=1, first_id=3001))  # one club: club-mates must meet
    live.tournament.referees.add(referee)
    round_pair(live, seed=3)
    round_pair(live, seed=4)  # drawn again, no reason given
    round_pair(live, seed=5, reason="a player asked")
    page = _run(signed_in, live)
    assert "<strong>Why:</strong> drawn again by the referee, no reason given." in page
    assert "<strong>Reason:</strong> a player asked" in page
    assert page.count("The rules this draw bent:") == 2
    assert "are club-mates: the draw could not keep more clubs apart." in page
    signed_in.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    french = _run(signed_in, live)
    assert "tiré à nouveau par l’arbitre, sans raison donnée." in french
    assert "Les règles que ce tirage a pliées" in french
