"""The forms of the tournament day's pages (tournaments.live.*_views). They check the shape of what was typed; the
rules themselves (who may play, what a result may be) are the services' (tournaments.live), which refuse with
words the page shows."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from adlg_site.inputs import whole_number
from rules.pairing import DRAW, ELO_LEVELS, HATS
from rules.sheet.format import TEXT_LIMITS
from tournaments.live.entrants import NewEntrant
from tournaments.live.page_tools import lang as _lang
from tournaments.live.pools import NEW_KEY
from tournaments.live.refusals import LiveRefused
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


class ScreenChancesForm(forms.Form):
    screen_chances = forms.BooleanField(label=_("The big screen shows each player's chances"), required=False)


HAT_CHOICES = [("", _("no hat")), ("1", _("hat 1")), ("2", _("hat 2"))]


def _new_pool_field() -> forms.CharField:
    """A new pool is an explicit act: its own field, next to the list of the tournament's pools."""
    return forms.CharField(label=_("or a new pool named"), max_length=TEXT_LIMITS["pool"], required=False)


class PoolChoice:
    """A form whose `pool` is chosen from the tournament's pools, or `new_pool` names a new one."""

    def pool_choice(self) -> tuple[str, bool]:
        """(the pool, whether the referee asked for a new one): the new pool's name wins when one is typed."""
        data = self.cleaned_data
        new = (data.get("new_pool") or "").strip()
        if new:
            return new, True
        return (data.get("pool") or "").strip() or "A", False


class FindPlayerForm(PoolChoice, forms.Form):
    """The referee's search of the federation's players, and the pool and hat the players found go into."""

    q = forms.CharField(label=_("Name or ID"), max_length=80, required=False)
    pool = forms.CharField(label=_("Pool"), max_length=TEXT_LIMITS["pool"], required=False)
    new_pool = _new_pool_field()
    hat = forms.TypedChoiceField(label=_("Hat"), required=False, coerce=int, empty_value=None, choices=HAT_CHOICES)


def _text(label, limit: int, **attrs) -> forms.CharField:
    return forms.CharField(label=label, max_length=limit, required=False,
                           widget=forms.TextInput(attrs={"autocomplete": "off", **attrs}))


class NewPlayerFields(forms.Form):
    """A new player's names, club and country. Their shape only: what the sheet would refuse is the service's to
    say (tournaments.live.entrants.new_player_texts), beside the field it concerns (`refused`)."""

    last_name = _text(_("Last name"), TEXT_LIMITS["last_name"], autocapitalize="words")
    first_name = _text(_("First name"), TEXT_LIMITS["first_name"], autocapitalize="words")
    club = _text(_("Club (blank: independent)"), TEXT_LIMITS["club"], list="club-names")
    # Longer than a code, so that "United Kingdom" is answered with the sheet's words, not a length.
    country = _text(_("Country (ISO code: FR, GB, ES…)"), 60, list="country-codes", autocapitalize="characters",
                    size="4")
    new_club = forms.BooleanField(label=_("It is a new club: create it"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.refused_codes: set[str] = set()

    @property
    def asks_new_club(self) -> bool:
        """Whether to offer "it is a new club": the club typed is not the federation's, or was confirmed new."""
        return "club_unknown" in self.refused_codes or bool(self.is_bound and self.data.get("new_club"))

    def refused(self, exc) -> list[str]:
        """A service's refusal: each notice about a field as that field's error, worded with the field's label;
        the others returned, to be shown above the form."""
        others = []
        for (code, params), text in zip(exc.notices, exc.messages(_lang()), strict=True):
            field = params.get("input")
            self.refused_codes.add(code)
            if field in self.fields:
                label = str(self.fields[field].label).split(" (")[0]
                worded = LiveRefused.one(code, **{**params, "field": label}).messages(_lang())[0] \
                    if "field" in params else text
                self.add_error(field, worded)
            else:
                others.append(text)
        return others


class AddPlayerForm(PoolChoice, NewPlayerFields):
    """A federation player (by ID), or a player new to the federation (by name), to a pool and a hat."""

    player = forms.IntegerField(required=False, min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput)
    pool = forms.CharField(label=_("Pool"), max_length=TEXT_LIMITS["pool"], required=False, initial="A")
    new_pool = _new_pool_field()
    hat = forms.TypedChoiceField(label=_("Hat"), required=False, coerce=int, empty_value=None, choices=HAT_CHOICES)
    # The referee saw the federation's players of that name and says this one is none of them.
    confirm_new = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def entrant(self) -> NewEntrant:
        data = self.cleaned_data
        pool, new_pool = self.pool_choice()
        return NewEntrant(player=data["player"], last_name=data["last_name"], first_name=data["first_name"],
                          club=data["club"], country=data["country"], pool=pool, new_pool=new_pool,
                          hat=data["hat"], new_club=data["new_club"])


class BulkCheckForm(PoolChoice, forms.Form):
    """Several federation players pasted at once, one a line (entrants.pasted_players), for one pool and hat."""

    lines = forms.CharField(label=_("IDs or names, one a line"), max_length=8000,
                            widget=forms.Textarea(attrs={"rows": 6, "autocomplete": "off", "spellcheck": "false"}))
    pool = forms.CharField(label=_("Pool"), max_length=TEXT_LIMITS["pool"], required=False, initial="A")
    new_pool = _new_pool_field()
    hat = forms.TypedChoiceField(label=_("Hat"), required=False, coerce=int, empty_value=None, choices=HAT_CHOICES)

    def __init__(self, *args, **kwargs):
        # The players page also holds the form adding one new player, whose pool and hat have the default ids.
        kwargs.setdefault("auto_id", "id_paste_%s")
        super().__init__(*args, **kwargs)


class BulkAddForm(BulkCheckForm):
    """The players the check found, by ID, added in one step."""

    players = forms.CharField(max_length=2000, widget=forms.HiddenInput)

    def clean_players(self) -> list[int]:
        ids = [whole_number(part, minimum=1) for part in self.cleaned_data["players"].split(",")]
        if not ids or None in ids or any(i > 2**31 - 1 for i in ids):
            raise forms.ValidationError(_("Check the list again."))
        return ids


class EditEntrantForm(NewPlayerFields):
    """A new player's names, club and country corrected before the publication."""


class MoveForm(PoolChoice, forms.Form):
    pool = forms.CharField(label=_("Pool"), max_length=TEXT_LIMITS["pool"], required=False)
    new_pool = _new_pool_field()
    hat = forms.TypedChoiceField(label=_("Hat"), required=False, coerce=int, empty_value=None, choices=HAT_CHOICES)


class RemoveForm(forms.Form):
    """Removing an entrant is asked twice: the box ticked says the referee means it."""

    confirm = forms.BooleanField(label=_("Yes, remove this player: they appear nowhere any more"))


class PresentForm(forms.Form):
    present = forms.BooleanField(required=False)


class AllPresentForm(forms.Form):
    pool = forms.CharField(max_length=TEXT_LIMITS["pool"], required=False, widget=forms.HiddenInput)


class _DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self):
        super().__init__(format="%Y-%m-%d")


class DatesForm(forms.Form):
    """The tournament's real dates and rounds, confirmed by the referee before it is run live."""

    start_date = forms.DateField(label=_("First day"), widget=_DateInput())
    end_date = forms.DateField(label=_("Last day"), widget=_DateInput(),
                               help_text=_("The tournament is published on its last day or after."))
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=12,
                                widget=forms.NumberInput(attrs={"inputmode": "numeric"}))


class CancelForm(forms.Form):
    confirm = forms.BooleanField(label=_("Yes, cancel the live run: its players and proposals are discarded"))


class HandOverForm(forms.Form):
    confirm = forms.BooleanField(label=_("Yes, I finish the day in the spreadsheet: the site's pages of the day "
                                         "stop changing until I upload the sheet or take the day back"))


class ReissueLinkForm(forms.Form):
    confirm = forms.BooleanField(label=_("The old link stops working"))


class WithdrawForm(forms.Form):
    entrant = forms.IntegerField(widget=forms.HiddenInput)
    from_round = forms.IntegerField(label=_("From round"), min_value=1)


class PairForm(forms.Form):
    """Pair the next round, or pair (draw) it again. No seed: the site draws one (PAIRING.md §3, 2026-11-26);
    the commands' --seed reproduces a draw."""

    pool = forms.CharField(max_length=30, required=False, initial="A", widget=forms.HiddenInput)
    method = forms.ChoiceField(label=_("Round 1 method"), choices=METHOD_CHOICES, required=False)
    reason = forms.CharField(label=_("Why pair it again? (shown on the public page)"), max_length=500,
                             required=False, widget=forms.Textarea(attrs={"rows": 2}))
    discard_changes = forms.BooleanField(label=_("Discard my changes to this proposal"), required=False)


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
    """A player's ID as the pairing reads it: 99 the spare, N12 the new player of entrant row 12. The number is read
    as every typed number of the site is (adlg_site.inputs.whole_number): "²" or "٣" is not an ID."""
    text = word.strip().upper()
    new = text.startswith("N")
    number = whole_number(text.removeprefix("N"), minimum=1, maximum=NEW_KEY - 1)
    if number is None:
        raise forms.ValidationError(_("Line %(line)s: %(word)s is not a player ID.") % {"line": line, "word": word})
    return NEW_KEY + number if new else number


class SwapForm(forms.Form):
    """Two players of a proposal exchanged between their tables (PAIRING.md §5); `players` in table order."""

    first = forms.TypedChoiceField(label=_("Swap"), coerce=int)
    second = forms.TypedChoiceField(label=_("with"), coerce=int)
    reason = forms.CharField(label=_("Reason (required when a rule is bent)"), max_length=500, required=False,
                             widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = players
        self.fields["second"].choices = players

    def clean(self):
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Choose two different players to swap."))
        return data


class TableForm(forms.Form):
    """A pair of a proposal given a chosen table (an accessible one): the two tables' numbers are exchanged."""

    table = forms.TypedChoiceField(label=_("The pair of"), coerce=int)
    to = forms.TypedChoiceField(label=_("plays at table"), coerce=int)
    reason = forms.CharField(label=_("Reason (shown on the public page)"), max_length=500, required=False,
                             widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, pairs: list[tuple[int, str]], numbers: list[int], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = pairs
        self.fields["to"].choices = [(n, str(n)) for n in numbers]


class WithdrawRoundForm(forms.Form):
    """The latest round of a pool withdrawn (PAIRING.md §5), with the reason the public page shows."""

    pool = forms.CharField(max_length=30, required=False, initial="A", widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason (shown on the public page)"), max_length=500,
                             widget=forms.Textarea(attrs={"rows": 2}))
    discard_results = forms.BooleanField(label=_("Discard the results entered in this round"), required=False)


class ResultForm(forms.Form):
    """One table's result with the sheet's codes and losses (RESULT_SHEET.md Games)."""

    result = forms.ChoiceField(label=_("Result"), widget=forms.RadioSelect)
    a_losses = forms.IntegerField(label=_("A losses %"), required=False, min_value=0, max_value=100)
    b_losses = forms.IntegerField(label=_("B losses %"), required=False, min_value=0, max_value=100)
    free = forms.BooleanField(label=_("Free game (counts for Elo only)"), required=False)
    reason = forms.CharField(label=_("Reason for the change"), max_length=500, required=False)
    # The table's revision the page showed: a result entered since (another referee, the players) is not replaced
    # without the referee seeing it (tournaments.live.results).
    revision = forms.IntegerField(required=False, min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)
    confirm = forms.BooleanField(required=False)

    def __init__(self, *args, codes: tuple[str, ...], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["result"].choices = [(code, code) for code in codes]

    def result_for(self, table: int) -> Result:
        data = self.cleaned_data
        return Result(table, data["result"], data["a_losses"], data["b_losses"], bool(data["free"]),
                      revision=data.get("revision"), confirmed=bool(data.get("confirm")))


class LinkResultForm(ResultForm):
    """A player's entry of their table's result at their private link: the table the page showed, so that an entry
    sent after the next round was published never lands on the new round's table."""

    table = forms.IntegerField(min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput)
