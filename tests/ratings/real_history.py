"""Four years of a real tournament history (tests/data/real-history) as the federation would receive it: a player
list for `import_players` and one official result sheet per tournament.

The source is another game's rating data, with its messy fields: result spellings, rounds missing or given as the
year, country names instead of codes, rematches. A sheet must follow the federation's format, so each tournament
is laid out as a referee would: games in their order (round given, then date, then number), each in the first
round from its own on where neither player has played yet, at most 12 rounds; a rematch, or a game that finds no
round, is left out. Winners lost 20% of their army and losers 60% (the source has no losses).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from openpyxl import Workbook

DATA = Path(__file__).resolve().parent.parent / "data" / "real-history"
MAX_ROUNDS = 12
COUNTRIES = {
    "usa": "US", "sweden": "SE", "uk": "GB", "united kingdom": "GB", "france": "FR", "canada": "CA",
    "denmark": "DK", "germany": "DE", "italy": "IT", "italia": "IT", "spain": "ES", "finland": "FI", "fin": "FI",
    "netherlands": "NL", "switzerland": "CH", "australia": "AU", "norway": "NO", "china": "CN", "belgium": "BE",
    "belgique": "BE", "philippines": "PH", "cambodia": "KH", "malaya": "MY", "japan": "JP", "greece": "GR",
    "portugal": "PT", "ireland": "IE", "israel": "IL", "austria": "AT", "poland": "PL", "scotland": "GB",
}
# Online tournaments, or none given: the federation would register them where their organiser is.
DEFAULT_COUNTRY = "US"


def _rows(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _player_id(code: str) -> int:
    # 99 is the spare's ID in the federation: the source's player 99 gets another.
    return 100_099 if int(code) == 99 else int(code)


def _country(name: str) -> str | None:
    return COUNTRIES.get(name.strip().casefold())


def players_csv() -> str:
    """Every player of the games, for `import_players` (a player missing from the source's list too)."""
    countries = {_player_id(r["player"]): _country(r["country"]) for r in _rows("players.csv")}
    playing = {_player_id(r[side]) for r in _rows("games.csv") for side in ("player1", "player2")}
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["id", "last_name", "first_name", "club", "country"])
    for pid in sorted(playing):
        writer.writerow([pid, f"Player {pid}", "", "", countries.get(pid) or ""])
    return out.getvalue()


@dataclass(frozen=True)
class RealTournament:
    code: str
    start: date
    end: date
    country: str
    sheet: bytes
    games: int


def _result(first: str, second: str) -> str | None:
    first, second = first.strip().casefold(), second.strip().casefold()
    if first.startswith("win") or second.startswith("los"):
        return "A"
    if first.startswith("los") or second.startswith("win"):
        return "B"
    if first.startswith("draw"):
        return "D"
    return None


def _laid_out(games: list[dict[str, str]]) -> list[tuple[int, int, int, str]]:
    """(round, A, B, result) of the games a sheet can hold, in the order a referee would write them."""
    def natural_round(row: dict[str, str]) -> int:
        value = row["round"].strip()
        return int(value) if value.isdigit() and 1 <= int(value) <= MAX_ROUNDS else 1

    busy: dict[int, set[int]] = defaultdict(set)
    met: set[frozenset[int]] = set()
    laid = []
    for row in sorted(games, key=lambda r: (natural_round(r), r["date"], int(r["game"]))):
        a, b, result = _player_id(row["player1"]), _player_id(row["player2"]), _result(
            row["player1_result"], row["player2_result"])
        if a == b or result is None or frozenset((a, b)) in met:
            continue
        rnd = next((r for r in range(natural_round(row), MAX_ROUNDS + 1) if not busy[r] & {a, b}), None)
        if rnd is None:
            continue
        busy[rnd] |= {a, b}
        met.add(frozenset((a, b)))
        laid.append((rnd, a, b, result))
    return laid


def _sheet(code: str, start: date, end: date, city: str, country: str, laid: list[tuple]) -> bytes:
    wb = Workbook()
    info = wb.active
    info.title = "Tournament"
    for row in (("Format", "adlg-result-sheet/1"), ("Name", f"Real history {code}"), ("Start date", start),
                ("End date", end), ("City", city or "Unknown"), ("Country", country), ("Referee", "Archive"),
                ("Rounds", max(r for r, *_ in laid))):
        info.append(list(row))
    players = wb.create_sheet("Players")
    players.append(["ID", "Last name", "First name", "Club", "Country", "Pool"])
    for pid in sorted({p for _, a, b, _ in laid for p in (a, b)}):
        players.append([pid, f"Player {pid}", "", None, None, "A"])
    sheet = wb.create_sheet("Games")
    sheet.append(["Round", "Table", "Player A", "Player B", "Result", "A losses %", "B losses %"])
    tables: dict[int, int] = defaultdict(int)
    for rnd, a, b, result in sorted(laid, key=lambda g: g[0]):
        tables[rnd] += 1
        losses = {"A": (20, 60), "B": (60, 20), "D": (40, 40)}[result]
        sheet.append([rnd, tables[rnd], a, b, result, *losses])
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def tournaments() -> Iterator[RealTournament]:
    """Each tournament with at least two games a sheet can hold, in the order of their dates."""
    games = defaultdict(list)
    for row in _rows("games.csv"):
        games[row["tournament"]].append(row)
    for t in sorted(_rows("tournaments.csv"), key=lambda t: (t["date"], t["tournament"])):
        laid = _laid_out(games[t["tournament"]])
        if len(laid) < 2:
            continue
        days = sorted(date.fromisoformat(g["date"]) for g in games[t["tournament"]] if g["date"])
        start = days[0] if days else date.fromisoformat(t["date"])
        end = max(days[-1] if days else start, start)
        end = min(end, start + timedelta(days=14))  # a few games logged long after the event
        country = _country(t["country"]) or DEFAULT_COUNTRY
        yield RealTournament(t["tournament"], start, end, country,
                             _sheet(t["tournament"], start, end, t["city"], country, laid), len(laid))
