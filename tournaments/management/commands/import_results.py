import json
from pathlib import Path

from django.core.management.base import BaseCommand

from adlg_site.command_output import write_report_issues
from adlg_site.words import languages, words_in
from ratings.calibration import replay_and_calibrate
from ratings.services import ReplayBusy
from rules.exchange.upload import KINDS
from rules.sheet.report import Issue, Report
from tournaments.sheets.services import SheetOutcome, sheet_import_bytes


class Command(BaseCommand):
    help = ("Validate and import result sheets (or tournaments in the exchange format) in the order given, each all "
            "or nothing, then bring ratings, "
            "standings and championship up to date (with --async, queue that work and return).")

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+",
                            help=".xlsx result sheets, or .json tournaments in the exchange format (docs/exchange.md)")
        parser.add_argument("--format", dest="file_format", choices=KINDS, default=None,
                            help="read every file as this format (default: by its extension, else by its content)")
        parser.add_argument("--json", action="store_true", help="one JSON report per file, one per line")
        parser.add_argument("--async", dest="run_async", action="store_true",
                            help="queue the replay for the worker and return")
        parser.add_argument("--lang", default=languages()[0], choices=languages(), help="language of the messages")

    def handle(self, *args, **options):
        lang = options["lang"]
        any_failed = False
        systems = set()
        for name in options["files"]:
            path = Path(name)
            outcome = self._import_one(path, kind=options["file_format"])
            if outcome.ok and outcome.tournament_id is not None:
                systems.add(outcome.sheet.tournament.system_id if outcome.sheet and outcome.sheet.tournament
                            else "adlg")
            any_failed |= not outcome.ok
            self._report(path, outcome, lang=lang, as_json=options["json"])
        if systems and not options["run_async"]:
            for code in sorted(systems):
                try:
                    replay_and_calibrate(system_code=code)
                except ReplayBusy:
                    self.stderr.write(f"a replay of {code} is already running; it will include these sheets")
        if any_failed:
            raise SystemExit(1)

    def _import_one(self, path: Path, *, kind: str | None) -> SheetOutcome:
        try:
            data = path.read_bytes()
        except OSError as exc:
            # A path that cannot be read is reported like an unreadable file, in the same format.
            self.stderr.write(f"{path}: {exc.strerror or exc}")
            return SheetOutcome(sheet=None, report=Report(errors=[Issue(code="unreadable", sheet="", cell="")]))
        return sheet_import_bytes(data=data, file_name=path.name, refuse_if_live=True, kind=kind)

    def _report(self, path: Path, outcome: SheetOutcome, *, lang: str, as_json: bool) -> None:
        if as_json:
            self.stdout.write(json.dumps(outcome.as_json(lang), ensure_ascii=False))
            return
        report = outcome.report.as_dict(words_in(lang))
        if outcome.ok:
            state = "unchanged (already imported)" if outcome.unchanged else "imported"
            new = ", ".join(f"{tag}→{pid}" for tag, pid in outcome.new_players.items())
            self.stdout.write(f"{path}: {state} as tournament {outcome.tournament_id}"
                              + (f"; new players {new}" if new else ""))
        else:
            self.stderr.write(f"{path}: refused, nothing imported")
        write_report_issues(self, report)
