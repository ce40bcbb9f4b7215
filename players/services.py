"""Writes to the federation's register of players: IDs, new players, the old site's player list."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.db.models import Max

from players.audit import audit_record
from players.models import SPARE_ID, Club, Country, IdAllocator, OpeningBalance, Player, RetiredId
from ratings.models import RatingSystem
from ratings.requests import replay_request
from rules.words import Refused


class PlayerInputError(Refused, ValueError):
    """The old site's list cannot be imported: every problem, with its line. Said by the import_players command
    only, in English as commands speak (COMMANDS.md), so not marked for the catalogue."""

    sentences = {
        "missing_columns": "line 1: missing column(s) %(missing)s; the header must be %(required)s with optional "
                           "%(optional)s.",
        "row": "line %(line)s: %(problems)s",
        "retired": "id(s) %(ids)s are retired and cannot be used again.",
    }


def next_free_id_preview() -> int:
    """The ID the next new player would get, for display (the real one is given by `player_ids_allocate`)."""
    return _next_after(_highest_used())


def _highest_used() -> int:
    highest_player = Player.objects.exclude(pk=SPARE_ID).aggregate(m=Max("id"))["m"] or 0
    highest_retired = RetiredId.objects.aggregate(m=Max("id"))["m"] or 0
    allocator = IdAllocator.objects.filter(pk=1).values_list("last_given", flat=True).first() or 0
    return max(highest_player, highest_retired, allocator)


def _next_after(value: int) -> int:
    candidate = value + 1
    return candidate + 1 if candidate == SPARE_ID else candidate


def player_ids_allocate(count: int) -> list[int]:
    """Give `count` new IDs: the next free ones, never 99, never a retired one, never twice.

    Must run inside the caller's transaction: the allocator row stays locked until it commits, so a referee
    importing at the same moment waits and then gets the following IDs.
    """
    if count <= 0:
        return []
    IdAllocator.objects.get_or_create(pk=1)
    allocator = IdAllocator.objects.select_for_update().get(pk=1)
    ids = []
    current = _highest_used()
    for _ in range(count):
        current = _next_after(current)
        ids.append(current)
    allocator.last_given = current
    allocator.save(update_fields=["last_given"])
    return ids


def club_for_name(name: str | None, *, country_id: str | None = None, cache: dict | None = None) -> Club | None:
    """The club of that name (case-insensitive), created on first sight. Blank means an independent player."""
    name = (name or "").strip()
    if not name:
        return None
    key = name.casefold()
    if cache is not None and key in cache:
        return cache[key]
    club = Club.objects.filter(name__iexact=name).first()
    if club is None:
        club = Club.objects.create(name=name, country_id=country_id)
    if cache is not None:
        cache[key] = club
    return club


@dataclass(frozen=True)
class PlayerImportResult:
    created: int
    updated: int
    openings: int


PLAYER_CSV_REQUIRED = ("id", "last_name", "first_name", "club", "country")
PLAYER_CSV_OPTIONAL = ("rating", "games", "as_of")


def _parse_player_rows(text: str) -> list[dict]:
    reader = csv.DictReader(io.StringIO(text))
    header = [(name or "").strip().lower() for name in (reader.fieldnames or [])]
    missing = [name for name in PLAYER_CSV_REQUIRED if name not in header]
    if missing:
        raise PlayerInputError.one("missing_columns", missing=", ".join(missing),
                                   required=",".join(PLAYER_CSV_REQUIRED), optional=",".join(PLAYER_CSV_OPTIONAL))
    reader.fieldnames = header
    known_countries = set(Country.objects.values_list("code", flat=True))
    rows, errors, seen = [], [], {}
    for line, raw in enumerate(reader, start=2):
        row = {key: (value or "").strip() for key, value in raw.items() if key}
        problems = []
        try:
            player_id = int(row["id"])
            if player_id <= 0:
                raise ValueError
        except ValueError:
            problems.append(f"id {row['id']!r} is not a positive whole number")
            player_id = None
        if player_id == SPARE_ID:
            problems.append("id 99 is reserved for the spare player")
        if player_id in seen:
            problems.append(f"id {player_id} is already on line {seen[player_id]}")
        elif player_id is not None:
            seen[player_id] = line
        if not row.get("last_name"):
            problems.append("last_name is empty")
        country = row.get("country", "").upper()
        if country and country not in known_countries:
            problems.append(f"country {row['country']!r} is not an ISO 3166-1 alpha-2 code (FR, GB, ES…)")
        opening = _parse_opening(row, problems)
        if problems:
            errors.append(("row", {"line": line, "problems": "; ".join(problems)}))
            continue
        rows.append({**row, "id": player_id, "country": country or None, "opening": opening})
    if errors:
        raise PlayerInputError(errors)
    return rows


def _parse_opening(row: dict, problems: list[str]):
    rating, games, as_of = row.get("rating", ""), row.get("games", ""), row.get("as_of", "")
    if not (rating or games or as_of):
        return None
    try:
        rating_value = int(rating)
    except ValueError:
        problems.append(f"rating {rating!r} is not a whole number")
        return None
    try:
        games_value = int(games or 0)
        if games_value < 0:
            raise ValueError
    except ValueError:
        problems.append(f"games {games!r} is not a whole number ≥ 0")
        return None
    as_of_value = None
    if as_of:
        try:
            as_of_value = date.fromisoformat(as_of)
        except ValueError:
            problems.append(f"as_of {as_of!r} is not a date YYYY-MM-DD")
            return None
    return rating_value, games_value, as_of_value


def players_import_csv(*, text: str, system_code: str = "adlg", user=None) -> PlayerImportResult:
    """Add or update players from the old site's list, all or nothing (COMMANDS.md `import_players`)."""
    rows = _parse_player_rows(text)
    retired = set(RetiredId.objects.filter(id__in=[r["id"] for r in rows]).values_list("id", flat=True))
    if retired:
        raise PlayerInputError.one("retired", ids=", ".join(map(str, sorted(retired))))
    system = RatingSystem.objects.get(code=system_code)
    created = updated = openings = 0
    with transaction.atomic():
        existing = Player.objects.in_bulk([r["id"] for r in rows])
        clubs: dict = {}
        for row in rows:
            country = row["country"]
            club = club_for_name(row.get("club"), cache=clubs)
            player = existing.get(row["id"])
            values = {"last_name": row["last_name"], "first_name": row.get("first_name", ""), "club": club,
                      "country_id": country}
            if player is None:
                Player.objects.create(id=row["id"], **values)
                created += 1
            elif any(getattr(player, key) != value for key, value in values.items()):
                for key, value in values.items():
                    setattr(player, key, value)
                player.save()
                updated += 1
            if row["opening"] is not None:
                rating, games, as_of = row["opening"]
                OpeningBalance.objects.update_or_create(
                    player_id=row["id"], system=system, defaults={"rating": rating, "games": games, "as_of": as_of})
                openings += 1
        audit_record(user=user, action="import_players", object_type="players.Player",
                     summary=f"{created} created, {updated} updated, {openings} opening balances",
                     changes={"ids": [r["id"] for r in rows]})
        if openings:
            replay_request(system=system, since=None, reason="opening balances imported")
    return PlayerImportResult(created=created, updated=updated, openings=openings)
