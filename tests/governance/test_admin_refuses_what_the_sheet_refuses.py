"""The admin refuses what the sheet check refuses (the same rules, rules.sheet), the database refuses a
game against oneself and losses over 100 whatever writes them, and a replay that fails on the facts says which
fact on the board's pages, at once, instead of failing silently for hours.

A reported typo: a game whose two players were the same, accepted in the admin, froze every rating update."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from players.models import Player
from ratings.models import ReplayRequest
from tests.ratings.helpers import imported, roster, sheet
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, board):
    client.force_login(board)
    return client


@pytest.fixture
def spring():
    roster()
    return Tournament.objects.get(pk=imported(sheet(name="Spring Clash", start=date(2024, 3, 16))).tournament_id)


def _game_form(game: Game, **changes) -> dict:
    form = {"tournament": game.tournament_id, "round": game.round, "table": game.table,
            "player_a": game.player_a_id, "player_b": game.player_b_id, "result": game.result,
            "a_losses": game.a_losses if game.a_losses is not None else "",
            "b_losses": game.b_losses if game.b_losses is not None else ""}
    return {**form, **changes}


def _change_game(client, game: Game, **changes):
    return client.post(reverse("admin:tournaments_game_change", args=[game.pk]), _game_form(game, **changes))


def _first_rated_game(tournament: Tournament) -> Game:
    return Game.objects.filter(tournament=tournament, result="A").order_by("round", "table").first()


def test_the_admin_refuses_a_game_against_oneself(admin_client, spring):
    game = _first_rated_game(spring)
    requests = ReplayRequest.objects.count()
    response = _change_game(admin_client, game, player_b=game.player_a_id)
    assert response.status_code == 200
    assert f"Player {game.player_a_id} is paired against himself. Correct Player A or Player B." in (
        response.content.decode())
    game.refresh_from_db()
    assert game.player_a_id != game.player_b_id
    assert ReplayRequest.objects.count() == requests


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"b_losses": 130}, "&quot;B losses %&quot; is 130, outside the allowed range 0 to 100."),
        ({"a_losses": ""}, "&quot;A losses %&quot; is required for the result A in AdlG"),
        ({"result": "A+"}, "&quot;A+&quot; is not a valid AdlG result."),
        ({"round": 9}, "Round 9 is not between 1 and 3"),
        ({"free": "on"}, "free games are allowed only in the last round"),
    ],
)
def test_the_admin_refuses_a_game_the_sheet_would_refuse(admin_client, spring, changes, message):
    game = _first_rated_game(spring)
    if game.round == 3:
        game = Game.objects.filter(tournament=spring, result="A", round=1).first()
    response = _change_game(admin_client, game, **changes)
    assert response.status_code == 200
    assert message in response.content.decode()


def test_the_admin_refuses_a_rating_system_that_its_games_do_not_fit(admin_client, spring):
    response = admin_client.post(reverse("admin:tournaments_tournament_change", args=[spring.pk]), {
        "system": "battle-empire", "name": spring.name, "start_date": spring.start_date,
        "end_date": spring.end_date, "city": spring.city, "country": spring.country_id, "pools": 1,
        "rounds": spring.rounds, "official": "on", "referee_name": spring.referee_name,
        "registrations-TOTAL_FORMS": 0, "registrations-INITIAL_FORMS": 0,
    })
    assert response.status_code == 200
    assert "is not a valid Battle Empire result" in response.content.decode()
    spring.refresh_from_db()
    assert spring.system_id == "adlg"


def test_the_admin_refuses_names_the_sheet_refuses(admin_client, spring):
    player = Player.objects.get(pk=101)
    url = reverse("admin:players_player_change", args=[player.pk])
    form = {"id": player.pk, "last_name": "=HYPERLINK(\"http://evil.example\")", "first_name": "x" * 81,
            "opening_balances-TOTAL_FORMS": 0, "opening_balances-INITIAL_FORMS": 0}
    page = admin_client.post(url, form).content.decode()
    assert "so a spreadsheet would run it as a formula" in page
    assert "Ensure this value has at most 80 characters (it has 81)." in page  # Django's own length check
    player.refresh_from_db()
    assert player.last_name == "Martin"


def test_the_admin_refuses_a_club_named_as_a_formula(admin_client, db):
    response = admin_client.post(reverse("admin:players_club_add"), {"name": "=1+2", "country": "FR"})
    assert response.status_code == 200
    assert "so a spreadsheet would run it as a formula" in response.content.decode()


def test_the_database_refuses_a_game_against_oneself_whatever_writes_it(spring):
    game = _first_rated_game(spring)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(player_b=game.player_a_id)


def test_the_database_refuses_losses_over_a_hundred(spring):
    game = _first_rated_game(spring)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(a_losses=101)


def test_a_replay_failing_on_the_facts_says_which_fact_on_the_board_pages(client, board, spring,
                                                                         django_capture_on_commit_callbacks):
    from ratings.requests import replay_request

    game = _first_rated_game(spring)
    # Written past the admin and the constraints (a shell, an old script): a result AdlG does not have.
    Game.objects.filter(pk=game.pk).update(result="A++")
    with django_capture_on_commit_callbacks(execute=True):  # the request's enqueue: in-process here
        replay_request(system="adlg", since=spring.end_date, reason=f"game {game.pk} changed by a script")
    failed = ReplayRequest.objects.filter(status=ReplayRequest.FAILED).latest("id")
    assert f"game {game.pk} of tournament {spring.pk} (Spring Clash), round {game.round}" in failed.error
    assert '"A++" is not a valid AdlG result' in failed.error
    client.force_login(board)
    for url in (reverse("board:home"), reverse("board:tournaments")):
        page = client.get(url).content.decode()
        assert "Rating updates are stopped" in page
        assert f"game {game.pk} of tournament {spring.pk}" in page
    # Corrected, the next change replays everything, the failed request included.
    Game.objects.filter(pk=game.pk).update(result="A")
    with django_capture_on_commit_callbacks(execute=True):
        replay_request(system="adlg", since=spring.end_date, reason="corrected")
    assert not ReplayRequest.objects.filter(status=ReplayRequest.FAILED).exists()
    assert "Rating updates are stopped" not in client.get(reverse("board:home")).content.decode()
