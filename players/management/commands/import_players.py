from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from adlg_site.words import refusal_text
from players.services import PlayerInputError, players_import_csv
from ratings.models import RatingSystem


class Command(BaseCommand):
    help = ("Add or update players from the old site's CSV (id,last_name,first_name,club,country "
            "[,rating,games,as_of]), all or nothing.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="CSV file, UTF-8, comma-separated, with a header row")
        parser.add_argument("--system", default="adlg", help="rating system of the opening balances (default adlg)")

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            text = path.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            raise CommandError(f"{path}: no such file.")
        except UnicodeDecodeError:
            raise CommandError(f"{path}: not UTF-8 text; save the CSV as UTF-8.")
        except OSError as exc:
            raise CommandError(f"{path}: cannot be read ({exc.strerror}).")
        if not RatingSystem.objects.filter(code=options["system"]).exists():
            raise CommandError(f"unknown rating system {options['system']!r}.")
        try:
            result = players_import_csv(text=text, system_code=options["system"])
        except PlayerInputError as exc:
            raise CommandError("\n".join([f"{path}: nothing imported.", *refusal_text(exc)]))
        self.stdout.write(f"{result.created} players created, {result.updated} updated, "
                          f"{result.openings} opening balances.")
