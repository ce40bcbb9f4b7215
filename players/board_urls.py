"""Mounted at /board/, namespace "board": the technical board's pages and the referees' registration pages."""

from django.urls import include, path

from players import board_views

app_name = "board"

urlpatterns = [
    path("", board_views.home, name="home"),
    path("sanctions/", board_views.sanctions, name="sanctions"),
    path("sanctions/<int:pk>/withdraw/", board_views.sanction_withdraw_view, name="sanction_withdraw"),
    path("merge/", board_views.merge, name="merge"),
    path("ids/", board_views.ids, name="ids"),
    path("tournaments/", board_views.tournaments, name="tournaments"),
    path("tournaments/<int:pk>/override/", board_views.override, name="tournament_override"),
    path("tournaments/<int:pk>/withdraw/", board_views.withdraw, name="tournament_withdraw"),
    path("tournaments/<int:pk>/exception/", board_views.exception, name="tournament_exception"),
    path("claims/", board_views.claims, name="claims"),
    path("claims/<int:pk>/decide/", board_views.claim_decide, name="claim_decide"),
    path("players/<int:player_id>/unlink/", board_views.unlink, name="player_unlink"),
    path("audit/", board_views.audit, name="audit"),
    path("", include("tournaments.registration_urls")),
]
