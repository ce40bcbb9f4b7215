"""The admin's forms of the facts: they refuse what the result sheet's check refuses, through the same pure
functions (rules.sheet.checks: text_faults, game_faults), with the same sentences in the board's language.

Terms:
- *texts*: a form's map of its model fields to the keys of rules.sheet.format.TEXT_LIMITS (the length the
  database keeps, and no text a spreadsheet would run as a formula).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _

from adlg_site.words import say
from rules.sheet import messages
from rules.sheet.checks import Fault, game_faults, text_faults


def fault_message(fault: Fault) -> str:
    return say(messages.render, code=fault.code, params=fault.params)


class FactForm(forms.ModelForm):
    """A ModelForm whose `texts` are checked as the sheet checks them."""

    texts: dict[str, str] = {}

    def clean(self):
        cleaned = super().clean()
        for name, key in self.texts.items():
            value = cleaned.get(name)
            if isinstance(value, str):
                for fault in text_faults(key=key, label=str(self.fields[name].label), text=value.strip()):
                    self.add_error(name, fault_message(fault))
        return cleaned


class PlayerForm(FactForm):
    texts = {"last_name": "last_name", "first_name": "first_name"}


class ClubForm(FactForm):
    texts = {"name": "club"}


class RegistrationForm(FactForm):
    texts = {"pool": "pool", "army": "army", "penalty_reason": "penalty_reason"}


# A game's fields as the sheet's rules name them.
GAME_FIELDS = {"a": "player_a", "b": "player_b", "result": "result", "a_losses": "a_losses",
               "b_losses": "b_losses", "round": "round", "free": "free"}


class GameForm(FactForm):
    def clean(self):
        cleaned = super().clean()
        tournament = cleaned.get("tournament")
        a, b = cleaned.get("player_a"), cleaned.get("player_b")
        if tournament is None or a is None or b is None or cleaned.get("round") is None:
            return cleaned  # a required field is missing: Django says so
        faults = game_faults(
            system=tournament.system_id, a=a.pk, b=b.pk, result=cleaned.get("result") or "",
            a_losses=cleaned.get("a_losses"), b_losses=cleaned.get("b_losses"),
            round_number=cleaned["round"], rounds=tournament.rounds, free=bool(cleaned.get("free")),
        )
        for fault in faults:
            self.add_error(GAME_FIELDS[fault.field], fault_message(fault))
        return cleaned


class TournamentForm(FactForm):
    """A tournament's texts, and its games still valid under a changed rating system or number of rounds."""

    texts = {"name": "name", "city": "city", "referee_name": "referee"}

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("start_date"), cleaned.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The last day is before the first day."))
        system, rounds = cleaned.get("system"), cleaned.get("rounds")
        if self.instance.pk is None or system is None or rounds is None:
            return cleaned
        games = self.instance.games.values_list(
            "pk", "round", "table", "player_a_id", "player_b_id", "result", "a_losses", "b_losses", "free")
        for pk, round_number, table, a, b, result, a_losses, b_losses, free in games:
            faults = game_faults(system=system.pk, a=a, b=b, result=result, a_losses=a_losses, b_losses=b_losses,
                                 round_number=round_number, rounds=rounds, free=free)
            if faults:
                self.add_error(None, _("Game %(game)s (round %(round)s, table %(table)s): %(problem)s") % {
                    "game": pk, "round": round_number, "table": table, "problem": fault_message(faults[0])})
        return cleaned
