"""Rows every installation has: ISO countries, the two rating systems, the spare player, the lock rows.

The migrations call these functions with their historical models; the tests call them again after a
transactional test has flushed the tables.
"""

from __future__ import annotations

import gettext

from django.apps import apps as global_apps

from rules.rulesets import SPARE_ID

RATING_SYSTEMS = [
    ("adlg", "L'Art de la Guerre", "adlg-2018"),
    ("battle-empire", "Battle Empire", "battle-empire"),
]


def ensure_players_reference(apps=global_apps) -> None:
    import pycountry

    Country = apps.get_model("players", "Country")
    if Country.objects.count() < len(pycountry.countries):
        french = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["fr"], fallback=True)
        Country.objects.bulk_create(
            [Country(code=c.alpha_2, name=getattr(c, "common_name", c.name), name_fr=french.gettext(c.name))
             for c in pycountry.countries],
            ignore_conflicts=True,
        )
    apps.get_model("players", "Player").objects.get_or_create(
        id=SPARE_ID, defaults={"last_name": "Spare", "first_name": ""})
    apps.get_model("players", "IdAllocator").objects.get_or_create(pk=1, defaults={"last_given": 0})


def ensure_ratings_reference(apps=global_apps) -> None:
    RatingSystem = apps.get_model("ratings", "RatingSystem")
    ReplayLock = apps.get_model("ratings", "ReplayLock")
    for position, (code, name, ruleset) in enumerate(RATING_SYSTEMS):
        system, _ = RatingSystem.objects.get_or_create(
            code=code, defaults={"name": name, "ruleset": ruleset, "position": position})
        ReplayLock.objects.get_or_create(system=system)


def ensure_reference_data() -> None:
    ensure_players_reference()
    ensure_ratings_reference()
