"""The tournament calendar as an iCalendar feed (RFC 5545) a player subscribes to from a phone or a desktop
calendar: one all-day event per tournament, written by the `icalendar` library.

Terms
-----
in the feed
    The tournaments ending at most RECENT_DAYS ago and starting at most AHEAD_DAYS ahead, in start order, at most
    LIMIT: what a calendar needs to show what is coming and what just happened.
event
    UID ``tournament-<id>@<host>`` (stable: a calendar updates the event when the tournament changes); all-day
    DTSTART and an exclusive DTEND (the day after the last day, as RFC 5545 wants); the name as SUMMARY; the city
    and country (and venue, when announced) as LOCATION; the tournament's page as URL; its format, rounds and
    referee in DESCRIPTION; DTSTAMP and LAST-MODIFIED from when the site last changed it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from icalendar import Calendar, Event

from rules.charter import duration_words
from tournaments.models import Announcement, Tournament

RECENT_DAYS = 92
AHEAD_DAYS = 730
LIMIT = 1000


def calendar_tournaments(*, today: date) -> list[Tournament]:
    return list(
        Tournament.objects.filter(end_date__gte=today - timedelta(days=RECENT_DAYS),
                                  start_date__lte=today + timedelta(days=AHEAD_DAYS))
        .select_related("country", "system", "announcement").order_by("start_date", "id")[:LIMIT])


def calendar_feed(*, today: date, host: str, url_of: Callable[[Tournament], str],
                  country_name: Callable[[object], str]) -> bytes:
    """The feed's bytes. `url_of` gives a tournament's absolute address, `country_name` a country's name in the
    feed's language."""
    calendar = Calendar()
    calendar.add("prodid", "-//AdlG Federation//Tournament calendar//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", _("AdlG Federation tournaments"))
    calendar.add("x-published-ttl", "PT6H")
    for tournament in calendar_tournaments(today=today):
        calendar.add_component(_event(tournament, host=host, url=url_of(tournament),
                                      country=country_name(tournament.country)))
    return calendar.to_ical()


def _event(tournament: Tournament, *, host: str, url: str, country: str) -> Event:
    event = Event()
    event.add("uid", f"tournament-{tournament.pk}@{host}")
    stamp = tournament.created_at.astimezone(UTC) if tournament.created_at else datetime.now(UTC)
    try:
        announcement = tournament.announcement
    except Announcement.DoesNotExist:
        announcement = None
    if announcement is not None and announcement.updated_at:
        stamp = max(stamp, announcement.updated_at.astimezone(UTC))
    event.add("dtstamp", stamp)
    event.add("last-modified", stamp)
    event.add("dtstart", tournament.start_date)
    event.add("dtend", tournament.end_date + timedelta(days=1))
    event.add("summary", tournament.name)
    place = [tournament.city, country]
    if announcement is not None and announcement.venue:
        place.insert(0, announcement.venue)
    event.add("location", ", ".join(p for p in place if p))
    event.add("url", url)
    event.add("categories", [tournament.system.name])
    lines = [tournament.format or "", ngettext("%(count)s round", "%(count)s rounds", tournament.rounds)
             % {"count": tournament.rounds}]
    if announcement is not None:
        lines.append(_("games of %(duration)s") % {"duration": duration_words(announcement.game_minutes)})
    if tournament.referee_name:
        lines.append(_("Referee: %(name)s") % {"name": tournament.referee_name})
    event.add("description", " · ".join(line for line in lines if line) + f"\n{url}")
    event.add("status", "CONFIRMED")
    event.add("transp", "TRANSPARENT")
    return event
