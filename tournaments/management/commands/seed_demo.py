import contextlib
import random
import time
from datetime import date, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from players.models import Player
from players.services import players_import_csv
from ratings.closing import year_close
from ratings.models import RatingSystem
from ratings.services import ReplayBusy, replay_pending
from tournaments import demo
from tournaments.live.entrants import NewEntrant
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.live.start import live_begin
from tournaments.models import LiveTable, Tournament
from tournaments.sheets.services import sheet_import_bytes


class Command(BaseCommand):
    help = "Load a realistic demo federation through the real import path (players CSV, result sheets)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=320)
        parser.add_argument("--years", type=int, default=4, help="seasons before the current one")
        parser.add_argument("--seed", type=int, default=2018)
        parser.add_argument("--if-empty", action="store_true", help="do nothing when players already exist")

    def handle(self, *args, **options):
        if not settings.SEED_DEMO_ALLOWED:
            raise CommandError(
                "seed_demo is for a laptop: it creates the accounts board/board and referee/referee, whose "
                "passwords everyone knows, so it refuses to run under the production settings. Create the "
                "board's account with `manage.py createsuperuser` instead."
            )
        if options["if_empty"] and Player.objects.exclude(pk=99).exists():
            self.stdout.write("demo data already present; nothing to do")
            return
        started = time.perf_counter()
        rng = random.Random(options["seed"])
        today = timezone.localdate()
        first_year = today.year - options["years"]
        everyone = demo.demo_players(rng, options["players"] + 40)
        founders, newcomers = everyone[: options["players"]], everyone[options["players"]:]
        for number, newcomer in enumerate(newcomers):
            newcomer.id = 1_000_000 + number  # a stand-in until the site gives the real ID on import
        players_import_csv(text=demo.players_csv(founders, as_of=date(first_year - 1, 12, 31)))
        calendar = demo.demo_calendar(rng, founders, first_year=first_year, last_day=today, newcomers=newcomers)
        referee = self._referee()
        imported = refused = 0
        with transaction.atomic():  # one replay at the end instead of one per sheet
            for tournament in calendar:
                games = demo.play(rng, tournament)
                data = demo.sheet_bytes(rng, tournament, games, referee=f"{referee.first_name} {referee.last_name}")
                outcome = sheet_import_bytes(data=data, file_name=f"{tournament.start}-{tournament.city}.xlsx",
                                             user=referee)
                if outcome.ok:
                    imported += 1
                    for demo_id, tag in tournament.new_tags.items():
                        newcomer = next(p for p in tournament.players if p.id == demo_id)
                        newcomer.id = outcome.new_players[tag]  # later sheets use the ID the site gave
                    Tournament.objects.get(pk=outcome.tournament_id).referees.add(referee)
                else:
                    refused += 1
                    first = outcome.report.as_dict("en")["errors"][:3]
                    self.stderr.write(f"demo sheet {tournament.name} {tournament.start} refused: {first}")
            for year in range(first_year, today.year):
                year_close(year=year)
            self._upcoming(rng, today, referee)
        for system in RatingSystem.objects.values_list("code", flat=True):
            with contextlib.suppress(ReplayBusy):  # a worker is already on it
                replay_pending(system_code=system)
        self._live_today(rng, today, referee)
        self.stdout.write(f"demo federation: {Player.objects.count() - 1} players, {imported} tournaments imported"
                          f" ({refused} refused) in {time.perf_counter() - started:.1f} s")

    def _referee(self):
        user_model = get_user_model()
        referee, created = user_model.objects.get_or_create(
            username="referee", defaults={"first_name": "Ada", "last_name": "Arbitre"})
        if created:
            referee.set_password("referee")
            referee.save()
        board, created = user_model.objects.get_or_create(
            username="board", defaults={"is_staff": True, "is_superuser": True, "first_name": "Bureau"})
        if created:
            board.set_password("board")
            board.save()
        return referee

    def _upcoming(self, rng: random.Random, today: date, referee) -> None:
        system = RatingSystem.objects.get(code="adlg")
        for weeks, (_, city), country in [(5, demo.CLUBS["FR"][0], "FR"), (9, demo.CLUBS["GB"][1], "GB"),
                                             (12, demo.CLUBS["IT"][0], "IT")]:
            start = today + timedelta(weeks=weeks)
            tournament = Tournament.objects.create(
                system=system, name=f"{city} Open {start.year}", start_date=start, end_date=start + timedelta(days=1),
                city=city, country_id=country, rounds=5, format="200 points individual", army_points=200,
                announced_on=today - timedelta(days=rng.randint(60, 90)), status=Tournament.REGISTERED)
            tournament.referees.add(referee)

    def _live_today(self, rng: random.Random, today: date, referee) -> None:
        """A tournament running live today: round 1 played, round 2 published with half its results in."""
        system = RatingSystem.objects.get(code="adlg")
        city = demo.CLUBS["FR"][1][1]
        tournament = Tournament.objects.create(
            system=system, name=f"{city} live {today.year}", start_date=today, end_date=today, city=city,
            country_id="FR", rounds=4, format="200 points individual", army_points=200,
            announced_on=today - timedelta(days=70), status=Tournament.REGISTERED, referee_name="Ada Arbitre")
        players = list(Player.objects.filter(ratings__system=system, excluded_at__isnull=True,
                                             merged_into__isnull=True).exclude(pk=99)
                       .order_by("-ratings__rating").values_list("pk", flat=True)[:40])
        chosen = rng.sample(players, 15)
        live = live_begin(tournament, entrants=[NewEntrant(player=pk) for pk in chosen], user=referee,
                          players_enter_results=True)
        for number in (1, 2):
            round_ = round_pair(live, seed=rng.randrange(2**31) if number == 1 else None, user=referee)
            round_publish(round_, user=referee)
            tables = list(LiveTable.objects.filter(round=round_).order_by("table"))
            if number == 2:
                tables = tables[: len(tables) // 2]
            results = []
            for table in tables:
                winner_losses, loser_losses = rng.randint(0, 60), rng.randint(60, 100)  # a winner never lost more
                if table.b_id is None or rng.random() < 0.5:
                    results.append(Result(table.table, "A", winner_losses, loser_losses))
                else:
                    results.append(Result(table.table, "B", loser_losses, winner_losses))
            results_record(live, number, results, user=referee)
