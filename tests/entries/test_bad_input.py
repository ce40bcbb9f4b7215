"""Bad input before the tournament: refused with a clear answer, nothing changed, never a 500."""

from __future__ import annotations

import pytest

from players.models import AuditEntry
from tests.entries.conftest import send
from tournaments.models import Announcement, ArmyList, Entry


@pytest.mark.parametrize(("who", "method", "path", "data", "status"), [
    ("player", "post", "/tournaments/{t}/entry/register/", {}, 400),
    ("player", "post", "/tournaments/{t}/entry/register/", {"pool": "A" * 5000}, 400),
    ("player", "post", "/tournaments/999999/entry/register/", {"pool": "A"}, 404),
    ("player", "get", "/tournaments/999999/entry/", {}, 404),
    ("player", "post", "/tournaments/{t}/entry/withdraw/", {}, 400),  # entered: withdrawing is fine; see below
    ("player", "post", "/tournaments/{t}/entry/list/", {"army_name": "", "army_number": ""}, 400),
    ("player", "post", "/tournaments/{t}/entry/list/", {"army_name": "=cmd", "army_number": "1",
                                                        "url": "https://example.org/"}, 400),
    ("player", "get", "/tournaments/army-lists/999999/file/", {}, 404),
    ("referee", "post", "/board/tournaments/{t}/announcement/", {"game_minutes": "lots", "list_deadline": "never",
                                                                 "first_round": "coin"}, 400),
    ("referee", "post", "/board/tournaments/{t}/entries/999999/refuse/", {}, 404),
    ("referee", "post", "/board/tournaments/{t}/lists/999999/check/", {}, 404),
    ("referee", "post", "/board/tournaments/{t}/entries/{e}/lift/", {"lift-{e}-reason": "No penalty here."}, 400),
    ("checker", "post", "/board/tournaments/{t}/lists/{l}/check/", {"check-{l}-decision": "maybe"}, 400),
    ("anonymous", "post", "/tournaments/{t}/entry/register/", {"pool": "A"}, 302),
    ("anonymous", "get", "/tournaments/calendar.ics", {"from": "²"}, 200),
    ("anonymous", "get", "/tournaments/calendar.ics", {"from": "\x00"}, 400),  # a NUL anywhere: adlg_site.middleware
])
def test_bad_input_is_refused_and_changes_nothing(client, entry, player_user, referee, checker, who, method, path,
                                                  data, status):
    army_list = send(player_user, entry)
    if who == "player" and "withdraw" in path:
        entry.status = Entry.REFUSED
        entry.save()
    fill = {"t": entry.tournament_id, "e": entry.pk, "l": army_list.pk}
    path = path.format(**fill)
    data = {key.format(**fill): value for key, value in data.items()}
    users = {"player": player_user, "referee": referee, "checker": checker}
    if who in users:
        client.force_login(users[who])
    audits = AuditEntry.objects.count()
    before = (list(Entry.objects.values()), list(ArmyList.objects.values("status", "comment")),
              Announcement.objects.get().game_minutes)
    response = getattr(client, method)(path, data)
    assert response.status_code == status
    assert (list(Entry.objects.values()), list(ArmyList.objects.values("status", "comment")),
            Announcement.objects.get().game_minutes) == before
    assert AuditEntry.objects.count() == audits
