"""The referee's tournament-day pages, mounted at /referee/live/ inside the "referee" namespace (names live_*).

The result of one table: POST /referee/live/<tournament>/rounds/<round number>/tables/<table>/ with result,
a_losses, b_losses, free (on when ticked), reason (needed to change a result once the next round is paired).
"""

from django.urls import path

from tournaments import live_views as views

urlpatterns = [
    path("", views.live_home, name="live_home"),
    path("<int:tournament_id>/", views.live_run, name="live_run"),
    path("<int:tournament_id>/start/", views.live_start, name="live_start"),
    path("<int:tournament_id>/players/", views.live_players, name="live_players"),
    path("<int:tournament_id>/players/add/", views.live_add, name="live_add"),
    path("<int:tournament_id>/players/withdraw/", views.live_withdraw, name="live_withdraw"),
    path("<int:tournament_id>/pair/", views.live_pair, name="live_pair"),
    path("<int:tournament_id>/pair/by-hand/", views.live_pair_manually, name="live_pair_manually"),
    path("<int:tournament_id>/proposals/<int:round_id>/swap/", views.live_swap, name="live_swap"),
    path("<int:tournament_id>/proposals/<int:round_id>/publish/", views.live_round_publish,
         name="live_round_publish"),
    path("<int:tournament_id>/rounds/<int:number>/", views.live_results, name="live_results"),
    path("<int:tournament_id>/rounds/<int:number>/tables/<int:table>/", views.live_result, name="live_result"),
    path("<int:tournament_id>/self-entry/", views.live_self_entry, name="live_self_entry"),
    path("<int:tournament_id>/publish/", views.live_publish_view, name="live_publish"),
]
