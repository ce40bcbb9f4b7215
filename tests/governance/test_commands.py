"""`exclude_player ID --reason TEXT` and `merge_players KEEP DUPLICATE`: exit 0, or 1 with the reason on stderr."""

from __future__ import annotations

import os
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from players.models import RetiredId
from tests.commands.cli import copy_database, run_commands
from tests.governance.factories import make_player

pytestmark = pytest.mark.django_db


def test_it_excludes_a_player():
    player = make_player("Tricheur", "Marc")
    out = StringIO()
    call_command("exclude_player", str(player.pk), "--reason", "loaded dice", stdout=out)
    player.refresh_from_db()
    assert player.is_excluded
    assert RetiredId.objects.filter(pk=player.pk).exists()
    assert f"Player {player.pk}" in out.getvalue()


@pytest.mark.parametrize(("args", "message"), [
    (["424242", "--reason", "x"], "No player has the ID 424242."),
    (["99", "--reason", "x"], "ID 99 is the spare player"),
    (["abc", "--reason", "x"], "'abc' is not a federation ID"),
    (["1234"], "Give the reason of the exclusion with --reason TEXT."),
    (["1234", "--reason", "  "], "Give the reason of the exclusion with --reason TEXT."),
    (["--reason", "x"], "Give the player's ID"),
])
def test_it_refuses_bad_input(args, message):
    with pytest.raises(CommandError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call_command("exclude_player", *args)


def test_it_refuses_an_already_excluded_player():
    player = make_player("Tricheur")
    call_command("exclude_player", str(player.pk), "--reason", "x", stdout=StringIO())
    with pytest.raises(CommandError, match="already excluded"):
        call_command("exclude_player", str(player.pk), "--reason", "again")


def test_it_merges_players():
    keep, duplicate = make_player("Dupont"), make_player("Dupond")
    out = StringIO()
    call_command("merge_players", str(keep.pk), str(duplicate.pk), stdout=out)
    duplicate.refresh_from_db()
    assert duplicate.merged_into == keep
    assert f"Player {duplicate.pk} merged into {keep.pk}" in out.getvalue()


@pytest.mark.parametrize(("args", "message"), [
    (["424242", "1"], "No player has the ID 424242."),
    (["99", "424242"], "No player has the ID 424242."),
    (["99", "99"], "two different players"),
    (["1"], "Give two IDs"),
])
def test_it_refuses_a_bad_merge(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("merge_players", *args)


@pytest.mark.slow
def test_it_exits_1_with_the_reason_and_no_traceback(migrated_sqlite, tmp_path):
    """`python manage.py exclude_player …` in a process of its own (both command lines in one, each as manage.py
    runs it: tests.commands.cli.run_commands), on a freshly migrated database."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{copy_database(migrated_sqlite, tmp_path)}",
           "DJANGO_SETTINGS_MODULE": "adlg_site.settings.test"}
    env.pop("REDIS_URL", None)
    cases = [(["424242", "--reason", "cheating"], "No player has the ID 424242."),
             (["99", "--reason", "cheating"], "spare player")]
    results = run_commands([["exclude_player", *args] for args, _ in cases], env)
    for (_args, message), result in zip(cases, results, strict=True):
        assert result.returncode == 1
        assert message in result.stderr
        assert "Traceback" not in result.stderr + result.stdout
