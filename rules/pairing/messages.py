"""The words of pairing's notices (rules.pairing.model.Notice codes) and of the live tournament's refusals, marked
for the translation catalogue (rules.words). `names` turns the IDs a notice carries into the names the referee knows.
A code of the result sheet's checks (rules.sheet.messages), which the day applies to what is typed, is worded as the
sheet words it: directly, or as a `fault`/`publish_issue` notice carrying the sheet's code and params."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules.sheet.messages import MESSAGES as SHEET_MESSAGES
from rules.sheet.messages import render as sheet_text
from rules.words import ENGLISH, Words, gettext_noop

MESSAGES: dict[str, str] = {
    # pairing refusals
    "no_pairing_without_rematch": gettext_noop(
        "Round {round} cannot be paired without a rematch. Pair it by hand: two players never meet twice (the result "
        "sheet refuses it), a second game against the spare needs a reason."
    ),
    "elo_levels_required": gettext_noop(
        "{players} players for {ideal} ideal: the charter requires pairing round 1 by Elo levels."
    ),
    "method_not_allowed": gettext_noop("The method {method} is not allowed here; allowed: {allowed}."),
    "method_not_for_round": gettext_noop("A round-1 method ({method}) cannot be chosen for round {round}."),
    "hat_missing": gettext_noop("Put every player in hat 1 or hat 2 first; without a hat: {players}."),
    "group_missing": gettext_noop("Players without a group: {players}."),
    "player_twice": gettext_noop("{player} is paired twice."),
    "player_unknown": gettext_noop("{player} is not a player of this tournament."),
    "player_withdrawn": gettext_noop("{player} has withdrawn."),
    "player_other_pool": gettext_noop("{player} plays in another pool."),
    "player_unpaired": gettext_noop("{player} is not paired."),
    "player_against_self": gettext_noop("{player} cannot play against themself."),
    "spare_not_needed": gettext_noop("The number of players is even: no spare this round."),
    "free_game_not_allowed": gettext_noop(
        "{player} may not play a free game: only players of the lower half who can no longer reach the top 4."
    ),
    # pairing warnings: each says why the rule was bent
    "club_mates": gettext_noop("{a} and {b} are club-mates: the draw could not keep more clubs apart."),
    "club_mates_swiss": gettext_noop(
        "{a} and {b} are club-mates: when {a} was paired, every other player still free had already met {a} or would "
        "have forced a rematch among the others."
    ),
    "club_mates_by_hand": gettext_noop(
        "{a} and {b} are club-mates, paired together by the referee in a round where clubs are kept apart."
    ),
    "rematch": gettext_noop("{a} and {b} have already met: paired again by the referee."),
    "spare_not_lowest": gettext_noop(
        "The spare plays {player}, not {lowest}: pairing the spare with {lowest}, the lowest player who has not met "
        "it, would force a rematch among the others."
    ),
    "groups_cross_pair": gettext_noop(
        "{a} and {b} play across the two groups: both groups have an odd number of players and there is no spare."
    ),
    # round 1's notes: the system from round 2 on (rules.pairing.system_note)
    "system_default": gettext_noop(
        "From round 2: {system}, the default when the number of players ({players}) is exactly the ideal number."
    ),
    "system_chosen": gettext_noop(
        "From round 2: {system}, the referee's choice ({players} players, exactly the ideal number)."
    ),
    "system_charter": gettext_noop(
        "From round 2: {system}, as the charter requires with {players} players for an ideal number of {ideal}."
    ),
    "swiss_choice_not_applied": gettext_noop(
        "From round 2: {system}, as the charter requires with {players} players for an ideal number of {ideal}; the "
        "choice of {swiss} made at the start applies only with exactly {ideal} players."
    ),
    # the live tournament's own refusals
    "published": gettext_noop("The tournament is published: a correction is a new sheet."),
    "handed_over": gettext_noop(
        "The day is finished in the spreadsheet: upload the sheet, or take the day back on the site."
    ),
    "sheet_imported_after_hand_over": gettext_noop(
        "A sheet of this tournament is imported: its results come from the sheet now (a correction is a new sheet)."
    ),
    "all_rounds_paired": gettext_noop("All {rounds} rounds of pool {pool} are paired."),
    "round_incomplete": gettext_noop("Round {round} of pool {pool} still has tables without a result."),
    "round_not_published": gettext_noop("Round {round} of pool {pool} is not published yet."),
    "round_published": gettext_noop("Round {round} is published: its pairs can no longer change."),
    "too_few_players": gettext_noop("Pool {pool} needs at least two players."),
    "no_such_table": gettext_noop("Round {round} has no table {table}."),
    "no_such_pool": gettext_noop("There is no pool {pool}."),
    "reason_required": gettext_noop("A rule is bent: {warnings} Give the reason, which the tournament's page shows."),
    "result_changed_reason": gettext_noop(
        "Round {round} is followed by a paired round: give the reason for changing this result."
    ),
    "free_against_spare": gettext_noop("A game against the spare cannot be a free game."),
    "withdraw_round": gettext_noop(
        "Round {round} is already published for this player: withdraw from round {next} on."
    ),
    "round_out_of_range": gettext_noop("Round {round} is not one of rounds 1 to {rounds}."),
    "already_playing": gettext_noop("{player} already plays in this tournament."),
    "unknown_player": gettext_noop("No player has the ID {id}."),
    "excluded_player": gettext_noop("{player} is excluded and cannot play."),
    "name_required": gettext_noop("A new player needs a last name."),
    "not_complete": gettext_noop(
        "Pool {pool} has played {played} of {rounds} rounds: publish when every round is complete."
    ),
    "self_entry_closed": gettext_noop("The referee enters the results of this tournament."),
    "not_your_table": gettext_noop("You do not play at this table."),
    "result_already_in": gettext_noop("This table's result is already in; ask the referee to change it."),
    "hat_invalid": gettext_noop("A hat is 1 or 2."),
    "paste_empty": gettext_noop("Paste the players' IDs or names, one a line, then check them."),
    "pool_not_the_tournaments": gettext_noop("Pool “{pool}” is not one of the tournament's: {pools}."),
    "not_started": gettext_noop("The tournament has not started: pair round 1 first."),
    "method_round_one_only": gettext_noop("The round-1 method is chosen for round 1 only."),
    # rounds: changes, undo (PAIRING.md §5)
    "round_gone": gettext_noop("This round is no longer proposed (drawn again or withdrawn): nothing was published."),
    "round_already_published": gettext_noop(
        "Round {round} of pool {pool} is already published: nothing more was done."
    ),
    "changes_would_be_lost": gettext_noop(
        "Pairing again discards the changes made to this proposal (swaps and chosen tables: {count}). Confirm that "
        "they are discarded to pair again."
    ),
    "no_round_to_withdraw": gettext_noop("Pool {pool} has no round to withdraw."),
    "withdraw_reason_required": gettext_noop(
        "Give the reason for withdrawing round {round}: the tournament's public page shows it."
    ),
    "round_has_results": gettext_noop(
        "Round {round} of pool {pool} has results entered ({count}): confirm that they are discarded to withdraw it."
    ),
    "rematch_unpublishable": gettext_noop(
        "{a} and {b} have already met: two players never meet twice (charter App. 2 §2.a.i), and the result sheet "
        "the tournament is published as refuses it. Pair them otherwise."
    ),
    "publish_met_twice": gettext_noop("{a} and {b} meet twice: the result sheet refuses it (charter App. 2 §2.a.i)."),
    "not_in_round": gettext_noop("{player} does not play in this round."),
    "same_table": gettext_noop("{a} and {b} already play each other."),
    "table_published": gettext_noop("Table {table} is in a published round: its number can no longer change."),
    "same_table_number": gettext_noop("This pair already plays at table {table}."),
    # results
    "result_conflict": gettext_noop(
        "Table {table} already has a result, entered by {by} at {at}: {result}. Nothing was changed: send yours "
        "again to replace it."
    ),
    "result_conflict_players": gettext_noop(
        "Table {table} already has a result, entered by its two players at {at}: {result}. Nothing was changed: send "
        "yours again to replace it."
    ),
    "no_result_to_remove": gettext_noop("Table {table} has no result to remove."),
    "result_remove_conflict": gettext_noop(
        "Table {table}'s result changed since your page showed it: {result}. Nothing was removed: check it, then "
        "remove it again if it is wrong."
    ),
    "result_remove_later_paired": gettext_noop(
        "Round {round} is followed by a paired round, paired with this result: enter table {table}'s right result "
        "instead, with the reason for the change."
    ),
    "winner_lost_more": gettext_noop(
        "Table {table}: {winner} wins with more losses ({winner_losses}%) than {loser} ({loser_losses}%). Check the "
        "losses; confirm to record the result as it is."
    ),
    "spare_table_referee": gettext_noop(
        "A game against the spare is entered by the referee: no opponent can confirm it."
    ),
    # the preview of the publication (tournaments.live.publication.live_preview), players named
    "publish_same_club": gettext_noop(
        "{a} and {b}, both of {club}, play each other in round {round}: the charter asks to avoid this in the first "
        "round (the first two from 4 rounds up)."
    ),
    "publish_new_matches_known": gettext_noop(
        "{player}, new to the federation, has the same name and club as {known} (ID {id}): if it is the same person, "
        "add {known} instead before publishing, or {player} gets a new federation ID."
    ),
    "publish_name_differs": gettext_noop(
        "{sheet_name} of the day's list is {site_name} (ID {id}) in the federation: the federation's name stands."
    ),
    "publish_without_game": gettext_noop("{player} has no game: the publication does not list them."),
    # the day's players (PAIRING.md §6); French with a non-breaking space before : ; ? !
    "first_name_required": gettext_noop("A new player needs a first name."),
    "club_unknown": gettext_noop(
        "No club of the federation is named “{club}”: choose one from the list, or confirm that it is a new club."
    ),
    "remove_has_game": gettext_noop("{player} has played in this tournament and cannot be removed: withdraw instead."),
    "round_one_published": gettext_noop(
        "Round 1 of pool {pool} is published: {player} can no longer change pool or hat."
    ),
    "absent_after_round_one": gettext_noop(
        "Round 1 of pool {pool} is published: withdraw {player}, or remove them if they have no game."
    ),
    "not_new_player": gettext_noop(
        "{player} is a player of the federation: their names and club are the federation's."
    ),
    "entrant_gone": gettext_noop("This player is no longer in the tournament."),
    # starting and cancelling a live run (PAIRING.md §7)
    "results_on_site": gettext_noop(
        "The results of {name} are on the site: a rated tournament is corrected by a new result sheet, not run live."
    ),
    "already_live": gettext_noop("{name} is already run live."),
    "dates_exclude_today": gettext_noop(
        "Today ({today}) is not within {start} – {end}: give the tournament's real dates, today included."
    ),
    "start_in_future": gettext_noop(
        "The start date {start} is after today ({today}): a tournament is run live from its first day."
    ),
    "end_before_start": gettext_noop("The end date {end} is before the start date {start}."),
    "dates_too_far_apart": gettext_noop(
        "The end date {end} is more than {days} days after the start date {start}: check the year."
    ),
    "rounds_invalid": gettext_noop("A tournament has 1 to 12 rounds, not {rounds}."),
    "cannot_cancel": gettext_noop(
        "Round {round} of pool {pool} is published: the live run can no longer be cancelled."
    ),
}


# The systems from round 2 on, as notes and refusals name them (rules.pairing.model.SYSTEMS).
SYSTEM_WORDS = {
    "classic": gettext_noop("classic Swiss"),
    "adapted": gettext_noop("adapted Swiss"),
    "groups": gettext_noop("two groups"),
}
PLAYER_KEYS = ("player", "a", "b", "lowest", "winner", "loser")
# A sheet check's fault met on the tournament day: {"code", "params"} of rules.sheet.messages (or, from the
# live_start command's JSON checks, a "message" already worded).
SHEET_FAULTS = ("fault", "publish_issue")


def notice_text(code: str, params: Mapping[str, object], names: Callable[[object], str] | None = None,
                words: Words = ENGLISH) -> str:
    """The sentence for a notice. Player IDs in `player`, `a`, `b`, `lowest`, `winner`, `loser` and `players` go
    through `names`; `warnings` (a list of {"code", "params"}) is worded in turn, one sentence after another;
    `system` and `swiss` are named in the reader's words."""
    if code in SHEET_FAULTS:
        if "message" in params:  # already worded: the live_start command checking its JSON (commands speak English)
            return str(params["message"])
        return sheet_text(code=str(params.get("code", "")), params=params.get("params") or {}, words=words)
    values = dict(params)
    if names is not None:
        for key in PLAYER_KEYS:
            if key in values:
                values[key] = names(values[key])
        if isinstance(values.get("players"), (list, tuple)):
            values["players"] = ", ".join(names(p) for p in values["players"])
    if isinstance(values.get("warnings"), (list, tuple)):
        values["warnings"] = " ".join(
            notice_text(w.get("code", ""), w.get("params", {}), names, words) if isinstance(w, Mapping) else str(w)
            for w in values["warnings"])
    for key in ("system", "swiss"):
        if key in values and str(values[key]) in SYSTEM_WORDS:
            values[key] = words.gettext(SYSTEM_WORDS[str(values[key])])
    for key, value in values.items():
        if isinstance(value, (list, tuple)):
            values[key] = ", ".join(map(str, value))
    template = MESSAGES.get(code)
    if template is None:
        # A fact the sheet check refuses (a country, a name too long...): the sheet's own words.
        return sheet_text(code=code, params=values, words=words) if code in SHEET_MESSAGES else code
    try:
        return words.gettext(template).format(**values)
    except (KeyError, IndexError):
        return code
