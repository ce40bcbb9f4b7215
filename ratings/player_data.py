"""Everything the site holds on one account and the player it is linked to, for the player to download (their
account page, "Your data"): the account, its addresses and settings, its requests to be linked, the player's
record, ratings and rating history, games, tournaments, standings, championship results, their own sanctions, the
emails the site wrote to them (kind, subject, dates), their messages to the board, and their entries in
tournaments with the army lists they sent (each version: its file's name, hash and address, or its link; its
status and the checker's comment; never the file itself nor who checked it). Every model that names a player or
an account is either here or excluded with its reason (EXCLUDED; tests/accounts/test_my_data_complete.py).

Of other people it holds only what the public pages show: an opponent's ID and name when that opponent is on the
public lists, a tournament's name, dates and place. Never another player's sanction, never who recorded a
sanction or decided a request (a board member), never an account's password, never the audit log's rows.
The result is plain JSON values (strings, numbers, booleans, lists, mappings).
"""

from __future__ import annotations

from datetime import date, datetime

from allauth.account.models import EmailAddress
from django.conf import settings as site_settings
from django.db.models import Prefetch, Q
from django.urls import reverse
from django.utils import timezone

from championship.models import ChampionshipResult, ChampionshipTotal
from players.models import AccountSettings, BoardMessage, OpeningBalance, Player, PlayerClaim, SentEmail
from players.permissions import own_sanctions, player_of
from players.selectors import is_public
from ratings.models import PlayerRating, RatingEvent
from tournaments.models import ArmyList, Entry, Game, Registration, Standing

FORMAT = "adlg-player-data/1"

# Every foreign key to a player or an account, by (model, field): where the export holds its rows (a dotted path
# in the result), or why it leaves them out. tests/accounts/test_my_data_complete.py walks the models against both.
EXPORTED = {
    ("account.EmailAddress", "user"): "account.email_addresses",
    ("players.AccountSettings", "user"): "account.settings",
    ("players.PlayerClaim", "user"): "claims",
    ("players.PlayerClaim", "player"): "claims",
    ("players.SentEmail", "user"): "emails_sent",
    ("players.BoardMessage", "user"): "contact_messages",
    ("players.Player", "user"): "player",
    ("players.Player", "merged_into"): "player.merged_records",
    ("players.OpeningBalance", "player"): "player.opening_balances",
    ("players.Sanction", "player"): "player.sanctions",
    ("ratings.PlayerRating", "player"): "player.ratings",
    ("ratings.RatingEvent", "player"): "player.rating_history",
    ("tournaments.Registration", "player"): "player.tournaments",
    ("tournaments.Standing", "player"): "player.tournaments",
    ("tournaments.Entry", "player"): "player.entries",
    ("tournaments.ArmyList", "submitted_by"): "player.entries",
    ("tournaments.Game", "player_a"): "player.games",
    ("tournaments.Game", "player_b"): "player.games",
    ("championship.ChampionshipResult", "player"): "player.championship.results",
    ("championship.ChampionshipTotal", "player"): "player.championship.totals",
}
_BOARD_ACT = "who on the board did it: the board's act, never shown to the person it concerns"
_REFEREE_ACT = "a referee's or checker's act on a tournament: a fact of the tournament, public on its pages"
EXCLUDED = {
    ("admin.LogEntry", "user"): "the admin's own log of a board member's changes (the audit log's twin)",
    ("authtoken.Token", "user"): "an API key: a secret, not data about the person",
    ("authtoken.TokenProxy", "user"): "an API key: a secret, not data about the person",
    ("players.AuditEntry", "user"): "the audit log of the board's and referees' acts, kept for the federation",
    ("players.Sanction", "created_by"): _BOARD_ACT,
    ("players.PlayerClaim", "decided_by"): _BOARD_ACT,
    ("players.BoardMessage", "handled_by"): _BOARD_ACT,
    ("ratings.OfficialList", "issued_by"): _BOARD_ACT,
    ("ratings.OfficialListRow", "player"): "a frozen copy of the public rating list on a date, downloadable whole "
                                           "from the official lists' pages; the player's own ratings are exported",
    ("players.ClaimToken", "created_by"): _BOARD_ACT,
    ("players.ClaimToken", "player"): "a claim code's or private link's proof, stored only as a digest; the link it "
                                      "made is in claims and in the player's record",
    ("players.ClaimToken", "used_by"): "the same proof, once used: the link it made is in claims",
    ("tournaments.CalendarLink", "user"): "the personal calendar's secret address, stored only as a digest; the "
                                          "calendar it gives is the account's entries, exported under entries",
    ("ratings.RatingEvent", "opponent"): "another player's rating event; the player's own event of the same game "
                                         "is in rating_history",
    ("ratings.ClosedYear", "closed_by"): _BOARD_ACT,
    ("tournaments.Tournament", "referees"): _REFEREE_ACT,
    ("tournaments.Announcement", "list_checker"): _REFEREE_ACT,
    ("tournaments.ArmyList", "checked_by"): _REFEREE_ACT,
    ("tournaments.Sheet", "uploaded_by"): _REFEREE_ACT,
    ("tournaments.LiveTournament", "started_by"): _REFEREE_ACT,
    ("tournaments.LiveTournament", "handed_over_by"): _REFEREE_ACT,
    ("tournaments.LiveTable", "entered_by"): _REFEREE_ACT,
    ("tournaments.LiveDiscardedDraw", "discarded_by"): _REFEREE_ACT,
    ("tournaments.LiveEntrant", "player"): "the tournament day's working state (its private link's digest, its "
                                           "table); once published, its results are the tournaments and games here",
    ("tournaments.UploadAttempt", "user"): "a count of result-sheet uploads for their limit, forgotten within a day",
}


def _value(value):
    if isinstance(value, datetime):
        return timezone.localtime(value).isoformat() if timezone.is_aware(value) else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if hasattr(value, "is_finite"):  # Decimal
        return float(value)
    return value


def _row(mapping: dict) -> dict:
    return {key: _value(value) for key, value in mapping.items()}


def _tournament(tournament) -> dict:
    return {"id": tournament.pk, "name": tournament.name, "start_date": tournament.start_date.isoformat(),
            "end_date": tournament.end_date.isoformat(), "city": tournament.city, "system": tournament.system_id}


def player_data(*, user) -> dict:
    """The account's and its player's data (module doc)."""
    player = player_of(user)
    return {
        "format": FORMAT,
        "exported_at": timezone.localtime().isoformat(),
        "account": _account(user),
        "claims": _claims(user),
        "emails_sent": _emails_sent(user),
        "contact_messages": _board_messages(user),
        "player": _player(player, user) if player is not None else None,
    }


def _account(user) -> dict:
    settings = AccountSettings.objects.filter(user=user).first()
    return {
        "username": user.get_username(),
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": _value(user.date_joined),
        "last_login": _value(user.last_login),
        "email_addresses": [
            {"email": row.email, "verified": row.verified, "primary": row.primary}
            for row in EmailAddress.objects.filter(user=user).order_by("-primary", "email")
        ],
        "settings": {
            "rating_emails": settings.rating_emails if settings else True,
            "language": settings.language if settings else None,
            "emails_turned_off": list(settings.muted) if settings else [],
        },
    }


def _emails_sent(user) -> list[dict]:
    # What the site wrote to the account (players.notices, allauth's): kind, language, subject, when; not the body.
    return [_row({"kind": row.kind, "language": row.language, "subject": row.subject, "address": row.address,
                  "written_at": row.created_at, "sent_at": row.sent_at})
            for row in SentEmail.objects.filter(user=user).order_by("created_at", "id")]


def _board_messages(user) -> list[dict]:
    # The account's own messages to the board; never which member handled them.
    return [_row({"subject": row.subject, "message": row.body, "reply_to": row.reply_to, "name": row.name,
                  "written_at": row.created_at, "handled_at": row.handled_at})
            for row in BoardMessage.objects.filter(user=user).order_by("created_at", "id")]


def _claims(user) -> list[dict]:
    rows = PlayerClaim.objects.filter(user=user).order_by("created_at", "id")
    return [_row({"player": claim.player_id, "status": claim.status, "confirmed_by": claim.via
                  if claim.status in (PlayerClaim.CONFIRMED, PlayerClaim.UNDONE) else None,
                  "message": claim.message, "reason": claim.reason, "asked_at": claim.created_at,
                  "decided_at": claim.decided_at}) for claim in rows]


def _player(player: Player, user) -> dict:
    games = (Game.objects.filter(Q(player_a=player) | Q(player_b=player))
             .select_related("tournament", "player_a", "player_b").order_by("tournament__end_date", "round", "table"))
    return {
        "id": player.pk,
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club.name if player.club_id else None,
        "country": player.country_id,
        "on_the_public_lists": is_public(player),
        "excluded_at": _value(player.excluded_at),
        "created_at": _value(player.created_at),
        "merged_records": list(Player.objects.filter(merged_into=player).values_list("pk", flat=True)),
        "opening_balances": [
            _row({"system": row.system_id, "rating": row.rating, "games": row.games, "as_of": row.as_of})
            for row in OpeningBalance.objects.filter(player=player).order_by("system_id")
        ],
        "ratings": [
            _row({"system": row.system_id, "rating": row.rating, "games": row.games, "rank": row.rank_code,
                  "last_played": row.last_played})
            for row in PlayerRating.objects.filter(player=player).order_by("system_id")
        ],
        "rating_history": _history(player),
        "tournaments": _tournaments(player),
        "entries": _entries(player),
        "games": [_game(game, player) for game in games],
        "championship": _championship(player),
        "sanctions": _sanctions(user),
    }


def _opponent(opponent: Player | None) -> dict | None:
    if opponent is None or not is_public(opponent):
        return None  # a player no longer on the public lists: nothing of them leaves the site
    return {"id": opponent.pk, "name": opponent.full_name}


def _history(player: Player) -> list[dict]:
    events = (RatingEvent.objects.filter(player=player).select_related("opponent")
              .order_by("system_id", "seq"))
    return [
        {**_row({"system": event.system_id, "kind": event.kind, "date": event.date,
                 "tournament": event.tournament_id, "year": event.year, "rating_before": event.rating_before,
                 "rating_after": event.rating_after, "change": event.change, "rated_games_before": event.games_before,
                 "k": event.k, "expected": event.expected, "result_value": event.score,
                 "opponent_rating": event.opponent_rating}),
         "opponent": _opponent(event.opponent) if event.opponent_id else None}
        for event in events
    ]


def _tournaments(player: Player) -> list[dict]:
    standings = {(row.tournament_id, row.pool): row for row in Standing.objects.filter(player=player)}
    rows = []
    for registration in (Registration.objects.filter(player=player).select_related("tournament", "club")
                         .order_by("tournament__end_date", "tournament_id")):
        standing = standings.get((registration.tournament_id, registration.pool))
        rows.append({
            "tournament": _tournament(registration.tournament),
            **_row({"pool": registration.pool, "club": registration.club.name if registration.club_id else None,
                    "army": registration.army, "penalty": registration.penalty,
                    "penalty_reason": registration.penalty_reason, "registered_at": registration.registered_at}),
            "standing": _row({"rank": standing.rank, "score": standing.score,
                              "opponents_score": standing.opponents_score, "wins": standing.wins,
                              "draws": standing.draws, "losses": standing.losses,
                              "rating_before": standing.rating_before, "rating_after": standing.rating_after,
                              "performance": standing.performance}) if standing else None,
        })
    return rows


def _entries(player: Player) -> list[dict]:
    lists = ArmyList.objects.defer("content").order_by("submitted_at", "id")
    entries = (Entry.objects.filter(player=player).select_related("tournament")
               .prefetch_related(Prefetch("army_lists", queryset=lists))
               .order_by("tournament__start_date", "tournament_id"))
    return [{
        "tournament": _tournament(entry.tournament),
        **_row({"pool": entry.pool, "status": entry.status, "refusal_reason": entry.reason,
                "listed_without_name": entry.listed_without_name, "as_spare": entry.as_spare,
                "list_late": entry.list_late, "late_penalty_lifted_because": entry.penalty_lifted_reason,
                "entered_at": entry.entered_at, "changed_at": entry.changed_at}),
        # Oldest first: a list returned by the checker, then the one sent again, is the list's history.
        "army_lists": [_army_list(row) for row in entry.army_lists.all()],
    } for entry in entries]


def _army_list(row: ArmyList) -> dict:
    file = site_settings.SITE_URL.rstrip("/") + reverse("army_list_file", args=[row.pk]) if row.file_name else None
    return _row({"army": row.army_name, "army_number": row.army_number, "kind": row.kind,
                 "file_name": row.file_name or None, "sha256": row.sha256 or None, "size": row.size or None,
                 "file": file, "link": row.url or None, "sent_at": row.submitted_at, "late": row.late,
                 "status": row.status, "checker_comment": row.comment, "checked_at": row.checked_at})


def _game(game: Game, player: Player) -> dict:
    as_a = game.player_a_id == player.pk
    return {
        "tournament": game.tournament_id,
        "tournament_name": game.tournament.name,
        "date": game.tournament.end_date.isoformat(),
        "round": game.round,
        "table": game.table,
        "side": "A" if as_a else "B",
        "opponent": _opponent(game.player_b if as_a else game.player_a),
        "result": game.result,
        "own_losses_percent": game.a_losses if as_a else game.b_losses,
        "opponent_losses_percent": game.b_losses if as_a else game.a_losses,
        "free_game": game.free,
    }


def _championship(player: Player) -> dict:
    return {
        "results": [
            _row({"year": row.year, "tournament": row.tournament_id, "points": row.points, "counted": row.counted})
            for row in ChampionshipResult.objects.filter(player=player).order_by("year", "tournament_id")
        ],
        "totals": [
            _row({"year": row.year, "total": row.total, "results_counted": row.results, "rank": row.rank,
                  "country": row.country_id, "international": row.international,
                  "international_rank": row.international_rank})
            for row in ChampionshipTotal.objects.filter(player=player).order_by("year")
        ],
    }


def _sanctions(user) -> list[dict]:
    # The player's own, as players.permissions.own_sanctions decides; never `created_by`.
    rows = own_sanctions(user).select_related("tournament").order_by("decided_on", "id")
    return [
        {**_row({"kind": row.kind, "decided_on": row.decided_on, "expires_on": row.expires_on,
                 "reason": row.reason, "public_notice": row.public_notice}),
         "tournament": _tournament(row.tournament) if row.tournament_id else None}
        for row in rows
    ]
