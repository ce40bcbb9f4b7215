"""The calendars as iCalendar feeds (/tournaments/calendar.ics, one tournament's, an account's personal feed), read
back with the icalendar library."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar

from tests.entries.conftest import announce
from tests.governance.factories import make_tournament
from tournaments.models import CalendarLink, Entry

PARIS = ZoneInfo("Europe/Paris")


def _calendar(client, url="/tournaments/calendar.ics"):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def _events(client, url="/tournaments/calendar.ics"):
    return {str(event["summary"]): event for event in _calendar(client, url).walk("VEVENT")}


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


def test_the_tournament_list_offers_the_feed_in_the_pages_language(client, db):
    assert 'href="/tournaments/calendar.ics?lang=en"' in client.get("/tournaments/").content.decode()
    client.cookies["django_language"] = "fr"
    page = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'href="/tournaments/calendar.ics?lang=fr"' in page


# --- times, deadlines, reminders ---------------------------------------------------------------------------------


def test_a_start_time_makes_a_timed_event_in_europe_paris_with_its_vtimezone(client, tournament, referee):
    announce(tournament, referee, start_time=time(9), schedule="9:30 Round 1\n12:30 Lunch\n19:00 Prize-giving")
    calendar = _calendar(client)
    assert [str(zone["tzid"]) for zone in calendar.walk("VTIMEZONE")] == ["Europe/Paris"]
    event = {str(e["summary"]): e for e in calendar.walk("VEVENT")}[tournament.name]
    assert event["dtstart"].params["TZID"] == "Europe/Paris"
    assert event.decoded("dtstart") == datetime.combine(tournament.start_date, time(9), tzinfo=PARIS)
    assert event.decoded("dtend") == datetime.combine(tournament.end_date, time(19), tzinfo=PARIS)
    assert "09:30 Round 1\n12:30 Lunch" in str(event["description"])


def test_without_a_schedule_the_timed_event_ends_with_the_last_day(client, tournament, referee):
    announce(tournament, referee, start_time=time(14, 30))
    event = _events(client)[tournament.name]
    assert event.decoded("dtstart") == datetime.combine(tournament.start_date, time(14, 30), tzinfo=PARIS)
    assert event.decoded("dtend") == datetime.combine(tournament.end_date + timedelta(days=1), time(0), tzinfo=PARIS)


def test_without_a_start_time_the_event_stays_all_day_and_no_timezone_is_needed(client, tournament, referee):
    announce(tournament, referee)
    calendar = _calendar(client)
    event = {str(e["summary"]): e for e in calendar.walk("VEVENT")}[tournament.name]
    assert event.decoded("dtstart") == tournament.start_date and "TZID" not in event["dtstart"].params
    assert not calendar.walk("VTIMEZONE")


def test_the_closing_of_entries_is_an_event_with_a_reminder(client, tournament, referee):
    announcement = announce(tournament, referee)
    event = _events(client)[f"Entries close: {tournament.name}"]
    assert event.decoded("dtstart") == announcement.list_deadline
    assert str(event["uid"]) == f"tournament-{tournament.pk}-entries@testserver"
    [alarm] = event.walk("VALARM")
    assert str(alarm["action"]) == "DISPLAY"
    assert alarm.decoded("trigger") == -timedelta(days=2, hours=15)  # 09:00, three days before


def test_the_events_uids_stay_the_same_when_the_announcement_changes(client, tournament, referee):
    announce(tournament, referee)
    before = sorted(str(e["uid"]) for e in _calendar(client).walk("VEVENT"))
    announce(tournament, referee, start_time=time(9), venue="Autre salle",
             list_deadline=tournament.start_date - timedelta(days=20))
    assert sorted(str(e["uid"]) for e in _calendar(client).walk("VEVENT")) == before
    assert before == [f"tournament-{tournament.pk}-entries@testserver", f"tournament-{tournament.pk}@testserver"]


@pytest.mark.parametrize(("lang", "summary", "rounds"), [("fr", "Clôture des inscriptions\u00a0: ", "3 rondes"),
                                                         ("en", "Entries close: ", "3 rounds")])
def test_the_feeds_language_is_the_links_not_the_browsers(client, tournament, referee, lang, summary, rounds):
    announce(tournament, referee)
    other = "en" if lang == "fr" else "fr"
    events = _events(client.__class__(HTTP_ACCEPT_LANGUAGE=other), f"/tournaments/calendar.ics?lang={lang}")
    assert set(events) == {tournament.name, summary + tournament.name}
    assert rounds in str(events[tournament.name]["description"])


def test_a_feed_without_a_language_is_in_the_sites(client, tournament, referee):
    announce(tournament, referee)
    events = _events(client.__class__(HTTP_ACCEPT_LANGUAGE="fr"), "/tournaments/calendar.ics?lang=de")
    assert f"Entries close: {tournament.name}" in events


# --- one tournament's feed ---------------------------------------------------------------------------------------


def test_a_tournaments_page_offers_its_own_feed_with_the_tournament_and_its_closing(client, tournament, referee):
    announce(tournament, referee, start_time=time(9))
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/calendar.ics?lang=en"' in page
    make_tournament("Un autre", start=tournament.start_date)
    events = _events(client, f"/tournaments/{tournament.pk}/calendar.ics?lang=en")
    assert set(events) == {tournament.name, f"Entries close: {tournament.name}"}
    assert events[tournament.name]["dtstart"].params["TZID"] == "Europe/Paris"


def test_an_unknown_tournaments_feed_is_not_found(client, db):
    assert client.get("/tournaments/999999/calendar.ics").status_code == 404


# --- the personal feed -------------------------------------------------------------------------------------------


def _make_link(client, user) -> str:
    client.force_login(user)
    response = client.post("/tournaments/my-calendar/", {"action": "new"})
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    [url] = re.findall(r'value="http://testserver(/tournaments/my-calendar/[^"]+\?lang=en)"',
                       response.content.decode())
    return url


def test_the_account_page_makes_a_personal_feed_address_shown_once_and_stored_as_a_digest(client, entry,
                                                                                            player_user):
    client.force_login(player_user)
    assert "Make my calendar address" in client.get("/accounts/").content.decode()
    url = _make_link(client, player_user)
    secret = url.split("/")[-1].split(".ics")[0]
    link = CalendarLink.objects.get(user=player_user)
    assert link.digest == hashlib.sha256(secret.encode()).hexdigest() and secret not in link.digest
    page = client.get("/accounts/").content.decode()
    assert secret not in page and "Stop my calendar address" in page


def test_the_personal_feed_gives_my_entries_and_each_list_deadline_with_a_reminder(client, entry, player_user,
                                                                                  other_user):
    url = _make_link(client, player_user)
    make_tournament("Pas le mien", start=entry.tournament.start_date)
    client.logout()  # a calendar app has no session
    events = _events(client, url)
    name = entry.tournament.name
    assert set(events) == {name, f"Army list due: {name}"}
    deadline = events[f"Army list due: {name}"]
    assert deadline.decoded("dtstart") == entry.tournament.announcement.list_deadline
    assert str(deadline["uid"]) == f"tournament-{entry.tournament.pk}-list@testserver"
    assert str(deadline["url"]) == f"http://testserver/tournaments/{entry.tournament.pk}/entry/"
    assert deadline.walk("VALARM")


def test_a_withdrawn_entry_leaves_the_personal_feed(client, entry, player_user):
    url = _make_link(client, player_user)
    Entry.objects.filter(pk=entry.pk).update(status=Entry.WITHDRAWN)
    assert _events(client, url) == {}


def test_a_new_address_stops_the_old_one_and_a_revoked_one_stops_at_once(client, entry, player_user):
    old = _make_link(client, player_user)
    new = _make_link(client, player_user)
    assert client.get(old).status_code == 404 and client.get(new).status_code == 200
    response = client.post("/tournaments/my-calendar/", {"action": "revoke"})
    assert response.status_code == 302 and response["Location"] == "/accounts/"
    assert client.get(new).status_code == 404 and not CalendarLink.objects.exists()


def test_a_made_up_address_is_not_found_and_a_visitor_cannot_make_one(client, db):
    assert client.get("/tournaments/my-calendar/not-a-secret.ics").status_code == 404
    assert client.post("/tournaments/my-calendar/", {"action": "new"}).status_code == 302
    assert not CalendarLink.objects.exists()
