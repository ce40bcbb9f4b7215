"""The board's pages of the ratings: the official lists (issue one by hand, audited, besides the worker's of the
1st) and the army names typed in results that it has not mapped to an army yet."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from adlg_site.words import refusal_sentence
from players import permissions
from ratings.armies import unmapped_army_names
from ratings.models import RatingSystem
from ratings.official_list_reads import latest_lists
from ratings.official_lists import ListRefused, list_issue
from ratings.tasks import enqueue_open_data
from tournaments.models import ArmyAlias


class ListIssueForm(forms.Form):
    system = forms.ModelChoiceField(label=gettext_lazy("Rating system"), queryset=RatingSystem.objects.all(),
                                    to_field_name="code")
    on = forms.DateField(label=gettext_lazy("Date of the list"),
                         widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"), help_text=gettext_lazy(
        "Today, or a day since the last list: it is in force from this date until the next list's."))
    confirm = forms.BooleanField(label=gettext_lazy("I understand that an issued list is never changed."))


@permissions.rule_required(permissions.is_board)
@require_http_methods(["GET", "POST"])
def official_lists_board(request):
    form = ListIssueForm(request.POST or None, initial={"on": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            official = list_issue(system=data["system"], user=request.user, on=data["on"])
        except ListRefused as exc:
            form.add_error(None, refusal_sentence(exc))
        else:
            enqueue_open_data()
            messages.success(request, _("Issued: official list no. %(number)s of %(system)s, %(players)s players.")
                             % {"number": official.number, "system": official.system.name,
                                "players": official.players})
            return redirect("board:official_lists")
    systems = list(RatingSystem.objects.all())
    latest = latest_lists([s.code for s in systems])
    return render(request, "board/official_lists.html", {
        "form": form, "systems": [(system, latest.get(system.code)) for system in systems]})


@permissions.rule_required(permissions.is_board)
@require_http_methods(["GET"])
def army_names_board(request):
    """The names typed and not mapped, side by side by spelling; each maps in the admin, audited there."""
    names = unmapped_army_names()
    return render(request, "board/army_names.html", {"names": names, "mapped": ArmyAlias.objects.count()})
