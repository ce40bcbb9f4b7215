from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")  # the admin's section title, in the reader's language
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from players.models import Club, Player
        from ratings.selectors import filter_choices_forget

        for model in (Player, Club):
            post_save.connect(filter_choices_forget, sender=model, dispatch_uid=f"filter-choices-{model.__name__}-save")
            post_delete.connect(filter_choices_forget, sender=model,
                                dispatch_uid=f"filter-choices-{model.__name__}-delete")
