from django.core.management.base import BaseCommand, CommandError

from adlg_site.command_output import FORMATS, write_table
from tournaments.exports import STANDING_COLUMNS, standing_rows
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "A tournament's standings: pool,rank,id,score,opponents_score,championship_points."

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("--format", default="csv", choices=FORMATS)

    def handle(self, *args, **options):
        tournament = Tournament.objects.filter(pk=options["tournament_id"]).first()
        if tournament is None:
            raise CommandError(f"no tournament with ID {options['tournament_id']}.")
        write_table(self.stdout, columns=STANDING_COLUMNS, rows=standing_rows(tournament=tournament),
                    fmt=options["format"])
