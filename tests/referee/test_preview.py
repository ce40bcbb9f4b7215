"""The preview of a checked sheet: players added, games, each player's rating before → after, warnings."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from players.models import OpeningBalance, Player
from ratings.models import PlayerRating, RatingEvent, ReplayRequest
from tests.referee.helpers import upload, valid_sheet
from tests.sheets.builders import SheetBuilder
from tournaments.models import Game, Registration, Sheet, Standing, Tournament
from tournaments.sheets.preview import sheet_preview
from tournaments.sheets.services import sheet_check, sheet_import_bytes

pytestmark = pytest.mark.django_db


def preview_of(builder):
    parsed, report = sheet_check(data=builder.build())
    assert report.ok, report.as_dict()
    return sheet_preview(parsed)


def imported(builder, django_capture_on_commit_callbacks, file_name="earlier.xlsx"):
    """Imports a sheet and runs its replay, as the worker would."""
    with django_capture_on_commit_callbacks(execute=True):
        outcome = sheet_import_bytes(data=builder.build(), file_name=file_name)
    assert outcome.ok, outcome.as_json()
    return outcome


def test_a_first_tournament_starts_everyone_at_the_initial_rating(known_players):
    preview = preview_of(valid_sheet())
    assert (preview.games, preview.rated_games) == (15, 13)  # two forfeits are not rated
    assert {p.key for p in preview.new_players} == {"N1", "N2"}
    assert all(p.rating_before == 1000 and p.games_before == 0 for p in preview.players)
    martin = next(p for p in preview.players if p.player_id == 101)
    assert (martin.rated_games, martin.rating_after, martin.change) == (3, 1072, 72)
    assert sum(p.change for p in preview.players) == 0  # a zero-sum first tournament


def test_it_starts_from_the_stored_history(known_players, django_capture_on_commit_callbacks):
    imported(valid_sheet(), django_capture_on_commit_callbacks)
    second = valid_sheet().set("Name", "Summer Clash").set("Start date", date(2024, 5, 4)) \
        .set("End date", date(2024, 5, 5))
    preview = preview_of(second)
    current = dict(PlayerRating.objects.values_list("player_id", "rating"))
    games = dict(PlayerRating.objects.values_list("player_id", "games"))
    for player in preview.known_players:
        assert (player.rating_before, player.games_before) == (current[player.player_id], games[player.player_id])
    # N1, N2 of the second sheet are new again: they start at the initial rating.
    assert {(p.rating_before, p.games_before) for p in preview.new_players} == {(1000, 0)}


def test_the_preview_matches_what_the_replay_publishes(known_players, django_capture_on_commit_callbacks):
    imported(valid_sheet(), django_capture_on_commit_callbacks)
    second = valid_sheet().set("Name", "Summer Clash").set("Start date", date(2024, 5, 4)) \
        .set("End date", date(2024, 5, 5))
    preview = preview_of(second)
    outcome = imported(second, django_capture_on_commit_callbacks, "second.xlsx")
    standings = {s.player_id: (s.rating_before, s.rating_after)
                 for s in Standing.objects.filter(tournament_id=outcome.tournament_id)}
    for player in preview.players:
        pid = player.player_id or outcome.new_players[player.key]
        if player.rated_games:
            assert standings[pid] == (player.rating_before, player.rating_after), player


def test_a_player_without_events_starts_from_the_opening_balance(known_players):
    OpeningBalance.objects.create(player=known_players[101], system_id="adlg", rating=1400, games=40)
    martin = next(p for p in preview_of(valid_sheet()).players if p.player_id == 101)
    assert (martin.rating_before, martin.games_before) == (1400, 40)
    assert martin.rating_after < 1400 + 72  # a higher rating wins less against the same opponents


def test_a_correction_says_what_it_replaces(known_players, tournament):
    preview = preview_of(valid_sheet(tournament))
    assert preview.replaces == tournament
    assert (preview.replaced_players, preview.replaced_games) == (3, 0)


def test_an_unofficial_tournament_moves_no_rating(known_players):
    preview = preview_of(valid_sheet().set("Official", "no"))
    assert preview.rated_games == 0
    assert all(p.change == 0 for p in preview.players)


def test_the_spare_is_not_listed(known_players):
    preview = preview_of(SheetBuilder.valid(two_pools=True))
    assert 99 not in {p.player_id for p in preview.players}
    assert {p.pool for p in preview.players} == {"A", "B"}


def test_the_preview_writes_nothing(known_players):
    parsed, _ = sheet_check(data=valid_sheet().build())
    counts = [m.objects.count() for m in (Tournament, Game, Registration, Player, RatingEvent, ReplayRequest)]
    sheet_preview(parsed)
    assert [m.objects.count() for m in (Tournament, Game, Registration, Player, RatingEvent, ReplayRequest)] == counts


def test_the_page_shows_players_added_games_and_ratings(client, referee, tournament):
    client.force_login(referee)
    response = upload(client, valid_sheet(tournament).build(), follow=True)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Preview: Spring Clash" in page
    assert "Players added to the federation" in page and "Nouveau" in page and "N2" in page
    assert "games in 3 rounds" in page
    assert ">1072<" in page and ">+72<" in page
    # the tournament is on the calendar with no result yet: its first results, not a correction of nothing
    assert f"This sheet brings the first results of tournament no. {tournament.pk}" in page
    assert "corrects" not in page and "0 games" not in page
    assert reverse("referee:sheet_confirm", args=[Sheet.objects.get().pk]) in page


def test_a_second_sheet_says_it_corrects_the_first_and_what_it_replaces(client, referee, tournament,
                                                                        django_capture_on_commit_callbacks):
    imported(valid_sheet(tournament), django_capture_on_commit_callbacks)
    games = Game.objects.filter(tournament=tournament).count()
    client.force_login(referee)
    page = upload(client, valid_sheet(tournament).build(), follow=True).content.decode()
    assert f"This sheet corrects tournament no. {tournament.pk}" in page and f"and {games} games on the site" in page
    assert games > 0 and "first results" not in page


def test_the_page_asks_to_acknowledge_the_warnings(client, referee, tournament):
    client.force_login(referee)
    builder = valid_sheet(tournament).set_player(105, "Last name", "Jonas")
    page = upload(client, builder.build(), follow=True).content.decode()
    assert "Warnings" in page and f"Players!{builder.player_cell(105, 'Last name')}" in page
    assert 'name="acknowledge"' in page
    sheet = Sheet.objects.get()
    response = client.post(reverse("referee:sheet_confirm", args=[sheet.pk]))
    assert response.status_code == 400
    assert "Tick the box to show you have read the warnings." in response.content.decode()
    sheet.refresh_from_db()
    assert sheet.status == Sheet.CHECKED


def test_a_sheet_overtaken_by_the_site_shows_its_new_errors(client, referee, tournament, known_players):
    client.force_login(referee)
    upload(client, valid_sheet(tournament).build())
    Player.objects.filter(pk=104).update(excluded_at="2024-05-01T00:00:00Z")
    page = client.get(reverse("referee:sheet", args=[Sheet.objects.get().pk])).content.decode()
    assert "The sheet no longer passes the checks" in page
    assert "sheets/upload/" in page
