"""The federation's public record as open data: one CSV per table (UTF-8, zipped) and one JSON document, dated,
with their SHA-256 and counts, rebuilt by the worker after each replay and each official list.

Terms
-----
table
    One kind of public row (TABLES): its name, what a row is, its columns, each documented (the open-data page
    prints these words, so a column exists here or nowhere).
release
    An OpenDataRelease: the archive and the document of one build, with their checksums and counts. A build whose
    document is the same bytes as the last release's stores nothing new.

Nothing confidential is ever a column: no card, sanction or its reason, no account or address, no private link or
token, no uploaded file, no penalty's reason, no excluded player's name (excluded players are not in `players`;
their games keep their ID only), no merged record, no list that was not issued. `tests/public/test_open_data.py`
walks every column against its allow-list.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from championship.models import ChampionshipResult, ChampionshipTotal
from players.models import Player
from ratings.models import OfficialList, OpenDataRelease, RatingEvent
from ratings.official_list_reads import excluded_ids, shown
from ratings.rating_list import hidden_player_ids
from rules.spreadsheet import neutralised_row
from rules.words import gettext_noop
from tournaments.models import Game, Standing, Tournament

LICENCE = "CC-BY-4.0"
LICENCE_NAME = "Creative Commons Attribution 4.0 International"
LICENCE_URL = "https://creativecommons.org/licenses/by/4.0/"
# Releases kept: the last few, for whoever cites one by its date and checksum.
KEEP_RELEASES = 12
CHUNK = 5000


@dataclass(frozen=True)
class Column:
    name: str
    about: str  # English, marked for the catalogue: the open-data page shows it in the reader's language


@dataclass(frozen=True)
class Table:
    name: str
    about: str
    columns: tuple[Column, ...]
    rows: Callable[[], Iterable[tuple]]


def _tournament_rows() -> Iterator[tuple]:
    rated = (Tournament.objects.filter(status=Tournament.RATED).order_by("id")
             .values_list("id", "system_id", "name", "start_date", "end_date", "city", "country_id",
                          "organising_club__name", "rounds", "pools", "worlds", "official", "outcome__counts",
                          "outcome__average_rating"))
    for row in rated.iterator(chunk_size=CHUNK):
        yield (*row[:12], bool(row[12]), round(row[13], 1) if row[13] is not None else None)


def _game_rows() -> Iterator[tuple]:
    """An excluded player's side is empty, as in the API's history: their games stay facts, they are not named."""
    excluded = excluded_ids()
    games = (Game.objects.filter(tournament__status=Tournament.RATED).order_by("tournament_id", "round", "table", "id")
             .values_list("id", "tournament_id", "round", "table", "player_a_id", "player_b_id", "result", "a_losses",
                          "b_losses", "free"))
    for row in games.iterator(chunk_size=CHUNK):
        a, b = row[4], row[5]
        yield (*row[:4], None if a in excluded else a, None if b in excluded else b, *row[6:])


def _standing_rows() -> Iterator[tuple]:
    hidden = set(hidden_player_ids())
    rows = (Standing.objects.filter(tournament__status=Tournament.RATED).order_by("tournament_id", "pool", "rank",
                                                                                   "player_id")
            .values_list("tournament_id", "pool", "rank", "player_id", "score", "opponents_score", "penalty", "wins",
                         "draws", "losses", "rating_before", "rating_after"))
    return (row for row in rows.iterator(chunk_size=CHUNK) if row[3] not in hidden)


def _player_rows() -> Iterator[tuple]:
    return (Player.objects.public().order_by("id")
            .values_list("id", "last_name", "first_name", "country_id", "club__name").iterator(chunk_size=CHUNK))


def _history_rows() -> Iterator[tuple]:
    hidden = set(hidden_player_ids())
    rows = (RatingEvent.objects.order_by("system_id", "seq")
            .values_list("system_id", "seq", "player_id", "date", "kind", "tournament_id", "game_id", "rating_before",
                         "rating_after", "change"))
    return (row for row in rows.iterator(chunk_size=CHUNK) if row[2] not in hidden)


def _list_rows() -> Iterator[tuple]:
    return (OfficialList.objects.order_by("system_id", "number")
            .values_list("system_id", "number", "valid_from", "issued_at", "players").iterator(chunk_size=CHUNK))


def _list_row_rows() -> Iterator[tuple]:
    withheld = excluded_ids()
    for official in OfficialList.objects.order_by("system_id", "number"):
        for row in official.rows.order_by("position", "player_id").iterator(chunk_size=CHUNK):
            shown([row], withheld)
            yield (official.system_id, official.number, row.position, row.player_id, row.last_name, row.first_name,
                   row.country_code, row.club_name, row.rating, row.rank_code, row.games)


def _championship_total_rows() -> Iterator[tuple]:
    hidden = set(hidden_player_ids())
    rows = (ChampionshipTotal.objects.order_by("year", "rank", "player_id")
            .values_list("year", "player_id", "total", "results", "rank", "international", "international_rank",
                         "country_id"))
    return (row for row in rows.iterator(chunk_size=CHUNK) if row[1] not in hidden)


def _championship_result_rows() -> Iterator[tuple]:
    hidden = set(hidden_player_ids())
    rows = (ChampionshipResult.objects.order_by("year", "tournament_id", "player_id")
            .values_list("year", "tournament_id", "player_id", "points", "counted"))
    return (row for row in rows.iterator(chunk_size=CHUNK) if row[2] not in hidden)


def _c(name: str, about: str) -> Column:
    return Column(name, about)


TABLES: tuple[Table, ...] = (
    Table("tournaments", gettext_noop("One row per rated tournament."), (
        _c("id", gettext_noop("tournament ID, as in the site's addresses")),
        _c("system", gettext_noop("rating system code (adlg, battle-empire…)")),
        _c("name", gettext_noop("name of the tournament")),
        _c("start_date", gettext_noop("first day (YYYY-MM-DD)")),
        _c("end_date", gettext_noop("last day (YYYY-MM-DD)")),
        _c("city", gettext_noop("city")),
        _c("country", gettext_noop("ISO 3166 code of the country it was played in")),
        _c("organising_club", gettext_noop("name of the organising club, empty if none")),
        _c("rounds", gettext_noop("number of rounds")),
        _c("pools", gettext_noop("number of pools")),
        _c("worlds", gettext_noop("true for a Worlds")),
        _c("official", gettext_noop("true for an official tournament")),
        _c("counts", gettext_noop("true when it counts for the championship")),
        _c("average_rating", gettext_noop("average rating of its players before it, one decimal")),
    ), _tournament_rows),
    Table("standings", gettext_noop("One row per player ranked in a rated tournament."), (
        _c("tournament_id", gettext_noop("tournament ID")),
        _c("pool", gettext_noop("pool")),
        _c("rank", gettext_noop("place in the pool")),
        _c("player_id", gettext_noop("federation ID of the player")),
        _c("score", gettext_noop("tournament points")),
        _c("opponents_score", gettext_noop("opponents' points (the first tie-break)")),
        _c("penalty", gettext_noop("penalty points taken off the score")),
        _c("wins", gettext_noop("games won")),
        _c("draws", gettext_noop("games drawn")),
        _c("losses", gettext_noop("games lost")),
        _c("rating_before", gettext_noop("rating before the tournament, empty if the player had no rated game in it")),
        _c("rating_after", gettext_noop("rating after the tournament, empty if the player had no rated game in it")),
    ), _standing_rows),
    Table("games", gettext_noop("One row per game of a rated tournament."), (
        _c("id", gettext_noop("game ID")),
        _c("tournament_id", gettext_noop("tournament ID")),
        _c("round", gettext_noop("round number")),
        _c("table", gettext_noop("table number")),
        _c("player_a", gettext_noop("federation ID of player A (empty: an excluded player; the one ID absent from "
                                    "players is the spare's)")),
        _c("player_b", gettext_noop("federation ID of player B (empty: an excluded player)")),
        _c("result", gettext_noop("result code of the result sheet (A, A+, D, B, F-A…)")),
        _c("a_losses", gettext_noop("losses of A in per cent, empty if not recorded")),
        _c("b_losses", gettext_noop("losses of B in per cent, empty if not recorded")),
        _c("free", gettext_noop("true for a free game (not rated)")),
    ), _game_rows),
    Table("players", gettext_noop("One row per player shown on the site (excluded players and merged records are "
                                  "not)."), (
        _c("id", gettext_noop("federation ID")),
        _c("last_name", gettext_noop("last name")),
        _c("first_name", gettext_noop("first name")),
        _c("country", gettext_noop("ISO 3166 code of the player's country")),
        _c("club", gettext_noop("name of the player's club, empty if none")),
    ), _player_rows),
    Table("ratings_history", gettext_noop("One row per change of a rating: a rated game or an inactivity "
                                          "adjustment, in history order."), (
        _c("system", gettext_noop("rating system code")),
        _c("seq", gettext_noop("order in the system's history")),
        _c("player_id", gettext_noop("federation ID")),
        _c("date", gettext_noop("date of the change (a tournament's last day, or 31 December)")),
        _c("kind", gettext_noop("game, or adjustment (the yearly inactivity adjustment)")),
        _c("tournament_id", gettext_noop("tournament ID, empty for an adjustment")),
        _c("game_id", gettext_noop("game ID, empty for an adjustment")),
        _c("rating_before", gettext_noop("rating before the change")),
        _c("rating_after", gettext_noop("rating after the change")),
        _c("change", gettext_noop("rating after minus rating before")),
    ), _history_rows),
    Table("official_lists", gettext_noop("One row per official list issued: numbered, dated, never changed."), (
        _c("system", gettext_noop("rating system code")),
        _c("number", gettext_noop("number of the list in its system")),
        _c("date", gettext_noop("date from which the list is in force")),
        _c("issued_at", gettext_noop("when it was issued (ISO 8601, with the time zone)")),
        _c("players", gettext_noop("players listed")),
    ), _list_rows),
    Table("official_list_rows", gettext_noop("One row per player of each official list, as it was issued (the name "
                                             "of a player excluded since is withheld)."), (
        _c("system", gettext_noop("rating system code")),
        _c("number", gettext_noop("number of the list")),
        _c("position", gettext_noop("position in the list (equal ratings share one)")),
        _c("player_id", gettext_noop("federation ID")),
        _c("last_name", gettext_noop("last name when the list was issued")),
        _c("first_name", gettext_noop("first name when the list was issued")),
        _c("country", gettext_noop("country when the list was issued")),
        _c("club", gettext_noop("club when the list was issued")),
        _c("rating", gettext_noop("rating")),
        _c("rank", gettext_noop("rank code (the rules page names each)")),
        _c("games", gettext_noop("rated games played")),
    ), _list_row_rows),
    Table("championship_totals", gettext_noop("One row per player and year of the championship."), (
        _c("year", gettext_noop("year")),
        _c("player_id", gettext_noop("federation ID")),
        _c("total", gettext_noop("championship points of the year (two decimals)")),
        _c("results", gettext_noop("tournaments counted")),
        _c("rank", gettext_noop("place in the player's national ranking")),
        _c("international", gettext_noop("true when in the international ranking")),
        _c("international_rank", gettext_noop("place in the international ranking, empty if not in it")),
        _c("country", gettext_noop("country the player counted for")),
    ), _championship_total_rows),
    Table("championship_results", gettext_noop("One row per player and tournament that gave championship "
                                               "points."), (
        _c("year", gettext_noop("year")),
        _c("tournament_id", gettext_noop("tournament ID")),
        _c("player_id", gettext_noop("federation ID")),
        _c("points", gettext_noop("championship points (two decimals)")),
        _c("counted", gettext_noop("true when among the year's best results that count")),
    ), _championship_result_rows),
)


def _json_value(value):
    if isinstance(value, Decimal):
        return float(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def _csv_value(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


@dataclass(frozen=True)
class Built:
    archive: bytes
    document: bytes
    counts: dict[str, int]


# A fixed time for every file of the archive: the same record gives the same bytes (and the same checksum).
ZIP_TIME = (2000, 1, 1, 0, 0, 0)


def open_data_build() -> Built:
    """Every table, read once: the zipped CSVs and the JSON document of the same rows."""
    tables: dict[str, dict] = {}
    counts: dict[str, int] = {}
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
        for table in TABLES:
            rows = [[_json_value(v) for v in row] for row in table.rows()]
            columns = [c.name for c in table.columns]
            tables[table.name] = {"columns": columns, "rows": rows}
            counts[table.name] = len(rows)
            text = io.StringIO()
            writer = csv.writer(text, lineterminator="\n")
            writer.writerow(columns)
            for row in rows:
                writer.writerow(neutralised_row(_csv_value(v) for v in row))
            zipped.writestr(zipfile.ZipInfo(f"{table.name}.csv", date_time=ZIP_TIME), text.getvalue().encode(),
                            compress_type=zipfile.ZIP_DEFLATED)
        zipped.writestr(zipfile.ZipInfo("LICENCE.txt", date_time=ZIP_TIME), _licence_text().encode(),
                        compress_type=zipfile.ZIP_DEFLATED)
    document = json.dumps({"licence": LICENCE, "licence_url": LICENCE_URL, "tables": tables},
                          ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
    return Built(archive.getvalue(), document, counts)


def _licence_text() -> str:
    return (f"The public record of the AdlG federation's ratings.\nLicence: {LICENCE_NAME} ({LICENCE}), "
            f"{LICENCE_URL}\nCite the federation's site and the date and SHA-256 of the release you used.\n"
            "Every column is described on the site's open-data page.\n")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def open_data_rebuild() -> OpenDataRelease | None:
    """Build the record and store it as a new release, unless it is the same as the last one (None then); keep the
    last KEEP_RELEASES."""
    built = open_data_build()
    digest = sha256(built.document)
    with transaction.atomic():
        last = OpenDataRelease.objects.order_by("-built_at", "-id").only("document_sha256").first()
        if last is not None and last.document_sha256 == digest:
            return None
        release = OpenDataRelease.objects.create(
            built_at=timezone.now(), archive=built.archive, archive_sha256=sha256(built.archive),
            document=built.document, document_sha256=digest, counts=built.counts)
        old = list(OpenDataRelease.objects.order_by("-built_at", "-id").values_list("id", flat=True)[KEEP_RELEASES:])
        OpenDataRelease.objects.filter(id__in=old).delete()
    return release


def releases() -> list[OpenDataRelease]:
    """The releases kept, newest first, without their files."""
    return list(OpenDataRelease.objects.defer("archive", "document").order_by("-built_at", "-id"))
