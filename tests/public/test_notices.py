"""The public notices (RULES.md §8): every red card, with its date and tournament, naming no one."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model

from players.governance import sanction_give
from tests import factories as f
from tests.public.conftest import text


@pytest.fixture
def red_card(db):
    board = get_user_model().objects.create_user("board-member", is_staff=True)
    club = f.club("Les Invincibles")
    culprit = f.player("Vaurien", "Hector", club=club, country_code="BE")
    tournament = f.tournament("Coupe de Namur", start=date(2025, 4, 12), city="Namur", country_code="BE")
    card = sanction_give(player=culprit, kind="red", reason="threw the dice at the referee", user=board,
                         decided_on=date(2025, 4, 20), tournament=tournament)
    return {"card": card, "culprit": culprit, "tournament": tournament, "board": board}


def test_the_notices_page_lists_a_red_card_by_date_and_tournament(visitor, red_card):
    page = text(visitor.get("/notices/"))
    assert "20 Apr 2025" in page
    assert "Coupe de Namur" in page and f'/tournaments/{red_card["tournament"].id}/' in page
    assert "On 20 Apr 2025 the technical board gave a red card for conduct at Coupe de Namur." in page


def test_the_notices_page_names_no_one(visitor, red_card):
    page = text(visitor.get("/notices/"))
    culprit = red_card["culprit"]
    main = page[page.index("<main"):page.index("</main>")]
    for secret in (culprit.last_name, culprit.first_name, f"/players/{culprit.id}/", f">{culprit.id}<",
                   "Les Invincibles", "threw the dice", red_card["board"].username):
        assert secret not in main, secret


def test_the_notices_page_reads_neither_the_player_nor_the_reason(visitor, red_card, django_assert_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        visitor.get("/notices/")
    sql = " ".join(q["sql"] for q in queries.captured_queries).lower()
    assert '"reason"' not in sql and "players_player" not in sql
    with django_assert_num_queries(1):
        visitor.get("/notices/")


def test_the_notices_page_in_french(french_visitor, red_card):
    page = text(french_visitor.get("/notices/"))
    assert "Avis publics" in page
    assert "20 avril 2025" in page
    assert ("Le 20 avril 2025, le bureau technique a donné un carton rouge pour un comportement lors du tournoi "
            "Coupe de Namur.") in page


def test_yellow_cards_and_exclusions_are_not_public_notices(visitor, db):
    board = get_user_model().objects.create_user("board-member", is_staff=True)
    sanction_give(player=f.player("Jaune", "Jules"), kind="yellow", reason="late", user=board,
                  decided_on=date(2025, 1, 5))
    sanction_give(player=f.player("Exclu", "Ernest"), kind="exclusion", reason="cheat", user=board,
                  decided_on=date(2025, 2, 6))
    page = text(visitor.get("/notices/"))
    assert "No red card has been given." in page
    assert "5 Jan 2025" not in page and "6 Feb 2025" not in page


def test_every_page_links_to_the_notices_from_its_footer(visitor, db):
    for url in ("/", "/rules/", "/tournaments/"):
        page = text(visitor.get(url))
        footer = page[page.index("<footer"):]
        assert 'href="/notices/"' in footer
