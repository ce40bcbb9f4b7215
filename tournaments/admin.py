from django.contrib import admin

from players import admin_actions
from players.admin_mixins import AuditedAdmin, DerivedAdmin
from tournaments.models import Game, Registration, Sheet, Standing, Tournament


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player", "club"]


@admin.register(Tournament)
class TournamentAdmin(AuditedAdmin):
    list_display = ["id", "name", "system", "start_date", "end_date", "city", "country", "status", "official",
                    "worlds", "counts_override"]
    list_filter = ["system", "status", "official", "worlds", "country"]
    search_fields = ["id", "name", "city"]
    date_hierarchy = "end_date"
    autocomplete_fields = ["organising_club", "referees"]
    list_select_related = ["system", "country"]
    inlines = [RegistrationInline]
    actions = [admin_actions.override_championship, admin_actions.approve_registration_exception]
    # These decide a replay: they change only through the actions above, which request it and ask a reason.
    readonly_fields = ["counts_override", "override_reason", "exception_approved", "exception_reason", "status"]


@admin.register(Game)
class GameAdmin(AuditedAdmin):
    list_display = ["id", "tournament", "round", "table", "player_a", "player_b", "result", "a_losses", "b_losses",
                    "free"]
    list_filter = ["result", "free"]
    search_fields = ["tournament__name", "player_a__last_name", "player_b__last_name"]
    autocomplete_fields = ["tournament", "player_a", "player_b"]
    list_select_related = ["tournament", "player_a", "player_b"]


@admin.register(Registration)
class RegistrationAdmin(AuditedAdmin):
    list_display = ["tournament", "player", "pool", "penalty", "penalty_reason"]
    search_fields = ["tournament__name", "player__last_name"]
    autocomplete_fields = ["tournament", "player", "club"]
    list_select_related = ["tournament", "player"]


@admin.register(Sheet)
class SheetAdmin(admin.ModelAdmin):
    list_display = ["id", "file_name", "tournament", "uploaded_by", "uploaded_at", "status", "sha256"]
    list_filter = ["status"]
    exclude = ["content"]
    readonly_fields = ["file_name", "tournament", "sha256", "size", "uploaded_by", "uploaded_at", "status",
                       "report", "new_players", "replay_request", "imported_at"]

    def has_add_permission(self, request):
        return False


@admin.register(Standing)
class StandingAdmin(DerivedAdmin):
    list_display = ["tournament", "pool", "rank", "player", "score", "opponents_score"]
    list_select_related = ["tournament", "player"]
