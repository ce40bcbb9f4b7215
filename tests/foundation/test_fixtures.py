"""The reference data in fixtures/: what every installation has, as migrations and `loaddata` write it."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from adlg_site.reference_data import fixture
from players.models import Country, Player
from ratings.models import RatingSystem
from rules.rulesets import RULESETS, SPARE_ID, SYSTEM_RULESETS


def test_the_rating_systems_are_those_a_sheet_names_with_the_ruleset_each_ships_with():
    systems = {row["pk"]: row["fields"]["ruleset"] for row in fixture("rating_systems")}
    assert systems == SYSTEM_RULESETS and set(systems.values()) <= set(RULESETS)


def test_the_spare_of_the_fixture_is_the_rules_spare():
    assert [row["pk"] for row in fixture("spare")] == [SPARE_ID]


def test_every_iso_country_has_an_english_and_a_french_name():
    countries = {row["pk"]: row["fields"] for row in fixture("countries")}
    assert len(countries) == 249
    assert countries["FR"] == {"name": "France", "name_fr": "France"}
    assert countries["DE"]["name_fr"] == "Allemagne" and countries["GB"]["name"] == "United Kingdom"
    assert all(fields["name"] and fields["name_fr"] for fields in countries.values())


@pytest.mark.django_db
def test_the_migrated_database_holds_the_fixtures_rows():
    assert Country.objects.count() == 249
    assert dict(RatingSystem.objects.values_list("code", "ruleset")) == SYSTEM_RULESETS
    assert Player.objects.get(pk=SPARE_ID).last_name == "Spare"


@pytest.mark.django_db
def test_loaddata_gives_the_same_rows_on_an_empty_table():
    Country.objects.filter(code="FR").delete()
    call_command("loaddata", "countries", verbosity=0)
    assert Country.objects.get(code="FR").name_fr == "France"
