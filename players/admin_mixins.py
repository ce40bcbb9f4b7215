"""Admin pieces shared by the four apps: every change the board makes through the admin is audited."""

from __future__ import annotations

from django.contrib import admin

from players.audit import audit_record, model_changes, snapshot


class AuditedAdmin(admin.ModelAdmin):
    def save_model(self, request, obj, form, change):
        before = snapshot(type(obj).objects.get(pk=obj.pk)) if change and obj.pk is not None else None
        super().save_model(request, obj, form, change)
        audit_record(user=request.user, action="change" if change else "create", obj=obj,
                     summary=str(obj), changes=model_changes(obj, before))

    def delete_model(self, request, obj):
        audit_record(user=request.user, action="delete", obj=obj, summary=str(obj), changes=snapshot(obj))
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            audit_record(user=request.user, action="delete", obj=obj, summary=str(obj), changes=snapshot(obj))
        super().delete_queryset(request, queryset)


class DerivedAdmin(admin.ModelAdmin):
    """Rows the replay writes: readable in the admin, never edited by hand (a replay would undo the edit)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
