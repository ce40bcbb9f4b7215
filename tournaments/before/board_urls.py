"""Referee pages and the list checker's, included by players.board_urls (under /board/, the "board" namespace)."""

from django.urls import path

from tournaments import announcement_views, registration_views

urlpatterns = [
    path("tournaments/register/", registration_views.register, name="tournament_register"),
    path("tournaments/mine/", registration_views.my_tournaments, name="my_tournaments"),
    path("tournaments/<int:pk>/cards/", registration_views.cards, name="tournament_cards"),
    # Before the tournament: the announcement, the entries and the army lists.
    path("tournaments/<int:pk>/announcement/", announcement_views.announcement_edit, name="announcement_edit"),
    path("tournaments/<int:pk>/entries/", announcement_views.entries_manage, name="entries_manage"),
    path("tournaments/<int:pk>/entries/<int:entry_id>/refuse/", announcement_views.entry_refuse_view,
         name="entry_refuse"),
    path("tournaments/<int:pk>/entries/<int:entry_id>/lift/", announcement_views.penalty_lift_view,
         name="penalty_lift"),
    path("tournaments/<int:pk>/lists/<int:list_id>/check/", announcement_views.army_list_check_view,
         name="army_list_check"),
    path("lists/", announcement_views.lists_home, name="lists_home"),
]
