import io

from adlg_site.command_output import FORMATS, write_table
from tournaments.live.pools import same_pool
from tournaments.live.refusals import LiveRefused
from tournaments.live.selectors import live_view, public_id
from tournaments.management.live_command import LiveCommand

COLUMNS = ("pool", "rank", "id", "score", "opponents_score")


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


class Command(LiveCommand):
    help = ("A live tournament's standings after the rounds complete so far: pool,rank,id,score,opponents_score "
            "(a player new to the federation is N<n> until publication).")

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", help="the tournament's ID")
        parser.add_argument("--pool", help="one pool only (default: every pool)")
        parser.add_argument("--format", default="csv", choices=FORMATS)

    def run(self, **options):
        live = self.live(options["tournament_id"])
        pools = live_view(live, language="en").pools
        if options["pool"] is not None:
            named = same_pool([p.pool for p in pools], options["pool"])  # capitals aside, as everywhere
            pools = [p for p in pools if p.pool == named]
            if not pools:
                raise LiveRefused.one("no_such_pool", pool=options["pool"])
        rows = [(view.pool, line.rank, public_id(view.by_key[line.key]), _number(line.score),
                 _number(line.opponents_score))
                for view in pools for line in view.standings.get(view.complete_rounds, [])]
        text = io.StringIO()
        write_table(text, columns=COLUMNS, rows=rows, fmt=options["format"])
        self.stdout.write(text.getvalue(), ending="")
