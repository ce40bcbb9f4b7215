import json

from django.db import transaction

from rules.pairing import DRAW, ELO_LEVELS, HATS
from tournaments.live.rounds import round_pair, round_publish
from tournaments.live.selectors import public_id, public_name
from tournaments.management.live_command import LiveCommand, whole


class Command(LiveCommand):
    help = ("Pair the next round of a pool by the charter and publish it (PAIRING.md §3-4); exit 1, pairing "
            "nothing, when no pairing without a rematch exists.")

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", help="the tournament's ID")
        parser.add_argument("--pool", default="A", help="the pool to pair (default A)")
        parser.add_argument("--method", choices=[DRAW, HATS, ELO_LEVELS],
                            help="round 1 only (default draw, or elo-levels when the charter requires it)")
        parser.add_argument("--seed", help="the seed of the round-1 draw (default: a new one, printed)")
        parser.add_argument("--json", action="store_true", help="print the round as one JSON object")

    def run(self, **options):
        live = self.live(options["tournament_id"])
        seed = whole(options["seed"], "--seed", minimum=0, maximum=2**63 - 1) if options["seed"] else None
        with transaction.atomic():  # paired and published together, or neither
            # A proposal made on the pages is replaced, kept among the discarded draws (a script cannot confirm).
            round_ = round_pair(live, pool=options["pool"].strip(), method=options["method"], seed=seed,
                                reason="replaced by live_pair", discard_changes=True)
            round_publish(round_)
        tables = list(round_.tables.select_related("a", "b").order_by("table"))
        if options["json"]:
            self.stdout.write(json.dumps({
                "round": round_.number, "pool": round_.pool, "system": round_.system, "seed": round_.seed,
                "pairs": [{"table": t.table, "a": public_id(t.a), "b": public_id(t.b)} for t in tables],
            }, ensure_ascii=False))
            return
        self.stdout.write(f"Tournament {live.pk}, pool {round_.pool}, round {round_.number}: {round_.system}"
                          + (f" ({round_.stage})" if round_.stage else "")
                          + (f", seed {round_.seed}" if round_.seed is not None else "") + ", published.")
        rows = [("table", "A", "", "B", "")] + [
            (str(t.table), str(public_id(t.a)), public_name(t.a), str(public_id(t.b)), public_name(t.b))
            for t in tables]
        widths = [max(len(row[i]) for row in rows) for i in range(5)]
        for row in rows:
            self.stdout.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
