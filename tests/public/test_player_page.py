"""The player page: ratings and ranks, the history chart, tournaments, games, head-to-head, championship."""

from __future__ import annotations

import re
from datetime import date

import pytest

from players.models import Player
from ratings.models import RatingEvent
from rules.elo import game_change
from rules.rulesets import get_ruleset
from tests import factories as f
from tests.public.conftest import text


def url(player) -> str:
    return f"/players/{player.id}/"


@pytest.fixture
def career(db):
    """Anne played two tournaments against Bruno and Chloé, was adjusted once, and has championship results."""
    anne, bruno, chloe, david = (f.player(n, "X") for n in ("Anne", "Bruno", "Chloe", "David"))
    first = f.rated_tournament([anne, bruno, chloe, david], name="Open de Lyon", start=date(2023, 4, 1),
                               results=["A", "B", "D"])
    second = f.rated_tournament([anne, bruno], name="Coupe de Paris", start=date(2024, 5, 4), rounds=2,
                                results=["A"])
    before = anne.ratings.get().rating
    f.adjustment(anne, year=2024, before=before, after=before - 50)
    f.rating(anne, value=before - 50, games=anne.ratings.get().games, last_played=date(2024, 5, 5))
    f.championship_totals(2023)
    f.championship_totals(2024)
    return {"anne": anne, "bruno": bruno, "chloe": chloe, "david": david, "first": first, "second": second}


def test_player_page_shows_rating_rank_and_what_the_next_rank_needs(visitor, db):
    player = f.player("Dupont", "Jean")
    f.rating(player, value=1280, games=6)
    page = text(visitor.get(url(player)))
    assert "Jean Dupont" in page and "1280" in page
    assert "Champion" in page
    # Master needs 1300 and 10 games: 20 points and 4 games to go.
    assert "Master" in page
    assert "20 more points and 4 more rated games." in page


def test_player_page_says_when_the_highest_rank_is_reached(visitor, db):
    player = f.player("Top", "Player")
    f.rating(player, value=1650, games=40)
    page = text(visitor.get(url(player)))
    assert "Strategist" in page and "Highest rank of the system." in page


def test_player_page_draws_the_rating_history_as_svg(visitor, career):
    page = text(visitor.get(url(career["anne"])))
    svg = page[page.index("<svg"):page.index("</svg>")]
    assert "<polyline" in svg
    assert "Rating history in L&#x27;Art de la Guerre" in svg or "Rating history in L'Art de la Guerre" in svg
    assert svg.count('class="marker tournament"') == 2  # one circle at the end of each tournament
    assert svg.count('class="marker adjustment"') == 1
    assert "Open de Lyon (2 Apr 2023)" in svg  # tooltip of the tournament mark, in the site's date format
    assert "Inactivity adjustment 2024" in svg
    assert ">2023<" in svg and ">2024<" in svg  # year axis


def test_player_page_lists_tournaments_with_rating_before_after_and_change(visitor, career):
    anne = career["anne"]
    events = list(RatingEvent.objects.filter(player=anne, tournament=career["first"].tournament).order_by("seq"))
    page = text(visitor.get(url(anne)))
    assert "Open de Lyon" in page and "Coupe de Paris" in page
    assert f"{events[0].rating_before} → {events[-1].rating_after}" in page


def test_player_page_lists_every_game_with_k_and_expected_score(visitor, career):
    anne = career["anne"]
    game = RatingEvent.objects.filter(player=anne, kind=RatingEvent.GAME).order_by("seq").first()
    page = text(visitor.get(url(anne)))
    table = page[page.index('class="player-games"'):]
    assert f"{game.expected:.3f}" in table
    assert f'<td class="num">{game.k}</td>' in table
    assert game.opponent.full_name in table


def test_player_page_head_to_head_gives_the_record_and_the_games(visitor, career):
    anne, bruno = career["anne"], career["bruno"]
    games = RatingEvent.objects.filter(player=anne, opponent=bruno)
    letters = ["W" if e.score > 0.5 else "D" if e.score == 0.5 else "L" for e in games]
    page = text(visitor.get(url(anne), {"opponent": bruno.id}))
    record = f"{letters.count('W')} won, {letters.count('D')} drawn, {letters.count('L')} lost"
    assert record in page
    start = page.index('class="h2h-games"')
    assert page[start:page.index("</table>", start)].count("<tr>") == len(letters) + 1


def test_player_page_head_to_head_lists_only_opponents_met(visitor, career):
    page = text(visitor.get(url(career["anne"])))
    select = page[page.index('id="h2h-opponent"'):page.index("</select>", page.index('id="h2h-opponent"'))]
    assert "Bruno" in select and "Anne" not in select


def test_player_page_head_to_head_with_a_stranger_says_they_never_met(visitor, career):
    stranger = f.player("Stranger", "S")
    page = text(visitor.get(url(career["anne"]), {"opponent": stranger.id}))
    assert "have not met in a rated game" in page
    assert visitor.get(url(career["anne"]), {"opponent": "abc"}).status_code == 200


def test_player_page_shows_championship_results_counted_and_dropped(visitor, db):
    players = [f.player(f"P{i}", "X") for i in range(4)]
    for i in range(5):
        f.rated_tournament(players, name=f"Tournoi {i}", start=date(2024, 2 + i, 3), rounds=1)
    f.championship_totals(2024)
    page = text(visitor.get(url(players[0])))
    section = page[page.index('id="championship"'):]
    assert section.count('class="badge yes">counted') == 4
    assert section.count(">dropped<") == 1
    assert "total" in section and "rank" in section


def test_player_page_of_an_excluded_player_is_404(visitor, db):
    player = f.player("Excluded", "X", excluded=True)
    f.rating(player, value=1500)
    assert visitor.get(url(player)).status_code == 404


def test_player_page_of_the_spare_is_404(visitor, db):
    assert visitor.get("/players/99/").status_code == 404


def test_player_page_of_an_unknown_id_is_404(visitor, db):
    assert visitor.get("/players/123456/").status_code == 404


def test_player_page_of_a_merged_record_redirects_to_the_record_it_was_merged_into(visitor, db):
    kept = f.player("Kept", "K")
    middle = f.player("Middle", "M", merged_into=kept)
    old = f.player("Old", "O", merged_into=middle)
    response = visitor.get(url(old))
    assert response.status_code == 301
    assert response["Location"] == url(kept)


def test_player_page_never_links_an_excluded_opponent(visitor, db):
    anne, ghost = f.player("Anne", "A"), f.player("Ghost", "G")
    f.rated_tournament([anne, ghost], rounds=1)
    Player.objects.filter(pk=ghost.pk).update(excluded_at="2024-06-01T00:00:00Z")
    page = text(visitor.get(url(anne)))
    assert f"/players/{ghost.id}/" not in page
    assert "Ghost" not in page


def test_player_page_in_french(french_visitor, career):
    page = text(french_visitor.get(url(career["anne"])))
    assert 'lang="fr"' in page
    assert "Historique de la cote" in page
    assert "Face-à-face" in page and "Parties Elo" in page


def test_player_game_changes_are_those_of_the_engine(db):
    # The factory writes what the engine computes: the page shows the stored events, so check one by hand.
    a, b = f.player("A", "A"), f.player("B", "B")
    f.rated_tournament([a, b], rounds=1, results=["A"])
    event = RatingEvent.objects.get(player=a)
    delta_a, _, k_a, _, p_a = game_change(get_ruleset("adlg-2018"), 1000, 0, 1000, 0, "A")
    assert (event.change, event.k, event.expected) == (delta_a, k_a, p_a) == (25, 50, 0.5)


@pytest.mark.parametrize("rounds", [3, 30])
def test_player_page_takes_the_same_queries_whatever_the_history(visitor, db, django_assert_num_queries, rounds):
    players = [f.player(f"P{i}", "X") for i in range(4)]
    f.rated_tournament(players, rounds=rounds)
    f.adjustment(players[0], year=2024, before=1100, after=1050)
    f.championship_totals(2024)
    # player, systems, ratings, events, standings, opening balances, championship results, totals, the results'
    # pools' sizes (for the formula's terms), the latest official lists (the player's rows in them: none here), the
    # armies the players of its games named (ratings.armies)
    with django_assert_num_queries(12):  # with the rating counts of the one system played
        response = visitor.get(url(players[0]), {"opponent": players[1].id})
    assert response.status_code == 200
    assert len(re.findall(r"<tr>", text(response))) > rounds


# --- every number explained ----------------------------------------------------------------------------


@pytest.fixture
def migrated(db):
    """Marie came from the former site with 1275 after 12 games, then played one tournament of 3 rounds here."""
    from players.models import OpeningBalance

    marie, others = f.player("Curie", "Marie"), [f.player(n, "Y") for n in ("Bohr", "Planck", "Dirac")]
    OpeningBalance.objects.create(player=marie, system_id="adlg", rating=1275, games=12, as_of=date(2021, 12, 31))
    f.rating(marie, value=1275, games=12)
    f.rated_tournament([marie, *others], name="Open de Lyon", start=date(2023, 4, 1), results=["A", "B", "D"])
    return marie


def test_the_opening_balance_is_the_oldest_line_of_the_history_listed_newest_first(visitor, migrated):
    page = text(visitor.get(url(migrated)))
    tournaments = page[page.index('class="player-tournaments"'):]
    tournaments = tournaments[:tournaments.index("</table>")]
    rows = re.findall(r"<tr[ >].*?</tr>", tournaments, re.S)
    assert "Open de Lyon" in rows[1]  # after the header: the latest tournament
    last = rows[-1]
    assert "Opening balance from the former site" in last
    assert "31 Dec 2021" in last and ">12<" in last and ">1275<" in last
    # why 15 games when 3 are listed: said in words
    assert "with a rating of 1275 after 12 rated games" in page and "(3 so far)" in page
    games = page[page.index('class="player-games"'):]
    game_rows = re.findall(r"<tr[ >].*?</tr>", games[games.index("<tbody>"):games.index("</tbody>")], re.S)
    assert "Opening balance from the former site: 12 rated games, rating 1275" in game_rows[-1]
    assert all("Open de Lyon" in row for row in game_rows[:3])


def test_the_latest_tournament_and_game_come_first_with_the_change_beside_the_name(visitor, db):
    marie, others = f.player("Curie", "Marie"), [f.player(n, "Y") for n in ("Bohr", "Planck", "Dirac")]
    f.rated_tournament([marie, *others], name="Open de Lyon", start=date(2023, 4, 1), results=["A", "B", "D"])
    f.rated_tournament([marie, *others], name="Open de Nice", start=date(2024, 4, 1), results=["A", "A", "A"])
    page = text(visitor.get(url(marie)))
    tournaments = page[page.index('class="player-tournaments"'):]
    assert tournaments.index("Open de Nice") < tournaments.index("Open de Lyon")
    header = re.findall(r"<th[^>]*>(.*?)</th>", tournaments[:tournaments.index("</thead>")])
    assert header[:2] == ["Tournament", "Change"]
    games = page[page.index('class="player-games"'):]
    assert games.index("Open de Nice") < games.index("Open de Lyon")
    for word in ("W win, D draw, L loss", "the opponent&#x27;s rating before the game", "wins, draws and losses"):
        assert word in page.replace("'", "&#x27;")


def test_the_chart_starts_from_the_opening_balance_with_its_mark(visitor, migrated):
    page = text(visitor.get(url(migrated)))
    svg = page[page.index("<svg"):page.index("</svg>")]
    assert 'class="marker opening"' in svg
    assert "Opening balance from the former site: 1275 after 12 rated games" in svg
    assert "Rating from 1275, the opening balance," in page  # the chart's text alternative and caption


def test_a_player_without_opening_balance_has_no_such_line(visitor, career):
    page = text(visitor.get(url(career["anne"])))
    assert "Opening balance" not in page and 'class="marker opening"' not in page


def test_the_chart_is_drawn_for_a_screen_and_for_a_phone_with_a_text_alternative(visitor, career):
    page = text(visitor.get(url(career["anne"])))
    assert page.count('class="rating-chart wide"') == 1 and page.count('class="rating-chart narrow"') == 1
    assert 'viewBox="0 0 360 240"' in page
    desc = re.search(r'<desc id="[^"]+">([^<]+)</desc>', page).group(1)
    assert "highest" in desc and "lowest" in desc and "5 rated games in 2 tournaments" in desc
    assert "1 inactivity adjustment" in desc


def test_results_are_shown_in_french_letters(french_visitor, career):
    page = text(french_visitor.get(url(career["anne"])))
    games = page[page.index('class="player-games"'):]
    games = games[:games.index("</table>")]
    cells = set(re.findall(r'<td class="center cell-[WDL]">([^<]*)</td>', games))
    assert cells <= {"G", "N", "P"} and cells
    assert "G/N/P" in page and "V/N/D" not in page
