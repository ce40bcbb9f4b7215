"""The audit trail of changes to facts. Every service and admin action that changes a fact calls `audit_record`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.apps import apps
from django.db import models
from django.utils.translation import gettext

from players.models import AuditEntry


def _jsonable(value):
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(UTC).isoformat()  # one spelling of an instant, whatever zone it was read in
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, bytes | memoryview):
        return f"<{len(value)} bytes>"
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def model_changes(obj: models.Model, before: dict | None) -> dict:
    """The fields that differ between `before` (a snapshot from `snapshot`) and the object now."""
    after = snapshot(obj)
    if before is None:
        return {name: [None, value] for name, value in after.items() if value not in (None, "")}
    return {name: [before.get(name), value] for name, value in after.items() if before.get(name) != value}


def snapshot(obj: models.Model) -> dict:
    return {
        field.attname: _jsonable(getattr(obj, field.attname))
        for field in obj._meta.concrete_fields
        if not isinstance(field, models.BinaryField)
    }


def audit_record(*, user, action: str, obj: models.Model | None = None, object_type: str = "",
                 object_id: str = "", summary: str = "", changes: dict | None = None) -> AuditEntry:
    if obj is not None:
        object_type = object_type or obj._meta.label
        object_id = object_id or str(obj.pk)
    return AuditEntry.objects.create(
        user=user if getattr(user, "is_authenticated", False) else None,
        action=action,
        object_type=object_type,
        object_id=object_id,
        summary=summary[:300],
        changes=changes or {},
    )


@dataclass(frozen=True)
class ChangeLine:
    """One line of an audit entry as the audit page shows it: a field changed from `before` to `after`, or a
    value recorded with the action (`before` None, `changed` False)."""

    field: str
    before: str | None
    after: str
    changed: bool


def change_lines(entry: AuditEntry) -> list[ChangeLine]:
    """An entry's changes in words: each field by its name in the page's language, from what, to what. Entries
    store [before, after] pairs for changed fields (model_changes) and plain values for what an action records."""
    names = _field_names(entry.object_type)
    lines = []
    for key, value in (entry.changes or {}).items():
        label = names.get(key, key.replace("_", " "))
        if isinstance(value, list) and len(value) == 2 and not _is_record(value):
            lines.append(ChangeLine(label, _shown(value[0]), _shown(value[1]), True))
        else:
            lines.append(ChangeLine(label, None, _shown(value), False))
    return lines


def _is_record(value: list) -> bool:
    """A list recorded as it is (referee IDs, cards shown), not a [before, after] pair of one field."""
    return any(isinstance(item, dict) for item in value)


def _field_names(object_type: str) -> dict[str, str]:
    try:
        model = apps.get_model(object_type)
    except (LookupError, ValueError):
        return {}
    names = {}
    for field in model._meta.get_fields():
        verbose = str(getattr(field, "verbose_name", "") or field.name)
        names[field.name] = verbose
        if getattr(field, "attname", None):
            names[field.attname] = verbose
    return names


def _shown(value) -> str:
    """A stored value in words: '—' for nothing, lists and mappings spelled out, never a Python repr."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list):
        return ", ".join(_shown(item) for item in value) if value else "—"
    if isinstance(value, dict):
        return "; ".join(f"{key.replace('_', ' ')}: {_shown(item)}" for key, item in value.items()) or "—"
    return str(value)


def audit_entries(*, action: str = "", object_type: str = "", object_id: str = "", username: str = "",
                  since: date | None = None):
    """The audit trail filtered for the board's reader."""
    qs = AuditEntry.objects.select_related("user")
    if action:
        qs = qs.filter(action=action)
    if object_type:
        qs = qs.filter(object_type__iexact=object_type)
    if object_id:
        qs = qs.filter(object_id=object_id)
    if username:
        qs = qs.filter(user__username__iexact=username)
    if since:
        qs = qs.filter(at__date__gte=since)
    return qs
