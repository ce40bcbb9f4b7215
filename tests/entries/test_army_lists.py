"""Army lists (charter App. 1 §8, §11-12; App. 7 §2): sent as a checked file or an https link, checked by the list
checker, seen by no one else until every list is checked and entries are closed, published all together, flagged
when identical beyond the charter's limit, and late ones cost 20 points that reach the tournament's standings."""

from __future__ import annotations

import io
import zipfile
import zlib
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from players.models import AuditEntry
from rules.words import Forbidden
from tests.entries.conftest import PDF, after_deadline, announce, send, workbook_bytes
from tests.governance.factories import make_player, make_tournament
from tournaments.before.army_lists import (
    LIST_MAX_BYTES,
    MAX_LISTS_PER_ENTRY,
    army_list_check,
    identical_flags,
    list_visible,
    lists_published,
)
from tournaments.before.entries import EntryRefused, entry_register, entry_withdraw, late_penalty_lift
from tournaments.models import Announcement, ArmyList, Entry, Tournament


def refusal(call) -> str:
    with pytest.raises(EntryRefused) as refused:
        call()
    return refused.value.code


# --- what may be sent --------------------------------------------------------------------------------------------


def test_a_player_sends_the_official_workbook_and_it_is_kept_with_its_hash(entry, player_user):
    data = workbook_bytes()
    army_list = send(player_user, entry, data=data)
    stored = ArmyList.objects.get()
    assert (stored.kind, bytes(stored.content), stored.size, stored.status) == ("xlsx", data, len(data), "pending")
    assert len(stored.sha256) == 64 and army_list.late is False
    assert AuditEntry.objects.filter(action="army_list_submit").exists()


def test_a_pdf_is_accepted_when_it_is_one(entry, player_user):
    assert send(player_user, entry, file_name="liste.PDF", data=PDF).kind == "pdf"


@pytest.mark.parametrize(("name", "data", "code"), [
    ("list.pdf", b"<html><script>alert(1)</script>", "not_pdf"),
    ("list.pdf", PDF + b"<< /S /JavaScript /JS (app.alert(1)) >>", "pdf_active"),
    ("list.docx", b"PK\x03\x04", "file_kind"),
    ("list.xlsx", b"not a zip at all", "xlsx_not_xlsx"),
    ("list.pdf", b"", "file_empty"),
    ("list.pdf", b"%PDF-" + b"0" * LIST_MAX_BYTES, "file_too_large"),
])
def test_a_file_that_is_not_what_it_says_is_refused_and_nothing_is_stored(entry, player_user, name, data, code):
    assert refusal(lambda: send(player_user, entry, file_name=name, data=data)) == code
    assert not ArmyList.objects.exists()


def _pdf_with(extra_object: bytes, *, catalog_extra: bytes = b"") -> bytes:
    """A valid PDF (cross-reference table and all) whose catalog points at one more object."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R " + catalog_extra + b">>",
               b"<< /Type /Pages /Kids [] /Count 0 >>", extra_object]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _object_stream_pdf(hidden: bytes) -> bytes:
    """A PDF 1.5 whose action lives, deflated, in an object stream: its bytes never show the name."""
    header = b"3 0 "
    stream = zlib.compress(header + hidden)
    objects = [b"<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>",
               b"<< /Type /ObjStm /N 1 /First %d /Filter /FlateDecode /Length %d >>\nstream\n"
               % (len(header), len(stream)) + stream + b"\nendstream"]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in zip((1, 2, 4), objects, strict=True):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    # A cross-reference stream (type 2 rows: object 3 is the first object of the object stream 4).
    xref_stream_at = len(out)
    rows = [(0, 0, 255), (1, offsets[0], 0), (1, offsets[1], 0), (2, 4, 0), (1, offsets[2], 0)]
    table = b"".join(bytes([kind]) + place.to_bytes(4, "big") + bytes([index]) for kind, place, index in rows)
    out += (b"5 0 obj\n<< /Type /XRef /Size 6 /W [1 4 1] /Index [0 5] /Root 1 0 R /Length %d >>\nstream\n"
            % len(table) + table + b"\nendstream\nendobj\n")
    out += b"startxref\n%d\n%%%%EOF\n" % xref_stream_at
    return bytes(out)


@pytest.mark.parametrize("data", [
    _pdf_with(b"<< /S /J#61vaScript /J#53 (app.alert(1)) >>"),
    _pdf_with(b"<< /S /L#61unch /F (calc.exe) >>"),
    _pdf_with(b"<< /S /GoTo /D [2 0 R] >>", catalog_extra=b"/Names << /Embedded#46iles << /Names [] >> >> "),
    _object_stream_pdf(b"<< /S /JavaScript /JS (app.alert(1)) >>"),
], ids=["escaped JavaScript", "escaped Launch", "escaped EmbeddedFiles", "JavaScript in an object stream"])
def test_a_pdf_declaring_active_content_under_escaped_or_compressed_names_is_refused(entry, player_user, data):
    assert refusal(lambda: send(player_user, entry, file_name="list.pdf", data=data)) == "pdf_active"
    assert not ArmyList.objects.exists()


def test_a_pdf_with_a_harmless_action_is_accepted(entry, player_user):
    data = _pdf_with(b"<< /S /GoTo /D [2 0 R] >>")
    assert send(player_user, entry, file_name="list.pdf", data=data).kind == "pdf"


@pytest.mark.parametrize("data", [
    b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
    b"%PDF-1.7\n" + b"\x00\xff" * 200,
], ids=["no cross-reference", "no objects at all"])
def test_a_pdf_that_cannot_be_parsed_is_refused(entry, player_user, data):
    assert refusal(lambda: send(player_user, entry, file_name="list.pdf", data=data)) == "pdf_unreadable"
    assert not ArmyList.objects.exists()


def _zip(parts: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in parts.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def test_a_workbook_with_macros_or_a_zip_bomb_is_refused_by_the_sheets_guard(entry, player_user):
    macros = _zip({"[Content_Types].xml": b"<Types/>", "xl/vbaProject.bin": b"macro"})
    bomb = _zip({"[Content_Types].xml": b"<Types/>", "xl/worksheets/sheet1.xml": b"0" * 30_000_000})
    assert refusal(lambda: send(player_user, entry, data=macros)) == "xlsx_macro_enabled"
    assert refusal(lambda: send(player_user, entry, data=bomb)) == "xlsx_suspicious_compression"
    assert not ArmyList.objects.exists()


@pytest.mark.parametrize("url", ["http://www.littlearmybuilder.com/list/1", "javascript:alert(1)",
                                 "https://", "ftp://example.org/x", "https://" + "a" * 500 + ".com"])
def test_a_link_is_https_only(entry, player_user, url):
    assert refusal(lambda: send(player_user, entry, url=url)).startswith("url_")
    assert not ArmyList.objects.exists()


def test_a_link_to_a_list_builder_is_accepted(entry, player_user):
    assert send(player_user, entry, url="https://www.littlearmybuilder.com/list/1").kind == "link"


def test_a_file_over_the_limit_is_refused_before_it_is_read(client, entry, player_user):
    client.force_login(player_user)
    response = client.post(f"/tournaments/{entry.tournament_id}/entry/list/", data=b"x",
                           content_type="multipart/form-data; boundary=x",
                           CONTENT_LENGTH=str(LIST_MAX_BYTES + 10**6))
    assert response.status_code == 413 and not ArmyList.objects.exists()


def test_the_list_page_sends_a_file_and_shows_a_refusal_beside_the_field(client, entry, player_user):
    client.force_login(player_user)
    url = f"/tournaments/{entry.tournament_id}/entry/list/"
    bad = client.post(url, {"army_name": "Roman", "army_number": "12", "url": "http://example.org/l"})
    assert bad.status_code == 400 and "starting with https://" in bad.content.decode()
    good = client.post(url, {"army_name": "Roman", "army_number": "12",
                             "file": SimpleUploadedFile("roman.pdf", PDF, content_type="application/pdf")})
    assert good.status_code == 302 and ArmyList.objects.get().kind == "pdf"


def test_an_entry_stores_a_bounded_number_of_lists(entry, player_user):
    for _ in range(MAX_LISTS_PER_ENTRY):
        send(player_user, entry, url="https://www.littlearmybuilder.com/list/1")
    assert refusal(lambda: send(player_user, entry)) == "too_many_lists"
    assert ArmyList.objects.count() == MAX_LISTS_PER_ENTRY


def test_only_the_entrys_player_sends_its_list(entry, other_user, other_linked, referee):
    for user in (other_user, referee):
        with pytest.raises(Forbidden):
            send(user, entry)


# --- the check ---------------------------------------------------------------------------------------------------


def test_the_checker_returns_a_list_with_a_comment_and_marks_the_next_one_compliant(entry, player_user, checker):
    first = send(player_user, entry)
    assert refusal(lambda: army_list_check(user=checker, army_list=first, compliant=False)) == "comment_required"
    army_list_check(user=checker, army_list=first, compliant=False, comment="Two generals too many.")
    assert ArmyList.objects.get(pk=first.pk).status == "returned"
    second = send(player_user, entry, army_number="45")
    assert refusal(lambda: army_list_check(user=checker, army_list=first, compliant=True)) == "not_current"
    army_list_check(user=checker, army_list=second, compliant=True)
    assert ArmyList.objects.get(pk=second.pk).status == "compliant"
    assert AuditEntry.objects.filter(action="army_list_check").count() == 2


def test_the_player_reads_the_checkers_comment(client, entry, player_user, checker):
    army_list_check(user=checker, army_list=send(player_user, entry), compliant=False, comment="No elephants.")
    client.force_login(player_user)
    page = client.get(f"/tournaments/{entry.tournament_id}/entry/").content.decode()
    assert "No elephants." in page and "Send a new list" in page


def test_the_checker_checks_on_the_entries_page(client, entry, player_user, checker):
    army_list = send(player_user, entry)
    client.force_login(checker)
    url = f"/board/tournaments/{entry.tournament_id}/lists/{army_list.pk}/check/"
    refused = client.post(url, {f"check-{army_list.pk}-decision": "returned", f"check-{army_list.pk}-comment": ""})
    assert refused.status_code == 400 and ArmyList.objects.get().status == "pending"
    assert client.post(url, {f"check-{army_list.pk}-decision": "compliant"}).status_code == 302
    assert ArmyList.objects.get().status == "compliant"


@pytest.mark.parametrize("who", ["other_user", "other_referee"])
def test_nobody_else_checks_a_list(entry, player_user, who, other_user, other_referee, other_linked):
    army_list = send(player_user, entry)
    with pytest.raises(Forbidden):
        army_list_check(user=other_user if who == "other_user" else other_referee, army_list=army_list,
                        compliant=True)


# --- who sees a list ---------------------------------------------------------------------------------------------


@pytest.fixture
def personas(player_user, other_user, other_linked, referee, other_referee, checker, board):
    return {"player": player_user, "other_player": other_user, "referee": referee, "other_referee": other_referee,
            "checker": checker, "board": board, "anonymous": None}


SEES = {"player", "referee", "checker", "board"}


@pytest.mark.parametrize("who", ["player", "other_player", "referee", "other_referee", "checker", "board",
                                 "anonymous"])
def test_before_publication_a_list_is_seen_by_its_player_the_referee_the_checker_and_the_board_only(
        client, entry, player_user, personas, who):
    army_list = send(player_user, entry)
    user = personas[who]
    assert list_visible(user or AnonymousUser(), army_list) is (who in SEES)
    if user is not None:
        client.force_login(user)
    response = client.get(f"/tournaments/army-lists/{army_list.pk}/file/")
    assert response.status_code == (200 if who in SEES else 404)
    if who in SEES:
        assert response["Content-Disposition"].startswith("attachment;")
        assert bytes(response.content) == bytes(ArmyList.objects.get().content)
    entries_page = client.get(f"/board/tournaments/{entry.tournament_id}/entries/")
    assert entries_page.status_code == {"player": 403, "other_player": 403, "other_referee": 403,
                                        "anonymous": 302}.get(who, 200)
    tournament_page = client.get(f"/tournaments/{entry.tournament_id}/").content.decode()
    assert f"/army-lists/{army_list.pk}/file/" not in tournament_page


def test_every_list_is_published_together_once_entries_close_and_every_list_is_compliant(
        client, entry, player_user, other_user, other_linked, checker):
    tournament = entry.tournament
    deadline = tournament.announcement.list_deadline
    other = entry_register(user=other_user, tournament=tournament, pool="A")
    mine = send(player_user, entry)
    theirs = send(other_user, other, url="https://www.littlearmybuilder.com/list/7")
    army_list_check(user=checker, army_list=mine, compliant=True)
    after = deadline + timedelta(days=1)
    assert not lists_published(tournament=tournament, today=after)  # one list still to check: none shown
    army_list_check(user=checker, army_list=theirs, compliant=True)
    assert not lists_published(tournament=tournament, today=deadline)  # entries still open: none shown
    assert lists_published(tournament=tournament, today=after)
    Entry.objects.filter(pk=other.pk).update(listed_without_name=True)
    # Entries closed: the lists are on the page for everyone, all together.
    tournament.announcement.list_deadline = timezone.localdate() - timedelta(days=1)
    tournament.announcement.save()
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f"/army-lists/{mine.pk}/file/" in page and "littlearmybuilder.com/list/7" in page
    assert "Joueur Autre" not in page  # listed without the name: the list, not the name
    assert client.get(f"/tournaments/army-lists/{mine.pk}/file/").status_code == 200
    # A list returned afterwards hides them all again: never a partial announcement.
    army_list_check(user=checker, army_list=theirs, compliant=False, comment="Wrong ally.")
    assert f"/army-lists/{mine.pk}/file/" not in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert client.get(f"/tournaments/army-lists/{mine.pk}/file/").status_code == 404


def test_lists_are_never_published_when_the_announcement_says_so(entry, player_user, checker, referee):
    tournament = entry.tournament
    announce(tournament, referee, list_checker=checker, lists_published=False)
    army_list_check(user=checker, army_list=send(player_user, entry), compliant=True)
    tournament = Tournament.objects.get(pk=tournament.pk)
    assert not lists_published(tournament=tournament, today=tournament.start_date)


def test_a_rival_entered_in_the_same_tournament_and_a_referee_of_another_never_see_a_list_before_publication(
        client, entry, player_user, other_user, other_linked, other_referee, checker):
    """The people most curious about a list: a rival entered in the same pool, with a list of their own, and a
    referee, but of another tournament. Neither sees it, on any page, until every list is published."""
    tournament = entry.tournament
    make_tournament("Tournoi voisin", start=tournament.start_date, referees=[other_referee])
    rival = entry_register(user=other_user, tournament=tournament, pool="A")
    theirs = send(other_user, rival, url="https://www.littlearmybuilder.com/list/rival")
    mine = send(player_user, entry, url="https://www.littlearmybuilder.com/list/mine")
    army_list_check(user=checker, army_list=mine, compliant=True)
    closed = tournament.announcement.list_deadline + timedelta(days=1)
    for user in (other_user, other_referee):
        assert not list_visible(user, mine, today=closed)  # entries closed, the rival's list still to check
        client.force_login(user)
        for url in (f"/tournaments/{tournament.pk}/", f"/tournaments/{tournament.pk}/entry/",
                    f"/tournaments/army-lists/{mine.pk}/file/", f"/board/tournaments/{tournament.pk}/entries/"):
            response = client.get(url)
            assert b"list/mine" not in response.content, (user, url)
    assert list_visible(other_user, theirs)  # their own, of course
    army_list_check(user=checker, army_list=theirs, compliant=True)
    assert list_visible(other_user, mine, today=closed) and list_visible(other_referee, mine, today=closed)


def test_once_published_only_each_entered_players_current_list_is_public(client, entry, player_user, checker,
                                                                        other_user, other_linked):
    """Published all together means the lists the checker found compliant: not a list returned before them, nor
    the list of a player who withdrew."""
    tournament = entry.tournament
    returned = send(player_user, entry)
    army_list_check(user=checker, army_list=returned, compliant=False, comment="Wrong ally.")
    current = send(player_user, entry, file_name="again.pdf", data=PDF)
    army_list_check(user=checker, army_list=current, compliant=True)
    gone = entry_register(user=other_user, tournament=tournament, pool="A")
    withdrawn = send(other_user, gone)
    entry_withdraw(user=other_user, entry=gone)
    Announcement.objects.filter(pk=tournament.pk).update(list_deadline=timezone.localdate() - timedelta(days=1))
    tournament = Tournament.objects.get(pk=tournament.pk)  # entries closed yesterday
    assert lists_published(tournament=tournament)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    shown = [row.pk for row in (current, returned, withdrawn) if f"/army-lists/{row.pk}/file/" in page]
    assert shown == [current.pk]
    visible = [row.pk for row in ArmyList.objects.select_related("entry__tournament")  # read afresh: closed now
               if list_visible(AnonymousUser(), row)]
    assert visible == [current.pk] and returned.pk != current.pk and withdrawn.pk not in visible
    for row, status in ((current, 200), (returned, 404), (withdrawn, 404)):
        assert client.get(f"/tournaments/army-lists/{row.pk}/file/").status_code == status


# --- identical lists ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "flagged"), [(19, True), (20, False)])
def test_three_identical_lists_are_flagged_under_20_players_not_from_20(announced, players, flagged, client,
                                                                         referee):
    for n in range(players):
        player = make_player(f"Joueur{n}", "J")
        entry = Entry.objects.create(tournament=announced, player=player, pool="A")
        ArmyList.objects.create(entry=entry, army_name="Carthaginian" if n < 3 else f"Army {n}",
                                army_number="45" if n < 3 else str(100 + n), kind="link",
                                url="https://example.org/")
    flags = identical_flags(tournament=announced)
    assert bool(flags) is flagged
    if flagged:
        assert (flags[0].army_number, len(flags[0].entries), flags[0].limit) == ("45", 3, 2)
    client.force_login(referee)
    page = client.get(f"/board/tournaments/{announced.pk}/entries/").content.decode()
    assert ("identical-lists" in page) is flagged


@pytest.mark.parametrize(("players", "spare", "identical", "flagged"), [
    (20, False, 4, True),  # from 20 players: 3 allowed, a fourth is flagged
    (19, False, 2, False),  # under 20: 2 allowed
    (19, True, 3, True),  # the spare plays under ID 99 and is not one of the 20: still 2 allowed
])
def test_the_identical_lists_limit_counts_the_pools_players_not_the_spare(announced, players, spare, identical,
                                                                           flagged):
    for n in range(players + spare):
        entry = Entry.objects.create(tournament=announced, player=make_player(f"Joueur{n}", "J"), pool="A",
                                     as_spare=spare and n == players)
        ArmyList.objects.create(entry=entry, army_name="Carthaginian", kind="link", url="https://example.org/",
                                army_number="45" if n < identical else str(100 + n))
    flags = identical_flags(tournament=announced)
    assert bool(flags) is flagged
    if flagged:
        assert (len(flags[0].entries), flags[0].limit) == (identical, 3 if players >= 20 else 2)


# --- a late list -------------------------------------------------------------------------------------------------


def test_a_list_sent_after_the_deadline_costs_20_points(entry, player_user):
    deadline = entry.tournament.announcement.list_deadline
    assert send(player_user, entry, now=after_deadline(deadline)).late
    entry.refresh_from_db()
    assert entry.list_late


def test_a_returned_list_sent_again_after_the_deadline_is_not_late(entry, player_user, checker):
    deadline = entry.tournament.announcement.list_deadline
    army_list_check(user=checker, army_list=send(player_user, entry), compliant=False, comment="Fix it.")
    send(player_user, entry, now=after_deadline(deadline))
    entry.refresh_from_db()
    assert not entry.list_late


def test_the_referee_sees_the_penalty_and_lifts_it_with_a_reason(client, entry, player_user, referee, checker):
    send(player_user, entry, now=after_deadline(entry.tournament.announcement.list_deadline))
    client.force_login(referee)
    url = f"/board/tournaments/{entry.tournament_id}/entries/"
    assert "late list: −20" in client.get(url).content.decode()
    with pytest.raises(Forbidden):
        late_penalty_lift(user=checker, entry=entry, reason="x")
    refused = client.post(f"{url}{entry.pk}/lift/", {f"lift-{entry.pk}-reason": ""})
    assert refused.status_code == 400
    done = client.post(f"{url}{entry.pk}/lift/", {f"lift-{entry.pk}-reason": "The post office lost it."})
    assert done.status_code == 302
    entry.refresh_from_db()
    assert entry.penalty_lifted_reason == "The post office lost it."
    assert AuditEntry.objects.get(action="entry_penalty_lift").changes["reason"] == "The post office lost it."
