"""What the six `live_*` commands share (PAIRING.md §8): finding the live tournament, reading numbers, and the
one way every refusal ends.

A refusal (the services' LiveRefused, a bad argument, an unreadable file, a number that is not one) prints its
reason on stderr, one line per problem, and exits 1; with `--json` the last line of stdout is also one JSON
object, {"ok": false, "errors": [{"code", "message"}]}. Never a traceback for bad input. A usage error of the
command line (a missing argument) exits 1 too, not argparse's 2: it is a refused input like the others.
"""

from __future__ import annotations

import json
import sys

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand
from django.db import DatabaseError

from adlg_site.inputs import whole_number
from rules import words
from rules.pairing.messages import notice_text
from rules.rulesets import SPARE_ID, SPARE_NAME
from tournaments.live.pools import key_of
from tournaments.live.refusals import LiveRefused
from tournaments.live.selectors import live_find, public_id
from tournaments.models import LiveEntrant, LiveTournament, Tournament

MAX_ID = 2**31 - 1  # IDs are 32-bit in the database: a larger number names no one, and SQLite would overflow


class Refused(words.Refused):
    """One or more (code, message) the command prints before it exits 1 (commands speak English: COMMANDS.md)."""

    def __init__(self, *problems: tuple[str, str]):
        self.problems = list(problems)
        super().__init__((code, {"message": message}) for code, message in self.problems)
        self.args = ("; ".join(message for _, message in self.problems),)

    @staticmethod
    def wording(code: str, params: dict, words=None, names=None) -> str:
        return params["message"]

    @classmethod
    def say(cls, message: str, code: str = "refused") -> Refused:
        return cls((code, message))


class LiveCommand(BaseCommand):
    """A live_* command: `run` does the work and returns; any refusal becomes stderr and exit 1."""

    json_option = False  # the command has --json: a refusal then ends with one JSON line on stdout too

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        if parser.called_from_command_line:
            def error(message, parser=parser):
                parser.print_usage(sys.stderr)
                parser.exit(1, f"{parser.prog}: error: {message}\n")

            parser.error = error
        return parser

    def handle(self, *args, **options):
        self.names = {}
        try:
            self.run(**options)
        except LiveRefused as exc:
            self._refuse(options, [(code, notice_text(code, params, self._name))
                                   for code, params in exc.notices])
        except Refused as exc:
            self._refuse(options, exc.problems)
        except (ValueError, TypeError, ValidationError) as exc:
            self._refuse(options, [("bad_value", f"refused: {_text(exc)}")])
        except DatabaseError as exc:
            self._refuse(options, [("database", f"refused by the database: {exc}")])

    def run(self, **options) -> None:
        raise NotImplementedError

    def _refuse(self, options, problems: list[tuple[str, str]]) -> None:
        for _, message in problems:
            self.stderr.write(message)
        if options.get("json"):
            self.stdout.write(json.dumps({"ok": False, "errors": [{"code": c, "message": m} for c, m in problems]},
                                         ensure_ascii=False))
        raise SystemExit(1)

    # --- the tournament and its players

    def live(self, value: str) -> LiveTournament:
        """The live tournament of the TOURNAMENT_ID argument, or a refusal saying why there is none."""
        number = whole(value, "TOURNAMENT_ID", minimum=1, maximum=MAX_ID)
        live = live_find(number)
        if live is None:
            if Tournament.objects.filter(pk=number).exists():
                raise Refused.say(f"tournament {number} is not run live (start it with live_start).", "not_live")
            raise Refused.say(f"no tournament with ID {number}.", "no_tournament")
        self.names = {key_of(e): e for e in live.entrants.all()}
        return live

    def _name(self, key) -> str:
        """A player as the messages name them: `Last First (ID)`."""
        if key == SPARE_ID:
            return f"{SPARE_NAME} ({SPARE_ID})"
        entrant = self.names.get(key) if isinstance(key, int) else None
        return f"{entrant} ({public_id(entrant)})" if entrant is not None else str(key)

    def entrant(self, live: LiveTournament, value: str) -> LiveEntrant:
        """A player of the tournament by federation ID, or by tag N<n> for a player new to the federation."""
        text = str(value).strip()
        tag = whole_number(text[1:], minimum=1) if text[:1].upper() == "N" else None
        if tag is not None:
            found = live.entrants.filter(pk=tag, player__isnull=True).first()
        else:
            found = live.entrants.filter(player_id=whole(text, "PLAYER_ID", minimum=1, maximum=MAX_ID)).first()
        if found is None:
            raise Refused.say(f"player {text} does not play in tournament {live.pk}.", "not_in_tournament")
        return found


def whole(value, what: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """A whole number from the command line or a file, or a refusal that names the argument."""
    text = str(value).strip()
    try:
        number = int(text)
    except ValueError:
        raise Refused.say(f"{what} must be a whole number, not {text!r}.", "bad_number") from None
    if minimum is not None and number < minimum or maximum is not None and number > maximum:
        bounds = f"from {minimum}" if maximum is None else f"from {minimum} to {maximum}"
        raise Refused.say(f"{what} must be a whole number {bounds}, not {number}.", "bad_number")
    return number


def _text(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(exc.messages)
    return str(exc)
