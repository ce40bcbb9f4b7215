"""Rating systems and the derived rating history.

Facts (players, sheets, closed years, exclusions) live elsewhere; RatingEvent and PlayerRating are derived
rows that only the replay (ratings.services) writes, so a full replay from scratch reproduces them exactly.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.rulesets import RULESETS, get_ruleset
from rules.words import Refused, gettext_noop


def validate_ruleset(code: str) -> None:
    if code not in RULESETS:
        raise ValidationError(_("Unknown ruleset %(code)s: choose one of %(codes)s."),
                              params={"code": code, "codes": ", ".join(RULESETS)})


class RatingSystem(models.Model):
    code = models.SlugField(_("code"), max_length=30, primary_key=True)
    name = models.CharField(_("name"), max_length=80)
    ruleset = models.CharField(_("ruleset"), max_length=30, validators=[validate_ruleset],
                               help_text=_("adlg-2018, adlg-annex-a, battle-empire or classic-elo"))
    position = models.PositiveSmallIntegerField(_("display order"), default=0)

    class Meta:
        ordering = ["position", "code"]
        verbose_name = _("rating system")
        verbose_name_plural = _("rating systems")

    def __str__(self) -> str:
        return self.name

    def get_ruleset(self):
        return get_ruleset(self.ruleset)


class ClosedYear(models.Model):
    """A year whose inactivity adjustment (RULES.md §5) is part of history."""

    system = models.ForeignKey(RatingSystem, on_delete=models.PROTECT, related_name="closed_years")
    year = models.PositiveSmallIntegerField(_("year"))
    closed_at = models.DateTimeField(_("closed at"), auto_now_add=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")

    class Meta:
        ordering = ["system", "year"]
        verbose_name = _("closed year")
        verbose_name_plural = _("closed years")
        constraints = [models.UniqueConstraint(fields=["system", "year"], name="close_year_once")]

    def __str__(self) -> str:
        return f"{self.system_id} {self.year}"


class RatingEvent(models.Model):
    """One change of one player's rating: a rated game, or an inactivity adjustment. Derived.

    Derived tables carry no database foreign-key constraints (db_constraint=False): the replay is their only
    writer and rewrites them from facts it has just read in the same transaction, so a constraint would only
    check again what the replay guarantees. Django still cascades deletions. Only the indexes the pages and the
    replay read are kept. Only the replay removes events: a correction or a deleted tournament leaves its
    events in place until the replay it requests rewrites everything from its date (each event records its
    player's state before it, which is where a replay from that date starts). A player with games cannot be
    deleted.
    """

    GAME = "game"
    ADJUSTMENT = "adjustment"
    KIND_CHOICES = [(GAME, _("game")), (ADJUSTMENT, _("inactivity adjustment"))]

    system = models.ForeignKey(RatingSystem, on_delete=models.CASCADE, db_constraint=False, db_index=False,
                               related_name="+")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, db_constraint=False, db_index=False,
                               related_name="rating_events")
    seq = models.BigIntegerField(_("order in history"))
    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    date = models.DateField(_("date"))
    # DO_NOTHING: only the replay removes events (a deleted tournament's events go with the replay it requests).
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.DO_NOTHING, db_constraint=False,
                                   db_index=False, null=True, blank=True, related_name="+")
    game = models.ForeignKey("tournaments.Game", on_delete=models.DO_NOTHING, db_constraint=False, db_index=False,
                             null=True, blank=True, related_name="+")
    opponent = models.ForeignKey("players.Player", on_delete=models.DO_NOTHING, db_constraint=False,
                                 db_index=False, null=True, blank=True, related_name="+")
    year = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_before = models.IntegerField(_("rating before"))
    rating_after = models.IntegerField(_("rating after"))
    change = models.IntegerField(_("change"))
    games_before = models.PositiveIntegerField(_("rated games before"))
    opponent_rating = models.IntegerField(null=True, blank=True)
    k = models.PositiveSmallIntegerField("K", null=True, blank=True)
    expected = models.FloatField(_("expected score"), null=True, blank=True)
    score = models.FloatField(_("result value"), null=True, blank=True)
    # With rating_before and games_before, the player's whole state before the event: a replay from a date
    # starts from each player's first event on or after it, read in one pass (ratings.selectors.ratings_at).
    last_played_before = models.DateField(_("last rated game before"), null=True, blank=True)

    class Meta:
        ordering = ["system", "player", "seq"]
        verbose_name = _("rating event")
        verbose_name_plural = _("rating events")
        # The system comes last in both: the player or the date narrows a read far more than the system does (a
        # federation has two), and the system, checked inside the index, still narrows it further.
        indexes = [
            models.Index(fields=["player", "seq", "system"], name="event_player_history"),
            # Dates and sequence numbers grow together: one index serves the replay's cut and its last event.
            models.Index(fields=["date", "seq", "system"], name="event_system_date"),
            # No index on the tournament: its page finds its events by (system, its end date) above.
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.rating_before}→{self.rating_after}"


class PlayerRating(models.Model):
    """A player's current rating, game count and rank in one system. Derived.

    The position in the list is not stored: storing it would rewrite most of the list after every
    tournament (a 20-point move passes thousands of players). It is read from RatingCount (ratings.positions).
    """

    # No index of their own: the unique (player, system) serves the player's ratings, the list indexes the rest.
    system = models.ForeignKey(RatingSystem, on_delete=models.CASCADE, db_constraint=False, db_index=False,
                               related_name="+")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, db_constraint=False, db_index=False,
                               related_name="ratings")
    rating = models.IntegerField(_("rating"))
    games = models.PositiveIntegerField(_("rated games"))
    rank_code = models.CharField(_("rank"), max_length=40)
    last_played = models.DateField(_("last played"), null=True, blank=True)
    # The player's country and club, copied by the database itself (triggers of migration 0006, on every
    # insert of a rating and every change of a player, whatever the path: admin, sheet, bulk update, a club's
    # deletion). The list filters on them along its own indexes instead of joining the players on every page.
    country = models.ForeignKey("players.Country", on_delete=models.DO_NOTHING, db_constraint=False, db_index=False,
                                null=True, blank=True, editable=False, related_name="+")
    club = models.ForeignKey("players.Club", on_delete=models.DO_NOTHING, db_constraint=False, db_index=False,
                             null=True, blank=True, editable=False, related_name="+")

    class Meta:
        ordering = ["system", "-rating", "player"]
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [models.UniqueConstraint(fields=["player", "system"], name="one_rating_per_system")]
        # One index per way the public list is read (ratings.rating_list): each page walks its order, the system
        # checked inside the index (it comes last, as in the history's indexes).
        indexes = [
            models.Index(fields=["-rating", "player", "system"], name="rating_list_rating"),
            models.Index(fields=["-games", "-rating", "player", "system"], name="rating_list_games"),
            models.Index(fields=["-last_played", "-rating", "player", "system"], name="rating_list_last_played"),
            models.Index(fields=["country", "-rating", "player", "system"], name="rating_list_country"),
            models.Index(fields=["club", "-rating", "player", "system"], name="rating_list_club"),
            models.Index(fields=["rank_code", "-rating", "player", "system"], name="rating_list_rank"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.system_id} {self.rating}"


class RatingCount(models.Model):
    """How many listed players of a system hold each rating. Derived: a position is one plus the players above."""

    system = models.ForeignKey(RatingSystem, on_delete=models.CASCADE, db_constraint=False, related_name="+")
    rating = models.IntegerField(_("rating"))
    players = models.PositiveIntegerField(_("players"))

    class Meta:
        ordering = ["system", "-rating"]
        verbose_name = _("rating count")
        verbose_name_plural = _("rating counts")
        constraints = [models.UniqueConstraint(fields=["system", "rating"], name="one_count_per_rating")]

    def __str__(self) -> str:
        return f"{self.system_id} {self.rating}: {self.players}"


class ReplayRequest(models.Model):
    """A request to bring one system's derived rows up to date, written in the same transaction as the facts.

    The worker may be down or Redis may lose the message: the row stays pending and the periodic sweep
    enqueues it again, so no change of the facts is ever left unreplayed.
    """

    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    STATUS_CHOICES = [(PENDING, _("pending")), (RUNNING, _("running")), (DONE, _("done")), (FAILED, _("failed"))]
    # Not done yet: a failed request stays open, its facts are stored, so the next run must still cover them.
    OPEN = (PENDING, RUNNING, FAILED)

    system = models.ForeignKey(RatingSystem, on_delete=models.CASCADE, related_name="replay_requests")
    since = models.DateField(_("replay from"), null=True, blank=True, help_text=_("blank: from scratch"))
    reason = models.CharField(_("reason"), max_length=200)
    status = models.CharField(_("status"), max_length=10, choices=STATUS_CHOICES, default=PENDING, db_index=True)
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    games = models.PositiveIntegerField(_("games replayed"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        verbose_name = _("replay request")
        verbose_name_plural = _("replay requests")

    def __str__(self) -> str:
        return f"{self.system_id} {self.since or 'scratch'} {self.status}"


class ReplayLock(models.Model):
    """One row per system, locked (SELECT … FOR UPDATE) for the length of a replay: one replay at a time."""

    system = models.OneToOneField(RatingSystem, on_delete=models.CASCADE, primary_key=True,
                                  related_name="replay_lock")
    replayed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("replay lock")

    def __str__(self) -> str:
        return f"{self.system_id} replayed at {self.replayed_at}"


class FrozenRow(Refused):
    """An official list or its rows were asked to change: they are frozen once written (nothing is changed)."""

    sentences = {"frozen": gettext_noop("An issued official list is never changed (%(what)s).")}


class FrozenQuerySet(models.QuerySet):
    """No bulk change of frozen rows through the ORM (the database refuses an UPDATE too: migration triggers)."""

    def update(self, **kwargs):
        raise FrozenRow.one("frozen", what=f"{self.model.__name__}, update")

    def delete(self):
        raise FrozenRow.one("frozen", what=f"{self.model.__name__}, delete")


class Frozen(models.Model):
    """Written once, never changed: save() on a stored row and delete() refuse."""

    objects = FrozenQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise FrozenRow.one("frozen", what=f"{type(self).__name__} {self.pk}, save")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise FrozenRow.one("frozen", what=f"{type(self).__name__} {self.pk}, delete")


class OfficialList(Frozen):
    """An official rating list of one system: numbered, dated, frozen for ever. A stored fact, not a derived row:
    the replay never reads nor writes it, so a correction imported after it changes the next list, never this one.

    In force from `valid_from` until the next list's date; `last_request` is the last replay request whose change
    its figures include, so that two lists say which changes of the facts came between them.
    """

    system = models.ForeignKey(RatingSystem, on_delete=models.PROTECT, related_name="official_lists",
                               verbose_name=_("rating system"))
    number = models.PositiveIntegerField(_("number"))
    valid_from = models.DateField(_("date"))
    issued_at = models.DateTimeField(_("issued at"), default=timezone.now)
    # None: issued by the worker on the first of the month.
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+", verbose_name=_("issued by"))
    last_request = models.BigIntegerField(_("last change included"), null=True, blank=True)
    players = models.PositiveIntegerField(_("players"))

    class Meta:
        ordering = ["system", "-number"]
        verbose_name = _("official list")
        verbose_name_plural = _("official lists")
        constraints = [models.UniqueConstraint(fields=["system", "number"], name="official_list_number_once")]

    def __str__(self) -> str:
        return f"{self.system_id} no. {self.number} of {self.valid_from:%Y-%m-%d}"


class OfficialListRow(Frozen):
    """One listed player as they stood when the list was issued: every figure and name copied, none read later."""

    official_list = models.ForeignKey(OfficialList, on_delete=models.PROTECT, related_name="rows")
    position = models.PositiveIntegerField(_("position"))
    # No constraint: the row is a copy; the player's record may be merged or excluded later without touching it.
    player = models.ForeignKey("players.Player", on_delete=models.DO_NOTHING, db_constraint=False, db_index=False,
                               related_name="+")
    last_name = models.CharField(_("last name"), max_length=80)
    first_name = models.CharField(_("first name"), max_length=80, blank=True)
    rating = models.IntegerField(_("rating"))
    games = models.PositiveIntegerField(_("rated games"))
    rank_code = models.CharField(_("rank"), max_length=40)
    country_code = models.CharField(_("country"), max_length=2, blank=True)
    club_id_then = models.PositiveIntegerField(_("club ID"), null=True, blank=True)
    club_name = models.CharField(_("club"), max_length=120, blank=True)
    last_played = models.DateField(_("last played"), null=True, blank=True)

    class Meta:
        ordering = ["official_list", "position", "player"]
        verbose_name = _("official list row")
        verbose_name_plural = _("official list rows")
        constraints = [models.UniqueConstraint(fields=["official_list", "player"], name="official_list_player_once")]
        indexes = [models.Index(fields=["official_list", "position", "player"], name="official_list_order")]

    def __str__(self) -> str:
        return f"{self.official_list_id} {self.position} {self.player_id} {self.rating}"


class OpenDataRelease(models.Model):
    """The federation's public record as dated downloads, rebuilt by the worker (ratings.open_data). Stored in the
    database, not in MEDIA_ROOT: the worker writes it and the web process serves it, and they share the database
    but no volume; backups carry it with the rest. A release is a few megabytes; only the last few are kept (a
    release is never changed, only removed when it is old)."""

    built_at = models.DateTimeField(_("built at"), default=timezone.now, db_index=True)
    archive = models.BinaryField(_("CSV archive (zip)"))
    archive_sha256 = models.CharField(_("SHA-256 of the archive"), max_length=64)
    document = models.BinaryField(_("JSON document"))
    document_sha256 = models.CharField(_("SHA-256 of the JSON document"), max_length=64, db_index=True)
    counts = models.JSONField(_("rows per table"), default=dict)

    class Meta:
        ordering = ["-built_at", "-id"]
        verbose_name = _("open-data release")
        verbose_name_plural = _("open-data releases")

    def __str__(self) -> str:
        return f"open data of {self.built_at:%Y-%m-%d %H:%M}"


class Calibration(models.Model):
    """How well one system's ratings predicted its rated games (rules.calibration), as the worker last worked it
    out after a replay: the page reads it and never computes it. Derived."""

    system = models.OneToOneField(RatingSystem, on_delete=models.CASCADE, primary_key=True, related_name="+")
    computed_at = models.DateTimeField(_("computed at"))
    games = models.PositiveIntegerField(_("games"))
    predicted = models.FloatField(_("predicted score"))
    observed = models.FloatField(_("observed score"))
    difference_low = models.FloatField(null=True, blank=True)
    difference_high = models.FloatField(null=True, blank=True)
    verdict = models.CharField(_("verdict"), max_length=10)
    # [low, high, games, predicted, observed, interval low, interval high] per band, as rules.calibration.Band;
    # high, observed and the interval are null where the band is open or under the minimum sample.
    bands = models.JSONField(_("bands"), default=list)
    seconds = models.FloatField(_("seconds to compute"), default=0)

    class Meta:
        verbose_name = _("calibration")
        verbose_name_plural = _("calibrations")

    def __str__(self) -> str:
        return f"{self.system_id}: {self.games} games, {self.verdict}"
