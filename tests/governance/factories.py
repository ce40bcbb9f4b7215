"""Plain factory functions for the governance tests: players, tournaments, registrations, games."""

from __future__ import annotations

import itertools
from datetime import date, timedelta

from django.utils import timezone

from players.models import Club, Player
from tournaments.models import Game, Registration, Tournament

_ids = itertools.count(1000)


def make_player(last_name: str = "Durand", first_name: str = "Jean", *, pk: int | None = None, club: Club | None = None,
                country: str = "FR", user=None) -> Player:
    if pk is None:
        pk = next(_ids)
        while Player.objects.filter(pk=pk).exists():  # tests.factories counts from 1000 too
            pk = next(_ids)
    return Player.objects.create(id=pk, last_name=last_name, first_name=first_name, club=club,
                                 country_id=country, user=user)


def make_club(name: str = "Les Grognards", country: str = "FR") -> Club:
    return Club.objects.get_or_create(name=name, defaults={"country_id": country})[0]


def make_tournament(name: str = "Tournoi de Paris", *, start: date | None = None, days: int = 1, referees=(),
                    system: str = "adlg", club: Club | None = None, official: bool = True,
                    fmt: str = "200 points individual", army_points: int | None = 200, rounds: int = 3,
                    announced_on: date | None = None) -> Tournament:
    start = start or timezone.localdate() + timedelta(days=30)
    tournament = Tournament.objects.create(
        system_id=system, name=name, start_date=start, end_date=start + timedelta(days=days), city="Paris",
        country_id="FR", organising_club=club, format=fmt, army_points=army_points, rounds=rounds,
        official=official, announced_on=announced_on,
    )
    tournament.referees.set(referees)
    return tournament


def register(tournament: Tournament, *players: Player) -> None:
    for player in players:
        Registration.objects.create(tournament=tournament, player=player, club=player.club)


def play(tournament: Tournament, a: Player, b: Player, *, round: int = 1, table: int = 1, result: str = "A") -> Game:
    for player in (a, b):
        Registration.objects.get_or_create(tournament=tournament, player=player, defaults={"club": player.club})
    return Game.objects.create(tournament=tournament, round=round, table=table, player_a=a, player_b=b,
                               result=result, a_losses=20, b_losses=60)
