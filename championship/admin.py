from django.contrib import admin

from championship.models import ChampionshipResult, ChampionshipTotal
from players.admin_mixins import ReadOnlyAdmin


@admin.register(ChampionshipResult)
class ChampionshipResultAdmin(ReadOnlyAdmin):
    list_display = ["year", "tournament", "player", "points", "counted"]
    list_filter = ["year", "counted"]
    list_select_related = ["tournament", "player"]


@admin.register(ChampionshipTotal)
class ChampionshipTotalAdmin(ReadOnlyAdmin):
    list_display = ["year", "rank", "player", "total", "results", "international"]
    list_filter = ["year", "international"]
    list_select_related = ["player"]
