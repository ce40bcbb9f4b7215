"""The round clock of the tournament day (tournaments.live.clock): started with the charter's game time for the
army points or the minutes the referee typed, paused, resumed, extended; each change audited, once per action key,
bumping the version the live pages poll; refusals that change nothing; every live page shows it at the server's
time, and the big screen shows the players by name and the standings."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from players.models import AuditEntry
from rules.clock import ClockRefused
from tests.live.helpers import federation_players, live_tournament
from tournaments.live import clock as clocks
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.models import Announcement, LiveClock, LiveTable, LiveTournament

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


@pytest.fixture
def server_time(monkeypatch):
    """The server's time, set by the test (tournaments.live.clock.clock_now)."""
    now = {"at": T0}
    monkeypatch.setattr(clocks, "clock_now", lambda: now["at"])

    def move(**delta):
        now["at"] = T0 + timedelta(**delta)

    return move


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(9))
    live.tournament.army_points = 100
    live.tournament.save(update_fields=["army_points"])
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, pool="A", seed=7))
    return LiveTournament.objects.get(pk=live.pk)


def _fields(html: str, action: str, do: str) -> dict[str, str]:
    """The hidden fields of the page's clock form posting `do` to `action`: what a browser would send."""
    for form in re.findall(r'<form method="post" action="' + re.escape(action) + r'"[^>]*>(.*?)</form>', html, re.S):
        if f'value="{do}"' in form:
            fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
            return {**fields, "do": do}
    raise AssertionError(f"no form to {action} doing {do}")


# --- the services


def test_a_clock_starts_with_the_charter_game_time_of_the_army_points_and_is_audited(live, server_time):
    version = live.version
    clocks.clock_start(live, 1)
    row = LiveClock.objects.get(live=live, number=1)
    assert row.duration == timedelta(minutes=75) and row.started_at == T0
    assert AuditEntry.objects.get(action="live_clock_start").summary == \
        "round 1: clock started, game time 75 minutes"
    assert LiveTournament.objects.get(pk=live.pk).version == version + 1
    server_time(minutes=20)
    view = clocks.clock_view(live)
    assert (view.state, view.left_seconds, view.deployment_over) == ("running", 55 * 60, True)


def test_the_game_time_the_announcement_gave_comes_before_the_charter(live, server_time):
    Announcement.objects.create(tournament=live.tournament, game_minutes=140, list_deadline=date(2026, 11, 14),
                                first_round="draw")
    assert (clocks.clock_view(live).minutes, clocks.clock_view(live).source) == (140, "announced")
    clocks.clock_start(live, 1)
    assert LiveClock.objects.get(live=live).duration == timedelta(minutes=140)


def test_minutes_typed_at_the_start_replace_the_charter_time(live, server_time):
    clocks.clock_start(live, 1, minutes=100)
    assert LiveClock.objects.get(live=live).duration == timedelta(minutes=100)


def test_pause_resume_and_extend_move_the_time_left_as_the_rules_say(live, server_time):
    clocks.clock_start(live, 1)
    server_time(minutes=10)
    clocks.clock_pause(live, 1)
    server_time(minutes=40)
    assert clocks.clock_view(live).left_seconds == 65 * 60
    assert clocks.clock_view(live).state == "paused"
    clocks.clock_resume(live, 1)
    clocks.clock_extend(live, 1, minutes=5)
    server_time(minutes=50)
    assert clocks.clock_view(live).left_seconds == 60 * 60
    assert [e.action for e in AuditEntry.objects.filter(action__startswith="live_clock").order_by("pk")] == \
        ["live_clock_start", "live_clock_pause", "live_clock_resume", "live_clock_extend"]


@pytest.mark.parametrize(("setup", "action", "code"), [
    (None, lambda live: clocks.clock_start(live, 2), "clock_round_not_published"),
    (None, lambda live: clocks.clock_pause(live, 1), "clock_not_started"),
    (None, lambda live: clocks.clock_start(live, 1, minutes=-5), "clock_minutes"),
    (None, lambda live: clocks.clock_set(live, 1, minutes=100_000), "clock_minutes"),
    ("start", lambda live: clocks.clock_start(live, 1), "clock_started"),
    ("start", lambda live: clocks.clock_resume(live, 1), "clock_not_paused"),
    ("start", lambda live: clocks.clock_extend(live, 1, minutes=0), "clock_extension"),
    ("start", lambda live: clocks.clock_extend(live, 1, minutes=1000), "clock_extension"),
])
def test_a_refused_change_changes_nothing_and_audits_nothing(live, server_time, setup, action, code):
    if setup:
        clocks.clock_start(live, 1)
    before = list(LiveClock.objects.values())
    audits = AuditEntry.objects.count()
    version = LiveTournament.objects.get(pk=live.pk).version
    with pytest.raises(ClockRefused) as refused:
        action(live)
    assert refused.value.code == code
    assert clocks.refusal_text(refused.value) != code  # worded for the referee
    assert list(LiveClock.objects.values()) == before
    assert AuditEntry.objects.count() == audits
    assert LiveTournament.objects.get(pk=live.pk).version == version


def test_no_clock_before_round_1_is_published(referee):
    live = live_tournament(federation_players(8))
    assert clocks.clock_view(live) is None


# --- the referee's controls


def test_the_referee_starts_the_clock_from_the_results_page_once_whatever_the_clicks(signed_in, live, server_time):
    page = reverse("referee:live_results", args=[live.pk, 1])
    url = reverse("referee:live_clock", args=[live.pk, 1])
    html = signed_in.get(page).content.decode()
    assert "The clock of round 1" in html and "The charter's game time for 100 army points." in html
    assert 'value="75"' in html and reverse("live_screen", args=[live.pk]) in html
    fields = {**_fields(html, url, "start"), "minutes": "75"}
    first = signed_in.post(url, fields)
    second = signed_in.post(url, fields, follow=True)
    assert first.status_code == 302 and first["Location"].endswith("#clock")
    assert "Already done: this form was sent twice" in second.content.decode()
    assert AuditEntry.objects.filter(action="live_clock_start").count() == 1
    server_time(minutes=5)
    html = signed_in.get(page).content.decode()
    assert 'data-left="4200"' in html and "1:10:00" in html
    assert "Pause" in html and "+5 min" in html


def test_the_controls_pause_resume_and_extend(signed_in, live, server_time):
    clocks.clock_start(live, 1)
    page = reverse("referee:live_results", args=[live.pk, 1])
    url = reverse("referee:live_clock", args=[live.pk, 1])
    signed_in.post(url, _fields(signed_in.get(page).content.decode(), url, "pause"))
    assert LiveClock.objects.get(live=live).paused_at == T0
    html = signed_in.get(page).content.decode()
    assert "Paused" in html
    signed_in.post(url, _fields(html, url, "resume"))
    plus_five = _fields(signed_in.get(page).content.decode(), url, "extend")
    signed_in.post(url, {**plus_five, "minutes": "5"})
    row = LiveClock.objects.get(live=live)
    assert row.paused_at is None and row.extended == timedelta(minutes=5)


def test_a_reset_needs_a_confirmation_then_puts_the_clock_back_to_its_start(signed_in, live, server_time):
    clocks.clock_start(live, 1)
    url = reverse("referee:live_clock", args=[live.pk, 1])
    page = reverse("referee:live_results", args=[live.pk, 1])
    fields = _fields(signed_in.get(page).content.decode(), url, "reset")
    refused = signed_in.post(url, fields)
    assert refused.status_code == 400 and "Tick the box to confirm" in refused.content.decode()
    assert LiveClock.objects.get(live=live).started_at == T0
    signed_in.post(url, {**fields, "confirm": "on"})
    row = LiveClock.objects.get(live=live)
    assert row.started_at is None and row.duration == timedelta(minutes=75)
    assert AuditEntry.objects.filter(action="live_clock_reset").count() == 1


@pytest.mark.parametrize(("sent", "message"), [
    ({"do": "start", "minutes": "-10"}, "Type the minutes as a whole number."),
    ({"do": "start", "minutes": "abc"}, "Type the minutes as a whole number."),
    ({"do": "start", "minutes": "5"}, "A game time is between 10 and 360 minutes (5 typed)."),
    ({"do": "set", "minutes": "9999"}, "A game time is between 10 and 360 minutes (9999 typed)."),
    ({"do": "extend", "minutes": "5"}, "This round&#x27;s clock has not started yet."),
    ({"do": "explode"}, "Choose what to do with the clock."),
])
def test_bad_input_is_refused_with_a_message_and_changes_nothing(signed_in, live, sent, message):
    response = signed_in.post(reverse("referee:live_clock", args=[live.pk, 1]), sent)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not LiveClock.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="live_clock").exists()


def test_the_game_time_is_set_before_the_start_and_shown(signed_in, live):
    signed_in.post(reverse("referee:live_clock", args=[live.pk, 1]), {"do": "set", "minutes": "90"})
    html = signed_in.get(reverse("referee:live_results", args=[live.pk, 1])).content.decode()
    assert "Not started yet: 90 minutes of game time." in html
    assert "Changed from the planned game time: announce it to every player." in html


def test_a_round_beyond_the_tournament_is_not_found(signed_in, live):
    assert signed_in.post(reverse("referee:live_clock", args=[live.pk, 9]), {"do": "start"}).status_code == 404


def test_another_account_cannot_touch_the_clock(client, other_referee, live):
    client.force_login(other_referee)
    response = client.post(reverse("referee:live_clock", args=[live.pk, 1]), {"do": "start"})
    assert response.status_code in (302, 403)
    assert not LiveClock.objects.exists()


# --- what every live page shows


def test_every_live_page_shows_the_clock_at_the_server_time(client, signed_in, live, server_time):
    clocks.clock_start(live, 1)
    server_time(minutes=50)  # 25 minutes left of 75: the 30-minute announcement is due, not the 15
    public = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert 'data-left="1500"' in public and "25:00" in public
    banner = re.search(r"data-clock-banner>(.*?)</p>", public, re.S).group(1)
    assert "End of game time in 30 minutes." in banner and "15 minutes" not in banner
    assert "Deployment is over." in public
    for name in ("referee:live_run", "referee:live_players"):
        assert 'data-left="1500"' in signed_in.get(reverse(name, args=[live.pk])).content.decode()
    rounds_page = signed_in.get(reverse("referee:live_run", args=[live.pk])).content.decode()
    assert reverse("live_screen", args=[live.pk]) in rounds_page  # "Open the big screen"
    face = client.get(reverse("live_clock_face", args=[live.pk]))
    assert face["Cache-Control"] == "no-store" and 'data-left="1500"' in face.content.decode()
    server_time(minutes=80)
    face = client.get(reverse("live_clock_face", args=[live.pk])).content.decode()
    assert "0:00" in face and 'data-left="-300"' in face
    assert "End of game time: the game stops at the end of the defender" in face


def test_the_clock_face_of_a_tournament_not_run_live_is_not_found(client):
    assert client.get(reverse("live_clock_face", args=[987654])).status_code == 404


# --- the big screen


def test_the_big_screen_lists_every_player_alphabetically_with_table_and_opponent(client, live, server_time):
    html = client.get(reverse("live_screen", args=[live.pk])).content.decode()
    names = re.findall(r'<span class="screen-name"><strong>([^<]+)</strong>', html)
    assert len(names) == 9 and names == sorted(names)
    assert "<a " not in html.split("<body", 1)[1] and "<button" not in html
    assert "Round 1 of 3: your table" in html


def test_the_big_screen_part_answers_304_until_a_result_changes_it(client, live):
    url = reverse("live_screen_now", args=[live.pk])
    first = client.get(url)
    assert first.status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    table = LiveTable.objects.filter(round__live=live, b__isnull=False).first()
    results_record(live, 1, [Result(table.table, "A", 10, 40)])
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]


def test_the_big_screen_reads_as_many_queries_for_16_players_as_for_40(client):
    counts = []
    for n, players in enumerate((16, 40)):
        live = live_tournament(federation_players(players, first_id=3001 + 100 * n), rounds=5, name=f"Open {n}")
        round_publish(round_pair(live, pool="A", seed=3))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("live_screen", args=[live.pk])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 15


def test_the_clock_speaks_french_to_a_french_reader(client, signed_in, live, server_time):
    clocks.clock_start(live, 1)
    server_time(minutes=62)  # 13 minutes left of 75
    client.cookies["django_language"] = "fr"
    face = client.get(reverse("live_clock_face", args=[live.pk])).content.decode()
    assert "Ronde 1\u00a0: temps de jeu" in face and "Fin du temps de jeu dans 15 minutes." in face
    assert "Le déploiement est terminé." in face
    signed_in.cookies["django_language"] = "fr"
    response = signed_in.post(reverse("referee:live_clock", args=[live.pk, 1]), {"do": "extend", "minutes": "500"})
    assert "Une prolongation va de 1 à 120 minutes (500 saisi)." in response.content.decode()


def test_a_published_tournament_shows_no_clock(client, live):
    clocks.clock_start(live, 1)
    LiveTournament.objects.filter(pk=live.pk).update(published_at=T0)
    assert "data-clock-box" not in client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert "data-clock" not in client.get(reverse("live_clock_face", args=[live.pk])).content.decode()


def test_a_round_over_shows_no_clock_while_the_next_is_paired_and_the_next_round_brings_its_own(
        client, signed_in, live, server_time):
    clocks.clock_start(live, 1)
    server_time(minutes=80)  # round 1's game time is over: 0:00, as the room last saw it
    tables = list(LiveTable.objects.filter(round__live=live, round__number=1).order_by("table"))
    results_record(live, 1, [Result(t.table, "A", 0, 100) if t.b_id is None else Result(t.table, "A", 10, 40)
                             for t in tables[:-1]])
    assert clocks.clock_view(live).number == 1  # one table still playing: round 1's clock stays
    last = tables[-1]
    results_record(live, 1, [Result(last.table, "A", 0, 100) if last.b_id is None else
                             Result(last.table, "A", 10, 40)])

    # Every table in: round 1 is over, and no page shows its clock while round 2 is paired.
    assert clocks.clock_view(live) is None
    round_2 = round_pair(live, pool="A")
    assert clocks.clock_view(live) is None
    for url in (reverse("live_clock_face", args=[live.pk]), reverse("live_screen", args=[live.pk]),
                reverse("live_page", args=[live.pk])):
        assert "data-clock-time" not in client.get(url).content.decode(), url
    results_page = signed_in.get(reverse("referee:live_results", args=[live.pk, 1])).content.decode()
    assert "data-clock-time" not in results_page and "Start the clock" not in results_page
    assert clocks.clock_view(live, number=1).state == "over"  # still there for whoever asks for round 1's

    # Round 2 published: its clock shows, ready to start.
    round_publish(round_2)
    shown = clocks.clock_view(live)
    assert (shown.number, shown.state, shown.started) == (2, "ready", False)
    assert "Round 2: game time" in client.get(reverse("live_clock_face", args=[live.pk])).content.decode()


@pytest.mark.parametrize(("lines", "columns"), [(8, 2), (23, 2), (28, 2), (29, 3), (51, 3), (64, 4), (128, 4)])
def test_the_big_screen_writes_a_small_field_bigger_and_a_large_one_in_more_columns(lines, columns):
    from tournaments.live.screen import density

    assert density(lines) == columns


def test_the_big_screen_counts_each_pool_title_as_a_line_of_its_standings():
    from tournaments.live.screen import Screen, ScreenStandings

    def standings(*sizes: int, several: bool) -> Screen:
        blocks = [ScreenStandings("ABCD"[n], 1, [None] * size) for n, size in enumerate(sizes)]
        return Screen([2], [], blocks, several_pools=several)

    assert standings(13, 13, several=True).standings_density == 2  # 26 lines and 2 titles: side by side
    assert standings(14, 13, several=True).standings_density == 3  # 27 and 2 titles: one more column
    assert standings(28, several=False).standings_density == 2  # one pool: no title


def test_the_big_screen_part_holds_the_pages_words_and_its_density(client, live):
    html = client.get(reverse("live_screen", args=[live.pk])).content.decode()
    assert "screen-density-2" in html and "data-screen-pages" in html
    assert 'data-page-words="Page {page}/{pages}"' in html
