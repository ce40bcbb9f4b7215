"""`python manage.py merge_players KEEP_ID DUPLICATE_ID`: two records of one person become one."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from adlg_site.inputs import whole_number
from adlg_site.words import refusal_text
from players.governance import GovernanceError, player_merge
from players.models import Player


class Command(BaseCommand):
    help = ("Merge a duplicate record into the one kept: its tournaments, games, opening balances, cards and account "
            "move, its ID is retired and history replays.")

    def add_arguments(self, parser):
        # Checked below rather than by argparse, so a missing ID is a refused input (exit 1).
        parser.add_argument("keep", metavar="KEEP_ID", nargs="?", default="", help="the ID that stays")
        parser.add_argument("duplicate", metavar="DUPLICATE_ID", nargs="?", default="", help="the ID that is retired")

    def handle(self, *args, keep: str, duplicate: str, **options):
        if not (keep and duplicate):
            raise CommandError("Give two IDs: merge_players KEEP_ID DUPLICATE_ID.")
        players = []
        for raw in (keep, duplicate):
            number = whole_number(raw, minimum=1)
            if number is None:
                raise CommandError(f"{raw!r} is not a federation ID: give a whole number such as 1234.")
            player = Player.objects.filter(pk=number).first()
            if player is None:
                raise CommandError(f"No player has the ID {number}.")
            players.append(player)
        try:
            kept = player_merge(keep=players[0], duplicate=players[1], user=None)
        except GovernanceError as exc:
            raise CommandError(" ".join(refusal_text(exc)))
        self.stdout.write(f"Player {players[1].pk} merged into {kept.pk} ({kept.full_name}); ID {players[1].pk} "
                          f"retired; history replay requested.")
