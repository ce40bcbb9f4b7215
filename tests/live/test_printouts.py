"""The referee's printouts of the tournament day: pairings by name and by table, result slips with each
player's private link as a QR code, the standings after a round and the final standings with the cross-table."""

from __future__ import annotations

import random
import re
from datetime import date
from html import unescape

import pytest
import segno
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live.entrants import NewEntrant
from tournaments.live.links import entrant_link_token
from tournaments.live.rounds import round_pair, round_publish
from tournaments.live.start import live_begin
from tournaments.models import LiveEntrant, LiveTable, LiveTournament, Tournament

pytestmark = pytest.mark.django_db

ROUND_PRINTOUTS = ("live_print_by_name", "live_print_by_table", "live_print_slips", "live_print_standings")


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(8, clubs=8), rounds=2)
    live.tournament.referees.add(referee)
    return live


def _urls(live, number: int = 1) -> list[str]:
    return [reverse(f"referee:{name}", args=[live.pk, number]) for name in ROUND_PRINTOUTS] + [
        reverse("referee:live_print_final", args=[live.pk])]


def _text(html: str) -> str:
    """The page's words, tags taken out, spaces collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _get(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


# --- who may print


def test_it_sends_a_visitor_to_sign_in_and_refuses_a_player_and_another_referee(client, live, player_user,
                                                                                other_referee):
    play_round(live, 1, random.Random(1))
    play_round(live, 2, random.Random(2))
    for url in _urls(live):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    for user in (player_user, other_referee):
        client.force_login(user)
        for url in _urls(live):
            assert client.get(url).status_code == 403, (user, url)


def test_the_board_prints_too(client, board, live):
    play_round(live, 1, random.Random(1))
    client.force_login(board)
    assert client.get(reverse("referee:live_print_slips", args=[live.pk, 1])).status_code == 200


# --- what cannot be printed: 404 with the reason, never a 500


def test_it_answers_404_for_a_round_that_is_not_there_or_not_published(signed_in, live):
    play_round(live, 1, random.Random(1))
    for number in (0, 3, 2**40):
        for name in ROUND_PRINTOUTS:
            assert signed_in.get(reverse(f"referee:{name}", args=[live.pk, number])).status_code == 404
    round_pair(live)  # round 2 proposed, not published: a draft is never put on the wall
    response = signed_in.get(reverse("referee:live_print_by_name", args=[live.pk, 2]))
    assert response.status_code == 404
    assert "Round 2 is not published" in response.content.decode()


def test_standings_wait_for_every_result_and_the_final_ones_for_the_last_round(signed_in, live):
    round_publish(round_pair(live, seed=3))
    response = signed_in.get(reverse("referee:live_print_standings", args=[live.pk, 1]))
    assert response.status_code == 404
    assert "a result is missing" in response.content.decode()
    assert signed_in.get(reverse("referee:live_print_final", args=[live.pk])).status_code == 404


def test_an_unknown_tournament_is_404(signed_in):
    assert signed_in.get(reverse("referee:live_print_slips", args=[987654, 1])).status_code == 404
    assert signed_in.get(reverse("referee:live_print_final", args=[987654])).status_code == 404


# --- the pairings


def _accented_live(referee):
    names = ["Zola", "émery", "Dupont", "Ébert", "Ferrand", "Durand"]
    players = []
    for n, last in enumerate(names):
        player = factories.player(last, "Jean", id=3001 + n)
        factories.rating(player, value=1300 - 10 * n, games=20)
        players.append(player)
    tournament = factories.tournament("Open des accents", start=date(2026, 11, 21), end=date(2026, 11, 21),
                                      rounds=2, status=Tournament.REGISTERED)
    live = live_begin(tournament, entrants=[NewEntrant(player=p.pk) for p in players]
                      + [NewEntrant(last_name="Abel", first_name="Ana", club="Club 9", country="FR", new_club=True)])
    tournament.referees.add(referee)
    round_publish(round_pair(live, seed=5))
    return live


def test_pairings_by_name_list_every_player_alphabetically_accents_aside_with_table_and_opponent(signed_in,
                                                                                                 referee):
    live = _accented_live(referee)
    html = _get(signed_in, reverse("referee:live_print_by_name", args=[live.pk, 1]))
    rows = re.findall(r'<tr><th scope="row"><span class="last">([^<]+)</span>[^<]*</th>'
                      r'<td class="num table-no">(\d+)</td><td>([^<]+)</td>', html)
    assert [last for last, _, _ in rows] == ["Abel", "Dupont", "Durand", "Ébert", "émery", "Ferrand", "Zola"]
    seats = {}  # seven players: one plays the spare, who is named as an opponent and never listed
    for table in LiveTable.objects.filter(round__live=live).select_related("a", "b"):
        b_name = f"{table.b.first_name} {table.b.last_name}" if table.b else "Spare"
        seats[table.a.last_name] = (str(table.table), b_name)
        if table.b:
            seats[table.b.last_name] = (str(table.table), f"{table.a.first_name} {table.a.last_name}")
    assert {last: (t, opp) for last, t, opp in rows} == seats
    assert any(opponent == "Spare" for _, opponent in seats.values())
    assert "Pool" not in _text(html)  # one pool: no pool column


def test_pairings_by_table_give_both_players_ids_and_say_new_for_a_player_new_to_the_federation(signed_in, referee):
    live = _accented_live(referee)
    html = _get(signed_in, reverse("referee:live_print_by_table", args=[live.pk, 1]))
    text = _text(html)
    new = LiveEntrant.objects.get(live=live, player__isnull=True)
    for table in LiveTable.objects.filter(round__live=live).select_related("a", "b").order_by("table"):
        a_id = table.a.player_id or "new"
        b = f"{table.b.first_name} {table.b.last_name} ({table.b.player_id or 'new'})" if table.b \
            else "Spare (99)"
        assert f"{table.table} {table.a.first_name} {table.a.last_name} ({a_id}) {b}" in text
    assert f"N{new.pk}" not in text  # the workbook's tag is no ID: never printed like one


def test_a_slip_says_new_for_a_player_new_to_the_federation_in_french(signed_in, referee):
    live = _accented_live(referee)
    new = LiveEntrant.objects.get(live=live, player__isnull=True)
    signed_in.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    text = _text(_get(signed_in, reverse("referee:live_print_slips", args=[live.pk, 1])))
    # The tag as the workbook writes it, where an ID is printed; not "N7" anywhere: a private link's random token
    # printed on the slip may hold those two letters.
    assert f"{new.first_name} {new.last_name} (nouveau)" in text and f"(N{new.pk})" not in text


def test_two_pools_are_listed_together_with_their_pool(signed_in, referee):
    players = federation_players(8, clubs=8)
    tournament = factories.tournament("Open à deux poules", start=date(2026, 11, 21), end=date(2026, 11, 21),
                                      rounds=2, status=Tournament.REGISTERED)
    live = live_begin(tournament, entrants=[NewEntrant(player=p.pk, pool="A" if n < 4 else "B")
                                            for n, p in enumerate(players)])
    tournament.referees.add(referee)
    play_round(live, 1, random.Random(1), pool="A")
    play_round(live, 1, random.Random(2), pool="B")
    html = _get(signed_in, reverse("referee:live_print_by_table", args=[live.pk, 1]))
    tables = re.findall(r'<th scope="row" class="num table-no">(\d+)</th>.*?<td class="center">([AB])</td>', html)
    assert [int(t) for t, _ in tables] == [1, 2, 3, 4]
    assert sorted(pool for _, pool in tables) == ["A", "A", "B", "B"]
    standings = _get(signed_in, reverse("referee:live_print_standings", args=[live.pk, 1]))
    assert standings.count('class="print-pool"') == 2
    assert "Pool A" in standings and "Pool B" in standings


def test_a_tournaments_name_cannot_break_out_of_the_running_title(signed_in, live):
    live.tournament.name = 'Open "du" \\ </style><script>alert(1)</script>'
    live.tournament.save(update_fields=["name"])
    play_round(live, 1, random.Random(1))
    html = _get(signed_in, reverse("referee:live_print_by_table", args=[live.pk, 1]))
    style = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    content = re.fullmatch(r'@page \{ @top-left \{ content: "([^"\\]*(?:\\[0-9a-f]+ [^"\\]*)*)"; \} \} '
                           r'@page :first \{ @top-left \{ content: none; \} \}', style)
    assert content is not None, style
    assert "<script>" not in html.split("</head>")[0]


# --- the slips


def _dark_modules(path_data: str) -> set[tuple[int, int]]:
    """The squares an SVG path of segno's draws: 'M x y', 'm dx dy' move, 'h n' draws n modules on row floor(y)."""
    dark, x, y = set(), 0.0, 0.0
    for command, first, second in re.findall(r"([Mmhv])(-?[\d.]+)(?:[ ,](-?[\d.]+))?", path_data):
        if command == "M":
            x, y = float(first), float(second)
        elif command == "m":
            x, y = x + float(first), y + float(second)
        elif command == "h":
            dark.update((int(y), int(x) + n) for n in range(int(float(first))))
            x += float(first)
        else:
            raise AssertionError(f"unexpected path command {command}")
    return dark


def _modules_of(url: str) -> set[tuple[int, int]]:
    """What a QR code of `url` must show, by segno's own matrix (any mask or version it picks is segno's)."""
    matrix = segno.make(url, error="m", micro=False).matrix
    return {(r, c) for r, row in enumerate(matrix) for c, dark in enumerate(row) if dark}


def _qr_codes(slip_html: str) -> list[tuple[str, set[tuple[int, int]]]]:
    """Each QR code of a slip: its title and its dark modules, the quiet zone taken off."""
    codes = []
    for title, path in re.findall(r'<svg viewBox="0 0 \d+ \d+" class="qr"><title>([^<]*)</title>'
                                       r'<path[^>]* d="([^"]+)"', slip_html):
        dark = _dark_modules(path)
        border = min(r for r, _ in dark)  # the top-left finder pattern's corner is dark: the quiet zone ends there
        codes.append((unescape(title), {(r - border, c - border) for r, c in dark}))
    return codes


def _slips(html: str) -> dict[int, str]:
    found = re.findall(r'<section class="slip" aria-labelledby="slip-(\d+)">(.*?)</section>', html, re.S)
    return {int(table): body for table, body in found}


def test_every_table_has_a_slip_with_both_players_and_qr_codes_of_their_exact_private_links(signed_in, live):
    live.players_enter_results = True
    live.save(update_fields=["players_enter_results"])
    play_round(live, 1, random.Random(1))
    html = _get(signed_in, reverse("referee:live_print_slips", args=[live.pk, 1]))
    slips = _slips(html)
    tables = list(LiveTable.objects.filter(round__live=live).select_related("a", "b").order_by("table"))
    assert sorted(slips) == [t.table for t in tables] and len(tables) == 4
    for table in tables:
        slip = slips[table.table]
        text = _text(slip)
        assert f"Round 1 · Table {table.table}" in text
        assert live.tournament.name in text
        for side, entrant in (("A", table.a), ("B", table.b)):
            assert f"{side} {entrant.first_name} {entrant.last_name} ({entrant.player_id})" in text
        for code in ("A", "B", "D", "DD", "FA", "FB"):
            assert f"{code} " in text
        assert "one month" in text and "appendix 3 § 8" in text
        codes = _qr_codes(slip)
        assert len(codes) == 2
        for (title, modules), entrant in zip(codes, (table.a, table.b), strict=True):
            url = f"http://testserver/tournaments/{live.pk}/live/me/{entrant_link_token(entrant)}/"
            assert title == f"{entrant.first_name} {entrant.last_name}'s private link"
            assert modules == _modules_of(url)
            assert url in slip  # the link written out too, for a phone that cannot read the code


def test_the_qr_comparison_tells_one_link_from_another(signed_in, live):
    play_round(live, 1, random.Random(1))
    slip = _slips(_get(signed_in, reverse("referee:live_print_slips", args=[live.pk, 1])))[1]
    table = LiveTable.objects.select_related("a").get(round__live=live, table=1)
    other = f"http://testserver/tournaments/{live.pk}/live/me/{entrant_link_token(table.a)[:-1]}x/"
    assert _qr_codes(slip)[0][1] != _modules_of(other)


def test_a_slip_against_the_spare_has_one_code(signed_in, referee):
    live = live_tournament(federation_players(5, clubs=5), rounds=2)
    live.tournament.referees.add(referee)
    play_round(live, 1, random.Random(1))
    spare_table = LiveTable.objects.get(round__live=live, b__isnull=True)
    slip = _slips(_get(signed_in, reverse("referee:live_print_slips", args=[live.pk, 1])))[spare_table.table]
    assert "Spare (99)" in _text(slip)
    assert len(_qr_codes(slip)) == 1


def test_entrants_without_a_link_get_one_before_their_slips_are_printed(signed_in, live):
    play_round(live, 1, random.Random(1))
    LiveEntrant.objects.filter(live=live).update(link_salt=None, link_digest=None)
    html = _get(signed_in, reverse("referee:live_print_slips", args=[live.pk, 1]))
    assert not LiveEntrant.objects.filter(live=live, link_salt__isnull=True).exists()
    assert len(_qr_codes(html)) == 8


# --- the standings


def test_standings_after_a_round_give_rank_name_id_score_and_opponents_score(signed_in, live):
    play_round(live, 1, random.Random(1))
    html = _get(signed_in, reverse("referee:live_print_standings", args=[live.pk, 1]))
    rows = re.findall(r'<tr><td class="num">(\d+)</td><th scope="row">([^<]+)</th><td class="num id">(\d+)</td>\s*'
                      r'<td class="num score">([\d.]+)</td><td class="num">([\d.]+)</td></tr>', html)
    assert [int(rank) for rank, *_ in rows] == list(range(1, 9))
    scores = [float(score) for *_, score, _ in rows]
    assert scores == sorted(scores, reverse=True)
    by_id = {e.player_id: f"{e.first_name} {e.last_name}" for e in LiveEntrant.objects.filter(live=live)}
    assert all(by_id[int(pid)] == name for _, name, pid, _, _ in rows)
    assert "R1" not in _text(html)  # no cross-table before the final standings


def test_the_final_standings_have_the_cross_table(signed_in, live):
    play_round(live, 1, random.Random(1))
    play_round(live, 2, random.Random(2))
    html = _get(signed_in, reverse("referee:live_print_final", args=[live.pk]))
    text = _text(html)
    assert "Final standings" in text and "R1" in text and "R2" in text
    rank = {int(pid): int(r) for r, pid in re.findall(
        r'<tr><td class="num">(\d+)</td><th scope="row">[^<]+</th><td class="num id">(\d+)</td>', html)}
    assert len(rank) == 8
    rows = re.findall(r'<td class="num id">(\d+)</td>\s*((?:<td class="center cell[^"]*">.*?</td>){2})', html)
    cells = {int(pid): re.findall(r'">([WDL]{1,2})(\d+)', row) for pid, row in rows}
    for table in LiveTable.objects.filter(round__live=live).select_related("a", "b", "round"):
        a, b = table.a.player_id, table.b.player_id
        letter_a = {"A": "W", "B": "L"}.get(table.result, table.result)
        assert cells[a][table.round.number - 1] == (letter_a, str(rank[b]))
        letter_b = {"A": "L", "B": "W"}.get(table.result, table.result)
        assert cells[b][table.round.number - 1] == (letter_b, str(rank[a]))


# --- the Print entry


def test_the_round_page_offers_each_printout_it_can(signed_in, live):
    play_round(live, 1, random.Random(1))
    page = _get(signed_in, reverse("referee:live_results", args=[live.pk, 1]))
    for name in ROUND_PRINTOUTS:
        assert reverse(f"referee:{name}", args=[live.pk, 1]) in page
    assert reverse("referee:live_print_final", args=[live.pk]) not in page
    play_round(live, 2, random.Random(2))
    page = _get(signed_in, reverse("referee:live_results", args=[live.pk, 2]))
    assert reverse("referee:live_print_final", args=[live.pk]) in page


# --- a handful of queries, whatever the size of the tournament


def _queries_per_printout(client, referee, size: int, first_id: int) -> tuple[LiveTournament, dict[str, int]]:
    live = live_tournament(federation_players(size, clubs=10, first_id=first_id), rounds=2, name=f"Open {size}")
    live.tournament.referees.add(referee)
    play_round(live, 1, random.Random(1))
    play_round(live, 2, random.Random(2))
    counts = {}
    for name, url in zip((*ROUND_PRINTOUTS, "live_print_final"), _urls(live, 2), strict=True):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts[name] = len(queries)
    return live, counts


def test_a_printout_of_100_players_costs_the_queries_of_one_of_10(signed_in, referee, django_assert_max_num_queries):
    _, small = _queries_per_printout(signed_in, referee, 10, 5001)
    live, large = _queries_per_printout(signed_in, referee, 100, 6001)
    assert large == small
    with django_assert_max_num_queries(max(small.values())):
        signed_in.get(reverse("referee:live_print_slips", args=[live.pk, 2]))
