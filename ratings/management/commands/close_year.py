from django.core.management.base import BaseCommand, CommandError

from adlg_site.words import refusal_text
from ratings.calibration import replay_and_calibrate
from ratings.closing import YearCloseError, year_close
from ratings.services import ReplayBusy


class Command(BaseCommand):
    help = "Apply the inactivity adjustment of YEAR (RULES.md §5); a second run changes nothing."

    def add_arguments(self, parser):
        parser.add_argument("year", type=int)

    def handle(self, *args, **options):
        try:
            done = year_close(year=options["year"])
        except YearCloseError as exc:
            raise CommandError(" ".join(refusal_text(exc)))
        for code, created in done:
            if created:
                try:
                    replay_and_calibrate(system_code=code)
                except ReplayBusy:
                    self.stderr.write(f"{code}: a replay is running; it will apply {options['year']}")
            self.stdout.write(f"{code}: {options['year']} " + ("closed" if created else "was already closed"))
