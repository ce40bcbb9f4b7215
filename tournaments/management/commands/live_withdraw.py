from tournaments.live.entrants import entrant_withdraw
from tournaments.live.selectors import public_id
from tournaments.management.live_command import LiveCommand, whole


class Command(LiveCommand):
    help = "Withdraw a player from a round on: not paired from then (PAIRING.md §6)."

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", help="the tournament's ID")
        parser.add_argument("player_id", help="the player's federation ID (or N<n> for a player new to it)")
        parser.add_argument("--from-round", dest="from_round", required=True,
                            help="the first round the player does not play")

    def run(self, **options):
        live = self.live(options["tournament_id"])
        entrant = self.entrant(live, options["player_id"])
        number = whole(options["from_round"], "--from-round", minimum=1)
        entrant_withdraw(live, entrant, from_round=number)
        self.stdout.write(f"{entrant} ({public_id(entrant)}) withdrawn from round {number} of tournament {live.pk}.")
