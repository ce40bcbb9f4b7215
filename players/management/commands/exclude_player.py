"""`python manage.py exclude_player ID --reason TEXT` (COMMANDS.md, RULES.md §8)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from adlg_site.inputs import whole_number
from adlg_site.words import refusal_text
from players.governance import GovernanceError, player_exclude
from players.models import Player


class Command(BaseCommand):
    help = ("Exclude a player: leaves every public list, the ID is retired, the player's games are void and "
            "history replays.")

    def add_arguments(self, parser):
        # Both are checked below rather than by argparse, so a missing one is a refused input (exit 1), like the others.
        parser.add_argument("player_id", metavar="ID", nargs="?", default="", help="the player's federation ID")
        parser.add_argument("--reason", default="", help="the board's decision (confidential; required)")

    def handle(self, *args, player_id: str, reason: str, **options):
        if not player_id:
            raise CommandError("Give the player's ID: exclude_player ID --reason TEXT.")
        number = whole_number(player_id, minimum=1)
        if number is None:
            raise CommandError(f"{player_id!r} is not a federation ID: give a whole number such as 1234.")
        if not reason.strip():
            raise CommandError("Give the reason of the exclusion with --reason TEXT.")
        player = Player.objects.filter(pk=number).first()
        if player is None:
            raise CommandError(f"No player has the ID {number}.")
        try:
            player_exclude(player=player, reason=reason, user=None)
        except GovernanceError as exc:
            raise CommandError(" ".join(refusal_text(exc)))
        self.stdout.write(f"Player {player.pk} ({player.full_name}) excluded; ID {player.pk} retired; "
                          f"history replay requested.")
