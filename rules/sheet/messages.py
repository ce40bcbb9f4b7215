"""The messages of the result-sheet report, in English marked for the translation catalogue (rules.words).

Terms:
- *code*: the stable name of an issue (``missing_column``). Code, tests and the API rely on it; the wording of
  a message may change without breaking anything.
- *params*: the values a message is filled with (a column name, a value read from the sheet, a row number).
  Every message of a code uses the same params in both languages.
- *words*: the English here, or Django's translation functions under the reader's language (adlg_site.words);
  the French lives in the one catalogue, locale/fr/LC_MESSAGES/django.po.
- *charter codes*: the warnings about the charter's conditions (App. 1 §3-4). Their wording belongs to
  ``rules.charter``, which the standings pages share, so they are not duplicated here.

Each message is one or two sentences: what is wrong, then what to do. Sheet labels and column headers are
quoted as the official template writes them, so the referee can find them.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.charter import CharterFailure, charter_failure_message
from rules.words import ENGLISH, Words, gettext_noop

# Codes whose message is written by rules.charter (see the module docstring).
CHARTER_CODES = frozenset(
    {"not_official", "too_few_players", "too_few_clubs", "club_over_two_thirds", "too_few_rounds"}
)

MESSAGES: dict[str, str] = {
    # --- the file itself (refused before or while opening it) ---
    "file_too_large": gettext_noop(
        "The file is {size_mb} MB, over the {limit_mb} MB limit. Send the result sheet alone, saved as an .xlsx "
        "workbook without pictures or extra sheets."
    ),
    "not_xlsx": gettext_noop(
        "The file is not an .xlsx workbook. Open it in Excel or LibreOffice, save it as \"Excel Workbook (.xlsx)\" "
        "without a password and send it again."
    ),
    "not_a_workbook": gettext_noop(
        "The file is a zip archive but not an .xlsx workbook. Download the official result sheet from the site, copy "
        "your results into it and send it again."
    ),
    "too_many_parts": gettext_noop(
        "The file holds {count} parts, more than the {limit} a result sheet may have, so it is refused. Copy your "
        "results into the official result sheet and send that."
    ),
    "uncompressed_too_large": gettext_noop(
        "The file would expand to {size_mb} MB once opened, over the {limit_mb} MB limit, so it is refused. Copy "
        "your results into the official result sheet and send that."
    ),
    "part_too_large": gettext_noop(
        "The part {part} of the file would expand to {size_mb} MB, over the {limit_mb} MB limit, so the file is "
        "refused. Copy your results into the official result sheet and send that."
    ),
    "suspicious_compression": gettext_noop(
        "The part {part} of the file is compressed {ratio} to 1, more than the {limit} to 1 a workbook ever needs: "
        "it looks like a decompression bomb and is refused. Copy your results into the official result sheet and "
        "send that."
    ),
    "xml_entities": gettext_noop(
        "The part {part} of the file declares XML entities (a DOCTYPE), which a workbook never needs and which can "
        "hide an entity expansion bomb, so the file is refused. Copy your results into the official result sheet and "
        "send that."
    ),
    "unreadable": gettext_noop(
        "The file could not be read as a workbook. Open it in Excel or LibreOffice, save it again as .xlsx and send "
        "it again; if that does not help, copy your results into the official result sheet."
    ),
    "too_many_players": gettext_noop(
        "The Players sheet lists more than {limit} players, the most a result sheet may hold, so the file is "
        "refused. Keep only the tournament's players in the sheet."
    ),
    "too_many_games": gettext_noop(
        "The Games sheet lists more than {limit} games, the most a result sheet may hold, so the file is refused. "
        "Keep only the tournament's games in the sheet."
    ),
    "too_many_cells": gettext_noop(
        "The sheet {sheet} holds more than {limit} cells (counted {count} before stopping), the most a sheet of a "
        "result sheet may hold, so the file is refused. Delete what lies outside the results, or copy your results "
        "into the official result sheet and send that."
    ),
    "too_many_rows": gettext_noop(
        "The sheet {sheet} holds more than {limit} rows (counted {count} before stopping), the most a sheet of a "
        "result sheet may hold, so the file is refused. Delete the rows below the results, or copy your results into "
        "the official result sheet and send that."
    ),
    "macro_enabled": gettext_noop(
        "The file is a macro-enabled workbook (.xlsm) renamed .xlsx, and the site accepts no macros. Open it in "
        "Excel or LibreOffice, save it as \"Excel Workbook (.xlsx)\" and send it again."
    ),
    # --- a tournament in the exchange format (JSON, docs/exchange.md): the file, then its values by path ---
    "json_too_large": gettext_noop(
        "The file is {size_mb} MB, over the {limit_mb} MB limit. A tournament in JSON is normally well under 1 MB: "
        "send one tournament a file."
    ),
    "json_not_utf8": gettext_noop(
        "The file is not UTF-8 text (byte {byte} is not), so it cannot be read as JSON. Save it as UTF-8 and send "
        "it again."
    ),
    "json_syntax": gettext_noop(
        "The file is not valid JSON: it breaks at line {line}, column {column}. Correct it there (a JSON checker "
        "shows what is wrong) and send it again."
    ),
    "json_syntax_constant": gettext_noop(
        "The file holds {value}, which is not a JSON value. Write a number or null instead and send it again."
    ),
    "json_duplicate_key": gettext_noop(
        "The field \"{field}\" appears twice in one object of the file, so which value stands is unclear. Keep one "
        "and send the file again."
    ),
    "json_too_deep": gettext_noop(
        "The file nests its values more than {limit} levels deep, far more than a tournament needs, so it is "
        "refused. Write the tournament as docs/exchange.md describes."
    ),
    "json_not_object": gettext_noop(
        "The file is JSON but not a tournament: it must be one object with the fields format, tournament, players "
        "and games, as docs/exchange.md describes."
    ),
    "json_unknown_format": gettext_noop(
        "The file's format is {value}, and the site reads \"{expected}\". Write the tournament in that format "
        "(docs/exchange.md) and send it again."
    ),
    "json_too_many_players": gettext_noop(
        "The file lists {count} players, more than the {limit} a tournament may hold, so it is refused. Keep only "
        "the tournament's players."
    ),
    "json_too_many_games": gettext_noop(
        "The file lists {count} games, more than the {limit} a tournament may hold, so it is refused. Keep only the "
        "tournament's games."
    ),
    "json_missing_field": gettext_noop(
        "{path} has no field \"{field}\", which the format requires. Add it and send the file again."
    ),
    "json_unknown_field": gettext_noop(
        "{path} has a field \"{field}\" that the format does not know. Correct its name or remove it "
        "(docs/exchange.md lists the fields) and send the file again."
    ),
    "json_wrong_type": gettext_noop(
        "{path} holds {value}, which is not of the JSON type {expected}. Correct it and send the file again."
    ),
    "json_not_allowed": gettext_noop(
        "{path} holds {value}, which is not one of {allowed}. Correct it and send the file again."
    ),
    "json_below_minimum": gettext_noop(
        "{path} holds {value}, below the smallest value it takes, {minimum}. Correct it and send the file again."
    ),
    "json_above_maximum": gettext_noop(
        "{path} holds {value}, above the largest value it takes, {maximum}. Correct it and send the file again."
    ),
    "json_too_long": gettext_noop(
        "{path} holds {length} characters, more than the {limit} the site keeps. Shorten it and send the file "
        "again."
    ),
    "json_bad_value": gettext_noop(
        "{path} holds {value}, which the format does not take there (docs/exchange.md says what it takes). "
        "Correct it and send the file again."
    ),
    # --- the report itself ---
    "more_errors": gettext_noop(
        "…and {count} more errors, not listed: the report lists the first {limit}. Correct these, then send the "
        "sheet again to see the others."
    ),
    "more_warnings": gettext_noop("…and {count} more warnings, not listed: the report lists the first {limit}."),
    # --- structure ---
    "missing_sheet": gettext_noop(
        "The workbook has no sheet named {sheet}. Add it (the name is not case-sensitive) or copy your results into "
        "the official result sheet."
    ),
    "missing_label": gettext_noop(
        "The Tournament sheet has no row labelled \"{label}\". Add the label in column A and its value in column B."
    ),
    "duplicate_label": gettext_noop(
        "The label \"{label}\" appears twice in the Tournament sheet (first at {first_cell}). Keep one of the two "
        "rows."
    ),
    "missing_column": gettext_noop(
        "The {sheet} sheet has no column headed \"{column}\". Add this header in row 1 and fill the column."
    ),
    "duplicate_column": gettext_noop(
        "The {sheet} sheet has two columns headed \"{column}\" (the first at {first_cell}). Keep one and rename or "
        "delete the other."
    ),
    "missing_value": gettext_noop("\"{field}\" is required and is blank. Fill it in."),
    "unknown_format": gettext_noop(
        "The Format is \"{value}\", but the site reads only \"{expected}\". Write {expected} here; if the sheet "
        "comes from another template, copy your results into the official result sheet."
    ),
    # --- values ---
    "not_whole_number": gettext_noop(
        "\"{field}\" must be a whole number, not \"{value}\". Write a number without decimals."
    ),
    "out_of_range": gettext_noop(
        "\"{field}\" is {value}, outside the allowed range {minimum} to {maximum}. Correct it."
    ),
    "below_minimum": gettext_noop("\"{field}\" is {value}, but it must be at least {minimum}. Correct it."),
    "round_out_of_range": gettext_noop(
        "Round {value} is not between 1 and {rounds}, the number of Rounds given in the Tournament sheet. Correct "
        "the round, or the Rounds value."
    ),
    "not_boolean": gettext_noop("\"{field}\" must be yes or no, not \"{value}\". Write yes or no."),
    "not_date": gettext_noop(
        "\"{field}\" must be a date, not \"{value}\". Enter a date, or text in the form YYYY-MM-DD (for example "
        "2024-03-16)."
    ),
    "start_after_end": gettext_noop(
        "The End date {end} is before the Start date {start}. Correct one of the two dates."
    ),
    "date_in_future": gettext_noop(
        "\"{field}\" is {value}, which is in the future (today is {today}). Send the results after the tournament, "
        "with its real dates."
    ),
    "unknown_country": gettext_noop(
        "\"{value}\" is not an ISO 3166-1 alpha-2 country code. Write the two-letter code, for example FR, GB, ES or "
        "IT (the United Kingdom is GB)."
    ),
    "unknown_rating_system": gettext_noop(
        "The Rating system \"{value}\" is unknown. Write adlg or battle-empire (blank means adlg)."
    ),
    "unknown_result": gettext_noop("\"{value}\" is not a valid {system} result. Write one of: {allowed}."),
    "losses_required": gettext_noop(
        "\"{field}\" is required for the result {result} in AdlG, since it sets the scores. Enter the army's losses "
        "as a whole percentage from 0 to 100."
    ),
    "text_too_long": gettext_noop(
        "\"{field}\" is {length} characters long, more than the {limit} the site keeps. Shorten it."
    ),
    "formula_text": gettext_noop(
        "\"{field}\" is \"{value}\": it starts with {start}, so a spreadsheet would run it as a formula when the "
        "site exports it. Remove the {start} at the start."
    ),
    "penalty_reason_required": gettext_noop(
        "{Player} has {penalty} penalty points but no Penalty reason. Write the reason (late list, changed list, "
        "disruptive play...) in the Penalty reason column."
    ),
    # --- players ---
    "bad_player_id": gettext_noop(
        "\"{value}\" is not a player ID. Write the player's federation ID (a whole number), 99 for the spare, or a "
        "tag N1, N2... for a player new to the federation."
    ),
    "duplicate_player": gettext_noop(
        "{Player} is listed twice (first in row {first_row}). Keep one of the two rows, and give each new player a "
        "different tag."
    ),
    "new_player_name_required": gettext_noop(
        "New player {key} has no {field}. Write it: the site creates the player from this name."
    ),
    "not_in_players": gettext_noop(
        "Player {key} plays in this game but is not in the Players sheet. Add a row for {key} in Players, or correct "
        "the ID here."
    ),
    # --- games ---
    "player_twice_in_round": gettext_noop(
        "{Player} plays two games in round {round} (the other in row {first_row}). Correct one of the two pairings."
    ),
    "player_against_himself": gettext_noop("{Player} is paired against himself. Correct Player A or Player B."),
    "spare_against_spare": gettext_noop("The spare (99) is paired against the spare. Correct Player A or Player B."),
    "different_pools": gettext_noop(
        "{Player_a} is in pool {pool_a} and {player_b} in pool {pool_b}: players of different pools cannot play each "
        "other. Correct the pairing, or the Pool column of the Players sheet."
    ),
    "players_met_twice": gettext_noop(
        "{Player_a} and {player_b} already met (row {first_row}), and players can never meet twice in a tournament "
        "(charter App. 2 §2.a.i). Correct one of the two pairings."
    ),
    "free_game_not_last_round": gettext_noop(
        "This free game is in round {round}, but free games are allowed only in the last round, {last_round} "
        "(charter App. 2 §5). Write no in Free game, or correct the round."
    ),
    # --- checks against the federation's database (check_sheet) ---
    "unknown_player_id": gettext_noop(
        "The federation has no player with ID {id}. Check the ID in the site's player list, or give a tag N1, N2... "
        "to a player new to the federation."
    ),
    "excluded_player": gettext_noop(
        "{Player} is excluded from the federation's rankings, and none of their games can count (charter App. 7 §3). "
        "Remove the player's row and games, or contact the technical board."
    ),
    "unknown_tournament_id": gettext_noop(
        "The site has no tournament with ID {id}. Leave Tournament ID blank for a tournament new to the site, or "
        "correct it."
    ),
    "tournament_running_live": gettext_noop(
        "Tournament {id} (\"{name}\") is being run live on the site: its results will be those of its tournament "
        "day. Publish the tournament day first (\"Publish the tournament\", on its page under Run a tournament "
        "live); then send a sheet if its results need correcting. To finish the day in this sheet instead, choose "
        "\"Finish in the spreadsheet\" on that page first."
    ),
    "tournament_already_on_site": gettext_noop(
        "The site already has the tournament \"{name}\" starting {start}, with ID {id}. To correct it, give its ID "
        "{id} in Tournament ID; if this is another tournament, give it another name."
    ),
    "rating_system_mismatch": gettext_noop(
        "Tournament {id} is rated with {site_system} on the site, but this sheet says {sheet_system}. Correct the "
        "Rating system or the Tournament ID."
    ),
    # --- warnings ---
    "same_club_pairing": gettext_noop(
        "{Player_a} and {player_b}, both of club {club}, are paired in round {round}; the charter asks to avoid this "
        "in the first round, and the first two from 4 rounds up (App. 2 §2.a.ii). Check the pairing; the import goes "
        "on."
    ),
    "player_without_game": gettext_noop(
        "{Player} is registered but plays no game. Add the player's games or remove the row; the import goes on."
    ),
    "new_player_matches_known": gettext_noop(
        "{Player}, new to the federation, has the same name and club as the known player {first_name} {last_name} "
        "({id}). If it is the same person, write {id} instead of {key}; the import goes on."
    ),
    "name_differs": gettext_noop(
        "Player {id} is {site_name} on the site but {sheet_name} in the sheet; the site's name stands. Check that "
        "the ID is right; the import goes on."
    ),
}


def render(*, code: str, params: Mapping[str, object], words: Words = ENGLISH) -> str:
    """The sentence for an issue, in the words given (English by default)."""
    if code in CHARTER_CODES and code not in MESSAGES:
        return charter_failure_message(CharterFailure(code=code, params=dict(params)), words)
    template = MESSAGES.get(code)
    if template is None:
        # A code without a message is a bug of ours, but the referee still deserves a readable line.
        return code
    return words.gettext(template).format(**people(params, words))


# A player without a name in the sheet (the admin's forms, a tag never listed) is still "player 229".
_UNNAMED = gettext_noop("player {ref}")
_PEOPLE = (("key", "name", "player"), ("id", "name", "player"), ("a", "a_name", "player_a"),
           ("b", "b_name", "player_b"))


def people(params: Mapping[str, object], words: Words = ENGLISH) -> dict[str, object]:
    """The params with the words for each player they refer to (rules.sheet.naming): ``player``, ``player_a``,
    ``player_b`` ("Benoît Moreau (229)", or "player 229" without a name), and the same capitalised for the start
    of a sentence (``Player``, ``Player_a``, ``Player_b``). A report stored before names were added still
    renders, its players by number."""
    values = dict(params)
    for reference, name_param, word in _PEOPLE:
        if reference not in params or word in values:
            continue
        name = params.get(name_param)
        text = f"{name} ({params[reference]})" if name else words.gettext(_UNNAMED).format(ref=params[reference])
        values[word] = text
        values[word.capitalize()] = text[:1].upper() + text[1:]
    return values
