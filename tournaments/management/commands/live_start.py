import json
from pathlib import Path

from tournaments.live.start import live_start_from_json
from tournaments.management.live_command import LiveCommand, Refused


class Command(LiveCommand):
    help = ("Create a tournament run live from a JSON description (PAIRING.md §8: name, system, start_date, "
            "end_date, rounds, city, country, referee, players [{id, pool?, hat?}], ...), as the technical board "
            "would; prints its ID. Each value has its JSON type (numbers, true/false, texts, dates as "
            "YYYY-MM-DD); the dates are the tournament's real ones, past dates included, never a start after today.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the tournament as a JSON object, UTF-8")
        parser.add_argument("--json", action="store_true", help='print {"tournament_id": N} on the last line')

    def run(self, **options):
        path = Path(options["file"])
        try:
            data = json.loads(path.read_text(encoding="utf-8-sig"))
        except FileNotFoundError:
            raise Refused.say(f"{path}: no such file.", "unreadable") from None
        except UnicodeDecodeError:
            raise Refused.say(f"{path}: not UTF-8 text.", "unreadable") from None
        except OSError as exc:
            raise Refused.say(f"{path}: cannot be read ({exc.strerror or exc}).", "unreadable") from None
        except json.JSONDecodeError as exc:
            raise Refused.say(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno}).",
                              "bad_json") from None
        if not isinstance(data, dict):
            raise Refused.say(f"{path}: the file must hold one JSON object.", "bad_json")
        live = live_start_from_json(data)
        tournament = live.tournament
        if options["json"]:
            self.stdout.write(json.dumps({"tournament_id": tournament.pk}))
        else:
            pools = sorted(set(live.entrants.values_list("pool", flat=True)))
            self.stdout.write(f"tournament {tournament.pk} created and run live: {tournament.name}, "
                              f"{live.entrants.count()} players, pool(s) {', '.join(pools) or '-'}, "
                              f"{tournament.rounds} rounds.")

