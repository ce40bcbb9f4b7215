"""A referee sees a player's cards only while refereeing them: for the entrants of a tournament they referee (the
players of its tournament day, the players registered before its first day), from its first day to a week after
its last; every card a referee is shown is written to the audit log.

The attacks: a referee sends a sheet dated today listing players 11 and 12 without games, and read their cards
(the rule then showed the cards of anyone a sheet registered); a referee adds players 11 and 12 to the tournament
day of one of their tournaments that starts later, which registers them before its first day, and read their cards
(the rule then showed the cards of players registered before the first day)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from players import permissions
from players.governance import sanction_give
from players.models import AuditEntry, Player, Sanction
from tests.governance.factories import make_player, make_tournament
from tests.sheets.builders import SheetBuilder
from tournaments.live.entrants import NewEntrant, entrant_add
from tournaments.live.start import live_begin
from tournaments.models import Registration
from tournaments.sheets.services import sheet_import_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def carded(board):
    """Players 11 and 12, a yellow and a red card."""
    eleven, twelve = make_player("Onze", pk=11), make_player("Douze", pk=12)
    sanction_give(player=eleven, kind=Sanction.YELLOW, reason="insults", user=board,
                  decided_on=timezone.localdate() - timedelta(days=30))
    sanction_give(player=twelve, kind=Sanction.RED, reason="loaded dice", user=board,
                  decided_on=timezone.localdate() - timedelta(days=30))
    return eleven, twelve


def _sheet_listing(players: list[Player], *, day) -> bytes:
    """A sheet of a new tournament on `day` listing `players` without a game (and one real game)."""
    builder = SheetBuilder.valid().set("Start date", day).set("End date", day).set("Rounds", 1)
    builder.players = [row for row in builder.players if row[0] in (101, 104)]
    builder.games = [[1, None, 101, 104, "A", 20, 60, "no"]]
    for player in players:
        builder.add_player([player.pk, player.last_name, player.first_name, None, "FR", "A"])
    return builder.build()


def test_a_sheet_listing_players_on_the_day_shows_their_cards_to_nobody(referee, carded):
    make_tournament("Le sien", referees=[referee])  # the referee runs a tournament: may send sheets
    make_player("Martin", pk=101), make_player("Smith", pk=104)
    today = timezone.localdate()
    outcome = sheet_import_bytes(data=_sheet_listing(list(carded), day=today), file_name="spy.xlsx",
                                 user=referee)
    assert outcome.ok, outcome.report.as_dict()
    tournament = outcome.sheet.tournament
    assert set(tournament.registrations.values_list("player_id", flat=True)) >= {11, 12}
    assert list(permissions.visible_sanctions(referee)) == []
    assert not any(permissions.can_view_sanctions(referee, player) for player in carded)


def test_the_cards_page_of_that_tournament_lists_no_card(client, referee, carded):
    make_player("Martin", pk=101), make_player("Smith", pk=104)
    make_tournament("Le sien", referees=[referee])
    outcome = sheet_import_bytes(data=_sheet_listing(list(carded), day=timezone.localdate()),
                                 file_name="spy.xlsx", user=referee)
    client.force_login(referee)
    page = client.get(reverse("board:tournament_cards", args=[outcome.tournament_id])).content.decode()
    assert "Onze" not in page and "Douze" not in page


def test_a_registration_made_before_the_start_shows_the_cards_from_the_first_day_to_a_week_after_the_last(
        referee, carded):
    tournament = make_tournament("Open", referees=[referee])  # starts in 30 days, ends the day after
    for player in carded:
        Registration.objects.create(tournament=tournament, player=player)
    assert list(permissions.visible_sanctions(referee)) == []  # not before the first day
    assert not permissions.can_view_sanctions(referee, carded[0], today=tournament.start_date - timedelta(days=1))
    assert set(permissions.visible_sanctions(referee, today=tournament.start_date)) == set(Sanction.objects.all())
    week_after = tournament.end_date + timedelta(days=7)
    assert permissions.can_view_sanctions(referee, carded[0], today=week_after)
    assert not permissions.can_view_sanctions(referee, carded[0], today=week_after + timedelta(days=1))


def test_adding_players_to_the_tournament_day_of_a_tournament_not_begun_shows_no_card(client, referee, carded):
    tournament = make_tournament("Open", referees=[referee])  # starts in 30 days
    live = live_begin(tournament, user=referee)
    for player in carded:
        entrant_add(live, NewEntrant(player=player.pk), user=referee)
    # The tournament day registered them, before the first day: the rule that read registrations alone showed their
    # cards here.
    assert Registration.objects.filter(tournament=tournament, player__in=carded).count() == 2
    assert list(permissions.visible_sanctions(referee)) == []
    assert not any(permissions.can_view_sanctions(referee, player) for player in carded)
    client.force_login(referee)
    page = client.get(reverse("board:tournament_cards", args=[tournament.pk])).content.decode()
    assert "Onze" not in page and "Douze" not in page
    assert "The cards of the players are shown from the first day of the tournament" in page
    assert AuditEntry.objects.get(action="view_cards").changes == {"cards": []}


def test_the_players_of_the_tournament_day_are_shown_from_its_first_day_to_a_week_after_its_last(referee, carded):
    today = timezone.localdate()
    tournament = make_tournament("Open", start=today, days=1, referees=[referee])
    live = live_begin(tournament, entrants=[NewEntrant(player=carded[0].pk)], user=referee)
    entrant_add(live, NewEntrant(player=carded[1].pk), user=referee)  # arrives on the day
    assert set(permissions.visible_sanctions(referee)) == set(Sanction.objects.all())
    week_after = tournament.end_date + timedelta(days=7)
    assert set(permissions.visible_sanctions(referee, today=week_after)) == set(Sanction.objects.all())
    assert list(permissions.visible_sanctions(referee, today=week_after + timedelta(days=1))) == []
    assert list(permissions.visible_sanctions(referee, today=today - timedelta(days=1))) == []


def test_a_tournament_of_another_referee_shows_nothing(referee, other_referee, carded):
    tournament = make_tournament("Theirs", start=timezone.localdate(), referees=[other_referee])
    live_begin(tournament, entrants=[NewEntrant(player=p.pk) for p in carded], user=other_referee)
    make_tournament("Mine", start=timezone.localdate(), referees=[referee])
    assert list(permissions.visible_sanctions(referee)) == []
    assert set(permissions.visible_sanctions(other_referee)) == set(Sanction.objects.all())


def test_a_registration_made_on_the_first_day_shows_nothing(referee, carded):
    tournament = make_tournament("Open", referees=[referee])
    first_day = timezone.make_aware(timezone.datetime.combine(tournament.start_date, timezone.datetime.min.time()))
    for player in carded:
        Registration.objects.create(tournament=tournament, player=player, registered_at=first_day)
    assert list(permissions.visible_sanctions(referee, today=tournament.start_date)) == []


def test_a_corrected_sheet_keeps_the_registration_dates_of_the_players_it_keeps(referee, board, carded):
    make_player("Martin", pk=101), make_player("Smith", pk=104)
    today = timezone.localdate()
    tournament = make_tournament("Open", start=today, days=0, referees=[referee])
    early = timezone.now() - timedelta(days=20)
    Registration.objects.create(tournament=tournament, player=carded[0], registered_at=early)
    data = SheetBuilder.valid()
    builder = data.set("Tournament ID", tournament.pk).set("Name", "Open").set("Start date", today)
    builder.set("End date", today).set("Rounds", 1)
    builder.players = [row for row in builder.players if row[0] in (101, 104)]
    builder.games = [[1, None, 101, 104, "A", 20, 60, "no"]]
    builder.add_player([11, "Onze", "Jean", None, "FR", "A"])
    outcome = sheet_import_bytes(data=builder.build(), file_name="results.xlsx", user=referee)
    assert outcome.ok, outcome.report.as_dict()
    assert Registration.objects.get(tournament=tournament, player=carded[0]).registered_at == early
    assert list(permissions.visible_sanctions(referee)) == [carded[0].sanctions.get()]


def test_every_card_a_referee_views_is_audited(client, referee, carded):
    tournament = make_tournament("Open", start=timezone.localdate(), referees=[referee])
    live_begin(tournament, entrants=[NewEntrant(player=p.pk) for p in carded], user=referee)
    client.force_login(referee)
    page = client.get(reverse("board:tournament_cards", args=[tournament.pk])).content.decode()
    assert "Onze" in page and "Douze" in page
    entry = AuditEntry.objects.get(action="view_cards")
    assert (entry.user, entry.object_id) == (referee, str(tournament.pk))
    assert sorted(card["player"] for card in entry.changes["cards"]) == [11, 12]
    assert {card["kind"] for card in entry.changes["cards"]} == {"yellow", "red"}


def test_the_boards_own_views_are_not_audited_as_a_referees(client, board, carded):
    tournament = make_tournament("Open", referees=[])
    for player in carded:
        Registration.objects.create(tournament=tournament, player=player)
    client.force_login(board)
    assert client.get(reverse("board:tournament_cards", args=[tournament.pk])).status_code == 200
    assert not AuditEntry.objects.filter(action="view_cards").exists()
