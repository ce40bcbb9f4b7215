"""Names stored once per language (Country.name / name_fr, a rank's name_en / name_fr) are picked by
adlg_site.words.language, the one place that decides the reader's language: no page tests for French itself."""

from __future__ import annotations

import pytest
from django.utils import translation

from players.models import Country
from ratings.selectors import country_name, rank_name
from rules.rulesets import RULESETS


@pytest.fixture
def countries(db):
    for code, name, name_fr in [("XA", "Zeta land", "Aland"), ("XB", "Beta land", ""), ("XC", "Alpha land", "Gamma")]:
        Country.objects.update_or_create(code=code, defaults={"name": name, "name_fr": name_fr})
    return Country.objects.filter(code__startswith="X")


def test_a_country_is_named_in_the_language_asked_for_or_the_active_one(countries):
    a, b = countries.get(code="XA"), countries.get(code="XB")
    assert a.local_name("en") == "Zeta land" and a.local_name("fr-CA") == "Aland"
    assert b.local_name("fr") == "Beta land"  # no French name: the English one
    with translation.override("fr"):
        assert str(a) == "Aland (XA)" and country_name(a) == "Aland"
    with translation.override("en"):
        assert str(a) == "Zeta land (XA)" and country_name(a, "fr") == "Aland"
    assert country_name(None) == ""


def test_countries_are_ordered_by_the_name_shown(countries):
    assert [c.code for c in countries.by_local_name("en")] == ["XC", "XB", "XA"]
    assert [c.code for c in countries.by_local_name("fr")] == ["XA", "XB", "XC"]  # Aland, Beta land, Gamma


def test_a_rank_is_named_in_the_language_asked_for():
    rank = next(iter(RULESETS.values())).ranks[0]
    assert rank_name(rank, "en") == rank.name_en and rank_name(rank, "fr") == rank.name_fr
    with translation.override("fr"):
        assert rank_name(rank) == rank.name_fr
    assert rank_name(None, "fr") == ""
