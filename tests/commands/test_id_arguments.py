"""The board's commands read a federation ID as the site's pages do (adlg_site.inputs.whole_number): "²" passes
str.isdigit but is no number, and used to end in a traceback instead of a refusal."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from players.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("raw", ["²", "١٢", "12a", "-3", "0", "9" * 40])
def test_exclude_player_refuses_what_is_not_a_federation_id(raw):
    with pytest.raises(CommandError, match="is not a federation ID"):
        call_command("exclude_player", raw, "--reason", "cheating")
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("raw", ["²", "N1", " 1²"])
def test_merge_players_refuses_what_is_not_a_federation_id(raw):
    with pytest.raises(CommandError, match="is not a federation ID"):
        call_command("merge_players", raw, "12")
    assert not AuditEntry.objects.exists()
