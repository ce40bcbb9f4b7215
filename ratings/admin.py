from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from adlg_site.words import refusal_text
from players import permissions
from players.admin_mixins import AuditedAdmin, InternalAdmin, PlayerSearchAdmin, ReadOnlyAdmin
from ratings.closing import YearCloseError, year_close
from ratings.models import (
    ClosedYear,
    OfficialList,
    OpenDataRelease,
    PlayerRating,
    RatingCount,
    RatingEvent,
    RatingSystem,
    ReplayRequest,
)


@admin.register(RatingSystem)
class RatingSystemAdmin(AuditedAdmin):
    list_display = ["code", "name", "ruleset", "position"]


@admin.register(ClosedYear)
class ClosedYearAdmin(admin.ModelAdmin):
    """The board closes a year here (the yearly job does it on 31 December): the same service as
    `close_year`, which records the year, audits it and replays from its last day. A closed year stays."""

    list_display = ["system", "year", "closed_at", "closed_by"]
    fields = ["system", "year"]

    def has_add_permission(self, request):
        return permissions.is_board(request.user)

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        try:
            year_close(year=obj.year, user=request.user, systems=[obj.system_id])
        except YearCloseError as refused:
            raise ValidationError(" ".join(refusal_text(refused))) from refused
        obj.pk = ClosedYear.objects.get(system_id=obj.system_id, year=obj.year).pk

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)

        class CheckedForm(form):
            def clean(self):
                cleaned = super().clean()
                year = cleaned.get("year")
                if year is not None and year > timezone.localdate().year:
                    raise ValidationError(_("%(year)s has not ended: a year can be closed from its 31 December on."),
                                          params={"year": year})
                return cleaned

        return CheckedForm


@admin.register(PlayerRating)
class PlayerRatingAdmin(PlayerSearchAdmin, ReadOnlyAdmin):
    list_display = ["player", "system", "rating", "rank_code", "games", "last_played"]
    list_filter = ["system", "rank_code"]
    search_fields = ["player__id"]  # and the player's names (PlayerSearchAdmin)
    player_search_prefixes = ("player__",)
    list_select_related = ["player"]


@admin.register(RatingEvent)
class RatingEventAdmin(ReadOnlyAdmin):
    list_display = ["player", "system", "seq", "kind", "date", "rating_before", "rating_after", "change"]
    list_filter = ["system", "kind"]
    search_fields = ["player__id"]
    show_full_result_count = False


@admin.register(ReplayRequest)
class ReplayRequestAdmin(InternalAdmin, ReadOnlyAdmin):
    list_display = ["id", "system", "since", "reason", "status", "requested_at", "finished_at", "games"]
    list_filter = ["system", "status"]


@admin.register(RatingCount)
class RatingCountAdmin(InternalAdmin, ReadOnlyAdmin):
    list_display = ["system", "rating", "players"]
    list_filter = ["system"]


@admin.register(OfficialList)
class OfficialListAdmin(ReadOnlyAdmin):
    """Read only: a list is issued on the board's page (or by the worker) and never changed."""

    list_display = ["system", "number", "valid_from", "issued_at", "issued_by", "players"]
    list_filter = ["system"]


@admin.register(OpenDataRelease)
class OpenDataReleaseAdmin(InternalAdmin, ReadOnlyAdmin):
    list_display = ["built_at", "archive_sha256", "document_sha256", "counts"]
    exclude = ["archive", "document"]
