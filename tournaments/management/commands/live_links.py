import io

from adlg_site.command_output import FORMATS, write_table
from tournaments.live.links import entrant_link_path, links_issue
from tournaments.live.selectors import public_id, public_name
from tournaments.management.live_command import LiveCommand

COLUMNS = ("id", "name", "path")


class Command(LiveCommand):
    help = ("Every entrant's private link of a live tournament (PAIRING.md §6): id,name,path, the path relative to "
            "the site's root (a player new to the federation is N<n> until publication).")

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", help="the tournament's ID")
        parser.add_argument("--format", default="csv", choices=FORMATS)

    def run(self, **options):
        live = self.live(options["tournament_id"])
        links_issue(live)
        entrants = live.entrants.order_by("pool", "last_name", "first_name", "pk")
        rows = [(public_id(e), public_name(e), entrant_link_path(e)) for e in entrants]
        text = io.StringIO()
        write_table(text, columns=COLUMNS, rows=rows, fmt=options["format"])
        self.stdout.write(text.getvalue(), ending="")
