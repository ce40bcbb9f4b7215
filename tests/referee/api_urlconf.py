"""The site's API URLs with the sheet API in them, as adlg_site/api_urls.py will include it.

The API tests and the schema test run against this URLconf, so they pass before and after the lead adds the line
to adlg_site/api_urls.py (the sheet API is added here only when api_urls does not hold it yet).
"""

from django.urls import include, path

from adlg_site import api_urls
from tournaments.sheets import api as api_upload

_patterns = list(api_urls.urlpatterns)
if not any(getattr(p, "name", None) == "sheet-upload" for p in _patterns):
    _patterns += api_upload.urlpatterns

urlpatterns = [path("api/", include((_patterns, "api")))]
