import contextlib
import random
import time
from datetime import date, datetime, timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from players.claims import claim_token_issue, player_claim_by_token
from players.models import Player
from players.services import players_import_csv
from ratings.calibration import calibration_refresh
from ratings.closing import year_close
from ratings.models import RatingSystem
from ratings.official_lists import ListRefused, monthly_lists_issue
from ratings.open_data import open_data_rebuild
from ratings.services import ReplayBusy, replay_pending
from rules.pairing import DRAW, HATS
from tournaments import demo
from tournaments.before.announcement import announcement_save
from tournaments.before.army_lists import army_list_check, army_list_submit
from tournaments.before.entries import entry_refuse, entry_register, entry_withdraw
from tournaments.before.new_tournament import tournament_register
from tournaments.live.entrants import NewEntrant
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.live.start import live_begin
from tournaments.models import Entry, LiveTable, Tournament
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
                    first = outcome.report.as_dict()["errors"][:3]
                    self.stderr.write(f"demo sheet {tournament.name} {tournament.start} refused: {first}")
            for year in range(first_year, today.year):
                year_close(year=year)
            self._upcoming(rng, today, referee)
        for system in RatingSystem.objects.values_list("code", flat=True):
            with contextlib.suppress(ReplayBusy):  # a worker is already on it
                replay_pending(system_code=system)
            calibration_refresh(system_code=system)
        # The official list of this month, as the worker issues it on the 1st, and the open data built from it.
        with contextlib.suppress(ListRefused):  # a worker's replay still running: the worker's list will do
            monthly_lists_issue(on=today.replace(day=1))
        open_data_rebuild()
        live, live_players = self._live_today(rng, today, referee)
        with transaction.atomic():  # one commit for its hundred-odd steps
            accounts = self._before_the_tournament(random.Random(options["seed"] + 1), today, referee, live,
                                                   live_players)
        self.stdout.write(f"demo federation: {Player.objects.count() - 1} players, {imported} tournaments imported"
                          f" ({refused} refused) in {time.perf_counter() - started:.1f} s")
        for line in accounts:
            self.stdout.write(line)

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
                announced_on=today - timedelta(days=rng.randint(60, 90)), status=Tournament.REGISTERED,
                pools=2 if weeks == 5 else 1, referee_name="Ada Arbitre")
            tournament.referees.add(referee)

    def _live_today(self, rng: random.Random, today: date, referee) -> tuple[Tournament, list[int]]:
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
        return tournament, chosen

    def _before_the_tournament(self, rng: random.Random, today: date, referee, live: Tournament,
                               live_players: list[int]) -> list[str]:
        """Before the day, through the same services as the site's pages: the first upcoming tournament
        announced with entries open, a tournament in five days whose entries closed, players' accounts linked to
        their records, entries and army lists in every state. Returns the lines saying how to sign in."""
        system = RatingSystem.objects.get(code="adlg")
        checker = self._account("checker", "checker", first_name="Louise", last_name="Contrôle")
        player_user = self._account("player", "player", email="player@example.org")
        # The demo player played today's live tournament: its private link links their account at once.
        ranked = list(Player.objects.filter(pk__in=live_players).order_by("last_name", "first_name"))
        me = rng.choice(ranked)
        player_claim_by_token(user=player_user, token=claim_token_issue(player=me, tournament=live))
        others = list(Player.objects.filter(ratings__system=system, excluded_at__isnull=True,
                                            merged_into__isnull=True).exclude(pk__in=[99, me.pk])
                      .order_by("-ratings__rating").values_list("pk", flat=True)[:80])
        field = [Player.objects.get(pk=pk) for pk in rng.sample(others, min(24, len(others)))]
        users = {p.pk: self._linked(p, live) for p in field}
        users[me.pk] = player_user
        armies = list(demo.ARMY_NUMBERS.items())

        # Entries open: the first upcoming tournament, two pools, lists by two weeks before.
        open_one = (Tournament.objects.filter(status=Tournament.REGISTERED, live__isnull=True, start_date__gt=today)
                    .order_by("start_date").first())
        announcement_save(user=referee, tournament=open_one, today=today, data={
            "venue": "Salle Victor-Hugo, 12 rue Sala", "game_minutes": 150, "duration_note": "",
            "list_deadline": open_one.start_date - timedelta(days=14), "list_checker": checker,
            "lists_published": True, "first_round": HATS, "first_round_note": "",
            "pools": [{"name": "A", "theme": demo.THEMES[0][0], "allowed_armies": demo.THEMES[0][1]},
                      {"name": "B", "theme": demo.THEMES[1][0], "allowed_armies": demo.THEMES[1][1]}]})
        entries = [self._enter(users[player.pk], open_one, "AB"[index % 2], today - timedelta(days=12 - index),
                               listed_without_name=index == 3) for index, player in enumerate(field[:10])]
        for index, entry in enumerate(entries[:7]):
            name, number = armies[index]
            army_list = self._send(users[entry.player_id], entry, name, number, index,
                                   now=timezone.now() - timedelta(days=7 - index))
            if index < 3:
                army_list_check(user=checker, army_list=army_list, compliant=True)
            elif index == 3:
                army_list_check(user=checker, army_list=army_list, compliant=False,
                                comment=demo.RETURNED_COMMENTS[0])
        entry_withdraw(user=users[entries[8].player_id], entry=entries[8], today=today)
        entry_refuse(user=referee, entry=entries[9], reason=demo.REFUSAL_REASON,
                     today=today)

        # Entries closed: a tournament in five days, lists were due a week before; one list came late.
        start = today + timedelta(days=5)
        announced = start - timedelta(days=75)
        soon = tournament_register(user=referee, today=announced, data={
            "name": f"Tournoi de {demo.CLUBS['FR'][3][1]} {start.year}", "start_date": start,
            "end_date": start + timedelta(days=1), "city": demo.CLUBS["FR"][3][1], "country": "FR", "system": system,
            "format": "200 points individual", "army_points": 200, "pools": 1, "rounds": 5, "official": True,
            "worlds": False, "organising_club": None, "referees": []})
        deadline = start - timedelta(days=7)
        announcement_save(user=referee, tournament=soon, today=announced + timedelta(days=3), data={
            "venue": "Maison des associations", "game_minutes": 150, "duration_note": "",
            "list_deadline": deadline, "list_checker": checker, "lists_published": True, "first_round": DRAW,
            "first_round_note": "", "pools": [{"name": "A", "theme": demo.THEMES[0][0],
                                               "allowed_armies": demo.THEMES[0][1]}]})
        soon_field = [me, *field[10:22]]
        entries = [self._enter(users[p.pk], soon, "A", deadline - timedelta(days=30 - index),
                               listed_without_name=index == 5) for index, p in enumerate(soon_field)]
        for index, entry in enumerate(entries):
            late = index == len(entries) - 1
            when = timezone.now() - timedelta(hours=2) if late else after(deadline, days=-(20 - index))
            name, number = armies[0] if index in (2, 4, 6) else armies[1 + index % (len(armies) - 1)]  # 3 identical
            army_list = self._send(users[entry.player_id], entry, name, number, index, now=when)
            if late:
                continue  # sent two hours ago, after the deadline: 20 points off (App. 7 §2), not yet checked
            returned = entry.player_id == me.pk
            army_list_check(user=checker, army_list=army_list, compliant=not returned,
                            comment=demo.RETURNED_COMMENTS[1] if returned else "",
                            now=when + timedelta(days=2))
        return [
            f"sign in as player / player: {me.full_name} (ID {me.pk}), entered in {soon.name} with a list "
            f"returned by the checker; {open_one.name} is open for entries",
            f"sign in as checker / checker: Louise Contrôle, list checker of {open_one.name} and {soon.name}",
        ]

    def _account(self, username: str, password: str, *, email: str = "", first_name: str = "", last_name: str = ""):
        """A demo account that signs in with a known password (its address, if any, already confirmed)."""
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=username, defaults={"first_name": first_name, "last_name": last_name, "email": email})
        if created:
            user.set_password(password)
            user.save()
            if email:
                EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
        return user

    def _linked(self, player: Player, live: Tournament):
        """An account for a demo player, linked by the private link of a tournament day (no password: the demo
        signs in only as `player`)."""
        user = get_user_model().objects.create_user(f"demo-{player.pk}", email=f"demo-{player.pk}@example.org")
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        player_claim_by_token(user=user, token=claim_token_issue(player=player, tournament=live))
        return user

    def _enter(self, user, tournament: Tournament, pool: str, day: date, *, listed_without_name: bool):
        """The player enters on `day`, as entry_register rules for that day; its time stamp is dated back to it
        (the service stamps its own clock, and the demo plays weeks of entries in a second)."""
        entry = entry_register(user=user, tournament=tournament, pool=pool, listed_without_name=listed_without_name,
                               today=day)
        Entry.objects.filter(pk=entry.pk).update(entered_at=after(day, days=0))
        entry.refresh_from_db()
        return entry

    def _send(self, user, entry, army_name: str, army_number: str, index: int, *, now):
        """An army list as players send them: mostly links to a list builder, now and then a PDF."""
        if index % 4 == 1:
            return army_list_submit(user=user, entry=entry, army_name=army_name, army_number=army_number,
                                    file_name=f"{army_name}.pdf", data=demo.list_pdf(army_name), now=now)
        return army_list_submit(user=user, entry=entry, army_name=army_name, army_number=army_number,
                                url=f"https://listes.example.org/{entry.player_id}/{army_number}", now=now)


def after(deadline: date, *, days: int):
    """Noon `days` after the deadline's day (before it when negative), as an aware datetime."""
    return timezone.make_aware(datetime.combine(deadline + timedelta(days=days), datetime.min.time().replace(hour=12)))
