"""The tournaments in players' calendars: iCalendar feeds (RFC 5545) a phone or a desktop calendar subscribes to or
imports, written by the `icalendar` library, in the language of the link (a calendar app sends no Accept-Language).

Terms
-----
the calendar
    The tournaments ending at most RECENT_DAYS ago and starting at most AHEAD_DAYS ahead, in start order, at most
    LIMIT: what a calendar needs to show what is coming and what just happened. Its feed is public
    (/tournaments/calendar.ics); so is one tournament's (/tournaments/<id>/calendar.ics, "add to my calendar").
a personal feed
    An account's entered tournaments of the calendar's window, with the army list's deadline of each, at a secret
    address (/tournaments/my-calendar/<secret>.ics) a calendar app polls without signing in (CalendarLink: only
    the secret's SHA-256 digest is kept; the address is shown once; a new one stops the old; revoked at will).
tournament event
    UID ``tournament-<id>@<host>``. Timed, in the site's time zone (Europe/Paris, with its VTIMEZONE), when the
    announcement gives a start time: from the start time of the first day to the end of the last day (the
    schedule's last line, rules.schedule; else midnight). All-day otherwise, with an exclusive DTEND (the day after
    the last day, as RFC 5545 wants). The name as SUMMARY; the venue, city and country as LOCATION; the
    tournament's page as URL; format, rounds, games' duration, referee and the day's schedule in DESCRIPTION.
closing of entries
    UID ``tournament-<id>-entries@<host>``, in the public feeds: the all-day event of the lists' deadline, the
    last day to enter (tournaments.before.entries: entries close with the deadline), with a reminder (VALARM).
list deadline
    UID ``tournament-<id>-list@<host>``, in a personal feed: the same day, said to the entered player: the last
    day to send their army list, with a reminder.
reminder
    A VALARM shown at 09:00 three days before the day (as the site's reminder email), in the player's calendar.

Every UID is stable: a calendar updates its events when a tournament changes, and never doubles them.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from icalendar import Alarm, Calendar, Event

from rules.charter import LATE_LIST_PENALTY, duration_words
from rules.schedule import day_end, schedule_read
from tournaments.models import Announcement, CalendarLink, Entry, Tournament

RECENT_DAYS = 92
AHEAD_DAYS = 730
LIMIT = 1000
REMINDER = -timedelta(days=2, hours=15)  # from the day's midnight: 09:00 three days before


def calendar_tournaments(*, today: date) -> list[Tournament]:
    return list(
        Tournament.objects.filter(end_date__gte=today - timedelta(days=RECENT_DAYS),
                                  start_date__lte=today + timedelta(days=AHEAD_DAYS))
        .select_related("country", "system", "announcement").order_by("start_date", "id")[:LIMIT])


def calendar_feed(*, today: date, host: str, url_of: Callable[[Tournament], str],
                  country_name: Callable[[object], str]) -> bytes:
    """The calendar's feed. `url_of` gives a tournament's absolute address, `country_name` a country's name in the
    feed's language."""
    calendar = _calendar(_("AdlG Federation tournaments"))
    for tournament in calendar_tournaments(today=today):
        _add_tournament(calendar, tournament, host=host, url=url_of(tournament),
                        country=country_name(tournament.country))
    return _bytes(calendar)


def tournament_feed(*, tournament: Tournament, host: str, url: str, country: str) -> bytes:
    """One tournament's feed: its event and the closing of its entries."""
    calendar = _calendar(tournament.name)
    _add_tournament(calendar, tournament, host=host, url=url, country=country)
    return _bytes(calendar)


def personal_feed(*, user, today: date, host: str, url_of: Callable[[Tournament], str],
                  entry_url_of: Callable[[Tournament], str], country_name: Callable[[object], str]) -> bytes:
    """An account's feed: its entered tournaments in the calendar's window, each with its list deadline."""
    calendar = _calendar(_("My AdlG tournaments"))
    entries = (Entry.objects.filter(player__user=user, status=Entry.ENTERED,
                                    tournament__end_date__gte=today - timedelta(days=RECENT_DAYS),
                                    tournament__start_date__lte=today + timedelta(days=AHEAD_DAYS))
               .select_related("tournament__country", "tournament__system", "tournament__announcement")
               .order_by("tournament__start_date", "tournament_id")[:LIMIT])
    for entry in entries:
        tournament = entry.tournament
        announcement = _announcement(tournament)
        calendar.add_component(_tournament_event(tournament, announcement, host=host, url=url_of(tournament),
                                                 country=country_name(tournament.country)))
        if announcement is not None:
            calendar.add_component(_day_event(
                tournament, announcement, uid=f"tournament-{tournament.pk}-list@{host}", url=entry_url_of(tournament),
                summary=_("Army list due: %(name)s") % {"name": tournament.name},
                description=_("Last day to send your army list for %(name)s. A first list sent later is late: "
                              "%(points)s points off your tournament score (charter App. 7 §2).")
                % {"name": tournament.name, "points": LATE_LIST_PENALTY}))
    return _bytes(calendar)


# --- the personal feed's secret link -----------------------------------------------------------------------------


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def calendar_link_new(*, user) -> str:
    """A new secret address for `user`'s personal feed, replacing any older one (which stops at once). Returns the
    secret, which is stored nowhere: show it to the person now."""
    secret = secrets.token_urlsafe(24)
    with transaction.atomic():
        CalendarLink.objects.update_or_create(user=user, defaults={"digest": _digest(secret)})
    return secret


def calendar_link_revoke(*, user) -> bool:
    """Stop `user`'s personal feed; whether there was one."""
    deleted, _rows = CalendarLink.objects.filter(user=user).delete()
    return bool(deleted)


def calendar_link_user(*, secret: str):
    """The active account whose personal feed this secret opens, or None."""
    if not secret or len(secret) > 100:
        return None
    link = CalendarLink.objects.filter(digest=_digest(secret), user__is_active=True).select_related("user").first()
    return link.user if link else None


# --- the events ----------------------------------------------------------------------------------------------


def _zone() -> ZoneInfo:
    # The hall's time: the federation's tournaments are dated in the site's zone (Europe/Paris).
    return ZoneInfo(settings.TIME_ZONE)


def _calendar(name: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", "-//AdlG Federation//Tournament calendar//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", settings.TIME_ZONE)
    calendar.add("x-published-ttl", "PT6H")
    return calendar


def _bytes(calendar: Calendar) -> bytes:
    calendar.add_missing_timezones()  # a VTIMEZONE for each zone a timed event names
    return calendar.to_ical()


def _announcement(tournament: Tournament) -> Announcement | None:
    try:
        return tournament.announcement
    except Announcement.DoesNotExist:
        return None


def _add_tournament(calendar: Calendar, tournament: Tournament, *, host: str, url: str, country: str) -> None:
    announcement = _announcement(tournament)
    calendar.add_component(_tournament_event(tournament, announcement, host=host, url=url, country=country))
    if announcement is not None:
        calendar.add_component(_day_event(
            tournament, announcement, uid=f"tournament-{tournament.pk}-entries@{host}", url=url,
            summary=_("Entries close: %(name)s") % {"name": tournament.name},
            description=_("Last day to enter %(name)s, and to send the army lists.") % {"name": tournament.name}))


def _stamp(tournament: Tournament, announcement: Announcement | None) -> datetime:
    stamp = tournament.created_at.astimezone(UTC) if tournament.created_at else datetime.now(UTC)
    if announcement is not None and announcement.updated_at:
        stamp = max(stamp, announcement.updated_at.astimezone(UTC))
    return stamp


def _tournament_event(tournament: Tournament, announcement: Announcement | None, *, host: str, url: str,
                      country: str) -> Event:
    event = Event()
    event.add("uid", f"tournament-{tournament.pk}@{host}")
    stamp = _stamp(tournament, announcement)
    event.add("dtstamp", stamp)
    event.add("last-modified", stamp)
    start = announcement.start_time if announcement is not None else None
    if start is not None:
        zone = _zone()
        end = day_end(start=start, text=announcement.schedule)
        event.add("dtstart", datetime.combine(tournament.start_date, start, tzinfo=zone))
        event.add("dtend", datetime.combine(tournament.end_date, end, tzinfo=zone) if end else
                  datetime.combine(tournament.end_date + timedelta(days=1), time(0), tzinfo=zone))
    else:
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
    text = " · ".join(line for line in lines if line)
    schedule = _schedule(announcement)
    if schedule:
        text += "\n\n" + "\n".join(schedule)
    event.add("description", f"{text}\n\n{url}")
    event.add("status", "CONFIRMED")
    event.add("transp", "OPAQUE" if start is not None else "TRANSPARENT")
    return event


def _schedule(announcement: Announcement | None) -> Iterable[str]:
    if announcement is None or not announcement.schedule:
        return []
    lines, failures = schedule_read(announcement.schedule)
    return [] if failures else [str(line) for line in lines]


def _day_event(tournament: Tournament, announcement: Announcement, *, uid: str, url: str, summary: str,
               description: str) -> Event:
    """An all-day event on the lists' deadline, with its reminder."""
    event = Event()
    event.add("uid", uid)
    stamp = _stamp(tournament, announcement)
    event.add("dtstamp", stamp)
    event.add("last-modified", stamp)
    event.add("dtstart", announcement.list_deadline)
    event.add("dtend", announcement.list_deadline + timedelta(days=1))
    event.add("summary", summary)
    event.add("description", f"{description}\n\n{url}")
    event.add("url", url)
    event.add("transp", "TRANSPARENT")
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", summary)
    alarm.add("trigger", REMINDER)
    event.add_component(alarm)
    return event
