"""A realistic demo federation: players of five countries, their clubs, and several seasons of tournaments.

Everything goes through the real entry points: the player list through `players_import_csv`, every
tournament as an .xlsx result sheet through `sheet_import_bytes`, the closed years through `year_close`.
Deterministic for a given seed.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass, field
from datetime import date, timedelta

from openpyxl import Workbook

from rules.charter import minimum_rounds
from rules.rulesets import SPARE_ID, SPARE_NAME
from rules.sheet.values import new_player_tag

FIRST_NAMES = {
    "FR": ["Jean", "Pierre", "Michel", "Philippe", "Alain", "Nicolas", "Christophe", "Olivier", "Laurent", "Julien",
           "Sébastien", "Thierry", "Éric", "Frédéric", "Stéphane", "David", "Vincent", "Antoine", "Mathieu", "Claire",
           "Sophie", "Camille", "Guillaume", "Benoît", "Yannick", "Hervé", "Gilles", "Arnaud", "Rémi", "Loïc"],
    "GB": ["James", "John", "David", "Richard", "Andrew", "Mark", "Paul", "Simon", "Stephen", "Ian", "Gareth",
           "Neil", "Graham", "Alistair", "Hamish", "Rhys", "Owen", "Emma", "Sarah", "Nigel", "Colin", "Duncan"],
    "ES": ["Javier", "Carlos", "José", "Antonio", "Manuel", "Francisco", "Miguel", "Alejandro", "Pablo", "Sergio",
           "Jordi", "Iñaki", "Raúl", "Lucía", "Álvaro", "Rubén", "Diego", "Ignacio"],
    "IT": ["Marco", "Giuseppe", "Luca", "Andrea", "Francesco", "Alessandro", "Matteo", "Stefano", "Paolo",
           "Giovanni", "Davide", "Simone", "Lorenzo", "Fabio", "Giulia", "Roberto", "Massimo"],
    "BE": ["Luc", "Koen", "Pieter", "Marc", "Geert", "Wouter", "Jan", "Bart", "Tom", "Olivier", "Maxime",
           "Dirk", "Steven", "Thomas", "Nathalie"],
}
LAST_NAMES = {
    "FR": ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau",
           "Simon", "Laurent", "Lefebvre", "Michel", "Garcia", "David", "Bertrand", "Roux", "Vincent", "Fournier",
           "Morel", "Girard", "André", "Lefèvre", "Mercier", "Dupont", "Lambert", "Bonnet", "François", "Martinez",
           "Legrand", "Garnier", "Faure", "Rousseau", "Blanc", "Guérin", "Muller", "Henry", "Roussel", "Nicolas",
           "Perrin", "Morin", "Mathieu", "Clément", "Gauthier", "Dumont", "Lopez", "Fontaine", "Chevalier", "Robin"],
    "GB": ["Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies", "Robinson", "Wright",
           "Thompson", "Evans", "Walker", "White", "Roberts", "Green", "Hall", "Wood", "Jackson", "Clarke",
           "MacDonald", "Campbell", "Stewart", "Hughes", "Edwards"],
    "ES": ["García", "Fernández", "González", "Rodríguez", "López", "Martínez", "Sánchez", "Pérez", "Gómez",
           "Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Álvarez", "Romero", "Navarro", "Torres"],
    "IT": ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco",
           "Bruno", "Gallo", "Conti", "De Luca", "Costa", "Giordano", "Mancini", "Rizzo", "Lombardi", "Moretti"],
    "BE": ["Peeters", "Janssens", "Maes", "Jacobs", "Mertens", "Willems", "Claes", "Goossens", "Wouters",
           "De Smet", "Dubois", "Lambert", "Dupont", "Van Damme", "Hermans", "Leclercq", "Vermeulen"],
}
CLUBS = {
    "FR": [("Les Grognards de Lyon", "Lyon"), ("Club Alésia", "Dijon"), ("Les Aigles de Paris", "Paris"),
           ("Ordre du Dragon", "Toulouse"), ("La Compagnie Noire", "Nantes"), ("Les Lansquenets", "Strasbourg"),
           ("Ludus Massiliensis", "Marseille"), ("Cercle de Bouvines", "Lille"), ("Le Bivouac", "Bordeaux"),
           ("Les Hussards de Rennes", "Rennes")],
    "GB": [("Leeds Wargames Club", "Leeds"), ("Bristol Phalanx", "Bristol"), ("London Legions", "London"),
           ("Edinburgh Claymores", "Edinburgh")],
    "ES": [("Tercios de Madrid", "Madrid"), ("Almogàvers Barcelona", "Barcelona"), ("Club Numancia", "Sevilla")],
    "IT": [("Legio Romana", "Roma"), ("I Condottieri", "Milano"), ("Club Lepanto", "Venezia")],
    "BE": [("Les Éburons", "Liège"), ("Brussels Bastion", "Bruxelles"), ("Gentse Geuzen", "Gent")],
}
COUNTRY_WEIGHTS = {"FR": 55, "GB": 14, "ES": 12, "IT": 11, "BE": 8}
ARMIES = ["Early Imperial Roman", "Carthaginian", "Alexandrian Macedonian", "Gallic", "Sassanid Persian",
          "Norman", "Feudal French", "Byzantine", "Mongol", "Later Hoplite Greek", "Seleucid", "Saxon", "Viking",
          "Hundred Years War English", "Medieval Spanish", "Italian Condotta", "Ottoman Turkish", "Hun"]


@dataclass
class DemoPlayer:
    id: int
    first_name: str
    last_name: str
    club: str | None
    country: str
    strength: float
    opening: tuple[int, int] | None = None


@dataclass
class DemoTournament:
    name: str
    start: date
    end: date
    city: str
    country: str
    club: str | None
    rounds: int
    system: str
    players: list[DemoPlayer]
    worlds: bool = False
    pools: int = 1
    new_tags: dict[int, str] = field(default_factory=dict)
    pool_of: dict[int, str] = field(default_factory=dict)


def demo_players(rng: random.Random, count: int) -> list[DemoPlayer]:
    players, seen = [], set()
    countries = list(COUNTRY_WEIGHTS)
    weights = list(COUNTRY_WEIGHTS.values())
    next_id = 1
    while len(players) < count:
        country = rng.choices(countries, weights)[0]
        first, last = rng.choice(FIRST_NAMES[country]), rng.choice(LAST_NAMES[country])
        if (first, last) in seen:
            continue
        seen.add((first, last))
        club = None if rng.random() < 0.12 else rng.choice(CLUBS[country])[0]
        if next_id == 99:
            next_id += 1
        opening = (rng.randint(880, 1380), rng.randint(5, 60)) if rng.random() < 0.25 else None
        players.append(DemoPlayer(next_id, first, last, club, country, rng.gauss(0, 1), opening))
        next_id += 1
    return players


def players_csv(players: list[DemoPlayer], *, as_of: date) -> str:
    lines = ["id,last_name,first_name,club,country,rating,games,as_of"]
    for p in players:
        rating, games = p.opening or ("", "")
        lines.append(",".join(_csv(v) for v in (p.id, p.last_name, p.first_name, p.club or "", p.country, rating,
                                                games, as_of.isoformat() if p.opening else "")))
    return "\n".join(lines) + "\n"


def _csv(value) -> str:
    text = str(value)
    return f'"{text}"' if "," in text else text


def demo_calendar(rng: random.Random, players: list[DemoPlayer], *, first_year: int, last_day: date,
                  newcomers: list[DemoPlayer]) -> list[DemoTournament]:
    """Several seasons: local tournaments every few weeks, a Worlds each year, some Battle Empire events."""
    calendar = []
    by_country: dict[str, list[DemoPlayer]] = {}
    for p in players:
        by_country.setdefault(p.country, []).append(p)
    day = date(first_year, 1, 20)
    newcomer_pool = list(newcomers)
    while day <= last_day - timedelta(days=2):
        country = rng.choices(list(COUNTRY_WEIGHTS), list(COUNTRY_WEIGHTS.values()))[0]
        club, city = rng.choice(CLUBS[country])
        worlds = day.month == 6 and day.day <= 20 and not any(
            t.worlds and t.start.year == day.year for t in calendar)
        system = "battle-empire" if rng.random() < 0.12 and not worlds else "adlg"
        size = 48 if worlds else rng.choice([8, 10, 12, 14, 16, 18, 20, 24, 28, 32, 40, 64][: 12 if rng.random() < 0.15
                                                                                        else 9])
        rounds = minimum_rounds(size) if system == "adlg" else 4
        if rng.random() < 0.08:
            rounds -= 1  # now and then a tournament too short for its size: it will not count
        home = [p for p in by_country[country]]
        abroad = [p for p in players if p.country != country]
        chosen = set()
        field_players: list[DemoPlayer] = []
        share_home = 0.45 if worlds else 0.85
        while len(field_players) < size:
            pool = home if rng.random() < share_home and len(chosen & {p.id for p in home}) < len(home) else abroad
            candidate = rng.choice(pool)
            if candidate.id not in chosen:
                chosen.add(candidate.id)
                field_players.append(candidate)
        tournament = DemoTournament(
            name=("World Championship" if worlds else f"{'Battle Empire ' if system != 'adlg' else ''}"
                  f"Tournoi de {city}" if country in ("FR", "BE") else
                  ("World Championship" if worlds else f"{city} {'Battle Empire' if system != 'adlg' else 'Open'}")),
            start=day, end=day + timedelta(days=1), city=city, country=country, club=None if worlds else club,
            rounds=rounds, system=system, players=field_players, worlds=worlds,
            pools=2 if size >= 40 and not worlds else 1,
        )
        if newcomer_pool and rng.random() < 0.5:
            for _ in range(rng.randint(1, 3)):
                if newcomer_pool:
                    newbie = newcomer_pool.pop()
                    tournament.new_tags[newbie.id] = new_player_tag(len(tournament.new_tags) + 1)
                    tournament.players.append(newbie)
                    players.append(newbie)
                    by_country.setdefault(newbie.country, []).append(newbie)
        calendar.append(tournament)
        day += timedelta(days=rng.choice([7, 14, 14, 21]))
    return calendar


def _result(rng: random.Random, a: DemoPlayer | None, b: DemoPlayer | None, system: str):
    strength_a = a.strength if a else -0.5
    strength_b = b.strength if b else -0.5
    p_a = 1 / (1 + math.exp(-(strength_a - strength_b)))
    roll = rng.random()
    if system == "battle-empire":
        if roll < 0.1:
            return "D", None, None
        winner = "A" if rng.random() < p_a else "B"
        return winner + rng.choice(["", "", "+", "++"]), None, None
    if roll < 0.08:
        return "D", rng.randint(10, 60), rng.randint(10, 60)
    if roll < 0.11:
        return "DD", rng.randint(50, 100), rng.randint(50, 100)
    winner = "A" if rng.random() < p_a else "B"
    loser_losses = rng.randint(50, 100)
    winner_losses = rng.randint(0, 60)
    if winner == "A":
        return "A", winner_losses, loser_losses
    return "B", loser_losses, winner_losses


def play(rng: random.Random, tournament: DemoTournament) -> list[tuple]:
    """Swiss pairings per pool, no rematch, the spare for an odd player, the odd forfeit and free last game."""
    pools: dict[str, list[DemoPlayer]] = {}
    for index, p in enumerate(tournament.players):
        pools.setdefault("A" if tournament.pools == 1 else "AB"[index % 2], []).append(p)
    tournament.pool_of = {p.id: pool for pool, members in pools.items() for p in members}
    games = []
    for members in pools.values():
        score = {p.id: 0.0 for p in members}
        met: set[frozenset] = set()
        for rnd in range(1, tournament.rounds + 1):
            pairs = _swiss_round(rng, members, score, met)
            for a, b in pairs:
                key_a = a.id
                key_b = b.id if b else 99
                met.add(frozenset((key_a, key_b)))
                if b is not None and rng.random() < 0.02 and tournament.system == "adlg":
                    result, la, lb = ("FA", None, None) if rng.random() < 0.5 else ("FB", None, None)
                else:
                    result, la, lb = _result(rng, a, b, tournament.system)
                free = rnd == tournament.rounds and rng.random() < 0.05 and tournament.rounds >= 4
                if result.startswith("A") or result == "FA":
                    score[a.id] += 1
                elif b is not None and (result.startswith("B") or result == "FB"):
                    score[b.id] += 1
                games.append((rnd, key_a, key_b, result, la, lb, free))
    return games


def _swiss_round(rng: random.Random, members: list[DemoPlayer], score: dict[int, float],
                 met: set[frozenset]) -> list[tuple]:
    """Pair neighbours in the standings, never twice the same pair (the charter's first rule of pairing).

    A greedy pass with a little noise, retried; a player left without a possible opponent sits the round out.
    """
    best: list[tuple] = []
    for attempt in range(40):
        order = sorted(members, key=lambda p: (-score[p.id], rng.random() * (1 + attempt / 4)))
        unpaired, pairs, stuck = list(order), [], False
        while len(unpaired) > 1:
            first = unpaired.pop(0)
            partner = next((p for p in unpaired if frozenset((first.id, p.id)) not in met), None)
            if partner is None:
                stuck = True
                continue
            unpaired.remove(partner)
            pairs.append((first, partner))
        if unpaired and frozenset((unpaired[0].id, 99)) not in met:
            pairs.append((unpaired[0], None))
        elif unpaired:
            stuck = True
        if not stuck:
            return pairs
        if len(pairs) > len(best):
            best = pairs
    return best


def sheet_bytes(rng: random.Random, tournament: DemoTournament, games: list[tuple], *, referee: str) -> bytes:
    """Write the tournament as the official result sheet (RESULT_SHEET.md, format 1)."""
    wb = Workbook()
    info = wb.active
    info.title = "Tournament"
    for label, value in [
        ("Format", "adlg-result-sheet/1"), ("Tournament ID", None), ("Name", tournament.name),
        ("Rating system", tournament.system), ("Start date", tournament.start), ("End date", tournament.end),
        ("City", tournament.city), ("Country", tournament.country), ("Organising club", tournament.club),
        ("Referee", referee), ("Army points", 200), ("Rounds", tournament.rounds),
        ("Worlds", "yes" if tournament.worlds else "no"), ("Official", "yes"),
    ]:
        info.append([label, value])
    sheet = wb.create_sheet("Players")
    sheet.append(["ID", "Last name", "First name", "Club", "Country", "Pool", "Army", "Penalty", "Penalty reason"])
    key = {p.id: tournament.new_tags.get(p.id, str(p.id)) for p in tournament.players}
    if any(game[2] == SPARE_ID for game in games):  # one spare row: the spare may play in every pool
        sheet.append([str(SPARE_ID), SPARE_NAME, "", None, None, "A", None, 0, None])
    for p in tournament.players:
        penalty, reason = (0, None)
        if rng.random() < 0.03:
            penalty, reason = rng.choice([(20, "late list"), (30, "disruptive play"), (50, "refused the dice")])
        sheet.append([key[p.id], p.last_name, p.first_name, p.club, p.country, tournament.pool_of[p.id],
                      rng.choice(ARMIES), penalty, reason])
    sheet = wb.create_sheet("Games")
    sheet.append(["Round", "Table", "Player A", "Player B", "Result", "A losses %", "B losses %", "Free game"])
    tables: dict[int, int] = {}
    for rnd, a, b, result, la, lb, free in games:
        tables[rnd] = tables.get(rnd, 0) + 1
        sheet.append([rnd, tables[rnd], key.get(a, str(a)), key.get(b, str(b)) if b != 99 else "99", result, la, lb,
                      "yes" if free else "no"])
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


# --- before the tournament: what the demo's announcements, lists and checker write --------------------------------

# Army lists by name and number, as players give them (the demo's numbers, not checked against the official lists).
ARMY_NUMBERS = {"Carthaginian": "45", "Early Imperial Roman": "58", "Alexandrian Macedonian": "30",
                "Gallic": "40", "Sassanid Persian": "76", "Norman": "105", "Feudal French": "131",
                "Byzantine": "112", "Mongol": "152", "Later Hoplite Greek": "20", "Seleucid": "35", "Viking": "98"}
# Pools' themes and their allowed armies, as a French organiser writes them (App. 1 §8).
THEMES = [
    ("Antiquité\u00a0: armées jusqu’en 476", "Les armées des listes antiques, alliés des mêmes listes."),
    ("Moyen Âge\u00a0: de 476 à 1500", "Les armées médiévales d’Europe et d’Orient, alliés des mêmes listes."),
]
# What the referee writes when refusing an entry, and the list checker when returning a list.
REFUSAL_REASON = "Inscription en double\u00a0: l’autre inscription est retenue."
RETURNED_COMMENTS = [
    "La liste fait 203\u00a0points, le maximum est 200\u00a0: retirez un élément léger et renvoyez-la.",
    "Le général allié n’est pas permis par le thème de la poule\u00a0: choisissez un allié des listes autorisées, "
    "puis renvoyez la liste.",
]


def list_pdf(army_name: str) -> bytes:
    """A one-page PDF with the army's name on it: what a player prints from a list builder."""
    text = army_name.encode("latin-1", "replace").replace(b"(", b"[").replace(b")", b"]")
    stream = b"BT /F1 18 Tf 72 760 Td (" + text + b") Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += str(number).encode() + b" 0 obj\n" + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 " + str(len(objects) + 1).encode() + b"\n0000000000 65535 f \n"
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size " + str(len(objects) + 1).encode() + b" /Root 1 0 R >>\nstartxref\n"
    out += str(xref).encode() + b"\n%%EOF\n"
    return bytes(out)
