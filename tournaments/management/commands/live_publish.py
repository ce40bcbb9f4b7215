import json
from pathlib import Path

from adlg_site.command_output import write_report_issues
from ratings.calibration import replay_and_calibrate
from ratings.services import ReplayBusy
from tournaments.live.publication import live_publish, live_workbook
from tournaments.management.live_command import LiveCommand, Refused


class Command(LiveCommand):
    help = ("Build the official workbook of a live tournament whose rounds are all complete, import it as "
            "import_results does (same report with --json), then bring ratings up to date.")

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", help="the tournament's ID")
        parser.add_argument("--out", help="also write the workbook to this .xlsx file")
        parser.add_argument("--json", action="store_true", help="print the import's report as one JSON object")

    def run(self, **options):
        live = self.live(options["tournament_id"])
        out = Path(options["out"]) if options["out"] else None
        if out is not None and not out.parent.is_dir():
            raise Refused.say(f"{out}: its folder does not exist.", "unwritable")
        outcome = live_publish(live)
        if out is not None:
            data = bytes(outcome.sheet.content) if outcome.sheet is not None else live_workbook(live)
            try:
                out.write_bytes(data)
            except OSError as exc:
                self.stderr.write(f"{out}: cannot be written ({exc.strerror or exc}).")
        if outcome.ok:
            try:
                replay_and_calibrate(system_code=live.tournament.system_id)
            except ReplayBusy:
                self.stderr.write(f"a replay of {live.tournament.system_id} is already running; it will include "
                                  "this tournament")
        self._report(live, outcome, out, as_json=options["json"])
        if not outcome.ok:
            raise SystemExit(1)

    def _report(self, live, outcome, out, *, as_json: bool) -> None:
        if as_json:
            self.stdout.write(json.dumps(outcome.as_json("en"), ensure_ascii=False))
            return
        report = outcome.report.as_dict()
        if outcome.ok:
            new = ", ".join(f"{tag}→{pid}" for tag, pid in outcome.new_players.items())
            self.stdout.write(f"tournament {live.pk} published and imported"
                              + (f"; new players {new}" if new else "")
                              + (f"; workbook written to {out}" if out else "") + ".")
        else:
            self.stderr.write(f"tournament {live.pk}: the workbook is refused, nothing published")
        write_report_issues(self, report)
