"""The entries reach the tournament day and its facts: the day starts with the entered players (and the calendar's
registrations), and a late list's 20 points reach the published standings and the pre-filled result sheet."""

from __future__ import annotations

import io
import random
from datetime import timedelta

import pytest
from openpyxl import load_workbook

from ratings.models import RatingSystem
from ratings.services import replay_from_scratch
from tests.entries.conftest import after_deadline, announce, send
from tests.governance.factories import make_player, make_tournament, register
from tests.live.helpers import federation_players, play_round
from tournaments.before.entries import day_players, entry_register, late_penalty_lift
from tournaments.live.entrants import NewEntrant
from tournaments.live.publication import live_publish
from tournaments.live.start import live_begin
from tournaments.models import Entry, LiveEntrant, Registration, Standing


def test_the_day_starts_with_the_calendars_registrations_and_the_entered_players(client, referee, today):
    tournament = make_tournament("Le Jour J", start=today - timedelta(days=20), referees=[referee])
    # Announced when it was ahead: the entries were made then.
    announce(tournament, referee, today=today - timedelta(days=60),
             list_deadline=tournament.start_date - timedelta(days=7))
    players = [make_player(f"Entrant{n}", "P") for n in range(5)]
    for player, status in zip(players[:4], ["entered", "entered", "withdrawn", "refused"], strict=True):
        Entry.objects.create(tournament=tournament, player=player, status=status)
    Entry.objects.create(tournament=tournament, player=make_player("Spare", "S"), as_spare=True)
    register(tournament, players[4])
    tournament.start_date = tournament.end_date = today
    tournament.save()
    client.force_login(referee)
    assert "3 players registered" in client.get(f"/referee/live/{tournament.pk}/start/").content.decode()
    response = client.post(f"/referee/live/{tournament.pk}/start/", {"swiss": ""})
    assert response.status_code == 302
    assert set(LiveEntrant.objects.values_list("player_id", flat=True)) == {
        players[0].pk, players[1].pk, players[4].pk}


@pytest.mark.django_db(transaction=True)
def test_the_late_list_penalty_reaches_the_tournaments_standings(referee, today):
    players = federation_players(8)
    tournament = make_tournament("Open des Retardataires", start=today + timedelta(days=30), referees=[referee])
    announce(tournament, referee)
    deadline = tournament.announcement.list_deadline
    accounts = []
    for n, player in enumerate(players):
        account = type(referee).objects.create_user(f"p{n}", password="x-pass-123")
        player.user = account
        player.save()
        accounts.append(account)
        entry = entry_register(user=account, tournament=tournament, pool="A")
        send(account, entry, now=after_deadline(deadline, days=3 if n < 2 else -3))
    late, lifted = players[0], players[1]
    late_penalty_lift(user=referee, entry=Entry.objects.get(player=lifted), reason="Sent by post in time.")
    # The day: the entered players start it, and it is published as a sheet.
    tournament.start_date = tournament.end_date = today
    tournament.save()
    live = live_begin(tournament, entrants=[NewEntrant(player=p.player_id, pool=p.pool)
                                            for p in day_players(tournament=tournament)], user=referee)
    rng = random.Random(5)
    for number in (1, 2, 3):
        play_round(live, number, rng)
    outcome = live_publish(live, user=referee)
    assert outcome.ok, outcome.report.as_dict()
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    penalties = dict(Standing.objects.filter(tournament=tournament).values_list("player_id", "penalty"))
    assert penalties[late.pk] == 20 and penalties[lifted.pk] == 0
    assert sum(penalties.values()) == 20
    registration = Registration.objects.get(tournament=tournament, player=late)
    assert (registration.penalty, registration.penalty_reason) == (20, "late army list (charter App. 7 §2)")
    assert registration.army == "Carthaginian"


def test_the_prefilled_sheet_carries_the_entered_players_and_their_penalty(client, entry, player_user, referee):
    send(player_user, entry, now=after_deadline(entry.tournament.announcement.list_deadline))
    client.force_login(referee)
    response = client.get(f"/referee/tournaments/{entry.tournament_id}/template.xlsx")
    assert response.status_code == 200
    players = load_workbook(io.BytesIO(response.content))["Players"]
    rows = [[cell.value for cell in row] for row in players.iter_rows(min_row=2, max_row=2)]
    assert rows[0][0] == entry.player_id and rows[0][5:9] == ["A", "Carthaginian", 20,
                                                              "late army list (charter App. 7 §2)"]
