"""Pairing a tournament's rounds by the charter's Appendix 2, as PAIRING.md decides it: plain values in and out.

The live-tournament service reads a pool from the database (players still in, standings, games played),
builds a `Pool`, calls `pair_round` (or `pair_manually` for the referee's own pairs) and saves the `Pairing`
it returns: the pairs in table order, the system or method used, the seed of any draw, and warnings. What a
referee can fix, or a pool that the rules cannot pair, comes back as `PairingRefused`; its notices are codes
with parameters that the caller words in French or English.

Terms
-----
pool
    Pairing is always within one pool (RESULT_SHEET.md `Pool`); everything here is per pool.
P
    The players of the pool still in the tournament (not withdrawn), the spare not counted.
R, r, R'
    The tournament's rounds; the round being paired; the rounds still to play, this one included:
    R' = R - r + 1.
N
    The ideal number 2^R (App. 1 §4). It decides the round-1 methods allowed (`elo-levels` only when P > N)
    and the system from round 2 on (`choose_system`: classic when P > N, adapted when N/2 < P < N, either
    when P = N, two groups when P <= N/2).
standing
    The order of the pool before the round, best first: RULES.md §6 standings after the rounds played
    (computed by the caller with the scoring rules), or before round 1 `initial_standing` (pre-tournament
    rating, highest first, then lower ID). "Place" is a 1-based position in it.
met
    Two players met when a game between them (free games and forfeits included) is in an earlier round of
    this tournament. Never a rematch: a pairing without one, or none at all.
spare
    ID 99 (`rules.rulesets.SPARE_ID`), added to the pool for a round when P is odd; it plays the lowest player
    of the standing who has not met it, paired first (round 1 `draw` and `hats`: the last player left by the
    draw, for `hats` the last name of the larger hat).
club round
    Round 1 when R <= 3; rounds 1 and 2 when R >= 4. Club-mates are then kept apart: in a round-1 draw
    wherever the pool can be paired that way, from round 2 by moving them behind in each candidate list.
    An independent player (club None) has no club-mate.
table A, table B
    Adapted Swiss: table A is the first 2^R' players of the standing (all of them when there are no more),
    its first half meeting its second half in order; table B is the rest, neighbours meeting.
groups A, B
    The two-groups system: players dealt before round 1 in standing order A, B, B, A, A, B, B, A, …
    (`deal_groups`); paired inside their group until round R - 2, joined in rounds R - 1 and R.
seed
    Every random draw is made by `random.Random(seed)`; the caller records the seed on the round and shows it,
    so anyone can check that the same seed on the same players gives the same pairing.

Public interface
----------------
Entrant, Pool                   the inputs: a player still in; one pool before one round
Pair, Pairing, Notice           the outputs: one game and its table; a round's pairing; a coded warning
PairingRefused                  nothing paired: the notices say why (the referee's input, or no pairing exists)
pair_round                      pairs a round by the tournament's system, or round 1 by a method
pair_manually                   checks the referee's pairs (refusals and warnings) and numbers their tables
change_warnings                 the rules a change of the referee's bends in the pairs it makes (rematch, club-mates)
choose_system                   classic / adapted / groups from P at the start and R (and the referee's choice,
                                a choice only when P = N); system_note says which applies and why (round 1's notes)
round_one_methods               the round-1 methods the charter allows for P and R
initial_standing, deal_groups   the standing before round 1; the two groups dealt from it
club_round, ideal_number        whether a round keeps club-mates apart; N = 2^R
new_seed                        a fresh seed for a draw
tables                          §2.5's table order and numbering of any list of pairs
free_game_players               who may play a free game in the last round; free_game_problems checks one
"""

from rules.pairing.manual import change_warnings, free_game_players, free_game_problems, pair_manually
from rules.pairing.model import (
    ADAPTED,
    CLASSIC,
    DRAW,
    ELO_LEVELS,
    GROUPS,
    HATS,
    MANUAL,
    ROUND_ONE_METHODS,
    SYSTEMS,
    Entrant,
    Notice,
    Pair,
    Pairing,
    PairingRefused,
    Pool,
    choose_system,
    club_round,
    deal_groups,
    ideal_number,
    initial_standing,
    new_seed,
    round_one_methods,
    system_note,
)
from rules.pairing.rounds import pair_round, tables

__all__ = [
    "ADAPTED", "CLASSIC", "DRAW", "ELO_LEVELS", "GROUPS", "HATS", "MANUAL", "ROUND_ONE_METHODS", "SYSTEMS",
    "Entrant", "Notice", "Pair", "Pairing", "PairingRefused", "Pool",
    "change_warnings", "choose_system", "club_round", "deal_groups", "free_game_players", "free_game_problems",
    "ideal_number", "initial_standing", "new_seed", "pair_manually", "pair_round", "round_one_methods",
    "system_note", "tables",
]  # fmt: skip
