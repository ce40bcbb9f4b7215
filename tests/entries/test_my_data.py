"""A player's downloaded data ("My data", /accounts/my-data.json) holds their entries and the army lists they sent,
each version with its status and the checker's comment, never the file itself nor who checked it."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.entries.conftest import send
from tournaments.before.army_lists import army_list_check
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def test_my_data_holds_my_entries_and_every_version_of_my_army_lists(client, settings, entry, player_user,
                                                                     checker):
    settings.SITE_URL = "https://adlg.example"
    Entry.objects.filter(pk=entry.pk).update(listed_without_name=True)
    first = send(player_user, entry)
    army_list_check(user=checker, army_list=first, compliant=False, comment="Army 45 has no elephants")
    second = send(player_user, entry, url="https://builder.example/list/45")
    client.force_login(player_user)
    data = json.loads(client.get(reverse("account_data")).content)
    [mine] = data["player"]["entries"]
    assert mine["tournament"]["id"] == entry.tournament_id
    assert (mine["pool"], mine["status"], mine["listed_without_name"]) == (entry.pool, "entered", True)
    assert mine["entered_at"] and mine["changed_at"]
    returned, sent_again = mine["army_lists"]
    assert returned == {**returned, "army": "Carthaginian", "army_number": "45", "file_name": "list.xlsx",
                        "sha256": first.sha256, "status": "returned", "checker_comment": "Army 45 has no elephants",
                        "file": "https://adlg.example" + reverse("army_list_file", args=[first.pk]), "link": None}
    assert returned["checked_at"] and returned["sent_at"]
    assert sent_again == {**sent_again, "link": "https://builder.example/list/45", "file": None,
                          "status": "pending", "checker_comment": "", "sha256": None}
    text = json.dumps(data)
    assert f'"{checker.username}"' not in text and "checked_by" not in text  # never who checked
    assert second.pk and '"content"' not in text


def test_my_data_holds_no_one_elses_entries(client, entry, other_user, other_linked):
    client.force_login(other_user)
    assert json.loads(client.get(reverse("account_data")).content)["player"]["entries"] == []
