"""Admin pieces shared by the four apps: every change the board makes through the admin is audited, with what
changed, from what, to what: the object's own fields, its many-to-many links (a tournament's referee accounts)
and each object of its inlines (an opening balance 1275 → 1375, a penalty 0 → 40), each inline object in an
entry of its own."""

from __future__ import annotations

from django.contrib import admin

from players.audit import audit_record, model_changes, snapshot
from players.selectors import player_search_q
from rules.names import MAX_QUERY


def _links(obj) -> dict[str, list]:
    """The object's many-to-many links, as sorted primary keys."""
    return {
        field.name: sorted(getattr(obj, field.name).values_list("pk", flat=True))
        for field in obj._meta.many_to_many
    }


class AuditedAdmin(admin.ModelAdmin):
    def save_model(self, request, obj, form, change):
        before = snapshot(type(obj).objects.get(pk=obj.pk)) if change and obj.pk is not None else None
        super().save_model(request, obj, form, change)
        # Recorded in save_related, once the links and the inlines are saved too.
        pending = request.__dict__.setdefault("_audit_pending", {})
        pending[id(obj)] = model_changes(obj, before)

    def save_related(self, request, form, formsets, change):
        obj = form.instance
        links_before = _links(obj) if change else {}
        super().save_related(request, form, formsets, change)
        pending = request.__dict__.get("_audit_pending", {})
        if id(obj) not in pending:  # save_model was another's (SanctionAdminMixin records its own)
            return
        changes = pending.pop(id(obj))
        links_after = _links(obj)
        for name, after in links_after.items():
            before = links_before.get(name, [])
            if before != after:
                changes[name] = [before, after]
        # A change of the inlines alone leaves the object's own entry out: the inlines' entries say it all.
        if change and not changes:
            return
        audit_record(user=request.user, action="change" if change else "create", obj=obj, summary=str(obj),
                     changes=changes)

    def save_formset(self, request, form, formset, change):
        before = {
            inline.instance.pk: snapshot(type(inline.instance).objects.get(pk=inline.instance.pk))
            for inline in formset.initial_forms
            if inline.instance.pk is not None and inline.has_changed()
        }
        # Deleting clears an object's primary key: what the entry names is taken first.
        deleted = [
            (inline.instance._meta.label, str(inline.instance.pk), str(inline.instance), snapshot(inline.instance))
            for inline in getattr(formset, "deleted_forms", [])
            if inline.instance.pk is not None
        ]
        super().save_formset(request, form, formset, change)
        parent = f"{form.instance._meta.label} {form.instance.pk}"
        for obj in formset.new_objects:
            audit_record(user=request.user, action="create", obj=obj, summary=f"{obj} (in {parent})",
                         changes=model_changes(obj, None))
        for obj, _fields in formset.changed_objects:
            changes = model_changes(obj, before.get(obj.pk))
            if changes:
                audit_record(user=request.user, action="change", obj=obj, summary=f"{obj} (in {parent})",
                             changes=changes)
        for label, pk, text, values in deleted:
            audit_record(user=request.user, action="delete", object_type=label, object_id=pk,
                         summary=f"{text} (in {parent})", changes=values)

    def delete_model(self, request, obj):
        audit_record(user=request.user, action="delete", obj=obj, summary=str(obj), changes=snapshot(obj))
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            audit_record(user=request.user, action="delete", obj=obj, summary=str(obj), changes=snapshot(obj))
        super().delete_queryset(request, queryset)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows readable in the admin and never edited by hand: those the replay writes (a replay would undo the
    edit) and the audit log (a record of what was done)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class InternalAdmin(admin.ModelAdmin):
    """A table of the site's machinery (sign-in lockouts, the replay queue, the rating histogram): the board never
    uses it, so the admin shows it to superusers only; the board's index lists what it works with."""

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser


class PlayerSearchAdmin(admin.ModelAdmin):
    """The admin's search of players, or of rows that name players (`player_search_prefixes`: "" for the players
    themselves, "player__"...), is the site's name search (players.selectors): accents and case aside, an ID
    found as itself; the admin's own search over its other `search_fields` is added to it. The term is cut to the
    length a search reads and its control characters (a NUL byte, which PostgreSQL refuses) dropped first."""

    player_search_prefixes: tuple[str, ...] = ("",)

    def get_search_results(self, request, queryset, search_term):
        term = "".join(c for c in search_term[:MAX_QUERY] if c.isprintable())
        found, may_have_duplicates = super().get_search_results(request, queryset, term)
        if term.strip():
            for prefix in self.player_search_prefixes:
                found = found | queryset.filter(player_search_q(term, prefix=prefix))
        return found, may_have_duplicates
