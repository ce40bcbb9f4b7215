from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChampionshipConfig(AppConfig):
    name = "championship"
    verbose_name = _("Championship")  # the admin's section title, in the reader's language
    default_auto_field = "django.db.models.BigAutoField"
