from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from players import admin_actions
from players.account_views import AdminSignInForm
from players.admin_forms import ClubForm, PlayerForm
from players.admin_mixins import AuditedAdmin, InternalAdmin, PlayerSearchAdmin, ReadOnlyAdmin
from players.audit import audit_described
from players.models import AuditEntry, Club, Country, OpeningBalance, Player, RetiredId, Sanction, SentEmail
from players.services import next_free_id_preview, player_ids_allocate
from ratings.requests import replay_request


@admin.register(Country)
class CountryAdmin(AuditedAdmin):
    list_display = ["code", "name", "name_fr"]
    search_fields = ["code", "name", "name_fr"]


@admin.register(Club)
class ClubAdmin(AuditedAdmin):
    form = ClubForm
    list_display = ["name", "country"]
    list_filter = ["country"]
    search_fields = ["name"]
    list_select_related = ["country"]


class OpeningBalanceInline(admin.TabularInline):
    model = OpeningBalance
    extra = 0


@admin.register(Player)
class PlayerAdmin(PlayerSearchAdmin, AuditedAdmin):
    form = PlayerForm
    list_display = ["id", "last_name", "first_name", "club", "country", "excluded_at", "merged_into"]
    list_filter = ["country", ("excluded_at", admin.EmptyFieldListFilter)]
    search_fields = ["club__name"]  # and the names and ID (PlayerSearchAdmin)
    list_select_related = ["club", "country"]
    autocomplete_fields = ["club", "user", "merged_into"]
    readonly_fields = ["excluded_at", "merged_into", "created_at", "link_proof"]
    inlines = [OpeningBalanceInline]
    actions = [admin_actions.give_sanction, admin_actions.merge_two_players]

    # The site gives IDs (RULES.md §8): a new player gets the next free one when saved, never one typed in (it
    # could be 99, a retired ID or one a referee's import takes at the same moment); an ID never changes after.
    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "id" if obj is not None else "next_free_id"]

    def get_fields(self, request, obj=None):
        fields = [name for name in super().get_fields(request, obj) if name not in ("id", "next_free_id")]
        return ["id" if obj is not None else "next_free_id", *fields]

    @admin.display(description=_("federation ID"))
    def next_free_id(self, obj):
        return gettext("%(id)s: the next free ID, given when you save") % {"id": next_free_id_preview()}

    def save_model(self, request, obj, form, change):
        if not change:
            # Inside the admin's transaction: the allocator row stays locked until the player is committed.
            obj.id = player_ids_allocate(1)[0]
        if "user" in form.changed_data:  # a link set here is the board's own act (players.claims: proof)
            obj.link_proof = Player.PROOF_ADMIN
        super().save_model(request, obj, form, change)

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        if formset.model is OpeningBalance:
            # An opening balance is where a player's history starts: its systems are replayed from scratch,
            # as an import of opening balances does.
            touched = [*formset.new_objects, *(obj for obj, _ in formset.changed_objects), *formset.deleted_objects]
            for system_id in sorted({balance.system_id for balance in touched}):
                replay_request(system=system_id, since=None, reason="opening balance changed in the admin")


@admin.register(RetiredId)
class RetiredIdAdmin(AuditedAdmin):
    list_display = ["id", "reason", "retired_at"]
    search_fields = ["id", "reason"]


@admin.register(Sanction)
class SanctionAdmin(admin_actions.SanctionAdminMixin, PlayerSearchAdmin, AuditedAdmin):
    list_display = ["id", "player", "kind", "decided_on", "expires_on"]
    list_filter = ["kind"]
    search_fields = ["player__id"]  # and the player's names (PlayerSearchAdmin)
    player_search_prefixes = ("player__",)
    autocomplete_fields = ["player"]
    list_select_related = ["player"]


class AuditChangeList(ChangeList):
    """The admin's list of the audit log, each page's entries described at once (players.audit.audit_described:
    one query per kind of object named, not one per row)."""

    def get_results(self, request):
        super().get_results(request)
        self.result_list = audit_described(self.result_list)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["when", "who", "what", "object_name"]
    list_filter = ["action", "object_type"]
    search_fields = ["summary", "object_id"]
    date_hierarchy = "at"
    list_select_related = ["user"]

    def get_changelist(self, request, **kwargs):
        return AuditChangeList

    @admin.display(description=_("when"), ordering="at")
    def when(self, entry):
        return entry.when

    @admin.display(description=_("who"))
    def who(self, entry):
        return entry.who

    @admin.display(description=_("what"))
    def what(self, entry):
        return "; ".join([entry.what, *entry.details, *(
            f"{line.field}: {line.before} → {line.after}" if line.changed else f"{line.field}: {line.after}"
            for line in entry.lines)])

    @admin.display(description=_("object"))
    def object_name(self, entry):
        return entry.object_name


@admin.register(SentEmail)
class SentEmailAdmin(ReadOnlyAdmin):
    """What the site wrote to whom (players.notices): a send that failed shows no "sent at"."""

    list_display = ["created_at", "address", "kind", "language", "subject", "sent_at"]
    list_filter = ["kind", "language"]
    search_fields = ["address", "subject"]
    date_hierarchy = "created_at"


# The admin's sign-in refuses a name longer than any account's, as the site's does (players.account_views).
admin.site.login_form = AdminSignInForm


# django-axes registers its lockout tables for every staff account; they are the sign-in throttle's machinery
# (a lockout ends by itself after AXES_COOLOFF_TIME), not the board's work: superusers only (admin_mixins).
def _internal(model) -> None:
    current = admin.site._registry.get(model)
    if current is None:
        return
    admin.site.unregister(model)
    admin.site.register(model, type(type(current).__name__, (InternalAdmin, type(current)), {"__module__": __name__}))


for _model in (AccessAttempt, AccessLog, AccessFailureLog):
    _internal(_model)
