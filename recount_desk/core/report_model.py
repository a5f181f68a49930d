"""Everything the board of canvassers' recount report shows, as frozen values, and its fingerprint.

The report is the official result of the recounted race or proposition
(Utah Code 20A-4-401(4)(d)); its contents follow 20A-4-401(4)(b)-(c) and 20A-4-304
(docs/utah-law-notes.md §2c): the election and contest, per precinct (or counting batch) the
canvass and the recount of every choice, totals, ballots rejected, the declaration, the
statement that the report is accurate, and the signatures of the board and the election
officer. For statewide and multicounty races and statewide propositions a separate report
goes to the lieutenant governor (20A-4-401(4)(c), 20A-4-304(7)).

The fingerprint is the SHA-256 of a canonical text of the recount data (not of the PDF): a
reprint of the same data carries the same fingerprint as the signed paper copy.
Pure Python, no I/O.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from enum import Enum, StrEnum

from .model import ContestKind, ElectionKind, Scope
from .rules import Edition

CANONICAL_VERSION = "recount-desk-report/1"


class Declared(StrEnum):
    """What the board declares on the recount (20A-4-401(1)(e)(iv),(v), (2)(d)(iv))."""

    ELECTED = "elected"
    PASSED = "passed"
    FAILED = "failed"


class RecountMethod(StrEnum):
    RETABULATION = "retabulation"
    HAND_COUNT = "hand_count"

    @property
    def label(self) -> str:
        if self is RecountMethod.RETABULATION:
            return "Ballots re-tabulated on the election's tabulating equipment"
        return "Ballots counted by hand"


@dataclass(frozen=True, slots=True)
class ReportElection:
    name: str
    date: date
    kind: ElectionKind
    jurisdiction: str


@dataclass(frozen=True, slots=True)
class ReportContest:
    title: str
    kind: ContestKind
    scope: Scope
    seats: int = 1
    district: str = ""
    party: str = ""

    def label(self) -> str:
        text = self.title
        if self.district and self.district not in self.title:
            text += f", District {self.district}"
        if self.party:
            text += f" ({self.party})"
        return text


@dataclass(frozen=True, slots=True)
class ReportChoice:
    name: str
    party: str = ""


@dataclass(frozen=True, slots=True)
class RecountRequestInfo:
    """One request: who filed it, when, with whom, and why it was eligible."""

    requester: str
    filed_at: datetime
    filed_with: str
    basis: str  # the eligibility basis in words, with its citation
    voters: tuple[str, ...] = ()  # the ten (or more) voters of a proposition request


@dataclass(frozen=True, slots=True)
class Unit:
    """A precinct or counting batch: canvass and recount votes, one per choice, in order."""

    name: str
    canvass: tuple[int, ...]
    recount: tuple[int, ...]
    covers: tuple[str, ...] = ()  # the precincts a counting batch covers
    # Where the unit's figures come from when it differs from the recount's loads (a unit
    # hand-counted in a re-tabulation, issue 15); empty otherwise.
    source: str = ""

    @property
    def difference(self) -> tuple[int, ...]:
        return tuple(r - c for c, r in zip(self.canvass, self.recount, strict=True))


@dataclass(frozen=True, slots=True)
class RejectedReason:
    reason: str
    count: int


@dataclass(frozen=True, slots=True)
class AbsenteeSummary:
    """The reexamination of unopened absentee ballots (20A-4-401(1)(e)(iii), (2)(d)(iii))."""

    reexamined: int
    accepted: int
    still_rejected: tuple[RejectedReason, ...] = ()

    @property
    def rejected_total(self) -> int:
        return sum(r.count for r in self.still_rejected)


@dataclass(frozen=True, slots=True)
class Witness:
    name: str
    designated_by: str  # the candidate, or the proponents / opponents ((2)(e))


@dataclass(frozen=True, slots=True)
class BoardMember:
    name: str
    title: str
    present: bool = True


@dataclass(frozen=True, slots=True)
class Board:
    """The board of canvassers (20A-4-301): its members and the quorum rule.

    A county board's quorum is a simple majority of the county legislative body and not
    fewer than three persons; a municipal board's, a simple majority.
    """

    title: str  # "Board of Grand County Canvassers"
    members: tuple[BoardMember, ...]
    body_size: int  # seats on the legislative body that forms the board
    minimum: int = 3
    convened_at: datetime | None = None
    place: str = ""

    @property
    def present(self) -> tuple[BoardMember, ...]:
        return tuple(m for m in self.members if m.present)

    @property
    def quorum_required(self) -> int:
        return max(self.minimum, self.body_size // 2 + 1)

    @property
    def quorum_met(self) -> bool:
        return len(self.present) >= self.quorum_required


@dataclass(frozen=True, slots=True)
class Lot:
    """A tie decided by lot (20A-1-304): how, by whom, when, where, and the outcome."""

    method: str
    drawn_by: str
    drawn_at: datetime
    place: str
    outcome: str
    tied: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Declaration:
    result: Declared
    winners: tuple[str, ...] = ()
    basis: str = ""
    declared_at: datetime | None = None
    lot: Lot | None = None


@dataclass(frozen=True, slots=True)
class Officer:
    name: str
    title: str  # "Grand County Clerk"


@dataclass(frozen=True, slots=True)
class CostItem:
    description: str
    cents: int


@dataclass(frozen=True, slots=True)
class CostStatement:
    """What the requesting voters pay for a proposition recount (20A-4-401(2)(f), 2019 text)."""

    items: tuple[CostItem, ...]
    payer: str
    basis: str

    @property
    def total_cents(self) -> int:
        return sum(i.cents for i in self.items)


@dataclass(frozen=True, slots=True)
class AuditRow:
    seq: int
    at: str
    actor: str
    action: str
    summary: str


@dataclass(frozen=True, slots=True)
class Printing:
    """How this copy was made; not part of the fingerprint (a reprint proves the same data)."""

    reprint: int = 0  # 0 = the original, n = the n-th reprint after signing
    generated_at: datetime | None = None
    appendix: tuple[AuditRow, ...] | None = None
    signed_on: date | None = None
    signed_by: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RecountReport:
    election: ReportElection
    board: Board
    contest: ReportContest
    edition: Edition
    choices: tuple[ReportChoice, ...]
    units: tuple[Unit, ...]
    method: RecountMethod
    double_entry: bool
    started: date
    completed: date
    declaration: Declaration
    officer: Officer
    requests: tuple[RecountRequestInfo, ...] = ()
    automatic_basis: str = ""  # non-empty for an automatic (tie) recount
    ballots_rejected: int = 0
    absentee: AbsenteeSummary | None = None
    witnesses: tuple[Witness, ...] = ()
    costs: CostStatement | None = None
    printing: Printing = Printing()
    # The re-tabulated statements loaded as the recount's tallies (issue 15), one line
    # each: "re-tabulation, loaded from FILE (SHA-256 …) …".
    loads: tuple[str, ...] = ()

    @property
    def automatic(self) -> bool:
        return not self.requests and bool(self.automatic_basis)

    def canvass_totals(self) -> tuple[int, ...]:
        return _column_sums(self.choices, (u.canvass for u in self.units))

    def recount_totals(self) -> tuple[int, ...]:
        return _column_sums(self.choices, (u.recount for u in self.units))

    def total_differences(self) -> tuple[int, ...]:
        return tuple(r - c for c, r in zip(self.canvass_totals(), self.recount_totals(),
                                           strict=True))

    def report_date(self) -> datetime:
        """The date the report is dated by: the board's meeting, else the recount's end."""
        if self.board.convened_at is not None:
            return self.board.convened_at
        if self.declaration.declared_at is not None:
            return self.declaration.declared_at
        return datetime(self.completed.year, self.completed.month, self.completed.day)


def _column_sums(choices: tuple[ReportChoice, ...],
                 rows: Iterable[tuple[int, ...]]) -> tuple[int, ...]:
    sums = [0] * len(choices)
    for row in rows:
        for i, v in enumerate(row):
            sums[i] += v
    return tuple(sums)


def title(report: RecountReport) -> str:
    return f"Official Recount Report — {report.board.title}"


def needs_lieutenant_governor_report(report: RecountReport) -> bool:
    """A statewide or multicounty race, or a statewide proposition (20A-4-401(4)(c))."""
    scope = report.contest.scope
    if report.contest.kind is ContestKind.PROPOSITION:
        return scope is Scope.STATEWIDE
    return scope in (Scope.STATEWIDE, Scope.MULTICOUNTY)


def cost_statement_applies(report: RecountReport) -> bool:
    """A proposition recount requested by voters, under the text before 2024 H.B. 515.

    20A-4-401(2)(f) makes the requesting voters pay; since H.B. 515 the administering
    political subdivision pays (utah-law-notes §1b), so no statement is owed.
    """
    return (report.contest.kind is ContestKind.PROPOSITION and report.edition is Edition.Y2019
            and bool(report.requests))


def official_result_statement(report: RecountReport) -> str:
    what = ("proposition" if report.contest.kind is ContestKind.PROPOSITION else "race")
    return (f"Under Utah Code 20A-4-401(4)(d), this canvassers' report is the official result "
            f"of the {what} {report.contest.label()} in the {report.election.name}.")


def certification_statement(report: RecountReport) -> str:
    return (f"We, the undersigned members of the {report.board.title}, having canvassed the "
            f"returns of the recount of {report.contest.label()} with the assistance of the "
            f"election officer, certify that this report is accurate and complete "
            f"(Utah Code 20A-4-401(4)(b); 20A-4-304).")


def quorum_statement(board: Board) -> str:
    n = len(board.present)
    need = board.quorum_required
    verdict = "A quorum is present" if board.quorum_met else "NO QUORUM is present"
    return (f"{verdict}: {n} of {board.body_size} members present; a quorum is a simple "
            f"majority of the body and not fewer than {board.minimum}, here {need} "
            f"(Utah Code 20A-4-301).")


def declaration_statement(report: RecountReport) -> str:
    d = report.declaration
    label = report.contest.label()
    if d.result is Declared.ELECTED:
        names = _join(d.winners)
        verb = "is" if len(d.winners) == 1 else "are"
        text = (f"On the recount, the board declares that {names} {verb} elected to "
                f"{label}")
    else:
        text = f"On the recount, the board declares the proposition {label} {d.result.value}"
    return text + (f" ({d.basis})." if d.basis else ".")


def lot_statement(lot: Lot) -> str:
    tied = f" between {_join(lot.tied)}" if lot.tied else ""
    return (f"The tie{tied} was decided by lot under Utah Code 20A-1-304: {lot.method}, "
            f"drawn by {lot.drawn_by} on {format_datetime(lot.drawn_at)} at {lot.place}. "
            f"Outcome: {lot.outcome}.")


def _join(names: tuple[str, ...]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def format_datetime(dt: datetime) -> str:
    hour = dt.hour % 12 or 12
    ampm = "a.m." if dt.hour < 12 else "p.m."
    return f"{format_date(dt.date())}, {hour}:{dt.minute:02d} {ampm}"


def format_date(d: date) -> str:
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def format_cents(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


# --- fingerprint -----------------------------------------------------------------------

def _plain(value: object) -> object:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, str | int | bool):
        return value
    raise TypeError(f"cannot put {type(value).__name__} in the canonical report data")


def canonical_report_data(report: RecountReport) -> bytes:
    """One byte string for one set of recount data: canonical JSON, UTF-8, sorted keys.

    ``printing`` (reprint number, time of printing, audit appendix) is left out, so every
    copy made from the same data has the same fingerprint.
    """
    body = _plain(report)
    assert isinstance(body, dict)
    body.pop("printing")
    body["format"] = CANONICAL_VERSION
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def fingerprint(report: RecountReport) -> str:
    """SHA-256 (hex) of :func:`canonical_report_data`."""
    return hashlib.sha256(canonical_report_data(report)).hexdigest()


def short_code(fingerprint_hex: str) -> str:
    """The first 80 bits of the fingerprint as 4 groups of 4 base32 characters.

    Base32 (A-Z, 2-7) has no 0/O or 1/I pairs to confuse when read aloud.
    """
    raw = bytes.fromhex(fingerprint_hex)[:10]
    code = base64.b32encode(raw).decode("ascii")
    return "-".join(code[i:i + 4] for i in range(0, 16, 4))
