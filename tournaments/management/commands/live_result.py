import csv
import io
from pathlib import Path

from rules.sheet.values import parse_boolean
from tournaments.live.refusals import LiveRefused
from tournaments.live.results import Result, results_record
from tournaments.management.live_command import LiveCommand, Refused, whole

COLUMNS = ("table", "result", "a_losses", "b_losses", "free")


class Command(LiveCommand):
    help = ("Record one table's result: TOURNAMENT_ID ROUND TABLE RESULT [A_LOSSES B_LOSSES] [--free]; or several "
            "from a CSV (table,result,a_losses,b_losses,free) with --file, all or nothing.")

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", help="the tournament's ID")
        parser.add_argument("round", help="the round")
        parser.add_argument("game", nargs="*", metavar="TABLE RESULT [A_LOSSES B_LOSSES]",
                            help="the table, its result code (RESULT_SHEET.md) and the losses %% of A and B")
        parser.add_argument("--free", action="store_true", help="a free game (last round only)")
        parser.add_argument("--file", help="a CSV of results, header table,result,a_losses,b_losses,free")
        parser.add_argument("--reason", default="",
                            help="why a result changes after the next round was paired (required then)")

    def run(self, **options):
        live = self.live(options["tournament_id"])
        number = whole(options["round"], "ROUND", minimum=1)
        game = options["game"]
        if options["file"]:
            if game or options["free"]:
                raise Refused.say("give either --file or TABLE RESULT [A_LOSSES B_LOSSES] [--free], not both.",
                                  "usage")
            results = read_results(Path(options["file"]))
        else:
            if len(game) not in (2, 4):
                raise Refused.say("give TABLE RESULT [A_LOSSES B_LOSSES] (both losses or neither), or --file.",
                                  "usage")
            table, code, *losses = game
            a_losses, b_losses = losses or ("", "")
            results = [result_of(table, code, a_losses, b_losses, free=options["free"])]
        try:
            recorded = results_record(live, number, results, reason=options["reason"])
        except LiveRefused as exc:
            # Every table's problems were found in one pass, each naming its table (a refused file of 2,000
            # rows, tried row by row in a transaction each, took 22 s).
            raise Refused(*[(code, f"table {params['table']}: {message}" if "table" in params else message)
                            for (code, params), message in zip(exc.notices, exc.messages("en", self._name),
                                                               strict=True)]) from None
        self.stdout.write(f"round {number} of tournament {live.pk}: "
                          + (", ".join(f"table {t.table} {t.result}" for t in recorded) or "nothing new")
                          + " recorded.")


def result_of(table, result, a_losses, b_losses, *, free=False, where: str = "") -> Result:
    code = str(result or "").strip().upper()
    if not code:
        raise Refused.say(f"{where}the result is empty.", "bad_value")
    name = str.lower if where else str  # a file's column, or the command line's argument
    # A script's results are taken as they are: no revision to compare, a win with more losses confirmed.
    return Result(table=whole(table, f"{where}{name('TABLE')}", minimum=1), result=code,
                  a_losses=_losses(a_losses, f"{where}{name('A_LOSSES')}"),
                  b_losses=_losses(b_losses, f"{where}{name('B_LOSSES')}"), free=free, confirmed=True)


def _losses(value, what: str) -> int | None:
    if value is None or not str(value).strip():
        return None
    return whole(value, what, minimum=0, maximum=100)


def read_results(path: Path) -> list[Result]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise Refused.say(f"{path}: no such file.", "unreadable") from None
    except UnicodeDecodeError:
        raise Refused.say(f"{path}: not UTF-8 text; save the CSV as UTF-8.", "unreadable") from None
    except OSError as exc:
        raise Refused.say(f"{path}: cannot be read ({exc.strerror or exc}).", "unreadable") from None
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as exc:
        raise Refused.say(f"{path}: not a readable CSV ({exc}).", "unreadable") from None
    if not rows:
        raise Refused.say(f"{path}: empty; the header is {','.join(COLUMNS)}.", "bad_csv")
    header = [h.strip().casefold() for h in rows[0]]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise Refused.say(f"{path}: missing column(s) {', '.join(missing)}; the header is {','.join(COLUMNS)}.",
                          "bad_csv")
    at = {c: header.index(c) for c in COLUMNS}
    results, problems, tables = [], [], set()
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = {c: row[i] if i < len(row) else "" for c, i in at.items()}
        try:
            free = parse_boolean(cells["free"]) if cells["free"].strip() else False
        except ValueError:
            problems.append(("bad_value", f"{path} line {line}: free must be yes or no, not {cells['free']!r}."))
            continue
        try:
            result = result_of(cells["table"], cells["result"], cells["a_losses"], cells["b_losses"], free=free,
                               where=f"{path} line {line}: ")
        except Refused as exc:
            problems += exc.problems
            continue
        if result.table in tables:
            problems.append(("bad_value", f"{path} line {line}: table {result.table} is given twice."))
        tables.add(result.table)
        results.append(result)
    if problems:
        raise Refused(*problems)
    if not results:
        raise Refused.say(f"{path}: no result in it.", "bad_csv")
    return results
