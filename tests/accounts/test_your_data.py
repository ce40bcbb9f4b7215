"""A signed-in player downloads everything the site holds on them, and nothing of anyone else: their account,
record, ratings and history, games, tournaments, championship results, requests and own sanctions (with no
author); of others only what the public pages show."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from players.claims import claim_ask, claim_refuse
from players.governance import player_exclude, sanction_give
from players.models import Player
from tests import factories as f
from tests.accounts.helpers import account

pytestmark = pytest.mark.django_db


def _download(client) -> dict:
    response = client.get(reverse("account_data"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith('attachment; filename="adlg-my-data-')
    assert response["Cache-Control"] == "no-store"
    return json.loads(response.content)


@pytest.fixture
def federation(board):
    fed = f.federation(6, year=2024)
    players = sorted(fed.players, key=lambda p: p.pk)
    me, rival, cheat = players[0], players[1], players[2]
    user = account("me@example.org", player=me)
    account("rival@example.org", player=rival)
    sanction_give(player=me, kind="yellow", reason="Late army list", user=board)
    sanction_give(player=rival, kind="red", reason="Threw the dice at the referee", user=board,
                  tournament=fed.tournament)
    player_exclude(player=cheat, reason="Loaded dice", user=board)
    return {"user": user, "me": me, "rival": rival, "cheat": cheat, "fed": fed}


def test_the_export_holds_the_account_the_record_and_its_history(client, federation):
    client.force_login(federation["user"])
    data = _download(client)
    me = federation["me"]
    assert data["format"] == "adlg-player-data/1"
    assert data["account"]["email_addresses"] == [{"email": "me@example.org", "verified": True, "primary": True}]
    assert data["account"]["settings"] == {"rating_emails": True, "language": None, "emails_turned_off": []}
    record = data["player"]
    assert (record["id"], record["last_name"]) == (me.pk, me.last_name)
    assert record["ratings"] and record["ratings"][0]["system"] == "adlg"
    assert len(record["rating_history"]) == me.rating_events.count() > 0
    assert len(record["games"]) == (me.games_as_a.count() + me.games_as_b.count()) > 0
    assert {row["tournament"]["id"] for row in record["tournaments"]} == set(
        me.registrations.values_list("tournament_id", flat=True))
    assert any(row["standing"] for row in record["tournaments"])
    assert record["championship"]["results"]
    assert [s["kind"] for s in record["sanctions"]] == ["yellow"]
    assert record["sanctions"][0]["reason"] == "Late army list"


def test_the_export_holds_nothing_of_anyone_else(client, federation):
    client.force_login(federation["user"])
    text = json.dumps(_download(client))
    assert "rival@example.org" not in text
    assert "Threw the dice" not in text and "Loaded dice" not in text
    # no sanction's author, no decider (the emails' subjects name the technical board, never a member)
    assert "board" not in text.lower().replace("the board", "").replace("technical board", "")
    assert "created_by" not in text and "decided_by" not in text and "password" not in text
    cheat = federation["cheat"]
    assert cheat.full_name not in text  # an excluded opponent is not named
    games = json.loads(text)["player"]["games"]
    assert all(game["opponent"] is None or game["opponent"]["id"] != cheat.pk for game in games)


def test_the_export_holds_the_accounts_requests_with_the_boards_answer_but_not_who(client, board):
    user = account()
    claim_refuse(claim=claim_ask(user=user, player=f.player("Martin")), user=board, reason="Wrong club")
    client.force_login(user)
    data = _download(client)
    assert data["player"] is None
    assert [(c["status"], c["reason"]) for c in data["claims"]] == [("refused", "Wrong club")]
    assert "board" not in json.dumps(data["claims"])


def test_an_account_without_a_record_downloads_its_account(client):
    client.force_login(account("solo@example.org"))
    data = _download(client)
    assert data["player"] is None and data["account"]["email_addresses"][0]["email"] == "solo@example.org"


def test_the_referee_account_downloads_its_own_too(client, referee):
    client.force_login(referee)
    assert _download(client)["account"]["username"] == "referee"
    assert Player.objects.filter(user=referee).count() == 0
