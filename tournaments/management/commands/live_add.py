from tournaments.live.entrants import NewEntrant, entrant_add
from tournaments.live.selectors import public_id
from tournaments.management.live_command import MAX_ID, LiveCommand, whole


class Command(LiveCommand):
    help = ("Add a player already on the site to a live tournament (PAIRING.md §6, §8): before round 1 of the pool is "
            "paired an entrant like the others; later a late player, who joins from the next round to pair and has "
            "no game in the rounds missed.")

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", help="the tournament's ID")
        parser.add_argument("player_id", help="the player's federation ID")
        parser.add_argument("--pool", default="A", help="the pool (default A)")
        parser.add_argument("--hat", help="1 or 2: the hat of a round 1 drawn from two hats")

    def run(self, **options):
        live = self.live(options["tournament_id"])
        player = whole(options["player_id"], "PLAYER_ID", minimum=1, maximum=MAX_ID)
        hat = whole(options["hat"], "--hat", minimum=1, maximum=2) if options["hat"] is not None else None
        entrant = entrant_add(live, NewEntrant(player=player, pool=options["pool"], hat=hat))
        late = (f" from round {entrant.joined_round} (a late player: no game in the rounds missed)"
                if entrant.joined_round > 1 else "")
        hat_text = f", hat {entrant.hat}" if entrant.hat else ""
        self.stdout.write(f"{entrant} ({public_id(entrant)}) plays in pool {entrant.pool}{hat_text} of tournament "
                          f"{live.pk}{late}.")
