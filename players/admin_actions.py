"""Admin actions for the board's decisions. Each checks players.permissions and hands over to the board page or the
service that does the work, so the admin, the site and the commands apply the same rules and write the same audit.

Wiring (players/admin.py and tournaments/admin.py):

    from players import admin_actions

    class PlayerAdmin(AuditedAdmin):
        actions = [admin_actions.give_sanction, admin_actions.merge_two_players]

    class SanctionAdmin(admin_actions.SanctionAdminMixin, AuditedAdmin):   # the mixin first
        ...   # keeps list_display etc.; the mixin brings the action, blocks "add", keeps reasons out of the audit

    class TournamentAdmin(AuditedAdmin):
        actions = [admin_actions.override_championship, admin_actions.approve_registration_exception,
                   admin_actions.withdraw_results]
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from players import permissions
from players.audit import audit_record, model_changes, snapshot
from players.governance import yellow_cards_expire


def _require(rule, request) -> None:
    if not rule(request.user):
        raise PermissionDenied


def _one(modeladmin, request, queryset):
    if queryset.count() != 1:
        modeladmin.message_user(request, _("Select exactly one row for this action."), messages.WARNING)
        return None
    return queryset.first()


@admin.action(description=gettext_lazy("Give a sanction (yellow, red, exclusion) to the selected player"))
def give_sanction(modeladmin, request, queryset):
    _require(permissions.is_board, request)
    player = _one(modeladmin, request, queryset)
    if player is None:
        return None
    return redirect(f"{reverse('board:sanctions')}?{urlencode({'player': player.pk})}")


@admin.action(description=gettext_lazy("Merge the two selected players (the lower ID is kept)"))
def merge_two_players(modeladmin, request, queryset):
    _require(permissions.is_board, request)
    ids = sorted(queryset.values_list("pk", flat=True)[:3])
    if len(ids) != 2:
        modeladmin.message_user(request, _("Select exactly two players to merge."), messages.WARNING)
        return None
    # The board page shows both records and asks for confirmation; it can swap which one is kept.
    return redirect(f"{reverse('board:merge')}?{urlencode({'keep': ids[0], 'duplicate': ids[1]})}")


@admin.action(description=gettext_lazy("Erase the yellow cards older than one year now"))
def expire_yellow_cards_now(modeladmin, request, queryset):
    _require(permissions.is_board, request)
    count = yellow_cards_expire(today=timezone.localdate())
    modeladmin.message_user(request, _("%(count)d yellow card(s) erased.") % {"count": count}, messages.SUCCESS)


def _tournament_page(modeladmin, request, queryset, *, rule, page: str):
    """The board page `page` of the one selected tournament, for a user the permission `rule` allows."""
    _require(rule, request)
    tournament = _one(modeladmin, request, queryset)
    return None if tournament is None else redirect(page, pk=tournament.pk)


@admin.action(description=gettext_lazy("Decide whether the selected tournament counts for the championship"))
def override_championship(modeladmin, request, queryset):
    return _tournament_page(modeladmin, request, queryset, rule=permissions.is_board,
                            page="board:tournament_override")


@admin.action(description=gettext_lazy("Withdraw the results of the selected tournament"))
def withdraw_results(modeladmin, request, queryset):
    return _tournament_page(modeladmin, request, queryset, rule=permissions.is_board,
                            page="board:tournament_withdraw")


@admin.action(description=gettext_lazy("Approve a registration exception for the selected tournament"))
def approve_registration_exception(modeladmin, request, queryset):
    return _tournament_page(modeladmin, request, queryset, rule=permissions.is_board,
                            page="board:tournament_exception")


class SanctionAdminMixin:
    """For SanctionAdmin, before AuditedAdmin: cards are given on the board page (expiry date, anonymous notice,
    exclusion with its ID retirement and replay); the admin reads, corrects and deletes them, and its audit entries
    never keep a reason, so an erased yellow card leaves no motive behind."""

    actions = [expire_yellow_cards_now]
    readonly_fields = ["player", "kind", "public_notice", "created_by", "created_at"]

    def has_add_permission(self, request):
        return False

    def save_model(self, request, obj, form, change):
        before = snapshot(type(obj).objects.get(pk=obj.pk)) if change and obj.pk is not None else None
        admin.ModelAdmin.save_model(self, request, obj, form, change)
        changes = model_changes(obj, before)
        if "reason" in changes:
            changes["reason"] = ["…", "…"]
        audit_record(user=request.user, action="change" if change else "create", obj=obj, summary=str(obj),
                     changes=changes)

    def delete_model(self, request, obj):
        audit_record(user=request.user, action="delete", obj=obj, summary=str(obj), changes=_without_reason(obj))
        admin.ModelAdmin.delete_model(self, request, obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            audit_record(user=request.user, action="delete", obj=obj, summary=str(obj), changes=_without_reason(obj))
        admin.ModelAdmin.delete_queryset(self, request, queryset)


def _without_reason(obj) -> dict:
    values = snapshot(obj)
    values.pop("reason", None)
    return values
