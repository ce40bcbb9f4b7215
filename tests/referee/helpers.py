"""Helpers of the referee tests (and the browser journey): the federation's known players, tournaments, sheets."""

from __future__ import annotations

from datetime import date

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from players.models import Club, Player
from tests.sheets.builders import PLAYERS, POOL_B, SheetBuilder
from tournaments.models import Registration, Tournament
from tournaments.sheets.forms import XLSX_TYPE


def create_known_players() -> dict[int, Player]:
    """The federation IDs the builders' valid sheet uses (its N1, N2 are new players)."""
    players = {}
    for pid, last, first, club, country, _pool in PLAYERS + POOL_B:
        if not isinstance(pid, int) or pid == 99:
            continue
        club_row = Club.objects.get_or_create(name=club, defaults={"country_id": country})[0] if club else None
        players[pid] = Player.objects.create(id=pid, last_name=last, first_name=first, club=club_row,
                                             country_id=country)
    return players


def make_tournament(*, referees, name="Spring Clash", start=date(2024, 3, 16), end=date(2024, 3, 17),
                    registered=()) -> Tournament:
    """A tournament registered on the site; with the same name and dates as the valid sheet by default."""
    tournament = Tournament.objects.create(system_id="adlg", name=name, start_date=start, end_date=end,
                                           city="Lyon", country_id="FR", rounds=3, army_points=200,
                                           referee_name="Jean Arbitre")
    tournament.referees.set(referees)
    for player in registered:
        Registration.objects.create(tournament=tournament, player=player, club=player.club)
    return tournament


def valid_sheet(tournament: Tournament | None = None) -> SheetBuilder:
    """The builders' valid sheet, carrying the tournament's ID, name and dates when one is given."""
    builder = SheetBuilder.valid()
    if tournament is not None:
        builder.set("Tournament ID", tournament.pk)
        builder.set("Name", tournament.name)
        builder.set("Start date", tournament.start_date)
        builder.set("End date", tournament.end_date)
    return builder


def xlsx(data: bytes, name: str = "results.xlsx") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type=XLSX_TYPE)


def upload(client, data: bytes, name: str = "results.xlsx", **extra):
    return client.post(reverse("referee:upload"), {"file": xlsx(data, name)}, **extra)
