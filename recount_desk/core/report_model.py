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
from enum import Enum

from .model import ContestKind, ElectionKind, Scope
from .recount import (
    BoardKind,
    BoardMember,
    CostStatement,
    DeclarationRecord,
    Lot,
    QuorumCheck,
    RecountMethod,
    Signing,
    Witness,
    quorum,
)
from .recount import format_cents as format_cents  # the one way to write an amount
from .rules import Edition, Result

# 3: the board carries its kind and its members their role (the quorum is core.recount's).
# 4: the declaration, the lot, the costs and the witnesses are core.recount's own types.
CANONICAL_VERSION = "recount-desk-report/4"


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
class RequestCheck:
    """One check made on a request, as the program found it: met or not, with its basis."""

    ok: bool
    text: str
    basis: str = ""


@dataclass(frozen=True, slots=True)
class RecountRequestInfo:
    """One request: who filed it, when, with whom, every check made, and how it was accepted."""

    requester: str
    filed_at: datetime
    filed_with: str
    basis: str  # the eligibility basis in words, with its citation
    voters: tuple[str, ...] = ()  # the ten (or more) voters of a proposition request
    checks: tuple[RequestCheck, ...] = ()
    override_reason: str = ""  # why the officer accepted a request that failed a check

    @property
    def failed(self) -> tuple[RequestCheck, ...]:
        return tuple(c for c in self.checks if not c.ok)


@dataclass(frozen=True, slots=True)
class Ballots:
    """The accounting lines of a tally sheet beside the choices (None: not recorded)."""

    counted: int | None = None  # ballots counted
    write_ins: int | None = None  # write-ins not listed as choices
    over: int | None = None
    under: int | None = None


@dataclass(frozen=True, slots=True)
class Unit:
    """A precinct or counting batch: canvass and recount votes, one per choice, in order,
    the ballot accounting of both, and why the recount differs."""

    name: str
    canvass: tuple[int, ...]
    recount: tuple[int, ...]
    covers: tuple[str, ...] = ()  # the precincts a counting batch covers
    canvass_ballots: Ballots = Ballots()
    recount_ballots: Ballots = Ballots()
    note: str = ""  # the variance note recorded for this unit
    entered_by: tuple[str, ...] = ()  # the officers who entered its tally sheet(s)
    resolution: str = ""  # how a double-entry disagreement was settled, by whom
    envelopes: int = 0  # accepted absentee envelopes whose ballots joined this unit
    # Where the unit's figures come from when it differs from the recount's loads (a unit
    # hand-counted in a re-tabulation, issue 15); empty otherwise.
    source: str = ""

    @property
    def difference(self) -> tuple[int, ...]:
        return tuple(r - c for c, r in zip(self.canvass, self.recount, strict=True))

    @property
    def changed(self) -> bool:
        return (any(self.difference)
                or _delta(self.canvass_ballots.write_ins, self.recount_ballots.write_ins)
                not in (None, 0))


def _delta(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else b - a


@dataclass(frozen=True, slots=True)
class RejectedReason:
    reason: str
    count: int


@dataclass(frozen=True, slots=True)
class EnvelopeLine:
    """One unopened envelope reexamined (20A-4-401(1)(e)(iii), (2)(d)(iii))."""

    envelope_id: str
    precinct: str
    original_reason: str
    checks: tuple[tuple[str, bool | None], ...]  # (check, met / not met / not checked)
    decision: str  # "Accepted and counted" / "Stays rejected: …" / "Not yet reexamined"
    decided_by: str = ""
    decided_at: datetime | None = None
    joined: str = ""  # the unit its ballot joined, for an accepted envelope


@dataclass(frozen=True, slots=True)
class AbsenteeSummary:
    """The reexamination of unopened absentee ballots (20A-4-401(1)(e)(iii), (2)(d)(iii))."""

    reexamined: int
    accepted: int
    still_rejected: tuple[RejectedReason, ...] = ()
    envelopes: tuple[EnvelopeLine, ...] = ()

    @property
    def rejected_total(self) -> int:
        return sum(r.count for r in self.still_rejected)


@dataclass(frozen=True, slots=True)
class Board:
    """The board of canvassers (20A-4-301, 20A-4-306): its members (``core.recount``'s
    ``BoardMember``, the clerk of the board left out) and its kind, from which the quorum is
    decided by the one rule, ``core.recount.quorum``."""

    title: str  # "Board of Grand County Canvassers"
    members: tuple[BoardMember, ...]
    body_size: int  # seats on the legislative body that forms the board
    kind: BoardKind = BoardKind.COUNTY
    convened_at: datetime | None = None
    place: str = ""

    @property
    def present(self) -> tuple[BoardMember, ...]:
        return tuple(m for m in self.members if m.present)

    @property
    def quorum(self) -> QuorumCheck:
        return quorum(self.kind, self.members, self.body_size)

    @property
    def quorum_required(self) -> int:
        return self.quorum.needed

    @property
    def quorum_met(self) -> bool:
        return self.quorum.ok and len(self.present) <= self.body_size


@dataclass(frozen=True, slots=True)
class Officer:
    name: str
    title: str  # "Grand County Clerk"


@dataclass(frozen=True, slots=True)
class AuditRow:
    seq: int
    at: str
    actor: str
    action: str
    summary: str


@dataclass(frozen=True, slots=True)
class Printing:
    """How this copy was made; not part of the fingerprint (a reprint proves the same data).

    ``signing`` is None until the signing is recorded: every copy is then a draft. With the
    signing recorded, reprint 0 is the signed original and n the n-th reprint.
    """

    reprint: int = 0
    generated_at: datetime | None = None
    appendix: tuple[AuditRow, ...] | None = None
    signing: Signing | None = None
    audit_upto: int = 0  # the last audit entry the copy was made after
    footer_note: str = ""  # printed beside the fingerprint on every page (e.g. chain head)

    @property
    def signed(self) -> bool:
        return self.signing is not None


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
    declaration: DeclarationRecord
    officer: Officer
    requests: tuple[RecountRequestInfo, ...] = ()
    automatic_basis: str = ""  # non-empty for an automatic (tie) recount
    absentee: AbsenteeSummary | None = None
    witnesses: tuple[Witness, ...] = ()
    costs: CostStatement | None = None
    canvass_completed: date | None = None
    started_at: datetime | None = None
    completed_at: datetime | None = None
    write_in_line: bool = True  # a race's tally sheet has a line for write-ins
    printing: Printing = Printing()
    # The re-tabulated statements loaded as the recount's tallies (issue 15), one line
    # each: "re-tabulation, loaded from FILE (SHA-256 …) …".
    loads: tuple[str, ...] = ()

    @property
    def automatic(self) -> bool:
        return not self.requests and bool(self.automatic_basis)

    @property
    def portion(self) -> bool:
        """The county's portion of a multicounty or statewide race or proposition: the
        board certifies the county's figures and transmits them; it declares no winner
        (20A-4-401(4)(c); 20A-4-304(1) applies to offices within its jurisdiction)."""
        return self.contest.scope in (Scope.MULTICOUNTY, Scope.STATEWIDE)

    def canvass_totals(self) -> tuple[int, ...]:
        return _column_sums(self.choices, (u.canvass for u in self.units))

    def recount_totals(self) -> tuple[int, ...]:
        return _column_sums(self.choices, (u.recount for u in self.units))

    def total_differences(self) -> tuple[int, ...]:
        return tuple(r - c for c, r in zip(self.canvass_totals(), self.recount_totals(),
                                           strict=True))

    def canvass_ballots(self) -> Ballots:
        return _ballot_sums(u.canvass_ballots for u in self.units)

    def recount_ballots(self) -> Ballots:
        return _ballot_sums(u.recount_ballots for u in self.units)

    def canvass_total_votes(self) -> int:
        """Votes cast for all candidates (or for and against), write-ins included
        (20A-4-401(1)(b), (2)(a))."""
        return sum(self.canvass_totals()) + (self.canvass_ballots().write_ins or 0)

    def recount_total_votes(self) -> int:
        return sum(self.recount_totals()) + (self.recount_ballots().write_ins or 0)

    def changed_units(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.changed)

    def report_date(self) -> datetime:
        """The date the report is dated by: the board's meeting, or a later declaration or
        lot (since 2024 the lot is drawn after the recount canvass)."""
        stamps = [t for t in (self.board.convened_at, self.declaration.declared_at,
                              self.declaration.lot.drawn_at if self.declaration.lot else None)
                  if t is not None]
        if stamps:
            return max(stamps)
        return datetime(self.completed.year, self.completed.month, self.completed.day)


def _column_sums(choices: tuple[ReportChoice, ...],
                 rows: Iterable[tuple[int, ...]]) -> tuple[int, ...]:
    sums = [0] * len(choices)
    for row in rows:
        for i, v in enumerate(row):
            sums[i] += v
    return tuple(sums)


def _ballot_sums(rows: Iterable[Ballots]) -> Ballots:
    """Line by line; a line missing from any unit is unknown in the total."""
    out: list[int | None] = [0, 0, 0, 0]
    for b in rows:
        for i, v in enumerate((b.counted, b.write_ins, b.over, b.under)):
            cur = out[i]
            out[i] = None if cur is None or v is None else cur + v
    return Ballots(*out)


# --- the chronology and whether the report may be official --------------------------------

@dataclass(frozen=True, slots=True)
class ChronologyStep:
    """One rule of order between two recorded dates, and whether the case keeps it."""

    ok: bool
    text: str
    basis: str


@dataclass(frozen=True, slots=True)
class Chronology:
    steps: tuple[ChronologyStep, ...]

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.steps)

    @property
    def failures(self) -> tuple[ChronologyStep, ...]:
        return tuple(s for s in self.steps if not s.ok)


def _day(t: date | datetime) -> date:
    return t.date() if isinstance(t, datetime) else t


def _order(steps: list[ChronologyStep], first: tuple[str, date | datetime | None],
           then: tuple[str, date | datetime | None], basis: str,
           strict: bool = False) -> None:
    """``then`` may not come before ``first`` (compared by day when either is a date)."""
    (a_name, a), (b_name, b) = first, then
    if a is None or b is None:
        return
    if isinstance(a, datetime) and isinstance(b, datetime):
        ok = a < b if strict else a <= b
        shown_a, shown_b = format_datetime(a), format_datetime(b)
    else:
        ok = _day(a) < _day(b) if strict else _day(a) <= _day(b)
        shown_a, shown_b = format_date(_day(a)), format_date(_day(b))
    word = "after" if strict else "on or after"
    text = f"{b_name} ({shown_b}) {word} {a_name} ({shown_a})"
    steps.append(ChronologyStep(ok, text if ok else "NOT KEPT: " + text, basis))


def chronology(report: RecountReport) -> Chronology:
    """The recorded dates in the order the statute puts them.

    Request before the recount ((1)(d)-(e), (2)(a)-(d)); the recount started before it is
    completed; the board convened upon completion ((4)(a)); the report dated on or after the
    board's meeting and signed on or after its date ((4)(b)(ii)); the declaration on the
    recount ((1)(e)(iv)-(v), (2)(d)(iv)); since 2024 H.B. 515 the lot drawn after the recount
    canvass (20A-1-304), before, after the recount; every reexamined envelope decided before
    the recount is completed ((1)(e)(iii)).
    """
    r = report
    steps: list[ChronologyStep] = []
    started = r.started_at or r.started
    completed = r.completed_at or r.completed
    if r.canvass_completed is not None:
        for q in r.requests:
            _order(steps, ("the canvass completed", r.canvass_completed),
                   ("request filed", q.filed_at), "20A-4-401(1)(d), (2)(a)")
    for q in r.requests:
        _order(steps, ("request filed", q.filed_at), ("recount started", started),
               "20A-4-401(1)(d)-(e), (2)(a)-(d)")
    _order(steps, ("recount started", started), ("recount completed", completed),
           "20A-4-401(1)(e), (2)(d)")
    if r.absentee is not None:
        late = [e for e in r.absentee.envelopes if e.decided_at is not None and (
            e.decided_at > completed if isinstance(completed, datetime)
            else e.decided_at.date() > completed)]
        if late:
            steps.append(ChronologyStep(
                False, f"NOT KEPT: envelope {late[0].envelope_id} decided on "
                f"{format_date(_day(late[0].decided_at or completed))}, after the recount was "
                f"completed ({format_date(_day(completed))})", "20A-4-401(1)(e)(iii)"))
    d = r.declaration
    if not r.portion:
        _order(steps, ("recount completed", completed), ("result declared", d.declared_at),
               "20A-4-401(1)(e)(iv)-(v), (2)(d)(iv)")
    _order(steps, ("recount completed", completed),
           ("board of canvassers convened", r.board.convened_at), "20A-4-401(4)(a)")
    _order(steps, ("board of canvassers convened", r.board.convened_at),
           ("report dated", r.report_date()), "20A-4-401(4)(b)(ii)")
    if d.lot is not None:
        if r.edition is Edition.Y2024:
            _order(steps, ("the recount canvass", r.board.convened_at),
                   ("lot drawn", d.lot.drawn_at), "20A-1-304 (2024 H.B. 515)", strict=True)
        else:
            _order(steps, ("recount completed", completed), ("lot drawn", d.lot.drawn_at),
                   "20A-1-304 (2001 text)")
        _order(steps, ("lot drawn", d.lot.drawn_at), ("report dated", r.report_date()),
               "20A-4-401(4)(b)(ii)")
    signing = r.printing.signing
    if signing is not None:
        # a signature is dated by the day
        _order(steps, ("report dated", r.report_date().date()),
               ("report signed", signing.signed_at.date()), "20A-4-401(4)(b)(ii)")
    return Chronology(tuple(steps))


def problems(report: RecountReport) -> tuple[str, ...]:
    """Why this report cannot be the official result: each problem in plain words."""
    out = [f"{s.text} ({s.basis})." for s in chronology(report).failures]
    b = report.board
    if len(b.present) > b.body_size:
        out.append(f"{len(b.present)} members are recorded present, but the body has only "
                   f"{b.body_size} seats (20A-4-301).")
    elif not b.quorum_met:
        out.append(f"No quorum: {len(b.present)} present, {b.quorum_required} needed "
                   f"({b.quorum.basis}).")
    if not report.requests and not report.automatic_basis:
        out.append("No request for a recount is recorded and the canvass does not call for "
                   "an automatic recount (20A-4-401(1)(d), (2)(a)).")
    return tuple(out)


def is_official(report: RecountReport) -> bool:
    """Official only once the signing is recorded and nothing in :func:`problems`."""
    return report.printing.signed and not problems(report)


def title(report: RecountReport) -> str:
    """"Official Recount Report" only for a signed copy with nothing in :func:`problems`."""
    word = "Official Recount Report" if is_official(report) else "Recount Report (DRAFT)"
    return f"{word} — {report.board.title}"


def needs_lieutenant_governor_report(report: RecountReport) -> bool:
    """A statewide or multicounty race or proposition (20A-4-401(4)(c)).

    (4)(c) names statewide propositions only; a multicounty proposition is filed with the
    lieutenant governor ((2)(c)(iv)), so the county's figures go there too (an assumption,
    stated on the report).
    """
    return report.portion


LG_MULTICOUNTY_PROPOSITION_ASSUMPTION = (
    "Subsection (4)(c) names statewide propositions only; because a request for a multicounty "
    "proposition recount is filed with the lieutenant governor (20A-4-401(2)(c)(iv)), this "
    "report is sent to the lieutenant governor as well (an assumption of this program).")


def cost_statement_applies(report: RecountReport) -> bool:
    """A proposition recount requested by voters, under the text before 2024 H.B. 515.

    20A-4-401(2)(f) makes the requesting voters pay; since H.B. 515 the administering
    political subdivision pays (utah-law-notes §1b), so no statement to the voters is owed.
    """
    return (report.contest.kind is ContestKind.PROPOSITION and report.edition is Edition.Y2019
            and bool(report.requests))


def edition_statement(report: RecountReport) -> str:
    """The text of the law applied, named for the election's year."""
    text = f"Utah Code {report.edition.label}"
    assumed = report.edition.assumption(report.election.date)
    return f"{text}. {assumed}" if assumed else text


def official_result_statement(report: RecountReport) -> str:
    what = ("proposition" if report.contest.kind is ContestKind.PROPOSITION else "race")
    if report.portion:
        county = report.election.jurisdiction
        return (f"Under Utah Code 20A-4-401(4)(c), this report certifies {county}'s canvass "
                f"and recount figures of the {what} "
                f"{report.contest.label()}, a {report.contest.scope.label.lower()} {what}; "
                "the result of the whole race is declared on the counties' figures "
                "together, not in this report.")
    return (f"Under Utah Code 20A-4-401(4)(d), this canvassers' report is the official result "
            f"of the {what} {report.contest.label()} in the {report.election.name}.")


def certification_statement(report: RecountReport) -> str:
    what = (f"{report.election.jurisdiction}'s figures of the recount of "
            if report.portion else "the returns of the recount of ")
    return (f"We, the undersigned members of the {report.board.title}, having canvassed "
            f"{what}{report.contest.label()} with the assistance of the "
            f"election officer, certify that this report is accurate and complete "
            f"(Utah Code 20A-4-401(4)(b); 20A-4-304).")


def quorum_statement(board: Board) -> str:
    """The quorum in words, by the one rule (``core.recount.quorum``)."""
    n = len(board.present)
    q = board.quorum
    if n > board.body_size:
        return (f"THE RECORD IS INCONSISTENT: {n} members are recorded present, but the body "
                f"has {board.body_size} seats (Utah Code 20A-4-301).")
    verdict = "A quorum is present" if board.quorum_met else "NO QUORUM is present"
    return (f"{verdict}: {n} of {board.body_size} members present; a quorum is {q.rule}, "
            f"here {q.needed} (Utah Code {q.basis}).")


def declaration_statement(report: RecountReport) -> str:
    """What was declared on the recount, by whom and when, with its citation."""
    d = report.declaration
    label = report.contest.label()
    if report.portion:
        return (f"The board declares no winner: {label} is a "
                f"{report.contest.scope.label.lower()} contest, and its result is declared "
                "on the whole race (20A-4-401(4)(c)).")
    when = f"On {format_datetime(d.declared_at)}, " if d.declared_at else ""
    who = "the election officer" + (f", {d.declared_by}," if d.declared_by else "")
    if report.contest.kind is ContestKind.PROPOSITION:
        what = f"declared the proposition {label} {d.result.value}"
        cite = "20A-4-401(2)(d)(iv)"
    else:
        names = _join(d.elected)
        verb = "is" if len(d.elected) == 1 else "are"
        what = f"declared that, on the recount, {names} {verb} elected to {label}"
        cite = ("20A-4-401(1)(e)(iv)" if report.contest.seats <= 1
                else "20A-4-401(1)(e)(v)")
    text = f"{when}{who} {what} ({cite}"
    text = text[0].upper() + text[1:]
    if d.basis and d.basis != cite:
        text += f"; {d.basis}"
    return text + ")."


def board_declaration_statement(report: RecountReport) -> str:
    """The board's own declaration on canvassing the recount (20A-4-304(1))."""
    d = report.declaration
    if report.contest.kind is ContestKind.PROPOSITION:
        word = "approved" if d.result is Result.PASSED else "rejected"
        return (f"Having canvassed the returns of the recount, the board declares the "
                f"proposition {report.contest.label()} {word} (Utah Code 20A-4-304(1)(c); "
                "20A-4-401(4)(b)(i)).")
    names = _join(d.elected)
    verb = "is" if len(d.elected) == 1 else "are"
    return (f"Having canvassed the returns of the recount, the board declares that {names} "
            f"{verb} elected to {report.contest.label()} (Utah Code 20A-4-304(1)(a); "
            "20A-4-401(4)(b)(i)).")


def lot_statement(d: DeclarationRecord, lot: Lot) -> str:
    """The lot of a declaration (``d.lot``) in words: how, by whom, when, where, before whom,
    and who it chose (20A-1-304)."""
    tied = f" between {_join(d.tied)}" if d.tied else ""
    before = (f" before {_join(lot.witnesses)}" if lot.witnesses
              else "; no witnesses to the drawing are recorded")
    return (f"The tie{tied} was decided by lot under Utah Code 20A-1-304: {lot.method}, "
            f"drawn by {lot.drawn_by} on {format_datetime(lot.drawn_at)} at {lot.place}"
            f"{before}. Outcome: {_join(lot.chosen)} chosen by lot.")


def lot_deadline_statement(d: DeclarationRecord) -> str:
    if d.lot_deadline is None:
        return "No deadline for the lot could be computed (the recount's completion is unknown)."
    kept = ("was NOT kept: the lot was drawn late" if d.lot_late else "was kept")
    return f"The deadline for the lot, {format_date(d.lot_deadline)} (20A-1-304), {kept}."


def _join(names: tuple[str, ...]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def conformed_signature(name: str, signing: Signing) -> str:
    """A signature as a conformed copy shows it: "/s/ name, date, place"."""
    where = f", {signing.place}" if signing.place else ""
    return f"/s/ {name}, {format_date(signing.signed_at.date())}{where}"


def format_datetime(dt: datetime) -> str:
    hour = dt.hour % 12 or 12
    ampm = "a.m." if dt.hour < 12 else "p.m."
    return f"{format_date(dt.date())}, {hour}:{dt.minute:02d} {ampm}"


def format_date(d: date) -> str:
    return f"{d.strftime('%B')} {d.day}, {d.year}"


# --- fingerprint -----------------------------------------------------------------------

def _plain(value: object) -> object:
    if type(value) is tuple and all(type(v) is int for v in value):
        return list(value)  # votes: the common case, kept fast for 3,000-unit recounts
    if type(value) is Ballots:
        return {"counted": value.counted, "write_ins": value.write_ins, "over": value.over,
                "under": value.under}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: _plain(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, str | int | bool):
        return value
    raise TypeError(f"cannot put {type(value).__name__} in the canonical report data")


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


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
