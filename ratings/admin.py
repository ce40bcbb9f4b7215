from django.contrib import admin

from players.admin_mixins import AuditedAdmin, DerivedAdmin
from ratings.models import ClosedYear, PlayerRating, RatingCount, RatingEvent, RatingSystem, ReplayRequest


@admin.register(RatingSystem)
class RatingSystemAdmin(AuditedAdmin):
    list_display = ["code", "name", "ruleset", "position"]


@admin.register(ClosedYear)
class ClosedYearAdmin(DerivedAdmin):
    list_display = ["system", "year", "closed_at", "closed_by"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(DerivedAdmin):
    list_display = ["player", "system", "rating", "rank_code", "games", "last_played"]
    list_filter = ["system", "rank_code"]
    search_fields = ["player__last_name", "player__id"]
    list_select_related = ["player"]


@admin.register(RatingEvent)
class RatingEventAdmin(DerivedAdmin):
    list_display = ["player", "system", "seq", "kind", "date", "rating_before", "rating_after", "change"]
    list_filter = ["system", "kind"]
    search_fields = ["player__id"]
    show_full_result_count = False


@admin.register(ReplayRequest)
class ReplayRequestAdmin(DerivedAdmin):
    list_display = ["id", "system", "since", "reason", "status", "requested_at", "finished_at", "games"]
    list_filter = ["system", "status"]


@admin.register(RatingCount)
class RatingCountAdmin(DerivedAdmin):
    list_display = ["system", "rating", "players"]
    list_filter = ["system"]
