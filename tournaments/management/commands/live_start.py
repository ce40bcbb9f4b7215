import json
from pathlib import Path

from tournaments.live.start import live_start_from_json
from tournaments.management.live_command import LiveCommand, Refused


class Command(LiveCommand):
    help = ("Create a tournament run live from a JSON description (PAIRING.md §8: name, system, start_date, "
            "end_date, rounds, city, country, referee, players [{id, pool?, hat?}], ...), as the technical board "
            "would; prints its ID.")

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
        if not isinstance(data.get("players"), list):
            raise Refused.say(f"{path}: players must be a list of {{\"id\", \"pool\"?, \"hat\"?}}.", "bad_json")
        if not all(isinstance(p, dict) for p in data["players"]):
            raise Refused.say(f"{path}: each player must be an object {{\"id\", \"pool\"?, \"hat\"?}}.", "bad_json")
        if data.get("army_points") is not None:
            data["army_points"] = _points(data["army_points"])
        live = live_start_from_json(data)
        tournament = live.tournament
        if options["json"]:
            self.stdout.write(json.dumps({"tournament_id": tournament.pk}))
        else:
            pools = sorted(set(live.entrants.values_list("pool", flat=True)))
            self.stdout.write(f"tournament {tournament.pk} created and run live: {tournament.name}, "
                              f"{live.entrants.count()} players, pool(s) {', '.join(pools) or '-'}, "
                              f"{tournament.rounds} rounds.")


def _points(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise Refused.say(f"army_points must be a whole number, not {value!r}.", "bad_number")
    try:
        number = int(value)
    except ValueError:
        raise Refused.say(f"army_points must be a whole number, not {value!r}.", "bad_number") from None
    if not 0 < number < 32768:
        raise Refused.say(f"army_points must be a positive whole number, not {value!r}.", "bad_number")
    return number
