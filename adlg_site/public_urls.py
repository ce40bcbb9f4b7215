"""The public pages: no account needed, English and French (the language switch posts to /i18n/setlang/)."""

from django.urls import path

from championship import views as championship
from players import email_views
from players import views as players
from ratings import list_views as lists
from ratings import open_data_views as open_data
from ratings import views as ratings
from tournaments import views as tournaments
from tournaments.live import draw_views, link_views
from tournaments.live import public_views as live
from tournaments.live import screen_views as screen

urlpatterns = [
    path("", players.home, name="home"),
    path("search/", players.search, name="search"),
    path("players/<int:player_id>/", players.player_detail, name="player_detail"),
    path("ratings/", ratings.ratings_index, name="ratings_index"),
    path("ratings/<slug:system>/", ratings.rating_list_view, name="rating_list"),
    path("ratings/<slug:system>/ratings.csv", ratings.rating_list_csv, name="rating_list_csv"),
    path("ratings/<slug:system>/ratings.xlsx", ratings.rating_list_xlsx, name="rating_list_xlsx"),
    path("ratings/<slug:system>/lists/", lists.official_list_index, name="official_list_index"),
    path("ratings/<slug:system>/lists/<int:number>/", lists.official_list_view, name="official_list"),
    path("ratings/<slug:system>/lists/<int:number>.csv", lists.official_list_csv, name="official_list_csv"),
    path("ratings/<slug:system>/lists/<int:number>.json", lists.official_list_json, name="official_list_json"),
    path("ratings/<slug:system>/lists/<int:number>/changes/", lists.official_list_changes,
         name="official_list_changes"),
    path("open-data/", open_data.open_data_page, name="open_data"),
    path("open-data/<int:release_id>/<str:file_name>", open_data.open_data_file, name="open_data_file"),
    path("rules/", ratings.rules, name="rules"),
    path("calibration/", ratings.calibration_page, name="calibration"),
    path("armies/", ratings.armies_page, name="armies"),
    path("notices/", players.notices, name="notices"),
    path("write-to-the-board/", email_views.board_write, name="board_write"),
    path("tournaments/", tournaments.tournament_list_view, name="tournament_list"),
    path("tournaments/<int:tournament_id>/", tournaments.tournament_detail_view, name="tournament_detail"),
    path("tournaments/<int:tournament_id>/tournament.json", tournaments.tournament_exchange_view,
         name="tournament_exchange"),
    path("tournaments/<int:tournament_id>/report.txt", tournaments.tournament_report_text,
         name="tournament_report_text"),
    path("tournaments/<int:tournament_id>/live/", live.live_page, name="live_page"),
    path("tournaments/<int:tournament_id>/live/now/", live.live_now, name="live_now"),
    path("tournaments/<int:tournament_id>/live/clock/", screen.live_clock_face, name="live_clock_face"),
    path("tournaments/<int:tournament_id>/live/screen/", screen.live_screen, name="live_screen"),
    path("tournaments/<int:tournament_id>/live/screen/now/", screen.live_screen_now, name="live_screen_now"),
    path("tournaments/<int:tournament_id>/live/tables/<int:table_id>/", live.live_claim, name="live_claim"),
    # The private link's path is made by tournaments.live.links.entrant_link_path (the slips print it): keep them one.
    path("tournaments/<int:tournament_id>/live/me/<str:token>/", link_views.live_link, name="live_link"),
    path("tournaments/<int:tournament_id>/live/rounds/<int:number>/check/", draw_views.live_check,
         name="live_check"),
    path("tournaments/<int:tournament_id>/live/discarded/<int:draw_id>/check/", draw_views.live_check_discarded,
         name="live_check_discarded"),
    path("championship/", championship.championship_index, name="championship_index"),
    path("championship/<int:year>/", championship.championship_year, name="championship_year"),
    path("championship/<int:year>/international/", championship.championship_international,
         name="championship_international"),
    path("championship/<int:year>/countries/<str:country>/", championship.championship_country,
         name="championship_country"),
]
