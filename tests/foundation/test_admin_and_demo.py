"""The board can use the admin on the demo federation from the first day."""

from datetime import timedelta

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from players.models import AuditEntry, Club, Player
from ratings.models import PlayerRating, ReplayRequest
from tests.built_once import built_once
from tournaments.before.army_lists import identical_flags, lists_published
from tournaments.before.entries import entries_phase, entry_penalty, sheet_columns
from tournaments.models import ArmyList, Entry, Game, Sheet, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo federation, seeded once for the module (it takes seconds) and committed as `make demo` would; each
    test's own writes (the admin's edits) are rolled back after it, and the module's end flushes it all."""
    with built_once(django_db_blocker) as build:
        build(lambda: call_command("seed_demo", players=80, years=1, seed=5, verbosity=0))
        yield


def test_seed_demo_builds_a_rated_federation_through_the_sheet_import(demo):
    assert Player.objects.public().count() >= 80
    assert Tournament.objects.filter(status=Tournament.RATED).count() >= 10
    # Four upcoming tournaments, and one running live today (round 2 under way), nothing of it rated yet.
    assert Tournament.objects.filter(status=Tournament.REGISTERED, live__isnull=True).count() == 4
    running = Tournament.objects.get(status=Tournament.REGISTERED, live__isnull=False)
    assert running.live.rounds.filter(number=2, published_at__isnull=False).exists()
    assert not running.games.exists()
    assert Sheet.objects.filter(status=Sheet.REPLAYED).count() == Tournament.objects.filter(
        status=Tournament.RATED).count()
    assert Game.objects.filter(result__in=["FA", "FB"]).exists()
    assert Game.objects.filter(player_b_id=99).exists() or Game.objects.filter(player_a_id=99).exists()
    assert PlayerRating.objects.filter(system="adlg").count() > 50
    assert not ReplayRequest.objects.exclude(status=ReplayRequest.DONE).exists()


def test_seed_demo_announces_upcoming_tournaments_with_entries_and_army_lists_in_every_state(demo, client):
    """Before the day, built through the site's services: every App. 1 §12 item, entries open in one
    tournament and closed in another, lists compliant, waiting, returned with a comment and one late."""
    announced = list(Tournament.objects.filter(announcement__isnull=False).select_related("announcement")
                     .order_by("start_date"))
    assert len(announced) == 2
    today = timezone.localdate()
    soon, open_one = announced
    assert entries_phase(soon) == "closed" and entries_phase(open_one) == "open"
    for tournament in announced:
        a = tournament.announcement
        assert tournament.start_date > today and a.list_deadline <= tournament.start_date - timedelta(days=7)
        assert a.venue and a.game_minutes == 150 and a.first_round and a.list_checker.username == "checker"
        assert tournament.referee_shown and all(p.theme for p in a.pool_themes.all())
    assert open_one.announcement.pool_themes.count() == 2
    lists = ArmyList.objects.filter(entry__tournament__in=announced)
    assert {row.status for row in lists} == {ArmyList.PENDING, ArmyList.COMPLIANT, ArmyList.RETURNED}
    assert all(row.comment for row in lists.filter(status=ArmyList.RETURNED))
    assert Entry.objects.filter(tournament=soon, listed_without_name=True, status=Entry.ENTERED).exists()
    assert {e.status for e in Entry.objects.filter(tournament=open_one)} == {"entered", "withdrawn", "refused"}
    late = Entry.objects.get(tournament=soon, list_late=True)
    assert entry_penalty(late)[0] == 20 and sheet_columns(tournament=soon)[late.player_id][1] == 20
    assert identical_flags(tournament=soon)  # three lists of one army in a field under 20
    assert not lists_published(tournament=soon)  # a list returned, one waiting: nothing is shown yet


def test_the_demo_player_signs_in_and_finds_their_entry(demo, client):
    """The account README gives: `player` / `player`, linked to a player who has a returned list to send again."""
    signed_in = client.post(reverse("login"), {"login": "player", "password": "player"})
    assert signed_in.status_code == 302 and client.get(reverse("account")).context["user"].username == "player"
    player = Player.objects.get(user__username="player")
    soon = Tournament.objects.filter(announcement__isnull=False).order_by("start_date").first()
    entry = Entry.objects.get(tournament=soon, player=player)
    assert entry.army_lists.get().status == ArmyList.RETURNED
    page = client.get(f"/tournaments/{soon.pk}/entry/").content.decode()
    assert entry.army_lists.get().comment[:20] in page
    client.post(reverse("logout"))
    signed_in = client.post(reverse("login"), {"login": "checker", "password": "checker"})
    assert signed_in.status_code == 302 and client.get(reverse("account")).context["user"].username == "checker"
    page = client.get(f"/tournaments/{soon.pk}/").content.decode()
    assert "checked by Louise Contrôle" in page


def test_seed_demo_if_empty_leaves_an_existing_federation_alone(demo):
    players = Player.objects.count()
    call_command("seed_demo", if_empty=True, verbosity=0)
    assert Player.objects.count() == players


def _demo_board(django_user_model):
    return django_user_model.objects.get(username="board")  # the account seed_demo creates


def test_every_admin_list_opens_for_the_board(demo, client, django_user_model):
    client.force_login(_demo_board(django_user_model))
    for model in admin.site._registry:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        assert client.get(url).status_code == 200, url


def test_the_board_edits_players_clubs_tournaments_and_games_in_the_admin(demo, client, django_user_model):
    board = _demo_board(django_user_model)
    client.force_login(board)
    for obj in (Player.objects.public().first(), Club.objects.first(), Tournament.objects.first(),
                Game.objects.first()):
        url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
        assert client.get(url).status_code == 200, url
    club = Club.objects.first()
    url = reverse("admin:players_club_change", args=[club.pk])
    response = client.post(url, {"name": "Renamed Club", "country": club.country_id or ""})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.name == "Renamed Club"
    entry = AuditEntry.objects.filter(action="change", object_type="players.Club").latest("at")
    assert entry.user == board and entry.changes["name"][1] == "Renamed Club"


def test_an_edit_in_the_admin_does_not_outlive_its_test(demo):
    """Runs after the test above (pytest keeps the file's order): the federation is shared, its edits are not."""
    assert not Club.objects.filter(name="Renamed Club").exists()
    assert not AuditEntry.objects.filter(action="change", object_type="players.Club").exists()
