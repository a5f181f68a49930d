"""The recount itself, as pure rules: tally sheets, double entry, envelopes, declaration, board.

Utah Code 20A-4-401 (docs/statute-20A-4-401.txt) asks the election officer to supervise the
recount and recount all ballots cast for the race or proposition ((1)(e)(i)-(ii),
(2)(d)(i)-(ii)), to reexamine all unopened absentee ballots ((1)(e)(iii), (2)(d)(iii)), to
declare the result ((1)(e)(iv)-(v), (2)(d)(iv)), and, on completion, to convene the board of
canvassers, which canvasses the returns and signs the report ((4)(a)-(b)). Proponents and
opponents may designate witnesses ((2)(e)); costs follow (2)(f), subsection (3) (2013 text)
or 2024 H.B. 515. A tie that remains after the recount is decided by lot (20A-1-304).

Facts that are not confirmed (docs/utah-law-notes.md §3, §5) are carried as assumption
strings on the decisions that rely on them, so the window and the report can say so.

Nothing here touches a file or a clock: the store and the actions feed these functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time
from enum import StrEnum
from functools import cached_property

from .calendar import Closed, add_days_utah, long_date
from .model import (
    Choice,
    ChoiceKind,
    ChoiceTotal,
    ContestKind,
    ContestTotals,
    ElectionKind,
    Scope,
)
from .people import Roster, Who, who_enters, who_resolves
from .rules import (
    Edition,
    Outcome,
    Result,
    lot_meeting_deadline,
    outcome,
    places,
    who_pays,
)

# --------------------------------------------------------------------------------------
# Settings and units
# --------------------------------------------------------------------------------------


class RecountMethod(StrEnum):
    """How the ballots are recounted (20A-4-401(1)(e)(ii), (2)(d)(ii)).

    Utah recounts normally re-run the ballots through the tabulators, the method used on
    election day; hand counting is discretionary (utah-law-notes §5d, SECONDARY).
    """

    RETABULATION = "retabulation"
    HAND_COUNT = "hand_count"

    @property
    def label(self) -> str:
        return {"retabulation": "Re-tabulation", "hand_count": "Hand count"}[self.value]

    @property
    def description(self) -> str:
        """The method as the report states it."""
        if self is RecountMethod.RETABULATION:
            return "Ballots re-tabulated on the election's tabulating equipment"
        return "Ballots counted by hand"


class EntryMode(StrEnum):
    """Whether each tally sheet is entered once, or twice by two officers (double entry)."""

    SINGLE = "single"
    DOUBLE = "double"

    @property
    def label(self) -> str:
        return {"single": "Single entry", "double": "Double entry"}[self.value]


class UnitKind(StrEnum):
    """Units of the recount: the canvass precincts, or counting batches named by the officer."""

    PRECINCTS = "precincts"
    BATCHES = "batches"


@dataclass(frozen=True, slots=True)
class RecountUnit:
    """One tally sheet's worth of ballots: a precinct, or a batch covering some precincts."""

    name: str
    precincts: tuple[str, ...]


def units_from_precincts(precincts: Iterable[str]) -> tuple[RecountUnit, ...]:
    """One unit per canvass precinct, in canvass order."""
    return tuple(RecountUnit(p, (p,)) for p in precincts)


def check_units(units: Sequence[RecountUnit], precincts: Sequence[str]) -> tuple[str, ...]:
    """Problems with a set of units: every precinct of the contest in exactly one unit.

    All ballots cast for the race must be recounted (20A-4-401(1)(e)(ii), (2)(d)(ii)), so a
    precinct left out, or counted in two batches, is refused.
    """
    problems: list[str] = []
    if not units:
        problems.append("Name at least one unit (a precinct or a counting batch).")
    names: set[str] = set()
    seen: dict[str, str] = {}
    known = set(precincts)
    for u in units:
        label = u.name.strip()
        if not label:
            problems.append("Every unit needs a name.")
        elif label in names:
            problems.append(f"Two units are named {label!r}.")
        names.add(label)
        if not u.precincts:
            problems.append(f"Unit {label!r} covers no precinct.")
        for p in u.precincts:
            if p not in known:
                problems.append(f"Unit {label!r}: precinct {p!r} has no votes in this contest.")
            elif p in seen:
                problems.append(f"Precinct {p!r} is in both {seen[p]!r} and {label!r}.")
            else:
                seen[p] = label
    missing = [p for p in precincts if p not in seen]
    if missing:
        problems.append("Not covered by any unit (all ballots must be recounted, "
                        "20A-4-401(1)(e)(ii)): " + ", ".join(missing) + ".")
    return tuple(problems)


# --------------------------------------------------------------------------------------
# Tally sheets
# --------------------------------------------------------------------------------------

BALLOTS = "ballots"
WRITE_INS = "write_ins"
OVER = "over"
UNDER = "under"
VOTES_PREFIX = "votes:"


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """What a contest's tally sheet asks for: its choices, seats and a write-in line."""

    choices: tuple[str, ...]
    seats: int = 1
    write_in_line: bool = True

    @classmethod
    def for_contest(cls, totals: ContestTotals) -> SheetLayout:
        """Races have a line for write-ins not listed as choices; propositions do not."""
        return cls(tuple(c.choice.name for c in totals.choices),
                   max(1, totals.contest.seats),
                   totals.contest.kind is ContestKind.RACE)

    def fields(self) -> tuple[str, ...]:
        """Field keys in paper order: ballots, each choice, write-ins, over, under."""
        out = [BALLOTS, *(VOTES_PREFIX + c for c in self.choices)]
        if self.write_in_line:
            out.append(WRITE_INS)
        return (*out, OVER, UNDER)


def field_label(key: str) -> str:
    """A field key as the paper sheet names it."""
    if key.startswith(VOTES_PREFIX):
        return key[len(VOTES_PREFIX):]
    return {BALLOTS: "Ballots counted", WRITE_INS: "Write-ins", OVER: "Over-votes",
            UNDER: "Under-votes"}.get(key, key)


@dataclass(frozen=True, slots=True)
class TallySheet:
    """The numbers on one tally sheet; ``None`` means not entered yet, which is not zero."""

    ballots: int | None = None
    votes: Mapping[str, int | None] = field(default_factory=dict)
    write_ins: int | None = None
    over: int | None = None
    under: int | None = None

    def value(self, key: str) -> int | None:
        if key.startswith(VOTES_PREFIX):
            return self.votes.get(key[len(VOTES_PREFIX):])
        return {BALLOTS: self.ballots, WRITE_INS: self.write_ins, OVER: self.over,
                UNDER: self.under}[key]

    def missing(self, layout: SheetLayout) -> tuple[str, ...]:
        """The fields of ``layout`` not entered yet."""
        return tuple(k for k in layout.fields() if self.value(k) is None)

    def complete(self, layout: SheetLayout) -> bool:
        return not self.missing(layout)

    def problems(self, layout: SheetLayout) -> tuple[str, ...]:
        """Values no tally sheet can hold: negative counts, or choices the contest lacks."""
        out = [f"{field_label(k)} cannot be negative." for k in layout.fields()
               if (v := self.value(k)) is not None and v < 0]
        extra = sorted(set(self.votes) - set(layout.choices))
        if extra:
            out.append("Not a choice in this contest: " + ", ".join(extra) + ".")
        if not layout.write_in_line and self.write_ins not in (None, 0):
            out.append("This contest has no write-in line.")
        return tuple(out)

    def choice_votes(self, name: str) -> int:
        return self.votes.get(name) or 0

    def vote_sum(self) -> int:
        """Votes for all choices plus write-ins (entered fields only)."""
        return sum(v or 0 for v in self.votes.values()) + (self.write_ins or 0)


def sheet_from_fields(values: Mapping[str, int | None], layout: SheetLayout) -> TallySheet:
    """A sheet from field keys (as ``SheetLayout.fields`` names them), e.g. a form's values."""
    return TallySheet(
        values.get(BALLOTS),
        {c: values.get(VOTES_PREFIX + c) for c in layout.choices},
        values.get(WRITE_INS) if layout.write_in_line else 0,
        values.get(OVER),
        values.get(UNDER),
    )


@dataclass(frozen=True, slots=True)
class ConsistencyCheck:
    """``ballots × seats = votes + under-votes + over-votes`` on one sheet.

    A failed check is a warning the officer may accept with a note, never a silent save and
    never a hard block. It is the recount's own form of the ballot reconciliation of
    20A-4-109 (utah-law-notes §2b); over- and under-votes are counted as vote positions, so
    an over-voted ballot in a race for ``seats`` seats counts ``seats`` over-votes.
    """

    ok: bool
    expected: int
    actual: int
    text: str
    basis: str = "20A-4-109 (reconciliation, applied to the recount)"

    @property
    def difference(self) -> int:
        return self.actual - self.expected


def consistency(sheet: TallySheet, layout: SheetLayout) -> ConsistencyCheck | None:
    """The check, or ``None`` while the sheet is incomplete (nothing to check yet)."""
    if not sheet.complete(layout):
        return None
    ballots, over, under = sheet.ballots or 0, sheet.over or 0, sheet.under or 0
    expected = ballots * layout.seats
    votes = sheet.vote_sum()
    actual = votes + under + over
    seats = f" × {layout.seats} seats" if layout.seats > 1 else ""
    if expected == actual:
        return ConsistencyCheck(True, expected, actual,
                                f"{ballots:,} ballots{seats} = {votes:,} votes + "
                                f"{under:,} under + {over:,} over.")
    return ConsistencyCheck(
        False, expected, actual,
        f"{ballots:,} ballots{seats} = {expected:,}, but votes + under + over = "
        f"{votes:,} + {under:,} + {over:,} = {actual:,} "
        f"({actual - expected:+,}). Check the sheet, or accept it with a note.")


@dataclass(frozen=True, slots=True)
class TallyEntry:
    """One officer's entry of a unit's sheet: entry 1, or entry 2 made blind (double entry)."""

    number: int
    officer: str
    sheet: TallySheet
    warning_note: str = ""


@dataclass(frozen=True, slots=True)
class FieldDiff:
    """A field the two entries disagree on, for the side-by-side view."""

    key: str
    label: str
    first: int | None
    second: int | None


def compare(first: TallySheet, second: TallySheet, layout: SheetLayout) -> tuple[FieldDiff, ...]:
    """Fields that differ between the two entries of a double-entered sheet."""
    return tuple(FieldDiff(k, field_label(k), first.value(k), second.value(k))
                 for k in layout.fields() if first.value(k) != second.value(k))


class ResolutionKind(StrEnum):
    """How a double-entry mismatch was settled: one entry kept, or corrected values."""

    KEEP_FIRST = "keep_first"
    KEEP_SECOND = "keep_second"
    CORRECTED = "corrected"

    @property
    def label(self) -> str:
        return {"keep_first": "Kept the first entry", "keep_second": "Kept the second entry",
                "corrected": "Corrected values"}[self.value]


@dataclass(frozen=True, slots=True)
class Resolution:
    """A recorded resolution; ``sheet`` holds the values it settled on."""

    kind: ResolutionKind
    sheet: TallySheet
    by: str
    note: str = ""
    joint: bool = False  # settled by the two officers together (core.people.who_resolves)


def resolved_sheet(kind: ResolutionKind, first: TallySheet, second: TallySheet,
                   corrected: TallySheet | None) -> TallySheet:
    """The values a resolution settles on."""
    if kind is ResolutionKind.KEEP_FIRST:
        return first
    if kind is ResolutionKind.KEEP_SECOND:
        return second
    if corrected is None:
        raise ValueError("A correction needs the corrected values.")
    return corrected


class UnitStatus(StrEnum):
    """Where one unit stands; only RECONCILED and ACCEPTED_WITH_WARNING count."""

    NOT_STARTED = "not_started"
    FIRST_ENTRY = "first_entry"
    AWAITING_SECOND = "awaiting_second"
    MISMATCH = "mismatch"
    WARNING_NEEDS_NOTE = "warning_needs_note"
    RECONCILED = "reconciled"
    ACCEPTED_WITH_WARNING = "accepted_with_warning"

    @property
    def label(self) -> str:
        return {
            "not_started": "Not started",
            "first_entry": "First entry in progress",
            "awaiting_second": "Awaiting second entry",
            "mismatch": "Entries differ",
            "warning_needs_note": "Check failed: a note is needed",
            "reconciled": "Reconciled",
            "accepted_with_warning": "Accepted with a warning note",
        }[self.value]

    @property
    def counts(self) -> bool:
        return self in (UnitStatus.RECONCILED, UnitStatus.ACCEPTED_WITH_WARNING)


@dataclass(frozen=True, slots=True)
class UnitState:
    """A unit's status, its reconciled sheet (when it counts) and what is left to do."""

    unit: RecountUnit
    status: UnitStatus
    final: TallySheet | None
    diffs: tuple[FieldDiff, ...]
    check: ConsistencyCheck | None
    note: str
    todo: str
    resolution: ResolutionKind | None = None


def unit_state(unit: RecountUnit, layout: SheetLayout, mode: EntryMode,
               first: TallyEntry | None, second: TallyEntry | None,
               resolution: Resolution | None = None) -> UnitState:
    """The status of a unit from its current entries and resolution (20A-4-401(1)(e)(ii)).

    Single entry: the complete first entry is the unit's sheet. Double entry: the second
    entry must match the first field by field, or a recorded resolution settles the
    difference; only then does the unit count. A sheet that fails the consistency check
    counts only with the officer's note.
    """
    if first is None and second is None:
        return UnitState(unit, UnitStatus.NOT_STARTED, None, (), None, "",
                         "Enter the tally sheet.")
    if mode is EntryMode.SINGLE or second is None:
        if first is None or not first.sheet.complete(layout):
            left = first.sheet.missing(layout) if first else layout.fields()
            return UnitState(unit, UnitStatus.FIRST_ENTRY, None, (), None, "",
                             "Not entered yet: " + ", ".join(field_label(k) for k in left)
                             + ".")
        if mode is EntryMode.DOUBLE:
            return UnitState(unit, UnitStatus.AWAITING_SECOND, None, (), None, "",
                             "A second officer enters the same sheet without seeing the "
                             "first entry.")
        return _final_state(unit, layout, first.sheet, first.warning_note, (), None)
    if first is None:
        return UnitState(unit, UnitStatus.FIRST_ENTRY, None, (), None, "",
                         "The first entry is missing.")
    if not first.sheet.complete(layout) or not second.sheet.complete(layout):
        who = "first" if not first.sheet.complete(layout) else "second"
        status = UnitStatus.FIRST_ENTRY if who == "first" else UnitStatus.AWAITING_SECOND
        return UnitState(unit, status, None, (), None, "", f"Complete the {who} entry.")
    diffs = compare(first.sheet, second.sheet, layout)
    if not diffs:
        note = first.warning_note or second.warning_note
        return _final_state(unit, layout, first.sheet, note, (), None)
    if resolution is None:
        return UnitState(unit, UnitStatus.MISMATCH, None, diffs, None, "",
                         f"The entries differ in {len(diffs)} field(s): "
                         + ", ".join(d.label for d in diffs)
                         + ". Keep one entry or correct the values.")
    return _final_state(unit, layout, resolution.sheet, resolution.note, diffs,
                        resolution.kind)


def _final_state(unit: RecountUnit, layout: SheetLayout, sheet: TallySheet, note: str,
                 diffs: tuple[FieldDiff, ...], kind: ResolutionKind | None) -> UnitState:
    if not sheet.complete(layout):
        return UnitState(unit, UnitStatus.MISMATCH, None, diffs, None, "",
                         "The resolved values are incomplete.", kind)
    check = consistency(sheet, layout)
    assert check is not None
    if check.ok:
        return UnitState(unit, UnitStatus.RECONCILED, sheet, diffs, check, note, "", kind)
    if note.strip():
        return UnitState(unit, UnitStatus.ACCEPTED_WITH_WARNING, sheet, diffs, check, note,
                         "", kind)
    return UnitState(unit, UnitStatus.WARNING_NEEDS_NOTE, None, diffs, check, "",
                     check.text, kind)


# --------------------------------------------------------------------------------------
# Unopened absentee (by-mail) envelopes
# --------------------------------------------------------------------------------------

# Dates of 2025 H.B. 300 as read in news reports only (utah-law-notes §5b, NOT CONFIRMED).
HB300_RECEIPT_FROM = date(2025, 5, 7)
HB300_ID_DIGITS_FROM = date(2026, 1, 1)
RECEIPT_NOON = time(12, 0)
RECEIPT_8PM = time(20, 0)


class EnvelopeCheck(StrEnum):
    """The checks made on each unopened envelope (20A-4-401(1)(e)(iii), (2)(d)(iii))."""

    AFFIDAVIT = "affidavit_complete"
    SIGNATURE = "signature_consistent"
    REGISTERED = "registered_in_precinct"
    NOT_VOTED = "not_already_voted"
    IN_TIME = "returned_in_time"
    ID_DIGITS = "id_digits"

    @property
    def label(self) -> str:
        return {
            "affidavit_complete": "Affidavit complete and signed",
            "signature_consistent": "Signature consistent with the record",
            "registered_in_precinct": "Registered in the precinct",
            "not_already_voted": "Not already voted in this election",
            "returned_in_time": "Returned in time",
            "id_digits": "ID digits on the envelope",
        }[self.value]

    @property
    def basis(self) -> str:
        return {
            "affidavit_complete": "20A-3-308(1)(a)(i) (2013); 20A-3a-401",
            "signature_consistent": "20A-3-308(1)(a)(ii) (2013); 20A-3a-401",
            "registered_in_precinct": "20A-3-308(1)(a)(iii) (2013)",
            "not_already_voted": "20A-3-308(1)(a)(iii) (2013)",
            "returned_in_time": "20A-3-306(2)(b) (2013); 2025 H.B. 300",
            "id_digits": "20A-3a-401, as amended by 2025 H.B. 300",
        }[self.value]


@dataclass(frozen=True, slots=True)
class ReturnRule:
    """The law of the election's date on returning a ballot and identifying the voter."""

    text: str
    basis: str
    postmark_required: bool
    id_digits_required: bool
    assumptions: tuple[str, ...]

    def checks(self) -> tuple[EnvelopeCheck, ...]:
        """The checks this rule asks for, in the order an officer makes them."""
        out = [EnvelopeCheck.AFFIDAVIT, EnvelopeCheck.SIGNATURE, EnvelopeCheck.REGISTERED,
               EnvelopeCheck.NOT_VOTED, EnvelopeCheck.IN_TIME]
        if self.id_digits_required:
            out.append(EnvelopeCheck.ID_DIGITS)
        return tuple(out)


def return_rule(election_date: date) -> ReturnRule:
    """Which return deadline and ID rule apply to an election held on ``election_date``.

    Before 2025: postmarked before election day and received before noon on the day of the
    official canvass (20A-3-306(2)(b), 2013 text; same rule for mailed ballots through 2024
    per utah-law-notes §5b, SECONDARY). From 2025 (H.B. 300): received by 8 p.m. on election
    day; from 2026 the last four digits of an ID on the envelope. Both dates NOT CONFIRMED.
    """
    assumptions: list[str] = []
    if election_date < HB300_RECEIPT_FROM:
        if election_date >= date(2020, 1, 1):
            assumptions.append(
                "For 2020–2024 mailed ballots the rule of the 2013 text (postmarked before "
                "election day, received by noon on the canvass day) is taken from secondary "
                "sources (program's law notes, section 5b).")
        return ReturnRule(
            "Postmarked before election day and received before noon on the day of the "
            "official canvass.",
            "20A-3-306(2)(b) (2013 text)", True, False, tuple(assumptions))
    assumptions.append(
        "2025 H.B. 300: mailed ballots must be received by 8 p.m. on election day; the "
        f"date this applies from ({long_date(HB300_RECEIPT_FROM)}) is NOT CONFIRMED "
        "(program's law notes, section 5b). Military and overseas ballots follow their own "
        "rules.")
    id_digits = election_date >= HB300_ID_DIGITS_FROM
    if id_digits:
        assumptions.append(
            "2025 H.B. 300: the last four digits of the voter's driver licence, state ID or "
            "SSN are required from 2026; the start date is NOT CONFIRMED (program's law "
            "notes, section 5b).")
    return ReturnRule("Received by 8 p.m. on election day.", "2025 H.B. 300", False,
                      id_digits, tuple(assumptions))


@dataclass(frozen=True, slots=True)
class TimelinessFinding:
    ok: bool | None
    text: str
    basis: str


def returned_in_time(rule: ReturnRule, election_date: date, canvass_day: date | None,
                     postmarked: date | None, received_at: datetime | None
                     ) -> TimelinessFinding:
    """Whether an envelope came back in time under ``rule``; ``None`` when not decidable."""
    if received_at is None:
        return TimelinessFinding(None, "The date and time received are not recorded.",
                                 rule.basis)
    if rule.postmark_required:
        if postmarked is None:
            return TimelinessFinding(None, "The postmark date is not recorded (an envelope "
                                     "delivered in person has none; decide by hand).",
                                     rule.basis)
        if postmarked >= election_date:
            return TimelinessFinding(False, f"Postmarked {long_date(postmarked)}, not before "
                                     f"election day ({long_date(election_date)}).",
                                     rule.basis)
        if canvass_day is None:
            return TimelinessFinding(None, "The canvass date is not set, so the noon "
                                     "deadline cannot be computed.", rule.basis)
        due = datetime.combine(canvass_day, RECEIPT_NOON)
        if received_at >= due:
            return TimelinessFinding(False, f"Received {_at(received_at)}, after noon on the "
                                     f"canvass day ({long_date(canvass_day)}).", rule.basis)
        return TimelinessFinding(True, f"Postmarked {long_date(postmarked)} and received "
                                 f"{_at(received_at)}: in time.", rule.basis)
    due = datetime.combine(election_date, RECEIPT_8PM)
    if received_at > due:
        return TimelinessFinding(False, f"Received {_at(received_at)}, after 8 p.m. on "
                                 f"election day.", rule.basis)
    return TimelinessFinding(True, f"Received {_at(received_at)}: in time.", rule.basis)


def _at(dt: datetime) -> str:
    hour = dt.hour % 12 or 12
    return f"{long_date(dt.date())} at {hour}:{dt.minute:02d} {'a.m.' if dt.hour < 12 else 'p.m.'}"


class EnvelopeOutcome(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"

    @property
    def label(self) -> str:
        return {"pending": "Not yet reexamined", "accepted": "Accepted and counted",
                "rejected": "Stays rejected"}[self.value]


class RejectionReason(StrEnum):
    """Why an envelope stays unopened. The first two are the words of 20A-3-308(2) (2013)."""

    DEFECTIVE = "defective"
    NOT_REGISTERED = "not_registered"
    ALREADY_VOTED = "already_voted"
    LATE = "late"
    OTHER = "other"

    @property
    def label(self) -> str:
        return {
            "defective": "Rejected as defective",
            "not_registered": "Rejected as not a registered voter",
            "already_voted": "Rejected: the voter already voted",
            "late": "Rejected as not returned in time",
            "other": "Rejected (other reason)",
        }[self.value]


@dataclass(frozen=True, slots=True)
class EnvelopeVotes:
    """One accepted ballot's votes in this contest; over/under are vote positions."""

    votes: Mapping[str, int]
    write_ins: int = 0
    over: int = 0
    under: int = 0

    def problems(self, layout: SheetLayout) -> tuple[str, ...]:
        """An envelope holds one ballot: its positions add up to the seats."""
        out: list[str] = []
        extra = sorted(set(self.votes) - set(layout.choices))
        if extra:
            out.append("Not a choice in this contest: " + ", ".join(extra) + ".")
        vals = [*self.votes.values(), self.write_ins, self.over, self.under]
        if any(v < 0 for v in vals):
            out.append("Votes cannot be negative.")
        elif any(v > 1 for v in self.votes.values()):
            out.append("One ballot gives a choice at most one vote.")
        elif sum(vals) != layout.seats:
            out.append(f"One ballot has {layout.seats} vote position(s) in this contest "
                       f"(votes + write-ins + under + over); these add up to {sum(vals)}.")
        if not layout.write_in_line and self.write_ins:
            out.append("This contest has no write-in line.")
        return tuple(out)

    def as_sheet(self, layout: SheetLayout) -> TallySheet:
        return TallySheet(1, {c: self.votes.get(c, 0) for c in layout.choices},
                          self.write_ins, self.over, self.under)


@dataclass(frozen=True, slots=True)
class EnvelopeRecord:
    """One unopened envelope, with the checks made and the decision taken (if any)."""

    envelope_id: str
    precinct: str
    original_reason: str
    checks: Mapping[EnvelopeCheck, bool | None] = field(default_factory=dict)
    outcome: EnvelopeOutcome = EnvelopeOutcome.PENDING
    reason: RejectionReason | None = None
    reason_text: str = ""
    votes: EnvelopeVotes | None = None
    decided_by: str = ""
    decided_at: str = ""


@dataclass(frozen=True, slots=True)
class EnvelopeAssessment:
    """What the checks allow: accept only when every check asked for passed."""

    may_accept: bool
    failed: tuple[EnvelopeCheck, ...]
    unchecked: tuple[EnvelopeCheck, ...]
    suggested_reason: RejectionReason | None
    text: str
    basis: str = "20A-4-401(1)(e)(iii), (2)(d)(iii); 20A-3-308 (2013)"


def assess_envelope(checks: Mapping[EnvelopeCheck, bool | None], rule: ReturnRule
                    ) -> EnvelopeAssessment:
    """Which decisions the recorded checks allow, and the reason to reject, if one failed."""
    asked = rule.checks()
    failed = tuple(c for c in asked if checks.get(c) is False)
    unchecked = tuple(c for c in asked if checks.get(c) is None)
    suggested: RejectionReason | None = None
    if failed:
        first = failed[0]
        suggested = {EnvelopeCheck.REGISTERED: RejectionReason.NOT_REGISTERED,
                     EnvelopeCheck.NOT_VOTED: RejectionReason.ALREADY_VOTED,
                     EnvelopeCheck.IN_TIME: RejectionReason.LATE}.get(
                         first, RejectionReason.DEFECTIVE)
        text = "Failed: " + "; ".join(c.label for c in failed) + "."
    elif unchecked:
        text = "Still to check: " + "; ".join(c.label for c in unchecked) + "."
    else:
        text = "Every check passed: the ballot may be opened and counted."
    return EnvelopeAssessment(not failed and not unchecked, failed, unchecked, suggested, text)


@dataclass(frozen=True, slots=True)
class EnvelopeSummaryRow:
    outcome: EnvelopeOutcome
    reason: str
    count: int


def envelope_summary(envelopes: Iterable[EnvelopeRecord]) -> tuple[EnvelopeSummaryRow, ...]:
    """Counts by outcome and reason, for the report (20A-4-304: ballots rejected)."""
    counts: dict[tuple[EnvelopeOutcome, str], int] = {}
    for e in envelopes:
        if e.outcome is EnvelopeOutcome.REJECTED:
            reason = e.reason.label if e.reason else "Rejected"
            if e.reason is RejectionReason.OTHER and e.reason_text:
                reason = f"Rejected: {e.reason_text}"
        else:
            reason = e.outcome.label
        key = (e.outcome, reason)
        counts[key] = counts.get(key, 0) + 1
    order = list(EnvelopeOutcome)
    return tuple(EnvelopeSummaryRow(o, r, n) for (o, r), n in
                 sorted(counts.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1])))


# --------------------------------------------------------------------------------------
# Totals and variance
# --------------------------------------------------------------------------------------


def add_sheets(sheets: Iterable[TallySheet], layout: SheetLayout) -> TallySheet:
    """The sum of complete sheets (entered fields only)."""
    ballots = write_ins = over = under = 0
    votes = dict.fromkeys(layout.choices, 0)
    for s in sheets:
        ballots += s.ballots or 0
        write_ins += s.write_ins or 0
        over += s.over or 0
        under += s.under or 0
        for c in layout.choices:
            votes[c] += s.choice_votes(c)
    return TallySheet(ballots, votes, write_ins, over, under)


@dataclass(frozen=True, slots=True)
class UnitVariance:
    """Canvass against recount for one unit; the recount includes its accepted envelopes."""

    unit: str
    counted: bool
    canvass: Mapping[str, int]
    tallied: Mapping[str, int] | None
    envelopes: Mapping[str, int]
    recount: Mapping[str, int] | None
    change: Mapping[str, int] | None
    note: str = ""

    @property
    def net(self) -> int | None:
        return None if self.change is None else sum(self.change.values())

    @property
    def differs(self) -> bool:
        return bool(self.change) and any(v != 0 for v in (self.change or {}).values())


@dataclass(frozen=True, slots=True)
class VarianceTable:
    """Per unit and in total (20A-4-401(1)(e)(ii)): only counted units are compared.

    ``canvass_total`` is every unit's canvass; ``counted_canvass_total`` the canvass of the
    units counted so far, which ``recount_total`` is set against in ``change_total`` (a unit
    not yet counted is not a loss of its votes)."""

    choices: tuple[str, ...]
    rows: tuple[UnitVariance, ...]
    canvass_total: Mapping[str, int]
    recount_total: Mapping[str, int]
    change_total: Mapping[str, int]
    units_counted: int
    complete: bool
    counted_canvass_total: Mapping[str, int]


def variance_table(layout: SheetLayout, states: Sequence[UnitState],
                   canvass_by_precinct: Mapping[str, Mapping[str, int]],
                   envelopes: Iterable[EnvelopeRecord],
                   notes: Mapping[str, str] | None = None) -> VarianceTable:
    """The canvass vs the recount, unit by unit, with accepted envelopes added to the unit
    holding their precinct ((1)(e)(iii): accepted ballots join the recount)."""
    notes = notes or {}
    unit_of = {p: s.unit.name for s in states for p in s.unit.precincts}
    env_votes: dict[str, dict[str, int]] = {}
    for e in envelopes:
        if e.outcome is EnvelopeOutcome.ACCEPTED and e.votes is not None:
            u = unit_of.get(e.precinct)
            if u is None:
                continue
            bucket = env_votes.setdefault(u, dict.fromkeys(layout.choices, 0))
            for c in layout.choices:
                bucket[c] += e.votes.votes.get(c, 0)
    rows: list[UnitVariance] = []
    canvass_total = dict.fromkeys(layout.choices, 0)
    counted_canvass = dict.fromkeys(layout.choices, 0)
    recount_total = dict.fromkeys(layout.choices, 0)
    counted = 0
    for s in states:
        canv = dict.fromkeys(layout.choices, 0)
        for p in s.unit.precincts:
            for c in layout.choices:
                canv[c] += canvass_by_precinct.get(p, {}).get(c, 0)
        for c in layout.choices:
            canvass_total[c] += canv[c]
        env = env_votes.get(s.unit.name, dict.fromkeys(layout.choices, 0))
        if s.status.counts and s.final is not None:
            counted += 1
            tallied = {c: s.final.choice_votes(c) for c in layout.choices}
            rec = {c: tallied[c] + env[c] for c in layout.choices}
            for c in layout.choices:
                recount_total[c] += rec[c]
                counted_canvass[c] += canv[c]
            rows.append(UnitVariance(s.unit.name, True, canv, tallied, env, rec,
                                     {c: rec[c] - canv[c] for c in layout.choices},
                                     notes.get(s.unit.name, "")))
        else:
            rows.append(UnitVariance(s.unit.name, False, canv, None, env, None, None,
                                     notes.get(s.unit.name, "")))
    complete = counted == len(states)
    return VarianceTable(layout.choices, tuple(rows), canvass_total, recount_total,
                         {c: recount_total[c] - counted_canvass[c] for c in layout.choices},
                         counted, complete, counted_canvass)


def recount_totals(layout: SheetLayout, states: Sequence[UnitState],
                   envelopes: Iterable[EnvelopeRecord]) -> dict[str, int]:
    """Votes per choice: the counted units plus every accepted envelope."""
    out = dict.fromkeys(layout.choices, 0)
    for s in states:
        if s.status.counts and s.final is not None:
            for c in layout.choices:
                out[c] += s.final.choice_votes(c)
    for e in envelopes:
        if e.outcome is EnvelopeOutcome.ACCEPTED and e.votes is not None:
            for c in layout.choices:
                out[c] += e.votes.votes.get(c, 0)
    return out


# --------------------------------------------------------------------------------------
# Declaration and lot
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Readiness:
    """Whether the recount is complete enough to declare without an override."""

    units_total: int
    units_counted: int
    envelopes_total: int
    envelopes_decided: int
    envelopes_confirmed: bool
    blockers: tuple[str, ...]

    @property
    def complete(self) -> bool:
        return not self.blockers


def readiness(states: Sequence[UnitState], envelopes: Sequence[EnvelopeRecord],
              no_envelopes_confirmed: bool = False) -> Readiness:
    """Every unit counted ((1)(e)(ii)) and every envelope reexamined ((1)(e)(iii)).

    With no envelope listed, the officer must confirm there were none to reexamine.
    """
    counted = sum(1 for s in states if s.status.counts)
    decided = sum(1 for e in envelopes if e.outcome is not EnvelopeOutcome.PENDING)
    blockers: list[str] = []
    if not states:
        blockers.append("The recount has not been started (20A-4-401(1)(e)(ii)).")
    elif counted < len(states):
        open_units = [s.unit.name for s in states if not s.status.counts]
        shown = ", ".join(open_units[:5]) + (" …" if len(open_units) > 5 else "")
        blockers.append(f"{len(open_units)} of {len(states)} units not reconciled: {shown} "
                        "(20A-4-401(1)(e)(ii)).")
    if envelopes and decided < len(envelopes):
        blockers.append(f"{len(envelopes) - decided} of {len(envelopes)} envelopes not yet "
                        "reexamined (20A-4-401(1)(e)(iii)).")
    confirmed = bool(envelopes) or no_envelopes_confirmed
    if not confirmed:
        blockers.append("No unopened absentee envelope is listed: import or enter them, or "
                        "confirm there were none (20A-4-401(1)(e)(iii)).")
    return Readiness(len(states), counted, len(envelopes), decided, confirmed,
                     tuple(blockers))


@dataclass(frozen=True, slots=True)
class LotRule:
    """Who draws the lot for a tie that remains after the recount, and by when (20A-1-304)."""

    who: str
    deadline: date | None
    text: str
    basis: str
    assumptions: tuple[str, ...] = ()


def lot_rule(edition: Edition, kind: ElectionKind, scope: Scope,
             recount_completed: date | None, closed: Closed = ()) -> LotRule:
    """20A-1-304 for the edition in force (utah-law-notes §3).

    2024 (H.B. 515): the election officer, at a public meeting no later than the first
    business day at least three days after the recount canvass; for a primary race for a
    national, statewide or multicounty office, the governor, lieutenant governor and
    attorney general; for a primary race for a county office, the district court judges.
    Before 2024: within 30 days of the recount, 5 days for a municipal primary.
    """
    if edition is Edition.Y2024:
        if kind is ElectionKind.PRIMARY and scope in (Scope.STATEWIDE, Scope.MULTICOUNTY):
            who = "The governor, the lieutenant governor and the attorney general"
            where = "at a public meeting called by the governor"
        elif kind is ElectionKind.PRIMARY and scope is Scope.COUNTY:
            who = "The district court judges of the district containing the county"
            where = "at a public meeting they call"
        else:
            who = "The election officer"
            where = "at a public meeting, in a manner the officer chooses"
        deadline = lot_meeting_deadline(recount_completed, closed) if recount_completed else None
        when = (f"no later than {long_date(deadline)}" if deadline else
                "no later than the first business day at least three days after the "
                "recount canvass")
        return LotRule(who, deadline,
                       f"{who} decide(s) the tie by lot {where}, {when}; each tied candidate "
                       "may attend or send a representative.",
                       "20A-1-304 (as amended by 2024 H.B. 515)")
    days = 5 if kind is ElectionKind.MUNICIPAL_PRIMARY else 30
    deadline = add_days_utah(recount_completed, days, "20A-1-304", closed).due.date() \
        if recount_completed else None
    when = f"by {long_date(deadline)}" if deadline else f"within {days} days of the recount"
    return LotRule("The election officer", deadline,
                   f"The tie is decided by lot {when}.",
                   "20A-1-304 (2001 text)",
                   ("Before 2024 H.B. 515, who draws the lot is taken to be the election "
                    "officer; the 2001 text was read only for its time limits "
                    "(program's law notes, section 3).",))


@dataclass(frozen=True, slots=True)
class Lot:
    """The lot as drawn: by whom, when, where, how, before whom, and who it chose."""

    drawn_by: str
    drawn_at: datetime
    place: str
    method: str
    witnesses: tuple[str, ...]
    chosen: tuple[str, ...]


def lot_problems(lot: Lot, out: Outcome, seats: int, rule: LotRule) -> tuple[str, ...]:
    """Errors in a recorded lot: it must choose exactly the open seats among the tied."""
    problems: list[str] = []
    open_seats = max(1, seats) - len(out.winners)
    for label, value in (("who drew the lot", lot.drawn_by), ("the place", lot.place),
                         ("the method", lot.method)):
        if not value.strip():
            problems.append(f"Give {label}.")
    strangers = [c for c in lot.chosen if c not in out.tied]
    if strangers:
        problems.append("Not among the tied candidates: " + ", ".join(strangers) + ".")
    if len(set(lot.chosen)) != open_seats:
        problems.append(f"The lot must choose {open_seats} of the tied candidates "
                        f"({', '.join(out.tied)}).")
    return tuple(problems)


def lot_is_late(lot: Lot, rule: LotRule) -> bool:
    return rule.deadline is not None and lot.drawn_at.date() > rule.deadline


@dataclass(frozen=True, slots=True)
class Declaration:
    """The result on the recount: elected / passed / failed, or a tie to be drawn by lot."""

    outcome: Outcome
    totals: ContestTotals
    elected: tuple[str, ...]
    text: str
    basis: str
    needs_lot: bool
    lot_rule: LotRule | None


def declaration(totals_canvass: ContestTotals, recount: Mapping[str, int], edition: Edition,
                kind: ElectionKind, recount_completed: date | None,
                lot: Lot | None = None, closed: Closed = ()) -> Declaration:
    """Declare from the recount totals (20A-4-401(1)(e)(iv)-(v), (2)(d)(iv)).

    The winners come from ``rules.outcome`` on the recounted votes. A tie at the cut-off
    needs the lot of 20A-1-304; with the lot recorded, its choice completes the winners.
    """
    choices = tuple(ChoiceTotal(Choice(c.choice.name, c.choice.party, c.choice.kind),
                                recount.get(c.choice.name, 0))
                    for c in totals_canvass.choices)
    totals = ContestTotals(totals_canvass.contest, choices, {}, totals_canvass.precincts)
    res = outcome(totals, places=places(totals.contest, kind))
    contest = totals.contest
    if contest.kind is ContestKind.PROPOSITION:
        word = "passed" if res.result is Result.PASSED else "failed"
        yes = sum(c.votes for c in choices if c.choice.kind is ChoiceKind.FOR)
        no = sum(c.votes for c in choices if c.choice.kind is ChoiceKind.AGAINST)
        return Declaration(res, totals, (), f"The proposition {word}: {yes:,} for, {no:,} "
                           f"against, on the recount ({res.basis}).",
                           f"20A-4-401(2)(d)(iv); {res.basis}", False, None)
    basis = "20A-4-401(1)(e)(iv)" if max(1, contest.seats) == 1 else "20A-4-401(1)(e)(v)"
    if res.result is Result.TIE:
        rule = lot_rule(edition, kind, contest.scope, recount_completed, closed)
        tied = " and ".join(res.tied)
        if lot is None:
            return Declaration(res, totals, res.winners,
                               f"{tied} are tied on the recount; the tie is decided by lot. "
                               + rule.text, f"{basis}; {rule.basis}", True, rule)
        elected = (*res.winners, *lot.chosen)
        return Declaration(res, totals, elected,
                           f"{tied} were tied on the recount; the lot drawn on "
                           f"{long_date(lot.drawn_at.date())} chose {', '.join(lot.chosen)}. "
                           f"Elected: {', '.join(elected)}.", f"{basis}; {rule.basis}", True,
                           rule)
    if res.result is Result.NO_VOTES:
        return Declaration(res, totals, (), "No votes were recounted.", basis, False, None)
    ranking = ", ".join(f"{c.choice.name} {c.votes:,}" for c in res.ranking)
    return Declaration(res, totals, res.winners,
                       f"Elected on the recount: {', '.join(res.winners)} ({ranking}).",
                       basis, False, None)


@dataclass(frozen=True, slots=True)
class DeclarationRecord:
    """A declaration as the case records it and the report states it
    (20A-4-401(1)(e)(iv)-(v), (2)(d)(iv)): the result, who was elected, its basis, when and
    by whom; for a tie, the tied candidates and the lot with the public meeting of its rule,
    the notice to the tied, its deadline and whether it was kept (20A-1-304). Before the
    declaration, ``declared_at`` is None and nobody is elected."""

    result: Result
    elected: tuple[str, ...] = ()
    basis: str = ""
    declared_at: datetime | None = None
    lot: Lot | None = None
    declared_by: str = ""
    tied: tuple[str, ...] = ()
    lot_meeting: str = ""  # the rule's public meeting, in words, with its citation
    lot_notice: str = ""  # notice given to the tied candidates ("" = not recorded)
    lot_deadline: date | None = None
    lot_late: bool = False


# --------------------------------------------------------------------------------------
# Witnesses
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Witness:
    """A witness designated for the recount: by a candidate, or by the proponents or the
    opponents of a proposition ((2)(e)), and when they attended."""

    name: str
    designated_by: str
    designated_at: datetime | None = None
    attended_from: datetime | None = None
    attended_to: datetime | None = None


# --------------------------------------------------------------------------------------
# Costs
# --------------------------------------------------------------------------------------


class CostKind(StrEnum):
    STAFF = "staff"
    MATERIALS = "materials"
    OTHER = "other"

    @property
    def label(self) -> str:
        return {"staff": "Staff time", "materials": "Materials", "other": "Other"}[self.value]


@dataclass(frozen=True, slots=True)
class CostItem:
    """A cost of the recount. Staff: hours (in hundredths) × hourly rate; others: an amount."""

    kind: CostKind
    description: str
    amount_cents: int
    hours_hundredths: int | None = None
    rate_cents: int | None = None


def staff_cost(hours_hundredths: int, rate_cents: int) -> int:
    """Hours × rate in cents, rounded half up to the cent (exact integers)."""
    if hours_hundredths < 0 or rate_cents < 0:
        raise ValueError("Hours and rate cannot be negative.")
    return (hours_hundredths * rate_cents + 50) // 100


def parse_hours(text: str) -> int:
    """'2.5' or '2:30' as hundredths of an hour (250); ValueError with a message otherwise."""
    t = text.strip()
    if ":" in t:
        h, _, m = t.partition(":")
        if not (h.isdigit() and m.isdigit() and int(m) < 60 and len(m) == 2):
            raise ValueError(f"{text!r} is not a time like 2:30.")
        minutes = int(h) * 60 + int(m)
        return (minutes * 100 + 30) // 60
    whole, _, frac = t.partition(".")
    if not (whole or frac) or not (whole or "0").isdigit() or (frac and not frac.isdigit()) \
            or len(frac) > 2:
        raise ValueError(f"{text!r} is not a number of hours like 2.5.")
    return int(whole or "0") * 100 + int((frac + "00")[:2])


def parse_cents(text: str) -> int:
    """'$1,234.50' or '1234.5' as cents; ValueError with a message otherwise."""
    t = text.strip().replace("$", "").replace(",", "")
    whole, _, frac = t.partition(".")
    if not (whole or frac) or not (whole or "0").isdigit() or (frac and not frac.isdigit()) \
            or len(frac) > 2:
        raise ValueError(f"{text!r} is not an amount like 1,234.50.")
    return int(whole or "0") * 100 + int((frac + "00")[:2])


def format_cents(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    d, c = divmod(abs(cents), 100)
    return f"{sign}${d:,}.{c:02d}"


@dataclass(frozen=True, slots=True)
class CostStatement:
    """The costs, their total and who pays under the edition in force (the window and the
    report show this one statement)."""

    items: tuple[CostItem, ...]
    payer: str
    basis: str
    assumptions: tuple[str, ...] = ()

    @property
    def total_cents(self) -> int:
        return sum(i.amount_cents for i in self.items)

    @property
    def by_kind(self) -> Mapping[CostKind, int]:
        return {k: sum(i.amount_cents for i in self.items if i.kind is k) for k in CostKind}


def cost_statement(items: Sequence[CostItem], edition: Edition,
                   contest_kind: ContestKind) -> CostStatement:
    """Total and payer: (2)(f) for propositions before 2024, (3) (2013 text) for candidate
    recounts, 2024 H.B. 515 after; an unconfirmed payer comes with its assumption."""
    payer, basis, confirmed = who_pays(edition, contest_kind)
    assumptions: tuple[str, ...] = ()
    if not confirmed:
        assumptions = (f"Who pays is NOT CONFIRMED for this edition and contest ({basis}; "
                       "program's law notes, section 1b).",)
    return CostStatement(tuple(items), payer, basis, assumptions)


# --------------------------------------------------------------------------------------
# The board of canvassers
# --------------------------------------------------------------------------------------


class BoardKind(StrEnum):
    """Which board canvasses the recount ((4)(a); 20A-4-301, 20A-4-306)."""

    COUNTY = "county"
    MUNICIPAL = "municipal"
    STATE = "state"

    @property
    def label(self) -> str:
        return {"county": "Board of county canvassers",
                "municipal": "Board of municipal canvassers",
                "state": "Board of state canvassers"}[self.value]


class BoardRole(StrEnum):
    """A member of the legislative body, a substitute for an absent member (county:
    treasurer, assessor, sheriff, in that order), or the clerk of the board."""

    MEMBER = "member"
    SUBSTITUTE = "substitute"
    CLERK = "clerk"


@dataclass(frozen=True, slots=True)
class BoardMember:
    name: str
    title: str
    role: BoardRole = BoardRole.MEMBER
    present: bool = True


@dataclass(frozen=True, slots=True)
class QuorumCheck:
    """Whether the board has a quorum: ``present`` of ``needed``; ``rule`` says what a
    quorum of this board is, in words (for the checklist, the window and the report)."""

    ok: bool
    present: int
    needed: int
    text: str
    basis: str
    rule: str = ""


def members_present(members: Sequence[BoardMember]) -> int:
    """The members who count toward the quorum: present, and not the clerk of the board
    (20A-4-301, 20A-4-306)."""
    return sum(1 for m in members if m.present and m.role is not BoardRole.CLERK)


def board_kind_for(kind: ElectionKind) -> BoardKind:
    return BoardKind.MUNICIPAL if kind.is_municipal else BoardKind.COUNTY


def quorum(kind: BoardKind, members: Sequence[BoardMember], body_size: int) -> QuorumCheck:
    """The quorum of the board (20A-4-301 and 20A-4-306, utah-law-notes §2a, §2d).

    County: a simple majority of the county legislative body, and not fewer than three;
    substitutes (treasurer, assessor, sheriff) sit for absent members. Municipal: a simple
    majority of the municipal legislative body. State: all three members. The clerk of the
    board does not count.
    """
    present = members_present(members)
    if kind is BoardKind.STATE:
        needed, basis = 3, "20A-4-306"
        what = "all three members (state auditor, state treasurer, attorney general)"
    elif body_size < 1:
        return QuorumCheck(False, present, 0, "Give the number of seats on the legislative "
                           "body, so the quorum can be computed.", "20A-4-301")
    elif kind is BoardKind.COUNTY:
        needed, basis = max(3, body_size // 2 + 1), "20A-4-301"
        what = (f"a simple majority of the {body_size}-member county legislative body, and "
                "not fewer than three")
    else:
        needed, basis = body_size // 2 + 1, "20A-4-301"
        what = f"a simple majority of the {body_size}-member municipal legislative body"
    ok = present >= needed
    return QuorumCheck(ok, present, needed,
                       f"{present} present; a quorum is {what} ({needed}): "
                       + ("quorum present." if ok else "no quorum."), basis, what)


@dataclass(frozen=True, slots=True)
class Signer:
    """One who signed the report: a member of the board, or the election officer."""

    name: str
    title: str


@dataclass(frozen=True, slots=True)
class Signing:
    """The signing as recorded in the case: when, where and by whom ((4)(b)(ii))."""

    signed_at: datetime
    place: str
    signers: tuple[Signer, ...]


@dataclass(frozen=True, slots=True)
class SigningPlan:
    """Who signs the report, when and where, checked against the board step (20A-4-401(4)(b)(ii)).

    ``signers`` are the names as recorded (the board step's spelling); ``refusals`` say why
    the signing cannot be recorded (empty: it may, once confirmed).
    """

    signers: tuple[str, ...]
    board_signers: int
    quorum: QuorumCheck | None
    signed_at: datetime
    place: str
    refusals: tuple[str, ...]
    basis: str = "20A-4-401(4)(b)(ii); 20A-4-301, 20A-4-306"

    @property
    def ok(self) -> bool:
        return not self.refusals

    def confirmation(self, title: str) -> str:
        """What the officer confirms before the signing is recorded (it locks the contest)."""
        when = f"{long_date(self.signed_at.date())} at {_clock(self.signed_at)}"
        return (f"Record that the report of {title} was signed on {when} at {self.place} by "
                f"{', '.join(self.signers)}? "
                + (f"{self.board_signers} of the {self.quorum.present} member(s) present "
                   f"sign. Quorum: {self.quorum.text} " if self.quorum is not None else "")
                + "Recording the signing locks the contest: nothing in it can change until "
                "it is reopened, with a reason.")


def _clock(dt: datetime) -> str:
    hour = dt.hour % 12 or 12
    return f"{hour}:{dt.minute:02d} {'a.m.' if dt.hour < 12 else 'p.m.'}"


def _name_key(name: str) -> str:
    return " ".join(name.casefold().split())


def signing_plan(names: Sequence[str], *, members: Sequence[BoardMember],
                 kind: BoardKind | None, body_size: int, convened_at: datetime | None,
                 declared: bool, officer: str | None, signed_at: datetime | None,
                 place: str) -> SigningPlan:
    """Check a signing against the board step (20A-4-401(4)(b)(ii); 20A-4-301, 20A-4-306).

    The board of canvassers signs the report with the assistance of the election officer:
    each name must be a member recorded present at the board step (a substitute counts; an
    absent member or a name not on the board is refused), the clerk of the board, or the
    election officer (``officer``, from the case's roster), and at least one member signs.
    The board must have been convened with a quorum (``quorum``, the one rule). The statute
    does not say how many members sign ("the board ... shall prepare and sign the report",
    (4)(b)(ii)), so the program asks no more: the confirmation says how many of those
    present sign. The time (not before the day the board convened) and the place are
    recorded.
    """
    refusals: list[str] = []
    if not declared:
        refusals.append("the result has not been declared")
    q: QuorumCheck | None = None
    if kind is None:
        refusals.append("the board of canvassers has not been convened")
    else:
        q = quorum(kind, members, body_size)
        if not q.ok:
            refusals.append(f"the board had no quorum ({q.text})")
    by_key = {_name_key(m.name): m for m in members}
    officer_key = _name_key(officer) if officer else None
    signers: list[str] = []
    signing_members: list[BoardMember] = []
    seen: set[str] = set()
    for raw in names:
        name = raw.strip()
        if not name:
            continue
        key = _name_key(name)
        m = by_key.get(key)
        if key in seen:
            refusals.append(f"{name} is named twice")
            continue
        seen.add(key)
        if m is not None and m.role is not BoardRole.CLERK:
            if not m.present:
                refusals.append(f"{m.name} is recorded absent at the board step, so cannot "
                                "sign; correct the members present first")
                continue
            signing_members.append(m)
            signers.append(m.name)
        elif m is not None or key == officer_key:
            signers.append(m.name if m is not None else (officer or name))
        else:
            refusals.append(f"{name} is not a member of the board of canvassers recorded at "
                            "the board step, nor the election officer, so cannot sign")
    if not signers and not any("cannot sign" in r or "twice" in r for r in refusals):
        refusals.append("name who signed the report")
    if kind is not None and q is not None and q.ok and signers and not signing_members:
        refusals.append("no member of the board signs; the board signs its report")
    if signed_at is None:
        refusals.append("give the date and time of the signing")
    elif convened_at is not None and signed_at.date() < convened_at.date():
        # a signature is dated by the day (as the report's chronology compares it)
        refusals.append(f"the signing ({long_date(signed_at.date())}) cannot come before "
                        f"the board convened ({long_date(convened_at.date())})")
    if not (place or "").strip():
        refusals.append("give the place where the report was signed")
    return SigningPlan(tuple(signers), len(signing_members), q,
                       signed_at or datetime.min, (place or "").strip(), tuple(refusals))


# --------------------------------------------------------------------------------------
# The checklist
# --------------------------------------------------------------------------------------


class Stage(StrEnum):
    """The steps of a contest's recount, in order."""

    REQUESTED = "requested"
    UNDER_WAY = "under_way"
    RECONCILED = "reconciled"
    REEXAMINED = "reexamined"
    DECLARED = "declared"
    BOARD_CONVENED = "board_convened"
    SIGNED = "signed"

    @property
    def label(self) -> str:
        return {
            "requested": "Recount requested",
            "under_way": "Recount under way",
            "reconciled": "Tallies reconciled",
            "reexamined": "Absentee ballots reexamined",
            "declared": "Result declared",
            "board_convened": "Board of canvassers convened",
            "signed": "Report signed (locked)",
        }[self.value]

    @property
    def short(self) -> str:
        return {
            "requested": "requested", "under_way": "recount under way",
            "reconciled": "tallies reconciled", "reexamined": "absentee reexamined",
            "declared": "declared", "board_convened": "board convened",
            "signed": "signed (locked)",
        }[self.value]


@dataclass(frozen=True, slots=True)
class Step:
    stage: Stage
    done: bool
    detail: str
    basis: str
    blocker: str | None


@dataclass(frozen=True, slots=True)
class ChecklistInput:
    """What the checklist needs to know about one contest."""

    kind: ContestKind
    requested: bool
    automatic: bool
    started: bool
    readiness: Readiness
    declared: bool
    override_used: bool
    board_convened: bool
    quorum_ok: bool
    signed: bool


@dataclass(frozen=True, slots=True)
class Checklist:
    steps: tuple[Step, ...]

    @property
    def stage(self) -> Stage | None:
        """The last step done in order, or None when nothing is done.

        A missing request does not hide the later steps (a recount may run without one on
        record, e.g. an automatic recount); the request step still shows its blocker.
        """
        last: Stage | None = None
        for s in self.steps:
            if not s.done:
                if s.stage is Stage.REQUESTED:
                    continue
                break
            last = s.stage
        return last

    @property
    def next_step(self) -> Step | None:
        return next((s for s in self.steps if not s.done), None)


def checklist(i: ChecklistInput) -> Checklist:
    """Requested → under way → reconciled → reexamined → declared → board → signed.

    Each step names its subsection and, when not done, what blocks it.
    """
    race = i.kind is ContestKind.RACE
    r = i.readiness
    req_basis = "20A-4-401(1)(d)" if race else "20A-4-401(2)(a)-(c)"
    if i.automatic:
        req_basis = "20A-4-401(2) (2024): automatic recount"
    steps = [Step(Stage.REQUESTED, i.requested or i.automatic,
                  "Automatic recount (tie)" if i.automatic else
                  ("A request is recorded" if i.requested else "No request recorded"),
                  req_basis, None if i.requested or i.automatic else
                  "Record the recount request.")]
    sup = "20A-4-401(1)(e)(i)-(ii)" if race else "20A-4-401(2)(d)(i)-(ii)"
    steps.append(Step(Stage.UNDER_WAY, i.started,
                      f"{r.units_counted} of {r.units_total} units reconciled" if i.started
                      else "Not started", sup,
                      None if i.started else "Start the recount: choose the method and "
                      "the units."))
    all_units = i.started and r.units_total > 0 and r.units_counted == r.units_total
    steps.append(Step(Stage.RECONCILED, all_units,
                      f"{r.units_counted} of {r.units_total} units reconciled",
                      "20A-4-401(1)(e)(ii)" if race else "20A-4-401(2)(d)(ii)",
                      None if all_units else
                      f"{r.units_total - r.units_counted} unit(s) still to enter or "
                      "reconcile." if i.started else "The recount has not started."))
    env_done = r.envelopes_confirmed and r.envelopes_decided == r.envelopes_total
    steps.append(Step(Stage.REEXAMINED, env_done,
                      f"{r.envelopes_decided} of {r.envelopes_total} envelopes reexamined"
                      if r.envelopes_total else
                      ("No unopened envelopes (confirmed)" if r.envelopes_confirmed
                       else "No envelope listed"),
                      "20A-4-401(1)(e)(iii)" if race else "20A-4-401(2)(d)(iii)",
                      None if env_done else
                      (f"{r.envelopes_total - r.envelopes_decided} envelope(s) to reexamine."
                       if r.envelopes_total else "List the unopened envelopes, or confirm "
                       "there were none.")))
    steps.append(Step(Stage.DECLARED, i.declared,
                      ("Declared with an override" if i.override_used else "Declared")
                      if i.declared else "Not declared",
                      "20A-4-401(1)(e)(iv)-(v)" if race else "20A-4-401(2)(d)(iv)",
                      None if i.declared else
                      "Start the recount first." if not i.started else
                      "Declare the result." if r.complete else
                      "Declaring now needs an override reason: " + " ".join(r.blockers)))
    board_ok = i.board_convened and i.quorum_ok
    steps.append(Step(Stage.BOARD_CONVENED, board_ok,
                      ("Convened with a quorum" if board_ok else "Convened without a quorum")
                      if i.board_convened else "Not convened",
                      "20A-4-401(4)(a); 20A-4-301",
                      None if board_ok else
                      ("Declare the result first." if not i.declared else
                       "Record the members present: no quorum." if i.board_convened else
                       "Convene the board of canvassers (members, date, time, place).")))
    steps.append(Step(Stage.SIGNED, i.signed, "Signed; the contest is locked" if i.signed
                      else "Not signed", "20A-4-401(4)(b)(ii), (4)(d)",
                      None if i.signed else
                      ("Convene the board first." if not board_ok else
                       "The board signs the report; signing locks the contest.")))
    return Checklist(tuple(steps))


def status_line(title: str, cl: Checklist, readiness: Readiness) -> str:
    """One line per contest for ``recount-desk status``."""
    stage = cl.stage
    words = stage.short if stage else "not requested"
    if stage in (None, Stage.REQUESTED) and not readiness.units_total:
        return f"{title} — {words}"
    env, done = readiness.envelopes_total, readiness.envelopes_decided
    return (f"{title} — {words}; {readiness.units_counted} of {readiness.units_total} units "
            f"reconciled; {done}" + (f" of {env}" if done != env else "")
            + f" envelope{'s' if (env if done != env else done) != 1 else ''} reexamined")


# --------------------------------------------------------------------------------------
# One contest's recount as one model: every transition, as a change or a refusal
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitRecord:
    """What the case holds of one unit: its current entries (1 and 2), the resolution of
    their difference, and whether entry 1 was loaded from the re-tabulated statement."""

    unit: RecountUnit
    first: TallyEntry | None = None
    second: TallyEntry | None = None
    resolution: Resolution | None = None
    loaded: bool = False

    def entry(self, number: int) -> TallyEntry | None:
        return self.first if number == 1 else self.second if number == 2 else None


class RefusalKind(StrEnum):
    """What kind of refusal, so a caller can offer the way on (a note, an override, a lot)."""

    REFUSED = "refused"  # the text says what to correct
    LOCKED = "locked"  # the report is signed: reopen it first
    NOT_STARTED = "not_started"  # start the recount first
    NEEDS_NOTE = "needs_note"  # a failed consistency check a note would settle (``check``)
    NEEDS_OVERRIDE = "needs_override"  # declaring early needs a reason (``blockers``)
    NEEDS_LOT = "needs_lot"  # a tie at the cut-off: the lot of 20A-1-304 (``lot_rule``)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the model refuses a change, in one sentence for the user; nothing is written.
    ``check``, ``blockers``, ``lot_rule`` and ``tied`` carry what the refusal rests on."""

    text: str
    check: ConsistencyCheck | None = None
    kind: RefusalKind = RefusalKind.REFUSED
    blockers: tuple[str, ...] = ()
    lot_rule: LotRule | None = None
    tied: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.check is not None and self.kind is RefusalKind.REFUSED:
            object.__setattr__(self, "kind", RefusalKind.NEEDS_NOTE)


@dataclass(frozen=True, slots=True)
class EntryChange:
    """An entry to write: the entry as recorded (the roster's name of the officer), whether
    it replaces an earlier one, and the unit's state once it is written."""

    unit: str
    entry: TallyEntry
    replaces: bool
    state: UnitState
    check: ConsistencyCheck | None


@dataclass(frozen=True, slots=True)
class ResolutionChange:
    """A resolution to write, the differences it settles, and the unit's state after it."""

    unit: str
    resolution: Resolution
    diffs: tuple[FieldDiff, ...]
    state: UnitState


@dataclass(frozen=True, slots=True)
class EnvelopeDecision:
    """A decision on one envelope to write, and the outcome it replaces (``before``)."""

    envelope_id: str
    precinct: str
    outcome: EnvelopeOutcome
    reason: RejectionReason | None
    reason_text: str
    votes: EnvelopeVotes | None
    decided_by: str
    before: EnvelopeOutcome


@dataclass(frozen=True, slots=True)
class DeclarationChange:
    """A declaration to write: the result, the totals it rests on, whether the recount was
    complete (else the override's reason), and the lot with whether it was drawn late."""

    declaration: Declaration
    totals: Mapping[str, int]
    readiness: Readiness
    override_reason: str | None
    lot: Lot | None
    lot_late: bool


@dataclass(frozen=True, slots=True)
class Convening:
    """When and where the board of canvassers met, its kind and the seats of the body."""

    kind: BoardKind
    body_size: int
    convened_at: datetime
    place: str


@dataclass(frozen=True, slots=True)
class ConveneChange:
    """A convening to record, with the quorum it has (shown, not enforced: 20A-4-301)."""

    convening: Convening
    quorum: QuorumCheck


@dataclass(frozen=True, slots=True)
class StartChange:
    """The recount's units to record, how they were named, and whether it starts again."""

    units: tuple[RecountUnit, ...]
    kind: UnitKind
    restarted: bool


@dataclass(frozen=True, slots=True)
class NoEnvelopesChange:
    """The officer's record that there were (or, taken back, may be) no unopened envelopes."""

    confirmed: bool
    note: str


@dataclass(frozen=True, slots=True)
class WitnessChange:
    """A witness to record, as the contest names the side they represent."""

    witness: Witness
    side: str


PROPONENTS = "proponents"
OPPONENTS = "opponents"


@dataclass(frozen=True, slots=True)
class ReopenChange:
    """A signed contest to unlock, and why (recorded with the signing it sets aside)."""

    reason: str


def needs_entry(state: UnitState, number: int, entered_by: str | None) -> bool:
    """Whether entry ``number`` of a unit is still to be made or completed (``entered_by``:
    who made that entry, None when nobody has)."""
    if number == 1:
        return entered_by is None or state.status is UnitStatus.FIRST_ENTRY
    return entered_by is None or state.status is UnitStatus.AWAITING_SECOND


def clean_sheet(sheet: TallySheet, layout: SheetLayout) -> TallySheet | Refusal:
    """A sheet as the contest records it (only its choices; no write-ins without a line),
    or why no tally sheet can hold it (``TallySheet.problems``)."""
    problems = sheet.problems(layout)
    if problems:
        return Refusal(" ".join(problems))
    return TallySheet(sheet.ballots, {c: sheet.votes.get(c) for c in layout.choices},
                      sheet.write_ins if layout.write_in_line else 0, sheet.over, sheet.under)


@dataclass(frozen=True)
class ContestRecount:
    """One contest's recount, the single model the actions, the window and the report read
    (20A-4-401(1)(e)-(f), (2)(d)-(e), (4)).

    It holds the units (all, or only those one action touches), the entry mode and whether
    the contest is locked; loaded whole (``envelopes`` not None) it also holds the envelopes,
    the board of canvassers and whether a result is declared. Each transition (``enter``,
    ``resolve``, ``decide_envelope``, ``declare``, ``convene``, ``sign``, ``reopen``) returns
    the change to write or a ``Refusal``; the actions write the change in one transaction.
    """

    title: str
    layout: SheetLayout
    mode: EntryMode | None  # None: the recount has not been started
    units: Mapping[str, UnitRecord]
    locked: str = ""  # why nothing may change (the signing), empty when it may
    canvass: ContestTotals | None = None  # the contest's canvass (declaring needs it)
    envelopes: tuple[EnvelopeRecord, ...] | None = None  # None: loaded for the units only
    no_envelopes_confirmed: bool = False
    members: tuple[BoardMember, ...] = ()
    convening: Convening | None = None
    declared: bool = False

    # --- reading ------------------------------------------------------------------------

    def record(self, name: str) -> UnitRecord | Refusal:
        got = self.units.get(name)
        return got if got is not None else Refusal(f"{self.title} has no unit named {name!r}.")

    def state(self, record: UnitRecord) -> UnitState:
        """The unit's status under the contest's entry mode (``unit_state``); a loaded unit
        counts on its one load (``core.retab.loaded_unit_state``)."""
        if record.loaded and record.first is not None:
            from .retab import loaded_unit_state  # retab builds on this module

            return loaded_unit_state(record.unit, self.layout, record.first.sheet,
                                     record.first.warning_note)
        return unit_state(record.unit, self.layout, self.mode or EntryMode.DOUBLE,
                          record.first, record.second, record.resolution)

    def states(self) -> tuple[UnitState, ...]:
        """Every unit's state, in unit order (worked out once per model)."""
        return self._states

    @cached_property
    def _states(self) -> tuple[UnitState, ...]:
        return tuple(self.state(r) for r in self.units.values())

    def needs_entry(self, name: str, number: int) -> bool:
        rec = self.units.get(name)
        if rec is None:
            return False
        e = rec.entry(number)
        return needs_entry(self.state(rec), number, e.officer if e else None)

    @property
    def signed(self) -> bool:
        return bool(self.locked)

    def _whole(self) -> tuple[EnvelopeRecord, ...]:
        if self.envelopes is None:
            raise ValueError(f"The model of {self.title} was loaded for some units only; "
                             "this needs the whole contest.")
        return self.envelopes

    def readiness(self) -> Readiness:
        """Every unit counted and every envelope reexamined (``readiness``)."""
        return readiness(self.states(), self._whole(), self.no_envelopes_confirmed)

    def totals(self) -> dict[str, int]:
        """Votes per choice on the recount: counted units plus accepted envelopes."""
        return recount_totals(self.layout, self.states(), self._whole())

    def quorum(self) -> QuorumCheck | None:
        """The board's quorum by the one rule (``quorum``); None before it convened."""
        c = self.convening
        return None if c is None else quorum(c.kind, self.members, c.body_size)

    def recount_completed(self, today: date) -> date:
        """The day the recount is taken as completed: the board's meeting on its completion
        ((4)(a)), or ``today`` before the board has met."""
        return self.convening.convened_at.date() if self.convening else today

    def preview(self, *, edition: Edition, election_kind: ElectionKind, today: date,
                closed: Closed = ()) -> Declaration:
        """The result the recount gives now (``declaration`` on ``totals``)."""
        if self.canvass is None:
            raise ValueError(f"The model of {self.title} was loaded without its canvass.")
        return declaration(self.canvass, self.totals(), edition, election_kind,
                           self.recount_completed(today), closed=closed)

    def envelope(self, envelope_id: str) -> EnvelopeRecord | Refusal:
        got = next((e for e in self._whole() if e.envelope_id == envelope_id), None)
        return got if got is not None else Refusal(
            f"{self.title} has no envelope {envelope_id!r}.")

    # --- what refuses every change ------------------------------------------------------

    def _unlocked(self) -> Refusal | None:
        return Refusal(self.locked, kind=RefusalKind.LOCKED) if self.locked else None

    def _may_write(self) -> Refusal | None:
        if (no := self._unlocked()) is not None:
            return no
        if self.mode is None:
            return Refusal(f"The recount of {self.title} has not been started: choose the "
                           "method and the units first.", kind=RefusalKind.NOT_STARTED)
        return None

    # --- starting (20A-4-401(1)(e)(i)-(ii), (2)(d)(i)-(ii)) -----------------------------

    def start(self, precincts: Sequence[str], batches: Sequence[RecountUnit] | None, *,
              has_entries: bool) -> StartChange | Refusal:
        """The units of the recount: the contest's canvass precincts, or the named
        ``batches`` covering every precinct exactly once (``check_units``). It may start
        again with other settings until a tally is entered (``has_entries``)."""
        if (no := self._unlocked()) is not None:
            return no
        if self.mode is not None and has_entries:
            return Refusal(f"The recount of {self.title} already has tally entries; its "
                           "units and entry mode can no longer change.")
        given = tuple(batches) if batches is not None else units_from_precincts(precincts)
        units = tuple(RecountUnit(u.name.strip(), tuple(u.precincts)) for u in given)
        problems = check_units(units, precincts)
        if problems:
            return Refusal(" ".join(problems))
        return StartChange(units, UnitKind.BATCHES if batches is not None
                           else UnitKind.PRECINCTS, self.mode is not None)

    # --- witnesses ((2)(e)) -------------------------------------------------------------

    def designate_witness(self, name: str, designated_by: str, side: str, *,
                          designated_at: datetime | None = None,
                          attended_from: datetime | None = None,
                          attended_to: datetime | None = None) -> WitnessChange | Refusal:
        """A witness designated to watch the recount. For a proposition, by the proponents
        or the opponents (20A-4-401(2)(e)); for a race, by a candidate, whose name is the
        side (a practice the statute does not govern for races)."""
        if (no := self._unlocked()) is not None:
            return no
        who, by, what = ((name or "").strip(), (designated_by or "").strip(),
                         (side or "").strip())
        for value, missing in ((who, "the witness's name"),
                               (by, "who designated the witness"),
                               (what, "the side or candidate the witness represents")):
            if not value:
                return Refusal(f"Give {missing}.")
        if attended_from and attended_to and attended_to < attended_from:
            return Refusal("The witness cannot leave before arriving.")
        if self.canvass is not None and \
                self.canvass.contest.kind is ContestKind.PROPOSITION:
            if what.casefold() not in (PROPONENTS, OPPONENTS):
                return Refusal("For a proposition, a witness represents the proponents or "
                               "the opponents (20A-4-401(2)(e)).")
            what = what.casefold()
        elif what not in self.layout.choices:
            return Refusal(f"{what!r} is not a candidate in {self.title}; name the "
                           "candidate this witness represents.")
        return WitnessChange(Witness(who, by, designated_at, attended_from, attended_to),
                             what)

    # --- tally sheets (20A-4-401(1)(e)(ii), (2)(d)(ii)) ---------------------------------

    def who_enters(self, roster: Roster, name: str, number: int, officer: str) -> Who:
        """Who makes entry ``number`` of a unit: a person of the roster and, for double
        entry, not the one who made the other entry (``core.people.who_enters``); asked
        before any figure is typed."""
        rec = self.record(name)
        if isinstance(rec, Refusal):
            return Who(None, rec.text)
        if number not in (1, 2):
            return Who(None, "The entry number is 1 or 2.")
        if number == 2 and self.mode is EntryMode.SINGLE:
            return Who(None, f"The recount of {self.title} uses single entry: there is no "
                       "second entry.")
        other = rec.entry(3 - number)
        return who_enters(roster, officer, other.officer if self.mode is EntryMode.DOUBLE
                          and other is not None else None)

    def enter(self, roster: Roster, name: str, number: int, officer: str,
              sheet: TallySheet, note: str = "") -> EntryChange | Refusal:
        """One officer's entry of a unit's sheet (20A-4-401(1)(e)(ii)); fields left None are
        not entered yet. A complete sheet failing ``consistency`` needs ``note``."""
        if (no := self._may_write()) is not None:
            return no
        rec = self.record(name)
        if isinstance(rec, Refusal):
            return rec
        if rec.loaded:
            return Refusal(f"{name} was loaded from the re-tabulated statement of votes; "
                           "replace it by a hand count, with a note, before entering it.")
        who = self.who_enters(roster, name, number, officer)
        if who.person is None:
            return Refusal(f"{name}: {who.refusal} The sheet was not saved.")
        clean = clean_sheet(sheet, self.layout)
        if isinstance(clean, Refusal):
            return clean
        note = note.strip()
        check = consistency(clean, self.layout)
        if check is not None and not check.ok and not note:
            return Refusal(f"{name}: {check.text} The sheet was not saved.", check)
        entry = TallyEntry(number, who.person.name, clean, note)
        after = replace(rec, first=entry if number == 1 else rec.first,
                        second=entry if number == 2 else rec.second, resolution=None)
        return EntryChange(name, entry, rec.entry(number) is not None, self.state(after),
                           check)

    def resolve(self, roster: Roster, name: str, kind: ResolutionKind, *, by: str,
                corrected: TallySheet | None, note: str, joint: bool
                ) -> ResolutionChange | Refusal:
        """Settle a double-entry difference: a third person who may supervise, or the two
        officers jointly, always with a note (``core.people.who_resolves``)."""
        if (no := self._may_write()) is not None:
            return no
        rec = self.record(name)
        if isinstance(rec, Refusal):
            return rec
        state = self.state(rec)
        if state.status is not UnitStatus.MISMATCH and not (
                state.resolution is not None and state.diffs):
            return Refusal(f"{name} has no difference to resolve ({state.status.label}).")
        first, second = rec.first, rec.second
        assert first is not None
        assert second is not None
        note = note.strip()
        resolver = who_resolves(roster, by, first.officer, second.officer, joint=joint,
                                note=note)
        if resolver.refusal:
            return Refusal(f"{name}: {resolver.refusal} Nothing was saved.")
        if kind is ResolutionKind.CORRECTED:
            if corrected is None:
                return Refusal("Give the corrected values.")
            got = clean_sheet(corrected, self.layout)
            if isinstance(got, Refusal):
                return got
            if not got.complete(self.layout):
                return Refusal("The corrected values are incomplete: "
                               + ", ".join(field_label(k) for k in
                                           got.missing(self.layout)) + ".")
            corrected = got
        sheet = resolved_sheet(kind, first.sheet, second.sheet, corrected)
        check = consistency(sheet, self.layout)
        if check is not None and not check.ok and not note:
            return Refusal(f"{name}: {check.text} Nothing was saved.", check)
        res = Resolution(kind, sheet, resolver.name, note, joint)
        return ResolutionChange(name, res, state.diffs,
                                self.state(replace(rec, resolution=res)))

    # --- unopened absentee envelopes ((1)(e)(iii), (2)(d)(iii)) -------------------------

    def decide_envelope(self, envelope_id: str, outcome: EnvelopeOutcome, *,
                        decided_by: str, rule: ReturnRule,
                        reason: RejectionReason | None = None, reason_text: str = "",
                        votes: EnvelopeVotes | None = None) -> EnvelopeDecision | Refusal:
        """Decide an envelope: it stays rejected, with a reason, or it is accepted, once every
        check ``rule`` asks for has passed, and its ballot's votes join its precinct's
        recount ((1)(e)(iii), (2)(d)(iii)); ``PENDING`` takes a decision back."""
        if (no := self._unlocked()) is not None:
            return no
        env = self.envelope(envelope_id)
        if isinstance(env, Refusal):
            return env
        by = (decided_by or "").strip()
        if not by:
            return Refusal("Give who decided.")
        text = reason_text.strip()
        if outcome is EnvelopeOutcome.ACCEPTED:
            a = assess_envelope(env.checks, rule)
            if not a.may_accept:
                return Refusal(f"Envelope {envelope_id} cannot be accepted: {a.text}")
            if votes is None:
                return Refusal("Enter the ballot's votes in this contest to accept it.")
            problems = votes.problems(self.layout)
            if problems:
                return Refusal(" ".join(problems))
            reason, text = None, ""
        elif outcome is EnvelopeOutcome.REJECTED:
            if reason is None:
                return Refusal("Give the reason the envelope stays rejected, e.g. "
                               "“Rejected as defective”.")
            if reason is RejectionReason.OTHER and not text:
                return Refusal("Describe the other reason.")
            votes = None
        else:
            reason, text, votes = None, "", None
        return EnvelopeDecision(envelope_id, env.precinct, outcome, reason, text, votes, by,
                                env.outcome)

    def confirm_no_envelopes(self, confirmed: bool, note: str) -> NoEnvelopesChange | Refusal:
        """Record that there were no unopened absentee envelopes to reexamine
        ((1)(e)(iii)); refused while envelopes are listed."""
        if (no := self._may_write()) is not None:
            return no
        listed = self._whole()
        if confirmed and listed:
            return Refusal(f"{self.title} lists {len(listed)} envelope(s); reexamine them "
                           "instead.")
        return NoEnvelopesChange(confirmed, (note or "").strip())

    # --- the declaration ((1)(e)(iv)-(v), (2)(d)(iv); 20A-1-304) ------------------------

    def declare(self, *, edition: Edition, election_kind: ElectionKind, today: date,
                override_reason: str | None = None, lot: Lot | None = None,
                closed: Closed = ()) -> DeclarationChange | Refusal:
        """Declare the result from the counted units and the accepted envelopes.

        Before every unit is reconciled and every envelope reexamined, a reason for the
        override is needed (``NEEDS_OVERRIDE``); a tie at the cut-off needs the lot drawn
        under 20A-1-304 (``NEEDS_LOT`` names who draws and by when); a lot drawn after its
        deadline is recorded and flagged late.
        """
        if (no := self._may_write()) is not None:
            return no
        reason = (override_reason or "").strip() or None
        ready = self.readiness()
        if not ready.complete and reason is None:
            return Refusal(f"The recount of {self.title} is not complete: "
                           + " ".join(ready.blockers)
                           + " To declare now, give the reason for the override.",
                           kind=RefusalKind.NEEDS_OVERRIDE, blockers=ready.blockers)
        if self.canvass is None:
            raise ValueError(f"The model of {self.title} was loaded without its canvass.")
        totals = self.totals()
        completed = self.recount_completed(today)
        pre = declaration(self.canvass, totals, edition, election_kind, completed,
                          closed=closed)
        if pre.needs_lot and lot is None:
            return Refusal(pre.text, kind=RefusalKind.NEEDS_LOT, lot_rule=pre.lot_rule,
                           tied=pre.outcome.tied)
        if lot is not None and not pre.needs_lot:
            return Refusal("There is no tie at the cut-off: no lot is needed.")
        late = False
        if lot is not None:
            assert pre.lot_rule is not None
            lot = replace(lot, drawn_by=lot.drawn_by.strip(), place=lot.place.strip(),
                          method=lot.method.strip(),
                          witnesses=tuple(w.strip() for w in lot.witnesses if w.strip()))
            problems = lot_problems(lot, pre.outcome, self.canvass.contest.seats,
                                    pre.lot_rule)
            if problems:
                return Refusal(" ".join(problems))
            late = lot_is_late(lot, pre.lot_rule)
        decl = declaration(self.canvass, totals, edition, election_kind, completed, lot,
                           closed=closed)
        return DeclarationChange(decl, totals, ready, reason, lot, late)

    # --- the board of canvassers ((4); 20A-4-301, 20A-4-306) ----------------------------

    def convene(self, *, kind: BoardKind, body_size: int, convened_at: datetime,
                place: str) -> ConveneChange | Refusal:
        """Record that the board convened ((4)(a)): where, when, and the seats of the body
        the quorum is computed from (shown by the checklist, enforced at the signing)."""
        if (no := self._unlocked()) is not None:
            return no
        where = (place or "").strip()
        if not where:
            return Refusal("Give where the board met.")
        if body_size < 1:
            return Refusal("Give the number of seats on the county (or municipal) "
                           "legislative body.")
        c = Convening(kind, body_size, convened_at, where)
        return ConveneChange(c, quorum(kind, self.members, body_size))

    def signing_plan(self, names: Sequence[str], *, officer: str | None,
                     signed_at: datetime | None, place: str | None = None) -> SigningPlan:
        """Who would sign, checked against the board step and the quorum (``signing_plan``);
        ``place`` defaults to where the board met."""
        self._whole()
        c = self.convening
        return signing_plan(
            names, members=self.members, kind=c.kind if c else None,
            body_size=c.body_size if c else 0, convened_at=c.convened_at if c else None,
            declared=self.declared, officer=officer, signed_at=signed_at,
            place=place if place is not None else (c.place if c else ""))

    def sign(self, names: Sequence[str], *, officer: str | None, signed_at: datetime,
             place: str | None = None) -> SigningPlan | Refusal:
        """The signing of the report ((4)(b)(ii)): the plan to confirm and record (it locks
        the contest), or why it cannot be signed (a name not on the board, no quorum, …)."""
        if (no := self._unlocked()) is not None:
            return no
        plan = self.signing_plan(names, officer=officer, signed_at=signed_at, place=place)
        if not plan.ok:
            return Refusal(f"{self.title} cannot be signed: " + "; ".join(plan.refusals)
                           + ".")
        return plan

    def reopen(self, reason: str) -> ReopenChange | Refusal:
        """Unlock a signed contest; the reason is recorded and the signing set aside."""
        why = (reason or "").strip()
        if not why:
            return Refusal("Give the reason for reopening a signed contest.")
        if not self.locked:
            return Refusal(f"{self.title} is not locked.")
        return ReopenChange(why)
