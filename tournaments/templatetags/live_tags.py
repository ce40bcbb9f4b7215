"""The hidden fields of every form of the referee's tournament day: a new action key each time the page is shown,
and the version of the tournament the page shows (tournaments.live.page_tools.one_effect); an entrant's private link;
the round clock of a page that has the live run (`{% live_clock live %}`)."""

from __future__ import annotations

import uuid

from django import template
from django.utils.html import format_html

from tournaments.live.hall_parts import clock_shared
from tournaments.live.links import entrant_link_path
from tournaments.live.page_tools import ACTION_FIELD, SEEN_FIELD

register = template.Library()


@register.simple_tag
def live_action_fields(live) -> str:
    return format_html('<input type="hidden" name="{}" value="{}"><input type="hidden" name="{}" value="{}">',
                       ACTION_FIELD, uuid.uuid4().hex, SEEN_FIELD, live.version)


@register.simple_tag(takes_context=True)
def private_link(context, entrant) -> str:
    """The entrant's private link as the referee copies it: the whole address (tournaments.live.links makes the
    path)."""
    return context["request"].build_absolute_uri(entrant_link_path(entrant))


@register.inclusion_tag("live/_clock.html")
def live_clock(live):
    """The current round's clock (templates/live/_clock.html) for a page that has the live run but not its clock."""
    return {"clock": clock_shared(live) if live.published_at is None and live.handed_over_at is None else None,
            "live": live}
