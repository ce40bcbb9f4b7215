"""The tournaments' pages under /board/, included by players.board_urls (the "board" namespace): the board's, a
referee's own tournaments and cards, and the pages before a tournament (tournaments.before.board_urls)."""

from django.urls import include, path

from tournaments import board_views

urlpatterns = [
    path("tournaments/", board_views.tournaments, name="tournaments"),
    path("tournaments/<int:pk>/override/", board_views.override, name="tournament_override"),
    path("tournaments/<int:pk>/withdraw/", board_views.withdraw, name="tournament_withdraw"),
    path("tournaments/<int:pk>/exception/", board_views.exception, name="tournament_exception"),
    path("tournaments/mine/", board_views.my_tournaments, name="my_tournaments"),
    path("tournaments/<int:pk>/cards/", board_views.cards, name="tournament_cards"),
    path("", include("tournaments.before.board_urls")),
]
