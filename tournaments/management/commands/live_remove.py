from tournaments.live.entrants import entrant_remove
from tournaments.live.selectors import public_id
from tournaments.management.live_command import LiveCommand


class Command(LiveCommand):
    help = ("Remove a player who has no game in a live tournament (added by mistake): they appear nowhere after, "
            "not in the standings nor in the publication (PAIRING.md §6). One who has a game is withdrawn instead "
            "(live_withdraw).")

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", help="the tournament's ID")
        parser.add_argument("player_id", help="the player's federation ID (or N<n> for a player new to it)")

    def run(self, **options):
        live = self.live(options["tournament_id"])
        entrant = self.entrant(live, options["player_id"])
        shown = f"{entrant} ({public_id(entrant)})"
        entrant_remove(live, entrant)
        self.stdout.write(f"{shown} removed from tournament {live.pk}.")
