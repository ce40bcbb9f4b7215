"""The tournament day's players (PAIRING.md §6): adding a player known to the federation or new to it, to a pool and a
hat; moving one to another pool or hat; removing one added by mistake; checking players in; a late arrival; a
withdrawal from a round on; a new player's names corrected.

Terms
-----
present
    Checked in: in the hall (LiveEntrant.present). Only those present are paired. Players registered in the
    calendar start absent until the referee checks them in; a player added on the day, or by `live_start` and
    `live_add`, is present.
round 1 of a pool paired
    Round 1 of the pool published. Until then the referee may add anyone, remove, move between pools and hats,
    check in and out; a change drops a proposed round 1, which is paired again. From then on a player added or
    checked in is a late player: they join from the next round to pair and have no game in the rounds missed (no
    forfeit, no game against the spare).
a game
    A table of a published round. An entrant with none may be removed (they appear nowhere: not in the standings,
    the publication or the live page); one with a game is withdrawn instead.

several at once
    The referee pastes IDs or names, one a line (`pasted_players`): each line is read as the name search reads it,
    and is found, not found, ambiguous (its candidates shown), repeated or already playing; once every line is
    found, `entrants_add` adds them all to one of the tournament's pools and a hat, each as one is added.

What is typed for a player new to the federation is checked here as the result sheet checks its Players rows
(rules.sheet.checks: lengths, formulas, the country's ISO code), so that the publication never refuses it; a club
is one of the federation's (accents and case aside), or a new one the referee confirmed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q

from adlg_site.inputs import whole_number
from players.audit import audit_record
from players.models import Country, Player
from players.selectors import club_named, player_by_exact_id, player_search
from ratings.selectors import current_ratings
from rules.names import name_key
from rules.pairing import GROUPS
from rules.rulesets import SPARE_ID
from rules.sheet.checks import country_faults, text_faults
from rules.sheet.values import cell_text
from tournaments.live.links import link_salt_new
from tournaments.live.pools import bump, drop_proposal, locked, published_numbers, same_pool
from tournaments.live.refusals import LiveRefused
from tournaments.models import AnnouncedPool, LiveEntrant, LiveTable, LiveTournament, Registration

# What the sheet's checks call each text a referee types (their messages name the field).
LABELS = {"last_name": "Last name", "first_name": "First name", "club": "Club", "country": "Country",
          "pool": "Pool"}
KEEP = object()  # entrant_move: the hat as it is


@dataclass(frozen=True)
class NewEntrant:
    """A player to add: `player` a federation ID, or None with the names of a player new to the federation.
    `new_club`: the club typed is not one of the federation's, and the referee confirmed it is new."""

    player: int | None = None
    last_name: str = ""
    first_name: str = ""
    club: str = ""
    country: str = ""
    pool: str = "A"
    hat: int | None = None
    present: bool = True
    new_club: bool = False
    # False: the pool must be one of the tournament's (a page's list); True: a name not among them makes a new
    # pool (the page's "new pool" control, a command's --pool, the start's list). Capitals never make a pool.
    new_pool: bool = True


@dataclass(frozen=True)
class NewPlayerTexts:
    last_name: str
    first_name: str
    club: str
    country: str


def new_player_texts(*, last_name: str, first_name: str, club: str, country: str,
                     new_club: bool = False) -> NewPlayerTexts:
    """A new player's texts as they will be kept, or LiveRefused naming each field the sheet would refuse (each
    notice's `input` is the field). Spaces are trimmed and collapsed as the sheet's reader does."""
    texts = {key: cell_text(value) or "" for key, value in
             (("last_name", last_name), ("first_name", first_name), ("club", club), ("country", country))}
    problems: list[tuple[str, dict]] = []
    if not texts["last_name"]:
        problems.append(("name_required", {"input": "last_name"}))
    if not texts["first_name"]:
        problems.append(("first_name_required", {"input": "first_name"}))
    for key in ("last_name", "first_name", "club"):
        problems += [(f.code, {**f.params, "input": key})
                     for f in text_faults(key=key, label=LABELS[key], text=texts[key])]
    code = texts["country"].upper()
    faults = [(f.code, {**f.params, "input": "country"}) for f in country_faults(value=texts["country"])]
    if not faults and code and not Country.objects.filter(pk=code).exists():  # the sheet's list is the site's
        faults = [("unknown_country", {"value": code, "input": "country"})]
    problems += faults
    club_name = texts["club"]
    if club_name and not any(p.get("input") == "club" for _, p in problems):
        known = club_named(club_name)
        if known is not None:
            club_name = known.name  # the federation's spelling: the publication finds this club, not a twin
        elif not new_club:
            problems.append(("club_unknown", {"club": club_name, "input": "club"}))
    if problems:
        raise LiveRefused(problems)
    return NewPlayerTexts(texts["last_name"], texts["first_name"], club_name, code)


def _pool(live: LiveTournament, text: str, *, new_pool: bool = True, pools: list[str] | None = None) -> str:
    """The pool a typed name means: one of the tournament's pools, capitals aside (`b` is pool B); a name none of
    them has is a new pool only when `new_pool` says the referee made one on purpose, else refused."""
    pool = cell_text(text) or "A"
    faults = text_faults(key="pool", label=LABELS["pool"], text=pool)
    if faults:
        raise LiveRefused((f.code, {**f.params, "input": "pool"}) for f in faults)
    pools = tournament_pools(live) if pools is None else pools
    known = same_pool(pools, pool)
    if known is not None:
        return known
    if not new_pool:
        raise LiveRefused.one("pool_not_the_tournaments", pool=pool, pools=", ".join(pools), input="pool")
    return pool


def _round_one_published(live: LiveTournament, pool: str) -> bool:
    return live.rounds.filter(pool=pool, number=1, published_at__isnull=False).exists()


def _next_round(live: LiveTournament, pool: str) -> int:
    """The round a player added now first plays: the next round of the pool to pair."""
    number = len(published_numbers(live, pool)) + 1
    if number > live.tournament.rounds:
        raise LiveRefused.one("all_rounds_paired", rounds=live.tournament.rounds, pool=pool)
    return number


def entrant_add(live: LiveTournament, new: NewEntrant, *, user=None, audit: bool = True,
                pools: list[str] | None = None) -> LiveEntrant:
    """Add a player to a pool (and a hat); after round 1 of the pool a late player, from the next round to pair.
    `pools`: the tournament's pools when the caller adds many (`tournament_pools`, kept up to date here)."""
    with transaction.atomic():
        live = locked(live)
        entrant = _add(live, new, user=user, audit=audit, pools=pools)
        if pools is not None and entrant.pool not in pools:
            pools.append(entrant.pool)
        bump(live)
    return entrant


def entrants_add(live: LiveTournament, players: Sequence[int], *, pool: str, hat: int | None = None,
                 new_pool: bool = False, user=None) -> list[LiveEntrant]:
    """Add several federation players (by ID) to one of the tournament's pools and a hat, each as `entrant_add` adds
    one (the same checks; after round 1 of the pool, late players), in one transaction: all of them or, refused,
    none; one new version of the day. The pool typed is one of `tournament_pools`, case aside, or a new pool
    when `new_pool` says so."""
    with transaction.atomic():
        live = locked(live)
        if not players:
            raise LiveRefused.one("paste_empty")
        pools = tournament_pools(live)
        chosen = _pool(live, pool, new_pool=new_pool, pools=pools)
        if chosen not in pools:
            pools.append(chosen)
        entrants = [_add(live, NewEntrant(player=player, pool=chosen, hat=hat), user=user, pools=pools)
                    for player in players]
        bump(live)
    return entrants


def tournament_pools(live: LiveTournament) -> list[str]:
    """The tournament's pools: those of its announcement (else A, B… as many as the tournament has), and any pool
    a player was added to on the day."""
    tournament = live.tournament
    announced = list(AnnouncedPool.objects.filter(announcement__tournament=tournament).values_list("name", flat=True))
    names = announced or [chr(ord("A") + n) for n in range(min(max(tournament.pools, 1), 26))]
    for pool in live.entrants.order_by("pool").values_list("pool", flat=True).distinct():
        if pool.casefold() not in {name.casefold() for name in names}:
            names.append(pool)
    return names


# --- several players pasted at once ------------------------------------------------------------------------------

FOUND, NOT_FOUND, AMBIGUOUS, REPEATED, PLAYING = "found", "not_found", "ambiguous", "repeated", "playing"
PASTE_LINES = 100
CANDIDATES = 8


@dataclass(frozen=True)
class PastedLine:
    """One line of a paste: `found` (its `player`), `not_found`, `ambiguous` (its `candidates`), `repeated` (the
    player of an earlier line) or `playing` (already in the tournament)."""

    text: str
    status: str
    player: Player | None = None
    candidates: tuple[Player, ...] = ()


def pasted_players(live: LiveTournament, text: str) -> list[PastedLine]:
    """Each non-empty line (at most PASTE_LINES) as the name search reads it (players.selectors: an ID finds that
    player, else every word of the line, accents and case aside, in the name). Several found: the one whose whole
    name is the line's ("Jean Dupont" or "Dupont Jean") when there is exactly one, else the line is ambiguous."""
    lines = [" ".join(line.split()) for line in (text or "").splitlines() if line.strip()][:PASTE_LINES]
    playing = set(live.entrants.exclude(player=None).values_list("player_id", flat=True))
    seen: set[int] = set()
    result = []
    for line in lines:
        found = [player_by_exact_id(query=line)] if whole_number(line, minimum=1) is not None else list(
            player_search(query=line)[:50])
        found = [p for p in found if p is not None]
        if len(found) > 1:
            whole = name_key(line)
            exact = [p for p in found if whole in (name_key(f"{p.first_name} {p.last_name}"),
                                                   name_key(f"{p.last_name} {p.first_name}"))]
            found = exact if len(exact) == 1 else found
        if not found:
            result.append(PastedLine(line, NOT_FOUND))
        elif len(found) > 1:
            result.append(PastedLine(line, AMBIGUOUS, candidates=tuple(found[:CANDIDATES])))
        elif found[0].pk in seen:
            result.append(PastedLine(line, REPEATED, player=found[0]))
        elif found[0].pk in playing:
            result.append(PastedLine(line, PLAYING, player=found[0]))
        else:
            seen.add(found[0].pk)
            result.append(PastedLine(line, FOUND, player=found[0]))
    return result


def _add(live: LiveTournament, new: NewEntrant, *, user=None, audit: bool = True,
         pools: list[str] | None = None) -> LiveEntrant:
    """entrant_add's work, under the tournament's lock taken by the caller, who bumps the version."""
    tournament = live.tournament
    if new.hat not in (None, 1, 2):
        raise LiveRefused.one("hat_invalid")
    pool = _pool(live, new.pool, new_pool=new.new_pool, pools=pools)
    if new.player is not None:
        player = Player.objects.filter(pk=new.player).select_related("club", "country").first()
        if player is None or player.merged_into_id is not None or player.pk == SPARE_ID:
            raise LiveRefused.one("unknown_player", id=new.player)
        if player.excluded_at is not None:
            raise LiveRefused.one("excluded_player", player=player.full_name)
        if live.entrants.filter(player=player).exists():
            raise LiveRefused.one("already_playing", player=player.full_name)
        rating = current_ratings(tournament.system, players=[player.pk]).get(player.pk)
        entrant = LiveEntrant(
            live=live, player=player, last_name=player.last_name, first_name=player.first_name,
            club=player.club.name if player.club else "", country=player.country_id or "",
            rating=rating.rating if rating else tournament.system.get_ruleset().initial_rating)
    else:
        texts = new_player_texts(last_name=new.last_name, first_name=new.first_name, club=new.club,
                                 country=new.country, new_club=new.new_club)
        entrant = LiveEntrant(live=live, last_name=texts.last_name, first_name=texts.first_name,
                              club=texts.club, country=texts.country,
                              rating=tournament.system.get_ruleset().initial_rating)
    entrant.pool, entrant.hat, entrant.present = pool, new.hat, new.present
    link_salt_new(entrant)
    entrant.joined_round = _next_round(live, pool)
    if live.systems.get(pool) == GROUPS:
        entrant.group = _smaller_group(live, pool)
    entrant.save()
    drop_proposal(live, pool, entrant.joined_round)
    if entrant.player_id is not None:
        Registration.objects.get_or_create(tournament=tournament, player_id=entrant.player_id,
                                           defaults={"pool": pool})
    if audit:
        late = f" from round {entrant.joined_round} (late)" if entrant.joined_round > 1 else ""
        audit_record(user=user, action="live_add_player", obj=tournament,
                     summary=f"{entrant} joins pool {pool}{late}",
                     changes={"entrant": entrant.pk, "player": entrant.player_id, "pool": pool, "hat": new.hat,
                              "present": new.present})
    return entrant


def _smaller_group(live: LiveTournament, pool: str) -> str:
    """**Decision**: a late player of the two-groups system joins the group with fewer players still in (B on a
    tie, the group dealt second)."""
    counts = {"A": 0, "B": 0}
    for group in live.entrants.filter(pool=pool, withdrawn_from__isnull=True).values_list("group", flat=True):
        if group in counts:
            counts[group] += 1
    return "A" if counts["A"] < counts["B"] else "B"


def _entrant(live: LiveTournament, entrant: LiveEntrant) -> LiveEntrant:
    """The entrant as it is now, its row locked with the tournament's (a page may show an older one)."""
    found = LiveEntrant.objects.select_for_update().filter(live=live, pk=entrant.pk).first()
    if found is None:
        raise LiveRefused.one("entrant_gone")
    return found


def has_game(entrant: LiveEntrant) -> bool:
    """Whether the entrant sits at a table of a published round (a game, whatever its result)."""
    return LiveTable.objects.filter(Q(a=entrant) | Q(b=entrant), round__published_at__isnull=False).exists()


def entrant_remove(live: LiveTournament, entrant: LiveEntrant, *, user=None) -> None:
    """Remove an entrant who has no game (added by mistake, or who never came): they appear nowhere after. One with
    a game is withdrawn instead (entrant_withdraw)."""
    with transaction.atomic():
        live = locked(live)
        entrant = _entrant(live, entrant)
        if has_game(entrant):
            raise LiveRefused.one("remove_has_game", player=str(entrant))
        # A proposal that pairs them no longer pairs the pool: it goes, to pair again.
        live.rounds.filter(pool=entrant.pool, published_at__isnull=True).delete()
        registration = None
        if entrant.player_id is not None:
            registration = Registration.objects.filter(tournament_id=live.pk, player_id=entrant.player_id).first()
        audit_record(user=user, action="live_remove_player", obj=live.tournament,
                     summary=f"{entrant} removed from pool {entrant.pool} (no game)",
                     changes={"entrant": entrant.pk, "player": entrant.player_id, "last_name": entrant.last_name,
                              "first_name": entrant.first_name, "pool": entrant.pool,
                              "registration_removed": registration is not None})
        if registration is not None:
            registration.delete()
        entrant.delete()
        bump(live)


def entrant_move(live: LiveTournament, entrant: LiveEntrant, *, pool: str | None = None, hat=KEEP,
                 new_pool: bool = True, user=None) -> LiveEntrant:
    """Move an entrant to another pool, or into a hat or out of it (hat None), until round 1 of the pools concerned
    is published; a proposed round 1 of those pools is dropped. The pool is one of the tournament's, capitals
    aside, or a new one when `new_pool` says so."""
    with transaction.atomic():
        live = locked(live)
        entrant = _entrant(live, entrant)
        to_pool = _pool(live, pool, new_pool=new_pool) if pool is not None else entrant.pool
        to_hat = entrant.hat if hat is KEEP else hat
        if to_hat not in (None, 1, 2):
            raise LiveRefused.one("hat_invalid")
        if (to_pool, to_hat) == (entrant.pool, entrant.hat):
            return entrant
        for concerned in sorted({entrant.pool, to_pool}):
            if _round_one_published(live, concerned):
                raise LiveRefused.one("round_one_published", pool=concerned, player=str(entrant))
        before = {"pool": entrant.pool, "hat": entrant.hat}
        for concerned in {entrant.pool, to_pool}:
            drop_proposal(live, concerned, 1)
        LiveEntrant.objects.filter(pk=entrant.pk).update(pool=to_pool, hat=to_hat)
        if entrant.player_id is not None and to_pool != entrant.pool:
            Registration.objects.filter(tournament_id=live.pk, player_id=entrant.player_id).update(pool=to_pool)
        entrant.pool, entrant.hat = to_pool, to_hat
        audit_record(user=user, action="live_move_player", obj=live.tournament,
                     summary=f"{entrant}: pool {before['pool']} → {to_pool}, hat {before['hat'] or '-'} → "
                             f"{to_hat or '-'}",
                     changes={"entrant": entrant.pk, "player": entrant.player_id, "before": before,
                              "after": {"pool": to_pool, "hat": to_hat}})
        bump(live)
    return entrant


def entrants_check_in(live: LiveTournament, entrants: Sequence[LiveEntrant], *, present: bool = True,
                      user=None) -> list[LiveEntrant]:
    """Mark entrants present (or absent), all at once or one by one. Before round 1 of their pool they are paired
    in round 1 or not; after it, one checked in is a late player (from the next round to pair), and none can be
    marked absent (withdraw or remove them instead). Returns the entrants whose mark changed."""
    with transaction.atomic():
        live = locked(live)
        changed = []
        for entrant in entrants:
            entrant = _entrant(live, entrant)
            if entrant.present == present or entrant.withdrawn_from is not None:
                continue
            started = _round_one_published(live, entrant.pool)
            if started and not present:
                raise LiveRefused.one("absent_after_round_one", pool=entrant.pool, player=str(entrant))
            entrant.present = present
            entrant.joined_round = _next_round(live, entrant.pool) if started else 1
            if started and live.systems.get(entrant.pool) == GROUPS and not entrant.group:
                entrant.group = _smaller_group(live, entrant.pool)
            LiveEntrant.objects.filter(pk=entrant.pk).update(present=present, joined_round=entrant.joined_round,
                                                             group=entrant.group)
            drop_proposal(live, entrant.pool, entrant.joined_round)
            changed.append(entrant)
        if changed:
            late = [e for e in changed if e.joined_round > 1]
            audit_record(user=user, action="live_check_in" if present else "live_check_out", obj=live.tournament,
                         summary=(f"{len(changed)} player(s) checked in" if present else
                                  f"{len(changed)} player(s) marked absent")
                         + (f", {len(late)} late" if late else ""),
                         changes={"entrants": [e.pk for e in changed], "present": present,
                                  "late": {str(e.pk): e.joined_round for e in late}})
            bump(live)
    return changed


def entrant_edit(live: LiveTournament, entrant: LiveEntrant, *, last_name: str, first_name: str, club: str,
                 country: str, new_club: bool = False, user=None) -> LiveEntrant:
    """Correct a new player's names, club or country (until the publication, which creates the player from them).
    A federation player's are the federation's: corrected by the board, not here."""
    with transaction.atomic():
        live = locked(live)
        entrant = _entrant(live, entrant)
        if entrant.player_id is not None:
            raise LiveRefused.one("not_new_player", player=str(entrant))
        texts = new_player_texts(last_name=last_name, first_name=first_name, club=club, country=country,
                                 new_club=new_club)
        before = {"last_name": entrant.last_name, "first_name": entrant.first_name, "club": entrant.club,
                  "country": entrant.country}
        after = {"last_name": texts.last_name, "first_name": texts.first_name, "club": texts.club,
                 "country": texts.country}
        if after == before:
            return entrant
        LiveEntrant.objects.filter(pk=entrant.pk).update(**after)
        for key, value in after.items():
            setattr(entrant, key, value)
        audit_record(user=user, action="live_edit_player", obj=live.tournament, summary=f"{entrant} corrected",
                     changes={key: [before[key], after[key]] for key in after if before[key] != after[key]})
        bump(live)
    return entrant


def entrant_withdraw(live: LiveTournament, entrant: LiveEntrant, *, from_round: int, user=None) -> None:
    """Withdraw a player from `from_round` on: not paired from then (PAIRING.md §6)."""
    with transaction.atomic():
        live = locked(live)
        rounds = live.tournament.rounds
        if not 1 <= from_round <= rounds:
            raise LiveRefused.one("round_out_of_range", round=from_round, rounds=rounds)
        published = published_numbers(live, entrant.pool)
        if from_round <= len(published):
            raise LiveRefused.one("withdraw_round", round=from_round, next=len(published) + 1)
        LiveEntrant.objects.filter(pk=entrant.pk).update(withdrawn_from=from_round)
        drop_proposal(live, entrant.pool, from_round)
        audit_record(user=user, action="live_withdraw", obj=live.tournament,
                     summary=f"{entrant} withdraws from round {from_round}")
        bump(live)
