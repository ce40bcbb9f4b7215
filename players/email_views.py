"""The pages of the site's emails and of writing to the board: the one-click opt-out an email links to (no
sign-in; its List-Unsubscribe header POSTs to it), the form that writes to the technical board, and the board's
queue of those messages."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from adlg_site.limits import limit_wait, too_many_requests
from adlg_site.words import refusal_on
from players import notices, permissions
from players.board_messages import (
    BODY_LIMIT,
    SUBJECT_LIMIT,
    MessageRefused,
    board_message_handle,
    board_message_write,
    board_messages,
)
from players.models import BoardMessage


@csrf_exempt  # RFC 8058: a mail client's one-click POST carries no cookie; the signed token is the proof
@require_http_methods(["GET", "POST"])
def email_stop(request, token: str):
    """GET shows what the link turns off and a button (a link scanner's GET changes nothing); POST turns it off."""
    found = notices.opt_out_read(token)
    user = get_user_model().objects.filter(pk=found[0], is_active=True).first() if found else None
    if user is None:
        return render(request, "account/email_stop.html", {"invalid": True}, status=404)
    kind = found[1]
    done = request.method == "POST"
    if done:
        notices.kind_mute(user=user, kind=kind)
    return render(request, "account/email_stop.html", {"kind": notices.KINDS[kind], "done": done})


class BoardWriteForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Your name"), max_length=120, required=False)
    reply_to = forms.EmailField(label=gettext_lazy("Your email address (the board answers there)"),
                                required=False)
    subject = forms.CharField(label=gettext_lazy("Subject"), max_length=SUBJECT_LIMIT)
    body = forms.CharField(label=gettext_lazy("Message"), max_length=BODY_LIMIT, widget=forms.Textarea)
    page = forms.CharField(widget=forms.HiddenInput, required=False, max_length=300)

    def __init__(self, *args, signed_in: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reply_to"].required = not signed_in
        if signed_in:
            self.fields["reply_to"].help_text = _("Empty: your account's confirmed address.")


@require_http_methods(["GET", "POST"])
def board_write(request):
    """Anyone writes to the board; only the messages sent count against the limit (reading the form is free)."""
    signed_in = request.user.is_authenticated
    data = request.POST if request.method == "POST" else None
    if data is not None:
        wait = limit_wait(request, "board_write")
        if wait:
            return too_many_requests(request, wait)
    form = BoardWriteForm(data, signed_in=signed_in, initial={"page": request.GET.get("from", "")[:300]})
    errors: list[str] = []
    if data is not None and form.is_valid():
        try:
            board_message_write(user=request.user if signed_in else None, **form.cleaned_data)
        except MessageRefused as refused:
            errors = refusal_on(form, refused)
        else:
            messages.success(request, _("Your message is sent to the technical board. It answers by email."))
            return redirect("board_write")
    return render(request, "public/board_write.html", {"form": form, "errors": errors}, status=400 if (
        data is not None) else 200)


@permissions.rule_required(permissions.is_board)
@require_http_methods(["GET"])
def board_messages_page(request):
    handled = request.GET.get("show") == "handled"
    return render(request, "board/messages.html", {
        "messages_shown": board_messages(handled=handled)[:200], "handled": handled,
        "waiting": board_messages(handled=False).count()})


@permissions.rule_required(permissions.is_board)
@require_POST
def board_message_handle_view(request, pk: int):
    message = get_object_or_404(BoardMessage, pk=pk)
    board_message_handle(message=message, user=request.user, handled=request.POST.get("handled") != "0")
    return redirect("board:messages")
