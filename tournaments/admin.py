from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from players import admin_actions
from players.admin_forms import GameForm, RegistrationForm, TournamentForm
from players.admin_mixins import AuditedAdmin, PlayerSearchAdmin, ReadOnlyAdmin
from ratings.requests import replay_request
from tournaments.models import ArmyAlias, Game, Registration, Sheet, Standing, Tournament


class RatedFactAdmin(AuditedAdmin):
    """Facts the ratings are derived from: a change or a deletion through the admin requests the replay of the
    tournaments it touches (before and after the change) from the earliest of their ends, as an import does."""

    @staticmethod
    def _tournaments_of(obj) -> list[Tournament]:
        return [obj] if isinstance(obj, Tournament) else [obj.tournament]

    def _stored(self, obj) -> list[Tournament]:
        stored = type(obj).objects.filter(pk=obj.pk).first() if obj.pk is not None else None
        return self._tournaments_of(stored) if stored is not None else []

    @staticmethod
    def _replay(tournaments: list[Tournament], why: str) -> None:
        since: dict[str, object] = {}
        for t in tournaments:
            if t.status != Tournament.REGISTERED:  # announced only: nothing rated yet
                since[t.system_id] = min(since.get(t.system_id, t.end_date), t.end_date)
        for system_id, date in since.items():
            replay_request(system=system_id, since=date, reason=why)

    def save_model(self, request, obj, form, change):
        before = self._stored(obj) if change else []
        super().save_model(request, obj, form, change)
        self._replay(before + self._tournaments_of(obj), f"{obj._meta.verbose_name} changed in the admin")

    def delete_model(self, request, obj):
        touched = self._tournaments_of(obj)
        super().delete_model(request, obj)
        self._replay(touched, f"{obj._meta.verbose_name} deleted in the admin")

    def delete_queryset(self, request, queryset):
        touched = [t for obj in queryset for t in self._tournaments_of(obj)]
        super().delete_queryset(request, queryset)
        self._replay(touched, f"{queryset.model._meta.verbose_name_plural} deleted in the admin")


class RegistrationInline(admin.TabularInline):
    model = Registration
    form = RegistrationForm
    extra = 0
    autocomplete_fields = ["player", "club"]
    # When the board registered the player: it decides whether referees see the player's cards.
    readonly_fields = ["registered_at"]


@admin.register(Tournament)
class TournamentAdmin(RatedFactAdmin):
    form = TournamentForm
    list_display = ["id", "name", "system", "start_date", "end_date", "city", "country", "status", "official",
                    "worlds", "counts_override"]
    list_filter = ["system", "status", "official", "worlds", "country"]
    search_fields = ["id", "name", "city"]
    date_hierarchy = "end_date"
    autocomplete_fields = ["organising_club", "referees"]
    list_select_related = ["system", "country"]
    inlines = [RegistrationInline]
    actions = [admin_actions.override_championship, admin_actions.approve_registration_exception,
               admin_actions.withdraw_results]
    # These decide a replay: they change only through the actions above, which request it and ask a reason.
    readonly_fields = ["counts_override", "override_reason", "exception_approved", "exception_reason", "status"]

    def get_deleted_objects(self, objs, request):
        """The confirmation of a deletion (one tournament or a selection): a rated tournament's results are taken
        out of the ratings by withdrawing them, with a reason, not by deleting the tournament."""
        rated = [t for t in objs if t.status != Tournament.REGISTERED]
        if rated and request.POST.get("post") != "yes":  # the confirmation page, not the confirmed deletion
            links = ", ".join(
                format_html('<a href="{}">{}</a>', reverse("board:tournament_withdraw", args=[t.pk]), t)
                for t in rated
            )
            messages.warning(request, format_html(
                _("{} has rated results. To take results out of the ratings, withdraw them on the board's page "
                  "(with a reason, kept in the audit log): {}. Deleting also erases the tournament's facts."),
                _("This tournament") if len(rated) == 1 else _("Each of these tournaments"),
                mark_safe(links),  # noqa: S308 - built by format_html above
            ))
        return super().get_deleted_objects(objs, request)


@admin.register(Game)
class GameAdmin(PlayerSearchAdmin, RatedFactAdmin):
    form = GameForm
    list_display = ["id", "tournament", "round", "table", "player_a", "player_b", "result", "a_losses", "b_losses",
                    "free"]
    list_filter = ["result", "free"]
    search_fields = ["tournament__name"]  # and the players' names (PlayerSearchAdmin)
    player_search_prefixes = ("player_a__", "player_b__")
    autocomplete_fields = ["tournament", "player_a", "player_b"]
    list_select_related = ["tournament", "player_a", "player_b"]


@admin.register(Registration)
class RegistrationAdmin(PlayerSearchAdmin, RatedFactAdmin):
    form = RegistrationForm
    list_display = ["tournament", "player", "pool", "penalty", "penalty_reason", "registered_at"]
    readonly_fields = ["registered_at"]
    search_fields = ["tournament__name"]  # and the player's names (PlayerSearchAdmin)
    player_search_prefixes = ("player__",)
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
class StandingAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "pool", "rank", "player", "score", "opponents_score"]
    list_select_related = ["tournament", "player"]


@admin.register(ArmyAlias)
class ArmyAliasAdmin(AuditedAdmin):
    """The board maps the army names typed in results to one army: the armies' page counts through it."""

    list_display = ["name", "army"]
    search_fields = ["name", "army"]
    list_per_page = 100
