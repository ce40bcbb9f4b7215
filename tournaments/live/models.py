"""The tournament day's rows (PAIRING.md): a tournament run live on the site, its entrants, rounds, tables, discarded
draws, actions and clocks; facts of the day, rated only once published as a sheet. They belong to the tournaments
app (label ``tournaments``): tournaments.models imports them for the app registry and the layers below the day."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules.sheet.format import TEXT_LIMITS

# --- a tournament run live on the site (PAIRING.md): facts of the day, rated only once published as a sheet


class LiveTournamentQuerySet(models.QuerySet):
    def running(self) -> LiveTournamentQuerySet:
        """Run on the site now: neither published nor handed over to a spreadsheet."""
        return self.filter(published_at__isnull=True, handed_over_at__isnull=True)


class LiveTournament(models.Model):
    """A tournament the referee runs on the site. Its rounds, tables and results stay here until publication,
    which builds the official workbook and imports it like an upload (tournaments.live.live_publish)."""

    CLASSIC, ADAPTED = "classic", "adapted"
    SWISS_CHOICES = [(CLASSIC, _("classic Swiss")), (ADAPTED, _("adapted Swiss"))]

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, primary_key=True,
                                      related_name="live")
    # The referee's choice where the charter leaves one (P = N); blank: the charter's default.
    swiss = models.CharField(_("Swiss system"), max_length=8, choices=SWISS_CHOICES, blank=True)
    # The system from round 2 on, per pool, fixed when round 1 is paired (by P at the start).
    systems = models.JSONField(_("systems"), default=dict, blank=True)
    players_enter_results = models.BooleanField(_("players may enter their own results"), default=False)
    # The big screen shows each player's chances beside their table (rules.predictions): the referee's choice.
    screen_chances = models.BooleanField(_("the big screen shows the chances"), default=False)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    published_sheet = models.ForeignKey("tournaments.Sheet", on_delete=models.SET_NULL, null=True, blank=True,
                                        related_name="+")
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    # Bumped by every change a live page shows, so that phones polling the page get "not modified" cheaply.
    version = models.PositiveIntegerField(default=0)
    # The referee finishes the day in the spreadsheet (the workbook so far, then an upload): the live run stops
    # changing and no longer holds the sheet import back (tournaments.live.handover).
    handed_over_at = models.DateTimeField(_("finished in a spreadsheet at"), null=True, blank=True)
    handed_over_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                       related_name="+")

    objects = LiveTournamentQuerySet.as_manager()

    class Meta:
        verbose_name = _("live tournament")
        verbose_name_plural = _("live tournaments")

    def __str__(self) -> str:
        return f"live {self.tournament_id}"


class LiveEntrant(models.Model):
    """A player of a live tournament: one of the federation (player) or one new to it (names only, given an ID
    when the tournament is published, as a sheet's N1, N2… rows are)."""

    live = models.ForeignKey(LiveTournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                               verbose_name=_("player"))
    last_name = models.CharField(_("last name"), max_length=TEXT_LIMITS["last_name"])
    first_name = models.CharField(_("first name"), max_length=TEXT_LIMITS["first_name"], blank=True)
    club = models.CharField(_("club"), max_length=TEXT_LIMITS["club"], blank=True)
    country = models.CharField(_("country"), max_length=2, blank=True)
    pool = models.CharField(_("pool"), max_length=TEXT_LIMITS["pool"], default="A")
    hat = models.PositiveSmallIntegerField(_("hat"), null=True, blank=True)
    group = models.CharField(_("group"), max_length=1, blank=True)
    # The rating when the tournament started: the standing before round 1 and the standings' tie-break.
    rating = models.IntegerField(_("rating at the start"))
    joined_round = models.PositiveSmallIntegerField(_("joined in round"), default=1)
    withdrawn_from = models.PositiveSmallIntegerField(_("withdrawn from round"), null=True, blank=True)
    # Checked in: in the hall. Only those present are paired; a player registered in the calendar starts absent
    # until the referee checks them in, one checked in after round 1 of the pool is a late player (PAIRING.md §6).
    present = models.BooleanField(_("present"), default=True)
    # The entrant's private link (PAIRING.md §6, tournaments.live.links): whoever holds it enters this player's
    # results, with no account. Its secret is stored nowhere: the link is made again from the salt under the
    # SECRET_KEY (a reprinted slip carries it again), and found by the digest (adlg_site.tokens). A link made
    # before the salts has a digest and no salt: it works, and the site makes a new one to show it again.
    link_salt = models.CharField(max_length=43, null=True, blank=True, editable=False)
    link_digest = models.CharField(_("private link"), max_length=64, unique=True, null=True, blank=True,
                                   editable=False)

    class Meta:
        ordering = ["live", "pool", "-rating", "id"]
        verbose_name = _("live player")
        verbose_name_plural = _("live players")
        constraints = [
            models.UniqueConstraint(fields=["live", "player"], condition=Q(player__isnull=False),
                                    name="live_player_once"),
            models.CheckConstraint(condition=Q(joined_round__gte=1), name="live_joined_round"),
        ]

    def __str__(self) -> str:
        return f"{self.last_name} {self.first_name}".strip()


class LiveRound(models.Model):
    """One round of one pool: proposed (not published) or published, with how it was paired."""

    live = models.ForeignKey(LiveTournament, on_delete=models.CASCADE, related_name="rounds")
    pool = models.CharField(_("pool"), max_length=30, default="A")
    number = models.PositiveSmallIntegerField(_("round"))
    system = models.CharField(_("system"), max_length=12)
    stage = models.CharField(max_length=8, blank=True)
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    warnings = models.JSONField(_("warnings"), default=list, blank=True)
    reason = models.TextField(_("reason for a rule bent"), blank=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    # Set when a result of an earlier round changed after this round was paired (PAIRING.md §5).
    paired_from_other_results = models.BooleanField(default=False)
    # Round 1's notes: which system follows from round 2 and why ([{"code", "params"}], rules.pairing.system_note).
    notes = models.JSONField(_("notes"), default=list, blank=True)
    # The referee's changes to the proposal, in order, each with its reason (PAIRING.md §5): [{"kind": "swap",
    # "a", "b", "tables", "reason", "warnings", "at", "by"} or {"kind": "table", "table", "to", "reason", …}].
    changes = models.JSONField(_("changes"), default=list, blank=True)
    # The pool and the draw as the rules read them when the round was paired, so that anyone can re-run it
    # (tournaments.live.draws): {"players", "standing", "played", "round", "rounds", "system", "method", "seed",
    # "numbers", "pairs"}. None for a round paired by hand.
    drawn = models.JSONField(_("draw"), null=True, blank=True)

    class Meta:
        ordering = ["live", "number", "pool"]
        verbose_name = _("live round")
        verbose_name_plural = _("live rounds")
        constraints = [models.UniqueConstraint(fields=["live", "pool", "number"], name="live_round_once")]

    def __str__(self) -> str:
        return f"{self.live_id} {self.pool} R{self.number}"


class LiveTable(models.Model):
    """One game of a live round. `b` None is the spare (ID 99)."""

    round = models.ForeignKey(LiveRound, on_delete=models.CASCADE, related_name="tables")
    table = models.PositiveSmallIntegerField(_("table"))
    a = models.ForeignKey(LiveEntrant, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(LiveEntrant, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    result = models.CharField(_("result"), max_length=3, blank=True)
    a_losses = models.PositiveSmallIntegerField(_("A losses %"), null=True, blank=True)
    b_losses = models.PositiveSmallIntegerField(_("B losses %"), null=True, blank=True)
    free = models.BooleanField(_("free game"), default=False)
    # Always false since PAIRING.md §6's decision of 2026-11-26 (a late player has no game in the rounds missed);
    # kept, false, for the read API's `missed` and the tables made before it.
    missed = models.BooleanField(default=False)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    entered_at = models.DateTimeField(null=True, blank=True)
    # What each player entered, waiting for the other's confirmation: {"result", "a_losses", "b_losses"}.
    claim_a = models.JSONField(null=True, blank=True)
    claim_b = models.JSONField(null=True, blank=True)
    # Counts the changes of the result and the claims: a form carries the one it showed, so that a second referee's
    # entry never replaces the first silently (tournaments.live.results).
    revision = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["round", "table"]
        verbose_name = _("live table")
        verbose_name_plural = _("live tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="live_table_once"),
            models.CheckConstraint(condition=Q(a_losses__isnull=True) | Q(a_losses__lte=100),
                                   name="live_a_losses_percent"),
            models.CheckConstraint(condition=Q(b_losses__isnull=True) | Q(b_losses__lte=100),
                                   name="live_b_losses_percent"),
        ]

    def __str__(self) -> str:
        return f"{self.round} T{self.table}"


class LiveDiscardedDraw(models.Model):
    """A round's pairing the referee discarded (PAIRING.md §3, §5): drawn or paired again before it was published,
    dropped when the players changed, or a round withdrawn, published or not. Kept with its seed, its pairs and the
    reason, and listed on the round's public page, so that nobody can draw until a draw suits them unseen."""

    DRAWN_AGAIN, WITHDRAWN, PLAYERS_CHANGED = "drawn_again", "withdrawn", "players_changed"
    KINDS = [(DRAWN_AGAIN, _("drawn or paired again")), (WITHDRAWN, _("withdrawn")),
             (PLAYERS_CHANGED, _("dropped: the players changed"))]

    live = models.ForeignKey(LiveTournament, on_delete=models.CASCADE, related_name="discarded")
    pool = models.CharField(_("pool"), max_length=30, default="A")
    number = models.PositiveSmallIntegerField(_("round"))
    kind = models.CharField(max_length=16, choices=KINDS)
    system = models.CharField(_("system"), max_length=12)
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    # [{"table", "a", "b", "a_name", "b_name", "result", "a_losses", "b_losses"}]: names kept as they were.
    pairs = models.JSONField(default=list)
    reason = models.TextField(_("reason"), blank=True)
    was_published = models.BooleanField(default=False)
    results_discarded = models.PositiveSmallIntegerField(default=0)
    changes = models.JSONField(default=list, blank=True)
    drawn = models.JSONField(null=True, blank=True)
    # The rules the draw bent, as LiveRound.warnings ({"code", "params"}): often why it was drawn again.
    warnings = models.JSONField(default=list, blank=True)
    discarded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="+")
    discarded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["live", "pool", "number", "discarded_at", "id"]
        verbose_name = _("discarded draw")
        verbose_name_plural = _("discarded draws")

    def __str__(self) -> str:
        return f"{self.live_id} {self.pool} R{self.number} {self.kind}"


class LiveAction(models.Model):
    """One action of the tournament day done once: the key its form carried (a double click or a page sent again
    carries the same) and where the referee was sent after it (tournaments.live.page_tools.one_effect)."""

    live = models.ForeignKey(LiveTournament, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    next_url = models.CharField(max_length=300)
    done_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("tournament-day action")
        verbose_name_plural = _("tournament-day actions")
        constraints = [models.UniqueConstraint(fields=["live", "key"], name="live_action_once")]

    def __str__(self) -> str:
        return f"{self.live_id} {self.key}"


class LiveClock(models.Model):
    """The clock of one round of the day (rules.clock). One per round number, not per pool: tables are numbered
    across the pools and the hall plays a round together (PAIRING.md §2.5), so every pool's games share the time."""

    live = models.ForeignKey(LiveTournament, on_delete=models.CASCADE, related_name="clocks")
    number = models.PositiveSmallIntegerField(_("round"))
    duration = models.DurationField(_("game time"))  # as planned: deployment is 20 % of it
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    paused = models.DurationField(_("paused for"), default=timedelta(0))  # the pauses already over
    extended = models.DurationField(_("extended by"), default=timedelta(0))

    class Meta:
        ordering = ["live", "number"]
        verbose_name = _("round clock")
        verbose_name_plural = _("round clocks")
        constraints = [models.UniqueConstraint(fields=["live", "number"], name="live_clock_once")]

    def __str__(self) -> str:
        return f"{self.live_id} R{self.number} clock"
