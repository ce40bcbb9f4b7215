"""Mounted at /accounts/: sign in (throttled), sign out (POST), a player's own account (its page, claiming a record,
its data, closing it), then django-allauth's pages (sign up, confirm an address, reset or change a password,
manage addresses). Names are global: "login", "logout", "account", "account_*"; allauth's are "account_login"
and the like (its sign-in and sign-out resolve to the views here, listed first)."""

from django.urls import include, path

from players import account_views, email_views

urlpatterns = [
    path("login/", account_views.LoginView.as_view(), name="login"),
    path("logout/", account_views.LogoutView.as_view(), name="logout"),
    path("", account_views.account_page, name="account"),
    path("my-data.json", account_views.account_data, name="account_data"),
    path("claim/", account_views.claim_search, name="account_claim"),
    path("claim/<int:player_id>/", account_views.claim_ask_view, name="account_claim_ask"),
    path("claim/cancel/", account_views.claim_cancel_view, name="account_claim_cancel"),
    path("claim/code/", account_views.claim_code_view, name="account_claim_code"),
    path("claim/token/<str:token>/", account_views.claim_token_view, name="account_claim_token"),
    path("emails/stop/<str:token>/", email_views.email_stop, name="email_stop"),
    path("close/", account_views.account_close_view, name="account_close"),
    path("password/change/", account_views.PasswordChangeView.as_view(), name="account_change_password"),
    path("", include("allauth.account.urls")),
]
