"""The bilingual (English, French) messages of the result-sheet report.

Terms:
- *code*: the stable name of an issue (``missing_column``). Code, tests and the API rely on it; the wording of
  a message may change without breaking anything.
- *params*: the values a message is filled with (a column name, a value read from the sheet, a row number).
  Every message of a code uses the same params in both languages.
- *language*: ``en`` or ``fr``. Anything else (``fr-FR``, ``de``, ``None``) is reduced to one of the two,
  English by default, because every referee of the federation reads one of them.
- *charter codes*: the warnings about the charter's conditions (App. 1 §3-4). Their wording belongs to
  ``rules.charter``, which the standings pages share, so they are not duplicated here.

Each message is one or two sentences: what is wrong, then what to do. Sheet labels and column headers are
quoted as they are written in the workbook (in English), also in the French messages, so the referee can find
them.
"""

from __future__ import annotations

from collections.abc import Mapping

LANGUAGES = ("en", "fr")

# Codes whose message is written by rules.charter (see the module docstring).
CHARTER_CODES = frozenset(
    {"not_official", "too_few_players", "too_few_clubs", "club_over_two_thirds", "too_few_rounds"}
)

MESSAGES: dict[str, dict[str, str]] = {
    # --- the file itself (refused before or while opening it) ---
    "file_too_large": {
        "en": "The file is {size_mb} MB, over the {limit_mb} MB limit. Send the result sheet alone, "
        "saved as an .xlsx workbook without pictures or extra sheets.",
        "fr": "Le fichier fait {size_mb} Mo, au-delà de la limite de {limit_mb} Mo. Envoyez la feuille "
        "de résultats seule, enregistrée en classeur .xlsx sans images ni feuilles supplémentaires.",
    },
    "not_xlsx": {
        "en": 'The file is not an .xlsx workbook. Open it in Excel or LibreOffice, save it as "Excel '
        'Workbook (.xlsx)" without a password and send it again.',
        "fr": "Le fichier n'est pas un classeur .xlsx. Ouvrez-le dans Excel ou LibreOffice, "
        "enregistrez-le au format « Classeur Excel (.xlsx) » sans mot de passe et envoyez-le à nouveau.",
    },
    "not_a_workbook": {
        "en": "The file is a zip archive but not an .xlsx workbook. Download the official result sheet "
        "from the site, copy your results into it and send it again.",
        "fr": "Le fichier est une archive zip mais pas un classeur .xlsx. Téléchargez la feuille de "
        "résultats officielle sur le site, copiez-y vos résultats et envoyez-la à nouveau.",
    },
    "too_many_parts": {
        "en": "The file holds {count} parts, more than the {limit} a result sheet may have, so it is "
        "refused. Copy your results into the official result sheet and send that.",
        "fr": "Le fichier contient {count} parties, plus que les {limit} permises pour une feuille de "
        "résultats : il est refusé. Copiez vos résultats dans la feuille de résultats officielle et "
        "envoyez-la.",
    },
    "uncompressed_too_large": {
        "en": "The file would expand to {size_mb} MB once opened, over the {limit_mb} MB limit, so it is "
        "refused. Copy your results into the official result sheet and send that.",
        "fr": "Le fichier occuperait {size_mb} Mo une fois ouvert, au-delà de la limite de {limit_mb} Mo "
        ": il est refusé. Copiez vos résultats dans la feuille de résultats officielle et envoyez-la.",
    },
    "part_too_large": {
        "en": "The part {part} of the file would expand to {size_mb} MB, over the {limit_mb} MB limit, "
        "so the file is refused. Copy your results into the official result sheet and send that.",
        "fr": "La partie {part} du fichier occuperait {size_mb} Mo, au-delà de la limite de {limit_mb} "
        "Mo : le fichier est refusé. Copiez vos résultats dans la feuille de résultats officielle et "
        "envoyez-la.",
    },
    "suspicious_compression": {
        "en": "The part {part} of the file is compressed {ratio} to 1, more than the {limit} to 1 a "
        "workbook ever needs: it looks like a decompression bomb and is refused. Copy your results into "
        "the official result sheet and send that.",
        "fr": "La partie {part} du fichier est compressée à {ratio} pour 1, plus que les {limit} pour 1 "
        "dont un classeur a besoin : elle ressemble à une bombe de décompression et le fichier est "
        "refusé. Copiez vos résultats dans la feuille de résultats officielle et envoyez-la.",
    },
    "xml_entities": {
        "en": "The part {part} of the file declares XML entities (a DOCTYPE), which a workbook never "
        "needs and which can hide an entity expansion bomb, so the file is refused. Copy your results "
        "into the official result sheet and send that.",
        "fr": "La partie {part} du fichier déclare des entités XML (un DOCTYPE), dont un classeur n'a "
        "jamais besoin et qui peuvent cacher une bombe d'expansion d'entités : le fichier est refusé. "
        "Copiez vos résultats dans la feuille de résultats officielle et envoyez-la.",
    },
    "unreadable": {
        "en": "The file could not be read as a workbook. Open it in Excel or LibreOffice, save it again "
        "as .xlsx and send it again; if that does not help, copy your results into the official result "
        "sheet.",
        "fr": "Le fichier n'a pas pu être lu comme un classeur. Ouvrez-le dans Excel ou LibreOffice, "
        "enregistrez-le à nouveau en .xlsx et renvoyez-le ; si cela ne suffit pas, copiez vos résultats "
        "dans la feuille de résultats officielle.",
    },
    "too_many_players": {
        "en": "The Players sheet lists more than {limit} players, the most a result sheet may hold, so "
        "the file is refused. Keep only the tournament's players in the sheet.",
        "fr": "La feuille Players contient plus de {limit} joueurs, le maximum pour une feuille de "
        "résultats : le fichier est refusé. Ne gardez dans la feuille que les joueurs du tournoi.",
    },
    "too_many_games": {
        "en": "The Games sheet lists more than {limit} games, the most a result sheet may hold, so the "
        "file is refused. Keep only the tournament's games in the sheet.",
        "fr": "La feuille Games contient plus de {limit} parties, le maximum pour une feuille de "
        "résultats : le fichier est refusé. Ne gardez dans la feuille que les parties du tournoi.",
    },
    "too_many_cells": {
        "en": "The sheet {sheet} holds more than {limit} cells (counted {count} before stopping), the most a "
        "sheet of a result sheet may hold, so the file is refused. Delete what lies outside the results, or "
        "copy your results into the official result sheet and send that.",
        "fr": "La feuille {sheet} contient plus de {limit} cellules ({count} comptées avant l'arrêt), le "
        "maximum pour une feuille d'une feuille de résultats : le fichier est refusé. Supprimez ce qui "
        "n'appartient pas aux résultats, ou copiez vos résultats dans la feuille de résultats officielle et "
        "envoyez-la.",
    },
    "too_many_rows": {
        "en": "The sheet {sheet} holds more than {limit} rows (counted {count} before stopping), the most a "
        "sheet of a result sheet may hold, so the file is refused. Delete the rows below the results, or "
        "copy your results into the official result sheet and send that.",
        "fr": "La feuille {sheet} contient plus de {limit} lignes ({count} comptées avant l'arrêt), le "
        "maximum pour une feuille d'une feuille de résultats : le fichier est refusé. Supprimez les lignes "
        "sous les résultats, ou copiez vos résultats dans la feuille de résultats officielle et envoyez-la.",
    },
    "macro_enabled": {
        "en": 'The file is a macro-enabled workbook (.xlsm) renamed .xlsx, and the site accepts no macros. '
        'Open it in Excel or LibreOffice, save it as "Excel Workbook (.xlsx)" and send it again.',
        "fr": "Le fichier est un classeur prenant en charge les macros (.xlsm) renommé en .xlsx, et le site "
        "n'accepte aucune macro. Ouvrez-le dans Excel ou LibreOffice, enregistrez-le au format « Classeur "
        "Excel (.xlsx) » et envoyez-le à nouveau.",
    },
    # --- the report itself ---
    "more_errors": {
        "en": "…and {count} more errors, not listed: the report lists the first {limit}. Correct these, then "
        "send the sheet again to see the others.",
        "fr": "…et {count} autres erreurs, non listées : le rapport donne les {limit} premières. Corrigez "
        "celles-ci, puis renvoyez la feuille pour voir les autres.",
    },
    "more_warnings": {
        "en": "…and {count} more warnings, not listed: the report lists the first {limit}.",
        "fr": "…et {count} autres avertissements, non listés : le rapport donne les {limit} premiers.",
    },
    # --- structure ---
    "missing_sheet": {
        "en": "The workbook has no sheet named {sheet}. Add it (the name is not case-sensitive) or copy "
        "your results into the official result sheet.",
        "fr": "Le classeur n'a pas de feuille nommée {sheet}. Ajoutez-la (majuscules et minuscules sont "
        "indifférentes) ou copiez vos résultats dans la feuille de résultats officielle.",
    },
    "missing_label": {
        "en": 'The Tournament sheet has no row labelled "{label}". Add the label in column A and its '
        "value in column B.",
        "fr": "La feuille Tournament n'a pas de ligne intitulée « {label} ». Ajoutez l'intitulé en "
        "colonne A et sa valeur en colonne B.",
    },
    "duplicate_label": {
        "en": 'The label "{label}" appears twice in the Tournament sheet (first at {first_cell}). Keep '
        "one of the two rows.",
        "fr": "L'intitulé « {label} » apparaît deux fois dans la feuille Tournament (d'abord en "
        "{first_cell}). Gardez une seule des deux lignes.",
    },
    "missing_column": {
        "en": 'The {sheet} sheet has no column headed "{column}". Add this header in row 1 and fill the '
        "column.",
        "fr": "La feuille {sheet} n'a pas de colonne intitulée « {column} ». Ajoutez cet en-tête en "
        "ligne 1 et remplissez la colonne.",
    },
    "duplicate_column": {
        "en": 'The {sheet} sheet has two columns headed "{column}" (the first at {first_cell}). Keep one '
        "and rename or delete the other.",
        "fr": "La feuille {sheet} a deux colonnes intitulées « {column} » (la première en {first_cell}). "
        "Gardez-en une et renommez ou supprimez l'autre.",
    },
    "missing_value": {
        "en": '"{field}" is required and is blank. Fill it in.',
        "fr": "« {field} » est obligatoire et n'est pas rempli. Remplissez-le.",
    },
    "unknown_format": {
        "en": 'The Format is "{value}", but the site reads only "{expected}". Write {expected} here; if '
        "the sheet comes from another template, copy your results into the official result sheet.",
        "fr": "Le Format est « {value} », mais le site ne lit que « {expected} ». Écrivez {expected} ici "
        "; si la feuille vient d'un autre modèle, copiez vos résultats dans la feuille de résultats "
        "officielle.",
    },
    # --- values ---
    "not_whole_number": {
        "en": '"{field}" must be a whole number, not "{value}". Write a number without decimals.',
        "fr": "« {field} » doit être un nombre entier, pas « {value} ». Écrivez un nombre sans décimales.",
    },
    "out_of_range": {
        "en": '"{field}" is {value}, outside the allowed range {minimum} to {maximum}. Correct it.',
        "fr": "« {field} » vaut {value}, hors de l'intervalle permis de {minimum} à {maximum}. Corrigez-le.",
    },
    "below_minimum": {
        "en": '"{field}" is {value}, but it must be at least {minimum}. Correct it.',
        "fr": "« {field} » vaut {value}, mais doit valoir au moins {minimum}. Corrigez-le.",
    },
    "round_out_of_range": {
        "en": "Round {value} is not between 1 and {rounds}, the number of Rounds given in the Tournament "
        "sheet. Correct the round, or the Rounds value.",
        "fr": "La ronde {value} n'est pas comprise entre 1 et {rounds}, le nombre de rondes (Rounds) "
        "indiqué dans la feuille Tournament. Corrigez la ronde ou la valeur de Rounds.",
    },
    "not_boolean": {
        "en": '"{field}" must be yes or no, not "{value}". Write yes or no.',
        "fr": "« {field} » doit valoir yes ou no (oui ou non), pas « {value} ». Écrivez yes ou no.",
    },
    "not_date": {
        "en": '"{field}" must be a date, not "{value}". Enter a date, or text in the form YYYY-MM-DD '
        "(for example 2024-03-16).",
        "fr": "« {field} » doit être une date, pas « {value} ». Saisissez une date, ou un texte de la "
        "forme AAAA-MM-JJ (par exemple 2024-03-16).",
    },
    "start_after_end": {
        "en": "The End date {end} is before the Start date {start}. Correct one of the two dates.",
        "fr": "La date de fin (End date) {end} précède la date de début (Start date) {start}. Corrigez "
        "l'une des deux.",
    },
    "date_in_future": {
        "en": '"{field}" is {value}, which is in the future (today is {today}). Send the results after '
        "the tournament, with its real dates.",
        "fr": "« {field} » est le {value}, une date future (nous sommes le {today}). Envoyez les "
        "résultats après le tournoi, avec ses vraies dates.",
    },
    "unknown_country": {
        "en": '"{value}" is not an ISO 3166-1 alpha-2 country code. Write the two-letter code, for '
        "example FR, GB, ES or IT (the United Kingdom is GB).",
        "fr": "« {value} » n'est pas un code pays ISO 3166-1 alpha-2. Écrivez le code à deux lettres, "
        "par exemple FR, GB, ES ou IT (le Royaume-Uni est GB).",
    },
    "unknown_rating_system": {
        "en": 'The Rating system "{value}" is unknown. Write adlg or battle-empire (blank means adlg).',
        "fr": "Le système Elo (Rating system) « {value} » est inconnu. Écrivez adlg ou "
        "battle-empire (vide vaut adlg).",
    },
    "unknown_result": {
        "en": '"{value}" is not a valid {system} result. Write one of: {allowed}.',
        "fr": "« {value} » n'est pas un résultat {system} valide. Écrivez l'un de : {allowed}.",
    },
    "losses_required": {
        "en": '"{field}" is required for the result {result} in AdlG, since it sets the scores. Enter '
        "the army's losses as a whole percentage from 0 to 100.",
        "fr": "« {field} » est obligatoire pour le résultat {result} en AdlG, car il fixe les scores. "
        "Saisissez les pertes de l'armée en pourcentage entier de 0 à 100.",
    },
    "text_too_long": {
        "en": '"{field}" is {length} characters long, more than the {limit} the site keeps. Shorten it.',
        "fr": "« {field} » fait {length} caractères, plus que les {limit} que le site conserve. "
        "Raccourcissez-le.",
    },
    "formula_text": {
        "en": '"{field}" is "{value}": it starts with {start}, so a spreadsheet would run it as a formula '
        "when the site exports it. Remove the {start} at the start.",
        "fr": "« {field} » vaut « {value} » : il commence par {start}, si bien qu'un tableur l'exécuterait "
        "comme une formule quand le site l'exporte. Retirez le {start} du début.",
    },
    "penalty_reason_required": {
        "en": "{Player} has {penalty} penalty points but no Penalty reason. Write the reason (late "
        "list, changed list, disruptive play...) in the Penalty reason column.",
        "fr": "{Player} a {penalty} points de pénalité mais pas de motif (Penalty reason). "
        "Écrivez le motif (liste en retard, liste modifiée, jeu perturbateur...) dans la colonne Penalty "
        "reason.",
    },
    # --- players ---
    "bad_player_id": {
        "en": '"{value}" is not a player ID. Write the player\'s federation ID (a whole number), 99 for '
        "the spare, or a tag N1, N2... for a player new to the federation.",
        "fr": "« {value} » n'est pas un identifiant de joueur. Écrivez l'identifiant fédéral du joueur "
        "(un nombre entier), 99 pour le joueur de réserve, ou une étiquette N1, N2... pour un nouveau "
        "joueur.",
    },
    "duplicate_player": {
        "en": "{Player} is listed twice (first in row {first_row}). Keep one of the two rows, and "
        "give each new player a different tag.",
        "fr": "{Player} figure deux fois (d'abord en ligne {first_row}). Gardez une seule des "
        "deux lignes, et donnez une étiquette différente à chaque nouveau joueur.",
    },
    "new_player_name_required": {
        "en": "New player {key} has no {field}. Write it: the site creates the player from this name.",
        "fr": "Le nouveau joueur {key} n'a pas de {field}. Écrivez-le : le site crée le joueur à partir "
        "de ce nom.",
    },
    "not_in_players": {
        "en": "Player {key} plays in this game but is not in the Players sheet. Add a row for {key} in "
        "Players, or correct the ID here.",
        "fr": "Le joueur {key} joue cette partie mais ne figure pas dans la feuille Players. Ajoutez une "
        "ligne pour {key} dans Players, ou corrigez l'identifiant ici.",
    },
    # --- games ---
    "player_twice_in_round": {
        "en": "{Player} plays two games in round {round} (the other in row {first_row}). Correct one "
        "of the two pairings.",
        "fr": "{Player} joue deux parties à la ronde {round} (l'autre en ligne {first_row}). "
        "Corrigez l'un des deux appariements.",
    },
    "player_against_himself": {
        "en": "{Player} is paired against himself. Correct Player A or Player B.",
        "fr": "{Player} est apparié contre lui-même. Corrigez Player A ou Player B.",
    },
    "spare_against_spare": {
        "en": "The spare (99) is paired against the spare. Correct Player A or Player B.",
        "fr": "Le joueur de réserve (99) est apparié contre lui-même. Corrigez Player A ou Player B.",
    },
    "different_pools": {
        "en": "{Player_a} is in pool {pool_a} and {player_b} in pool {pool_b}: players of different pools cannot "
        "play each other. Correct the pairing, or the Pool column of the Players sheet.",
        "fr": "{Player_a} est dans la poule {pool_a} et {player_b} dans la poule {pool_b} : des joueurs de "
        "poules différentes ne peuvent pas jouer ensemble. Corrigez l'appariement, ou la colonne Pool de la feuille "
        "Players.",
    },
    "players_met_twice": {
        "en": "{Player_a} and {player_b} already met (row {first_row}), and players can never meet twice in a "
        "tournament (charter App. 2 §2.a.i). Correct one of the two pairings.",
        "fr": "{Player_a} et {player_b} se sont déjà rencontrés (ligne {first_row}), or deux joueurs ne "
        "peuvent jamais se rencontrer deux fois dans un tournoi (charte, ann. 2 §2.a.i). Corrigez l'un "
        "des deux appariements.",
    },
    "free_game_not_last_round": {
        "en": "This free game is in round {round}, but free games are allowed only in the last round, "
        "{last_round} (charter App. 2 §5). Write no in Free game, or correct the round.",
        "fr": "Cette partie libre est à la ronde {round}, mais les parties libres ne sont permises qu'à "
        "la dernière ronde, la {last_round} (charte, ann. 2 §5). Écrivez no dans Free game, ou corrigez "
        "la ronde.",
    },
    # --- checks against the federation's database (check_sheet) ---
    "unknown_player_id": {
        "en": "The federation has no player with ID {id}. Check the ID in the site's player list, or "
        "give a tag N1, N2... to a player new to the federation.",
        "fr": "La fédération n'a pas de joueur d'identifiant {id}. Vérifiez l'identifiant dans la liste "
        "des joueurs du site, ou donnez une étiquette N1, N2... à un joueur nouveau dans la fédération.",
    },
    "excluded_player": {
        "en": "{Player} is excluded from the federation's rankings, and none of their games can count "
        "(charter App. 7 §3). Remove the player's row and games, or contact the technical board.",
        "fr": "{Player} est exclu des classements de la fédération et aucune de ses parties ne "
        "peut compter (charte, ann. 7 §3). Retirez sa ligne et ses parties, ou contactez le bureau "
        "technique.",
    },
    "unknown_tournament_id": {
        "en": "The site has no tournament with ID {id}. Leave Tournament ID blank for a tournament new "
        "to the site, or correct it.",
        "fr": "Le site n'a pas de tournoi d'identifiant {id}. Laissez Tournament ID vide pour un tournoi "
        "nouveau sur le site, ou corrigez-le.",
    },
    "tournament_running_live": {
        "en": 'Tournament {id} ("{name}") is being run live on the site: its results will be those of its '
        'tournament day. Publish the tournament day first ("Publish the tournament", on its page under Run a '
        "tournament live); then send a sheet if its results need correcting. To finish the day in this sheet "
        'instead, choose "Finish in the spreadsheet" on that page first.',
        "fr": "Le tournoi {id} (« {name} ») se déroule en direct sur le site\u00a0: ses résultats seront ceux "
        "de sa journée de tournoi. Publiez d'abord la journée (« Publier le tournoi », sur sa page sous Diriger "
        "un tournoi en direct)\u00a0; envoyez ensuite une feuille si ses résultats sont à corriger. Pour finir "
        "la journée dans cette feuille, choisissez d'abord « Finir dans le tableur » sur cette page.",
    },
    "tournament_already_on_site": {
        "en": 'The site already has the tournament "{name}" starting {start}, with ID {id}. To correct '
        "it, give its ID {id} in Tournament ID; if this is another tournament, give it another name.",
        "fr": "Le site a déjà le tournoi « {name} » commençant le {start}, d'identifiant {id}. Pour le "
        "corriger, indiquez son identifiant {id} dans Tournament ID ; s'il s'agit d'un autre tournoi, "
        "donnez-lui un autre nom.",
    },
    "rating_system_mismatch": {
        "en": "Tournament {id} is rated with {site_system} on the site, but this sheet says "
        "{sheet_system}. Correct the Rating system or the Tournament ID.",
        "fr": "Le tournoi {id} est classé en {site_system} sur le site, mais cette feuille indique "
        "{sheet_system}. Corrigez le Rating system ou le Tournament ID.",
    },
    # --- warnings ---
    "same_club_pairing": {
        "en": "{Player_a} and {player_b}, both of club {club}, are paired in round {round}; the charter asks "
        "to avoid this in the first round, and the first two from 4 rounds up (App. 2 §2.a.ii). Check "
        "the pairing; the import goes on.",
        "fr": "{Player_a} et {player_b}, tous deux du club {club}, sont appariés à la ronde {round} ; la "
        "charte demande de l'éviter à la première ronde, et aux deux premières à partir de 4 rondes "
        "(ann. 2 §2.a.ii). Vérifiez l'appariement ; l'import continue.",
    },
    "player_without_game": {
        "en": "{Player} is registered but plays no game. Add the player's games or remove the row; "
        "the import goes on.",
        "fr": "{Player} est inscrit mais ne joue aucune partie. Ajoutez ses parties ou retirez la "
        "ligne ; l'import continue.",
    },
    "new_player_matches_known": {
        "en": "{Player}, new to the federation, has the same name and club as the known player {first_name} "
        "{last_name} ({id}). If it is the same person, write {id} instead of {key}; the import goes on.",
        "fr": "{Player}, nouveau dans la fédération, a le même nom et le même club que le joueur connu "
        "{first_name} {last_name} ({id}). Si c'est la même personne, écrivez {id} au lieu de {key} ; l'import "
        "continue.",
    },
    "name_differs": {
        "en": "Player {id} is {site_name} on the site but {sheet_name} in the sheet; the site's name "
        "stands. Check that the ID is right; the import goes on.",
        "fr": "Le joueur {id} s'appelle {site_name} sur le site mais {sheet_name} dans la feuille ; le "
        "nom du site est conservé. Vérifiez que l'identifiant est le bon ; l'import continue.",
    },
}


def language(lang: str | None) -> str:
    """The catalogue language for a requested one: 'fr', 'fr-FR', 'FR_ca' give 'fr'; anything else 'en'."""
    if lang and lang.strip().lower()[:2] == "fr":
        return "fr"
    return "en"


def render(*, code: str, params: Mapping[str, object], lang: str | None = "en") -> str:
    """The sentence for an issue, in the language asked for."""
    lang = language(lang)
    if code in CHARTER_CODES and code not in MESSAGES:
        return _charter_message(code=code, params=params, lang=lang)
    templates = MESSAGES.get(code)
    if templates is None:
        # A code without a message is a bug of ours, but the referee still deserves a readable line.
        return code
    return templates[lang].format(**people(params, lang))


# A player without a name in the sheet (the admin's forms, a tag never listed) is still "player 229".
_UNNAMED = {"en": "player {ref}", "fr": "le joueur {ref}"}
_PEOPLE = (("key", "name", "player"), ("id", "name", "player"), ("a", "a_name", "player_a"),
           ("b", "b_name", "player_b"))


def people(params: Mapping[str, object], lang: str) -> dict[str, object]:
    """The params with the words for each player they refer to (rules.sheet.naming): ``player``, ``player_a``,
    ``player_b`` ("Benoît Moreau (229)", or "player 229" without a name), and the same capitalised for the start
    of a sentence (``Player``, ``Player_a``, ``Player_b``). A report stored before names were added still
    renders, its players by number."""
    words = dict(params)
    for reference, name_param, word in _PEOPLE:
        if reference not in params or word in words:
            continue
        name = params.get(name_param)
        text = f"{name} ({params[reference]})" if name else _UNNAMED[lang].format(ref=params[reference])
        words[word] = text
        words[word.capitalize()] = text[:1].upper() + text[1:]
    return words


def _charter_message(*, code: str, params: Mapping[str, object], lang: str) -> str:
    from rules.charter import CharterFailure, charter_failure_message

    return charter_failure_message(CharterFailure(code=code, params=dict(params)), lang)
