"""The referee's and the list checker's pages before a tournament, included by tournaments.board_urls (under
/board/, the "board" namespace)."""

from django.urls import path

from tournaments.before import referee_views

urlpatterns = [
    path("tournaments/register/", referee_views.new_tournament, name="tournament_register"),
    path("tournaments/<int:pk>/announcement/", referee_views.announcement_edit, name="announcement_edit"),
    path("tournaments/<int:pk>/entries/", referee_views.entries_manage, name="entries_manage"),
    path("tournaments/<int:pk>/entries/<int:entry_id>/refuse/", referee_views.entry_refuse_view,
         name="entry_refuse"),
    path("tournaments/<int:pk>/entries/<int:entry_id>/lift/", referee_views.penalty_lift_view,
         name="penalty_lift"),
    path("tournaments/<int:pk>/lists/<int:list_id>/check/", referee_views.army_list_check_view,
         name="army_list_check"),
    path("lists/", referee_views.lists_home, name="lists_home"),
]
