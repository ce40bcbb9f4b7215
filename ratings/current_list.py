"""The rating list a replay leaves: the current ratings (PlayerRating) and the players per rating (RatingCount).

Three steps, as for the championship, so that the replay's own thread works out the list while the
write-behind thread writes (ratings.write_behind): `list_read` reads what is stored before any write,
`list_changes` works out what differs, and the data of a bulk write (pure), `list_write` writes only that.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from django.db import connection
from django.db.models import Q

from players.models import SPARE_ID, Player
from ratings.copy_binary import BinaryCopy, Column, column_of
from ratings.engine import History, PlayerState
from ratings.facts import Facts
from ratings.history_writer import (
    binary_types,
    bulk_rows,
    indexes_suspended,
    rows_insert,
    rows_update,
    trigger_disabled,
)
from ratings.models import PlayerRating, RatingCount
from ratings.ranks import rank_for

# More new current ratings than this in one replay: their indexes are rebuilt rather than maintained.
BULK_RATINGS = 20000
_NO_PLACE = (None, None)  # country and club of a player the list does not know (never: ratings follow players)
_COLUMNS = ("system_id", "player_id", "rating", "games", "rank_code", "last_played")
_BULK_COLUMNS = (*_COLUMNS, "country_id", "club_id")


@dataclass(frozen=True)
class StoredList:
    ratings: dict[int, tuple]  # player -> (rating, games, last rated game): PlayerStates or plain tuples
    counts: dict[int, int]  # rating -> players
    # player -> (country, club), read when the list is empty (a first replay writes it in bulk), else None
    places: dict[int, tuple] | None = None
    # False: `ratings` holds only the rows a replay at the head of history can change (ratings.services.
    # head_players: who plays, who is excluded, who has an opening balance, who has no rated game); every other
    # row stays as it is, and the counts change by the difference of the rows held.
    whole: bool = True


@dataclass(frozen=True)
class ListChanges:
    stale: list[int]  # players no longer listed
    changed: list[tuple]  # (player, rating, games, rank, last rated game) of listed players whose row changes
    added: list[tuple]  # the same, of players not listed before
    counts_gone: list[int]  # ratings nobody has any more
    counts_changed: list[tuple]  # (rating, players)
    counts_added: list[tuple]  # (rating, players)


def list_read(system, *, current: dict[int, PlayerState] | None = None, whole: bool = True) -> StoredList:
    """What is stored; `current`: the current ratings when the replay has read them already (all of them, or
    with `whole` False only those a replay at the head of history can change), so the list is not read twice."""
    if current is None:
        current, whole = current_states(system), True
    ratings = dict(current)  # the states as they are: a PlayerState is the tuple (rating, games, last game)
    counts = dict(RatingCount.objects.filter(system=system).order_by().values_list("rating", "players"))
    return StoredList(ratings, counts, None if ratings or not whole else _places(), whole)


def current_states(system, players: Collection[int] | None = None) -> dict[int, PlayerState]:
    """The stored current ratings as states: every player's, or those of `players` and of any listed player
    without a rated game (listed for an opening balance alone: ratings.services.head_players)."""
    rows = PlayerRating.objects.filter(system=system).order_by()
    if players is not None:
        rows = rows.filter(Q(player_id__in=players) | Q(games=0))
    return {player: PlayerState(rating, games, last) for player, rating, games, last in bulk_rows(rows.values_list(
        "player_id", "rating", "games", "last_played"))}


def _places() -> dict[int, tuple]:
    return {player: (country, club) for player, country, club in
            bulk_rows(Player.objects.order_by().values_list("id", "country_id", "club_id"))}


def list_changes(*, ruleset, history: History, start_state: dict[int, PlayerState], facts: Facts,
                 stored: StoredList) -> ListChanges:
    """What makes the stored list the final states of the replay. Pure."""
    final = dict(start_state)
    final.update(history.final)
    final.pop(SPARE_ID, None)
    for player in facts.excluded:
        final.pop(player, None)
    for opening in facts.openings:
        if opening.player not in final and opening.player not in facts.excluded:
            final[opening.player] = PlayerState(opening.rating, opening.games, None)
    opened = {opening.player for opening in facts.openings}
    listed = {player: state for player, state in final.items() if state.games > 0 or player in opened}
    changed, added = [], []
    for player, s in listed.items():
        before = stored.ratings.get(player)
        if before == s:  # a PlayerState is the tuple (rating, games, last rated game)
            continue
        row = (player, s.rating, s.games, rank_for(ruleset, s.rating, s.games).code, s.last_played)
        (changed if before is not None else added).append(row)
    counts = Counter(s.rating for s in listed.values())
    was = stored.counts
    if not stored.whole:  # the rows not held stay listed as they are: they keep their share of the counts
        counts.update(was)
        counts.subtract(rating for rating, _, _ in stored.ratings.values())
        counts = +counts
    return ListChanges(
        stale=[player for player in stored.ratings if player not in listed],
        changed=changed,
        added=added,
        counts_gone=[rating for rating in was if rating not in counts],
        counts_changed=[(rating, n) for rating, n in counts.items() if rating in was and was[rating] != n],
        counts_added=[(rating, n) for rating, n in counts.items() if rating not in was],
    )


def list_bulk(*, code: str, changes: ListChanges, stored: StoredList) -> BinaryCopy | None:
    """The new rows of `changes` as binary COPY data with their players' country and club, when there are
    enough to be written in bulk (PostgreSQL) and `stored` holds the places; else None. Pure: the replay's own
    thread makes it, and the writer only sends it."""
    if len(changes.added) <= BULK_RATINGS or connection.vendor != "postgresql" or stored.places is None:
        return None
    player = [row[0] for row in changes.added]
    country, club = zip(*(stored.places.get(p, _NO_PLACE) for p in player), strict=True)
    return BinaryCopy([Column("text", code.encode()), *(column_of(pgtype, values) for pgtype, values in zip(
        binary_types(PlayerRating, _BULK_COLUMNS[1:]), (*zip(*changes.added, strict=True), country, club),
        strict=True))], len(player))


def list_write(*, system, changes: ListChanges, bulk: BinaryCopy | None = None) -> None:
    """Write `changes`; `bulk`: their new rows already as COPY data (list_bulk)."""
    if changes.stale:
        gone = PlayerRating.objects.filter(system=system, player_id__in=changes.stale)
        gone._raw_delete(gone.db)
    table = PlayerRating._meta.db_table
    rows_update(table=table, key="player_id", scope=("system_id", system.code),
                columns=("rating", "games", "rank_code", "last_played"), rows=changes.changed)
    if bulk is None and len(changes.added) > BULK_RATINGS and connection.vendor == "postgresql":
        bulk = list_bulk(code=system.code, changes=changes, stored=StoredList({}, {}, _places()))
    if bulk is not None:
        # Many new rows at once (a first replay): the list's indexes are built once at the end rather than
        # maintained row by row (2.7 s instead of 0.3 s for 100,000 rows), and the rows bring their players'
        # country and club instead of the insert trigger's lookup per row (1 s).
        with indexes_suspended(table) as keys, trigger_disabled(table, "player_rating_takes_player"):
            rows_insert(table=table, columns=_BULK_COLUMNS, rows=bulk, keys=keys)
    else:
        rows_insert(table=table, columns=_COLUMNS, rows=((system.code, *row) for row in changes.added))
    if changes.counts_gone:
        RatingCount.objects.filter(system=system, rating__in=changes.counts_gone).delete()
    rows_update(table=RatingCount._meta.db_table, key="rating", scope=("system_id", system.code),
                columns=("players",), rows=changes.counts_changed)
    rows_insert(table=RatingCount._meta.db_table, columns=("system_id", "rating", "players"),
                rows=[(system.code, rating, n) for rating, n in changes.counts_added])
