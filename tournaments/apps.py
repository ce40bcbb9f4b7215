from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")  # the admin's section title, in the reader's language
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from tournaments.live.hall_row import row_changed_by_signal
        from tournaments.models import LiveTournament, Tournament

        # The hall's pages read the live run's row from the cache (tournaments.live.hall_row): a run or its
        # tournament changed anywhere (the admin, a cancelled run) is read afresh.
        for model in (LiveTournament, Tournament):
            post_save.connect(row_changed_by_signal, sender=model, dispatch_uid=f"live-row-{model.__name__}-save")
            post_delete.connect(row_changed_by_signal, sender=model,
                                dispatch_uid=f"live-row-{model.__name__}-delete")
