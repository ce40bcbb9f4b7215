"""The tournament day: a tournament run live on the site (PAIRING.md): players, rounds paired by rules.pairing,
results table by table, withdrawals and late arrivals, then publication through the same checks and import as
an uploaded sheet.

Terms
-----
live tournament
    A calendar tournament the referee runs on the site (models.LiveTournament). Nothing of it is rated before
    publication: its rounds and results live in LiveRound and LiveTable until it is published as the official
    workbook, imported as an upload (tournaments.sheets.services.sheet_import_bytes).
proposed, published round
    A round is proposed (the referee may draw again, swap players, give a pair a chosen table), then published to
    the players; results are entered in published rounds only; the next round is paired once every table of the
    last one has a result. The latest round of a pool may be withdrawn, published or not; every draw discarded is
    kept (LiveDiscardedDraw) and listed publicly.

Modules
-------
refusals       LiveRefused: what the referee can fix, as codes and parameters
pools          a pool as the rules read it (keys, published rounds, standings), locking, table numbers
start          starting a calendar tournament live (on its dates; the pages and `live_start`), cancelling a start,
               the referee's settings
entrants       the day's players: adding to a pool and a hat, moving, removing, checking in, late players,
               withdrawals, a new player's names corrected
rounds         proposing, pairing by hand, changing (swaps, chosen tables), withdrawing and publishing rounds
draws          checking a draw: a round re-run from its seed and the pool as it stood
results        the referee's results and the players' own entries
publication    the official workbook of the day (or of the games so far), its preview, imported as an upload
selectors      what the pages, the read API and the commands read
clock          the round clock (rules.clock): started, paused, resumed, extended; what a page shows of it
screen         what the hall's big screen shows: the players by name, the standings
forms, page_tools, referee_views, entrant_views, result_views, publish_views, public_views, draw_views,
screen_views, api, urls: the pages and the API

Every service raises LiveRefused for what the referee can fix, and changes nothing then.
"""
