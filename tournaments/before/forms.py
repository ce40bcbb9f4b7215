"""The forms before a tournament: its announcement (the referee's), an entry and an army list (the player's), a
refusal, a lifted penalty and a list's check. They check the shape of the input; the services decide."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.charter import game_minutes
from tournaments.models import Announcement


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
