"""Official lists: numbered, dated, frozen; a correction after a list changes the next one, never that one.

Run on PostgreSQL too (DATABASE_URL): the frozen rows are refused by the database itself on both engines.
"""

import csv
import io
import json
from datetime import date

import pytest
from django.db import IntegrityError, InternalError, OperationalError, connection, transaction
from django.utils import timezone

from players.models import AuditEntry
from ratings.models import (
    FrozenRow,
    OfficialList,
    OfficialListRow,
    OpenDataRelease,
    PlayerRating,
    RatingSystem,
    ReplayRequest,
)
from ratings.official_list_reads import (
    CORRECTED,
    IMPORTED,
    list_csv_rows,
    list_document,
    list_in_force,
    lists_compared,
)
from ratings.official_lists import ListRefused, list_issue, monthly_lists_issue
from ratings.requests import replay_request
from ratings.services import replay_from_scratch
from ratings.tasks import issue_official_lists
from tests import factories
from tests.ratings.helpers import imported, roster, sheet

pytestmark = pytest.mark.django_db(transaction=True)


def _adlg() -> RatingSystem:
    return RatingSystem.objects.get(code="adlg")


def _bytes(official: OfficialList) -> tuple[bytes, bytes]:
    """The list's two downloads as the site serves them (views render exactly these)."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(list_csv_rows(official))
    document = json.dumps(list_document(official), ensure_ascii=False, sort_keys=True)
    return text.getvalue().encode(), document.encode()


def test_a_correction_after_a_list_leaves_it_byte_identical_and_the_next_list_carries_it():
    roster()
    spring = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    first = list_issue(system=_adlg(), on=date(2024, 4, 1))
    before = _bytes(first)
    rows_before = list(first.rows.order_by("position", "player_id").values_list(
        "player_id", "position", "rating", "games", "rank_code"))
    rating_101 = first.rows.get(player_id=101).rating

    # The referee corrects round 1: 104 beat 101 after all.
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16), tournament_id=spring.tournament_id,
                   new_players=spring.new_players, first_game=("B", 10, 0)))
    assert PlayerRating.objects.get(player_id=101, system_id="adlg").rating != rating_101

    first = OfficialList.objects.get(pk=first.pk)
    assert _bytes(first) == before
    assert list(first.rows.order_by("position", "player_id").values_list(
        "player_id", "position", "rating", "games", "rank_code")) == rows_before

    # A full replay does not touch it either: a list is a fact, not a derived row.
    replay_from_scratch(system=_adlg())
    assert _bytes(OfficialList.objects.get(pk=first.pk)) == before

    second = list_issue(system=_adlg(), on=date(2024, 5, 1))
    assert second.number == first.number + 1
    live = PlayerRating.objects.get(player_id=101, system_id="adlg").rating
    assert second.rows.get(player_id=101).rating == live != rating_101

    compared = lists_compared(first, second)
    assert [(t.id, t.kind) for t in compared.tournaments] == [(spring.tournament_id, CORRECTED)]
    moved = {c.player_id: c for c in compared.changes}
    assert moved[101].change == live - rating_101
    assert [t.id for t in moved[101].tournaments] == [spring.tournament_id]


def test_the_tournaments_imported_between_two_lists_say_imported():
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    first = list_issue(system=_adlg(), on=date(2024, 4, 1))
    summer = imported(sheet(name="Summer Cup", start=date(2024, 6, 8)))
    second = list_issue(system=_adlg(), on=date(2024, 7, 1))
    assert [(t.id, t.kind) for t in lists_compared(first, second).tournaments] == [(summer.tournament_id, IMPORTED)]


def test_a_list_is_never_changed_through_the_orm():
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    official = list_issue(system=_adlg(), on=date(2024, 4, 1))
    row = official.rows.first()
    row.rating += 100
    with pytest.raises(FrozenRow):
        row.save()
    with pytest.raises(FrozenRow):
        OfficialListRow.objects.filter(official_list=official).update(rating=0)
    with pytest.raises(FrozenRow):
        official.delete()
    with pytest.raises(FrozenRow):
        OfficialList.objects.all().delete()


def test_the_database_refuses_an_update_of_a_list_or_its_rows():
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    official = list_issue(system=_adlg(), on=date(2024, 4, 1))
    for statement in ("UPDATE ratings_officiallistrow SET rating = 0", "UPDATE ratings_officiallist SET players = 0"):
        with pytest.raises((IntegrityError, InternalError, OperationalError)), transaction.atomic(), \
                connection.cursor() as cursor:
            cursor.execute(statement)
    assert OfficialList.objects.get(pk=official.pk).players == official.players


def test_lists_are_numbered_and_positions_shared_by_equal_ratings():
    for pid, value in ((1, 1200), (2, 1100), (3, 1100), (4, 1000)):
        factories.rating(factories.player(f"P{pid}", id=pid), value=value)
    official = list_issue(system=_adlg())
    assert official.number == 1 and official.players == 4
    assert list(official.rows.order_by("position", "player_id").values_list("player_id", "position")) == [
        (1, 1), (2, 2), (3, 2), (4, 4)]
    assert list_issue(system=_adlg()).number == 2


def test_a_list_waits_for_the_replay_and_refuses_a_date_before_the_last():
    factories.rating(factories.player("Solo", id=7))
    list_issue(system=_adlg(), on=date(2024, 4, 1))
    with pytest.raises(ListRefused) as refused:
        list_issue(system=_adlg(), on=date(2024, 3, 1))
    assert refused.value.code == "date_before_last"
    with transaction.atomic():
        replay_request(system="adlg", since=None, reason="test")
        with pytest.raises(ListRefused) as refused:
            list_issue(system=_adlg())
        assert refused.value.code == "replay_waiting"
        transaction.set_rollback(True)


def test_the_list_in_force_on_a_day_is_the_latest_dated_on_or_before_it():
    factories.rating(factories.player("Solo", id=7))
    april = list_issue(system=_adlg(), on=date(2024, 4, 1))
    may = list_issue(system=_adlg(), on=date(2024, 5, 1))
    assert list_in_force("adlg", date(2024, 3, 31)) is None
    assert list_in_force("adlg", date(2024, 4, 30)) == april
    assert list_in_force("adlg", date(2024, 5, 1)) == may


def test_the_board_issue_is_audited_and_the_monthly_issue_runs_once_a_day(board):
    factories.rating(factories.player("Solo", id=7))
    official = list_issue(system=_adlg(), user=board)
    assert AuditEntry.objects.filter(action="official_list_issue", object_id=str(official.pk)).exists()
    assert official.issued_by == board
    assert monthly_lists_issue() == []  # one of today's date exists already
    assert OfficialList.objects.count() == 1


def test_the_monthly_issue_lists_each_rated_system_once():
    factories.rating(factories.player("Solo", id=7))
    issued = monthly_lists_issue()
    assert [(o.system_id, o.number, o.issued_by) for o in issued] == [("adlg", 1, None)]
    assert monthly_lists_issue() == []


def test_the_worker_issues_the_months_lists_on_the_first_and_rebuilds_the_open_data(settings):
    schedule = settings.CELERY_BEAT_SCHEDULE["issue-official-lists"]
    assert schedule["task"] == "ratings.tasks.issue_official_lists"
    assert schedule["schedule"].day_of_month == {1}
    settings.OPEN_DATA_AFTER_CHANGES = True
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    built = OpenDataRelease.objects.count()
    # A change whose replay was never enqueued (a lost message): the task runs it before issuing the list.
    waiting = ReplayRequest.objects.create(system_id="adlg", since=None, reason="lost message")
    issue_official_lists.delay()
    official = OfficialList.objects.get()
    assert official.issued_by is None and official.valid_from == timezone.localdate()
    waiting.refresh_from_db()
    assert waiting.status == ReplayRequest.DONE and official.last_request == waiting.pk
    assert OpenDataRelease.objects.count() == built + 1  # the record now holds the list
    issue_official_lists.delay()  # a second run the same day: nothing new
    assert OfficialList.objects.count() == 1


def test_a_replay_rebuilds_the_open_data_when_the_settings_say_so(settings):
    settings.OPEN_DATA_AFTER_CHANGES = True
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    release = OpenDataRelease.objects.first()  # the newest
    assert release.counts["tournaments"] == 1 and release.counts["games"] == 15
