"""The audit trail of changes to facts. Every service and admin action that changes a fact calls `audit_record`."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.apps import apps
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy

from adlg_site.inputs import whole_number
from players.models import AuditEntry, sanction_label


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


# Recorded fields that hold a player's federation ID: the log shows the player's name with it.
PLAYER_FIELDS = frozenset({"player", "player_id", "keep", "merged_into", "merged_into_id"})


def change_lines(entry: AuditEntry, players: dict[int, str] | None = None,
                 skip: frozenset[str] = frozenset()) -> list[ChangeLine]:
    """An entry's changes in words: each field by its name in the page's language, from what, to what. Entries
    store [before, after] pairs for changed fields (model_changes) and plain values for what an action records.
    `players`: names by ID (audit_described reads them), shown for the IDs of PLAYER_FIELDS."""
    names = _field_names(entry.object_type)
    lines = []
    for key, value in (entry.changes or {}).items():
        if key in skip:
            continue
        if players and key in PLAYER_FIELDS:
            value = [players.get(v, v) for v in value] if isinstance(value, list) else players.get(value, value)
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


def audit_trail(*, action: str = "", object_type: str = "", object_id: str = "", username: str = "",
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


# --- the audit log as people read it (the board's page and the admin) -------------------------------------------

# What each action did, as a sentence: %(object)s is the object by its name (audit_described); a code without a
# sentence here is shown with its words ("live check in").
ACTIONS = {
    "create": gettext_lazy("created %(object)s"),
    "change": gettext_lazy("changed %(object)s"),
    "delete": gettext_lazy("deleted %(object)s"),
    "player_merge": gettext_lazy("merged player %(object)s into %(keep)s"),
    "player_exclude": gettext_lazy("excluded %(object)s"),
    "exclusion_withdrawn": gettext_lazy("withdrew the exclusion of %(object)s"),
    "sanction_yellow": gettext_lazy("recorded the %(object)s"),
    "sanction_red": gettext_lazy("recorded the %(object)s"),
    "sanction_exclusion": gettext_lazy("recorded the %(object)s"),
    "sanction_withdrawn": gettext_lazy("withdrew the %(object)s"),
    "sanction_expire": gettext_lazy("the %(object)s expired"),
    "retire_id": gettext_lazy("retired ID %(id)s"),
    "import_players": gettext_lazy("imported players"),
    "import_sheet": gettext_lazy("imported a result sheet for %(object)s"),
    "player_unlink": gettext_lazy("undid the link of an account to %(object)s"),
    "claim_ask": gettext_lazy("asked to link an account to a player record"),
    "claim_cancel": gettext_lazy("cancelled a request to link an account"),
    "claim_confirm": gettext_lazy("linked an account to a player record"),
    "claim_refuse": gettext_lazy("refused to link an account to a player record"),
    "claim_token": gettext_lazy("linked their account to a player record by a private link"),
    "claim_code": gettext_lazy("linked their account to a player record by a claim code"),
    "claim_code_issue": gettext_lazy("made a claim code for %(object)s"),
    "claim_proof": gettext_lazy("proved the link of their account to %(object)s"),
    "account_close": gettext_lazy("closed an account"),
    "view_cards": gettext_lazy("looked at the cards"),
    "tournament_register": gettext_lazy("registered %(object)s"),
    "tournament_results_withdrawn": gettext_lazy("withdrew the results of %(object)s"),
    "tournament_override": gettext_lazy("decided whether %(object)s counts for the championship"),
    "live_start": gettext_lazy("started %(object)s live"),
    "live_pair": gettext_lazy("paired a round of %(object)s"),
    "live_publish_round": gettext_lazy("published a round of %(object)s"),
    "live_unpair": gettext_lazy("withdrew a round of %(object)s"),
    "live_results": gettext_lazy("entered results in %(object)s"),
    "live_swap": gettext_lazy("swapped two players in %(object)s"),
    "live_table": gettext_lazy("moved a pair to another table in %(object)s"),
    "live_withdraw": gettext_lazy("withdrew a player from %(object)s"),
    "live_cancel": gettext_lazy("cancelled the tournament day of %(object)s"),
}
_SANCTION_ACTIONS = {"sanction_yellow", "sanction_red", "sanction_exclusion", "sanction_withdrawn", "sanction_expire"}


def audit_described(entries) -> list[AuditEntry]:
    """Each entry with what the log shows people: `who` (the user's name), `when` (local time, to the minute),
    `what` (a sentence in the reader's language), `object_name` ("Benoît Moreau (229)", not "players.Player 363"),
    `details` (a live result per table, a swap by names) and `lines` (change_lines). The players and tournaments
    named are read in one query per kind, whatever the number of entries."""
    entries = list(entries)
    wanted: dict[str, set[int]] = {"players.Player": set(), "tournaments.Tournament": set()}
    for entry in entries:
        if entry.object_type in wanted and whole_number(entry.object_id) is not None:
            wanted[entry.object_type].add(whole_number(entry.object_id))
        for key, value in (entry.changes or {}).items():
            if key in PLAYER_FIELDS:
                wanted["players.Player"].update(v for v in (value if isinstance(value, list) else [value])
                                                if isinstance(v, int))
    names: dict[str, dict[int, str]] = {}
    for label, ids in wanted.items():
        model = apps.get_model(label)
        names[label] = {row.pk: str(row) for row in model.objects.filter(pk__in=ids)} if ids else {}
    players = names["players.Player"]
    for entry in entries:
        changes = entry.changes or {}
        entry.who = _who(entry.user)
        entry.when = date_format(timezone.localtime(entry.at), "j F Y, H:i")
        entry.object_name = _object_name(entry, names)
        words = {"object": entry.object_name, "id": entry.object_id,
                 "keep": players.get(changes.get("keep"), changes.get("keep", ""))}
        sentence = ACTIONS.get(entry.action)
        entry.what = str(sentence) % words if sentence else entry.action.replace("_", " ")
        entry.details = _details(entry)
        entry.lines = change_lines(entry, players, skip=_DETAILED.get(entry.action, frozenset()))
    return entries


def action_label(action: str) -> str:
    """An action code as the filter's links show it: its sentence with "…" for the object ("merged player … into
    …"), or its words."""
    sentence = ACTIONS.get(action)
    return str(sentence) % {"object": "…", "keep": "…", "id": "…"} if sentence else action.replace("_", " ")


def _who(user) -> str:
    if user is None:
        return gettext("the site")
    return user.get_full_name() or user.get_username()


def _object_name(entry: AuditEntry, names: dict[str, dict[int, str]]) -> str:
    changes = entry.changes or {}
    if entry.action in _SANCTION_ACTIONS and "kind" in changes:
        # The card itself may be gone (withdrawn, expired): what was recorded names it.
        player = names["players.Player"].get(changes.get("player"), changes.get("player", ""))
        decided = changes.get("decided_on")
        with contextlib.suppress(ValueError, TypeError):  # an odd stored value is shown as it is
            decided = date.fromisoformat(decided) if decided else decided
        return sanction_label(changes["kind"], decided, player)
    if entry.object_type in names and whole_number(entry.object_id) is not None:
        found = names[entry.object_type].get(whole_number(entry.object_id))
        if found:
            return found
    return entry.summary or f"{entry.object_type} {entry.object_id}".strip()


# What _details already says in a sentence, left out of the changes' lines.
_DETAILED = {"live_results": frozenset({"round", "tables"}),
             "live_swap": frozenset({"pool", "round", "a", "table_a", "b", "table_b"})}


def _details(entry: AuditEntry) -> list[str]:
    """The lines a live change needs to be understood: each table's result from what to what, a swap's players."""
    changes = entry.changes or {}
    if entry.action == "live_results" and isinstance(changes.get("tables"), list):
        return [gettext("round %(round)s, table %(table)s: %(a)s %(result)s %(b)s (was: %(was)s)")
                % {"round": changes.get("round", ""), **{k: t.get(k, "") for k in ("table", "a", "result", "b", "was")}}
                for t in changes["tables"] if isinstance(t, dict)]
    if entry.action == "live_swap" and "table_a" in changes:
        return [gettext("round %(round)s: %(a)s (table %(table_a)s) and %(b)s (table %(table_b)s) swapped")
                % {k: changes.get(k, "") for k in ("round", "a", "table_a", "b", "table_b")}]
    return []
