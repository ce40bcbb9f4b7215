"""A user's values are checked before they reach int() or the database: whole numbers (adlg_site.inputs) and the
NUL character (adlg_site.middleware.refuse_nul). The crawl of every URL is tests/foundation/test_every_input.py;
here, the reported cases one by one with what the visitor is told."""

from __future__ import annotations

import pytest
from django.urls import reverse

from adlg_site.inputs import MAX_WHOLE, whole_number
from tests import factories


@pytest.mark.parametrize("text,expected", [
    ("12", 12), (" 12 ", 12), ("0", 0), (str(MAX_WHOLE), MAX_WHOLE), (12, 12),
    ("²", None), ("1²", None), ("٣", None), ("１", None), ("", None), ("  ", None), ("-1", None), ("+1", None),
    ("1.0", None), ("1e3", None), (str(MAX_WHOLE + 1), None), ("9" * 5000, None), (None, None), (True, None),
    ("1\x00", None),
])
def test_it_reads_a_whole_number_of_ascii_digits_within_bounds(text, expected):
    assert whole_number(text) == expected


def test_it_applies_the_bounds_asked():
    assert whole_number("0", minimum=1) is None
    assert whole_number("100", maximum=99) is None
    assert whole_number("99", maximum=99) == 99


@pytest.mark.django_db
def test_a_search_for_a_superscript_digit_finds_nobody_instead_of_failing(client):
    factories.player("Martin")
    response = client.get("/search/", {"q": "²"})
    assert response.status_code == 200
    assert "Martin" not in response.content.decode()


@pytest.mark.django_db
def test_an_opponent_that_is_not_a_number_is_told_to_choose_from_the_list(client):
    player = factories.federation(4).players[0]
    response = client.get(reverse("player_detail", args=[player.pk]), {"opponent": "²"})
    assert response.status_code == 200
    assert "Choose an opponent from the list." in response.content.decode()


@pytest.mark.django_db
def test_the_template_of_a_tournament_that_is_not_a_number_is_not_found(client, referee):
    client.force_login(referee)
    response = client.get(reverse("referee:template"), {"tournament": "²"})
    assert response.status_code == 404


@pytest.mark.django_db
def test_the_api_search_takes_a_superscript_digit_as_a_name(client):
    assert client.get("/api/players/", {"search": "²"}).json()["count"] == 0


@pytest.mark.django_db
def test_the_board_retires_no_id_beyond_the_largest(client, board):
    client.force_login(board)
    response = client.post(reverse("board:ids"), {"player_id": "9" * 40, "reason": "typo"})
    assert response.status_code == 200
    assert "less than or equal to" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/search/?q=a%00b", "/ratings/adlg/?q=%00", "/search%00/", "/tournaments/?x%00=1"])
def test_a_nul_character_in_an_address_is_refused_with_the_400_page(client, url):
    response = client.get(url)
    assert response.status_code == 400
    assert "The site could not understand this request" in response.content.decode()


@pytest.mark.django_db
def test_a_nul_character_in_the_api_is_refused_in_json(client):
    response = client.get("/api/players/?search=a%00b")
    assert response.status_code == 400
    assert "NUL" in response.json()["detail"]


@pytest.mark.django_db
def test_a_nul_character_in_a_posted_form_is_refused(client, board):
    client.force_login(board)
    response = client.post(reverse("board:ids"), "player_id=5&reason=a%00b",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400


@pytest.mark.django_db
def test_a_nul_character_in_a_cookie_is_refused(client):
    client.cookies["sessionid"] = "abcdefgh\x00"
    assert client.get("/").status_code == 400
