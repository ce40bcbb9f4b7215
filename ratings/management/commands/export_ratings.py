from django.core.management.base import BaseCommand, CommandError

from adlg_site.command_output import FORMATS, write_table
from ratings.exports import RATING_COLUMNS, rating_rows
from ratings.models import RatingSystem


class Command(BaseCommand):
    help = "The rating list, best first: id,last_name,first_name,country,club,rating,rank,games."

    def add_arguments(self, parser):
        parser.add_argument("--system", default="adlg")
        parser.add_argument("--format", default="csv", choices=FORMATS)

    def handle(self, *args, **options):
        system = RatingSystem.objects.filter(code=options["system"]).first()
        if system is None:
            raise CommandError(f"unknown rating system {options['system']!r}.")
        write_table(self.stdout, columns=RATING_COLUMNS, rows=rating_rows(system=system), fmt=options["format"])
