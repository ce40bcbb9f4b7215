"""Reads a result sheet: everything that can be checked without the federation's database — the guard, the
structure, the kinds and ranges of values, and the consistency of the sheet with itself.

Terms
-----
spare
    The player with ID 99 who plays against the odd player of a pool (charter App. 2 §2.b). It is listed in
    Players like everyone who plays, but one spare may serve every pool, so its pool and club are ignored: it is
    exempt from the pool, club and "meeting twice" checks, and plays once a round per pool.
ranked player
    A player of the sheet other than the spare who appears in at least one game (charter App. 1 §3 counts
    players who played).
last round
    The tournament's Rounds value (or the highest round of the Games sheet when Rounds is unreadable): free
    games are allowed only there (charter App. 2 §5).

`read_sheet` never raises, whatever the bytes: an unexpected failure becomes an ``unreadable`` refusal.
"""

from __future__ import annotations

import hashlib
import logging
import re
import warnings
from collections.abc import Iterator, Sequence
from datetime import date
from typing import Any

from openpyxl.utils.cell import get_column_letter

from rules.charter import CharterEntrant, charter_failures
from rules.sheet.checks import (
    Fault,
    free_game_faults,
    losses_faults,
    result_faults,
    round_faults,
    same_player_faults,
    text_faults,
)
from rules.sheet.format import (
    ALIASES,
    BLANK_RUN,
    COUNTRY_CODES,
    FORMAT,
    GAME_COLUMNS,
    MAX_BYTES,
    MAX_COLUMNS,
    MAX_GAMES,
    MAX_PLAYERS,
    MAX_TOURNAMENT_ROWS,
    PLAYER_COLUMNS,
    SHEETS,
    SPARE,
    TOURNAMENT_LABELS,
    header_of,
    label_of,
)
from rules.sheet.guard import Refused, guard, is_defused_error, refusal
from rules.sheet.parsed import ParsedSheet, SheetGame, SheetPlayer, SheetTournament
from rules.sheet.report import Issue, Report
from rules.sheet.values import (
    cell_text,
    fold,
    header_key,
    is_blank,
    parse_boolean,
    parse_date,
    parse_player_key,
    parse_whole_number,
    rating_system,
    shown_value,
)
from rules.sheet.workbook import open_workbook, worksheets

logger = logging.getLogger(__name__)


def read_sheet(data: bytes, *, today: date, max_bytes: int = MAX_BYTES) -> ParsedSheet:
    """Everything that can be checked without the federation's database: the guard, the structure, the kinds
    and ranges of values, and the consistency of the sheet with itself. Never raises."""
    try:
        content_hash = hashlib.sha256(data).hexdigest()
    except Exception:  # not bytes at all: still a report, never an exception
        return _refused_sheet(refusal("unreadable"), "")
    try:
        stopped = guard(data, max_bytes=max_bytes)
        if stopped is not None:
            return _refused_sheet(stopped, content_hash)
        with warnings.catch_warnings():
            # openpyxl warns about features it drops (extensions, print settings); none matter here.
            warnings.simplefilter("ignore")
            workbook = open_workbook(data)
            try:
                parsed = _Reader(workbook=workbook, today=today, content_hash=content_hash).read()
            finally:
                workbook.close()
        return parsed
    except Refused as refused:
        return _refused_sheet(refused.issue, content_hash)
    except Exception as exc:
        if is_defused_error(exc):
            return _refused_sheet(refusal("xml_entities", part="?"), content_hash)
        if isinstance(exc, KeyError):
            # openpyxl looks parts up by name: a zip without the workbook's parts fails this way.
            return _refused_sheet(refusal("not_a_workbook"), content_hash)
        return _refused_sheet(refusal("unreadable"), content_hash)


def _refused_sheet(issue: Issue, content_hash: str) -> ParsedSheet:
    return ParsedSheet(
        tournament=None, players=[], games=[], report=Report(errors=[issue]), content_hash=content_hash
    )


class _Reader:
    """One reading of one workbook: collects the issues while it walks the three sheets."""

    def __init__(self, *, workbook: Any, today: date, content_hash: str) -> None:
        self.workbook = workbook
        self.today = today
        self.content_hash = content_hash
        self.report = Report()
        self.fields: dict[str, Any] = {}
        self.tournament_cells: dict[str, str] = {}
        self.player_columns: dict[str, str] = {}
        self.game_columns: dict[str, str] = {}
        self.players: dict[str, SheetPlayer] = {}
        self.games: list[SheetGame] = []
        self.players_read = False
        self.games_read = False

    # -- issues

    def error(self, code: str, sheet: str, cell: str, /, **params: object) -> None:
        self.report.add(Issue(code=code, sheet=sheet, cell=cell, params=params, severity="error"))

    def warning(self, code: str, sheet: str, cell: str, /, **params: object) -> None:
        self.report.add(Issue(code=code, sheet=sheet, cell=cell, params=params, severity="warning"))

    # -- the whole workbook

    def read(self) -> ParsedSheet:
        sheets = self._find_sheets()
        tournament_errors = len(self.report.errors)
        if sheets["Tournament"] is not None:
            self._read_tournament(sheets["Tournament"])
        tournament_ok = sheets["Tournament"] is not None and len(self.report.errors) == tournament_errors
        if sheets["Players"] is not None:
            self._read_players(sheets["Players"])
        if sheets["Games"] is not None:
            self._read_games(sheets["Games"])
        if self.players_read and self.games_read:
            self._check_games()
            self._check_players_play()
            if sheets["Tournament"] is not None:
                try:
                    self._check_charter()
                except Exception:
                    # These are warnings only: a fault in the scoring module must not block an import. It is
                    # logged, since it should never happen.
                    logger.exception("charter conditions could not be checked")
        self.report.bound()
        return ParsedSheet(
            tournament=self._tournament() if tournament_ok else None,
            players=list(self.players.values()),
            games=self.games,
            report=self.report,
            content_hash=self.content_hash,
            tournament_fields=self.fields,
            tournament_cells=self.tournament_cells,
            player_columns=self.player_columns,
            game_columns=self.game_columns,
        )

    def _find_sheets(self) -> dict[str, Any]:
        by_name: dict[str, Any] = {}
        for title, worksheet in worksheets(self.workbook):
            by_name.setdefault(title.strip().casefold(), worksheet)
        found: dict[str, Any] = {}
        for name in SHEETS:
            found[name] = by_name.get(name.casefold())
            if found[name] is None:
                self.error("missing_sheet", name, "", sheet=name)
        return found

    # -- Tournament

    def _read_tournament(self, worksheet: Any) -> None:
        index = {header_key(label): key for key, label, _ in TOURNAMENT_LABELS} | ALIASES
        rows: dict[str, tuple[int, object]] = {}
        for number, values in _rows(worksheet, min_row=1, max_col=2, columns=(0, 1)):
            if number > MAX_TOURNAMENT_ROWS:
                break
            key = index.get(header_key(values[0]))
            if key is None:
                continue  # notes and unknown labels are the referee's business
            if key in rows:
                self.error(
                    "duplicate_label",
                    "Tournament",
                    f"A{number}",
                    label=label_of(key),
                    first_cell=f"A{rows[key][0]}",
                )
                continue
            rows[key] = (number, values[1])
            self.tournament_cells[key] = f"B{number}"

        for position, (key, label, required) in enumerate(TOURNAMENT_LABELS, start=1):
            if key not in rows:
                if required:
                    self.error("missing_label", "Tournament", f"A{position}", label=label)
                continue
            number, value = rows[key]
            cell = f"B{number}"
            if is_blank(value):
                if required:
                    self.error("missing_value", "Tournament", cell, field=label)
                continue
            parsed = self._tournament_value(key=key, label=label, value=value, cell=cell)
            if parsed is not None:
                self.fields[key] = parsed

        # Defaults of the optional values, applied only when the value is blank: an unreadable one has been
        # reported and stays absent. A blank Tournament ID is kept as None (a tournament new to the site),
        # which check_sheet tells apart from an unreadable one.
        defaults = {"tournament_id": None, "rating_system": "adlg", "worlds": False, "official": True}
        for key, default in defaults.items():
            if key not in rows or is_blank(rows[key][1]):
                self.fields[key] = default
        start, end = self.fields.get("start"), self.fields.get("end")
        if isinstance(start, date) and isinstance(end, date) and start > end:
            self.error(
                "start_after_end",
                "Tournament",
                self.tournament_cells["end"],
                start=start.isoformat(),
                end=end.isoformat(),
            )

    def _tournament_value(self, *, key: str, label: str, value: object, cell: str) -> object | None:
        """The parsed value, or None after reporting why it is wrong."""
        sheet = "Tournament"
        if key == "format":
            text = cell_text(value)
            if text != FORMAT:
                self.error("unknown_format", sheet, cell, value=shown_value(value), expected=FORMAT)
                return None
            return text
        if key in ("name", "city", "referee", "organising_club"):
            text = cell_text(value)
            return text if self._text_ok(key=key, label=label, text=text, sheet=sheet, cell=cell) else None
        if key == "rating_system":
            system = rating_system(value)
            if system is None:
                self.error("unknown_rating_system", sheet, cell, value=shown_value(value))
            return system
        if key in ("start", "end"):
            try:
                day = parse_date(value)
            except ValueError:
                self.error("not_date", sheet, cell, field=label, value=shown_value(value))
                return None
            if day > self.today:
                self.error(
                    "date_in_future",
                    sheet,
                    cell,
                    field=label,
                    value=day.isoformat(),
                    today=self.today.isoformat(),
                )
                return None
            return day
        if key == "country":
            return self._country(value=value, sheet=sheet, cell=cell)
        if key in ("worlds", "official"):
            try:
                return parse_boolean(value)
            except ValueError:
                self.error("not_boolean", sheet, cell, field=label, value=shown_value(value))
                return None
        bounds = {"tournament_id": (1, None), "army_points": (100, 300), "rounds": (1, 12)}[key]
        return self._whole(
            value=value, label=label, sheet=sheet, cell=cell, minimum=bounds[0], maximum=bounds[1]
        )

    def _tournament(self) -> SheetTournament | None:
        f = self.fields
        try:
            return SheetTournament(
                tournament_id=f.get("tournament_id"),
                name=f["name"],
                rating_system=f["rating_system"],
                start=f["start"],
                end=f["end"],
                city=f["city"],
                country=f["country"],
                organising_club=f.get("organising_club"),
                referee=f["referee"],
                army_points=f.get("army_points"),
                rounds=f["rounds"],
                worlds=f["worlds"],
                official=f["official"],
            )
        except KeyError:  # pragma: no cover - every required field has been reported missing already
            return None

    # -- shared value checks

    def _faults(self, faults: list[Fault], sheet: str, cell_of) -> bool:
        """Reports each fault at the cell of its field; True when there was none."""
        for fault in faults:
            self.error(fault.code, sheet, cell_of(fault.field), **dict(fault.params))
        return not faults

    def _text_ok(self, *, key: str, label: str, text: str | None, sheet: str, cell: str) -> bool:
        return self._faults(text_faults(key=key, label=label, text=text), sheet, lambda _field: cell)

    def _whole(
        self, *, value: object, label: str, sheet: str, cell: str, minimum: int, maximum: int | None
    ) -> int | None:
        try:
            number = parse_whole_number(value)
        except ValueError:
            self.error("not_whole_number", sheet, cell, field=label, value=shown_value(value))
            return None
        if maximum is None and number < minimum:
            self.error("below_minimum", sheet, cell, field=label, value=number, minimum=minimum)
            return None
        if maximum is not None and not minimum <= number <= maximum:
            self.error(
                "out_of_range", sheet, cell, field=label, value=number, minimum=minimum, maximum=maximum
            )
            return None
        return number

    def _country(self, *, value: object, sheet: str, cell: str) -> str | None:
        code = (cell_text(value) or "").upper()
        if code not in COUNTRY_CODES:
            self.error("unknown_country", sheet, cell, value=shown_value(value))
            return None
        return code

    def _columns(
        self, *, worksheet: Any, sheet: str, spec: Sequence[tuple[str, str, bool]], required: set[str]
    ) -> dict[str, int]:
        """The 1-based column of each known header of row 1; reports missing and duplicated headers."""
        index = {header_key(header): key for key, header, _ in spec}
        header_row = next(iter(_raw_rows(worksheet, min_row=1, max_row=1, max_col=MAX_COLUMNS)), ())
        columns: dict[str, int] = {}
        for position, value in enumerate(header_row, start=1):
            key = index.get(header_key(value))
            if key is None:
                continue
            if key in columns:
                first = f"{get_column_letter(columns[key])}1"
                self.error(
                    "duplicate_column",
                    sheet,
                    f"{get_column_letter(position)}1",
                    sheet=sheet,
                    column=header_of(spec, key),
                    first_cell=first,
                )
                continue
            columns[key] = position
        for position, (key, header, _) in enumerate(spec, start=1):
            if key in required and key not in columns:
                self.error(
                    "missing_column", sheet, f"{get_column_letter(position)}1", sheet=sheet, column=header
                )
        return columns

    # -- Players

    def _read_players(self, worksheet: Any) -> None:
        sheet = "Players"
        required = {key for key, _, needed in PLAYER_COLUMNS if needed}
        columns = self._columns(worksheet=worksheet, sheet=sheet, spec=PLAYER_COLUMNS, required=required)
        self.player_columns = {key: get_column_letter(position) for key, position in columns.items()}
        if "id" not in columns:
            return
        self.players_read = True
        pools: dict[str, str] = {}  # casefolded pool -> the spelling first met, so 'a' and 'A' are one pool
        for number, row in _records(worksheet, columns, limit=MAX_PLAYERS, too_many="too_many_players"):

            def cell(key: str, number: int = number) -> str:
                return f"{self.player_columns.get(key, 'A')}{number}"

            raw_id = row["id"]
            if is_blank(raw_id):
                self.error("missing_value", sheet, cell("id"), field="ID")
                continue
            try:
                key = parse_player_key(raw_id)
            except ValueError:
                self.error("bad_player_id", sheet, cell("id"), value=shown_value(raw_id))
                continue
            if key in self.players:
                self.error("duplicate_player", sheet, cell("id"), key=key, first_row=self.players[key].row)
                continue

            texts: dict[str, str | None] = {}
            for text_key, header in (
                ("last_name", "Last name"),
                ("first_name", "First name"),
                ("club", "Club"),
                ("pool", "Pool"),
                ("army", "Army"),
                ("penalty_reason", "Penalty reason"),
            ):
                texts[text_key] = cell_text(row.get(text_key))
                self._text_ok(key=text_key, label=header, text=texts[text_key], sheet=sheet, cell=cell(text_key))
            last_name, first_name = texts["last_name"], texts["first_name"]
            if key.startswith("N"):
                for name_key, header in (("last_name", "Last name"), ("first_name", "First name")):
                    if name_key in columns and cell_text(row.get(name_key)) is None:
                        self.error("new_player_name_required", sheet, cell(name_key), key=key, field=header)

            country = None
            if not is_blank(row.get("country")):
                country = self._country(value=row["country"], sheet=sheet, cell=cell("country"))

            pool_text = texts["pool"] or "A"
            pool = pools.setdefault(pool_text.casefold(), pool_text)

            penalty = 0
            if not is_blank(row.get("penalty")):
                penalty = (
                    self._whole(
                        value=row["penalty"],
                        label="Penalty",
                        sheet=sheet,
                        cell=cell("penalty"),
                        minimum=0,
                        maximum=None,
                    )
                    or 0
                )
            reason = texts["penalty_reason"]
            if penalty > 0 and reason is None:
                place = "penalty_reason" if "penalty_reason" in columns else "penalty"
                self.error("penalty_reason_required", sheet, cell(place), key=key, penalty=penalty)

            self.players[key] = SheetPlayer(
                row=number,
                key=key,
                player_id=None if key.startswith("N") else int(key),
                last_name=last_name or "",
                first_name=first_name or "",
                club=texts["club"],
                country=country,
                pool=pool,
                army=texts["army"],
                penalty=penalty,
                penalty_reason=reason,
            )

    # -- Games

    def _read_games(self, worksheet: Any) -> None:
        sheet = "Games"
        system = self.fields.get("rating_system")
        required = {key for key, _, needed in GAME_COLUMNS if needed}
        if system == "adlg":
            required |= {"a_losses", "b_losses"}
        columns = self._columns(worksheet=worksheet, sheet=sheet, spec=GAME_COLUMNS, required=required)
        self.game_columns = {key: get_column_letter(position) for key, position in columns.items()}
        if not {"round", "a", "b"} <= columns.keys():
            return
        self.games_read = True
        rounds = self.fields.get("rounds")
        system_known = system if isinstance(system, str) else None
        tables_in_round: dict[int, int] = {}
        for number, row in _records(worksheet, columns, limit=MAX_GAMES, too_many="too_many_games"):

            def cell(key: str, number: int = number) -> str:
                return f"{self.game_columns.get(key, self.game_columns['round'])}{number}"

            round_number = self._round(row["round"], cell("round"), rounds)
            if round_number is not None:
                tables_in_round[round_number] = tables_in_round.get(round_number, 0) + 1

            table = None
            if "table" in columns and not is_blank(row["table"]):
                table = self._whole(
                    value=row["table"],
                    label="Table",
                    sheet=sheet,
                    cell=cell("table"),
                    minimum=1,
                    maximum=None,
                )

            keys = []
            for side, header in (("a", "Player A"), ("b", "Player B")):
                if is_blank(row[side]):
                    self.error("missing_value", sheet, cell(side), field=header)
                    keys.append(None)
                    continue
                try:
                    keys.append(parse_player_key(row[side]))
                except ValueError:
                    self.error("bad_player_id", sheet, cell(side), value=shown_value(row[side]))
                    keys.append(None)

            result = ""
            if "result" in columns:
                if is_blank(row["result"]):
                    self.error("missing_value", sheet, cell("result"), field="Result")
                else:
                    result = re.sub(r"\s+", "", str(cell_text(row["result"]))).upper()
                    self._faults(
                        result_faults(system=system_known, result=result, shown=shown_value(row["result"])),
                        sheet,
                        cell,
                    )

            losses: dict[str, int | None] = {"a_losses": None, "b_losses": None}
            unreadable = set()
            for side, header in (("a_losses", "A losses %"), ("b_losses", "B losses %")):
                if side not in columns or is_blank(row[side]):
                    continue
                try:
                    losses[side] = parse_whole_number(row[side])
                except ValueError:
                    self.error("not_whole_number", sheet, cell(side), field=header, value=shown_value(row[side]))
                    unreadable.add(side)
            losses_problems = [
                fault
                for fault in losses_faults(
                    system=system_known, result=result, a_losses=losses["a_losses"], b_losses=losses["b_losses"]
                )
                # A missing column is reported once, at its header; an unreadable value at its cell.
                if fault.field in columns and fault.field not in unreadable
            ]
            if not self._faults(losses_problems, sheet, cell):
                for fault in losses_problems:
                    losses[fault.field] = None

            free = False
            if "free" in columns and not is_blank(row["free"]):
                try:
                    free = parse_boolean(row["free"])
                except ValueError:
                    self.error(
                        "not_boolean", sheet, cell("free"), field="Free game", value=shown_value(row["free"])
                    )

            if round_number is None or keys[0] is None or keys[1] is None:
                continue
            self.games.append(
                SheetGame(
                    row=number,
                    round=round_number,
                    table=table if table is not None else tables_in_round[round_number],
                    a=keys[0],
                    b=keys[1],
                    result=result,
                    a_losses=losses["a_losses"],
                    b_losses=losses["b_losses"],
                    free=free,
                )
            )

    def _round(self, value: object, cell: str, rounds: object) -> int | None:
        if is_blank(value):
            self.error("missing_value", "Games", cell, field="Round")
            return None
        try:
            number = parse_whole_number(value)
        except ValueError:
            self.error("not_whole_number", "Games", cell, field="Round", value=shown_value(value))
            return None
        if isinstance(rounds, int):
            if not self._faults(round_faults(round_number=number, rounds=rounds), "Games", lambda _field: cell):
                return None
        elif not 1 <= number <= 12:
            # Rounds itself is unreadable (reported on the Tournament sheet): the format's range holds.
            self.error("out_of_range", "Games", cell, field="Round", value=number, minimum=1, maximum=12)
            return None
        return number

    # -- consistency of the games with each other and with the players

    def _check_games(self) -> None:
        sheet = "Games"
        columns = self.game_columns
        rounds = self.fields.get("rounds")
        last_round = rounds if isinstance(rounds, int) else max((g.round for g in self.games), default=0)
        same_club_rounds = 2 if isinstance(rounds, int) and rounds >= 4 else 1
        seen_in_round: dict[tuple[int, str, str], int] = {}  # (round, key, pool of a spare's game) -> row
        met: dict[frozenset[str], int] = {}
        for game in self.games:
            a_cell, b_cell = f"{columns['a']}{game.row}", f"{columns['b']}{game.row}"
            listed = True
            for key, place in ((game.a, a_cell), (game.b, b_cell)):
                # The spare too: every player of a game is registered in the tournament, 99 included.
                if key not in self.players:
                    self.error("not_in_players", sheet, place, key=key)
                    listed = False
            if not self._faults(same_player_faults(a=game.a, b=game.b), sheet, lambda _field, b_cell=b_cell: b_cell):
                continue
            pool = self._game_pool(game)
            for key, place in ((game.a, a_cell), (game.b, b_cell)):
                # One spare may serve every pool (all use ID 99), so it is once per round *per pool*.
                slot = (game.round, key, pool if key == SPARE else "")
                if slot in seen_in_round:
                    self.error(
                        "player_twice_in_round",
                        sheet,
                        place,
                        key=key,
                        round=game.round,
                        first_row=seen_in_round[slot],
                    )
                else:
                    seen_in_round[slot] = game.row
            if not listed:
                continue
            # The spare has no pool and no club: it is left out of both checks.
            a = self.players.get(game.a) if game.a != SPARE else None
            b = self.players.get(game.b) if game.b != SPARE else None
            if a is not None and b is not None:
                if a.pool.casefold() != b.pool.casefold():
                    self.error(
                        "different_pools", sheet, b_cell, a=a.key, pool_a=a.pool, b=b.key, pool_b=b.pool
                    )
                if game.round <= same_club_rounds and a.club and b.club and fold(a.club) == fold(b.club):
                    self.warning(
                        "same_club_pairing", sheet, b_cell, a=a.key, b=b.key, club=a.club, round=game.round
                    )
            if SPARE not in (game.a, game.b):
                pair = frozenset((game.a, game.b))
                if pair in met:
                    self.error("players_met_twice", sheet, a_cell, a=game.a, b=game.b, first_row=met[pair])
                else:
                    met[pair] = game.row
        for game in self.games:
            place = f"{columns.get('free', columns['round'])}{game.row}"
            self._faults(
                free_game_faults(free=game.free, round_number=game.round, last_round=last_round),
                sheet,
                lambda _field, place=place: place,
            )

    def _game_pool(self, game: SheetGame) -> str:
        for key in (game.a, game.b):
            player = self.players.get(key)
            if key != SPARE and player is not None:
                return player.pool.casefold()
        return ""

    def _check_players_play(self) -> None:
        playing = {key for game in self.games for key in (game.a, game.b)}
        for player in self.players.values():
            if player.key != SPARE and player.key not in playing:
                self.warning(
                    "player_without_game",
                    "Players",
                    f"{self.player_columns['id']}{player.row}",
                    key=player.key,
                )

    def _check_charter(self) -> None:
        """The charter's conditions (App. 1 §3-4) as warnings. They decide whether an AdlG tournament counts
        for the championship, which Battle Empire does not have, so they are checked for AdlG only."""
        if self.fields.get("rating_system") != "adlg":
            return
        playing = {key for game in self.games for key in (game.a, game.b)}
        ranked = [p for p in self.players.values() if p.key != SPARE and p.key in playing]
        rounds_by_pool: dict[str, set[int]] = {p.pool: set() for p in ranked}
        spellings = {p.pool.casefold(): p.pool for p in ranked}
        for game in self.games:
            pool = spellings.get(self._game_pool(game))
            if pool is not None and not game.free:
                rounds_by_pool[pool].add(game.round)
        # One club however its name is cased or spaced: the first spelling met stands for all.
        clubs: dict[str, str] = {}
        entrants = [
            CharterEntrant(
                # A tag has no ID yet: it stands as -k for Nk, an ID the federation never gives.
                player=p.player_id if p.player_id is not None else -int(p.key[1:]),
                club=clubs.setdefault(fold(p.club), p.club) if p.club else None,
                pool=p.pool,
            )
            for p in ranked
        ]
        failures = charter_failures(
            official=bool(self.fields.get("official", True)),
            entrants=entrants,
            rounds_by_pool={pool: len(rounds) for pool, rounds in rounds_by_pool.items()},
        )
        for failure in failures:
            place = {"not_official": "official", "too_few_rounds": "rounds"}.get(failure.code)
            cell = self.tournament_cells.get(place, "") if place else ""
            self.warning(failure.code, "Tournament", cell, **dict(failure.params))


def _raw_rows(worksheet: Any, *, min_row: int, max_row: int | None, max_col: int) -> Iterator[tuple]:
    # The declared dimension is ignored (reset) because it may lie either way: too small hides rows, too big
    # (A1:XFD1048576) would make openpyxl pad every row to 16,384 cells. max_col bounds the width instead.
    worksheet.reset_dimensions()
    return worksheet.iter_rows(min_row=min_row, max_row=max_row, min_col=1, max_col=max_col, values_only=True)


def _records(worksheet: Any, columns: dict[str, int], *, limit: int, too_many: str
             ) -> Iterator[tuple[int, dict[str, Any]]]:
    """(row number, {key: value}) of a Players or Games row that is not blank, `columns` giving each key's
    1-based position; refused as `too_many` past `limit` rows."""
    rows = _rows(worksheet, min_row=2, max_col=max(columns.values()), columns=[c - 1 for c in columns.values()])
    for count, (number, values) in enumerate(rows, start=1):
        if count > limit:
            raise Refused(refusal(too_many, limit=limit))
        yield number, {key: values[position - 1] for key, position in columns.items()}


def _rows(
    worksheet: Any, *, min_row: int, max_col: int, columns: Sequence[int]
) -> Iterator[tuple[int, tuple]]:
    """(row number, values) of the rows not blank in the given 0-based columns, from min_row on, stopping
    after BLANK_RUN blank rows in a row."""
    blank_run = 0
    raw = _raw_rows(worksheet, min_row=min_row, max_row=None, max_col=max_col)
    for number, values in enumerate(raw, start=min_row):
        if all(is_blank(values[c]) for c in columns if c < len(values)):
            blank_run += 1
            if blank_run >= BLANK_RUN:
                return
            continue
        blank_run = 0
        yield number, values
