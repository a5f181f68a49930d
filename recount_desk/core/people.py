"""The case's roster of people, and who a typed name is.

The statute asks for the recount to be made by the election officer "in the presence of"
the board and watchers (20A-4-401(1)(e)); the double entry of a tally by two people and a
difference settled by a third are the office's safeguard of that count (the statute names
no procedure: this is the program's rule, shown where it applies). A name typed anywhere is
read against the roster, so "K. Nguyen", "nguyen, kim" and "Kim  Nguyen" are one person.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum


class Role(Enum):
    ELECTION_OFFICER = "election_officer"
    SUPERVISOR = "supervisor"
    DEPUTY = "deputy"
    BOARD_MEMBER = "board_member"

    @property
    def label(self) -> str:
        return {Role.ELECTION_OFFICER: "Election officer", Role.SUPERVISOR: "Supervisor",
                Role.DEPUTY: "Deputy", Role.BOARD_MEMBER: "Board member"}[self]

    @property
    def may_resolve(self) -> bool:
        """Who may settle a double-entry difference as the third person: the election
        officer and supervisors (the office's rule for (1)(e); see the module docstring)."""
        return self in (Role.ELECTION_OFFICER, Role.SUPERVISOR)


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    name: str
    role: Role


def _tokens(name: str) -> list[str]:
    """A name's words, case-folded, accents and punctuation dropped; "Last, First" is read
    as "First Last"."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    if text.count(",") == 1:
        last, first = text.split(",")
        text = f"{first} {last}"
    return [t for t in re.split(r"[\s.,'’\-]+", text) if t]


def _matches(typed: list[str], full: list[str]) -> bool:
    """The same surname, and every other typed word the start of one of the person's other
    words, in order ("K. Nguyen", "Kim T. Nguyen" for Kim Thi Nguyen)."""
    if not typed or not full or typed[-1] != full[-1]:
        return False
    rest = iter(full[:-1])
    return all(any(word.startswith(t) for word in rest) for t in typed[:-1])


@dataclass(frozen=True, slots=True)
class Who:
    """Who a typed name is on the roster: ``person``, or ``refusal`` saying why not."""

    person: Person | None
    refusal: str = ""


@dataclass(frozen=True)
class Roster:
    people: tuple[Person, ...]

    def who(self, name: str) -> Who:
        """The person a typed name resolves to: the exact name (case, spacing, accents and
        punctuation aside) first, else a unique match of surname and initials."""
        typed = _tokens(name or "")
        if not typed:
            return Who(None, "Give the person's name.")
        exact = [p for p in self.people if _tokens(p.name) == typed]
        if len(exact) == 1:
            return Who(exact[0])
        loose = exact or [p for p in self.people if _matches(typed, _tokens(p.name))]
        if len(loose) == 1:
            return Who(loose[0])
        if loose:
            return Who(None, f"“{name.strip()}” could be "
                       + " or ".join(p.name for p in loose) + ": give the full name.")
        return Who(None, f"{name.strip()} is not on this case's roster of people; the "
                   "election officer adds people to it (Edit › People…).")

    def by_id(self, person_id: int) -> Person | None:
        return next((p for p in self.people if p.id == person_id), None)

    @property
    def election_officer(self) -> Person | None:
        return next((p for p in self.people if p.role is Role.ELECTION_OFFICER), None)

    def same_person(self, a: str, b: str) -> bool:
        """Whether two typed names are one person of the roster (or the same text)."""
        pa, pb = self.who(a).person, self.who(b).person
        if pa is not None and pb is not None:
            return pa.id == pb.id
        return _tokens(a) == _tokens(b)


def who_enters(roster: Roster, officer: str, other_entry_by: str | None) -> Who:
    """Who makes an entry of a tally sheet: a person of the roster; for the second entry of
    double entry (or the first, when the second is made), not the person who made the other
    entry, in any spelling of their name. Asked before any figure is typed."""
    who = roster.who(officer)
    if who.person is None:
        return who
    if other_entry_by is not None and roster.same_person(other_entry_by, who.person.name):
        return Who(None, f"{who.person.name} made the other entry of this sheet: double entry "
                   "needs a second person, who enters it without seeing the first.")
    return who


@dataclass(frozen=True, slots=True)
class Resolver:
    """Who is recorded as having settled a double-entry difference, or why nobody may."""

    name: str
    joint: bool = False
    refusal: str = ""


def who_resolves(roster: Roster, by: str, first_by: str, second_by: str, *, joint: bool,
                 note: str) -> Resolver:
    """A difference is settled by a third person of the roster who may supervise (election
    officer or supervisor), or by the two officers together, recorded as joint; always with
    a note of what was checked."""
    if not (note or "").strip():
        return Resolver("", False, "Say in the note what was checked (the sheet, the tape, "
                        "the ballots) to settle the difference; it is kept in the audit log.")
    first = roster.who(first_by).person
    second = roster.who(second_by).person
    first_name = first.name if first else first_by
    second_name = second.name if second else second_by
    if joint:
        return Resolver(f"{first_name} and {second_name}, jointly", True)
    who = roster.who(by)
    if who.person is None:
        return Resolver("", False, who.refusal)
    p = who.person
    if any(o is not None and o.id == p.id for o in (first, second)) or \
            p.name in (first_by, second_by):
        return Resolver("", False, f"{p.name} made one of the two entries: a third person "
                        "settles the difference, or the two officers together (record it "
                        "as joint).")
    if not p.role.may_resolve:
        return Resolver("", False, f"{p.name} is a {p.role.label.lower()}: a difference is "
                        "settled by the election officer or a supervisor, or by the two "
                        "officers together (joint).")
    return Resolver(p.name)
