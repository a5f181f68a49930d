"""The election model: elections, contests, choices and canvass totals, as frozen values.

Pure Python, no I/O. Votes are ``int``. The vocabulary follows Utah Code Title 20A:
an election has a kind (20A-1-102), a contest is a race between candidates
(20A-4-401(1)) or a ballot/bond proposition (20A-4-401(2)).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum


class ElectionKind(StrEnum):
    """The kind of election; it decides the filing office and the deadline (20A-4-401(1)(d))."""

    GENERAL = "general"
    PRIMARY = "primary"
    MUNICIPAL_GENERAL = "municipal_general"
    MUNICIPAL_PRIMARY = "municipal_primary"
    SPECIAL_DISTRICT = "special_district"
    SPECIAL = "special"

    @property
    def label(self) -> str:
        return {
            "general": "Regular general election",
            "primary": "Regular primary election",
            "municipal_general": "Municipal general election",
            "municipal_primary": "Municipal primary election",
            "special_district": "Special (local) district election",
            "special": "Special election",
        }[self.value]

    @property
    def is_primary(self) -> bool:
        return self in (ElectionKind.PRIMARY, ElectionKind.MUNICIPAL_PRIMARY)

    @property
    def is_municipal(self) -> bool:
        return self in (ElectionKind.MUNICIPAL_GENERAL, ElectionKind.MUNICIPAL_PRIMARY)


class Scope(StrEnum):
    """Where a contest is voted on; it decides the filing office (20A-4-401(1)(d), (2)(c))."""

    MUNICIPAL = "municipal"
    SPECIAL_DISTRICT = "special_district"
    COUNTY = "county"
    MULTICOUNTY = "multicounty"
    STATEWIDE = "statewide"

    @property
    def label(self) -> str:
        return {
            "municipal": "Municipal",
            "special_district": "Special district",
            "county": "Within one county",
            "multicounty": "Multicounty",
            "statewide": "Statewide",
        }[self.value]


class ContestKind(StrEnum):
    RACE = "race"
    PROPOSITION = "proposition"


class VotingMethod(StrEnum):
    PLURALITY = "plurality"
    IRV = "irv"


class PassRule(StrEnum):
    """How many votes a proposition needs (20A-4-304(1)(c); Utah Const. art. VI §1)."""

    MAJORITY = "majority"
    TWO_THIRDS = "two_thirds"


class ChoiceKind(StrEnum):
    CANDIDATE = "candidate"
    WRITE_IN = "write_in"
    FOR = "for"
    AGAINST = "against"


class ExtraKind(StrEnum):
    """Counts kept apart from candidate votes: they are never votes for a choice."""

    OVER = "over"
    UNDER = "under"
    BLANK = "blank"


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


class Remedy(StrEnum):
    """What the officer can do about an issue, which each front end words in its own terms
    (the window's contest settings, the command line's ``--seats``): the message itself says
    only what is wrong, so neither front end shows the other's controls."""

    SET_SEATS = "set the seats"
    MAP_COLUMNS = "map the columns"
    CHOOSE_SHEET = "choose the sheet"


@dataclass(frozen=True, slots=True)
class Issue:
    """Something an importer or a check found: where it is, and what is wrong, in plain words;
    ``remedy``: what to do about it, worded by the front end showing it; ``contest``: the
    contest whose rows it is in, where the reader knows it (an error naming none could be
    any contest's)."""

    file: str
    message: str
    sheet: str | None = None
    row: int | None = None
    column: str | None = None
    severity: Severity = Severity.WARNING
    remedy: Remedy | None = None
    contest: ContestKey | None = None
    # An error in how the contest's figures hang together as one contest (a candidate
    # spelled two ways, two contests under one title), not in any cell: it withholds that
    # contest's verdict only, and the file can be imported with the others.
    only_contest: bool = False

    def where(self) -> str:
        parts = [self.file]
        if self.sheet:
            parts.append(f"sheet {self.sheet!r}")
        if self.row is not None:
            parts.append(f"row {self.row}")
        if self.column:
            parts.append(f"column {self.column!r}")
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"{self.where()}: {self.message}"


@dataclass(frozen=True, slots=True)
class Election:
    name: str
    date: date
    kind: ElectionKind
    jurisdiction: str
    canvass_completed: datetime | None = None
    officer: str = ""


@dataclass(frozen=True, slots=True, order=True)
class ContestKey:
    """A contest's identity: title, district and, in a primary, the party whose race it is."""

    title: str
    district: str = ""
    party: str = ""

    def label(self) -> str:
        text = self.title
        if self.district and self.district not in self.title:
            text += f" — District {self.district}"
        if self.party:
            text += f" ({self.party})"
        return text


@dataclass(frozen=True, slots=True)
class Choice:
    name: str
    party: str = ""
    kind: ChoiceKind = ChoiceKind.CANDIDATE


@dataclass(frozen=True, slots=True)
class Contest:
    key: ContestKey
    kind: ContestKind = ContestKind.RACE
    seats: int = 1
    scope: Scope = Scope.COUNTY
    voting_method: VotingMethod = VotingMethod.PLURALITY
    pass_rule: PassRule = PassRule.MAJORITY
    seats_from_file: bool = False


_AGGREGATE_WORDS = frozenset({"write", "in", "ins", "writein", "writeins", "total", "totals",
                              "votes", "vote", "all", "other", "others", "scattered",
                              "scattering", "candidates", "candidate", "qualified"})


def is_aggregate_write_in(choice: Choice) -> bool:
    """True for the file's single "Write-ins" line (all write-in votes lumped together), and
    for the write-in votes not assigned to a named write-in candidate ("NOT ASSIGNED",
    "Unassigned write-ins"), which are counted in the race's total but are no candidate
    (20A-4-401(1)(b): "a losing candidate" may ask); False for a named write-in
    candidate ("Write-in: Jane Doe", "Jane Doe (Write-in)"), who may win or ask."""
    return is_aggregate_write_in_name(choice.name)


@functools.lru_cache(maxsize=4096)
def is_aggregate_write_in_name(name: str) -> bool:
    """:func:`is_aggregate_write_in` of a choice's name (a reader's test of its rows)."""
    # (asked once per choice by every rule of every check: the answer is kept per name)
    words = re.findall(r"[^\W\d_]+", name.casefold().replace("not assigned", "unassigned")
                       .replace("un-assigned", "unassigned"))
    if not words:
        return False
    if "unassigned" in words:
        return all(w in _AGGREGATE_WORDS or w == "unassigned" for w in words)
    if not any(w.startswith("write") for w in words):
        return False
    return all(w in _AGGREGATE_WORDS for w in words)


@dataclass(frozen=True, slots=True)
class ChoiceTotal:
    choice: Choice
    votes: int


@dataclass(frozen=True, slots=True)
class VoteColumn:
    """One choice's canvass votes by precinct, as two parallel integer columns.

    ``precincts`` holds precinct numbers (1-based positions in the canvass's precinct list),
    ascending; ``votes`` the votes in each. ``contest`` and ``choice`` are 0-based positions
    of the contest in the canvass and of the choice in its contest.
    """

    contest: int
    choice: int
    precincts: Sequence[int]
    votes: Sequence[int]


@dataclass(frozen=True, slots=True)
class ContestTotals:
    """A contest with the total votes of each choice, and its over/under/blank counts apart."""

    contest: Contest
    choices: tuple[ChoiceTotal, ...]
    extras: Mapping[ExtraKind, int] = field(default_factory=dict)
    precincts: int = 0
    # The choices' votes are the file's own official totals (its totals row or summary
    # sheet), not the sum of its precinct rows: hidden precinct cells do not matter then.
    official: bool = False
    # Precinct cells the file hides (privacy marks such as '*') or leaves blank, which the
    # votes above do not include (0 unless ``official`` is False).
    hidden_cells: int = 0
    # For each choice with hidden cells: the most they could add (None: no limit is known,
    # e.g. no ballots-cast figure for the precinct). Absent choices have nothing hidden.
    hidden_max: Mapping[str, int | None] = field(default_factory=dict)
    # Where the file's official totals and its precinct rows disagree: what the precincts
    # add up to, per choice (empty when they agree). The verdict must hold on both.
    precinct_sums: Mapping[str, int] = field(default_factory=dict)

    @property
    def incomplete(self) -> bool:
        """Some counts are hidden and the file has no official totals to stand in for them."""
        return self.hidden_cells > 0 and not self.official

    @property
    def total(self) -> int:
        """All votes cast for all choices, write-ins included (20A-4-401(1)(b), (2)(a))."""
        return sum(c.votes for c in self.choices)

    def votes_of(self, name: str) -> int:
        for c in self.choices:
            if c.choice.name == name:
                return c.votes
        raise KeyError(name)


def looks_like_proposition(names: Iterable[str]) -> bool:
    """True when the choices are for/against (yes/no) rather than candidates."""
    norm = {_norm_stance(n) for n in names}
    norm.discard(None)
    return norm == {ChoiceKind.FOR, ChoiceKind.AGAINST}


def stance_of(name: str) -> ChoiceKind | None:
    """FOR or AGAINST for a proposition's choice name, None for anything else."""
    return _norm_stance(name)


_FOR_WORDS = ("yes", "for", "approve", "approved", "in favor", "retain", "for the issuance")
_AGAINST_WORDS = ("no", "against", "reject", "rejected", "not retain", "do not retain",
                  "against the issuance")


# The words of a bilingual or doubled stance ('Yes/For', 'No/Against', 'YES/SI'), each one
# the same stance.
_STANCE_PARTS = {"yes": ChoiceKind.FOR, "for": ChoiceKind.FOR, "si": ChoiceKind.FOR,
                 "sí": ChoiceKind.FOR, "no": ChoiceKind.AGAINST, "against": ChoiceKind.AGAINST}


@functools.lru_cache(maxsize=4096)  # (asked of every choice of every contest read)
def _norm_stance(name: str) -> ChoiceKind | None:
    # (a stray mark at either end, as a scan read into text leaves it: 'NO,')
    n = " ".join(name.lower().replace(".", " ").split()).strip(",;:*")
    if not n:
        return None
    if "/" in n:
        parts = {_STANCE_PARTS.get(p.strip()) for p in n.split("/")}
        return parts.pop() if len(parts) == 1 else None
    if "," in n:  # the measure's name, then its stance ('BOND APPROVAL, YES': Pima's)
        last = n.rsplit(",", 1)[1].strip()
        if last in _STANCE_PARTS:
            return _STANCE_PARTS[last]
    if n in _AGAINST_WORDS or n.startswith(("against", "no ")) or n.startswith("do not"):
        return ChoiceKind.AGAINST
    if n in _FOR_WORDS or n.startswith(("for ", "yes ")):
        return ChoiceKind.FOR
    return None
