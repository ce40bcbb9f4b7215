"""Writes the official result sheet (format ``adlg-result-sheet/1``): blank, or pre-filled for a tournament.

The layout is the one rules.sheet reads (spec/RESULT_SHEET.md), taken from the same label and column
lists so the two cannot drift apart. Nothing here imports Django: the views pass plain values.

Terms:
- *template*: the workbook a referee downloads: the three sheets the site reads (Tournament, Players, Games),
  with drop-down lists and number checks so that most mistakes are caught while typing, and a ``Standings``
  sheet of formulas the site never reads.
- *Standings*: per player, the tournament score the charter computes (App. 4 §3: each game scored from the
  result and the losses, minus penalty points, never below 0; Battle Empire sums 0/0.5/1/1.25/1.5), the
  opponents' score (sum of the opponents' tournament scores, forfeits and free games left out; the spare's
  score is its score in that pool) and the rank in the pool by score then opponents' score. Every registered
  player is ranked, one without a game with 0, as rules.standings does. Later tie-breaks (the game
  between the two, the rating, the ID) need the site's data, so equal players share a rank offline. The
  formulas use the template's own columns and rows: a referee who moves columns keeps a valid sheet, but the
  offline standings then go wrong. They cover the first STANDINGS_PLAYERS players (or more when pre-filled)
  and six games per player.
- *pre-filled*: the template with the Tournament values and the registered players of a tournament on the
  site, so the referee only types the games.
- *words*: the sheet names, labels, headers, hints and help the template is written with (SheetWords): the
  English of RESULT_SHEET.md by default; the site's pages pass the referee's language's, from the translation
  catalogue (tournaments.sheets.words). rules.sheet reads the English and the French names alike.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from rules.sheet.format import (
    FORMAT,
    GAME_COLUMNS,
    MAX_GAMES,
    MAX_PLAYERS,
    PLAYER_COLUMNS,
    RESULTS,
    TOURNAMENT_LABELS,
)
from rules.spreadsheet import neutralised, neutralised_row

# A player row: (id, last_name, first_name, club, country, pool), then optionally army, penalty, penalty reason.
PlayerRow = tuple[object, ...]
# A game row: (round, table, player A, player B, result, A losses, B losses, free "yes"/"no").
GameRow = tuple[int, int, object, object, str, int | None, int | None, str]

# Rows covered by the offline Standings. The site reads up to MAX_PLAYERS and MAX_GAMES whatever these are;
# only the offline formulas stop here, to keep the file small (a formula per game row and column).
STANDINGS_PLAYERS = 200
STANDINGS_GAMES_PER_PLAYER = 6

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", start_color="DDEBF7")
REQUIRED_FILL = PatternFill("solid", start_color="FFF2CC")

HINTS = {
    "format": "Do not change.",
    "tournament_id": "The site's ID of the tournament; blank for a tournament new to the site.",
    "name": "Required.",
    "rating_system": "adlg (default) or battle-empire.",
    "start": "Required. A date (YYYY-MM-DD), not in the future.",
    "end": "Required. A date, on or after the start date.",
    "city": "Required.",
    "country": "Required. ISO code: FR, GB, ES, IT...",
    "organising_club": "Optional.",
    "referee": "Required.",
    "army_points": "Optional. 100 to 300.",
    "rounds": "Required. 1 to 12.",
    "worlds": "yes or no (default no).",
    "official": "yes or no (default yes).",
}

HELP = (
    "How to fill this result sheet",
    "1. Tournament: one value per row in column B. Keep the labels of column A.",
    "2. Players: one row per player. ID = federation ID; 99 = the spare; N1, N2... = a player new to the "
    "federation (last and first name required).",
    "3. Games: one row per game. Result: A, B, D, DD, FA, FB in AdlG; A, A+, A++, B, B+, B++, D in Battle "
    "Empire. Losses: each army's losses in percent, 0 to 100 (required for A, B, D in AdlG). Free game: "
    "last round only.",
    "4. Standings shows your scores and ranks offline; the site ignores it.",
    "Upload the file as it is (.xlsx); the site lists every problem with its cell.",
)

# The Standings sheet's headers and notes, by the role of each column (see _standings_sheet).
STANDINGS_WORDS = {
    "id": "ID", "name": "Name", "pool": "Pool", "games": "Games", "points": "Game points", "penalty": "Penalty",
    "score": "Score", "opponents": "Opponents' score", "rank": "Rank in pool", "round": "Round",
    "a": "Player A", "b": "Player B", "result": "Result", "a_losses": "A losses %", "b_losses": "B losses %",
    "scored": "Scored", "forfeit": "Forfeit", "a_score": "A score", "b_score": "B score",
    "a_opponent": "A's opponent score", "b_opponent": "B's opponent score", "game_pool": "Pool",
    "spare": "Spare (all pools)",
    "note": "Scores as the charter computes them (App. 4). Players with equal score and opponents' score share a "
    "rank here; the site settles them by their game, then rating, then ID. Formulas use the template's columns: "
    "do not move them.",
}


@dataclass(frozen=True)
class SheetWords:
    """What the template says, in one language: sheet titles (Tournament, Players, Games, Standings), the
    Tournament labels and the Players and Games headers by key, the hints, the help lines, the yes/no words and
    the Standings sheet's words. The default is the English of RESULT_SHEET.md."""

    sheets: Mapping[str, str] = field(default_factory=lambda: {
        "Tournament": "Tournament", "Players": "Players", "Games": "Games", "Standings": "Standings"})
    labels: Mapping[str, str] = field(default_factory=lambda: {key: label for key, label, _ in TOURNAMENT_LABELS})
    player_headers: Mapping[str, str] = field(default_factory=lambda: {k: h for k, h, _ in PLAYER_COLUMNS})
    game_headers: Mapping[str, str] = field(default_factory=lambda: {k: h for k, h, _ in GAME_COLUMNS})
    hints: Mapping[str, str] = field(default_factory=lambda: dict(HINTS))
    help: Sequence[str] = HELP
    yes: str = "yes"
    no: str = "no"
    standings: Mapping[str, str] = field(default_factory=lambda: dict(STANDINGS_WORDS))


ENGLISH = SheetWords()


def blank_workbook(*, words: SheetWords = ENGLISH) -> bytes:
    """The official result sheet, empty but for the Format and the defaults, for AdlG."""
    return _workbook(tournament={}, players=(), words=words)


def prefilled_workbook(*, tournament: object, players: Sequence[PlayerRow], words: SheetWords = ENGLISH) -> bytes:
    """The result sheet of a registered tournament. `tournament` is a SheetTournament or any object or mapping
    with its field names (missing ones stay blank); `players` are (id, last name, first name, club, country,
    pool) rows, or longer ones with the army, the penalty and its reason."""
    return _workbook(tournament=_tournament_values(tournament), players=players, words=words)


def result_workbook(*, tournament: Mapping[str, object], players: Sequence[PlayerRow],
                    games: Sequence[GameRow], words: SheetWords = ENGLISH) -> bytes:
    """A filled result sheet: what a tournament run live on the site publishes (PAIRING.md §7)."""
    return _workbook(tournament=_tournament_values(tournament), players=players, games=games, words=words)


def _tournament_values(tournament: object) -> dict[str, object]:
    keys = [key for key, _, _ in TOURNAMENT_LABELS]
    if isinstance(tournament, Mapping):
        return {key: tournament.get(key) for key in keys}
    return {key: getattr(tournament, key, None) for key in keys}


def _workbook(*, tournament: Mapping[str, object], players: Sequence[PlayerRow],
              games: Sequence[GameRow] = (), words: SheetWords = ENGLISH) -> bytes:
    system = str(tournament.get("rating_system") or "adlg")
    workbook = Workbook()
    _tournament_sheet(workbook.active, tournament=tournament, words=words)
    _players_sheet(workbook.create_sheet(words.sheets["Players"]), players=players, words=words)
    _games_sheet(workbook.create_sheet(words.sheets["Games"]), system=system, games=games, words=words)
    _standings_sheet(
        workbook.create_sheet(words.sheets["Standings"]), player_rows=max(STANDINGS_PLAYERS, len(players) + 50),
        words=words,
    )
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# ------------------------------------------------------------------------------------------------ sheets


def _tournament_sheet(worksheet: Worksheet, *, tournament: Mapping[str, object], words: SheetWords) -> None:
    worksheet.title = words.sheets["Tournament"]
    values = {"format": FORMAT, "rating_system": "adlg", "worlds": False, "official": True}
    values |= {key: value for key, value in tournament.items() if value is not None}
    cells: dict[str, str] = {}
    for row, (key, _label, required) in enumerate(TOURNAMENT_LABELS, start=1):
        worksheet.cell(row=row, column=1, value=words.labels[key]).font = HEADER_FONT
        value = values.get(key)
        if isinstance(value, bool):
            value = words.yes if value else words.no
        # Stored names reach the referee's spreadsheet as text, never as formulas (rules.spreadsheet).
        target = worksheet.cell(row=row, column=2, value=neutralised(value))
        if key in ("start", "end"):
            target.number_format = "yyyy-mm-dd"
        if required:
            target.fill = REQUIRED_FILL
        worksheet.cell(row=row, column=3, value=words.hints[key]).font = Font(italic=True, color="666666")
        cells[key] = f"B{row}"
    for row, line in enumerate(words.help, start=1):
        worksheet.cell(row=row, column=5, value=line).font = HEADER_FONT if row == 1 else Font()
    worksheet.column_dimensions["A"].width = 18
    worksheet.column_dimensions["B"].width = 28
    worksheet.column_dimensions["C"].width = 58
    worksheet.column_dimensions["D"].width = 3
    worksheet.column_dimensions["E"].width = 110

    labels = words.labels
    _add_list(worksheet, cells["rating_system"], ("adlg", "battle-empire"), title=labels["rating_system"])
    _add_list(worksheet, f"{cells['worlds']} {cells['official']}", (words.yes, words.no),
              title=f"{words.yes} / {words.no}")
    _add_whole(worksheet, cells["army_points"], 100, 300, title=labels["army_points"])
    _add_whole(worksheet, cells["rounds"], 1, 12, title=labels["rounds"])
    _add_whole(worksheet, cells["tournament_id"], 1, None, title=labels["tournament_id"])


def _players_sheet(worksheet: Worksheet, *, players: Sequence[PlayerRow], words: SheetWords) -> None:
    _header_row(worksheet, PLAYER_COLUMNS, words.player_headers, widths=(8, 20, 18, 22, 9, 8, 22, 9, 30))
    for row in players:
        worksheet.append(neutralised_row(row))
    last = MAX_PLAYERS + 1
    _add_whole(
        worksheet, f"{_player_col('penalty')}2:{_player_col('penalty')}{last}", 0, None,
        title=words.player_headers["penalty"],
    )


def _games_sheet(worksheet: Worksheet, *, system: str, games: Sequence[GameRow] = (), words: SheetWords) -> None:
    _header_row(worksheet, GAME_COLUMNS, words.game_headers, widths=(8, 7, 10, 10, 8, 11, 11, 11))
    for row in games:
        worksheet.append(neutralised_row(row))
    last = MAX_GAMES + 1

    def column(key: str) -> str:
        letter = _game_col(key)
        return f"{letter}2:{letter}{last}"

    results = RESULTS.get(system, RESULTS["adlg"])
    headers = words.game_headers
    _add_list(worksheet, column("result"), results, title=headers["result"])
    _add_list(worksheet, column("free"), (words.yes, words.no), title=headers["free"])
    _add_whole(worksheet, column("round"), 1, 12, title=headers["round"])
    _add_whole(worksheet, column("table"), 1, None, title=headers["table"])
    for key, header in (("a_losses", headers["a_losses"]), ("b_losses", headers["b_losses"])):
        _add_whole(
            worksheet,
            column(key),
            0,
            100,
            title=header,
            prompt="Losses of this army, a whole percentage from 0 to 100 (required for A, B, D in AdlG).",
        )


def _header_row(
    worksheet: Worksheet, spec: Sequence[tuple[str, str, bool]], headers: Mapping[str, str], *,
    widths: Sequence[int]
) -> None:
    worksheet.append([headers[key] for key, _, _ in spec])
    for position, ((_, _, required), width) in enumerate(zip(spec, widths, strict=True), start=1):
        cell = worksheet.cell(row=1, column=position)
        cell.font = HEADER_FONT
        cell.fill = REQUIRED_FILL if required else HEADER_FILL
        worksheet.column_dimensions[get_column_letter(position)].width = width
    worksheet.freeze_panes = "A2"


def _add_list(worksheet: Worksheet, cells: str, choices: Sequence[str], *, title: str) -> None:
    validation = DataValidation(
        type="list",
        formula1='"' + ",".join(choices) + '"',
        allow_blank=True,
        showErrorMessage=True,
        errorTitle=title,
        error=f"{title}: choose one of {', '.join(choices)}.",
        showInputMessage=True,
        promptTitle=title,
        prompt=", ".join(choices),
    )
    worksheet.add_data_validation(validation)
    for cell_range in cells.split():
        validation.add(cell_range)


def _add_whole(
    worksheet: Worksheet,
    cells: str,
    minimum: int,
    maximum: int | None,
    *,
    title: str,
    prompt: str | None = None,
) -> None:
    if maximum is None:
        bounds = {"operator": "greaterThanOrEqual", "formula1": str(minimum)}
        wanted = f"a whole number, {minimum} or more"
    else:
        bounds = {"operator": "between", "formula1": str(minimum), "formula2": str(maximum)}
        wanted = f"a whole number from {minimum} to {maximum}"
    validation = DataValidation(
        type="whole",
        allow_blank=True,
        showErrorMessage=True,
        errorTitle=title,
        error=f"{title} must be {wanted}.",
        showInputMessage=True,
        promptTitle=title,
        prompt=prompt or f"{wanted[0].upper()}{wanted[1:]}.",
        **bounds,
    )
    worksheet.add_data_validation(validation)
    for cell_range in cells.split():
        validation.add(cell_range)


def _player_col(key: str) -> str:
    return get_column_letter([k for k, _, _ in PLAYER_COLUMNS].index(key) + 1)


def _game_col(key: str) -> str:
    return get_column_letter([k for k, _, _ in GAME_COLUMNS].index(key) + 1)


# ------------------------------------------------------------------------------------------------ Standings

# Standings columns: the player block (one row per Players row, then the spare) and the game block (one row
# per Games row), side by side so that every formula stays on one sheet.
P_ID, P_NAME, P_POOL, P_GAMES, P_POINTS, P_PENALTY, P_SCORE, P_OPPONENTS, P_RANK = "ABCDEFGHI"
G_ROUND, G_A, G_B, G_RESULT, G_A_LOSSES, G_B_LOSSES, G_SCORED, G_FORFEIT = "KLMNOPQR"
G_A_SCORE, G_B_SCORE, G_A_OPPONENT, G_B_OPPONENT, G_POOL = "STUVW"
TRUE_WORDS = '{"yes","y","oui","o","true","vrai","1"}'


def _sheet_ref(title: str) -> str:
    """A sheet's name as a formula names it: quoted when it holds anything but letters, digits and _."""
    return title if title.replace("_", "").isalnum() else "'" + title.replace("'", "''") + "'"


def _standings_sheet(worksheet: Worksheet, *, player_rows: int, words: SheetWords) -> None:
    game_rows = player_rows * STANDINGS_GAMES_PER_PLAYER
    spare_row = player_rows + 2
    last_player, last_game = spare_row, game_rows + 1
    system_row = [key for key, _, _ in TOURNAMENT_LABELS].index("rating_system") + 1
    Tournament, Players, Games = (_sheet_ref(words.sheets[n]) for n in ("Tournament", "Players", "Games"))  # noqa: N806
    w = words.standings
    battle_empire = f'LOWER(TRIM({Tournament}!$B${system_row}&""))="battle-empire"'

    def players(column: str) -> str:
        return f"${column}$2:${column}${last_player}"

    def games(column: str) -> str:
        return f"${column}$2:${column}${last_game}"

    headers = {
        P_ID: w["id"], P_NAME: w["name"], P_POOL: w["pool"], P_GAMES: w["games"], P_POINTS: w["points"],
        P_PENALTY: w["penalty"], P_SCORE: w["score"], P_OPPONENTS: w["opponents"], P_RANK: w["rank"],
        G_ROUND: w["round"], G_A: w["a"], G_B: w["b"], G_RESULT: w["result"], G_A_LOSSES: w["a_losses"],
        G_B_LOSSES: w["b_losses"], G_SCORED: w["scored"], G_FORFEIT: w["forfeit"], G_A_SCORE: w["a_score"],
        G_B_SCORE: w["b_score"], G_A_OPPONENT: w["a_opponent"], G_B_OPPONENT: w["b_opponent"], G_POOL: w["game_pool"],
    }
    for column, header in headers.items():
        cell = worksheet[f"{column}1"]
        cell.value = header
        cell.font = HEADER_FONT
        cell.fill = HEADER_FILL
        cell.alignment = Alignment(wrap_text=True)
    worksheet.freeze_panes = "A2"

    pid, pool, pcol = _player_col("id"), _player_col("pool"), _player_col("penalty")
    last_name, first_name = _player_col("last_name"), _player_col("first_name")
    for row in range(2, last_player + 1):
        if row == spare_row:
            # The spare is scored (its score counts for its opponents) but has no pool, so it is never ranked.
            worksheet[f"{P_ID}{row}"] = "99"
            worksheet[f"{P_NAME}{row}"] = w["spare"]
            worksheet[f"{P_POOL}{row}"] = ""
            worksheet[f"{P_PENALTY}{row}"] = 0
        else:
            key = f'UPPER(TRIM({Players}!{pid}{row}&""))'
            # A 99 in Players is left to the spare's own row, so that its score is counted once.
            worksheet[f"{P_ID}{row}"] = f'=IF(OR({key}="",{key}="99"),"",{key})'
            worksheet[f"{P_NAME}{row}"] = (
                f'=IF({P_ID}{row}="","",TRIM({Players}!{first_name}{row}&" "&{Players}!{last_name}{row}))'
            )
            worksheet[f"{P_POOL}{row}"] = (
                f'=IF({P_ID}{row}="","",IF(TRIM({Players}!{pool}{row}&"")="","A",TRIM({Players}!{pool}{row}&"")))'
            )
            worksheet[f"{P_PENALTY}{row}"] = (
                f'=IF({P_ID}{row}="","",IFERROR(VALUE(TRIM({Players}!{pcol}{row}&"")),0))'
            )
        me = f"{P_ID}{row}"
        worksheet[f"{P_GAMES}{row}"] = (
            f'=IF({me}="","",COUNTIF({games(G_A)},{me})+COUNTIF({games(G_B)},{me}))'
        )
        # A registered player without a game is ranked too, with 0 (as the site ranks every entrant).
        worksheet[f"{P_POINTS}{row}"] = (
            f'=IF({me}="","",'
            f"SUMIFS({games(G_A_SCORE)},{games(G_A)},{me})+SUMIFS({games(G_B_SCORE)},{games(G_B)},{me}))"
        )
        # Penalty points do not apply in Battle Empire (spec/RULES.md §6); an AdlG score is never below 0.
        worksheet[f"{P_SCORE}{row}"] = (
            f'=IF({P_POINTS}{row}="","",IF({battle_empire},{P_POINTS}{row},'
            f"MAX(0,{P_POINTS}{row}-{P_PENALTY}{row})))"
        )
        # The spare is not ranked: its opponents' score would mean nothing.
        worksheet[f"{P_OPPONENTS}{row}"] = (
            ""
            if row == spare_row
            else f'=IF({P_SCORE}{row}="","",'
            f"SUMIFS({games(G_A_OPPONENT)},{games(G_A)},{me})+SUMIFS({games(G_B_OPPONENT)},{games(G_B)},{me}))"
        )
        score, opponents, my_pool = f"{P_SCORE}{row}", f"{P_OPPONENTS}{row}", f"{P_POOL}{row}"
        worksheet[f"{P_RANK}{row}"] = (
            f'=IF(OR({score}="",{my_pool}=""),"",1'
            f'+COUNTIFS({players(P_POOL)},{my_pool},{players(P_SCORE)},">"&{score})'
            f"+COUNTIFS({players(P_POOL)},{my_pool},{players(P_SCORE)},{score},"
            f'{players(P_OPPONENTS)},">"&{opponents}))'
        )

    rnd, a, b, res = _game_col("round"), _game_col("a"), _game_col("b"), _game_col("result")
    a_losses, b_losses, free = _game_col("a_losses"), _game_col("b_losses"), _game_col("free")
    for row in range(2, last_game + 1):
        worksheet[f"{G_ROUND}{row}"] = f'=IF(TRIM({Games}!{rnd}{row}&"")="","",{Games}!{rnd}{row})'
        worksheet[f"{G_A}{row}"] = f'=UPPER(TRIM({Games}!{a}{row}&""))'
        worksheet[f"{G_B}{row}"] = f'=UPPER(TRIM({Games}!{b}{row}&""))'
        worksheet[f"{G_RESULT}{row}"] = f'=UPPER(SUBSTITUTE({Games}!{res}{row}&""," ",""))'
        worksheet[f"{G_A_LOSSES}{row}"] = f'=IFERROR(VALUE(TRIM({Games}!{a_losses}{row}&"")),0)'
        worksheet[f"{G_B_LOSSES}{row}"] = f'=IFERROR(VALUE(TRIM({Games}!{b_losses}{row}&"")),0)'
        # Free games (last round, App. 2 §5) count for ELO only: they are not scored.
        worksheet[f"{G_SCORED}{row}"] = (
            f'=IF(OR({G_A}{row}="",{G_B}{row}="",{G_RESULT}{row}="",'
            f'ISNUMBER(MATCH(LOWER(TRIM({Games}!{free}{row}&"")),{TRUE_WORDS},0))),0,1)'
        )
        worksheet[f"{G_FORFEIT}{row}"] = f'=IF(OR({G_RESULT}{row}="FA",{G_RESULT}{row}="FB"),1,0)'
        worksheet[f"{G_A_SCORE}{row}"] = (
            f'=IF({G_SCORED}{row}=0,"",IF({battle_empire},{_be_score(row, "A")},{_adlg_score(row, "A")}))'
        )
        worksheet[f"{G_B_SCORE}{row}"] = (
            f'=IF({G_SCORED}{row}=0,"",IF({battle_empire},{_be_score(row, "B")},{_adlg_score(row, "B")}))'
        )
        # The pool of the game's real player: a game of the spare belongs to its opponent's pool.
        worksheet[f"{G_POOL}{row}"] = (
            f'=IF(OR({G_A}{row}="",{G_B}{row}=""),"",IFERROR(INDEX({players(P_POOL)},'
            f'MATCH(IF({G_A}{row}="99",{G_B}{row},{G_A}{row}),{players(P_ID)},0)),""))'
        )
        # The opponents' score leaves forfeits out (charter App. 4 §4 as spec/RULES.md §6 reads it). The
        # spare's score is its score in this game's pool: one spare may serve several pools.
        spare_score = (
            f'SUMIFS({games(G_A_SCORE)},{games(G_A)},"99",{games(G_POOL)},{G_POOL}{row})'
            f'+SUMIFS({games(G_B_SCORE)},{games(G_B)},"99",{games(G_POOL)},{G_POOL}{row})'
        )
        for target, opponent in ((G_A_OPPONENT, G_B), (G_B_OPPONENT, G_A)):
            worksheet[f"{target}{row}"] = (
                f'=IF(OR({G_SCORED}{row}=0,{G_FORFEIT}{row}=1),"",IF({opponent}{row}="99",{spare_score},'
                f"SUMIFS({players(P_SCORE)},{players(P_ID)},{opponent}{row})))"
            )

    note_row = spare_row + 2
    worksheet[f"A{note_row}"] = w["note"]
    worksheet[f"A{note_row}"].font = Font(italic=True)
    for column, width in zip("ABCDEFGHIJ", (8, 24, 7, 7, 9, 8, 8, 11, 8, 3), strict=True):
        worksheet.column_dimensions[column].width = width
    # Locked (without password) so that a stray keystroke does not replace a formula.
    worksheet.protection.sheet = True


def _adlg_score(row: int, side: str) -> str:
    """The charter's score of one side (App. 4 §3, spec/RULES.md §6) from the result and both losses."""
    result = f"{G_RESULT}{row}"
    suffered = f"{G_A_LOSSES if side == 'A' else G_B_LOSSES}{row}"
    inflicted = f"{G_B_LOSSES if side == 'A' else G_A_LOSSES}{row}"
    win, loss = ("A", "B") if side == "A" else ("B", "A")
    forfeit_win, forfeit_loss = ("FA", "FB") if side == "A" else ("FB", "FA")
    return (
        f'IF({result}="{win}",MAX(81,100-FLOOR({suffered}/5,1)),'
        f'IF({result}="{loss}",MIN(29,10+FLOOR({inflicted}/5,1)),'
        f'IF({result}="D",MAX(31,MIN(58,40+2*FLOOR({inflicted}/10,1)-FLOOR({suffered}/10,1))),'
        f'IF({result}="DD",58,IF({result}="{forfeit_win}",81,IF({result}="{forfeit_loss}",10,""))))))'
    )


def _be_score(row: int, side: str) -> str:
    """Battle Empire's result value S of one side (spec/RULES.md §1): 1, 1.25, 1.5 for a win, 0.5 a draw."""
    result = f"{G_RESULT}{row}"
    win, loss = ("A", "B") if side == "A" else ("B", "A")
    return (
        f'IF({result}="{win}",1,IF({result}="{win}+",1.25,IF({result}="{win}++",1.5,IF({result}="D",0.5,'
        f'IF(OR({result}="{loss}",{result}="{loss}+",{result}="{loss}++"),0,"")))))'
    )
