"""Referee pages, included by players.board_urls (so under /board/ and the "board" namespace)."""

from django.urls import path

from tournaments import registration_views

urlpatterns = [
    path("tournaments/register/", registration_views.register, name="tournament_register"),
    path("tournaments/mine/", registration_views.my_tournaments, name="my_tournaments"),
    path("tournaments/<int:pk>/cards/", registration_views.cards, name="tournament_cards"),
]
