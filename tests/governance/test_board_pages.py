"""The board's and referees' pages do each task without a shell: sanction, merge, retire, override, exception, audit."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from players.governance import sanction_give
from players.models import AuditEntry, RetiredId, Sanction
from ratings.models import ReplayRequest
from tests.governance.factories import make_player, make_tournament, play, register

pytestmark = pytest.mark.django_db


@pytest.fixture
def board_client(client, board):
    client.force_login(board)
    return client


def test_it_gives_a_yellow_card_from_the_sanctions_page(board_client, entrant):
    response = board_client.post(reverse("board:sanctions"), {
        "player": entrant.pk, "kind": "yellow", "reason": "late list twice", "decided_on": "2025-05-01",
        "confirm": "yes"})
    assert response.status_code == 302
    card = Sanction.objects.get(player=entrant)
    assert (card.kind, card.expires_on) == ("yellow", date(2026, 5, 1))


@pytest.mark.parametrize("kind", ["yellow", "red", "exclusion"])
def test_it_shows_the_player_and_asks_for_confirmation_before_recording(board_client, entrant, kind):
    data = {"player": entrant.pk, "kind": kind, "reason": "threw the dice", "decided_on": "2025-05-01"}
    response = board_client.post(reverse("board:sanctions"), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert entrant.full_name in page and 'name="confirm" value="yes"' in page
    assert "threw the dice" in page  # what will be recorded, to check before confirming
    assert not Sanction.objects.filter(player=entrant).exists()
    entrant.refresh_from_db()
    assert not entrant.is_excluded
    assert board_client.post(reverse("board:sanctions"), {**data, "confirm": "yes"}).status_code == 302
    assert Sanction.objects.get(player=entrant).kind == kind


def test_the_exclusion_confirmation_says_how_many_games_become_void(board_client, entrant):
    opponent = make_player("Autre")
    play(make_tournament(), entrant, opponent)
    page = board_client.post(reverse("board:sanctions"), {
        "player": entrant.pk, "kind": "exclusion", "reason": "cheating", "decided_on": "2025-05-01"}).content.decode()
    assert f"Exclude {entrant.full_name} ({entrant.pk})?" in page
    assert "Their 1 game becomes void for everyone" in page
    assert "retired and never given to anyone else" in page


def test_changing_a_sanction_before_confirming_brings_the_form_back_filled_in(board_client, entrant):
    response = board_client.post(reverse("board:sanctions"), {
        "player": entrant.pk, "kind": "red", "reason": "insulted the referee", "decided_on": "2025-05-01",
        "edit": "1"})
    page = response.content.decode()
    assert 'name="confirm"' not in page and "insulted the referee" in page and 'value="red" selected' in page
    assert not Sanction.objects.exists()


def test_a_red_card_names_its_tournament_on_the_confirmation(board_client, entrant, tournament):
    page = board_client.post(reverse("board:sanctions"), {
        "player": entrant.pk, "kind": "red", "reason": "x", "decided_on": "2025-05-01",
        "tournament": tournament.pk}).content.decode()
    assert f"gave a red card for conduct at {tournament.name}" in page
    board_client.post(reverse("board:sanctions"), {
        "player": entrant.pk, "kind": "red", "reason": "x", "decided_on": "2025-05-01",
        "tournament": tournament.pk, "confirm": "yes"})
    assert Sanction.objects.get(player=entrant).tournament == tournament


def test_it_lists_the_current_sanctions_with_their_reasons(board_client, board, entrant):
    sanction_give(player=entrant, kind="red", reason="threw the dice at an opponent", user=board)
    page = board_client.get(reverse("board:sanctions")).content.decode()
    assert "threw the dice at an opponent" in page and entrant.last_name in page


def test_it_excludes_from_the_sanctions_page(board_client, entrant):
    board_client.post(reverse("board:sanctions"), {
        "player": entrant.pk, "kind": "exclusion", "reason": "cheating", "decided_on": "2025-05-01",
        "confirm": "yes"})
    entrant.refresh_from_db()
    assert entrant.is_excluded
    assert RetiredId.objects.filter(pk=entrant.pk).exists()


def test_it_shows_a_refusal_on_the_sanctions_page(board_client):
    response = board_client.post(reverse("board:sanctions"), {
        "player": 99, "kind": "yellow", "reason": "x", "decided_on": "2025-05-01", "confirm": "yes"})
    assert response.status_code == 200
    assert "spare player" in response.content.decode()
    response = board_client.post(reverse("board:sanctions"), {
        "player": 987654, "kind": "yellow", "reason": "x", "decided_on": "2025-05-01"})
    assert "No player has the ID 987654." in response.content.decode()


def test_it_shows_both_records_before_merging(board_client):
    keep, duplicate = make_player("Dupont", "Jean"), make_player("Dupond", "Jean")
    response = board_client.post(reverse("board:merge"), {"keep": keep.pk, "duplicate": duplicate.pk})
    page = response.content.decode()
    assert "Dupont" in page and "Dupond" in page and 'name="confirm" value="yes"' in page
    duplicate.refresh_from_db()
    assert duplicate.merged_into is None


def test_it_merges_once_confirmed(board_client):
    keep, duplicate, opponent = make_player("Dupont"), make_player("Dupond"), make_player("Autre")
    play(make_tournament(), duplicate, opponent)
    response = board_client.post(reverse("board:merge"),
                                 {"keep": keep.pk, "duplicate": duplicate.pk, "confirm": "yes"})
    assert response.status_code == 302
    duplicate.refresh_from_db()
    assert duplicate.merged_into == keep
    assert ReplayRequest.objects.exists()


def test_it_explains_a_refused_merge(board_client):
    keep, duplicate = make_player("Dupont"), make_player("Dupond")
    register(make_tournament("Commun"), keep, duplicate)
    response = board_client.post(reverse("board:merge"),
                                 {"keep": keep.pk, "duplicate": duplicate.pk, "confirm": "yes"})
    assert response.status_code == 200
    assert "not duplicates" in response.content.decode()


def test_it_opens_the_merge_confirmation_from_the_admin_action(board_client):
    keep, duplicate = make_player("Dupont"), make_player("Dupond")
    page = board_client.get(reverse("board:merge"), {"keep": keep.pk, "duplicate": duplicate.pk}).content.decode()
    assert 'name="confirm" value="yes"' in page


def test_it_retires_an_id_and_shows_the_next_free_one(board_client):
    from players.services import next_free_id_preview

    page = board_client.get(reverse("board:ids")).content.decode()
    assert str(next_free_id_preview()) in page
    assert board_client.post(reverse("board:ids"), {"player_id": 7777, "reason": "old club account"}).status_code == 302
    assert RetiredId.objects.get(pk=7777).reason == "old club account"
    assert "7778" in board_client.get(reverse("board:ids")).content.decode()


def test_it_overrides_from_the_page(board_client, tournament):
    url = reverse("board:tournament_override", args=[tournament.pk])
    response = board_client.post(url, {"counts": "no", "reason": ""})
    assert "Give the reason" in response.content.decode()
    assert board_client.post(url, {"counts": "no", "reason": "two clubs only"}).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.counts_override, tournament.override_reason) == (False, "two clubs only")


def test_it_approves_an_exception_from_the_page(board_client, referee):
    late = make_tournament("Annoncé tard", start=timezone.localdate() + timedelta(days=10), referees=[referee],
                           announced_on=timezone.localdate())
    url = reverse("board:tournament_exception", args=[late.pk])
    assert "less than 2 months" in board_client.get(url).content.decode()
    assert board_client.post(url, {"approved": "on", "reason": "replaces a cancelled event"}).status_code == 302
    late.refresh_from_db()
    assert late.exception_approved and late.exception_reason == "replaces a cancelled event"
    assert AuditEntry.objects.filter(action="tournament_exception", object_id=str(late.pk)).exists()


def test_the_exception_page_says_when_no_announcement_date_is_recorded(board_client, referee):
    undated = make_tournament("Sans date", start=timezone.localdate() + timedelta(days=10), referees=[referee],
                              announced_on=None)
    page = board_client.get(reverse("board:tournament_exception", args=[undated.pk])).content.decode()
    assert "No announcement date recorded" in page and "Announced on ," not in page


def test_the_merge_confirmation_heads_each_record_in_french_with_its_space(board_client):
    keep, duplicate = make_player("Dupont"), make_player("Dupond")
    page = board_client.get(reverse("board:merge"), {"keep": keep.pk, "duplicate": duplicate.pk},
                            HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Conservée\u00a0: {keep.full_name} ({keep.pk})" in page  # a non-breaking space before the colon


def test_it_lists_tournaments_for_the_board(board_client, tournament):
    page = board_client.get(reverse("board:tournaments"), {"q": "référé"}).content.decode()
    assert tournament.name in page


def test_it_filters_the_audit_log(board_client, board, entrant):
    sanction_give(player=entrant, kind="yellow", reason="x", user=board)
    make_tournament("Autre")
    AuditEntry.objects.create(user=None, action="import_players", object_type="players.Player", summary="imported")
    # The rows' sentences (the filter's links list every action in words, whatever the filter).
    card = f"recorded the yellow card of {date_format(timezone.localdate(), 'j F Y')}"
    imported = "imported players</td>"
    page = board_client.get(reverse("board:audit"), {"action": "sanction_yellow"}).content.decode()
    assert card in page and imported not in page
    page = board_client.get(reverse("board:audit"), {"user": "board"}).content.decode()
    assert card in page and imported not in page
    page = board_client.get(reverse("board:audit"), {"object_type": "players.Player"}).content.decode()
    assert imported in page


# --- the referee's view of the cards --------------------------------------------------------------------------------


@pytest.fixture
def carded(board, tournament, entrant):
    sanction_give(player=entrant, kind="yellow", reason="SECRET-YELLOW-MOTIVE", user=board)
    return entrant


def test_the_referee_sees_the_card_of_a_registered_player_but_not_the_reason(client, referee, tournament, carded):
    tournament.start_date = timezone.localdate()  # registered before its first day, which is today
    tournament.save(update_fields=["start_date"])
    tournament.registrations.update(registered_at=timezone.now() - timedelta(days=10))
    client.force_login(referee)
    page = client.get(reverse("board:tournament_cards", args=[tournament.pk])).content.decode()
    assert carded.last_name in page
    assert "SECRET-YELLOW-MOTIVE" not in page


def test_the_board_sees_the_reason_on_the_cards_page(board_client, tournament, carded):
    page = board_client.get(reverse("board:tournament_cards", args=[tournament.pk])).content.decode()
    assert "SECRET-YELLOW-MOTIVE" in page


def test_the_cards_page_closes_a_week_after_the_tournament_has_ended(client, referee, carded):
    ended = make_tournament("Fini", start=timezone.localdate() - timedelta(days=10), referees=[referee])
    ended.end_date = timezone.localdate() - timedelta(days=8)
    ended.save()
    register(ended, carded)
    client.force_login(referee)
    assert client.get(reverse("board:tournament_cards", args=[ended.pk])).status_code == 403


def test_the_cards_page_lists_no_player_of_another_tournament(client, referee, tournament, board):
    stranger = make_player("Étranger")
    sanction_give(player=stranger, kind="red", reason="x", user=board)
    client.force_login(referee)
    page = client.get(reverse("board:tournament_cards", args=[tournament.pk])).content.decode()
    assert "Étranger" not in page


def test_the_forms_carry_a_csrf_token(client, board):
    client = type(client)(enforce_csrf_checks=True)
    client.force_login(board)
    response = client.post(reverse("board:ids"), {"player_id": 7777, "reason": "x"})
    assert response.status_code == 403
    assert not RetiredId.objects.filter(pk=7777).exists()
    assert 'name="csrfmiddlewaretoken"' in client.get(reverse("board:ids")).content.decode()


def test_the_merge_page_shows_a_conflict_before_the_button(board_client):
    keep, duplicate = make_player("Dupont"), make_player("Dupond")
    register(make_tournament("Commun"), keep, duplicate)
    response = board_client.post(reverse("board:merge"), {"keep": keep.pk, "duplicate": duplicate.pk})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="merge-conflicts"' in page and "not duplicates" in page
    assert 'name="confirm"' not in page  # no button to press only to be refused
    duplicate.refresh_from_db()
    assert duplicate.merged_into is None


def test_the_merge_page_offers_the_button_when_nothing_conflicts(board_client):
    keep, duplicate = make_player("Dupont"), make_player("Dupond")
    page = board_client.post(reverse("board:merge"), {"keep": keep.pk, "duplicate": duplicate.pk}).content.decode()
    assert 'id="merge-conflicts"' not in page and 'name="confirm" value="yes"' in page


def test_board_forms_label_every_field(board_client):
    import re

    for name in ("board:sanctions", "board:merge", "board:ids"):
        page = board_client.get(reverse(name)).content.decode()
        fields = set(re.findall(r'<(?:input|select|textarea)[^>]*\bid="(id_[^"]+)"', page))
        labels = set(re.findall(r'<label for="(id_[^"]+)"', page))
        assert fields and fields <= labels, (name, fields - labels)


def test_the_override_page_words_the_charter_failures(board_client, tournament):
    from tournaments.models import TournamentOutcome

    TournamentOutcome.objects.create(tournament=tournament, ranked_players=5, rated_games=6, counts=False,
                                     charter_failures=[{"code": "too_few_players",
                                                        "params": {"players": 5, "minimum": 8}}])
    page = board_client.get(reverse("board:tournament_override", args=[tournament.pk])).content.decode()
    assert "The tournament ranks 5 players; at least 8 are needed." in page
    assert "too_few_players" not in page and "{" not in page.split("<main")[1].split("</main>")[0]


def test_board_messages_are_shown_styled_after_a_decision(board_client, entrant):
    response = board_client.post(reverse("board:sanctions"), {
        "player": entrant.pk, "kind": "yellow", "reason": "late list", "decided_on": "2025-05-01",
        "confirm": "yes"}, follow=True)
    page = response.content.decode()
    assert 'class="message success"' in page and f"for {entrant.full_name} ({entrant.pk})" in page
