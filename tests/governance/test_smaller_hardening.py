"""A report's smaller items: a Content-Security-Policy header, a size message that tells the file from the
limit, and deleting a rated tournament in the admin pointing to withdrawing its results."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse
from django.utils import translation

from tests.ratings.helpers import imported, roster, sheet
from tournaments.models import Tournament
from tournaments.sheets.forms import megabytes, too_big_message

pytestmark = pytest.mark.django_db


def test_every_page_has_a_content_security_policy(client):
    response = client.get(reverse("login"))
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]


def test_the_size_message_tells_the_file_from_the_limit():
    just_over = 5 * 1024 * 1024 + 1
    assert too_big_message(just_over).startswith("The file is 5.1 MB; the limit for a result sheet is 5 MB.")
    assert megabytes(5 * 1024 * 1024) == "5 MB"
    with translation.override("fr"):
        assert megabytes(just_over) == "5,1\u00a0Mo"  # a non-breaking space, as French typography wants


def test_deleting_a_rated_tournament_points_to_withdrawing_its_results(client, board):
    roster()
    tournament = Tournament.objects.get(
        pk=imported(sheet(name="Spring Clash", start=date(2024, 3, 16))).tournament_id)
    client.force_login(board)
    page = client.get(reverse("admin:tournaments_tournament_delete", args=[tournament.pk])).content.decode()
    assert "has rated results. To take results out of the ratings, withdraw them" in page
    assert reverse("board:tournament_withdraw", args=[tournament.pk]) in page


def test_deleting_a_tournament_without_results_says_nothing_of_it(client, board):
    from tests.governance.factories import make_tournament

    tournament = make_tournament("Announced")
    client.force_login(board)
    page = client.get(reverse("admin:tournaments_tournament_delete", args=[tournament.pk])).content.decode()
    assert "withdraw them" not in page
