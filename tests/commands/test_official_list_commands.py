"""The commands of the official lists and the open data (docs/commands.md): what they print, and their refusals
(exit 1, the reason on stderr)."""

from datetime import date

import pytest

from ratings.models import OfficialList, OpenDataRelease
from tests.commands.cli import run
from tests.ratings.helpers import imported, roster, sheet

pytestmark = pytest.mark.django_db(transaction=True)


def test_issue_official_list_issues_the_next_list_and_refuses_bad_input():
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    code, out, _ = run("issue_official_list", "--system", "adlg", "--date", "2024-04-01")
    assert code == 0 and out.startswith("adlg: official list no. 1 of 2024-04-01, ")
    assert OfficialList.objects.get().players == int(out.split(", ")[1].split()[0])
    code, _, err = run("issue_official_list", "--date", "2024-03-01")
    assert code == 1 and "cannot be before the last list" in err
    assert run("issue_official_list", "--date", "first of May")[0] == 1
    code, _, err = run("issue_official_list", "--system", "chess")
    assert code == 1 and "Unknown rating system 'chess'" in err
    assert OfficialList.objects.count() == 1


def test_build_open_data_builds_once_per_change():
    roster()
    code, out, _ = run("build_open_data")
    assert code == 0 and out.startswith("built ") and "players: 11" in out
    code, out, _ = run("build_open_data")
    assert code == 0 and out.startswith("unchanged")
    assert OpenDataRelease.objects.count() == 1
