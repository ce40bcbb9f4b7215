"""Referee pages: register a tournament, my tournaments, the cards of a tournament's players (until it ends)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from adlg_site import words
from players import permissions
from players.audit import audit_record
from players.models import Club, Country, Sanction
from ratings.models import RatingSystem
from ratings.selectors import country_name
from tournaments.registration import RegistrationRefused, tournament_register

FORMAT_CHOICES = [
    ("individual", gettext_lazy("Individual")),
    ("team", gettext_lazy("Team (each member plays individually)")),
]


class RegistrationForm(forms.Form):
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


@permissions.rule_required(permissions.can_register_tournament)
@require_http_methods(["GET", "POST"])
def register(request):
    board = permissions.is_board(request.user)
    form = RegistrationForm(request.POST or None, board=board)
    failures: list[str] = []
    if request.method == "POST" and form.is_valid():
        # Stored as the model's help text suggests ("200 points individual"), which format_key reads back.
        data = {
            **form.cleaned_data,
            "format": f"{form.cleaned_data['army_points']} points {form.cleaned_data['format']}",
        }
        try:
            tournament = tournament_register(user=request.user, data=data)
        except RegistrationRefused as refused:
            failures = words.refusal_text(refused)
        else:
            messages.success(
                request,
                _("Tournament %(name)s registered (no. %(id)s).")
                % {"name": tournament.name, "id": tournament.pk},
            )
            return redirect("board:my_tournaments")
    return render(request, "board/register.html", {"form": form, "failures": failures, "board": board})


@permissions.rule_required(permissions.can_register_tournament)
@require_safe
def my_tournaments(request):
    today = timezone.localdate()
    rows = [
        {"tournament": t, "cards": permissions.can_view_tournament_cards(request.user, t, today=today)}
        for t in permissions.my_tournaments(request.user).select_related("system", "country")
    ]
    return render(request, "board/my_tournaments.html", {"rows": rows})


@permissions.rule_required(permissions.can_view_tournament_cards, tournament_kwarg="pk")
@require_safe
def cards(request, tournament):
    today = timezone.localdate()
    board = permissions.is_board(request.user)
    # The board sees every registered player's cards; a referee those of the tournament's entrants
    # (players.permissions.cards_entrants).
    entrants = (tournament.registrations.values("player_id") if board else
                permissions.cards_entrants(request.user, today=today, tournament=tournament))
    sanctions = list(
        permissions.visible_sanctions(request.user, today=today)
        .filter(player_id__in=entrants, kind__in=[Sanction.YELLOW, Sanction.RED])
        .exclude(kind=Sanction.YELLOW, expires_on__lt=today)
        .select_related("player", "player__club")
    )
    if not board:
        # Confidential data shown to someone other than the board: who saw which card, and when.
        audit_record(
            user=request.user, action="view_cards", obj=tournament,
            summary=f"cards of {len(sanctions)} player(s) of {tournament} shown to a referee",
            changes={"cards": [{"sanction": s.pk, "player": s.player_id, "kind": s.kind} for s in sanctions]},
        )
    return render(
        request,
        "board/cards.html",
        {
            "tournament": tournament,
            "sanctions": sanctions,
            "show_reason": board,
            "not_begun": not board and today < tournament.start_date,
        },
    )
