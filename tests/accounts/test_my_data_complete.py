"""'My data' is complete: every model with a foreign key to a player or an account is either in the export (at a
path the export really has) or excluded with its reason (ratings.player_data.EXPORTED, EXCLUDED)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model

from players.models import Player
from ratings.player_data import EXCLUDED, EXPORTED, player_data
from tests.accounts.helpers import account
from tests.governance.factories import make_player

pytestmark = pytest.mark.django_db


def _keys_to_a_person() -> set[tuple[str, str]]:
    people = (Player, get_user_model())
    return {(model._meta.label, field.name) for model in apps.get_models() for field in model._meta.get_fields()
            if field.concrete and field.is_relation and field.related_model in people}


def test_every_key_to_a_player_or_an_account_is_exported_or_excluded_with_a_reason():
    keys = _keys_to_a_person()
    assert keys - EXPORTED.keys() - EXCLUDED.keys() == set(), "a new model names a person: export it or say why not"
    assert not EXPORTED.keys() & EXCLUDED.keys()
    assert (EXPORTED.keys() | EXCLUDED.keys()) - keys == set(), "a listed key no longer exists"
    assert all(len(reason) > 20 for reason in EXCLUDED.values())


def test_every_exported_path_is_in_the_export():
    user = account("ada@example.org")
    make_player("Lovelace", "Ada", user=user)
    data = player_data(user=user)
    for key, path in EXPORTED.items():
        node = data
        for part in path.split("."):
            assert isinstance(node, dict) and part in node, (key, path)
            node = node[part]
