"""A lost connection, the server's side of static/js/offline.js: a result that waited on the phone is
sent with the action key its form carried, so a result sent twice (queued, and by a retry that reached the server
before its answer was lost) is applied once; the answers are what the script reads: a redirect to the table's card
when done (or already done), a 4xx carrying the refusal on the table's card, a redirect to the sign-in page the
banner names when the session is gone. The pages carry the banner and its words."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from players.models import AuditEntry
from tests.live.helpers import federation_players, live_tournament
from tournaments.live.rounds import round_pair, round_publish
from tournaments.models import LiveAction, LiveTable, LiveTournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(8, clubs=8))
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, pool="A", seed=3, user=referee), user=referee)
    return live


def _results_url(live) -> str:
    return reverse("referee:live_results", args=[live.pk, 1])


def _result_form(html: str, live, table: int) -> tuple[str, str, dict[str, str]]:
    """The opening tag of table `table`'s result form and its hidden fields: what the script queues."""
    action = reverse("referee:live_result", args=[live.pk, 1, table])
    form = re.search(r'(<form method="post" action="' + re.escape(action) + r'"[^>]*>)(.*?)</form>', html, re.S)
    assert form is not None, f"no result form for table {table}"
    return action, form.group(1), dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"',
                                                  form.group(2)))


def _card(html: str, table: int) -> str:
    card = re.search(r'<section[^>]*id="table-' + str(table) + r'".*?</section>', html, re.S)
    assert card is not None, f"no card for table {table}"
    return card.group(0)


def test_it_applies_a_result_sent_twice_with_one_action_key_once(signed_in, live):
    action, _, fields = _result_form(signed_in.get(_results_url(live)).content.decode(), live, 1)
    sent = {**fields, "result": "A", "a_losses": "10", "b_losses": "40"}
    version = LiveTournament.objects.get(pk=live.pk).version

    first = signed_in.post(action, sent)
    again = signed_in.post(action, sent)

    assert first.status_code == again.status_code == 302  # the script removes the entry on either
    assert first["Location"] == again["Location"] == _results_url(live) + "#table-1"
    table = LiveTable.objects.get(round__live=live, round__number=1, table=1)
    assert (table.result, table.a_losses, table.b_losses) == ("A", 10, 40)
    assert LiveAction.objects.filter(live=live, key=fields["action_key"]).count() == 1
    assert AuditEntry.objects.filter(action="live_results").count() == 1
    assert LiveTournament.objects.get(pk=live.pk).version == version + 1


def test_it_answers_the_replay_with_the_tables_card_showing_the_result_once_in(signed_in, live):
    """The script replaces the form's card by the answer's card of the same id."""
    action, _, fields = _result_form(signed_in.get(_results_url(live)).content.decode(), live, 2)
    sent = {**fields, "result": "D", "a_losses": "20", "b_losses": "25"}
    signed_in.post(action, sent)
    answer = signed_in.post(action, sent, follow=True)
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "Already done" in text
    card = _card(text, 2)
    assert "Counts as:" in card
    assert fields["action_key"] not in card  # a new key: a correction typed afterwards is a new action


def test_it_keeps_the_first_result_when_a_correction_typed_offline_carries_a_key_already_done(signed_in, live):
    """A correction typed while the first send's answer was lost replaces the waiting entry, same key: the server
    says "already done" and the first result stands, as one_effect promises (the card then shows what counts)."""
    action, _, fields = _result_form(signed_in.get(_results_url(live)).content.decode(), live, 3)
    signed_in.post(action, {**fields, "result": "A", "a_losses": "10", "b_losses": "40"})
    answer = signed_in.post(action, {**fields, "result": "B", "a_losses": "40", "b_losses": "10"})
    assert answer.status_code == 302
    assert LiveTable.objects.get(round__live=live, round__number=1, table=3).result == "A"


def test_it_refuses_a_bad_result_with_a_4xx_and_its_words_on_the_card_and_the_key_stays_unspent(signed_in, live):
    action, _, fields = _result_form(signed_in.get(_results_url(live)).content.decode(), live, 1)

    refused = signed_in.post(action, {**fields, "result": "A", "a_losses": "150", "b_losses": "40"})

    assert refused.status_code == 400  # the script removes the entry and shows the card's alert
    card = _card(refused.content.decode(), 1)
    assert 'role="alert"' in card and "losses are whole numbers from 0 to 100" in card
    assert not LiveAction.objects.filter(live=live).exists()
    assert LiveTable.objects.get(round__live=live, round__number=1, table=1).result == ""
    fixed = signed_in.post(action, {**fields, "result": "A", "a_losses": "15", "b_losses": "40"})
    assert fixed.status_code == 302
    assert LiveTable.objects.get(round__live=live, round__number=1, table=1).result == "A"


def test_it_sends_a_signed_out_phone_to_the_sign_in_page_the_banner_names(client, signed_in, live):
    page = signed_in.get(_results_url(live)).content.decode()
    action, _, fields = _result_form(page, live, 1)
    login = re.search(r'data-offline-login="([^"]+)"', page).group(1)
    signed_in.logout()

    answer = client.post(action, {**fields, "result": "A", "a_losses": "10", "b_losses": "40"})

    assert answer.status_code == 302 and answer["Location"].split("?")[0] == login  # the script keeps the entry
    assert LiveTable.objects.get(round__live=live, round__number=1, table=1).result == ""


def test_every_result_form_waits_in_the_tournaments_queue_and_the_page_carries_the_banner(signed_in, live, referee):
    page = signed_in.get(_results_url(live)).content.decode()
    for table in LiveTable.objects.filter(round__live=live, round__number=1).values_list("table", flat=True):
        _, opening, fields = _result_form(page, live, table)
        assert f'data-offline-queue="{live.pk}"' in opening
        assert re.fullmatch(r"[0-9a-f]{32}", fields["action_key"])
    banner = re.search(r"<div class=\"offline-banner\"[^>]*>", page).group(0)
    assert f'data-offline-queue="{live.pk}"' in banner and " hidden" in banner  # shown by the script offline
    assert f'data-offline-user="{referee.pk}"' in banner  # whose entries this page sends
    assert "Offline — showing the page of {time}" in banner and "Waiting to be sent: {count}." in banner
    assert "js/offline.js" in page


def test_every_referee_page_of_the_day_carries_the_banner(signed_in, live):
    for url in (reverse("referee:live_run", args=[live.pk]), reverse("referee:live_players", args=[live.pk]),
                reverse("referee:live_publish", args=[live.pk])):
        page = signed_in.get(url).content.decode()
        assert page.count("data-offline-banner") == 1 and "js/offline.js" in page, url


def test_the_public_page_says_when_it_was_updated_and_has_the_words_for_offline(client, live):
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert re.search(r'data-updated="\d{10}"', page)
    assert re.search(r"Updated at \d\d:\d\d", page)
    assert "Offline — showing the page of {time}" in page


def test_the_public_page_speaks_french_offline_too(client, live):
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert re.search(r"Mis à jour à \d\d:\d\d", page)
    assert "Hors ligne — la page affichée date de {time}" in page


def test_the_probe_the_script_asks_before_a_submit_answers_a_head(client):
    assert client.head("/healthz").status_code == 200
