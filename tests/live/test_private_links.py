"""The page at a player's private link (PAIRING.md §6): what it shows, the entry of the table's result through the
service an account's entry uses, the plain sentence after it, links that no longer work, the throttle, a double
submit, bad values, and what never leaks the link (cache, Referer, logs)."""

from __future__ import annotations

import logging
import random
import re
import uuid
from datetime import timedelta

import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from players.models import AuditEntry, Player
from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live.links import LINKING_DAYS, entrant_link_path, entrant_link_token, link_reissue
from tournaments.live.rounds import round_pair, round_publish
from tournaments.live.start import live_cancel
from tournaments.models import LiveAction, LiveEntrant, LiveTable, LiveTournament, Tournament

pytestmark = pytest.mark.django_db

GONE = "This link no longer works"


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(4), players_enter_results=True)
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, seed=1))
    return live


@pytest.fixture
def table(live):
    return LiveTable.objects.select_related("a", "b").filter(round__live=live, b__isnull=False).first()


def _fields(html: str) -> dict[str, str]:
    """The hidden fields of the link's entry form: what a browser would send with the player's choice."""
    form = re.search(r'<form method="post" action="[^"]*/live/me/[^"]*"[^>]*>(.*?)</form>', html, re.S)
    assert form is not None, "no entry form on the page"
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(1)))


def _enter(client, entrant: LiveEntrant, **result):
    path = entrant_link_path(entrant)
    fields = _fields(client.get(path).content.decode())
    return client.post(path, {**fields, **result})


def _state(table: LiveTable) -> tuple:
    table.refresh_from_db()
    return table.result, table.a_losses, table.b_losses, table.claim_a, table.claim_b


def test_it_shows_the_players_table_opponent_and_place_without_an_account(client, live, table):
    response = client.get(entrant_link_path(table.a))
    text = response.content.decode()
    assert response.status_code == 200
    assert f"Your table: {table.table} (round 1)" in text
    assert f"your opponent is {table.b.first_name} {table.b.last_name}" in text
    assert "The standings appear once round 1 is complete." in text
    assert 'name="result"' in text and 'name="a_losses"' in text and 'name="b_losses"' in text
    assert "data-offline-queue" in text and 'name="action_key"' in text
    assert 'content="noindex' in text
    assert response["Referrer-Policy"] == "strict-origin"  # the origin at most, never the path with the token
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert "noindex" in response["X-Robots-Tag"]


def test_the_same_result_from_both_players_counts_and_each_sees_it(client, live, table):
    result = {"result": "B", "a_losses": "60", "b_losses": "20"}
    response = _enter(client, table.a, **result)
    assert response.status_code == 302 and response["Location"] == entrant_link_path(table.a)
    assert _state(table)[0] == ""
    page = client.get(entrant_link_path(table.a)).content.decode()
    assert f"Waiting for {table.b.first_name} {table.b.last_name}" in page
    assert 'value="B" checked' in page and 'value="60"' in page  # the form shows what was entered

    page_b = client.get(entrant_link_path(table.b)).content.decode()
    assert f"{table.a.first_name} {table.a.last_name} entered:" in page_b
    assert _enter(client, table.b, **result).status_code == 302
    assert _state(table)[:3] == ("B", 60, 20)
    for entrant in (table.a, table.b):
        page = client.get(entrant_link_path(entrant)).content.decode()
        assert "Counted." in page and 'name="result"' not in page
    entries = AuditEntry.objects.filter(action="live_claim").order_by("pk")
    assert [e.summary for e in entries] == [
        f"round 1 table {table.table}: B 60% / 20% entered by private link of {table.a}",
        f"round 1 table {table.table}: B 60% / 20% entered by private link of {table.b}, both players agree: "
        "it counts"]
    assert all(e.user is None and entrant_link_token(table.a) not in e.summary for e in entries)


def test_different_results_are_flagged_and_the_referee_settles_them(client, live, table, referee):
    _enter(client, table.a, result="A", a_losses="10", b_losses="60")
    _enter(client, table.b, result="B", a_losses="60", b_losses="10")
    assert _state(table)[0] == ""
    name_b = f"{table.b.first_name} {table.b.last_name}"
    page = client.get(entrant_link_path(table.a)).content.decode()
    assert f"You and {name_b} entered different results: the referee will settle it." in page

    client.force_login(referee)
    results = client.get(reverse("referee:live_results", args=[live.pk, 1])).content.decode()
    card = results.split(f'id="table-{table.table}"')[1].split("</section>")[0]
    assert "Two different entries: settle the table." in card
    assert f"{name_b} entered:" in card and "A lost 60%, B lost 10%" in card
    # One tap on B's version: its form carries that version, through the referee's own entry.
    versions = re.findall(r'<div class="version">(.*?)</div>', card, re.S)
    assert len(versions) == 2 and name_b in versions[1]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', versions[1]))
    response = client.post(reverse("referee:live_result", args=[live.pk, 1, table.table]), fields)
    assert response.status_code == 302
    assert _state(table) == ("B", 60, 10, None, None)
    assert AuditEntry.objects.filter(action="live_results", user=referee).exists()
    assert "Counted by the referee." in client.get(entrant_link_path(table.a)).content.decode()


def test_the_referee_sees_a_single_entry(client, live, table, referee):
    _enter(client, table.a, result="D", a_losses="20", b_losses="25")
    client.force_login(referee)
    results = client.get(reverse("referee:live_results", args=[live.pk, 1])).content.decode()
    card = results.split(f'id="table-{table.table}"')[1].split("</section>")[0]
    assert f"{table.a.first_name} {table.a.last_name} entered:" in card and "A lost 20%, B lost 25%" in card
    assert "It counts once the other player enters the same." in card
    assert "Two different entries" not in card


def _single_entry_form(html: str, table: int) -> dict[str, str]:
    card = html.split(f'id="table-{table}"')[1].split("</section>")[0]
    single = re.search(r'<div class="single-entry">(.*?)</form>', card, re.S)
    assert single is not None and "Count this result" in single.group(1)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', single.group(1)))


def test_the_referee_counts_a_single_entry_in_one_tap_and_the_other_player_sees_it_counted_by_the_referee(
        client, live, table, referee):
    _enter(client, table.a, result="D", a_losses="20", b_losses="25")
    client.force_login(referee)
    results = reverse("referee:live_results", args=[live.pk, 1])
    fields = _single_entry_form(client.get(results).content.decode(), table.table)
    url = reverse("referee:live_result", args=[live.pk, 1, table.table])
    response = client.post(url, fields)
    assert response.status_code == 302
    assert _state(table) == ("D", 20, 25, None, None)
    assert LiveTable.objects.get(pk=table.pk).entered_by == referee
    # The same tap again (a double tap, the page sent again): done once, nothing more changes.
    again = client.post(url, fields)
    assert again.status_code == 302 and AuditEntry.objects.filter(action="live_results").count() == 1
    client.logout()
    other = client.get(entrant_link_path(table.b)).content.decode()
    assert "Counted by the referee." in other and 'name="result"' not in other


def test_a_single_entry_changed_since_the_page_was_shown_is_not_counted_over_it(client, live, table, referee):
    _enter(client, table.a, result="D", a_losses="20", b_losses="25")
    client.force_login(referee)
    fields = _single_entry_form(client.get(reverse("referee:live_results", args=[live.pk, 1])).content.decode(),
                                table.table)
    client.logout()
    _enter(client, table.b, result="D", a_losses="20", b_losses="25")  # the other player confirms meanwhile
    client.force_login(referee)
    response = client.post(reverse("referee:live_result", args=[live.pk, 1, table.table]), fields)
    assert response.status_code == 302  # the same result: nothing to refuse, nothing changes
    assert _state(table)[:3] == ("D", 20, 25)
    assert LiveTable.objects.get(pk=table.pk).entered_by is None  # counted by the players, as it was


def test_a_player_is_asked_to_confirm_a_win_whose_winner_lost_more_as_the_referee_is(client, live, table):
    asked = _enter(client, table.a, result="A", a_losses="60", b_losses="20")
    text = asked.content.decode()
    assert asked.status_code == 400 and "wins with more losses (60%)" in text
    assert "Yes: the winner lost more than the loser. Record it." in text and 'name="confirm" required' in text
    assert _state(table)[3] is None  # nothing entered
    path = entrant_link_path(table.a)
    confirmed = client.post(path, {**_fields(text), "result": "A", "a_losses": "60", "b_losses": "20",
                                   "confirm": "on"})
    assert confirmed.status_code == 302
    assert _state(table)[3] == {"result": "A", "a_losses": 60, "b_losses": 20, "free": False}


def test_an_account_is_asked_to_confirm_a_win_whose_winner_lost_more_too(client, live, table, django_user_model):
    user = django_user_model.objects.create_user("a-player", password="x-pass-123")
    Player.objects.filter(pk=table.a.player_id).update(user=user)
    client.force_login(user)
    url = reverse("live_claim", args=[live.pk, table.pk])
    asked = client.post(url, {"result": "B", "a_losses": "10", "b_losses": "30"})
    assert asked.status_code == 400 and "Yes: the winner lost more than the loser. Record it." in asked.content.decode()
    assert client.post(url, {"result": "B", "a_losses": "10", "b_losses": "30", "confirm": "on"}).status_code == 302
    assert _state(table)[3]["result"] == "B"


def test_an_account_linked_to_the_player_still_enters_through_the_same_service(client, live, table,
                                                                                django_user_model):
    user = django_user_model.objects.create_user("a-player", password="x-pass-123")
    Player.objects.filter(pk=table.a.player_id).update(user=user)
    _enter(client, table.b, result="A", a_losses="0", b_losses="40")
    client.force_login(user)
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert f"{table.b.first_name} {table.b.last_name} entered:" in page  # each sees what the other entered
    response = client.post(reverse("live_claim", args=[live.pk, table.pk]),
                           {"result": "D", "a_losses": "30", "b_losses": "30"})
    assert response.status_code == 302
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert "entered different results: the referee will settle it." in page
    assert 'value="D" checked' in page  # the form shows what the account entered
    client.logout()
    assert _enter(client, table.b, result="D", a_losses="30", b_losses="30").status_code == 302
    assert _state(table)[:3] == ("D", 30, 30)
    by_account = AuditEntry.objects.filter(action="live_claim", user=user).get()
    assert by_account.user == user and by_account.summary.endswith(f"entered by account of {table.a}")


def test_a_revoked_link_is_refused_with_the_page_that_says_to_ask_the_referee(client, live, table):
    old = entrant_link_path(table.a)
    link_reissue(live, table.a)
    for response in (client.get(old), client.post(old, {"result": "A", "a_losses": "0", "b_losses": "50"})):
        assert response.status_code == 404
        text = response.content.decode()
        assert GONE in text and "Ask the referee for your link." in text
        assert "Address asked for" not in text  # unlike the site's 404 page, it does not print the link
    assert _state(table)[3] is None
    table.a.refresh_from_db()
    assert client.get(entrant_link_path(table.a)).status_code == 200


@pytest.mark.parametrize("path", [
    lambda table, other: f"/tournaments/{other.pk}/live/me/{entrant_link_token(table.a)}/",  # another tournament's link
    lambda table, other: f"/tournaments/{table.a.live_id}/live/me/{'x' * 43}/",
    lambda table, other: f"/tournaments/{table.a.live_id}/live/me/{'x' * 500}/",
    lambda table, other: f"/tournaments/99999999999999999999/live/me/{entrant_link_token(table.a)}/",
])
def test_a_link_of_another_tournament_or_made_up_is_refused(client, table, path):
    other = live_tournament(federation_players(2, first_id=3001), name="Other open")
    response = client.get(path(table, other))
    assert response.status_code == 404 and GONE in response.content.decode()


def test_the_link_of_a_published_tournament_leads_to_the_final_standings_and_takes_no_result(client, live, table):
    path = entrant_link_path(table.a)
    LiveTournament.objects.filter(pk=live.pk).update(published_at="2026-11-21T20:00:00Z")
    Tournament.objects.filter(pk=live.pk).update(start_date=timezone.localdate(), end_date=timezone.localdate())
    response = client.get(path)
    page = response.content.decode()
    assert response.status_code == 200 and "is over" in page and 'name="result"' not in page
    assert reverse("tournament_detail", args=[live.pk]) in page
    assert client.post(path, {"table": table.pk, "result": "A", "a_losses": "0", "b_losses": "50"}).status_code == 200
    assert _state(table)[3] is None


def test_the_link_of_a_tournament_published_long_ago_leads_to_its_standings_for_good(client, live, table):
    path = entrant_link_path(table.a)
    LiveTournament.objects.filter(pk=live.pk).update(published_at="2026-11-21T20:00:00Z")
    ended = timezone.localdate() - timedelta(days=LINKING_DAYS + 1)
    Tournament.objects.filter(pk=live.pk).update(start_date=ended, end_date=ended)
    response = client.get(path)
    assert response.status_code == 301 and response["Location"].startswith(reverse("tournament_detail",
                                                                                   args=[live.pk]))


def test_the_link_of_a_day_handed_over_long_ago_is_refused(client, live, table):
    path = entrant_link_path(table.a)
    LiveTournament.objects.filter(pk=live.pk).update(handed_over_at="2026-11-21T20:00:00Z")
    ended = timezone.localdate() - timedelta(days=LINKING_DAYS + 1)
    Tournament.objects.filter(pk=live.pk).update(start_date=ended, end_date=ended)
    response = client.get(path)
    assert response.status_code == 404 and GONE in response.content.decode()


def test_the_link_of_a_cancelled_run_is_refused(client, referee):
    live = live_tournament(federation_players(2, first_id=4001), name="Cancelled open")
    path = entrant_link_path(live.entrants.first())
    live_cancel(live)
    assert client.get(path).status_code == 404


def test_a_hall_opening_its_links_from_one_address_is_never_refused(client, live, table, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "live_link": "3/m", "live_link_post": "3/m"}
    settings.RATELIMIT_CACHE_PREFIX = f"rl-{uuid.uuid4().hex}:"
    paths = [entrant_link_path(entrant) for entrant in live.entrants.all()]
    statuses = [client.get(path).status_code for path in paths * 3]
    assert statuses == [200] * len(statuses)


def test_links_that_lead_nowhere_are_limited_per_address(client, live, table, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "live_link": "3/m"}
    settings.RATELIMIT_CACHE_PREFIX = f"rl-{uuid.uuid4().hex}:"
    made_up = f"/tournaments/{live.pk}/live/me/{'x' * 43}/"
    assert [client.get(made_up).status_code for _ in range(3)] == [404, 404, 404]
    response = client.post(entrant_link_path(table.a), {"result": "A", "a_losses": "0", "b_losses": "50"})
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert _state(table)[3] is None
    assert client.get(entrant_link_path(table.a), REMOTE_ADDR="203.0.113.5").status_code == 200


def test_what_one_link_sends_is_limited_per_link(client, live, table, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "live_link_post": "3/m"}
    settings.RATELIMIT_CACHE_PREFIX = f"rl-{uuid.uuid4().hex}:"
    path = entrant_link_path(table.a)
    for losses in ("10", "20", "30"):  # each a change, from addresses of its own
        assert _enter(client, table.a, result="A", a_losses=losses, b_losses="50").status_code == 302
    refused = client.post(path, {**_fields(client.get(path).content.decode()), "result": "A", "a_losses": "40",
                                 "b_losses": "50"}, REMOTE_ADDR="203.0.113.7")
    assert refused.status_code == 429
    assert _state(table)[3]["a_losses"] == 30
    assert _enter(client, table.b, result="A", a_losses="30", b_losses="50").status_code == 302  # the opponent's


def test_a_private_links_page_reads_its_own_table_only(client, referee, django_assert_max_num_queries):
    """The page reads the entrant and their table; the place and the clock are the hall's shared parts: a
    handful of queries whatever the size of the day (it read every entrant, round and table, 8 queries)."""
    live = live_tournament(federation_players(32, first_id=4101), rounds=4, players_enter_results=True)
    rng = random.Random(3)
    for number in (1, 2):
        play_round(live, number, rng)
    round_publish(round_pair(live))
    entrant = live.entrants.order_by("pk").first()
    path = entrant_link_path(entrant)
    first = client.get(path).content.decode()  # the shared parts of this version, worked out once
    with django_assert_max_num_queries(2):
        again = client.get(path).content.decode()
    assert again.split("csrfmiddlewaretoken")[0] == first.split("csrfmiddlewaretoken")[0]
    assert "Your table:" in again and "After round 2:" in again


def test_a_double_submit_applies_once(client, live, table):
    path = entrant_link_path(table.a)
    data = {**_fields(client.get(path).content.decode()), "result": "A", "a_losses": "0", "b_losses": "50"}
    first, second = client.post(path, data), client.post(path, data)
    assert first.status_code == second.status_code == 302
    assert second["Location"] == path
    assert "Already done" in client.get(path).content.decode()
    assert AuditEntry.objects.filter(action="live_claim").count() == 1
    assert LiveAction.objects.filter(live=live).count() == 1


@pytest.mark.parametrize("bad", [
    {"result": "A", "a_losses": "²", "b_losses": "50"},
    {"result": "A", "a_losses": "-5", "b_losses": "50"},
    {"result": "A", "a_losses": "5", "b_losses": "101"},
    {"result": "Z", "a_losses": "5", "b_losses": "50"},
    {"result": "", "a_losses": "5", "b_losses": "50"},
    {"result": "A", "a_losses": "5", "b_losses": "50", "table": "abc"},
])
def test_bad_values_get_a_clear_message_and_change_nothing(client, live, table, bad):
    response = _enter(client, table.a, **bad)
    assert response.status_code == 400
    assert "Choose a result; losses are whole numbers from 0 to 100." in response.content.decode()
    assert _state(table) == ("", None, None, None, None)
    assert not AuditEntry.objects.filter(action="live_claim").exists()


def test_a_nul_byte_is_refused_and_changes_nothing(client, live, table):
    response = _enter(client, table.a, result="A\x00", a_losses="5", b_losses="50")
    assert response.status_code == 400
    assert _state(table) == ("", None, None, None, None)


def test_what_the_rules_refuse_is_said_in_words(client, live, table):
    response = _enter(client, table.a, result="A", a_losses="", b_losses="")
    assert response.status_code == 400
    assert "Refused; nothing was changed" in response.content.decode()
    assert _state(table) == ("", None, None, None, None)


def test_a_form_of_the_last_round_sent_after_the_next_is_published_saves_nothing(client, live, table):
    path = entrant_link_path(table.a)
    stale = {**_fields(client.get(path).content.decode()), "result": "A", "a_losses": "0", "b_losses": "50"}
    other = LiveTable.objects.filter(round__live=live).exclude(pk=table.pk).first()
    stale_other = {**stale, "table": str(other.pk)}
    response = client.post(path, stale_other)
    assert response.status_code == 400
    assert escape("This form was for another round's table") in response.content.decode()
    assert _state(other)[3:] == (None, None)


def test_a_form_of_the_players_own_table_of_the_round_before_saves_nothing_once_the_next_is_published(
        client, live, table, monkeypatch):
    """The entry is checked against the pool's current round read alone, never the whole day worked out."""
    from tournaments.live import selectors
    from tournaments.live.results import Result, results_record

    path = entrant_link_path(table.a)
    stale = {**_fields(client.get(path).content.decode()), "result": "A", "a_losses": "0", "b_losses": "50"}
    results_record(live, 1, [Result(t.table, "A", 0, 100) if t.b_id is None else Result(t.table, "B", 70, 20)
                             for t in LiveTable.objects.filter(round__live=live, round__number=1)])
    round_publish(round_pair(live))
    client.get(path)  # the day's parts of this version read once, as the hall has them

    def whole_day(*args, **kwargs):
        raise AssertionError("the whole day worked out for one player's entry")

    monkeypatch.setattr(selectors, "live_view", whole_day)
    response = client.post(path, stale)
    assert response.status_code == 400
    assert escape("This form was for another round's table") in response.content.decode()
    assert _state(table)[0] == "B"
    mine = LiveTable.objects.get(Q(a=table.a) | Q(b=table.a), round__live=live, round__number=2)
    fresh = {**_fields(response.content.decode()), "result": "A", "a_losses": "10", "b_losses": "60"}
    assert client.post(path, fresh).status_code == 302
    claim = _state(mine)[3 if mine.a_id == table.a.pk else 4]
    assert (claim["result"], claim["a_losses"], claim["b_losses"]) == ("A", 10, 60)


def test_without_the_referees_leave_the_page_shows_the_table_and_no_form(client, live, table):
    LiveTournament.objects.filter(pk=live.pk).update(players_enter_results=False)
    text = client.get(entrant_link_path(table.a)).content.decode()
    assert f"Your table: {table.table}" in text and 'name="result"' not in text
    response = client.post(entrant_link_path(table.a), {"table": table.pk, "result": "A", "a_losses": "0",
                                                        "b_losses": "50"})
    assert response.status_code == 400
    assert "The referee enters the results of this tournament." in response.content.decode()


def test_the_place_and_score_follow_the_standings(client, referee):
    import random

    live = live_tournament(federation_players(4, first_id=5001), name="Standings open")
    play_round(live, 1, random.Random(3))
    round_publish(round_pair(live))
    entrant = live.entrants.first()
    text = client.get(entrant_link_path(entrant)).content.decode()
    assert re.search(r"After round 1: \d of 4 · score \d", text)
    assert "Your table: " in text and "(round 2)" in text


def test_the_page_speaks_french(client, live, table):
    client.cookies["django_language"] = "fr"
    text = client.get(entrant_link_path(table.a), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Votre table : {table.table}" in text or f"Votre table\u00a0: {table.table}" in text
    response = client.get(f"/tournaments/{live.pk}/live/me/{'x' * 43}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert "Ce lien ne fonctionne plus" in response.content.decode()


def test_the_token_never_reaches_a_log_line(client, live, table, caplog):
    path = entrant_link_path(table.a)
    link_reissue(live, table.a)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get(path)
    lines = [r.getMessage() for r in caplog.records if r.name == "django.request"]
    assert lines and all("/live/me/…/" in line and path not in line for line in lines)


def _players_page(client, live) -> str:
    return client.get(reverse("referee:live_players", args=[live.pk])).content.decode()


def test_the_referee_copies_each_players_link_from_the_players_page(client, live, table, referee):
    client.force_login(referee)
    page = _players_page(client, live)
    for entrant in live.entrants.all():
        assert f'value="http://testserver{entrant_link_path(entrant)}" readonly' in page
    assert 'data-copy="link-' in page


def test_a_new_link_is_confirmed_first_then_the_old_one_stops(client, live, table, referee):
    client.force_login(referee)
    old = entrant_link_path(table.a)
    url = reverse("referee:live_link_reissue", args=[live.pk, table.a.pk])
    action = re.search(r'action="' + re.escape(url) + r'".*?name="action_key" value="(\w+)"', _players_page(
        client, live), re.S).group(1)
    response = client.post(url, {"action_key": action})
    assert response.status_code == 400 and "The old link stops working" in response.content.decode()
    assert client.get(old).status_code == 200
    response = client.post(url, {"action_key": action, "confirm": "on"})
    assert response.status_code == 302
    assert client.post(url, {"action_key": action, "confirm": "on"}).status_code == 302  # a double tap: once
    assert AuditEntry.objects.filter(action="live_link_reissue").count() == 1
    assert client.get(old).status_code == 404
    table.a.refresh_from_db()
    assert entrant_link_path(table.a) != old and client.get(entrant_link_path(table.a)).status_code == 200


def test_a_referee_of_another_tournament_cannot_reissue_a_link(client, live, table, other_referee):
    client.force_login(other_referee)
    old = entrant_link_path(table.a)
    response = client.post(reverse("referee:live_link_reissue", args=[live.pk, table.a.pk]), {"confirm": "on"})
    assert response.status_code == 403
    assert client.get(old).status_code == 200


def test_the_round_page_says_players_enter_results_through_their_links(client, live, referee):
    client.force_login(referee)
    page = client.get(reverse("referee:live_run", args=[live.pk])).content.decode()
    assert "Players can enter their table" in page and "through their private links" in page


# --- the link proves who holds it: linking the record to an account ---------------------------------------------


def test_a_signed_in_account_links_the_record_through_the_private_link(client, live, table):
    from tests.accounts.helpers import account
    user = account()
    client.force_login(user)
    path = entrant_link_path(table.a)
    assert "Link this record to my account" in client.get(path).content.decode()
    response = client.post(path, {"claim": "1"})
    assert response.status_code == 302 and response["Location"] == reverse("account")
    player = Player.objects.get(pk=table.a.player_id)
    assert player.user == user and player.link_proof == Player.PROOF_TOKEN
    assert AuditEntry.objects.filter(action="claim_token").count() == 1
    assert "This record is linked to your account." in client.get(path).content.decode()


def test_a_signed_out_visitor_is_told_to_sign_in_and_links_nothing(client, live, table):
    path = entrant_link_path(table.a)
    assert "Sign in (or create one), then open this link again" in client.get(path).content.decode()
    client.post(path, {"claim": "1"})
    assert Player.objects.get(pk=table.a.player_id).user is None


def test_a_private_link_still_links_the_record_after_publication(client, live, table):
    from tests.accounts.helpers import account
    path = entrant_link_path(table.a)
    LiveTournament.objects.filter(pk=live.pk).update(published_at="2026-11-21T20:00:00Z")
    Tournament.objects.filter(pk=live.pk).update(start_date=timezone.localdate(), end_date=timezone.localdate())
    user = account()
    client.force_login(user)
    assert client.post(path, {"claim": "1"}).status_code == 302
    assert Player.objects.get(pk=table.a.player_id).user == user


def test_a_private_link_proves_a_link_the_board_made_on_words(client, live, table, board):
    from players.claims import claim_ask, claim_confirm
    from tests.accounts.helpers import account
    user = account()
    player = Player.objects.get(pk=table.a.player_id)
    claim_confirm(claim=claim_ask(user=user, player=player), user=board, checked_how="other", note="Said so")
    client.force_login(user)
    client.post(entrant_link_path(table.a), {"claim": "1"})
    player.refresh_from_db()
    assert player.user == user and player.link_proof == Player.PROOF_TOKEN


def test_private_links_are_stored_as_digests_and_printed_again_alike(live, table):
    from adlg_site import tokens
    entrant = LiveEntrant.objects.get(pk=table.a.pk)
    token = entrant_link_token(entrant)
    assert entrant.link_digest == tokens.digest(token) and token not in (entrant.link_salt or "")
    assert entrant_link_token(LiveEntrant.objects.get(pk=table.a.pk)) == token  # a reprint shows the same link
