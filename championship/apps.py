from django.apps import AppConfig


class ChampionshipConfig(AppConfig):
    name = "championship"
    default_auto_field = "django.db.models.BigAutoField"
