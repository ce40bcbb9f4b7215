from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path


def favicon(request):
    """Browsers that ignore <link rel="icon"> ask for /favicon.ico. The address is read per request: the static
    files' manifest may not exist when this module is imported (checks before collectstatic)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("adlg_site.api_urls")),
    path("referee/", include("tournaments.sheets.urls")),
    path("board/", include("players.board_urls")),
    path("accounts/", include("players.account_urls")),
    path("tournaments/", include("tournaments.before.urls")),  # entries and army lists; the calendar's feed
    path("", include("adlg_site.public_urls")),
]

handler400 = "adlg_site.error_views.bad_request"
handler500 = "adlg_site.error_views.server_error"
# Not one of Django's handlers: django-allauth answers its rate limits with it (allauth.core.ratelimit.respond_429).
handler429 = "adlg_site.error_views.too_many_requests"
