"""Sign in and out, and a player's own account: its page, linking it to a federation record, the data the site
holds on its player, closing it. Signing up, confirming an address and resetting a password are
django-allauth's pages (mounted beside these at /accounts/, styled by templates/account/ and templates/allauth/).

Every sign-in, this page's and the admin's, is throttled by django-axes (settings: AXES_*).

Terms:
- *client address*: adlg_site.client.client_address, the one the whole site counts by (AXES_CLIENT_IP_CALLABLE).
- *lockout*: after AXES_FAILURE_LIMIT failed sign-ins of one account from one client address, every attempt of
  that pair is refused, even with the right password, until AXES_COOLOFF_TIME has passed. The counts are rows in
  the database (django-axes' default handler), so sign-in does not depend on Redis. An account is counted as
  one whether it is named by its username or by one of its email addresses.
"""

from __future__ import annotations

import json

from allauth.account import views as allauth_views
from allauth.account.forms import LoginForm
from allauth.account.models import EmailAddress
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.core.validators import MaxLengthValidator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from adlg_site.inputs import whole_number
from adlg_site.limits import failure_count, failures_wait, rate_limited, too_many_requests
from adlg_site.words import refusal_sentence
from players import notices, permissions
from players.accounts import AccountError, account_close, account_settings, account_settings_save, close_problem
from players.claims import (
    ClaimError,
    account_claims,
    claim_ask,
    claim_cancel,
    claim_problem,
    claim_token_player,
    player_claim_by_code,
    player_claim_by_token,
    record_problem,
)
from players.models import Player, PlayerClaim
from players.selectors import confirmed_email, player_search
from ratings.player_data import player_data
from ratings.selectors import country_name
from tournaments.before.my_entries import my_entries
from tournaments.live.links import entrant_link_path

# The longest name an account signs in with: an email address (254 characters; a username is at most 150). A longer
# one is refused by the form, before django-axes counts (and stores) it: its column holds 255.
LOGIN_MAX_LENGTH = 254
LOCKED_OUT = gettext_lazy("Too many failed sign-in attempts. Wait 15 minutes, then try again.")
CLAIM_RESULTS = 30


def attempted_username(request, credentials: dict) -> str:
    """The account as counted: 'Board', 'board ' and 'BOARD' are one account's attempts, and so is an email
    address of that account (allauth passes {"email": …, "username": …} for an address, {"username": …} for a
    name; the admin {"username": …})."""
    credentials = credentials or {}
    login = credentials.get("email") or credentials.get("username") or ""
    if not login and request is not None and request.method == "POST":
        login = request.POST.get("login") or request.POST.get("username") or ""
    login = str(login).strip().casefold()[:LOGIN_MAX_LENGTH]  # what django-axes stores; the forms refuse longer
    if "@" in login:
        owner = (EmailAddress.objects.filter(email__iexact=login).values_list("user__username", flat=True).first())
        if owner:
            return owner.casefold()
    return login


class SignInForm(LoginForm):
    """allauth's form (an email address or a username, and the password), in the site's words."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Email address or username")
        _at_most_a_login_long(self.fields["login"])
        self.fields["login"].widget.attrs.pop("placeholder", None)
        self.fields["password"].widget.attrs.pop("placeholder", None)
        if "remember" in self.fields:
            self.fields["remember"].label = _("Stay signed in on this device")


class AdminSignInForm(AdminAuthenticationForm):
    """The admin's sign-in, refusing a name no account has, longer than any, as the site's does."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _at_most_a_login_long(self.fields["username"])


def _at_most_a_login_long(field) -> None:
    # Setting a form field's max_length after it is built adds no validator: the validator is added here.
    field.max_length = LOGIN_MAX_LENGTH
    field.widget.attrs["maxlength"] = LOGIN_MAX_LENGTH
    field.validators.append(MaxLengthValidator(LOGIN_MAX_LENGTH))


def locked_out(request, original_response=None, credentials=None):
    """django-axes' answer to a locked-out attempt: the sign-in page, saying why, with status 429. The form is
    not bound: validating it would authenticate again, and count one more failure."""
    login = str(request.POST.get("login") or request.POST.get("username") or "")
    return render(
        request,
        "account/login.html",
        {
            "form": SignInForm(request=request, initial={"login": login}),
            "locked_out": LOCKED_OUT,
            "redirect_field_name": "next",
            "redirect_field_value": request.POST.get("next") or request.GET.get("next", ""),
        },
        status=429,
    )


class LoginView(allauth_views.LoginView):
    """allauth's sign-in (a username or an email address, and the password), throttled by django-axes. Each
    account lands where the sign-in link came from (a safe `next`, which the header's and footer's links carry),
    else on the page of its most specific role (players.context_processors.role_home: the tournament day it
    referees, the lists it checks, its tournaments, the board's home, its account). The home page is no
    destination: a `next` of "/" lands on the role's page too (AccountAdapter.is_safe_url)."""

    def get_success_url(self):
        try:
            return super().get_success_url()
        except NoReverseMatch:  # the public home page is not mounted (yet)
            return "/"


class LogoutView(auth_views.LogoutView):
    """POST only (Django's default), so a link or an image on another site cannot sign anyone out."""

    def get_success_url(self):
        try:
            return super().get_success_url()
        except NoReverseMatch:
            return "/"


# --- the account page --------------------------------------------------------------------------------------------


class SettingsForm(forms.Form):
    kinds = forms.MultipleChoiceField(label=gettext_lazy("Email me about"), choices=list(notices.KINDS.items()),
                                      required=False, widget=forms.CheckboxSelectMultiple)
    language = forms.ChoiceField(label=gettext_lazy("Language of the emails"), choices=settings.LANGUAGES)


@permissions.rule_required(permissions.is_signed_in)
@require_http_methods(["GET", "POST"])
def account_page(request):
    """The account's page: its player record (or how to claim it), its emails, its sanctions, its data."""
    user = request.user
    current = account_settings(user)
    form = SettingsForm(request.POST if request.method == "POST" else None,
                        initial={"kinds": sorted(notices.kinds_wanted(user)), "language": current.language})
    if request.method == "POST" and form.is_valid():
        wanted = set(form.cleaned_data["kinds"])
        account_settings_save(user=user, rating_emails=notices.TOURNAMENT_RATED in wanted,
                              language=form.cleaned_data["language"])
        notices.kinds_save(user=user, wanted=wanted)
        messages.success(request, _("Your email settings are saved."))
        return redirect("account")
    player = Player.objects.filter(user=user).select_related("club", "country").first()
    claims = list(account_claims(user)[:10])
    pending = next((claim for claim in claims if claim.status == PlayerClaim.PENDING), None)
    last = claims[0] if claims else None
    # The private link only to an account whose link to the record is proved: the link is itself a proof.
    proved = player is not None and player.link_proof in Player.PROVED
    mine = [(row, entrant_link_path(row.entrant) if row.entrant is not None and proved else None)
            for row in my_entries(player=player)]
    return render(request, "account/me.html", {
        "player": player, "my_tournaments": mine,
        "country": country_name(player.country, get_language()) if player else "",
        "pending": pending,
        "refused": last if last is not None and last.status in (PlayerClaim.REFUSED, PlayerClaim.UNDONE) else None,
        "claims": claims,
        "email": confirmed_email(user),
        "addresses": EmailAddress.objects.filter(user=user).order_by("-primary", "email"),
        "form": form,
        "sanctions": permissions.own_sanctions(user).select_related("tournament"),
        "unproved": permissions.link_unproved(user),
        "close_problem": refusal_sentence(close_problem(user)),
    })


@permissions.rule_required(permissions.is_signed_in)
@require_safe
def account_data(request):
    """Everything the site holds on the account and its player, as a JSON file."""
    data = player_data(user=request.user)
    body = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="adlg-my-data-{stamp}.json"'
    response["Cache-Control"] = "no-store"
    return response


# --- claiming a record -------------------------------------------------------------------------------------------


class ClaimForm(forms.Form):
    message = forms.CharField(
        label=gettext_lazy("A word for the board (optional)"), required=False, max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Where and when you played, your club: whatever helps the board recognise you."))



@permissions.rule_required(permissions.is_signed_in)
@require_safe
def claim_search(request):
    """Find one's record by name (or ID) and ask for it."""
    query = (request.GET.get("q") or "").strip()[:80]
    results, problem = [], None
    if query:
        number = whole_number(query)  # "²" passes str.isdigit and fails int()
        if number is not None:
            record = Player.objects.filter(pk=number).first()
            problem = refusal_sentence(record_problem(record)) if record is not None else None
        if problem is None:
            results = list(player_search(query=query)[:CLAIM_RESULTS + 1])
            language = get_language()
            for player in results:
                player.country_name = country_name(player.country, language)
    return render(request, "account/claim.html", {
        "query": query, "results": results[:CLAIM_RESULTS], "more": len(results) > CLAIM_RESULTS,
        "problem": problem, "linked": permissions.player_of(request.user),
        "unproved": permissions.link_unproved(request.user), "code_form": ClaimCodeForm(),
        "pending": PlayerClaim.objects.filter(user=request.user, status=PlayerClaim.PENDING)
        .select_related("player").first(),
    })


@permissions.rule_required(permissions.is_signed_in)
@require_http_methods(["GET", "POST"])
def claim_ask_view(request, player_id: int):
    """The record, what happens next, and the request (or why it cannot be made)."""
    player = get_object_or_404(Player.objects.select_related("club", "country"), pk=player_id)
    form = ClaimForm(request.POST or None)
    problem = refusal_sentence(claim_problem(user=request.user, player=player))
    if request.method == "POST" and problem is None and form.is_valid():
        try:
            claim_ask(user=request.user, player=player, message=form.cleaned_data["message"])
        except ClaimError as exc:
            problem = refusal_sentence(exc)
        else:
            messages.success(request, _("Your request is sent: the technical board checks it and links your account "
                                        "to record %(id)s. You will see its answer on this page.") % {"id": player.pk})
            return redirect("account")
    return render(request, "account/claim_ask.html", {
        "player": player, "country": country_name(player.country, get_language()), "form": form,
        "problem": problem,
    })


@permissions.rule_required(permissions.is_signed_in)
@require_POST
def claim_cancel_view(request):
    if claim_cancel(user=request.user) is not None:
        messages.success(request, _("Your request is cancelled."))
    return redirect("account")


class ClaimCodeForm(forms.Form):
    code = forms.CharField(label=gettext_lazy("Claim code"), max_length=40,
                           widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                         "spellcheck": "false"}),
                           help_text=gettext_lazy("The code the technical board gave you (through a referee or your "
                                                  "club), e.g. ABCD-EFGH-JKLM-NPQR."))


@rate_limited("claim_token")
@permissions.rule_required(permissions.is_signed_in)
@require_POST
def claim_code_view(request):
    """A claim code of the board, typed by the account: linked (or the link proved) at once (players.claims).
    Throttled like a private link's page: a code is a secret to guess."""
    form = ClaimCodeForm(request.POST)
    if form.is_valid():
        try:
            player = player_claim_by_code(user=request.user, code=form.cleaned_data["code"])
        except ClaimError as exc:
            form.add_error("code", refusal_sentence(exc))
        else:
            messages.success(request, _("Your account is linked to record %(id)s (%(name)s).") % {
                "id": player.pk, "name": player.full_name})
            return redirect("account")
    return render(request, "account/claim.html", {
        "query": "", "results": [], "more": False, "problem": None, "code_form": form,
        "linked": permissions.player_of(request.user), "unproved": permissions.link_unproved(request.user),
    }, status=400)


@rate_limited("claim_token")
@permissions.rule_required(permissions.is_signed_in)
@require_http_methods(["GET", "POST"])
def claim_token_view(request, token: str):
    """A tournament day's private link, opened by a signed-in account: linked at once (players.claims).
    GET shows what will happen; POST does it (a link a browser prefetches must not spend the token)."""
    if request.method == "POST":
        try:
            player = player_claim_by_token(user=request.user, token=token)
        except ClaimError as exc:
            return render(request, "account/claim_token.html", {"problem": refusal_sentence(exc)}, status=400)
        messages.success(request, _("Your account is linked to record %(id)s (%(name)s).") % {
            "id": player.pk, "name": player.full_name})
        return redirect("account")
    return render(request, "account/claim_token.html", {"linked": permissions.player_of(request.user),
                                                         "unproved": permissions.link_unproved(request.user),
                                                         "record": claim_token_player(token)})


# --- the current password -------------------------------------------------------------------------------------------

# The limit (settings.RATE_LIMITS) on wrong current passwords, per account, on the two forms that ask for one.
WRONG_PASSWORD_LIMIT = "current_password"  # noqa: S105 - a limit group's name, no password


class PasswordChangeView(allauth_views.PasswordChangeView):
    """allauth's page, with wrong current passwords counted: over the limit, the site's 429 page."""

    def post(self, request, *args, **kwargs):
        if wait := failures_wait(request, WRONG_PASSWORD_LIMIT):
            return too_many_requests(request, wait)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        if "oldpassword" in form.errors:
            failure_count(self.request, WRONG_PASSWORD_LIMIT)
        return super().form_invalid(form)


# --- closing the account -----------------------------------------------------------------------------------------


class CloseForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("Your password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))
    confirm = forms.BooleanField(label=gettext_lazy("Close my account for good"))

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("This is not your password."))
        return password


@permissions.rule_required(permissions.is_signed_in)
@require_http_methods(["GET", "POST"])
def account_close_view(request):
    user = request.user
    if request.method == "POST" and (wait := failures_wait(request, WRONG_PASSWORD_LIMIT)):
        return too_many_requests(request, wait)
    problem = refusal_sentence(close_problem(user))
    form = CloseForm(request.POST or None, user=user)
    if request.method == "POST" and "password" in form.errors:
        failure_count(request, WRONG_PASSWORD_LIMIT)
    if request.method == "POST" and problem is None and form.is_valid():
        try:
            player_id = account_close(user=user)
        except AccountError as exc:
            problem = refusal_sentence(exc)
        else:
            logout(request)
            messages.success(request, _("Your account is closed. Your results stay in the federation's "
                                        "history.") if player_id else _("Your account is closed."))
            return redirect("home")
    return render(request, "account/close.html", {"form": form, "problem": problem,
                                                  "player": permissions.player_of(user)})
