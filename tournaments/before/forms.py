"""The forms before a tournament: a new tournament and its announcement (the referee's), an entry and an army list
(the player's), a refusal, a lifted penalty and a list's check. They check the shape of the input; the services
decide."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from adlg_site import words
from players import permissions
from players.models import Club, Country
from ratings.models import RatingSystem
from ratings.selectors import country_name
from rules.charter import game_minutes
from tournaments.models import Announcement

FORMAT_CHOICES = [
    ("individual", gettext_lazy("Individual")),
    ("team", gettext_lazy("Team (each member plays individually)")),
]


class NewTournamentForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=150)
    system = forms.ModelChoiceField(
        label=gettext_lazy("Rules"), queryset=RatingSystem.objects.all(), empty_label=None
    )
    start_date = forms.DateField(
        label=gettext_lazy("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(label=gettext_lazy("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
    city = forms.CharField(label=gettext_lazy("City"), max_length=100)
    country = forms.ModelChoiceField(label=gettext_lazy("Country"), queryset=Country.objects.all())
    organising_club = forms.ModelChoiceField(
        label=gettext_lazy("Organising club"),
        queryset=Club.objects.all(),
        required=False,
        help_text=gettext_lazy("Leave blank when no club organises it."),
    )
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=FORMAT_CHOICES)
    army_points = forms.IntegerField(label=gettext_lazy("Army points"), min_value=1, max_value=1000)
    pools = forms.IntegerField(label=gettext_lazy("Pools"), min_value=1, max_value=50, initial=1)
    rounds = forms.IntegerField(label=gettext_lazy("Rounds"), min_value=1, max_value=20)
    referees = forms.CharField(
        label=gettext_lazy("Other referees' accounts"),
        required=False,
        help_text=gettext_lazy(
            "User names separated by commas. You are a referee of the tournament yourself."
        ),
    )
    official = forms.BooleanField(
        label=gettext_lazy("Official (counts for the championship)"), required=False, initial=True
    )
    worlds = forms.BooleanField(label=gettext_lazy("Worlds"), required=False)
    exception_approved = forms.BooleanField(
        label=gettext_lazy("Exception approved by the technical board"), required=False
    )
    exception_reason = forms.CharField(
        label=gettext_lazy("Reason for the exception"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, board: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.board = board
        language = words.language()
        countries = self.fields["country"]
        countries.label_from_instance = lambda country: country_name(country, language)  # in the page's language
        countries.queryset = Country.objects.by_local_name(language)
        if not board:  # only the board approves exceptions; the fields are not even offered to a referee
            del self.fields["exception_approved"]
            del self.fields["exception_reason"]

    def clean_referees(self):
        """The accounts named. The board may name any active account, which makes it a referee; anyone else may
        name only accounts that referee already. One message for a name that is no account and for an account
        that is no referee, so that the field does not tell which usernames exist."""
        names = [
            name.strip() for name in (self.cleaned_data.get("referees") or "").split(",") if name.strip()
        ]
        users = {
            u.get_username().casefold(): u
            for u in get_user_model().objects.filter(username__in=names, is_active=True)
            if self.board or permissions.is_referee(u)
        }
        refused = [name for name in names if name.casefold() not in users]
        if refused:
            raise forms.ValidationError(
                _(
                    "%(names)s: not the user name of a referee. Check the spelling, or ask the referee for "
                    "their user name; only the technical board can make an account a referee."
                )
                % {"names": ", ".join(refused)}
            )
        return list({u.pk: u for u in users.values()}.values())

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("start_date"), cleaned.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The last day is before the first day."))
        if cleaned.get("exception_approved") and not (cleaned.get("exception_reason") or "").strip():
            self.add_error("exception_reason", _("Give the reason for the exception."))
        return cleaned



class AnnouncementForm(forms.Form):
    venue = forms.CharField(label=gettext_lazy("Venue"), max_length=200, required=False,
                            help_text=gettext_lazy("The hall and its address, if you wish; the city is the "
                                                   "tournament's."))
    game_minutes = forms.IntegerField(label=gettext_lazy("Duration of a game, in minutes"), min_value=15,
                                      max_value=600)
    duration_note = forms.CharField(label=gettext_lazy("Why another duration than the charter's"), max_length=300,
                                    required=False, widget=forms.Textarea(attrs={"rows": 2}))
    list_deadline = forms.DateField(label=gettext_lazy("Army lists deadline"),
                                    widget=forms.DateInput(attrs={"type": "date"}),
                                    help_text=gettext_lazy("At least one week before the first day. Entries close "
                                                           "on that day too."))
    list_checker = forms.CharField(label=gettext_lazy("List checker's user name"), max_length=150, required=False,
                                   help_text=gettext_lazy("Leave blank if the referees check the lists. The checker "
                                                          "may play only as the spare."))
    lists_published = forms.BooleanField(label=gettext_lazy("Publish every list on the tournament's page before "
                                                            "the start"), required=False,
                                         help_text=gettext_lazy("All together, once entries are closed and every "
                                                                "list is compliant."))
    first_round = forms.ChoiceField(label=gettext_lazy("Pairing of the first game"),
                                    choices=[("", "—"), *Announcement.FIRST_ROUND_CHOICES])
    first_round_note = forms.CharField(label=gettext_lazy("Details of the pairing of the first game"),
                                       max_length=300, required=False, widget=forms.Textarea(attrs={"rows": 2}),
                                       help_text=gettext_lazy("Required for your own pairing: historical enemies, "
                                                              "list dates, choice, challenges."))
    start_time = forms.TimeField(label=gettext_lazy("Start time"), required=False,
                                 widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
                                 help_text=gettext_lazy("When the first day begins (the hall's time). Players' "
                                                        "calendars show the tournament at this time."))
    schedule = forms.CharField(label=gettext_lazy("The day's schedule"), max_length=2000, required=False,
                               widget=forms.Textarea(attrs={"rows": 6}),
                               help_text=gettext_lazy("One line per round or break, starting with its time: "
                                                      "“9:30 Round 1”, “12:30 Lunch”, “19:00 Prize-giving”. The "
                                                      "last line is the end of the day."))

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        charter = game_minutes(tournament.army_points)
        if charter is not None:
            self.fields["game_minutes"].help_text = _(
                "The charter's duration for %(points)s points is %(minutes)s minutes.") % {
                "points": tournament.army_points, "minutes": charter}

    def clean_list_checker(self):
        name = (self.cleaned_data.get("list_checker") or "").strip()
        if not name:
            return None
        user = get_user_model().objects.filter(username__iexact=name, is_active=True).first()
        if user is None:
            raise forms.ValidationError(_("No active account has this user name."))
        return user


class PoolForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Pool"), max_length=30)
    theme = forms.CharField(label=gettext_lazy("Theme"), max_length=200, required=False)
    allowed_armies = forms.CharField(label=gettext_lazy("Allowed armies and allies"), max_length=2000,
                                     required=False, widget=forms.Textarea(attrs={"rows": 2}),
                                     help_text=gettext_lazy("Where the theme restricts them (App. 1 §8)."))


def pool_formset(count: int):
    """Exactly one form per pool of the tournament."""
    return forms.formset_factory(PoolForm, extra=0, min_num=count, max_num=count, validate_min=True,
                                 validate_max=True)


class EntryForm(forms.Form):
    pool = forms.ChoiceField(label=gettext_lazy("Pool"))
    listed_without_name = forms.BooleanField(
        label=gettext_lazy("List me without my name until the tournament starts"), required=False)
    as_spare = forms.BooleanField(label=gettext_lazy("I play as the spare (ID 99)"), required=False,
                                  help_text=gettext_lazy("You referee this tournament or check its lists: the "
                                                         "charter lets you play only as the spare."))

    def __init__(self, *args, pools: list[str], spare_only: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pool"].choices = [(p, p) for p in pools]
        if not spare_only:
            del self.fields["as_spare"]


class ArmyListForm(forms.Form):
    army_name = forms.CharField(label=gettext_lazy("Army"), max_length=120,
                                help_text=gettext_lazy("As in the official army lists, e.g. Carthaginian."))
    army_number = forms.CharField(label=gettext_lazy("Army number"), max_length=20,
                                  help_text=gettext_lazy("Its number in the official army lists."))
    file = forms.FileField(label=gettext_lazy("List file"), required=False,
                           widget=forms.ClearableFileInput(attrs={"accept": ".xlsx,.pdf"}),
                           help_text=gettext_lazy("The official list workbook (.xlsx) or a PDF, 2 MB at most."))
    url = forms.CharField(label=gettext_lazy("Or a link to a list builder"), max_length=500, required=False,
                          widget=forms.URLInput(attrs={"placeholder": "https://"}))


class ReasonForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300,
                             widget=forms.Textarea(attrs={"rows": 2}))


class CheckForm(forms.Form):
    # Sent by the button pressed: "Compliant" or "Return it to the player".
    decision = forms.ChoiceField(label=gettext_lazy("Decision"), choices=[
        ("compliant", gettext_lazy("Compliant")), ("returned", gettext_lazy("Return it to the player"))])
    comment = forms.CharField(label=gettext_lazy("Comment for the player"), max_length=2000, required=False,
                              widget=forms.Textarea(attrs={"rows": 2}),
                              help_text=gettext_lazy("Required to return a list: say what to change."))
