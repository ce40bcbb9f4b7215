"""Reads a tournament in the exchange format (docs/exchange.md) into what the result sheet's reader gives, so that
the checks against the federation, the report, the preview and the import are the sheet's own.

Terms
-----
refused file
    Too large, not UTF-8, not JSON, JSON nested past any tournament's depth, not one object, another format or
    version, more players or games than a sheet may hold: the report holds that one refusal.
schema issue
    A value the schema (docs/exchange/tournament-v1.schema.json) does not take: a missing or unknown field, a
    wrong type, a value out of its range or vocabulary. Every one is reported at its path (its cell, with no
    sheet), and nothing else is checked: the sheet's checks need the values' types right.
a valid document
    Is laid out as the three sheets (rules.exchange.layout) and read by rules.sheet.reader.read_worksheets: the
    same checks of values, of players and games with each other, and of the charter, as an Excel sheet.

`read_exchange` never raises, whatever the bytes.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError

from rules.exchange.layout import JSON_TITLES, worksheets
from rules.sheet.format import MAX_BYTES, MAX_GAMES, MAX_PLAYERS, REPORT_LIMIT
from rules.sheet.parsed import ParsedSheet
from rules.sheet.reader import read_worksheets
from rules.sheet.reading import Reading
from rules.sheet.report import Issue, Report

logger = logging.getLogger(__name__)

EXCHANGE_FORMAT = "adlg-tournament/1"
SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "exchange" / "tournament-v1.schema.json"
# A tournament is four levels deep; the parser's own recursion limit (about 1,000) would be reached long after.
MAX_DEPTH = 20


@functools.cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@functools.cache
def _validator() -> Draft202012Validator:
    # The same schema with its local references written out: looking a reference up costs more than checking the
    # value (a tournament of 10,000 games has 40,000 of them), and the verdicts are the same.
    return Draft202012Validator(_inlined(schema(), schema().get("$defs", {})))


def _inlined(node: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_inlined(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    found = {key: _inlined(value, definitions) for key, value in node.items() if key not in ("$ref", "$defs")}
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/$defs/"):
        # A definition's keywords and the referring schema's own apply together (draft 2020-12): none of this
        # schema's definitions shares a keyword with a schema that refers to it.
        return {**_inlined(definitions[reference.removeprefix("#/$defs/")], definitions), **found}
    return found


class _Refusal(Exception):
    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.issue = Issue(code=code, sheet="", cell="", params=params)


def read_exchange(data: bytes, *, today: date, max_bytes: int = MAX_BYTES) -> ParsedSheet:
    """What read_sheet gives for a result sheet, for a tournament in the exchange format. Never raises."""
    try:
        content_hash = hashlib.sha256(data).hexdigest()
    except Exception:  # not bytes at all: still a report, never an exception
        return _refused(Issue(code="unreadable", sheet="", cell=""), "")
    try:
        document = _document(data, max_bytes=max_bytes)
        issues = schema_issues(document)
        if issues:
            report = Report(errors=issues)
            report.bound()
            return ParsedSheet(tournament=None, players=[], games=[], report=report, content_hash=content_hash,
                               sheet_titles=dict(JSON_TITLES), source="json")
        reading = Reading(today=today)
        reading.sheet_titles.update(JSON_TITLES)
        parsed = read_worksheets(reading, dict(worksheets(document)), content_hash=content_hash)
        parsed.source = "json"
        return parsed
    except _Refusal as refusal:
        return _refused(refusal.issue, content_hash)
    except Exception:
        logger.exception("a tournament in JSON could not be read")
        return _refused(Issue(code="unreadable", sheet="", cell=""), content_hash)


def _refused(issue: Issue, content_hash: str) -> ParsedSheet:
    return ParsedSheet(tournament=None, players=[], games=[], report=Report(errors=[issue]),
                       content_hash=content_hash, sheet_titles=dict(JSON_TITLES), source="json")


def _document(data: bytes, *, max_bytes: int) -> dict[str, Any]:
    if len(data) > max_bytes:
        raise _Refusal("json_too_large", size_mb=_mb(len(data)), limit_mb=_mb(max_bytes))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _Refusal("json_not_utf8", byte=exc.start + 1) from None
    try:
        document = json.loads(text, object_pairs_hook=_object, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise _Refusal("json_syntax", line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise _Refusal("json_too_deep", limit=MAX_DEPTH) from None
    if _depth(document) > MAX_DEPTH:
        raise _Refusal("json_too_deep", limit=MAX_DEPTH)
    if not isinstance(document, dict):
        raise _Refusal("json_not_object")
    found = document.get("format")
    if found != EXCHANGE_FORMAT:
        raise _Refusal("json_unknown_format", value=_value(found), expected=EXCHANGE_FORMAT)
    # Counted before the schema walks them: a file of a million games is refused at once.
    for key, limit, code in (("players", MAX_PLAYERS, "json_too_many_players"),
                             ("games", MAX_GAMES, "json_too_many_games")):
        if isinstance(document.get(key), list) and len(document[key]) > limit:
            raise _Refusal(code, limit=limit, count=len(document[key]))
    return document


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            # Which of two values a reader keeps is up to each parser: the file is ambiguous, so refused.
            raise _Refusal("json_duplicate_key", field=_shown(key))
        found[key] = value
    return found


def _constant(name: str) -> None:
    # NaN and Infinity are not JSON (RFC 8259), though Python's parser takes them.
    raise _Refusal("json_syntax_constant", value=name)


def _depth(value: object) -> int:
    depth, level = 0, [value]
    while level and depth <= MAX_DEPTH:
        depth += 1
        level = [child for item in level if isinstance(item, dict | list)
                 for child in (item.values() if isinstance(item, dict) else item)
                 if isinstance(child, dict | list)]
    return depth


def _mb(size: int) -> str:
    tenths = -(-size * 10 // (1024 * 1024))
    return f"{tenths / 10:.1f}".removesuffix(".0")


def _shown(value: object) -> str:
    """A name as a message quotes it: as text, cut short."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _value(value: object) -> str:
    """A value as a message quotes it: as JSON (text in quotes, so 1 and "1" differ), cut short."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def path_text(path: Iterable[object]) -> str:
    """JSONPath-style: ``$.players[3].id``."""
    text = "$"
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


# --- the schema's verdicts, worded


def schema_issues(document: object) -> list[Issue]:
    """Every value of the document the schema refuses, one issue each, in the document's order."""
    issues: dict[tuple, Issue] = {}
    for error in _validator().iter_errors(document):
        for issue in _issues(error):
            key = (issue.code, *sorted((k, str(v)) for k, v in issue.params.items()))
            issues.setdefault(key, issue)
        if len(issues) > REPORT_LIMIT * 2:
            break
    return list(issues.values())


def _issues(error: ValidationError) -> list[Issue]:
    path = path_text(error.absolute_path)
    kind, expected, instance = error.validator, error.validator_value, error.instance

    def issue(code: str, **params: object) -> Issue:
        # No sheet, and the path for a cell: the API's and the command's reports give it as the issue's place.
        return Issue(code=code, sheet="", cell=path, params={"path": path, **params})

    if kind == "required":
        return [issue("json_missing_field", field=name) for name in expected
                if isinstance(instance, dict) and name not in instance]
    if kind == "additionalProperties":
        known = set((error.schema or {}).get("properties", {}))
        return [issue("json_unknown_field", field=_shown(name)) for name in instance if name not in known]
    if kind == "type":
        kinds = expected if isinstance(expected, list) else [expected]
        return [issue("json_wrong_type", value=_value(instance), expected=" | ".join(kinds))]
    if kind in ("enum", "const"):
        allowed = expected if kind == "enum" else [expected]
        return [issue("json_not_allowed", value=_value(instance), allowed=", ".join(_value(a) for a in allowed))]
    if kind in ("minimum", "exclusiveMinimum"):
        return [issue("json_below_minimum", value=_value(instance), minimum=expected)]
    if kind in ("maximum", "exclusiveMaximum"):
        return [issue("json_above_maximum", value=_value(instance), maximum=expected)]
    if kind == "maxLength":
        return [issue("json_too_long", length=len(instance), limit=expected)]
    return [issue("json_bad_value", value=_value(instance))]
