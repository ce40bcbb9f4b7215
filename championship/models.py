"""Championship points and yearly totals (charter App. 6). Derived by the replay."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class ChampionshipResult(models.Model):
    """Points one player earned in one counting tournament, and whether they are among the year's best four."""

    # No index of their own: the unique (tournament, player) serves lookups by tournament, the (player, year)
    # index lookups by player, alone or with the year (every index is built again by a full replay).
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, db_constraint=False,
                                   db_index=False, related_name="championship_results")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, db_constraint=False, db_index=False,
                               related_name="championship_results")
    year = models.PositiveSmallIntegerField(_("year"))
    points = models.DecimalField(_("points"), max_digits=8, decimal_places=2)
    counted = models.BooleanField(_("among the best four"), default=False)

    class Meta:
        ordering = ["year", "player", "-points"]
        verbose_name = _("championship result")
        verbose_name_plural = _("championship results")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="one_result_per_tournament")]
        indexes = [models.Index(fields=["player", "year"], name="champ_result_player_year")]

    def __str__(self) -> str:
        return f"{self.year} {self.tournament_id}/{self.player_id}: {self.points}"


class ChampionshipTotal(models.Model):
    """A player's championship total of a year."""

    year = models.PositiveSmallIntegerField(_("year"))
    # No index of its own: the unique (player, year) serves lookups by player.
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, db_constraint=False, db_index=False,
                               related_name="championship_totals")
    total = models.DecimalField(_("total"), max_digits=9, decimal_places=2)
    results = models.PositiveSmallIntegerField(_("results counted"))
    rank = models.PositiveIntegerField(_("rank"))
    international = models.BooleanField(_("in the international ranking"), default=False)
    international_rank = models.PositiveIntegerField(_("international rank"), null=True, blank=True)
    country = models.ForeignKey("players.Country", on_delete=models.SET_NULL,
                                db_constraint=False, db_index=False, null=True, blank=True,
                                related_name="+")

    class Meta:
        ordering = ["year", "rank"]
        verbose_name = _("championship total")
        verbose_name_plural = _("championship totals")
        constraints = [models.UniqueConstraint(fields=["player", "year"], name="one_total_per_player_year")]
        indexes = [
            models.Index(fields=["year", "rank"], name="champ_total_rank"),
            models.Index(fields=["year", "country", "rank"], name="champ_total_country"),
        ]

    def __str__(self) -> str:
        return f"{self.year} #{self.rank} {self.player_id}: {self.total}"
