from tournaments.live.entrants import KEEP, entrant_move
from tournaments.live.selectors import public_id
from tournaments.management.live_command import LiveCommand, Refused, whole


class Command(LiveCommand):
    help = ("Move a player of a live tournament to another pool, or into or out of a hat, until round 1 of the pools "
            "concerned is paired (PAIRING.md §6).")

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", help="the tournament's ID")
        parser.add_argument("player_id", help="the player's federation ID (or N<n> for a player new to it)")
        parser.add_argument("--pool", help="the pool to move the player to")
        parser.add_argument("--hat", help="1 or 2, or none to take the player out of the hats")

    def run(self, **options):
        live = self.live(options["tournament_id"])
        entrant = self.entrant(live, options["player_id"])
        if options["pool"] is None and options["hat"] is None:
            raise Refused.say("give --pool P, --hat 1|2|none, or both.", "nothing_to_do")
        hat = KEEP
        if options["hat"] is not None:
            text = options["hat"].strip().lower()
            hat = None if text == "none" else whole(text, "--hat (1, 2 or none)", minimum=1, maximum=2)
        moved = entrant_move(live, entrant, pool=options["pool"], hat=hat)
        self.stdout.write(f"{moved} ({public_id(moved)}): pool {moved.pool}, "
                          f"{f'hat {moved.hat}' if moved.hat else 'no hat'}, in tournament {live.pk}.")
