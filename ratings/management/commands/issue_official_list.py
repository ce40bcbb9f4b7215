from datetime import date

from django.core.management.base import BaseCommand, CommandError

from adlg_site.words import refusal_text
from ratings.models import RatingSystem
from ratings.official_lists import ListRefused, list_issue
from ratings.services import ReplayBusy, replay_pending
from ratings.tasks import enqueue_open_data


class Command(BaseCommand):
    help = ("Issue the next official list of a rating system (frozen for ever), dated today or --date; a waiting "
            "replay is run first. Prints the list's number, date and players.")

    def add_arguments(self, parser):
        parser.add_argument("--system", default="adlg")
        parser.add_argument("--date", dest="on", default=None, help="YYYY-MM-DD, today by default")

    def handle(self, *args, **options):
        system = RatingSystem.objects.filter(code=options["system"]).first()
        if system is None:
            codes = ", ".join(RatingSystem.objects.values_list("code", flat=True))
            raise CommandError(f"Unknown rating system {options['system']!r}: choose one of {codes}.")
        try:
            on = date.fromisoformat(options["on"]) if options["on"] else None
        except ValueError:
            raise CommandError(f"--date {options['on']!r} is not a date (YYYY-MM-DD).") from None
        try:
            replay_pending(system_code=system.code)
            official = list_issue(system=system, on=on)
        except (ListRefused, ReplayBusy) as exc:
            raise CommandError(" ".join(refusal_text(exc))) from None
        enqueue_open_data()
        self.stdout.write(f"{system.code}: official list no. {official.number} of {official.valid_from.isoformat()}, "
                          f"{official.players} players")
