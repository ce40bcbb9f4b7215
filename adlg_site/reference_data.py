"""Rows every installation has, kept as Django fixtures in fixtures/: the ISO countries with their French names, the
two rating systems and their rulesets, the spare player; and the lock rows the site needs.

The migrations call these functions with their historical models (a fixture loaded by `loaddata` would use the
current ones); the tests call them again after a transactional test has flushed the tables. On an empty database
`python manage.py loaddata countries rating_systems spare` gives the same rows.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.apps import apps as global_apps

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@cache
def fixture(name: str) -> tuple[dict, ...]:
    """The objects of fixtures/<name>.json, as `dumpdata` writes them: model, pk, fields."""
    return tuple(json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8")))


def ensure_players_reference(apps=global_apps) -> None:
    Country = apps.get_model("players", "Country")
    countries = fixture("countries")
    if Country.objects.count() < len(countries):
        Country.objects.bulk_create([Country(code=row["pk"], **row["fields"]) for row in countries],
                                    ignore_conflicts=True)
    Player = apps.get_model("players", "Player")
    for row in fixture("spare"):
        Player.objects.get_or_create(id=row["pk"], defaults={key: value for key, value in row["fields"].items()
                                                             if key in ("last_name", "first_name")})
    apps.get_model("players", "IdAllocator").objects.get_or_create(pk=1, defaults={"last_given": 0})


def ensure_ratings_reference(apps=global_apps) -> None:
    RatingSystem = apps.get_model("ratings", "RatingSystem")
    ReplayLock = apps.get_model("ratings", "ReplayLock")
    for row in fixture("rating_systems"):
        system, _ = RatingSystem.objects.get_or_create(code=row["pk"], defaults=row["fields"])
        ReplayLock.objects.get_or_create(system=system)


def ensure_reference_data() -> None:
    ensure_players_reference()
    ensure_ratings_reference()
