"""The stored games that break a rule of the result sheet (rules.sheet.checks.game_faults), named so the board can
find them: what a replay that fails on the facts reports (ratings.tasks).

The admin and the database's constraints refuse such games now; one may still come from before them, or from a
change made outside the admin (a shell, a script).
"""

from __future__ import annotations

from rules.sheet import messages
from rules.sheet.checks import game_faults
from tournaments.models import Game


def faulty_games(*, system_code: str, limit: int = 5) -> list[str]:
    """Up to `limit` sentences, one per faulty game of the system: which game, of which tournament, and why."""
    found: list[str] = []
    rows = (
        Game.objects.filter(tournament__system_id=system_code)
        .order_by("tournament__end_date", "tournament_id", "round", "table")
        .values_list("pk", "tournament_id", "tournament__name", "tournament__rounds", "round", "table",
                     "player_a_id", "player_b_id", "result", "a_losses", "b_losses", "free")
    )
    for pk, tid, name, rounds, round_number, table, a, b, result, a_losses, b_losses, free in rows.iterator(2000):
        faults = game_faults(system=system_code, a=a, b=b, result=result, a_losses=a_losses, b_losses=b_losses,
                             round_number=round_number, rounds=rounds, free=free)
        if faults:
            problem = " ".join(messages.render(code=f.code, params=f.params) for f in faults)
            found.append(f"game {pk} of tournament {tid} ({name}), round {round_number}, table {table}, "
                         f"{a} against {b}: {problem}")
            if len(found) >= limit:
                break
    return found
