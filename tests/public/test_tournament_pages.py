"""The tournament list and the tournament page: statuses, the championship verdict, standings and games."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from players.models import Player
from tests import factories as f
from tests.public.conftest import text
from tournaments.models import Game, Standing, Tournament, TournamentOutcome

TOO_FEW = [{"code": "too_few_players", "params": {"players": 4, "minimum": 8}},
           {"code": "too_few_clubs", "params": {"clubs": 1, "minimum": 3}}]


def four(prefix="P"):
    return [f.player(f"{prefix}{i}", "X", club=f.club(f"Club {i}", "FR")) for i in range(4)]


def test_tournament_list_shows_status_and_whether_each_counts(visitor, db):
    f.rated_tournament(four("A"), name="Counting Open", counts=True)
    f.rated_tournament(four("B"), name="Small Cup", counts=False, charter_failures=TOO_FEW, points=False)
    f.tournament("Future Masters", status=Tournament.REGISTERED, start=date.today() + timedelta(days=40))
    f.tournament("Board Cup", status=Tournament.RECEIVED, counts_override=True,
                 override_reason="Played during a snowstorm: the board accepts 7 players.")
    page = text(visitor.get("/tournaments/"))
    assert "Counting Open" in page and '<span class="badge yes">counts</span>' in page
    assert "Small Cup" in page and "The tournament ranks 4 players; at least 8 are needed." in page
    assert "Future Masters" in page and "not decided yet" in page
    assert "Played during a snowstorm" in page and "board decision" in page
    for status in ("registered", "results received", "rated"):
        assert status in page


def test_tournament_list_filters_by_year_and_country(visitor, db):
    f.tournament("Paris 2023", start=date(2023, 5, 1), country_code="FR")
    f.tournament("Brussels 2024", start=date(2024, 5, 1), country_code="BE", city="Brussels")
    f.tournament("Paris 2024", start=date(2024, 6, 1), country_code="FR")
    page = text(visitor.get("/tournaments/", {"year": 2024, "country": "FR"}))
    assert "Paris 2024" in page and "Paris 2023" not in page and "Brussels 2024" not in page
    assert visitor.get("/tournaments/", {"year": "nope"}).status_code == 200


def test_tournament_list_in_french(french_visitor, db):
    f.rated_tournament(four(), name="Open", counts=False, charter_failures=TOO_FEW, points=False)
    page = text(french_visitor.get("/tournaments/"))
    assert "Tournois" in page and "ne compte pas" in page
    assert "Le tournoi classe 4\u00a0joueurs" in page or "Le tournoi classe 4 joueurs" in page


def test_tournament_page_shows_standings_with_every_tiebreak_column(visitor, db):
    players = four()
    played = f.rated_tournament(players, name="Open de Paris", penalty={players[1].id: (20, "late army list")})
    page = text(visitor.get(f"/tournaments/{played.tournament.id}/"))
    standings = page[page.index('class="standings"'):page.index("</table>", page.index('class="standings"'))]
    first = Standing.objects.get(tournament=played.tournament, rank=1)
    assert first.player.full_name in standings
    assert f"{first.rating_before} → {first.rating_after}" in standings
    assert "opponents&#x27; score" in standings or "score" in standings  # the tie-break in words
    assert "−20" in standings and "late army list" in page  # the penalty with its reason
    assert f"{first.wins}/{first.draws}/{first.losses}" in standings


def test_tournament_page_explains_the_tiebreak_codes_in_words(visitor, db):
    played = f.rated_tournament(four(), results=["D"])
    Standing.objects.filter(tournament=played.tournament, rank=2).update(tiebreak="head_to_head")
    Standing.objects.filter(tournament=played.tournament, rank=3).update(tiebreak="rating")
    Standing.objects.filter(tournament=played.tournament, rank=4).update(tiebreak="id")
    page = text(visitor.get(f"/tournaments/{played.tournament.id}/"))
    for words in ("their game against each other", "lower rating before the tournament", "lower ID"):
        assert words in page


def test_tournament_page_has_a_cross_table_and_games_by_round(visitor, db):
    played = f.rated_tournament(four(), rounds=3)
    page = text(visitor.get(f"/tournaments/{played.tournament.id}/"))
    cross = page[page.index('class="cross"'):page.index("</table>", page.index('class="cross"'))]
    assert ">R1<" in cross and ">R3<" in cross
    assert cross.count("<tr>") == 5
    for round_no in (1, 2, 3):
        assert f"Round {round_no}</h3>" in page
    assert page.count('class="games"') == 3


def test_tournament_page_shows_average_rating_and_championship_points(visitor, db):
    played = f.rated_tournament(four())
    outcome = TournamentOutcome.objects.get(tournament=played.tournament)
    page = text(visitor.get(f"/tournaments/{played.tournament.id}/"))
    assert f"{outcome.average_rating:.0f}" in page
    assert "Champ." in page and "25.00" in page


def test_tournament_page_states_each_charter_failure_as_a_sentence(visitor, db):
    played = f.rated_tournament(four(), counts=False, charter_failures=TOO_FEW, points=False)
    page = text(visitor.get(f"/tournaments/{played.tournament.id}/"))
    assert "The tournament ranks 4 players; at least 8 are needed." in page
    assert "The players come from 1 club" in page


def test_tournament_page_shows_the_board_override_reason(visitor, db):
    played = f.rated_tournament(four(), counts=True, charter_failures=TOO_FEW, counts_override=True,
                                override_reason="Regional final, accepted by the board on 3 May.")
    page = text(visitor.get(f"/tournaments/{played.tournament.id}/"))
    assert "Regional final, accepted by the board on 3 May." in page
    assert "The technical board decided that this tournament counts for the championship." in page


def test_tournament_page_hides_an_excluded_players_games(visitor, db):
    # Names long enough not to turn up by chance in the page's random CSRF token ("P3" once did).
    players = four("Voided")
    played = f.rated_tournament(players)
    Player.objects.filter(pk=players[3].pk).update(excluded_at="2024-06-01T00:00:00Z")
    page = text(visitor.get(f"/tournaments/{played.tournament.id}/"))
    assert players[3].last_name not in page and f"/players/{players[3].pk}/" not in page
    shown = page.count('<td class="num">', page.index('id="games"'))
    assert shown and Game.objects.filter(tournament=played.tournament).count() == 6


def test_tournament_page_of_an_announced_tournament_says_results_are_to_come(visitor, db):
    t = f.tournament("Future", status=Tournament.REGISTERED, start=date.today() + timedelta(days=30))
    page = text(visitor.get(f"/tournaments/{t.id}/"))
    assert "No results yet" in page


def test_tournament_page_of_an_unknown_id_is_404(visitor, db):
    assert visitor.get("/tournaments/9999/").status_code == 404


def test_tournament_page_in_french(french_visitor, db):
    played = f.rated_tournament(four(), counts=False, charter_failures=TOO_FEW, points=False)
    page = text(french_visitor.get(f"/tournaments/{played.tournament.id}/"))
    assert "Grille américaine" in page and "Parties par ronde" in page
    assert "il en faut au moins 8" in page


@pytest.mark.parametrize("size", [4, 30])
def test_tournament_pages_take_the_same_queries_whatever_the_size(visitor, db, django_assert_num_queries, size):
    players = [f.player(f"P{i}", "X") for i in range(size)]
    played = f.rated_tournament(players)
    for i in range(size):
        f.tournament(f"Other {i}", start=date(2023, 1, 1) + timedelta(days=i))
    # tournament, standings, registrations, games, rating changes, championship points, the official list in force;
    # its report's standings, events, opening balances, armies typed and championship points (tournament_report)
    with django_assert_num_queries(12):
        assert visitor.get(f"/tournaments/{played.tournament.id}/").status_code == 200
    # systems, years, countries, count, page
    with django_assert_num_queries(5):
        assert visitor.get("/tournaments/", {"country": "FR"}).status_code == 200


@pytest.mark.django_db(transaction=True)  # the replay runs when the import commits
def test_the_tournament_pages_cross_table_is_worked_out_from_the_games():
    # Not stored by the replay: read from the games by the standings rules (tournaments.selectors).
    from tests.ratings.helpers import imported, roster, sheet
    from tournaments.selectors import tournament_detail

    roster()
    outcome = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    detail = tournament_detail(tournament_id=outcome.tournament_id, language="en")
    (pool,) = detail.pools
    lines = {line.standing.player_id: line for line in pool.lines}
    rank = {player: line.standing.rank for player, line in lines.items()}
    cells = {cell.round: cell for cell in lines[105].cells}
    assert (cells[1].result, cells[1].opponent_rank) == ("DD", rank[108])
    assert cells[2].result == "FW" and "forfeit" in cells[2].note
    assert (cells[3].letter, cells[3].opponent.pk, cells[3].opponent_rank) == ("L", 101, rank[101])
    assert pool.rounds == [1, 2, 3] and all(len(line.cells) == 3 for line in pool.lines)


# --- every mark explained ------------------------------------------------------------------------------


def _cross(page: str) -> str:
    start = page.index('class="cross"')
    return page[start:page.index("</dl>", start)]


def test_the_cross_table_legend_explains_every_mark(visitor, db):
    played = f.rated_tournament(four(), rounds=3)
    cross = _cross(text(visitor.get(f"/tournaments/{played.tournament.id}/")))
    legend = cross[cross.index("cross-legend"):]
    for words in ("win, draw, loss", "a double demoralisation", "forfeit won / lost", "not rated",
                  "the opponent's place in this pool", "against the spare (ID 99)", "the game score",
                  "a free game", "counts for the rating only", "a void game", "counts for no one",
                  "no game this round"):
        assert words in legend, words


def test_the_cross_table_marks_a_game_against_the_spare_and_a_free_game(visitor, db):
    from players.models import SPARE_ID

    players = four()
    played = f.rated_tournament(players, rounds=1)
    spare = Player.objects.get(pk=SPARE_ID)
    t = played.tournament
    Game.objects.create(tournament=t, round=2, table=1, player_a=players[0], player_b=spare, result="A",
                        a_losses=10, b_losses=60)
    Game.objects.create(tournament=t, round=2, table=2, player_a=players[1], player_b=players[2], result="B",
                        a_losses=40, b_losses=20, free=True)
    cross = _cross(text(visitor.get(f"/tournaments/{t.id}/")))
    rows = re.findall(r"<tr>.*?</tr>", cross[cross.index("<tbody>"):], re.S)
    spare_cell = [r for r in rows if f'<td class="key">{players[0].full_name}</td>' in r][0]
    assert ">sp</span>" in spare_cell and "the spare (ID 99)" in spare_cell
    free_cell = [r for r in rows if f'<td class="key">{players[1].full_name}</td>' in r][0]
    assert 'class="cell-L free"' in free_cell and "*" in free_cell


def test_the_cross_table_marks_the_void_game_of_an_excluded_player_without_naming_him(visitor, db):
    players = four("Voided")
    played = f.rated_tournament(players, rounds=1)
    Player.objects.filter(pk=players[1].pk).update(excluded_at="2024-06-01T00:00:00Z")
    page = text(visitor.get(f"/tournaments/{played.tournament.id}/"))
    cross = _cross(page)
    opponent_row = [r for r in re.findall(r"<tr>.*?</tr>", cross, re.S)
                    if f'<td class="key">{players[0].full_name}</td>' in r][0]
    assert ">×</td>" in opponent_row and "void game" in opponent_row
    assert players[1].last_name not in page


def test_the_cross_table_writes_results_the_french_way(french_visitor, db):
    played = f.rated_tournament(four(), rounds=3, results=["A", "B", "D"])
    cross = _cross(text(french_visitor.get(f"/tournaments/{played.tournament.id}/")))
    body = cross[cross.index("<tbody>"):cross.index("</tbody>")]
    letters = set(re.findall(r'<td class="cell-[WDL]"[^>]*>([A-Z]+)\d', body))
    assert letters and letters <= {"G", "N", "P"}  # never D, the sheet's code of a draw
    assert "G / N / P" in cross and "gagnée, nulle, perdue" in cross


def test_a_battle_empire_tournament_says_why_it_does_not_count(visitor, db):
    played = f.rated_tournament(four(), system_code="battle-empire", name="Borodino", counts=False, points=False,
                                results=["A+"])
    page = text(visitor.get(f"/tournaments/{played.tournament.id}/"))
    card = page[page.index('id="championship-status"'):page.index("</section>", page.index('id="championship-status"'))]
    assert "does not count" in card
    assert "has no championship: only L'Art de la Guerre tournaments count for it" in card.replace("&#x27;", "'")
    assert "Every condition of the charter is met" not in card
    listing = text(visitor.get("/tournaments/"))
    assert "Only L&#x27;Art de la Guerre tournaments count for the championship." in listing


def test_a_repeated_tournament_name_is_told_apart_by_its_date(visitor, db):
    first = f.rated_tournament(four("A"), name="Tournoi de Lille", start=date(2023, 5, 6))
    f.rated_tournament(four("B"), name="Tournoi de Lille", start=date(2024, 5, 4))
    page = text(visitor.get(f"/tournaments/{first.tournament.id}/"))
    assert "<title>Tournoi de Lille (7 May 2023)" in page
