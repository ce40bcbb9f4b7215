"""The referee's tournament-day pages, mounted at /referee/live/ inside the "referee" namespace (names live_*).

The result of one table: POST /referee/live/<tournament>/rounds/<round number>/tables/<table>/ with result,
a_losses, b_losses, free (on when ticked), reason (needed to change a result once the next round is paired),
revision (the table's revision the page showed), confirm (a win with more losses than the loser's).
The keyboard grid of a round (every table at once, a row saved as it is left): GET/POST
/referee/live/<tournament>/rounds/<round number>/grid/ (tournaments.live.grid_views).
The round's clock: POST /referee/live/<tournament>/rounds/<round number>/clock/ with do (start, pause, resume,
extend, set, reset) and minutes (confirm for a reset).
"""

from django.urls import path

from tournaments.live import entrant_views, grid_views, print_views, publish_views, referee_views, result_views

urlpatterns = [
    path("", referee_views.live_home, name="live_home"),
    path("<int:tournament_id>/", referee_views.live_run, name="live_run"),
    path("<int:tournament_id>/start/", referee_views.live_start, name="live_start"),
    path("<int:tournament_id>/players/", entrant_views.live_players, name="live_players"),
    path("<int:tournament_id>/cancel/", referee_views.live_cancel_view, name="live_cancel"),
    path("<int:tournament_id>/players/add/", entrant_views.live_add, name="live_add"),
    path("<int:tournament_id>/players/paste/", entrant_views.live_paste_check, name="live_paste_check"),
    path("<int:tournament_id>/players/paste/add/", entrant_views.live_paste_add, name="live_paste_add"),
    path("<int:tournament_id>/players/withdraw/", entrant_views.live_withdraw, name="live_withdraw"),
    path("<int:tournament_id>/players/present/", entrant_views.live_all_present, name="live_all_present"),
    path("<int:tournament_id>/players/<int:entrant_id>/present/", entrant_views.live_present, name="live_present"),
    path("<int:tournament_id>/players/<int:entrant_id>/move/", entrant_views.live_move, name="live_move"),
    path("<int:tournament_id>/players/<int:entrant_id>/remove/", entrant_views.live_remove, name="live_remove"),
    path("<int:tournament_id>/players/<int:entrant_id>/edit/", entrant_views.live_edit, name="live_edit"),
    path("<int:tournament_id>/players/<int:entrant_id>/new-link/", entrant_views.live_link_reissue,
         name="live_link_reissue"),
    path("<int:tournament_id>/pair/", referee_views.live_pair, name="live_pair"),
    path("<int:tournament_id>/pair/by-hand/", referee_views.live_pair_manually, name="live_pair_manually"),
    path("<int:tournament_id>/proposals/<int:round_id>/swap/", referee_views.live_swap, name="live_swap"),
    path("<int:tournament_id>/proposals/<int:round_id>/table/", referee_views.live_table, name="live_table"),
    path("<int:tournament_id>/proposals/<int:round_id>/publish/", referee_views.live_round_publish,
         name="live_round_publish"),
    path("<int:tournament_id>/withdraw-round/", referee_views.live_unpair, name="live_unpair"),
    path("<int:tournament_id>/rounds/<int:number>/", result_views.live_results, name="live_results"),
    path("<int:tournament_id>/rounds/<int:number>/tables/<int:table>/", result_views.live_result,
         name="live_result"),
    path("<int:tournament_id>/rounds/<int:number>/tables/<int:table>/remove/", result_views.live_result_remove,
         name="live_result_remove"),
    path("<int:tournament_id>/rounds/<int:number>/grid/", grid_views.live_grid, name="live_grid"),
    path("<int:tournament_id>/rounds/<int:number>/clock/", result_views.live_clock, name="live_clock"),
    path("<int:tournament_id>/self-entry/", referee_views.live_self_entry, name="live_self_entry"),
    path("<int:tournament_id>/screen-chances/", referee_views.live_screen_chances, name="live_screen_chances"),
    path("<int:tournament_id>/publish/", publish_views.live_publish, name="live_publish"),
    path("<int:tournament_id>/workbook.xlsx", publish_views.live_workbook_download, name="live_workbook"),
    path("<int:tournament_id>/finish-in-spreadsheet/", publish_views.live_hand_over_view, name="live_hand_over"),
    path("<int:tournament_id>/in-spreadsheet/", publish_views.live_handed_over, name="live_handed_over"),
    # The printouts: a published round's pairings and result slips, the standings, the final ones.
    path("<int:tournament_id>/print/rounds/<int:number>/by-name/", print_views.live_print_by_name,
         name="live_print_by_name"),
    path("<int:tournament_id>/print/rounds/<int:number>/by-table/", print_views.live_print_by_table,
         name="live_print_by_table"),
    path("<int:tournament_id>/print/rounds/<int:number>/slips/", print_views.live_print_slips,
         name="live_print_slips"),
    path("<int:tournament_id>/print/rounds/<int:number>/standings/", print_views.live_print_standings,
         name="live_print_standings"),
    path("<int:tournament_id>/print/final/", print_views.live_print_final, name="live_print_final"),
]
