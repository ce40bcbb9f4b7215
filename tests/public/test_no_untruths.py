"""Small untruths the pages told: a referee line of a placeholder ("Referee: '-"), the admin's machinery shown to
the board."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from tests import factories as f
from tests.public.conftest import text

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("placeholder", ["", "-", "'-", " — "])
def test_the_tournament_page_has_no_referee_line_without_a_referees_name(visitor, placeholder):
    tournament = f.tournament("Open de Lyon")
    tournament.referee_name = placeholder
    tournament.save()
    page = text(visitor.get(f"/tournaments/{tournament.id}/"))
    assert "Referee:" not in page and "'-" not in page


def test_the_tournament_page_names_its_referee(visitor):
    tournament = f.tournament("Open de Lyon")
    tournament.referee_name = "Jean Arbitre"
    tournament.save()
    assert "Referee: Jean Arbitre" in text(visitor.get(f"/tournaments/{tournament.id}/"))


INTERNAL = ("Access attempts", "Access logs", "Access failures", "Replay requests", "Rating counts")


def test_the_admin_shows_the_board_what_it_works_with_not_the_sites_machinery(client, django_user_model):
    member = django_user_model.objects.create_user("member", password="member-pass-123", is_staff=True)
    member.user_permissions.set(Permission.objects.all())  # every right: only what it is shown differs
    client.force_login(member)
    page = text(client.get(reverse("admin:index")))
    for kept in ("Players", "Tournaments", "Games", "Sanctions", "Clubs"):
        assert f">{kept}<" in page, kept
    for hidden in INTERNAL:
        assert f">{hidden}<" not in page, hidden
    assert client.get(reverse("admin:ratings_ratingcount_changelist")).status_code == 403


def test_a_superuser_still_sees_the_machinery(client, board):
    client.force_login(board)
    page = text(client.get(reverse("admin:index")))
    for shown in ("Replay requests", "Rating counts", "Access attempts"):
        assert f">{shown}<" in page, shown
