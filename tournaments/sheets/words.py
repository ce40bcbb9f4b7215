"""The result template's words in the active language, from the translation catalogue.

tournaments.sheets.template writes whatever SheetWords it is given and imports no Django; this module fills them
with gettext, so that a referee on the French site downloads a template whose sheets, labels and headers are
French. The reader (rules.sheet) takes the French names as aliases of the English ones; the test of the two
(tests/sheets/test_template_languages.py) holds the catalogue to them. The sheet names, labels and headers carry
the context "result sheet": a word of the workbook, not of a page.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.sheets.template import SheetWords


def template_words() -> SheetWords:
    return SheetWords(
        sheets={"Tournament": pgettext("result sheet", "Tournament"), "Players": pgettext("result sheet", "Players"),
                "Games": pgettext("result sheet", "Games"), "Standings": pgettext("result sheet", "Standings")},
        labels={
            "format": pgettext("result sheet", "Format"),
            "tournament_id": pgettext("result sheet", "Tournament ID"),
            "name": pgettext("result sheet", "Name"),
            "rating_system": pgettext("result sheet", "Rating system"),
            "start": pgettext("result sheet", "Start date"),
            "end": pgettext("result sheet", "End date"),
            "city": pgettext("result sheet", "City"),
            "country": pgettext("result sheet", "Country"),
            "organising_club": pgettext("result sheet", "Organising club"),
            "referee": pgettext("result sheet", "Referee"),
            "army_points": pgettext("result sheet", "Army points"),
            "rounds": pgettext("result sheet", "Rounds"),
            "worlds": pgettext("result sheet", "Worlds"),
            "official": pgettext("result sheet", "Official"),
        },
        player_headers={
            "id": pgettext("result sheet", "ID"),
            "last_name": pgettext("result sheet", "Last name"),
            "first_name": pgettext("result sheet", "First name"),
            "club": pgettext("result sheet", "Club"),
            "country": pgettext("result sheet", "Country"),
            "pool": pgettext("result sheet", "Pool"),
            "army": pgettext("result sheet", "Army"),
            "penalty": pgettext("result sheet", "Penalty"),
            "penalty_reason": pgettext("result sheet", "Penalty reason"),
        },
        game_headers={
            "round": pgettext("result sheet", "Round"),
            "table": pgettext("result sheet", "Table"),
            "a": pgettext("result sheet", "Player A"),
            "b": pgettext("result sheet", "Player B"),
            "result": pgettext("result sheet", "Result"),
            "a_losses": pgettext("result sheet", "A losses %"),
            "b_losses": pgettext("result sheet", "B losses %"),
            "free": pgettext("result sheet", "Free game"),
        },
        hints={
            "format": _("Do not change."),
            "tournament_id": _("The site's ID of the tournament; blank for a tournament new to the site."),
            "name": _("Required."),
            "rating_system": _("adlg (default) or battle-empire."),
            "start": _("Required. A date (YYYY-MM-DD), not in the future."),
            "end": _("Required. A date, on or after the start date."),
            "city": _("Required."),
            "country": _("Required. ISO code: FR, GB, ES, IT..."),
            "organising_club": _("Optional."),
            "referee": _("Required."),
            "army_points": _("Optional. 100 to 300."),
            "rounds": _("Required. 1 to 12."),
            "worlds": _("yes or no (default no)."),
            "official": _("yes or no (default yes)."),
        },
        help=(
            _("How to fill this result sheet"),
            _("1. Tournament: one value per row in column B. Keep the labels of column A."),
            _("2. Players: one row per player. ID = federation ID; 99 = the spare; N1, N2... = a player new to the "
              "federation (last and first name required)."),
            _("3. Games: one row per game. Result: A, B, D, DD, FA, FB in AdlG; A, A+, A++, B, B+, B++, D in Battle "
              "Empire. Losses: each army's losses in percent, 0 to 100 (required for A, B, D in AdlG). Free "
              "game: last round only."),
            _("4. Standings shows your scores and ranks offline; the site ignores it."),
            _("Upload the file as it is (.xlsx); the site lists every problem with its cell."),
        ),
        yes=pgettext("result sheet", "yes"),
        no=pgettext("result sheet", "no"),
        standings={
            "id": pgettext("result sheet", "ID"), "name": pgettext("result sheet", "Name"),
            "pool": pgettext("result sheet", "Pool"), "games": pgettext("result sheet", "Games"),
            "points": pgettext("result sheet", "Game points"), "penalty": pgettext("result sheet", "Penalty"),
            "score": pgettext("result sheet", "Score"), "opponents": pgettext("result sheet", "Opponents' score"),
            "rank": pgettext("result sheet", "Rank in pool"), "round": pgettext("result sheet", "Round"),
            "a": pgettext("result sheet", "Player A"), "b": pgettext("result sheet", "Player B"),
            "result": pgettext("result sheet", "Result"), "a_losses": pgettext("result sheet", "A losses %"),
            "b_losses": pgettext("result sheet", "B losses %"), "scored": pgettext("result sheet", "Scored"),
            "forfeit": pgettext("result sheet", "Forfeit"), "a_score": pgettext("result sheet", "A score"),
            "b_score": pgettext("result sheet", "B score"),
            "a_opponent": pgettext("result sheet", "A's opponent score"),
            "b_opponent": pgettext("result sheet", "B's opponent score"),
            "game_pool": pgettext("result sheet", "Pool"),
            "spare": pgettext("result sheet", "Spare (all pools)"),
            "note": _("Scores as the charter computes them (App. 4). Players with equal score and opponents' score "
                      "share a rank here; the site settles them by their game, then rating, then ID. Formulas use "
                      "the template's columns: do not move them."),
        },
    )
