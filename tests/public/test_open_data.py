"""The open data: every table and column documented, nothing confidential ever exported (every column walked
against an allow-list, every cell against the confidential values of the federation), checksums and counts, and
a release stored only when the record changed."""

import csv
import hashlib
import io
import json
import zipfile
from datetime import date, timedelta

import pytest

from players.governance import sanction_give
from players.models import Player, Sanction
from ratings.models import OpenDataRelease, RatingSystem
from ratings.official_lists import list_issue
from ratings.open_data import TABLES, open_data_build, open_data_rebuild
from tests import factories
from tests.public.conftest import text
from tournaments.models import Tournament

# Every column the open data may hold, table by table: a new column is added here on purpose, or the test fails.
ALLOWED = {
    "tournaments": ["id", "system", "name", "start_date", "end_date", "city", "country", "organising_club", "rounds",
                    "pools", "worlds", "official", "counts", "average_rating"],
    "standings": ["tournament_id", "pool", "rank", "player_id", "score", "opponents_score", "penalty", "wins",
                  "draws", "losses", "rating_before", "rating_after"],
    "games": ["id", "tournament_id", "round", "table", "player_a", "player_b", "result", "a_losses", "b_losses",
              "free"],
    "players": ["id", "last_name", "first_name", "country", "club"],
    "ratings_history": ["system", "seq", "player_id", "date", "kind", "tournament_id", "game_id", "rating_before",
                        "rating_after", "change"],
    "official_lists": ["system", "number", "date", "issued_at", "players"],
    "official_list_rows": ["system", "number", "position", "player_id", "last_name", "first_name", "country", "club",
                           "rating", "rank", "games"],
    "championship_totals": ["year", "player_id", "total", "results", "rank", "international", "international_rank",
                            "country"],
    "championship_results": ["year", "tournament_id", "player_id", "points", "counted"],
}
SECRET_REASON = "Insulted the referee at table 4"
EXCLUDED_NAME = "Excludedname"


@pytest.fixture
def record(federation, board, player_user, django_capture_on_commit_callbacks):
    """The federation with what must never leave it: a yellow card and its reason, an account with an address linked
    to a player, an excluded player (named in a list issued before the exclusion), an unrated tournament, a penalty's
    reason."""
    adlg = RatingSystem.objects.get(code="adlg")
    outcast = federation.players[-1]
    outcast.last_name = EXCLUDED_NAME
    outcast.save()
    list_issue(system=adlg, on=date(2024, 4, 1))
    sanction_give(player=federation.players[0], kind=Sanction.YELLOW, reason=SECRET_REASON, user=board)
    player_user.email = "secret.address@example.org"
    player_user.save()
    Player.objects.filter(pk=federation.players[1].pk).update(user=player_user)
    federation.tournament.registrations.filter(player=federation.players[2]).update(
        penalty=1, penalty_reason="List sent late by mail")
    factories.tournament("Coming Open", start=date.today() + timedelta(days=40), status=Tournament.REGISTERED)
    with django_capture_on_commit_callbacks(execute=True):  # the exclusion's replay, run in process
        sanction_give(player=outcast, kind=Sanction.EXCLUSION, reason=SECRET_REASON + " twice", user=board)
    list_issue(system=adlg)
    return federation


def _csv_tables(archive: bytes) -> dict[str, list[list[str]]]:
    with zipfile.ZipFile(io.BytesIO(archive)) as zipped:
        return {name.removesuffix(".csv"): list(csv.reader(io.StringIO(zipped.read(name).decode("utf-8"))))
                for name in zipped.namelist() if name.endswith(".csv")}


def test_every_exported_column_is_allowed_and_nothing_confidential_leaves(record):
    built = open_data_build()
    tables = _csv_tables(built.archive)
    document = json.loads(built.document)["tables"]
    assert set(tables) == set(ALLOWED) == set(document)
    for name, rows in tables.items():
        assert rows[0] == ALLOWED[name], name
        assert document[name]["columns"] == ALLOWED[name], name
        assert all(len(row) == len(rows[0]) for row in rows), name
    everything = built.archive.decode("latin-1") + built.document.decode()
    cells = " ".join(" ".join(row) for rows in tables.values() for row in rows) + built.document.decode()
    for secret in (SECRET_REASON, "secret.address@example.org", EXCLUDED_NAME, "List sent late", "Coming Open",
                   "player-pass", "pbkdf2", "md5$"):
        assert secret not in cells, secret
    assert EXCLUDED_NAME not in everything
    outcast = record.players[-1].pk
    assert all(row[0] != str(outcast) for row in tables["players"][1:])
    assert all(str(outcast) not in (row[4], row[5]) for row in tables["games"][1:])
    # The list issued before the exclusion keeps the outcast's figures under their ID, without their name.
    listed = [row for row in tables["official_list_rows"][1:] if row[3] == str(outcast)]
    assert listed and all(row[4] == "—" and row[5] == "" for row in listed)


def test_every_table_and_column_is_documented_on_the_page(visitor, record):
    open_data_rebuild()
    page = text(visitor.get("/open-data/"))
    for table in TABLES:
        assert f'id="table-{table.name}"' in page
        for column in table.columns:
            assert f"<code>{column.name}</code>" in page, (table.name, column.name)
    assert "Creative Commons Attribution 4.0 International" in page
    release = OpenDataRelease.objects.get()
    assert release.archive_sha256 in page and release.document_sha256 in page
    assert f"{release.counts['games']} rows" in page


def test_the_downloads_match_their_checksums_and_counts(visitor, record):
    release = open_data_rebuild()
    page = text(visitor.get("/open-data/"))
    zip_url = page.split('id="open-data-zip"')[0].rsplit('href="', 1)[1].split('"')[0]
    json_url = page.split('id="open-data-json"')[0].rsplit('href="', 1)[1].split('"')[0]
    archive = visitor.get(zip_url).content
    document = visitor.get(json_url).content
    assert hashlib.sha256(archive).hexdigest() == release.archive_sha256
    assert hashlib.sha256(document).hexdigest() == release.document_sha256
    tables = _csv_tables(archive)
    assert {name: len(rows) - 1 for name, rows in tables.items()} == release.counts
    assert {name: len(t["rows"]) for name, t in json.loads(document)["tables"].items()} == release.counts
    assert visitor.get(zip_url.replace(".zip", ".tar")).status_code == 404
    assert visitor.get("/open-data/999999/x.zip").status_code == 404


def test_a_release_is_stored_only_when_the_record_changed(record):
    assert open_data_rebuild() is not None
    assert open_data_rebuild() is None  # the same record: the same bytes, nothing new
    list_issue(system=RatingSystem.objects.get(code="adlg"))
    assert open_data_rebuild() is not None
    assert OpenDataRelease.objects.count() == 2


def test_the_page_says_when_nothing_is_built_yet(visitor, db):
    assert "No release has been built yet" in text(visitor.get("/open-data/"))
