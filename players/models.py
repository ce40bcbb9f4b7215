"""People and clubs of the federation, their IDs, sanctions and the audit trail of the board's changes."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Value
from django.db.models.functions import Coalesce, NullIf
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from adlg_site import words
from rules.names import fold_name
from rules.rulesets import SPARE_ID

NAME_FIELDS = {"first_name", "last_name"}


class CountryQuerySet(models.QuerySet):
    def by_local_name(self, lang: str | None = None):
        """Ordered by the name shown in the language asked for (Country.local_name; the active one by default)."""
        field = f"name_{words.language(lang)}"
        if field not in {f.name for f in self.model._meta.get_fields()}:
            return self.order_by("name")
        return self.order_by(Coalesce(NullIf(field, Value("")), "name"), "name")


class Country(models.Model):
    code = models.CharField(_("ISO code"), max_length=2, primary_key=True)
    name = models.CharField(_("name"), max_length=80)
    name_fr = models.CharField(_("French name"), max_length=80, blank=True)

    objects = CountryQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("country")
        verbose_name_plural = _("countries")

    def __str__(self) -> str:
        return f"{self.local_name()} ({self.code})"

    def local_name(self, lang: str | None = None) -> str:
        """The name in the language asked for (the active one by default): the field name_<code> of that language
        when the country has one filled in (name_fr), else `name` (English)."""
        return getattr(self, f"name_{words.language(lang)}", "") or self.name


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    country = models.ForeignKey(Country, on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("country"))

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.UniqueConstraint(models.functions.Lower("name"), name="club_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name


class PlayerQuerySet(models.QuerySet):
    def public(self):
        """Players that may appear on public pages: excluded players and merged duplicates leave every list."""
        return self.filter(excluded_at__isnull=True, merged_into__isnull=True).exclude(pk=SPARE_ID)

    # Player.search_name follows the names on every write the ORM makes (save() below, and these).
    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        for player in objs:
            player.search_name = player.folded_name()
        return super().bulk_create(objs, *args, **kwargs)

    def bulk_update(self, objs, fields, *args, **kwargs):
        objs = list(objs)
        if NAME_FIELDS & set(fields):
            for player in objs:
                player.search_name = player.folded_name()
            fields = [*fields, "search_name"]
        return super().bulk_update(objs, fields, *args, **kwargs)

    def update(self, **kwargs):
        if NAME_FIELDS & set(kwargs) and "search_name" not in kwargs:
            raise TypeError("a player's names change through save() or bulk_update(), which keep search_name")
        return super().update(**kwargs)


class Player(models.Model):
    # The federation ID is the primary key: the site chooses it (players.services.next_player_id).
    id = models.PositiveIntegerField(_("federation ID"), primary_key=True)
    last_name = models.CharField(_("last name"), max_length=80)
    first_name = models.CharField(_("first name"), max_length=80, blank=True)
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("club"),
                             related_name="players")
    country = models.ForeignKey(Country, on_delete=models.PROTECT, null=True, blank=True,
                                verbose_name=_("country"), related_name="players")
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="player", verbose_name=_("account"))
    # How the link to `user` was proved (players.claims): a link made on the claimant's word alone shows the
    # account no confidential fact of the record (players.permissions.own_sanctions) until a token or a code
    # proves it. A link set in the admin is the board's own act.
    PROOF_TOKEN = "token"  # noqa: S105 - a kind of proof, not a secret
    PROOF_CODE = "code"
    PROOF_WORDS = "words"
    PROOF_ADMIN = "admin"
    PROOF_CHOICES = [
        (PROOF_TOKEN, _("a tournament day's private link")),
        (PROOF_CODE, _("a claim code of the board")),
        (PROOF_WORDS, _("the board, on the player's word")),
        (PROOF_ADMIN, _("the board, in the admin")),
    ]
    PROVED = (PROOF_TOKEN, PROOF_CODE, PROOF_ADMIN)
    link_proof = models.CharField(_("link proved by"), max_length=8, choices=PROOF_CHOICES, default=PROOF_ADMIN)
    excluded_at = models.DateTimeField(_("excluded at"), null=True, blank=True)
    merged_into = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="merged_records", verbose_name=_("merged into"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # "first last" folded (rules.names.fold_name): what the name search compares, so that "Benoit" finds Benoît on
    # SQLite and PostgreSQL alike. Written with the names by every ORM write (save, bulk_create, bulk_update);
    # PostgreSQL serves `LIKE '%word%'` on it from a trigram index (migration 0006).
    search_name = models.TextField(_("name as searched"), default="", editable=False)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["last_name", "first_name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        indexes = [models.Index(fields=["last_name", "first_name"])]

    def __str__(self) -> str:
        return f"{self.full_name} ({self.id})"

    def save(self, *args, **kwargs):
        self.search_name = self.folded_name()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and NAME_FIELDS & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "search_name"}
        super().save(*args, **kwargs)

    def folded_name(self) -> str:
        return fold_name(f"{self.first_name} {self.last_name}")

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def is_spare(self) -> bool:
        return self.id == SPARE_ID

    @property
    def is_excluded(self) -> bool:
        return self.excluded_at is not None


class RetiredId(models.Model):
    """An ID that will never be given again (an excluded player, a merged duplicate, a board decision)."""

    id = models.PositiveIntegerField(_("federation ID"), primary_key=True)
    reason = models.CharField(_("reason"), max_length=200)
    retired_at = models.DateTimeField(_("retired at"), auto_now_add=True)

    class Meta:
        verbose_name = _("retired ID")
        verbose_name_plural = _("retired IDs")

    def __str__(self) -> str:
        return str(self.id)


class IdAllocator(models.Model):
    """One row locked while an ID is given, so two referees importing at once never get the same ID."""

    last_given = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("ID allocator")

    def __str__(self) -> str:
        return f"last ID given: {self.last_given}"


class OpeningBalance(models.Model):
    """A rating migrated from the old site: the start of the player's history here (RULES.md §2)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="opening_balances")
    system = models.ForeignKey("ratings.RatingSystem", on_delete=models.PROTECT, related_name="opening_balances")
    rating = models.IntegerField(_("rating"))
    games = models.PositiveIntegerField(_("rated games"))
    as_of = models.DateField(_("as of"), null=True, blank=True)

    class Meta:
        verbose_name = _("opening balance")
        verbose_name_plural = _("opening balances")
        constraints = [models.UniqueConstraint(fields=["player", "system"], name="one_opening_per_system")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.system_id}: {self.rating} ({self.games})"


class Sanction(models.Model):
    """Disciplinary decisions of the board (charter App. 7 §3). A reminder leaves no trace, so it has no kind."""

    YELLOW = "yellow"
    RED = "red"
    EXCLUSION = "exclusion"
    KIND_CHOICES = [(YELLOW, _("yellow card")), (RED, _("red card")), (EXCLUSION, _("exclusion"))]

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="sanctions", verbose_name=_("player"))
    kind = models.CharField(_("kind"), max_length=10, choices=KIND_CHOICES)
    reason = models.TextField(_("reason (confidential)"))
    decided_on = models.DateField(_("decided on"))
    expires_on = models.DateField(_("expires on"), null=True, blank=True)
    public_notice = models.TextField(_("public notice (names no one)"), blank=True)
    # Where it happened: a red card's public notice gives the tournament and the date, never the player.
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("tournament"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-decided_on", "-id"]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")

    def __str__(self) -> str:
        # Which card, for whom: the admin's confirmations and the audit log say it ("Sanction 1" said nothing).
        return sanction_label(self.kind, self.decided_on, self.player)


def sanction_label(kind: str, decided_on, player) -> str:
    """'yellow card of 12 March 2026 for Benoît Moreau (229)': a card by its kind, date and player (a Player, or
    any text naming them), in the reader's language."""
    kinds = dict(Sanction.KIND_CHOICES)
    when = date_format(decided_on, "j F Y") if hasattr(decided_on, "year") else str(decided_on or "")
    return _("%(kind)s of %(date)s for %(player)s") % {"kind": kinds.get(kind, kind), "date": when,
                                                       "player": player}


class AuditEntry(models.Model):
    """Who changed which fact, when, and how. Derived rows are replayed, so they are never audited."""

    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+", verbose_name=_("user"))
    action = models.CharField(_("action"), max_length=40)
    object_type = models.CharField(_("object type"), max_length=60)
    object_id = models.CharField(_("object ID"), max_length=40, blank=True)
    summary = models.CharField(_("summary"), max_length=300)
    changes = models.JSONField(_("changes"), default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type} {self.object_id}"


# --- players' own accounts (players.claims, players.accounts) ---------------------------------------------------


class AccountSettings(models.Model):
    """What an account chooses for itself: the language of its emails, and whether to hear that a tournament of
    its player was rated (on unless turned off). An account without a row has the defaults."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account_settings")
    rating_emails = models.BooleanField(_("email me when a tournament I played is rated"), default=True)
    language = models.CharField(_("language of the emails"), max_length=8, choices=settings.LANGUAGES,
                                default=settings.LANGUAGE_CODE)
    # The kinds of notice the account turned off (players.notices.KINDS), but the rating emails' own field.
    muted = models.JSONField(_("emails turned off"), default=list, blank=True)

    class Meta:
        verbose_name = _("account settings")
        verbose_name_plural = _("account settings")

    def __str__(self) -> str:
        return f"settings of account {self.user_id}"


class PlayerClaim(models.Model):
    """An account asks to be linked to a federation record. The board confirms or refuses it, or a private token
    of a tournament day the player played confirms it at once (ClaimToken). The link itself is Player.user; a
    claim is its history: who asked, how it was decided, by whom, why."""

    PENDING = "pending"
    CONFIRMED = "confirmed"
    REFUSED = "refused"
    CANCELLED = "cancelled"
    UNDONE = "undone"
    STATUS_CHOICES = [
        (PENDING, _("waiting for the board")),
        (CONFIRMED, _("confirmed")),
        (REFUSED, _("refused")),
        (CANCELLED, _("cancelled")),
        (UNDONE, _("link undone by the board")),
    ]
    BY_BOARD = "board"
    BY_TOKEN = "token"  # noqa: S105 - a kind of confirmation, not a secret
    BY_CODE = "code"
    VIA_CHOICES = [(BY_BOARD, _("the board")), (BY_TOKEN, _("a tournament day's private link")),
                   (BY_CODE, _("a claim code of the board"))]
    # How the board checked a claim it confirmed on the claimant's word (claims.claim_confirm).
    CHECKS = [
        ("knows", _("a board member knows the person")),
        ("club", _("checked with the player's club")),
        ("referee", _("checked with the referee of a tournament the player played")),
        ("other", _("other (said in the note)")),
    ]

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="player_claims", verbose_name=_("account"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims", verbose_name=_("player"))
    status = models.CharField(_("status"), max_length=10, choices=STATUS_CHOICES, default=PENDING)
    via = models.CharField(_("confirmed by"), max_length=10, choices=VIA_CHOICES, default=BY_BOARD)
    message = models.CharField(_("message to the board"), max_length=500, blank=True)
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    checked_how = models.CharField(_("checked how"), max_length=10, choices=CHECKS, blank=True)
    check_note = models.CharField(_("how it was checked"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("decided by"))

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("claim of a player record")
        verbose_name_plural = _("claims of player records")
        constraints = [
            # One question at a time per account: a second record is asked for once the first is settled.
            models.UniqueConstraint(fields=["user"], condition=models.Q(status="pending"),
                                    name="one_pending_claim_per_account"),
        ]

    def __str__(self) -> str:
        return f"claim #{self.pk}: account {self.user_id} → player {self.player_id} ({self.status})"


class ClaimToken(models.Model):
    """A private, single-use proof that whoever holds it is this player: made when a tournament day's private link
    is used to link an account, or a claim code the board hands over in person (printed for a referee or a club);
    it links the account that presents it at once (players.claims.player_claim_by_token). Only a SHA-256 digest
    of the secret is stored (adlg_site.tokens); the secret is shown once."""

    LINK = "link"
    CODE = "code"
    KINDS = [(LINK, _("a tournament day's private link")), (CODE, _("a claim code of the board"))]

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claim_tokens",
                               verbose_name=_("player"))
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("tournament"))
    kind = models.CharField(_("kind"), max_length=4, choices=KINDS, default=LINK)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    used_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="+")

    class Meta:
        verbose_name = _("claim token")
        verbose_name_plural = _("claim tokens")

    def __str__(self) -> str:
        return f"claim token #{self.pk} of player {self.player_id}"


class RatingNotice(models.Model):
    """"Your tournament was rated": one row per tournament, written by the replay that first rates it
    (ratings.services); the worker sends the emails and stamps `sent_at` before it sends, so a tournament's
    emails go out once, whatever replays follow."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    recipients = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("rating email")
        verbose_name_plural = _("rating emails")

    def __str__(self) -> str:
        return f"rating email of tournament {self.tournament_id}"


class SentEmail(models.Model):
    """One email the site wrote to an account (players.notices, allauth's): recorded when the action that causes
    it commits, stamped `sent_at` by the worker once the mail server took it. `key` makes a notice idempotent (a
    reminder is sent once per entry, a digest once per tournament and day). Shown to its account in "my data"."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="sent_emails", verbose_name=_("account"))
    address = models.EmailField(_("address"))
    kind = models.CharField(_("kind"), max_length=40)
    language = models.CharField(_("language"), max_length=8)
    subject = models.CharField(_("subject"), max_length=300)
    key = models.CharField(max_length=120, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(_("written at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("email sent")
        verbose_name_plural = _("emails sent")

    def __str__(self) -> str:
        return f"{self.kind} to {self.address}"


class BoardMessage(models.Model):
    """A message written to the technical board with the site's form (players.board_messages): kept in the
    board's queue until a member marks it handled, and emailed to the board's addresses."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="board_messages", verbose_name=_("account"))
    reply_to = models.EmailField(_("reply address"))
    name = models.CharField(_("name"), max_length=120, blank=True)
    subject = models.CharField(_("subject"), max_length=150)
    body = models.TextField(_("message"), max_length=5000)
    page = models.CharField(_("written from"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("written at"), auto_now_add=True)
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("handled by"))

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("message to the board")
        verbose_name_plural = _("messages to the board")

    def __str__(self) -> str:
        return f"message #{self.pk}: {self.subject}"
