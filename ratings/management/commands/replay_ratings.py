from django.core.management.base import BaseCommand, CommandError

from ratings.calibration import calibration_refresh
from ratings.models import RatingSystem
from ratings.services import replay_from_scratch


class Command(BaseCommand):
    help = "Recompute all history of a rating system from scratch; prints the games per second reached."

    def add_arguments(self, parser):
        parser.add_argument("--system", default="adlg")

    def handle(self, *args, **options):
        system = RatingSystem.objects.filter(code=options["system"]).first()
        if system is None:
            raise CommandError(f"unknown rating system {options['system']!r}; known: "
                               + ", ".join(RatingSystem.objects.values_list("code", flat=True)))
        summary = replay_from_scratch(system=system)
        calibration_refresh(system_code=system.code)
        self.stdout.write(f"{system.code}: {summary.games} games, {summary.events} events in "
                          f"{summary.seconds:.2f} s, {summary.games_per_second:,.0f} games/s")
