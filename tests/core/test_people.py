"""core.people: a typed name is read against the roster; who may enter and resolve."""

from __future__ import annotations

import pytest

from recount_desk.core.people import Person, Role, Roster, who_enters, who_resolves

KIM = Person(1, "Kim Nguyen", Role.DEPUTY)
KEVIN = Person(2, "Kevin Nguyen", Role.DEPUTY)
ANA = Person(3, "Ana María Ortiz", Role.DEPUTY)
SUP = Person(4, "Helen Strand", Role.SUPERVISOR)
CLERK = Person(5, "Diana Carroll", Role.ELECTION_OFFICER)
BOARD = Person(6, "Evelyn Marsh", Role.BOARD_MEMBER)
ROSTER = Roster((KIM, KEVIN, ANA, SUP, CLERK, BOARD))


@pytest.mark.parametrize(("typed", "person"), [
    ("Kim Nguyen", KIM),
    ("  kim   NGUYEN ", KIM),
    ("Nguyen, Kim", KIM),
    ("Ki. Nguyen", KIM),
    ("Ana Maria Ortiz", ANA),
    ("A. M. Ortiz", ANA),
    ("Ana Ortiz", ANA),
    ("helen strand", SUP),
], ids=["exact", "case-and-spaces", "last-first", "initials", "accents", "two-initials",
        "middle-name-left-out", "lower-case"])
def test_a_typed_name_resolves_to_one_person(typed: str, person: Person) -> None:
    assert ROSTER.who(typed).person == person


@pytest.mark.parametrize(("typed", "refusal"), [
    ("K. Nguyen", "could be Kim Nguyen or Kevin Nguyen"),
    ("Mickey Mouse", "not on this case's roster"),
    ("Kim", "not on this case's roster"),
    ("   ", "Give the person's name"),
], ids=["ambiguous-initial", "stranger", "first-name-only", "blank"])
def test_a_name_the_roster_cannot_resolve_is_refused_with_the_reason(typed: str,
                                                                    refusal: str) -> None:
    who = ROSTER.who(typed)
    assert who.person is None
    assert refusal in who.refusal


def test_with_one_kim_the_initial_is_enough() -> None:
    roster = Roster((KIM, SUP))
    assert roster.who("K. Nguyen").person == KIM
    assert roster.same_person("K. Nguyen", "Kim Nguyen")


@pytest.mark.parametrize(("second", "ok"), [
    ("Kevin Nguyen", True),
    ("Kim Nguyen", False),
    ("kim nguyen", False),
    ("Nguyen, Kim", False),
    ("Ki Nguyen", False),
    ("Mickey Mouse", False),
], ids=["another-person", "same", "same-lower", "same-last-first", "same-initial",
        "stranger"])
def test_the_second_entry_is_by_another_person_of_the_roster(second: str, ok: bool) -> None:
    who = who_enters(ROSTER, second, "Kim Nguyen")
    assert (who.person is not None) is ok


@pytest.mark.parametrize(("by", "joint", "note", "recorded", "refusal"), [
    ("Helen Strand", False, "Tape re-read", "Helen Strand", ""),
    ("Diana Carroll", False, "Ballots looked at", "Diana Carroll", ""),
    ("Kim Nguyen", False, "I keep mine", "", "made one of the two entries"),
    ("K. Nguyen", True, "Re-read together", "Kim Nguyen and Kevin Nguyen, jointly", ""),
    ("Ana Ortiz", False, "Looked", "", "is a deputy"),
    ("Evelyn Marsh", False, "Looked", "", "is a board member"),
    ("Helen Strand", False, "  ", "", "Say in the note"),
    ("", True, "", "", "Say in the note"),
    ("Mickey Mouse", False, "Looked", "", "not on this case's roster"),
], ids=["supervisor", "election-officer", "first-officer-herself", "joint", "deputy",
        "board-member", "no-note", "joint-without-note", "stranger"])
def test_a_difference_is_resolved_by_a_third_supervisor_or_jointly_with_a_note(
        by: str, joint: bool, note: str, recorded: str, refusal: str) -> None:
    r = who_resolves(ROSTER, by, "Kim Nguyen", "Kevin Nguyen", joint=joint, note=note)
    assert r.name == recorded
    assert (refusal in r.refusal) if refusal else r.refusal == ""
    assert r.joint is (joint and not refusal)
