"""Mounted at /accounts/: sign in (throttled) and sign out (POST). Names are global: "login", "logout"."""

from django.urls import path

from players import account_views

urlpatterns = [
    path("login/", account_views.LoginView.as_view(), name="login"),
    path("logout/", account_views.LogoutView.as_view(), name="logout"),
]
