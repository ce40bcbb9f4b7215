"""Mounted at /board/, namespace "board": the technical board's pages about players, then the tournaments' pages of
the board and the referees (tournaments.board_urls)."""

from django.urls import include, path

from players import board_views, email_views
from ratings import board_views as ratings_board_views

app_name = "board"

urlpatterns = [
    path("", board_views.home, name="home"),
    path("sanctions/", board_views.sanctions, name="sanctions"),
    path("sanctions/<int:pk>/withdraw/", board_views.sanction_withdraw_view, name="sanction_withdraw"),
    path("merge/", board_views.merge, name="merge"),
    path("ids/", board_views.ids, name="ids"),
    path("claims/", board_views.claims, name="claims"),
    path("claims/<int:pk>/decide/", board_views.claim_decide, name="claim_decide"),
    path("players/<int:player_id>/claim-code/", board_views.claim_code, name="claim_code"),
    path("players/<int:player_id>/unlink/", board_views.unlink, name="player_unlink"),
    path("messages/", email_views.board_messages_page, name="messages"),
    path("messages/<int:pk>/handle/", email_views.board_message_handle_view, name="message_handle"),
    path("audit/", board_views.audit, name="audit"),
    path("official-lists/", ratings_board_views.official_lists_board, name="official_lists"),
    path("army-names/", ratings_board_views.army_names_board, name="army_names"),
    path("", include("tournaments.board_urls")),
]
