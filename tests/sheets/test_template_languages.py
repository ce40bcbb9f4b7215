"""The result template in the referee's language: French sheet, label and header names on the French site, read
exactly as the English template (RESULT_SHEET.md is the English contract; the reader takes both)."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from openpyxl import load_workbook

from rules.sheet.format import GAME_COLUMNS, PLAYER_COLUMNS, SHEETS, TOURNAMENT_LABELS
from rules.sheet.reader import read_sheet
from rules.sheet.values import header_key
from tests.sheets.builders import TODAY, SheetBuilder
from tests.sheets.lo import libreoffice_saved, needs_libreoffice
from tests.sheets.test_template import SPRING_CLASH, expected_standings
from tournaments.sheets.annotate import annotate_workbook
from tournaments.sheets.template import ENGLISH, prefilled_workbook
from tournaments.sheets.words import template_words


def words_in(language: str):
    with translation.override(language):
        return template_words()


def filled(words) -> bytes:
    """The pre-filled template of the two-pool valid sheet in `words`, its games typed in, a penalty and a free
    game of the last round included: the same cells whatever the language."""
    builder = SheetBuilder.valid(two_pools=True)
    players = [tuple(row[:6]) for row in builder.players]
    workbook = load_workbook(io.BytesIO(prefilled_workbook(tournament=SPRING_CLASH, players=players, words=words)))
    workbook[words.sheets["Players"]]["H3"] = 20
    workbook[words.sheets["Players"]]["I3"] = "late list"
    games = workbook[words.sheets["Games"]]
    for index, row in enumerate(builder.games):
        values = list(row)
        if index == 10:
            values[7] = words.yes  # played free
        games.append(values)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def test_the_english_catalogue_gives_the_templates_english_words():
    """On the English site the template is RESULT_SHEET.md's, word for word."""
    assert words_in("en") == ENGLISH


def test_the_french_template_names_its_sheets_labels_and_headers_in_french():
    words = words_in("fr")
    workbook = load_workbook(io.BytesIO(prefilled_workbook(tournament=SPRING_CLASH, players=[], words=words)))
    assert workbook.sheetnames == ["Tournoi", "Joueurs", "Parties", "Classement"]
    assert [workbook["Tournoi"][f"A{n}"].value for n in (2, 3, 5)] == ["ID du tournoi", "Nom", "Date de début"]
    assert workbook["Tournoi"]["B13"].value == "non" and workbook["Tournoi"]["B14"].value == "oui"  # Mondial, Officiel
    assert [c.value for c in workbook["Joueurs"][1]][:3] == ["ID", "Nom", "Prénom"]
    assert [c.value for c in workbook["Parties"][1]][2:5] == ["Joueur A", "Joueur B", "Résultat"]
    assert "Joueurs!" in workbook["Classement"]["B2"].value  # the offline standings read the French sheets
    assert "Comment remplir" in workbook["Tournoi"]["E1"].value


def test_every_french_name_is_one_the_reader_takes():
    """A label or header the catalogue writes but the reader does not know would make every French sheet fail."""
    words = words_in("fr")
    blank = prefilled_workbook(tournament=SPRING_CLASH, players=[], words=words)
    report = read_sheet(blank, today=TODAY).report
    codes = {issue.code for issue in report.errors}
    assert not codes & {"missing_sheet", "missing_column", "missing_label"}, report.errors
    assert set(words.labels) == {key for key, _, _ in TOURNAMENT_LABELS}
    assert set(words.player_headers) == {key for key, _, _ in PLAYER_COLUMNS}
    assert set(words.game_headers) == {key for key, _, _ in GAME_COLUMNS}
    assert set(SHEETS) <= set(words.sheets)


def test_a_filled_french_template_is_read_exactly_as_the_english_one():
    english = read_sheet(filled(words_in("en")), today=TODAY)
    french = read_sheet(filled(words_in("fr")), today=TODAY)
    assert not english.report.errors and not french.report.errors, french.report.errors
    assert french.tournament == english.tournament
    assert french.players == english.players
    assert french.games == english.games
    assert any(g.free for g in french.games) and any(p.penalty for p in french.players)


def test_a_french_workbook_gets_its_faults_marked_in_its_french_sheets():
    words = words_in("fr")
    workbook = load_workbook(io.BytesIO(filled(words)))
    workbook["Parties"]["E2"] = "X"  # not a result
    out = io.BytesIO()
    workbook.save(out)
    parsed = read_sheet(out.getvalue(), today=TODAY)
    bad = [issue for issue in parsed.report.errors if issue.sheet == "Games" and issue.cell == "E2"]
    assert bad, parsed.report.errors
    annotated = load_workbook(io.BytesIO(annotate_workbook(out.getvalue(), parsed.report, lang="fr")))
    assert annotated["Parties"]["E2"].comment is not None


@needs_libreoffice
def test_the_french_templates_offline_standings_compute_as_the_english_ones():
    data = filled(words_in("fr"))
    saved = load_workbook(io.BytesIO(libreoffice_saved(data)), data_only=True, read_only=True)["Classement"]
    shown = {str(r[0]): (r[2], r[6], r[7]) for r in saved.iter_rows(min_row=2, max_row=202, max_col=9, values_only=True)
             if r[0] not in (None, "", "99")}
    expected = {key: value[:3] for key, value in expected_standings(data).items()}
    assert shown.keys() == expected.keys()
    for key, (pool, score, opponents) in expected.items():
        assert shown[key] == (pool, pytest.approx(score), pytest.approx(opponents)), key


def test_the_reading_keeps_each_sheets_own_title_for_the_report_to_name_it():
    french = read_sheet(filled(words_in("fr")), today=TODAY)
    english = read_sheet(filled(words_in("en")), today=TODAY)
    assert french.sheet_titles == {"Tournament": "Tournoi", "Players": "Joueurs", "Games": "Parties"}
    assert english.sheet_titles == {name: name for name in SHEETS}


def test_a_label_is_read_with_either_apostrophe():
    """The French template writes "Points d’armée"; a referee retyping the label types "Points d'armée"."""
    assert header_key("Points d'armée") == header_key("Points d’armée :") == "points d'armée"
