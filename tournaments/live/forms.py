"""The forms of the tournament day's pages (tournaments.live.*_views). They check the shape of what was typed; the
rules themselves (who may play, what a result may be) are the services' (tournaments.live), which refuse with
words the page shows."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.pairing import DRAW, ELO_LEVELS, HATS
from rules.rulesets import SPARE_ID
from tournaments.live.entrants import NewEntrant
from tournaments.live.pools import NEW_KEY
from tournaments.live.results import Result
from tournaments.models import LiveTournament

METHOD_CHOICES = [
    (ELO_LEVELS, _("Elo levels: three groups by rating, a draw inside each")),
    (DRAW, _("Draw: a single hat")),
    (HATS, _("Two hats: one name from each")),
]
SWISS_CHOICES = [("", _("As the charter says (adapted Swiss when there is a choice)")),
                 *LiveTournament.SWISS_CHOICES]


class StartForm(forms.Form):
    swiss = forms.ChoiceField(label=_("From round 2"), choices=SWISS_CHOICES, required=False,
                              help_text=_("A choice only when the number of players is exactly the ideal number."))
    players_enter_results = forms.BooleanField(
        label=_("Players may enter their own table's result"), required=False,
        help_text=_("A result counts once both players have entered the same; you can always change it."))


class SelfEntryForm(forms.Form):
    players_enter_results = forms.BooleanField(label=_("Players may enter their own table's result"),
                                               required=False)


class FindPlayerForm(forms.Form):
    q = forms.CharField(label=_("Name or ID"), max_length=80, required=False)


class AddPlayerForm(forms.Form):
    """A federation player (by ID), or a player new to the federation (by name)."""

    player = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    last_name = forms.CharField(label=_("Last name"), max_length=80, required=False)
    first_name = forms.CharField(label=_("First name"), max_length=80, required=False)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    country = forms.CharField(label=_("Country (2 letters)"), max_length=2, required=False)
    pool = forms.CharField(label=_("Pool"), max_length=30, required=False, initial="A")
    hat = forms.TypedChoiceField(label=_("Hat"), required=False, coerce=int, empty_value=None,
                                 choices=[("", "—"), ("1", "1"), ("2", "2")])

    def entrant(self) -> NewEntrant:
        data = self.cleaned_data
        return NewEntrant(player=data["player"], last_name=data["last_name"], first_name=data["first_name"],
                          club=data["club"], country=data["country"], pool=data["pool"] or "A", hat=data["hat"])


class WithdrawForm(forms.Form):
    entrant = forms.IntegerField(widget=forms.HiddenInput)
    from_round = forms.IntegerField(label=_("From round"), min_value=1)


class PairForm(forms.Form):
    pool = forms.CharField(max_length=30, required=False, initial="A", widget=forms.HiddenInput)
    method = forms.ChoiceField(label=_("Round 1 method"), choices=METHOD_CHOICES, required=False)
    seed = forms.IntegerField(label=_("Seed (blank: the site draws one)"), required=False, min_value=0)


class ManualPairsForm(forms.Form):
    """A round paired by hand (PAIRING.md §5): one table per line, two players by federation ID (99 the spare, N12
    a player new to the federation, as on the players' page)."""

    pool = forms.CharField(max_length=30, required=False, initial="A", widget=forms.HiddenInput)
    pairs = forms.CharField(label=_("One table per line: the two players' IDs"), max_length=4000,
                            widget=forms.Textarea(attrs={"rows": 6, "autocomplete": "off", "spellcheck": "false"}))
    reason = forms.CharField(label=_("Reason (required when a rule is bent)"), max_length=500, required=False,
                             widget=forms.Textarea(attrs={"rows": 2}))

    def clean_pairs(self) -> list[tuple[int, int]]:
        pairs = []
        for number, line in enumerate(self.cleaned_data["pairs"].splitlines(), 1):
            words = line.replace(",", " ").replace(";", " ").replace("-", " ").split()
            if not words:
                continue
            if len(words) != 2:
                raise forms.ValidationError(_("Line %(line)s: write two IDs, such as 1234 5678.") % {"line": number})
            pairs.append(tuple(_key(word, number) for word in words))
        if not pairs:
            raise forms.ValidationError(_("Write at least one table."))
        return pairs


def _key(word: str, line: int) -> int:
    """A player's ID as the pairing reads it: 99 the spare, N12 the new player of entrant row 12."""
    text = word.strip().upper()
    if text.startswith("N") and text[1:].isdigit():
        return NEW_KEY + int(text[1:])
    if text.isdigit() and 0 < int(text) < NEW_KEY:
        return int(text) if int(text) != SPARE_ID else SPARE_ID
    raise forms.ValidationError(_("Line %(line)s: %(word)s is not a player ID.") % {"line": line, "word": word})


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label=_("Swap"), coerce=int)
    second = forms.TypedChoiceField(label=_("with"), coerce=int)
    reason = forms.CharField(label=_("Reason (required when a rule is bent)"), max_length=500, required=False,
                             widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = players
        self.fields["second"].choices = players


class ResultForm(forms.Form):
    """One table's result with the sheet's codes and losses (RESULT_SHEET.md Games)."""

    result = forms.ChoiceField(label=_("Result"), widget=forms.RadioSelect)
    a_losses = forms.IntegerField(label=_("A losses %"), required=False, min_value=0, max_value=100)
    b_losses = forms.IntegerField(label=_("B losses %"), required=False, min_value=0, max_value=100)
    free = forms.BooleanField(label=_("Free game (counts for Elo only)"), required=False)
    reason = forms.CharField(label=_("Reason for the change"), max_length=500, required=False)

    def __init__(self, *args, codes: tuple[str, ...], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["result"].choices = [(code, code) for code in codes]

    def result_for(self, table: int) -> Result:
        data = self.cleaned_data
        return Result(table, data["result"], data["a_losses"], data["b_losses"], bool(data["free"]))
