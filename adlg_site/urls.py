from django.contrib import admin
from django.http import HttpResponse
from django.urls import include, path


def healthz(request):
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("adlg_site.api_urls")),
    path("referee/", include("tournaments.referee_urls")),
    path("board/", include("players.board_urls")),
    path("accounts/", include("players.account_urls")),
    path("", include("adlg_site.public_urls")),
]
