"""A player's pages before a tournament and the calendars' feeds, under /tournaments/ (adlg_site.urls)."""

from django.urls import path

from tournaments.before import calendar_views, player_views

urlpatterns = [
    path("calendar.ics", calendar_views.calendar_ics, name="calendar_ics"),
    path("<int:tournament_id>/calendar.ics", calendar_views.tournament_ics, name="tournament_ics"),
    path("my-calendar/<str:secret>.ics", calendar_views.my_calendar_ics, name="my_calendar_ics"),
    path("my-calendar/", calendar_views.my_calendar_link, name="my_calendar_link"),
    path("<int:tournament_id>/entry/", player_views.entry_page, name="entry_page"),
    path("<int:tournament_id>/entry/register/", player_views.entry_register_view, name="entry_register"),
    path("<int:tournament_id>/entry/withdraw/", player_views.entry_withdraw_view, name="entry_withdraw"),
    path("<int:tournament_id>/entry/list/", player_views.army_list_send, name="army_list_send"),
    path("army-lists/<int:list_id>/file/", player_views.army_list_file, name="army_list_file"),
]
