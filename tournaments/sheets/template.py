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
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

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
    "Empire. Losses: % of each army, 0 to 100 (required for A, B, D in AdlG). Free game: last round only.",
    "4. Standings shows your scores and ranks offline; the site ignores it.",
    "Upload the file as it is (.xlsx); the site lists every problem with its cell.",
    "",
    "Comment remplir cette feuille de résultats",
    "1. Tournament : une valeur par ligne en colonne B. Gardez les intitulés de la colonne A.",
    "2. Players : une ligne par joueur. ID = identifiant fédéral ; 99 = le joueur de réserve ; N1, N2... = "
    "un nouveau joueur (nom et prénom obligatoires).",
    "3. Games : une ligne par partie. Pertes : % de chaque armée, de 0 à 100. Free game : dernière ronde "
    "seulement.",
    "4. Standings montre vos scores et classements hors ligne ; le site l'ignore.",
)


def blank_workbook() -> bytes:
    """The official result sheet, empty but for the Format and the defaults, for AdlG."""
    return _workbook(tournament={}, players=())


def prefilled_workbook(*, tournament: object, players: Sequence[PlayerRow]) -> bytes:
    """The result sheet of a registered tournament. `tournament` is a SheetTournament or any object or mapping
    with its field names (missing ones stay blank); `players` are (id, last name, first name, club, country,
    pool) rows, or longer ones with the army, the penalty and its reason."""
    return _workbook(tournament=_tournament_values(tournament), players=players)


def result_workbook(*, tournament: Mapping[str, object], players: Sequence[PlayerRow],
                    games: Sequence[GameRow]) -> bytes:
    """A filled result sheet: what a tournament run live on the site publishes (PAIRING.md §7)."""
    return _workbook(tournament=_tournament_values(tournament), players=players, games=games)


def _tournament_values(tournament: object) -> dict[str, object]:
    keys = [key for key, _, _ in TOURNAMENT_LABELS]
    if isinstance(tournament, Mapping):
        return {key: tournament.get(key) for key in keys}
    return {key: getattr(tournament, key, None) for key in keys}


def _workbook(*, tournament: Mapping[str, object], players: Sequence[PlayerRow],
              games: Sequence[GameRow] = ()) -> bytes:
    system = str(tournament.get("rating_system") or "adlg")
    workbook = Workbook()
    _tournament_sheet(workbook.active, tournament=tournament)
    _players_sheet(workbook.create_sheet("Players"), players=players)
    _games_sheet(workbook.create_sheet("Games"), system=system, games=games)
    _standings_sheet(
        workbook.create_sheet("Standings"), player_rows=max(STANDINGS_PLAYERS, len(players) + 50)
    )
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# ------------------------------------------------------------------------------------------------ sheets


def _tournament_sheet(worksheet: Worksheet, *, tournament: Mapping[str, object]) -> None:
    worksheet.title = "Tournament"
    values = {"format": FORMAT, "rating_system": "adlg", "worlds": "no", "official": "yes"}
    values |= {key: value for key, value in tournament.items() if value is not None}
    cells: dict[str, str] = {}
    for row, (key, label, required) in enumerate(TOURNAMENT_LABELS, start=1):
        worksheet.cell(row=row, column=1, value=label).font = HEADER_FONT
        value = values.get(key)
        if isinstance(value, bool):
            value = "yes" if value else "no"
        # Stored names reach the referee's spreadsheet as text, never as formulas (rules.spreadsheet).
        target = worksheet.cell(row=row, column=2, value=neutralised(value))
        if key in ("start", "end"):
            target.number_format = "yyyy-mm-dd"
        if required:
            target.fill = REQUIRED_FILL
        worksheet.cell(row=row, column=3, value=HINTS[key]).font = Font(italic=True, color="666666")
        cells[key] = f"B{row}"
    for row, line in enumerate(HELP, start=1):
        worksheet.cell(row=row, column=5, value=line).font = HEADER_FONT if row in (1, 8) else Font()
    worksheet.column_dimensions["A"].width = 18
    worksheet.column_dimensions["B"].width = 28
    worksheet.column_dimensions["C"].width = 58
    worksheet.column_dimensions["D"].width = 3
    worksheet.column_dimensions["E"].width = 110

    _add_list(worksheet, cells["rating_system"], ("adlg", "battle-empire"), title="Rating system")
    _add_list(worksheet, f"{cells['worlds']} {cells['official']}", ("yes", "no"), title="Yes or no")
    _add_whole(worksheet, cells["army_points"], 100, 300, title="Army points")
    _add_whole(worksheet, cells["rounds"], 1, 12, title="Rounds")
    _add_whole(worksheet, cells["tournament_id"], 1, None, title="Tournament ID")


def _players_sheet(worksheet: Worksheet, *, players: Sequence[PlayerRow]) -> None:
    _header_row(worksheet, PLAYER_COLUMNS, widths=(8, 20, 18, 22, 9, 8, 22, 9, 30))
    for row in players:
        worksheet.append(neutralised_row(row))
    last = MAX_PLAYERS + 1
    _add_whole(
        worksheet, f"{_player_col('penalty')}2:{_player_col('penalty')}{last}", 0, None, title="Penalty"
    )


def _games_sheet(worksheet: Worksheet, *, system: str, games: Sequence[GameRow] = ()) -> None:
    _header_row(worksheet, GAME_COLUMNS, widths=(8, 7, 10, 10, 8, 11, 11, 11))
    for row in games:
        worksheet.append(neutralised_row(row))
    last = MAX_GAMES + 1

    def column(key: str) -> str:
        letter = _game_col(key)
        return f"{letter}2:{letter}{last}"

    results = RESULTS.get(system, RESULTS["adlg"])
    _add_list(worksheet, column("result"), results, title="Result")
    _add_list(worksheet, column("free"), ("yes", "no"), title="Free game")
    _add_whole(worksheet, column("round"), 1, 12, title="Round")
    _add_whole(worksheet, column("table"), 1, None, title="Table")
    for key, header in (("a_losses", "A losses %"), ("b_losses", "B losses %")):
        _add_whole(
            worksheet,
            column(key),
            0,
            100,
            title=header,
            prompt="Losses of this army, a whole percentage from 0 to 100 (required for A, B, D in AdlG).",
        )


def _header_row(
    worksheet: Worksheet, spec: Sequence[tuple[str, str, bool]], *, widths: Sequence[int]
) -> None:
    worksheet.append([header for _, header, _ in spec])
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


def _standings_sheet(worksheet: Worksheet, *, player_rows: int) -> None:
    game_rows = player_rows * STANDINGS_GAMES_PER_PLAYER
    spare_row = player_rows + 2
    last_player, last_game = spare_row, game_rows + 1
    system_row = [key for key, _, _ in TOURNAMENT_LABELS].index("rating_system") + 1
    battle_empire = f'LOWER(TRIM(Tournament!$B${system_row}&""))="battle-empire"'

    def players(column: str) -> str:
        return f"${column}$2:${column}${last_player}"

    def games(column: str) -> str:
        return f"${column}$2:${column}${last_game}"

    headers = {
        P_ID: "ID",
        P_NAME: "Name",
        P_POOL: "Pool",
        P_GAMES: "Games",
        P_POINTS: "Game points",
        P_PENALTY: "Penalty",
        P_SCORE: "Score",
        P_OPPONENTS: "Opponents' score",
        P_RANK: "Rank in pool",
        G_ROUND: "Round",
        G_A: "Player A",
        G_B: "Player B",
        G_RESULT: "Result",
        G_A_LOSSES: "A losses %",
        G_B_LOSSES: "B losses %",
        G_SCORED: "Scored",
        G_FORFEIT: "Forfeit",
        G_A_SCORE: "A score",
        G_B_SCORE: "B score",
        G_A_OPPONENT: "A's opponent score",
        G_B_OPPONENT: "B's opponent score",
        G_POOL: "Pool",
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
            worksheet[f"{P_NAME}{row}"] = "Spare (all pools)"
            worksheet[f"{P_POOL}{row}"] = ""
            worksheet[f"{P_PENALTY}{row}"] = 0
        else:
            key = f'UPPER(TRIM(Players!{pid}{row}&""))'
            # A 99 in Players is left to the spare's own row, so that its score is counted once.
            worksheet[f"{P_ID}{row}"] = f'=IF(OR({key}="",{key}="99"),"",{key})'
            worksheet[f"{P_NAME}{row}"] = (
                f'=IF({P_ID}{row}="","",TRIM(Players!{first_name}{row}&" "&Players!{last_name}{row}))'
            )
            worksheet[f"{P_POOL}{row}"] = (
                f'=IF({P_ID}{row}="","",IF(TRIM(Players!{pool}{row}&"")="","A",TRIM(Players!{pool}{row}&"")))'
            )
            worksheet[f"{P_PENALTY}{row}"] = (
                f'=IF({P_ID}{row}="","",IFERROR(VALUE(TRIM(Players!{pcol}{row}&"")),0))'
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
        worksheet[f"{G_ROUND}{row}"] = f'=IF(TRIM(Games!{rnd}{row}&"")="","",Games!{rnd}{row})'
        worksheet[f"{G_A}{row}"] = f'=UPPER(TRIM(Games!{a}{row}&""))'
        worksheet[f"{G_B}{row}"] = f'=UPPER(TRIM(Games!{b}{row}&""))'
        worksheet[f"{G_RESULT}{row}"] = f'=UPPER(SUBSTITUTE(Games!{res}{row}&""," ",""))'
        worksheet[f"{G_A_LOSSES}{row}"] = f'=IFERROR(VALUE(TRIM(Games!{a_losses}{row}&"")),0)'
        worksheet[f"{G_B_LOSSES}{row}"] = f'=IFERROR(VALUE(TRIM(Games!{b_losses}{row}&"")),0)'
        # Free games (last round, App. 2 §5) count for ELO only: they are not scored.
        worksheet[f"{G_SCORED}{row}"] = (
            f'=IF(OR({G_A}{row}="",{G_B}{row}="",{G_RESULT}{row}="",'
            f'ISNUMBER(MATCH(LOWER(TRIM(Games!{free}{row}&"")),{TRUE_WORDS},0))),0,1)'
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
    worksheet[f"A{note_row}"] = (
        "Scores as the charter computes them (App. 4). Players with equal score and opponents' score share a "
        "rank here; the site settles them by their game, then rating, then ID. Formulas use the template's "
        "columns: do not move them."
    )
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
