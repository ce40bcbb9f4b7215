"""The day's players on a phone, in English and in French: a referee signs in and lands on the tournament
day, starts a calendar tournament dated another day (its real dates confirmed first), finds "Benoit" for Benoît,
adds players to pools A and B and to hats, adds a new player with a wrong country (told beside the field) and fixes
it, removes a player added by mistake, checks players in, and a late arrival joins after round 1.

Debian's Chromium at 390x844; screenshots in test-artifacts/screenshots/entrants-<lang>-*.png.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tests.browser.checks import axe_problems, choose_pool, fits

SCREENSHOT_PREFIX = "entrants"  # see tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}

WORDS = {
    "en": {"home": "Run a tournament live", "run": "Run it live", "dates": "Its real dates and rounds",
           "start": "Start the tournament", "find": "Find", "add_to": "Add to pool {pool}, hat {hat} — {name}",
           "new": "Add a player new to the federation", "add_new": "Add the new player",
           "country_error": "the United Kingdom is GB", "change": "Change", "remove": "Remove (added by mistake)",
           "here": "Here — {name}", "late": "Here now (late)", "late_done": "a late player, paired from round 2",
           "not_checked": "not checked in", "removed": "is removed from the tournament",
           "pool_b": "Pool B: 4 players", "locale": "en-GB"},
    "fr": {"home": "Diriger un tournoi en direct", "run": "Le diriger en direct", "dates": "Ses vraies dates et rondes",
           "start": "Commencer le tournoi", "find": "Chercher",
           "add_to": "Ajouter à la poule {pool}, chapeau {hat} — {name}",
           "new": "Ajouter un joueur nouveau dans la fédération", "add_new": "Ajouter le nouveau joueur",
           "country_error": "le Royaume-Uni est GB", "change": "Modifier", "remove": "Supprimer (ajouté par erreur)",
           "here": "Présent — {name}", "late": "Arrivé (en retard)", "late_done": "un retardataire, apparié à partir "
           "de la ronde 2", "not_checked": "pas pointé", "removed": "est supprimé du tournoi",
           "pool_b": "Poule B\u00a0: 4 joueurs", "locale": "fr-FR"},
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_referee_sets_up_the_days_players_on_a_phone(live_server, new_context, referee, shot, lang):
    from django.utils import timezone
    from playwright.sync_api import expect

    from tests import factories
    from tests.live.helpers import federation_players
    from tournaments.live.rounds import round_pair, round_publish
    from tournaments.models import LiveEntrant, LiveTable, LiveTournament, Registration, Tournament

    words = WORDS[lang]
    today = timezone.localdate()
    players = federation_players(10)
    benoit = factories.player("Dupont", "Benoît", id=55, club=factories.club("Les Dragons de Saint-Étienne"))
    factories.rating(benoit, value=1300, games=30)
    tournament = factories.tournament("Open des Deux Poules", status=Tournament.REGISTERED, rounds=3,
                                      start=today - timedelta(days=10), end=today - timedelta(days=10))
    tournament.referees.add(referee)
    for player in players[:3]:  # registered in the calendar: they enter not checked in
        Registration.objects.create(tournament=tournament, player=player)

    def step(name):
        assert fits(page), f"{name}: the page scrolls sideways at 390 px"
        shot(page, f"{lang}-{name}")

    page = new_context(viewport=PHONE, locale=words["locale"], is_mobile=True,
                               has_touch=True).new_page()
    page.set_default_timeout(15_000)

    # Signed in, the referee lands on the tournament day's pages.
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    expect(page.get_by_role("heading", name=words["home"])).to_be_visible()
    step("1-landing")

    # Dated ten days ago: the real dates are confirmed first (today's, offered).
    page.get_by_role("link", name=words["run"]).click()
    expect(page.get_by_text(words["dates"], exact=True)).to_be_visible()
    step("2-start-dates")
    page.get_by_role("button", name=words["start"]).click()
    expect(page.locator("#find-q")).to_be_visible()
    tournament.refresh_from_db()
    assert tournament.start_date == today
    expect(page.get_by_text(words["not_checked"]).first).to_be_visible()

    # "Benoit" finds Benoît; he goes into pool B, hat 1.
    page.fill("#find-q", "benoit")
    choose_pool(page, "find", "B")
    page.select_option("#find-hat", "1")
    page.get_by_role("button", name=words["find"], exact=True).click()
    expect(page.locator(".found li", has_text="Benoît Dupont")).to_be_visible()
    step("3-found-benoit")
    page.get_by_role("button", name=words["add_to"].format(name="Benoît Dupont", pool="B", hat=1)).click()
    expect(page.locator("#pool-B")).to_contain_text("Benoît Dupont")

    # Three more into pool B, hats 2, 1, 2 (found by ID); three into pool A (found by name).
    for n, player in enumerate(players[3:6]):
        page.fill("#find-q", str(player.pk))
        choose_pool(page, "find", "B")
        page.select_option("#find-hat", "2" if n % 2 == 0 else "1")
        page.get_by_role("button", name=words["find"], exact=True).click()
        page.locator(".found li", has_text=player.last_name).get_by_role("button").click()
        expect(page.locator("#pool-B")).to_contain_text(player.last_name)
    for player in players[6:9]:
        page.fill("#find-q", player.last_name)
        choose_pool(page, "find", "A")
        page.select_option("#find-hat", "")
        page.get_by_role("button", name=words["find"], exact=True).click()
        page.locator(".found li", has_text=player.last_name).get_by_role("button").click()
        expect(page.locator("#pool-A")).to_contain_text(player.last_name)
    expect(page.get_by_role("heading", name=words["pool_b"])).to_be_visible()
    step("4-two-pools")

    # A new player with a wrong country: told beside the field, fixed.
    page.locator("summary", has_text=words["new"]).click()
    page.fill("#id_last_name", "Smith")
    page.fill("#id_first_name", "John")
    page.fill("#id_country", "UK")
    choose_pool(page, "new", "A")
    page.get_by_role("button", name=words["add_new"]).click()
    error = page.locator("#id_country-error")
    expect(error).to_contain_text(words["country_error"])
    expect(page.locator("#id_country")).to_have_attribute("aria-invalid", "true")
    assert not LiveEntrant.objects.filter(last_name="Smith").exists()
    error.scroll_into_view_if_needed()
    step("5-country-told")
    page.fill("#id_country", "GB")
    page.get_by_role("button", name=words["add_new"]).click()
    expect(page.locator("#pool-A")).to_contain_text("John Smith")

    # A player added by mistake, removed: he appears nowhere.
    mistake = players[9]
    page.fill("#find-q", mistake.last_name)
    choose_pool(page, "find", "A")
    page.get_by_role("button", name=words["find"], exact=True).click()
    page.locator(".found li", has_text=mistake.last_name).get_by_role("button").click()
    row = page.locator("#pool-A li", has_text=mistake.last_name)
    row.locator("summary", has_text=words["change"]).click()
    step("6-remove-offered")
    row.locator(".remove-form input[name=confirm]").check()
    row.get_by_role("button", name=words["remove"]).click()
    expect(page.get_by_text(words["removed"])).to_be_visible()
    expect(page.locator("#pool-A")).not_to_contain_text(mistake.last_name)

    # Check in: two of the three registered are here; the third arrives after round 1.
    for player in players[:2]:
        name = f"{player.first_name} {player.last_name}"
        page.get_by_role("button", name=words["here"].format(name=f"{player.last_name} {player.first_name}")) \
            .click()
        expect(page.locator("#pool-A li", has_text=name)).not_to_contain_text(words["not_checked"])
    step("7-checked-in")
    problems = axe_problems(page)
    assert not problems, problems

    # Round 1 of each pool paired and published (the rounds' page is the other half of the day).
    live = LiveTournament.objects.get(pk=tournament.pk)
    round_publish(round_pair(live, pool="A", method="draw", seed=3))
    round_publish(round_pair(live, pool="B", method="hats", seed=3))
    late = live.entrants.get(player=players[2])
    assert not LiveTable.objects.filter(round__live=live, a=late).exists()
    page.reload()
    late_row = page.locator("#pool-A li", has_text=players[2].last_name)
    expect(late_row.get_by_role("button", name=f'{words["late"]} — {players[2].last_name} {players[2].first_name}')) \
        .to_have_text(words["late"])
    late_row.get_by_role("button").first.click()
    expect(page.get_by_text(words["late_done"])).to_be_visible()
    step("8-late-arrival")

    live = LiveTournament.objects.get(pk=tournament.pk)
    entrant = live.entrants.get(player=benoit)
    assert (entrant.pool, entrant.hat) == ("B", 1)
    assert sorted(live.entrants.filter(pool="B").values_list("hat", flat=True)) == [1, 1, 2, 2]
    smith = live.entrants.get(last_name="Smith")
    assert (smith.country, smith.pool, smith.player_id) == ("GB", "A", None)
    assert not live.entrants.filter(player=players[9]).exists()
    late.refresh_from_db()
    assert (late.present, late.joined_round) == (True, 2)
    assert not LiveTable.objects.filter(round__live=live, round__number=1, a=late).exists()
    assert re.fullmatch(r"[A-Z]{2}", smith.country)
