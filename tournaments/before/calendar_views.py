"""The calendars' feeds (tournaments.before.calendar_feed): the calendar (/tournaments/calendar.ics), one tournament's
(/tournaments/<id>/calendar.ics), an account's personal feed at its secret address
(/tournaments/my-calendar/<secret>.ics), and the account's page of that address (made anew, shown once, or stopped).

A calendar app sends no Accept-Language and no cookie: a feed's words are in the language its link names
(``?lang=fr`` or ``en``), else the site's.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from players import permissions
from ratings.selectors import country_name
from tournaments.before.calendar_feed import (
    calendar_feed,
    calendar_link_new,
    calendar_link_revoke,
    calendar_link_user,
    personal_feed,
    tournament_feed,
)
from tournaments.models import Tournament


def feed_language(request) -> str:
    """The language a feed's link names, else the site's."""
    asked = request.GET.get("lang", "")
    return asked if asked in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _feed(data: bytes, *, name: str, private: bool = False) -> HttpResponse:
    response = HttpResponse(data, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    response["Cache-Control"] = "private, max-age=900" if private else "public, max-age=3600"
    if private:
        response["X-Robots-Tag"] = "noindex"
    return response


def _host(request) -> str:
    return request.get_host().split(":")[0]


def _page_of(request):
    return lambda t: request.build_absolute_uri(reverse("tournament_detail", args=[t.pk]))


@require_GET
def calendar_ics(request):
    language = feed_language(request)
    with translation.override(language):
        data = calendar_feed(today=timezone.localdate(), host=_host(request), url_of=_page_of(request),
                             country_name=lambda country: country_name(country, language))
    return _feed(data, name="adlg-tournaments.ics")


@require_GET
def tournament_ics(request, tournament_id: int):
    tournament = get_object_or_404(Tournament.objects.select_related("country", "system"), pk=tournament_id)
    language = feed_language(request)
    with translation.override(language):
        data = tournament_feed(tournament=tournament, host=_host(request), url=_page_of(request)(tournament),
                               country=country_name(tournament.country, language))
    return _feed(data, name=f"adlg-tournament-{tournament.pk}.ics")


@require_GET
def my_calendar_ics(request, secret: str):
    user = calendar_link_user(secret=secret)
    if user is None:
        raise Http404
    language = feed_language(request)
    with translation.override(language):
        data = personal_feed(
            user=user, today=timezone.localdate(), host=_host(request), url_of=_page_of(request),
            entry_url_of=lambda t: request.build_absolute_uri(reverse("entry_page", args=[t.pk])),
            country_name=lambda country: country_name(country, language))
    return _feed(data, name="adlg-my-tournaments.ics", private=True)


@permissions.rule_required(permissions.is_signed_in)
@require_POST
def my_calendar_link(request):
    """From the account page: a new secret address for the personal feed (shown once, on this answer only: it is
    stored nowhere), or the address stopped."""
    if request.POST.get("action") == "revoke":
        if calendar_link_revoke(user=request.user):
            messages.success(request, _("Your calendar link is stopped: calendars that use it no longer update."))
        return redirect("account")
    secret = calendar_link_new(user=request.user)
    links = [(code, name, request.build_absolute_uri(reverse("my_calendar_ics", args=[secret])) + f"?lang={code}")
             for code, name in settings.LANGUAGES]
    current = translation.get_language()
    links.sort(key=lambda link: link[0] != current)  # the page's language first
    response = render(request, "account/calendar_link.html", {"links": links})
    response["Cache-Control"] = "no-store"
    return response
