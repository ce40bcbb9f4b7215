"""The audit trail of changes to facts. Every service and admin action that changes a fact calls `audit_record`."""

from __future__ import annotations

from django.db import models

from players.models import AuditEntry


def _jsonable(value):
    if isinstance(value, models.Model):
        return value.pk
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
