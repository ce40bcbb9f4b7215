"""Mounted at /referee/, namespace "referee": the result-sheet pages of referees and the board."""

from django.urls import include, path

from tournaments.sheets import views

app_name = "referee"

urlpatterns = [
    path("", views.home, name="home"),
    path("template.xlsx", views.template_blank, name="template"),
    path("tournaments/<int:tournament_id>/template.xlsx", views.tournament_template, name="tournament_template"),
    path("tournaments/<int:tournament_id>/sheets/", views.tournament_sheets, name="tournament_sheets"),
    path("sheets/upload/", views.upload, name="upload"),
    path("sheets/<int:pk>/", views.sheet_detail, name="sheet"),
    path("sheets/<int:pk>/confirm/", views.sheet_confirm, name="sheet_confirm"),
    path("sheets/<int:pk>/status/", views.sheet_status, name="sheet_status"),
    path("sheets/<int:pk>/annotated.xlsx", views.sheet_annotated, name="sheet_annotated"),
    path("sheets/<int:pk>/file.xlsx", views.sheet_file, name="sheet_file"),
    path("live/", include("tournaments.live.urls")),  # the tournament day
]
