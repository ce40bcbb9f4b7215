from django.core.management.base import BaseCommand, CommandError

from adlg_site.command_output import FORMATS, write_table
from championship.exports import CHAMPIONSHIP_COLUMNS, championship_export_rows
from players.models import Country


class Command(BaseCommand):
    help = "A year's championship: rank,id,total,results (overall, --country XX or --international)."

    def add_arguments(self, parser):
        parser.add_argument("year", type=int)
        scope = parser.add_mutually_exclusive_group()
        scope.add_argument("--country", help="ISO 3166-1 alpha-2 code")
        scope.add_argument("--international", action="store_true")
        parser.add_argument("--format", default="csv", choices=FORMATS)

    def handle(self, *args, **options):
        country = (options["country"] or "").upper() or None
        if country and not Country.objects.filter(code=country).exists():
            raise CommandError(f"unknown country code {options['country']!r}: use ISO 3166-1 alpha-2 (FR, GB…).")
        rows = championship_export_rows(year=options["year"], country=country,
                                        international=options["international"])
        write_table(self.stdout, columns=CHAMPIONSHIP_COLUMNS, rows=rows, fmt=options["format"])
