"""Tournaments and their facts (registrations, games, uploaded sheets) and their derived standings."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.names import name_key
from rules.pairing.model import DRAW, ELO_LEVELS, HATS, MANUAL
from rules.sheet.format import ALL_RESULTS

# The tournament day's models live beside it; imported here, the app registry and the layers below the day find
# them as tournaments.models' (one app, one label, no migration).
from tournaments.live.models import (  # noqa: F401
    LiveAction,
    LiveClock,
    LiveDiscardedDraw,
    LiveEntrant,
    LiveRound,
    LiveTable,
    LiveTournament,
    LiveTournamentQuerySet,
)


class Tournament(models.Model):
    REGISTERED = "registered"
    RECEIVED = "received"
    RATED = "rated"
    STATUS_CHOICES = [(REGISTERED, _("registered")), (RECEIVED, _("results received")), (RATED, _("rated"))]

    system = models.ForeignKey("ratings.RatingSystem", on_delete=models.PROTECT, related_name="tournaments",
                               verbose_name=_("rating system"))
    name = models.CharField(_("name"), max_length=150)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    city = models.CharField(_("city"), max_length=100)
    country = models.ForeignKey("players.Country", on_delete=models.PROTECT, verbose_name=_("country"))
    organising_club = models.ForeignKey("players.Club", on_delete=models.SET_NULL, null=True, blank=True,
                                        verbose_name=_("organising club"), related_name="tournaments")
    referee_name = models.CharField(_("referee"), max_length=150, blank=True)
    referees = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="refereed_tournaments",
                                      verbose_name=_("referee accounts"))
    format = models.CharField(_("format"), max_length=60, blank=True, help_text=_("e.g. 200 points individual"))
    army_points = models.PositiveSmallIntegerField(_("army points"), null=True, blank=True)
    pools = models.PositiveSmallIntegerField(_("pools"), default=1)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    worlds = models.BooleanField(_("Worlds"), default=False)
    official = models.BooleanField(_("official"), default=True)
    status = models.CharField(_("status"), max_length=12, choices=STATUS_CHOICES, default=REGISTERED)
    announced_on = models.DateField(_("announced on"), null=True, blank=True)
    # The board's decision on the charter conditions: None follows the checks, True/False overrides them.
    counts_override = models.BooleanField(_("counts for the championship (board override)"), null=True, blank=True)
    override_reason = models.TextField(_("override reason (public)"), blank=True)
    exception_approved = models.BooleanField(_("registration exception approved"), default=False)
    exception_reason = models.TextField(_("registration exception reason"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-end_date", "-start_date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(condition=Q(end_date__gte=F("start_date")), name="tournament_ends_after_start"),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="tournament_has_rounds"),
        ]
        indexes = [
            models.Index(fields=["system", "end_date", "start_date", "id"], name="tournament_history_order"),
            models.Index(fields=["start_date"], name="tournament_start"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.start_date:%Y-%m-%d})"

    @property
    def referee_shown(self) -> str:
        """The referee's name as a page shows it; "" for a placeholder with no letter in it (the "-" a tournament
        run live without a referee's name is published with, read back as "'-" from its formula-safe workbook),
        so that no page writes "Referee: '-"."""
        name = self.referee_name.strip()
        return name if any(character.isalpha() for character in name) else ""


class Registration(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="registrations")
    pool = models.CharField(_("pool"), max_length=30, default="A")
    club = models.ForeignKey("players.Club", on_delete=models.SET_NULL, null=True, blank=True,
                             verbose_name=_("club on the day"), related_name="+")
    army = models.CharField(_("army"), max_length=120, blank=True)
    penalty = models.PositiveSmallIntegerField(_("penalty points"), default=0)
    penalty_reason = models.CharField(_("penalty reason"), max_length=200, blank=True)
    row = models.PositiveIntegerField(_("sheet row"), null=True, blank=True)
    # When the player was registered: a referee sees the player's cards only for a registration made before the
    # tournament starts (players.permissions). A corrected sheet keeps the dates of the players it keeps.
    # The database's default too: the bulk loaders (COPY) name their columns and leave this one out.
    registered_at = models.DateTimeField(_("registered at"), default=timezone.now, db_default=Now())

    class Meta:
        ordering = ["tournament", "pool", "player"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="register_once")]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.player_id}"


# --- before the tournament (charter App. 1 §8-12): the announcement, players' entries and their army lists.
# An Entry is a player's own request to play, made on the site; it is not a Registration, which holds the facts of
# a rated tournament (written by the sheet import, read by the replay). Entries reach the facts only through the
# tournament day (tournaments.live) or the pre-filled sheet (tournaments.before.entries).


class Announcement(models.Model):
    """What App. 1 §12 asks a tournament's announcement to say, beyond the calendar entry (name, dates, city,
    rounds, format and referee are the Tournament's). Edited by the referee until the first day."""

    # The charter's round-1 methods (App. 2 §3), by the names the pairing rules use.
    FIRST_ROUND_CHOICES = [
        (DRAW, _("a draw (single hat)")),
        (HATS, _("two hats")),
        (ELO_LEVELS, _("Elo levels")),
        (MANUAL, _("the referee's own pairing (historical enemies, list dates, choice, challenges)")),
    ]

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, primary_key=True,
                                      related_name="announcement")
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    game_minutes = models.PositiveSmallIntegerField(_("duration of a game (minutes)"))
    duration_note = models.CharField(_("why the duration differs from the charter's"), max_length=300, blank=True)
    list_deadline = models.DateField(_("army lists deadline"))
    list_checker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="checked_tournaments", verbose_name=_("list checker"))
    lists_published = models.BooleanField(_("lists published before the start"), default=False)
    first_round = models.CharField(_("pairing of the first game"), max_length=12, choices=FIRST_ROUND_CHOICES)
    first_round_note = models.CharField(_("pairing of the first game: details"), max_length=300, blank=True)
    # The day in the players' calendars (tournaments.before.calendar_feed): a timed event when the start is known.
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    schedule = models.TextField(_("the day's schedule"), max_length=2000, blank=True)  # rules.schedule
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")

    def __str__(self) -> str:
        return f"announcement {self.tournament_id}"


class AnnouncedPool(models.Model):
    """A pool of an announced tournament and its theme (App. 1 §8): the armies allowed, where the theme
    restricts them."""

    announcement = models.ForeignKey(Announcement, on_delete=models.CASCADE, related_name="pool_themes")
    name = models.CharField(_("pool"), max_length=30)
    theme = models.CharField(_("theme"), max_length=200)
    allowed_armies = models.TextField(_("allowed armies and allies"), max_length=2000, blank=True)

    class Meta:
        ordering = ["announcement", "name"]
        verbose_name = _("announced pool")
        verbose_name_plural = _("announced pools")
        constraints = [models.UniqueConstraint(fields=["announcement", "name"], name="announced_pool_once")]

    def __str__(self) -> str:
        return f"{self.announcement_id} {self.name}"


class Entry(models.Model):
    """A player's entry into an announced tournament, made by the player on the site."""

    ENTERED, WITHDRAWN, REFUSED = "entered", "withdrawn", "refused"
    STATUS_CHOICES = [(ENTERED, _("entered")), (WITHDRAWN, _("withdrawn")), (REFUSED, _("refused"))]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="entries",
                               verbose_name=_("player"))
    pool = models.CharField(_("pool"), max_length=30, default="A")
    status = models.CharField(_("status"), max_length=10, choices=STATUS_CHOICES, default=ENTERED)
    reason = models.CharField(_("reason for the refusal"), max_length=300, blank=True)
    listed_without_name = models.BooleanField(_("listed without the name until the start"), default=False)
    # App. 1 §9: the referees and whoever saw the lists play only as the spare (ID 99).
    as_spare = models.BooleanField(_("plays as the spare"), default=False)
    # App. 7 §2: the player's first list arrived after the deadline (20 points off), unless the referee lifted it.
    list_late = models.BooleanField(_("army list late"), default=False)
    penalty_lifted_reason = models.CharField(_("why the late-list penalty was lifted"), max_length=300, blank=True)
    entered_at = models.DateTimeField(_("entered at"), default=timezone.now)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        ordering = ["tournament", "pool", "entered_at", "id"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="enter_once")]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.player_id} {self.status}"


class ArmyList(models.Model):
    """One army list sent by a player for an entry (App. 1 §11): the official workbook or a PDF, kept in the
    database as result sheets are, or a link to a list builder. A new one is sent after a list is returned; the
    entry's list is its latest."""

    XLSX, PDF, LINK = "xlsx", "pdf", "link"
    KIND_CHOICES = [(XLSX, _("workbook")), (PDF, _("PDF")), (LINK, _("link"))]
    PENDING, COMPLIANT, RETURNED = "pending", "compliant", "returned"
    STATUS_CHOICES = [(PENDING, _("waiting for the check")), (COMPLIANT, _("compliant")),
                      (RETURNED, _("returned"))]

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="army_lists")
    army_name = models.CharField(_("army"), max_length=120)
    army_number = models.CharField(_("army number"), max_length=20)
    kind = models.CharField(_("kind"), max_length=4, choices=KIND_CHOICES)
    file_name = models.CharField(_("file name"), max_length=200, blank=True)
    content = models.BinaryField(_("content"), default=bytes, blank=True)
    sha256 = models.CharField(_("SHA-256"), max_length=64, blank=True)
    size = models.PositiveIntegerField(_("size"), default=0)
    url = models.URLField(_("link"), max_length=500, blank=True)
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="+")
    submitted_at = models.DateTimeField(_("sent at"), default=timezone.now)
    late = models.BooleanField(_("sent after the deadline"), default=False)
    status = models.CharField(_("status"), max_length=10, choices=STATUS_CHOICES, default=PENDING)
    comment = models.TextField(_("checker's comment"), max_length=2000, blank=True)
    checked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    checked_at = models.DateTimeField(_("checked at"), null=True, blank=True)

    class Meta:
        ordering = ["entry", "-submitted_at", "-id"]
        verbose_name = _("army list")
        verbose_name_plural = _("army lists")

    def __str__(self) -> str:
        return f"{self.entry_id} {self.army_name} ({self.status})"


class CalendarLink(models.Model):
    """An account's personal calendar feed (tournaments.before.calendar_feed): its entries at a secret address a
    calendar app polls without signing in. Only the secret's SHA-256 digest is kept: the address is shown once; a
    new one replaces it, and deleting the row stops it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_link")
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(_("made on"), default=timezone.now)

    class Meta:
        verbose_name = _("calendar link")
        verbose_name_plural = _("calendar links")

    def __str__(self) -> str:
        return f"calendar link of account {self.user_id}"


class Game(models.Model):
    RESULT_CHOICES = [(code, code) for code in ALL_RESULTS]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField(_("round"))
    table = models.PositiveSmallIntegerField(_("table"))
    player_a = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="games_as_a",
                                 verbose_name=_("player A"))
    player_b = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="games_as_b",
                                 verbose_name=_("player B"))
    result = models.CharField(_("result"), max_length=3, choices=RESULT_CHOICES)
    a_losses = models.PositiveSmallIntegerField(_("A losses %"), null=True, blank=True)
    b_losses = models.PositiveSmallIntegerField(_("B losses %"), null=True, blank=True)
    free = models.BooleanField(_("free game"), default=False)
    row = models.PositiveIntegerField(_("sheet row"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "round", "table"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        # The rules of rules.sheet.checks.game_faults that need no other row: the admin's form checks them all, and
        # these keep a typo made any other way from reaching the replay.
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "table"], name="one_game_per_table"),
            models.CheckConstraint(condition=~Q(player_a=F("player_b")), name="game_players_differ"),
            models.CheckConstraint(condition=Q(a_losses__isnull=True) | Q(a_losses__lte=100),
                                   name="game_a_losses_percent"),
            models.CheckConstraint(condition=Q(b_losses__isnull=True) | Q(b_losses__lte=100),
                                   name="game_b_losses_percent"),
            models.CheckConstraint(condition=Q(round__gte=1) & Q(table__gte=1), name="game_round_and_table"),
        ]
        indexes = [
            models.Index(fields=["player_a"], name="game_player_a"),
            models.Index(fields=["player_b"], name="game_player_b"),
        ]

    def __str__(self) -> str:
        return f"R{self.round} T{self.table}: {self.player_a_id}-{self.player_b_id} {self.result}"


class Sheet(models.Model):
    """An uploaded result sheet. The file is kept in the database so the upload and its import commit together."""

    RECEIVED = "received"
    REJECTED = "rejected"
    CHECKED = "checked"
    IMPORTED = "imported"
    REPLAYED = "replayed"
    FAILED = "failed"
    DISCARDED = "discarded"
    ACCEPTED = (IMPORTED, REPLAYED)  # imported, whether the replay has run yet or not
    STATUS_CHOICES = [
        (RECEIVED, _("received")),
        (REJECTED, _("rejected: errors to fix")),
        (CHECKED, _("checked: waiting for confirmation")),
        (IMPORTED, _("imported: ratings being updated")),
        (REPLAYED, _("published")),
        (FAILED, _("failed")),
        (DISCARDED, _("discarded")),
    ]

    tournament = models.ForeignKey(Tournament, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="sheets")
    file_name = models.CharField(_("file name"), max_length=200)
    content = models.BinaryField(_("content"))
    sha256 = models.CharField(_("SHA-256"), max_length=64, db_index=True)
    size = models.PositiveIntegerField(_("size"))
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="uploaded_sheets", verbose_name=_("uploaded by"))
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=10, choices=STATUS_CHOICES, default=RECEIVED)
    report = models.JSONField(_("report"), default=dict, blank=True)
    # What the reader found in the file (rules.sheet.parsed.parsed_as_json), so that the preview, the confirmation
    # and the annotated copy never parse the file again.
    reading = models.JSONField(_("reading"), default=dict, blank=True)
    new_players = models.JSONField(_("new players"), default=dict, blank=True)
    replay_request = models.ForeignKey("ratings.ReplayRequest", on_delete=models.SET_NULL, null=True, blank=True,
                                       related_name="+")
    imported_at = models.DateTimeField(_("imported at"), null=True, blank=True)

    class Meta:
        ordering = ["-uploaded_at", "-id"]
        verbose_name = _("result sheet")
        verbose_name_plural = _("result sheets")

    def __str__(self) -> str:
        return f"{self.file_name} ({self.get_status_display()})"


class UploadAttempt(models.Model):
    """One result sheet sent by one account, on the upload page or the API, whatever became of it: the count of
    the last hour limits uploads (tournaments.sheets.upload_limits). Kept a day."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("upload attempt")
        verbose_name_plural = _("upload attempts")
        indexes = [models.Index(fields=["user", "at"], name="upload_attempt_user_at")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.at:%Y-%m-%d %H:%M}"


class Standing(models.Model):
    """A player's place in one pool of a tournament. Derived by the replay."""

    # No index of its own: the unique (tournament, player) serves lookups by tournament (fewer indexes to write).
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, db_constraint=False, db_index=False,
                                   related_name="standings")
    pool = models.CharField(_("pool"), max_length=30)
    rank = models.PositiveIntegerField(_("rank"))
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE,
                               db_constraint=False, related_name="standings")
    score = models.FloatField(_("score"))
    opponents_score = models.FloatField(_("opponents' score"))
    penalty = models.PositiveSmallIntegerField(_("penalty"), default=0)
    wins = models.PositiveSmallIntegerField(default=0)
    draws = models.PositiveSmallIntegerField(default=0)
    losses = models.PositiveSmallIntegerField(default=0)
    games = models.PositiveSmallIntegerField(_("scored rounds"), default=0)
    tiebreak = models.CharField(_("decided by"), max_length=20, blank=True)
    rating_before = models.IntegerField(_("rating before"), null=True, blank=True)
    rating_after = models.IntegerField(_("rating after"), null=True, blank=True)
    performance = models.FloatField(_("performance rating"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "pool", "rank"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="one_standing_per_player")]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.pool} #{self.rank} {self.player_id}"


class TournamentOutcome(models.Model):
    """What the replay concluded about a tournament as a whole. Derived."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, primary_key=True,
                                      related_name="outcome")
    average_rating = models.FloatField(_("average rating"), null=True, blank=True)
    ranked_players = models.PositiveIntegerField(_("ranked players"), default=0)
    rated_games = models.PositiveIntegerField(_("rated games"), default=0)
    charter_failures = models.JSONField(_("charter failures"), default=list, blank=True)
    counts = models.BooleanField(_("counts for the championship"), default=False)

    class Meta:
        verbose_name = _("tournament outcome")
        verbose_name_plural = _("tournament outcomes")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {'counts' if self.counts else 'does not count'}"


class ArmyAlias(models.Model):
    """An army name as typed in results ("Carthaginois", "carthage n°45") and the army it stands for
    ("Carthaginian"), set by the technical board: the armies' statistics count names through it (rules.armies)."""

    name = models.CharField(_("name as typed"), max_length=120)
    # rules.names.name_key of the name: accents, case and spaces aside, one mapping per name.
    key = models.CharField(max_length=120, unique=True, editable=False)
    army = models.CharField(_("army"), max_length=120)

    class Meta:
        ordering = ["army", "name"]
        verbose_name = _("army name")
        verbose_name_plural = _("army names")

    def __str__(self) -> str:
        return f"{self.name} → {self.army}"

    def save(self, *args, **kwargs):
        self.key = name_key(self.name)
        self.army = " ".join(self.army.split())
        super().save(*args, **kwargs)

    def clean(self) -> None:
        # The key is not a form field: a name already mapped (in any case or accents) is refused here, not by the
        # database's unique index.
        key = name_key(self.name)
        if not key:
            raise ValidationError({"name": _("Give the name as typed.")})
        if ArmyAlias.objects.filter(key=key).exclude(pk=self.pk).exists():
            raise ValidationError({"name": _("This name is already mapped to an army.")})
