import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "adlg_site.settings.local")

app = Celery("adlg_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
