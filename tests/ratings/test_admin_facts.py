"""Facts changed or deleted through the admin are rated again, as an import would: the state after the replay
they request is the state of a replay from scratch."""

from __future__ import annotations

from datetime import date

import pytest

from ratings.models import RatingEvent, RatingSystem, ReplayRequest
from ratings.services import replay_from_scratch
from tests.ratings.helpers import derived_state, imported, roster, sheet
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def admin_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("board", password="x-board-123", is_staff=True,
                                                             is_superuser=True))
    return client


def _scratch_equals_stored() -> None:
    stored = derived_state()
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    assert derived_state() == stored


def _three_tournaments():
    roster()
    first = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    imported(sheet(name="Summer Cup", start=date(2024, 7, 6), new_players=first.new_players))
    imported(sheet(name="Autumn Open", start=date(2024, 10, 5), new_players=first.new_players))
    return Tournament.objects.get(pk=first.tournament_id)


def test_a_result_changed_in_the_admin_is_rated_again(admin_client):
    spring = _three_tournaments()
    game = Game.objects.filter(tournament=spring, result="A").order_by("round", "table").first()
    before = derived_state()
    response = admin_client.post(f"/admin/tournaments/game/{game.pk}/change/", {
        "tournament": spring.pk, "round": game.round, "table": game.table, "player_a": game.player_a_id,
        "player_b": game.player_b_id, "result": "B", "a_losses": game.b_losses, "b_losses": game.a_losses,
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    request = ReplayRequest.objects.latest("id")
    assert (request.since, request.status) == (spring.end_date, ReplayRequest.DONE)
    assert derived_state() != before
    event = RatingEvent.objects.get(game=game, player=game.player_b_id)
    assert event.score == 1.0
    _scratch_equals_stored()


def test_a_game_deleted_in_the_admin_leaves_no_trace_once_replayed(admin_client):
    spring = _three_tournaments()
    game = Game.objects.filter(tournament=spring).order_by("round", "table").first()
    response = admin_client.post(f"/admin/tournaments/game/{game.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not RatingEvent.objects.filter(game_id=game.pk).exists()
    assert ReplayRequest.objects.latest("id").since == spring.end_date
    _scratch_equals_stored()


def test_a_rated_tournament_cannot_be_deleted_in_the_admin(admin_client):
    # Its standings are derived rows nobody may delete by hand: Django refuses the whole deletion.
    spring = _three_tournaments()
    assert admin_client.post(f"/admin/tournaments/tournament/{spring.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Tournament.objects.filter(pk=spring.pk).exists()


def test_an_opening_balance_changed_in_the_admin_is_rated_again(admin_client):
    from players.models import OpeningBalance, Player

    _three_tournaments()
    player = Player.objects.get(pk=101)
    balance = OpeningBalance.objects.get(player=player)
    response = admin_client.post(f"/admin/players/player/{player.pk}/change/", {
        "id": player.pk, "last_name": player.last_name, "first_name": player.first_name, "club": player.club_id or "",
        "country": player.country_id,
        "opening_balances-TOTAL_FORMS": "1", "opening_balances-INITIAL_FORMS": "1",
        "opening_balances-MIN_NUM_FORMS": "0", "opening_balances-MAX_NUM_FORMS": "1000",
        "opening_balances-0-id": balance.pk, "opening_balances-0-player": player.pk,
        "opening_balances-0-system": balance.system_id, "opening_balances-0-rating": 1500,
        "opening_balances-0-games": balance.games, "opening_balances-0-as_of": balance.as_of.isoformat(),
    })
    assert response.status_code == 302, response.content.decode()[:3000]
    request = ReplayRequest.objects.latest("id")
    assert (request.since, request.status) == (None, ReplayRequest.DONE)
    assert RatingEvent.objects.filter(player=player).order_by("seq").first().rating_before == 1500
    _scratch_equals_stored()


def test_the_board_withdraws_a_tournaments_results_and_everything_after_is_rated_again(admin_client):
    from championship.models import ChampionshipResult
    from players.models import AuditEntry
    from tournaments.models import Standing, TournamentOutcome

    spring = _three_tournaments()
    url = f"/board/tournaments/{spring.pk}/withdraw/"
    assert "Withdraw the results of Spring Clash" in admin_client.get(url).content.decode()
    refused = admin_client.post(url, {"reason": "", "confirm": "on"})
    assert refused.status_code == 200 and Game.objects.filter(tournament=spring).exists()
    response = admin_client.post(url, {"reason": "sheet of another event imported by mistake", "confirm": "on"})
    assert response.status_code == 302
    spring.refresh_from_db()
    assert spring.status == Tournament.REGISTERED and not Game.objects.filter(tournament=spring).exists()
    for derived in (RatingEvent.objects.filter(tournament_id=spring.pk), Standing.objects.filter(tournament=spring),
                    TournamentOutcome.objects.filter(tournament=spring),
                    ChampionshipResult.objects.filter(tournament=spring)):
        assert not derived.exists()
    assert ReplayRequest.objects.latest("id").since == spring.end_date
    entry = AuditEntry.objects.get(action="tournament_results_withdrawn")
    assert entry.changes["reason"] == "sheet of another event imported by mistake"
    _scratch_equals_stored()


def test_only_the_board_withdraws_results(client, django_user_model):
    spring = _three_tournaments()
    client.force_login(django_user_model.objects.create_user("referee", password="x-ref-12345"))
    assert client.post(f"/board/tournaments/{spring.pk}/withdraw/", {"reason": "x", "confirm": "on"}).status_code == 403
    assert Game.objects.filter(tournament=spring).exists()
