"""The referee's pages of the day's players and of the start, with Django's client: what the referee does
on a phone, each refusal shown beside what caused it and changing nothing, every form acting once, and no answer
500 to anything a form or a URL can send. Then what the public sees of a live run, and where a sign-in lands."""

from __future__ import annotations

import random
import re
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from players.models import AuditEntry
from tests import factories
from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live.entrants import NewEntrant, entrant_add, entrant_move, entrant_withdraw
from tournaments.live.refusals import LiveRefused
from tournaments.live.rounds import round_pair, round_publish
from tournaments.models import LiveAction, LiveEntrant, LiveTournament, Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(6))
    live.tournament.referees.add(referee)
    return live


def _page(client, live, **query) -> str:
    response = client.get(reverse("referee:live_players", args=[live.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def _fields(html: str, action: str, nth: int = 0) -> dict[str, str]:
    """The hidden fields of the page's `nth` form posting to `action`: what a browser sends with it."""
    forms = re.findall(r'<form method="post" action="' + re.escape(action) + r'"[^>]*>(.*?)</form>', html, re.S)
    assert len(forms) > nth, f"no form to {action}"
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', forms[nth]))


def _post_twice(client, url, fields):
    first = client.post(url, fields)
    second = client.post(url, fields, follow=True)
    assert first.status_code == 302, first.content.decode()[:2000]
    assert "Already done: this form was sent twice" in second.content.decode()
    return first


# --- finding and adding


def test_a_player_found_without_his_accent_goes_into_the_pool_and_hat_chosen(signed_in, live):
    benoit = factories.player("Dupont", "Benoît", id=55)
    page = _page(signed_in, live, q="benoit", new_pool="B", hat="1")
    assert "Benoît" in page
    url = reverse("referee:live_add", args=[live.pk])
    fields = _fields(page, url)
    assert (fields["player"], fields["pool"], fields["hat"]) == ("55", "B", "1")
    response = _post_twice(signed_in, url, fields)
    assert response["Location"].endswith("?pool=B&hat=1#find")  # the next one goes where this one went
    entrant = LiveEntrant.objects.get(live=live, player=benoit)
    assert (entrant.pool, entrant.hat, entrant.present) == ("B", 1, True)
    assert AuditEntry.objects.filter(action="live_add_player").count() == 1


def test_a_wrong_country_is_told_beside_the_field_and_the_fixed_one_is_added(signed_in, live):
    """A real day's failure: "UK" was accepted all day and refused at publication."""
    url = reverse("referee:live_add", args=[live.pk])
    fields = _fields(_page(signed_in, live), url)
    data = {**fields, "last_name": "Smith", "first_name": "John", "country": "UK", "pool": "A"}
    response = signed_in.post(url, data)
    assert response.status_code == 400
    html = response.content.decode()
    field = re.search(r'<input type="text" name="country"[^>]*>\s*<p class="error" id="id_country-error">(.*?)</p>',
                      html, re.S)
    assert field is not None and "the United Kingdom is GB" in field.group(1)
    assert 'aria-invalid="true" aria-describedby="id_country-error"' in html
    assert not LiveEntrant.objects.filter(live=live, last_name="Smith").exists()
    fields = _fields(html, url)
    response = signed_in.post(url, {**data, **fields, "country": "GB"})
    assert response.status_code == 302
    assert LiveEntrant.objects.get(live=live, last_name="Smith").country == "GB"


def test_a_new_player_with_a_name_of_the_federation_shows_the_matches_first(signed_in, live):
    """A real day's failure: added as new, the publication created a duplicate (ID 363 beside 55)."""
    factories.player("Álvarez", "Benoît", id=55)
    url = reverse("referee:live_add", args=[live.pk])
    data = {**_fields(_page(signed_in, live), url), "last_name": "alvarez", "first_name": "Benoit", "pool": "A"}
    response = signed_in.post(url, data)
    html = response.content.decode()
    assert response.status_code == 200 and "Players of the federation named alvarez" in html
    assert "None of them: add Benoit alvarez as new" in html
    assert not LiveEntrant.objects.filter(live=live, player__isnull=True).exists()
    pick = _fields(html, url, nth=0)  # the first form: "this one", the known player
    assert pick["player"] == "55"
    assert signed_in.post(url, pick).status_code == 302
    assert LiveEntrant.objects.filter(live=live, player_id=55).exists()


def test_a_new_player_confirmed_new_is_added_as_new(signed_in, live):
    factories.player("Martin", "Paul", id=56)
    url = reverse("referee:live_add", args=[live.pk])
    data = {**_fields(_page(signed_in, live), url), "last_name": "Martin", "first_name": "Zoé", "country": "FR"}
    html = signed_in.post(url, data).content.decode()
    confirm = _fields(html, url, nth=1)  # the new player's form, after the match's
    response = signed_in.post(url, {**data, **confirm, "confirm_new": "on"})
    assert response.status_code == 302
    assert LiveEntrant.objects.get(live=live, player__isnull=True).first_name == "Zoé"


def test_a_typed_club_is_one_of_the_federation_and_a_new_one_only_when_confirmed(signed_in, live):
    factories.club("Les Dragons de Saint-Étienne")
    url = reverse("referee:live_add", args=[live.pk])
    page = _page(signed_in, live)
    assert '<option value="Les Dragons de Saint-Étienne">' in page  # the clubs to choose from
    data = {**_fields(page, url), "last_name": "Neuf", "first_name": "Jean", "country": "FR",
            "club": "Club Inconnu"}
    response = signed_in.post(url, data)
    html = response.content.decode()
    assert response.status_code == 400 and "No club of the federation is named “Club Inconnu”" in html
    assert 'name="new_club"' in html
    response = signed_in.post(url, {**data, **_fields(html, url), "new_club": "on"})
    assert response.status_code == 302
    data = {**_fields(_page(signed_in, live), url), "last_name": "Autre", "first_name": "Jean", "country": "FR",
            "club": "les dragons de saint-etienne"}
    assert signed_in.post(url, data).status_code == 302
    assert LiveEntrant.objects.get(live=live, last_name="Autre").club == "Les Dragons de Saint-Étienne"


def test_a_new_entrant_is_corrected_on_its_page_and_a_federation_player_is_not(signed_in, live):
    new = entrant_add(live, NewEntrant(last_name="Smtih", first_name="Jon", country="FR"))
    url = reverse("referee:live_edit", args=[live.pk, new.pk])
    page = _page(signed_in, live)
    assert url in page
    html = signed_in.get(url).content.decode()
    fields = _fields(html, url)
    response = signed_in.post(url, {**fields, "last_name": "Smith", "first_name": "John", "country": "U"})
    assert response.status_code == 400 and "id_country-error" in response.content.decode()
    _post_twice(signed_in, url, {**fields, "last_name": "Smith", "first_name": "John", "country": "GB"})
    new.refresh_from_db()
    assert (new.last_name, new.first_name, new.country) == ("Smith", "John", "GB")
    assert AuditEntry.objects.filter(action="live_edit_player").count() == 1
    known = live.entrants.filter(player__isnull=False).first()
    assert signed_in.get(reverse("referee:live_edit", args=[live.pk, known.pk])).status_code == 404


# --- moving, removing, checking in


def test_an_entrant_is_moved_to_another_pool_and_hat_once(signed_in, live):
    entrant = live.entrants.first()
    url = reverse("referee:live_move", args=[live.pk, entrant.pk])
    fields = _fields(_page(signed_in, live), url)
    _post_twice(signed_in, url, {**fields, "new_pool": "B", "hat": "2"})
    entrant.refresh_from_db()
    assert (entrant.pool, entrant.hat) == ("B", 2)
    assert AuditEntry.objects.filter(action="live_move_player").count() == 1


def test_a_player_added_by_mistake_is_removed_from_the_page_and_one_with_a_game_is_not(signed_in, live):
    mistake = entrant_add(live, NewEntrant(player=factories.player("Erreur", "Paul", id=77).pk))
    url = reverse("referee:live_remove", args=[live.pk, mistake.pk])
    _post_twice(signed_in, url, {**_fields(_page(signed_in, live), url), "confirm": "on"})
    assert not LiveEntrant.objects.filter(pk=mistake.pk).exists()
    assert "Erreur" not in _page(signed_in, live)
    play_round(live, 1, random.Random(1))
    played = live.entrants.first()
    url = reverse("referee:live_remove", args=[live.pk, played.pk])
    assert url not in _page(signed_in, live)  # not offered
    response = signed_in.post(url, {"confirm": "on"})
    assert response.status_code == 400 and "withdraw instead" in response.content.decode()
    assert LiveEntrant.objects.filter(pk=played.pk).exists()


def test_removing_a_player_asks_for_a_confirmation_and_without_it_nothing_changes(signed_in, live):
    mistake = entrant_add(live, NewEntrant(player=factories.player("Erreur", "Paul", id=77).pk))
    url = reverse("referee:live_remove", args=[live.pk, mistake.pk])
    page = _page(signed_in, live)
    form = re.search(r'<form method="post" action="' + re.escape(url) + r'"[^>]*>(.*?)</form>', page, re.S).group(1)
    assert '<input type="checkbox" name="confirm" required>' in form and "Yes, remove Paul Erreur" in form
    response = signed_in.post(url, _fields(page, url))  # the box not ticked
    assert response.status_code == 400 and "Tick “Yes, remove Paul Erreur”" in response.content.decode()
    assert LiveEntrant.objects.filter(pk=mistake.pk).exists()


def test_players_registered_in_the_calendar_are_checked_in_in_one_tap(signed_in, referee):
    players = federation_players(5)
    today = timezone.localdate()
    tournament = factories.tournament("Open du Pointage", start=today, end=today, rounds=3,
                                      status=Tournament.REGISTERED)
    tournament.referees.add(referee)
    for player in players:
        Registration.objects.create(tournament=tournament, player=player)
    page = signed_in.get(reverse("referee:live_start", args=[tournament.pk])).content.decode()
    assert "enter the tournament not checked in" in page
    response = signed_in.post(reverse("referee:live_start", args=[tournament.pk]), {"swiss": ""}, follow=True)
    html = response.content.decode()
    assert "check in the players who are here" in html and "5 not checked in" in html
    live = LiveTournament.objects.get(pk=tournament.pk)
    one = live.entrants.get(player=players[0])
    url = reverse("referee:live_present", args=[live.pk, one.pk])
    _post_twice(signed_in, url, _fields(html, url))
    assert LiveEntrant.objects.get(pk=one.pk).present
    everyone = reverse("referee:live_all_present", args=[live.pk])
    _post_twice(signed_in, everyone, _fields(_page(signed_in, live), everyone))
    assert live.entrants.filter(present=True).count() == 5
    assert "not checked in" not in _page(signed_in, live)
    url = reverse("referee:live_present", args=[live.pk, one.pk])
    fields = _fields(_page(signed_in, live), url)
    assert fields["present"] == ""  # the "not here" form
    signed_in.post(url, fields)
    assert not LiveEntrant.objects.get(pk=one.pk).present


def test_a_player_arriving_after_round_one_is_checked_in_as_a_late_player(signed_in, live):
    sleeper = entrant_add(live, NewEntrant(player=factories.player("Dormeur", "Paul", id=78).pk, present=False))
    play_round(live, 1, random.Random(3))
    page = _page(signed_in, live)
    assert "Here now (late)" in page
    url = reverse("referee:live_present", args=[live.pk, sleeper.pk])
    response = signed_in.post(url, _fields(page, url), follow=True)
    assert "a late player, paired from round 2" in response.content.decode()
    sleeper.refresh_from_db()
    assert (sleeper.present, sleeper.joined_round) == (True, 2)
    assert "late: from round 2" in _page(signed_in, live)


# --- the start


def test_run_it_live_is_not_offered_on_a_rated_tournament_and_its_start_is_refused(signed_in, referee):
    """A real day's failure: "Run it live" was offered for a rated tournament."""
    rated = factories.rated_tournament(federation_players(4), name="Rated Open").tournament
    rated.referees.add(referee)
    page = signed_in.get(reverse("referee:live_home")).content.decode()
    assert "Rated Open" not in page or reverse("referee:live_start", args=[rated.pk]) not in page
    home = signed_in.get(reverse("referee:home")).content.decode()
    assert reverse("referee:live_start", args=[rated.pk]) not in home
    page = signed_in.get(reverse("referee:live_start", args=[rated.pk])).content.decode()
    assert "The results of Rated Open are on the site" in page and "Start the tournament" not in page
    response = signed_in.post(reverse("referee:live_start", args=[rated.pk]), {"swiss": ""})
    assert response.status_code == 400
    assert not LiveTournament.objects.exists()


def test_a_tournament_dated_another_day_starts_once_its_real_dates_are_confirmed(signed_in, referee):
    today = timezone.localdate()
    tournament = factories.tournament("Open du Futur", start=today + timedelta(days=20),
                                      end=today + timedelta(days=21), rounds=5, status=Tournament.REGISTERED)
    tournament.referees.add(referee)
    url = reverse("referee:live_start", args=[tournament.pk])
    page = signed_in.get(url).content.decode()
    assert "Its real dates and rounds" in page and 'type="date"' in page
    response = signed_in.post(url, {"swiss": "", "start_date": (today + timedelta(days=1)).isoformat(),
                                     "end_date": (today + timedelta(days=1)).isoformat(), "rounds": "5"})
    assert response.status_code == 400 and "is after today" in response.content.decode()
    response = signed_in.post(url, {"swiss": "", "start_date": "²", "end_date": "", "rounds": "x"})
    assert response.status_code == 400
    assert not LiveTournament.objects.exists()
    response = signed_in.post(url, {"swiss": "", "start_date": today.isoformat(), "end_date": today.isoformat(),
                                     "rounds": "4"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.start_date, tournament.rounds) == (today, 4)
    assert AuditEntry.objects.filter(action="tournament_dates").count() == 1
    assert signed_in.post(url, {"swiss": ""}).status_code == 302  # sent again: goes on to the run


def test_the_referees_list_puts_the_running_tournament_first(signed_in, referee, live):
    today = timezone.localdate()
    later = factories.tournament("Open à venir", start=today + timedelta(days=9), end=today + timedelta(days=9),
                                 status=Tournament.REGISTERED)
    later.referees.add(referee)
    page = signed_in.get(reverse("referee:live_home")).content.decode()
    assert page.index(live.tournament.name) < page.index("Open à venir")
    assert reverse("referee:live_cancel", args=[live.pk]) in page


# --- cancelling


def test_a_start_is_cancelled_after_a_confirmation_and_its_public_page_no_longer_says_live(client, signed_in, live):
    tournament_page = reverse("tournament_detail", args=[live.pk])
    assert "Follow the tournament live" in client.get(tournament_page).content.decode()
    url = reverse("referee:live_cancel", args=[live.pk])
    html = signed_in.get(url).content.decode()
    fields = _fields(html, url)
    response = signed_in.post(url, fields)  # the box not ticked
    assert response.status_code == 400 and LiveTournament.objects.filter(pk=live.pk).exists()
    fields = _fields(response.content.decode(), url)
    response = signed_in.post(url, {**fields, "confirm": "on"})
    assert response.status_code == 302 and response["Location"] == reverse("referee:live_home")
    assert not LiveTournament.objects.filter(pk=live.pk).exists()
    again = signed_in.post(url, {**fields, "confirm": "on"})  # sent twice: nothing more, no error
    assert again.status_code == 302
    assert AuditEntry.objects.filter(action="live_cancel").count() == 1
    public = signed_in.get(tournament_page).content.decode()
    assert "Follow the tournament live" not in public and "live now" not in public
    assert client.get(reverse("live_page", args=[live.pk])).status_code == 404


def test_a_live_run_with_a_published_round_is_not_cancelled(signed_in, live):
    round_publish(round_pair(live, method="draw", seed=1))
    url = reverse("referee:live_cancel", args=[live.pk])
    page = signed_in.get(url).content.decode()
    assert "can no longer be cancelled" in page
    assert url not in _page(signed_in, live)
    response = signed_in.post(url, {"confirm": "on"})
    assert response.status_code == 400 and LiveTournament.objects.filter(pk=live.pk).exists()


# --- what the public sees


def test_a_live_tournament_is_live_on_the_home_page_the_list_and_its_page(client):
    live = live_tournament(federation_players(4), start=timezone.localdate(), name="Open du Jour")
    stale = live_tournament(federation_players(4, first_id=3001), start=timezone.localdate() - timedelta(days=9),
                            name="Open Oublié")  # never published: not on the home page for ever
    home = client.get("/").content.decode()
    assert "Open Oublié" not in home and reverse("live_page", args=[stale.pk]) not in home
    assert "Tournament running now" in home and reverse("live_page", args=[live.pk]) in home
    listing = client.get(reverse("tournament_list")).content.decode()
    assert "live now" in listing and reverse("live_page", args=[live.pk]) in listing
    detail = client.get(reverse("tournament_detail", args=[live.pk])).content.decode()
    assert "live now" in detail and reverse("live_page", args=[live.pk]) in detail


def test_a_withdrawn_player_is_marked_in_the_standings_and_on_the_players_page(client, signed_in, live):
    play_round(live, 1, random.Random(2))
    entrant = live.entrants.first()
    entrant_withdraw(live, entrant, from_round=2)
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    standings = page[page.index("Standings after round 1"):]
    assert "withdrawn from round 2" in standings
    assert "withdrawn from round 2" in _page(signed_in, live)


# --- signing in


@pytest.mark.parametrize(("next_url", "lands"), [("", "live_home"), ("/", "live_home"), ("/referee/", "/referee/")])
def test_a_referee_lands_on_the_tournament_day_unless_sent_from_one_of_their_pages(client, referee, live, next_url,
                                                                                   lands):
    response = client.post(reverse("login") + (f"?next={next_url}" if next_url else ""),
                           {"login": "referee", "password": "referee-pass-123"})
    expected = reverse("referee:live_home") if lands == "live_home" else lands
    assert response.status_code == 302 and response["Location"] == expected


def test_a_player_lands_where_they_were(client, player_user):
    page = client.get(reverse("rating_list", args=["adlg"])).content.decode()
    assert "/accounts/login/?next=/ratings/adlg/" in page
    response = client.post(reverse("login") + "?next=/ratings/adlg/",
                           {"login": "player", "password": "player-pass-123"})
    assert response["Location"] == "/ratings/adlg/"


# --- never a 500


HOSTILE = ["²", "\x00", "9" * 40, "-1", "x" * 10_000, "", "=1+1"]


def test_no_form_or_url_of_the_players_pages_answers_500(signed_in, live):
    new = entrant_add(live, NewEntrant(last_name="Nouveau", first_name="Jean", country="FR"))
    entrant = live.entrants.filter(player__isnull=False).first()
    pk = live.pk
    posts = [reverse("referee:live_add", args=[pk]), reverse("referee:live_move", args=[pk, entrant.pk]),
             reverse("referee:live_present", args=[pk, entrant.pk]), reverse("referee:live_all_present", args=[pk]),
             reverse("referee:live_withdraw", args=[pk]), reverse("referee:live_edit", args=[pk, new.pk]),
             reverse("referee:live_cancel", args=[pk]), reverse("referee:live_start", args=[pk])]
    fields = ("player", "last_name", "first_name", "club", "country", "pool", "hat", "present", "entrant",
              "from_round", "confirm", "new_club", "confirm_new", "action_key", "seen", "start_date", "rounds")
    for value in HOSTILE:
        for url in posts:
            response = signed_in.post(url, {name: value for name in fields})
            assert response.status_code < 500, (url, value[:10])
        # a NUL is refused whole by the site (adlg_site.middleware), anything else shows the page
        assert signed_in.get(reverse("referee:live_players", args=[pk]),
                             {"q": value, "pool": value, "hat": value}).status_code == (400 if "\x00" in value else 200)
    for url in (f"/referee/live/{pk}/players/99999999999999999999/remove/",
                f"/referee/live/{pk}/players/99999999999999999999/edit/",
                f"/referee/live/{pk}/players/0/move/", f"/referee/live/{'9' * 30}/players/"):
        assert signed_in.post(url, {}).status_code in (302, 400, 403, 404, 405), url
        assert signed_in.get(url).status_code in (302, 403, 404, 405), url
    assert LiveEntrant.objects.filter(pk=entrant.pk).exists()


def test_the_players_page_in_french(signed_in, live):
    entrant_add(live, NewEntrant(player=factories.player("Absent", "Paul", id=79).pk, present=False))
    signed_in.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    page = _page(signed_in, live)
    assert "Ajouter un joueur de la fédération" in page and "Tout le monde est là" in page
    assert "pas pointé" in page
    url = reverse("referee:live_add", args=[live.pk])
    html = signed_in.post(url, {**_fields(page, url), "last_name": "Smith", "first_name": "John",
                                "country": "UK"}).content.decode()
    assert "le Royaume-Uni est GB" in html


def test_every_post_of_the_players_pages_records_its_action_once(signed_in, live):
    """A form of these pages sent twice acts once: each records its key (page_tools.one_effect)."""
    entrant = live.entrants.first()
    url = reverse("referee:live_move", args=[live.pk, entrant.pk])
    fields = _fields(_page(signed_in, live), url)
    signed_in.post(url, {**fields, "new_pool": "C"})
    assert LiveAction.objects.filter(live=live, key=fields["action_key"]).exists()


def test_dates_in_the_calendar_are_shown_in_the_start_page_language(signed_in, referee):
    tournament = factories.tournament("Open", start=date(2020, 1, 4), end=date(2020, 1, 4), rounds=3,
                                      status=Tournament.REGISTERED)
    tournament.referees.add(referee)
    signed_in.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    page = signed_in.get(reverse("referee:live_start", args=[tournament.pk])).content.decode()
    assert "Ses vraies dates et rondes" in page


# --- pools: chosen from the tournament's, a new one only on purpose, capitals aside


def test_the_players_page_offers_the_tournaments_pools_in_a_list_and_a_new_pool_apart(signed_in, live):
    page = _page(signed_in, live)
    assert re.search(r'<select id="pool-choice-new" name="pool"><option value="A" selected>A</option></select>', page)
    assert 'id="new-pool-new" name="new_pool"' in page and "or a new pool named" in page
    assert 'list="pool-names"' not in page  # no free text pool any more


def test_a_late_player_typed_into_pool_b_in_lower_case_joins_pool_b(signed_in, live):
    entrant_move(live, live.entrants.order_by("pk")[0], pool="B")
    url = reverse("referee:live_add", args=[live.pk])
    data = {**_fields(_page(signed_in, live), url), "last_name": "Martin", "first_name": "Léa", "country": "FR",
            "new_pool": "b"}
    assert signed_in.post(url, data).status_code == 302
    assert sorted(set(live.entrants.values_list("pool", flat=True))) == ["A", "B"]
    assert live.entrants.get(last_name="Martin").pool == "B"


def test_a_pool_from_the_list_that_is_not_the_tournaments_is_refused_and_nothing_added(signed_in, live):
    url = reverse("referee:live_add", args=[live.pk])
    data = {**_fields(_page(signed_in, live), url), "last_name": "Martin", "first_name": "Léa", "country": "FR",
            "pool": "Z"}
    response = signed_in.post(url, data)
    assert response.status_code == 400
    assert "Pool “Z” is not one of the tournament&#x27;s: A." in response.content.decode()
    assert not live.entrants.filter(last_name="Martin").exists()


def test_pool_names_compare_without_capitals_in_the_services():
    live = live_tournament(federation_players(6))
    entrant_move(live, live.entrants.order_by("pk")[0], pool="B")
    moved = entrant_move(live, live.entrants.order_by("pk")[1], pool="b")
    added = entrant_add(live, NewEntrant(player=factories.player("Tard", "Ivy", id=88).pk, pool="a"))
    assert (moved.pool, added.pool) == ("B", "A")
    with pytest.raises(LiveRefused):
        entrant_add(live, NewEntrant(player=factories.player("Autre", "Max", id=89).pk, pool="Q", new_pool=False))


def test_the_referees_homes_list_the_coming_tournaments_first_the_nearest_first(signed_in, referee):
    today = timezone.localdate()
    for name, days in (("Open passé", -30), ("Open lointain", 60), ("Open proche", 5)):
        made = factories.tournament(name, start=today + timedelta(days=days), end=today + timedelta(days=days),
                                    rounds=3, status=Tournament.REGISTERED)
        made.referees.add(referee)
    for url in (reverse("referee:home"), reverse("referee:live_home")):
        page = signed_in.get(url).content.decode()
        assert page.index("Open proche") < page.index("Open lointain") < page.index("Open passé"), url
