"""Forms of the referee's result-sheet pages: the upload, and the confirmation of a checked sheet."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def megabytes(size: int, *, round_up: bool = True) -> str:
    """A size to one decimal, in MB (KB below one MB). A file's size is rounded *up* and a limit *down*, so that
    a file just over the 5 MB limit reads "5.1 MB; the limit is 5 MB", never "5.0 MB; the limit is 5.0 MB".
    Whole numbers lose their ".0"; French gets its comma and "Mo"."""
    unit = 1024 * 1024 if size >= 1024 * 1024 else 1024
    tenths = -(-size * 10 // unit) if round_up else size * 10 // unit
    number = formats.number_format(tenths / 10, decimal_pos=0 if tenths % 10 == 0 else 1)
    if unit == 1024:
        return _("%(number)s KB") % {"number": number}
    return _("%(number)s MB") % {"number": number}


def too_big_message(size: int | None = None) -> str:
    limit = megabytes(settings.SHEET_MAX_BYTES, round_up=False)
    if size is None:
        return _(
            "The file is larger than %(limit)s, the limit for a result sheet. A result sheet is normally "
            "well under 1 MB: remove pictures and extra sheets, save it again and send it again."
        ) % {"limit": limit}
    return _(
        "The file is %(size)s; the limit for a result sheet is %(limit)s. A result sheet is normally "
        "well under 1 MB: remove pictures and extra sheets, save it again and send it again."
    ) % {"size": megabytes(size), "limit": limit}


def upload_too_big(content_length: object) -> bool:
    """True when the request announces a body larger than any accepted sheet (checked before it is read)."""
    try:
        length = int(str(content_length or 0))
    except ValueError:
        return False
    # A multipart body carries the file plus a few hundred bytes of headers and the CSRF token.
    return length > settings.SHEET_MAX_BYTES + 64 * 1024


def check_sheet_file(upload) -> None:
    """Refuse, with a sentence the referee can act on, a file that is too big or plainly not a workbook."""
    if upload.size > settings.SHEET_MAX_BYTES:
        raise forms.ValidationError(too_big_message(upload.size), code="too_big")
    name = (upload.name or "").lower()
    # A tournament in the exchange format (docs/exchange.md), from another site or a referee's other tool, goes
    # through the same checks, report, preview and import as the workbook.
    if not name.endswith((".xlsx", ".json")):
        raise forms.ValidationError(
            _(
                "“%(name)s” is neither an Excel workbook (.xlsx) nor a tournament in JSON (.json). Send the "
                "official result sheet as an .xlsx file: in Excel or LibreOffice, use “Save as” and choose “Excel "
                "Workbook (.xlsx)”."
            )
            % {"name": upload.name},
            code="not_xlsx",
        )


class SheetUploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Result sheet (.xlsx, or .json in the exchange format)"),
        widget=forms.ClearableFileInput(attrs={"accept": f".xlsx,{XLSX_TYPE},.json,application/json"}),
        error_messages={
            "required": gettext_lazy("Choose the result sheet to send."),
            "empty": gettext_lazy("The file is empty: choose the result sheet saved from Excel."),
        },
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        check_sheet_file(upload)
        return upload


class ConfirmForm(forms.Form):
    """The referee confirms the import; when the report has warnings they must say they have read them."""

    acknowledge = forms.BooleanField(
        label=gettext_lazy("I have read the warnings above; import the sheet anyway."),
        required=False,
        error_messages={"required": gettext_lazy("Tick the box to show you have read the warnings.")},
    )

    def __init__(self, *args, warnings: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        if warnings:
            self.fields["acknowledge"].required = True
        else:
            del self.fields["acknowledge"]
