"""The words of pairing's notices and the live refusals (rules.pairing.messages): English sentences marked for the
catalogue (their French: tests/foundation/test_one_catalogue.py), players named, never a bare ID where a name is
known."""

from __future__ import annotations

from rules.pairing import Notice, change_warnings
from rules.pairing.messages import MESSAGES, notice_text
from tests.rules.pairing_helpers import SPARE, make_pool


def test_every_message_is_one_english_sentence_or_more_ending_with_a_full_stop():
    wrong = [code for code, text in MESSAGES.items() if not isinstance(text, str) or not text.rstrip().endswith(".")]
    assert wrong == []


def test_a_warning_says_why_in_players_names():
    names = {1: "Ann Dupont", 2: "Hugo Martin", 3: "Bob Leroy"}.get
    text = notice_text("spare_not_lowest", {"player": 1, "lowest": 2}, names)
    assert text == ("The spare plays Ann Dupont, not Hugo Martin: pairing the spare with Hugo Martin, the lowest "
                    "player who has not met it, would force a rematch among the others.")


def test_a_reason_required_words_the_warnings_it_carries_in_names():
    names = {1: "Ann Dupont", 2: "Hugo Martin"}.get
    text = notice_text("reason_required", {"warnings": [{"code": "club_mates_by_hand", "params": {"a": 1, "b": 2}}]},
                       names)
    assert "Ann Dupont and Hugo Martin are club-mates" in text and "1" not in text


def test_a_swap_bends_the_rules_of_the_pairs_it_makes_only():
    pool = make_pool(6, clubs={1: "X", 2: "X"}, met=[(3, 4), (5, SPARE)], round=2, rounds=4)
    assert change_warnings(pool, [(1, 2), (3, 4)]) == (Notice("rematch", {"a": 3, "b": 4}),
                                                       Notice("club_mates_by_hand", {"a": 1, "b": 2}))
    assert change_warnings(pool, [(1, 3), (2, 4)]) == ()
