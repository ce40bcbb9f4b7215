"""The tournament calendar as an iCalendar feed (/tournaments/calendar.ics), read back with the icalendar library."""

from __future__ import annotations

from datetime import timedelta

from icalendar import Calendar

from tests.entries.conftest import announce
from tests.governance.factories import make_tournament


def _events(client):
    response = client.get("/tournaments/calendar.ics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    return {str(event["summary"]): event for event in calendar.walk("VEVENT")}


def test_the_feed_parses_and_lists_the_upcoming_and_recent_tournaments_only(client, db, referee, today):
    soon = make_tournament("Open du Printemps", start=today + timedelta(days=40), days=1)
    recent = make_tournament("Tournoi d'hier", start=today - timedelta(days=10))
    make_tournament("Tournoi d'antan", start=today - timedelta(days=400))
    make_tournament("Tournoi lointain", start=today + timedelta(days=900))
    events = _events(client)
    assert set(events) == {"Open du Printemps", "Tournoi d'hier"}
    event = events["Open du Printemps"]
    assert event.decoded("dtstart") == soon.start_date
    assert event.decoded("dtend") == soon.end_date + timedelta(days=1)  # RFC 5545: the day after the last
    assert str(event["location"]) == "Paris, France"
    assert str(event["url"]) == f"http://testserver/tournaments/{soon.pk}/"
    assert str(event["uid"]) == f"tournament-{soon.pk}@testserver"
    assert "3 rounds" in str(event["description"])
    assert events["Tournoi d'hier"].decoded("dtstart") == recent.start_date


def test_an_announced_tournament_gives_its_venue_and_the_games_duration(client, tournament, referee):
    announce(tournament, referee)
    event = _events(client)[tournament.name]
    assert str(event["location"]).startswith("Salle des fêtes, 3 rue du Château, Paris")
    assert "games of 2\u00a0h\u00a030" in str(event["description"])


def test_the_tournament_list_offers_the_feed(client, db):
    page = client.get("/tournaments/").content.decode()
    assert 'href="/tournaments/calendar.ics"' in page
