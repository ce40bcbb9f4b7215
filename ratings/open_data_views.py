"""The open-data page: the federation's public record as dated downloads, every column documented, its licence,
checksums and counts (ratings.open_data builds them; the worker rebuilds them after each replay and list)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.models import OpenDataRelease
from ratings.open_data import LICENCE, LICENCE_NAME, LICENCE_URL, TABLES, releases


def release_file_names(release: OpenDataRelease) -> tuple[str, str]:
    stamp = f"{timezone.localtime(release.built_at):%Y-%m-%d-%H%M}"  # Paris time, as the page shows it
    return f"adlg-open-data-{stamp}.zip", f"adlg-open-data-{stamp}.json"


def open_data_page(request):
    kept = releases()
    for release in kept:
        release.zip_name, release.json_name = release_file_names(release)
    latest = kept[0] if kept else None
    tables = [{"name": t.name, "about": _(t.about), "columns": [(c.name, _(c.about)) for c in t.columns],
               "count": latest.counts.get(t.name) if latest else None} for t in TABLES]
    return render(request, "public/open_data.html", {
        "latest": latest, "older": kept[1:], "tables": tables,
        "licence": LICENCE, "licence_name": LICENCE_NAME, "licence_url": LICENCE_URL})


def open_data_file(request, release_id: int, file_name: str):
    release = OpenDataRelease.objects.filter(pk=release_id).first() if release_id < 2**31 else None
    if release is None:
        raise Http404(_("No such open-data release."))
    zip_name, json_name = release_file_names(release)
    if file_name == zip_name:
        body, content_type = bytes(release.archive), "application/zip"
    elif file_name == json_name:
        body, content_type = bytes(release.document), "application/json; charset=utf-8"
    else:
        raise Http404(_("No such open-data file."))
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{file_name}"'
    return response
