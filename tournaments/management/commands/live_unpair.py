from tournaments.live.rounds import round_withdraw
from tournaments.management.live_command import LiveCommand, Refused


class Command(LiveCommand):
    help = ("Withdraw the latest round of a pool, published or not (PAIRING.md §5), with the reason the public page "
            "shows; exit 1 when it has results and --discard-results is not given. The pool can then be paired "
            "again.")

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", help="the tournament's ID")
        parser.add_argument("--pool", default="A", help="the pool (default A)")
        parser.add_argument("--reason", required=True, help="why the round is withdrawn (shown publicly)")
        parser.add_argument("--discard-results", dest="discard_results", action="store_true",
                            help="confirm that the results entered in the round are discarded")

    def run(self, **options):
        live = self.live(options["tournament_id"])
        reason = options["reason"]
        if not reason.strip():
            raise Refused.say("--reason must say why the round is withdrawn.", "withdraw_reason_required")
        kept = round_withdraw(live, pool=options["pool"].strip(), reason=reason,
                              discard_results=options["discard_results"])
        self.stdout.write(f"Tournament {live.pk}, pool {kept.pool}: round {kept.number} withdrawn"
                          + (" (it was published)" if kept.was_published else "")
                          + (f", {kept.results_discarded} results discarded" if kept.results_discarded else "")
                          + ".")
