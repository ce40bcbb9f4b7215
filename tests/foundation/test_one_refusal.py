"""One way to refuse: every service refuses with a kind of rules.words.Refused (codes, worded from the catalogue),
never with Django's PermissionDenied nor an exception of its own; the shell words any kind with
adlg_site.words.refusal_text and answers a Forbidden with the 403 a PermissionDenied gives."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from datetime import date
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.formats import date_format

from adlg_site.words import refusal_text
from rules.words import Forbidden, Refused

ROOT = Path(__file__).resolve().parents[2]
APPS = ("players", "tournaments", "ratings", "championship")
# The shell: what answers a person (pages, the API, the admin, commands, forms, URLs). It may raise PermissionDenied
# and speak HTTP; the rest (services, selectors, the rules) refuses with a Refused kind.
SHELL_NAMES = ("views", "api", "admin", "admin_actions", "admin_mixins", "forms", "urls", "tags", "printouts")
# players.permissions holds rule_required, the views' guard: a decorator of the shell kept beside its rules.
GUARDS = {"players/permissions.py"}
# Said only by a command (or the admin's year closing), in English as commands speak (COMMANDS.md).
ENGLISH_ONLY = {"players.services.PlayerInputError", "ratings.closing.YearCloseError"}


def _is_shell(path: Path) -> bool:
    relative = path.relative_to(ROOT)
    stem = path.stem
    return ("management" in relative.parts or "templatetags" in relative.parts or "migrations" in relative.parts
            or any(stem == name or stem.endswith("_" + name) for name in SHELL_NAMES))


def _service_modules() -> list[Path]:
    return [path for app in APPS for path in sorted((ROOT / app).rglob("*.py"))
            if not _is_shell(path) and str(path.relative_to(ROOT)) not in GUARDS]


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def test_no_service_raises_permission_denied():
    offenders = []
    for path in _service_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None and "PermissionDenied" in _names(node.exc):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == [], "a service refuses with rules.words.Forbidden, the shell answers 403"


def test_the_service_modules_are_found():
    found = {str(path.relative_to(ROOT)) for path in _service_modules()}
    assert {"tournaments/before/entries.py", "players/claims.py", "tournaments/sheets/services.py"} <= found
    assert "tournaments/entry_views.py" not in found and "tournaments/sheets/api.py" not in found


def _app_modules():
    for app in APPS:
        package = importlib.import_module(app)
        for info in pkgutil.walk_packages(package.__path__, app + "."):
            if ".migrations" in info.name or ".tests" in info.name:
                continue
            yield importlib.import_module(info.name)


def _exceptions_of_services() -> list[type]:
    kinds = []
    for module in _app_modules():
        path = Path(inspect.getfile(module))
        if _is_shell(path) or str(path.relative_to(ROOT)) in GUARDS:
            continue
        kinds += [cls for _name, cls in inspect.getmembers(module, inspect.isclass)
                  if issubclass(cls, BaseException) and cls.__module__ == module.__name__]
    return kinds


def test_every_exception_a_service_defines_is_a_kind_of_refusal():
    kinds = _exceptions_of_services()
    assert {"EntryRefused", "ClaimError", "UploadForbidden", "ReplayBusy"} <= {k.__name__ for k in kinds}
    assert [k.__qualname__ for k in kinds if not issubclass(k, Refused)] == []


def _all_kinds(cls=Refused):
    for sub in cls.__subclasses__():
        yield sub
        yield from _all_kinds(sub)


def _sentence_kinds():
    list(_app_modules())  # every kind defined, so that __subclasses__ finds it
    return [kind for kind in set(_all_kinds()) if "sentences" in vars(kind) and kind.sentences
            and f"{kind.__module__}.{kind.__qualname__}" not in ENGLISH_ONLY]


def test_every_sentence_of_every_kind_is_in_the_french_catalogue():
    kinds = _sentence_kinds()
    assert {"EntryRefused", "ClaimError", "GovernanceError", "NotPrintable", "Forbidden"} <= {
        k.__name__ for k in kinds}
    untranslated = []
    for kind in kinds:
        for code, english in kind.sentences.items():
            with translation.override("fr"):
                if translation.gettext(english) == english:
                    untranslated.append(f"{kind.__qualname__}: {code}")
    assert untranslated == []


def test_one_function_words_every_kind_in_the_readers_language():
    from players.claims import ClaimError
    from tournaments.before.entries import EntryRefused

    refused = ClaimError.one("link_expired")
    assert refusal_text(refused, "en") == ["This link expired: ask the technical board to link your account."]
    assert refusal_text(refused, "fr") != refusal_text(refused, "en")
    assert str(refused) == refusal_text(refused, "en")[0]  # the English, for logs and tests
    closed = EntryRefused("entries_closed", case="withdraw", date=date(2026, 3, 1))
    with translation.override("en"):
        day = date_format(date(2026, 3, 1))
    assert refusal_text(closed, "en") == [f"Entries closed on {day}: you can no longer withdraw on the site. Tell "
                                          "the referee."]
    assert "2026" in refusal_text(closed, "fr")[0] and refusal_text(closed, "fr")[0].startswith("Les inscriptions")


def _without_nonces(page: bytes) -> bytes:
    """The page without what changes on every request: the CSP nonces, the CSRF token of the sign-out form."""
    return re.sub(rb'(nonce|name="csrfmiddlewaretoken" value)="[^"]*"', b"", page)


def _forbidden(request):
    raise Forbidden()


def _denied(request):
    from django.core.exceptions import PermissionDenied

    raise PermissionDenied


@pytest.mark.django_db
def test_a_forbidden_that_reaches_the_shell_is_the_403_page_of_a_permission_denied(client, settings, django_user_model):
    import sys
    import types

    from django.urls import path

    import adlg_site.urls as site

    module = types.ModuleType("tests_refusal_urls")  # the site's own URLs, which the 403 page's layout names
    module.urlpatterns = [path("forbidden/", _forbidden), path("denied/", _denied), *site.urlpatterns]
    sys.modules[module.__name__] = module
    settings.ROOT_URLCONF = module.__name__
    client.force_login(django_user_model.objects.create_user("someone", password="x"))
    forbidden, denied = client.get("/forbidden/"), client.get("/denied/")
    assert forbidden.status_code == denied.status_code == 403
    assert _without_nonces(forbidden.content).replace(b"/forbidden/", b"/denied/") == _without_nonces(denied.content)
    assert b"This page is not for your account" in forbidden.content
