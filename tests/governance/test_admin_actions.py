"""The admin's actions hand over to the board's pages and services, and the admin never audits a card's reason."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.admin import AdminSite
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory

from players import admin_actions
from players.admin_mixins import AuditedAdmin
from players.governance import sanction_give
from players.models import AuditEntry, Player, Sanction
from tests.governance.factories import make_player

pytestmark = pytest.mark.django_db


class FakeAdmin:
    def __init__(self):
        self.messages = []

    def message_user(self, request, message, level=None):
        self.messages.append(message)


def _request(user):
    request = RequestFactory().post("/admin/")
    request.user = user
    return request


def test_it_opens_the_merge_confirmation_for_two_players(board):
    first, second = make_player("Dupont"), make_player("Dupond")
    response = admin_actions.merge_two_players(FakeAdmin(), _request(board), Player.objects.filter(
        pk__in=[second.pk, first.pk]))
    assert response.status_code == 302
    assert response["Location"] == f"/board/merge/?keep={min(first.pk, second.pk)}&duplicate={max(first.pk, second.pk)}"


def test_it_asks_for_exactly_two_players(board):
    fake = FakeAdmin()
    assert admin_actions.merge_two_players(fake, _request(board), Player.objects.filter(pk=99)) is None
    assert fake.messages


def test_it_opens_the_sanctions_page_for_one_player(board):
    player = make_player()
    response = admin_actions.give_sanction(FakeAdmin(), _request(board), Player.objects.filter(pk=player.pk))
    assert response["Location"] == f"/board/sanctions/?player={player.pk}"


def test_it_opens_the_tournament_decisions(board, tournament):
    qs = type(tournament).objects.filter(pk=tournament.pk)
    assert admin_actions.override_championship(FakeAdmin(), _request(board), qs)["Location"] == (
        f"/board/tournaments/{tournament.pk}/override/")
    assert admin_actions.approve_registration_exception(FakeAdmin(), _request(board), qs)["Location"] == (
        f"/board/tournaments/{tournament.pk}/exception/")


def test_it_refuses_the_actions_to_a_referee(referee, tournament):
    with pytest.raises(PermissionDenied):
        admin_actions.override_championship(FakeAdmin(), _request(referee), type(tournament).objects.all())
    with pytest.raises(PermissionDenied):
        admin_actions.merge_two_players(FakeAdmin(), _request(referee), Player.objects.all())


def test_it_erases_old_yellow_cards_on_demand(board):
    sanction_give(player=make_player(), kind="yellow", reason="x", user=board, decided_on=date(2001, 1, 1))
    fake = FakeAdmin()
    admin_actions.expire_yellow_cards_now(fake, _request(board), Sanction.objects.none())
    assert not Sanction.objects.exists()
    assert "1 yellow card(s) erased." in fake.messages


class SanctionAdmin(admin_actions.SanctionAdminMixin, AuditedAdmin):
    pass


def test_the_sanction_admin_never_audits_a_reason(board):
    card = sanction_give(player=make_player(), kind="yellow", reason="SECRET-MOTIVE", user=board)
    model_admin = SanctionAdmin(Sanction, AdminSite())
    request = _request(board)
    assert not model_admin.has_add_permission(request)
    card.reason = "SECRET-MOTIVE, corrected"
    model_admin.save_model(request, card, None, change=True)
    model_admin.delete_queryset(request, Sanction.objects.all())
    assert not Sanction.objects.exists()
    assert AuditEntry.objects.filter(action__in=["change", "delete"]).count() == 2
    assert not any("SECRET" in f"{e.summary}{e.changes}" for e in AuditEntry.objects.all())
