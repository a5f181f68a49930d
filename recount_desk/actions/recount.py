"""The recount's user actions (20A-4-401(1)(e), (2)(d)-(f), (4)): one transaction each.

Every write below is exactly one ``store.transaction`` and so one audit entry, whose payload
says what was done. Problems the user can fix raise a ``RecountError`` (or a subclass) whose
message is written for the user, before anything is written. Reads return frozen values
built by ``core.recount``, so the window, the command line and the report show the same
thing.

The contest is addressed by its id (``actions.contests.overview`` lists them), a unit by its
name, an envelope by its envelope id (the clerk's number).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from functools import cached_property
from pathlib import Path

from recount_desk import store
from recount_desk.core.model import ContestTotals, Issue, Severity
from recount_desk.core.recount import (
    BoardKind,
    BoardMember,
    Checklist,
    ChecklistInput,
    ConsistencyCheck,
    ContestRecount,
    Convening,
    CostItem,
    CostKind,
    CostStatement,
    Declaration,
    EntryMode,
    EnvelopeAssessment,
    EnvelopeCheck,
    EnvelopeOutcome,
    EnvelopeRecord,
    EnvelopeSummaryRow,
    EnvelopeVotes,
    FieldDiff,
    Lot,
    LotRule,
    QuorumCheck,
    Readiness,
    RecountMethod,
    RecountUnit,
    Refusal,
    RefusalKind,
    RejectionReason,
    ResolutionKind,
    ReturnRule,
    SheetLayout,
    SigningPlan,
    Stage,
    TallyEntry,
    TallySheet,
    TimelinessFinding,
    UnitRecord,
    UnitState,
    UnitStatus,
    VarianceTable,
    assess_envelope,
    board_kind_for,
    checklist,
    cost_statement,
    envelope_summary,
    field_label,
    members_present,
    needs_entry,
    return_rule,
    returned_in_time,
    staff_cost,
    status_line,
    variance_table,
)
from recount_desk.core.rules import Verdict, decide
from recount_desk.store import recount_repo as rr
from recount_desk.store import repo

from .case import Case

# --------------------------------------------------------------------------------------
# Errors the user sees
# --------------------------------------------------------------------------------------


class RecountError(Exception):
    """A recount action refused; the message says why and what to do. Nothing was changed."""


class AlreadyEntered(RecountError):
    """The entry was saved by another station after this one showed the unit as free."""


class ContestLocked(RecountError):
    """The contest's report is signed; reopen it with a reason to change anything."""


class RecountNotStarted(RecountError):
    """The action needs a started recount (``start_recount``)."""


class WarningNeedsNote(RecountError):
    """The sheet fails ``ballots × seats = votes + under + over``; save it with a note."""

    def __init__(self, message: str, check: ConsistencyCheck) -> None:
        super().__init__(message)
        self.check = check


class OverrideRequired(RecountError):
    """Declaring before the recount is complete needs a recorded reason."""

    def __init__(self, message: str, blockers: tuple[str, ...]) -> None:
        super().__init__(message)
        self.blockers = blockers


class LotRequired(RecountError):
    """The recount ends in a tie at the cut-off: record the lot drawn under 20A-1-304."""

    def __init__(self, message: str, rule: LotRule, tied: tuple[str, ...]) -> None:
        super().__init__(message)
        self.rule = rule
        self.tied = tied


class EnvelopeImportRefused(RecountError):
    """The envelope list has errors; every one is listed and nothing was imported."""

    def __init__(self, message: str, issues: list[Issue]) -> None:
        super().__init__(message)
        self.issues = issues


# --------------------------------------------------------------------------------------
# What the pages read
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitRow:
    """One unit as the unit list shows it: status, who entered what, the note."""

    id: int
    name: str
    precincts: tuple[str, ...]
    state: UnitState
    first_officer: str | None
    second_officer: str | None
    variance_note: str

    @property
    def status(self) -> UnitStatus:
        return self.state.status

    def needs_entry(self, number: int) -> bool:
        """Whether entry ``number`` is still to be made or completed (``core.recount``)."""
        return needs_entry(self.state, number,
                           self.first_officer if number == 1 else self.second_officer)


@dataclass(frozen=True)
class EnvelopeView:
    """An envelope with its checks, what they allow, and its decision."""

    id: int
    record: EnvelopeRecord
    postmarked: date | None
    received_at: datetime | None
    timeliness: TimelinessFinding
    assessment: EnvelopeAssessment
    check_note: str
    checked_by: str


@dataclass(frozen=True)
class BoardView:
    members: tuple[BoardMember, ...]
    convening: rr.StoredConvening | None
    quorum: QuorumCheck | None
    default_kind: BoardKind
    present: int = 0  # members counting toward the quorum (``core.recount.members_present``)


@dataclass(frozen=True)
class RecountState:
    """Everything a contest's recount pages show, read in one go."""

    contest_id: int
    title: str
    canvass: ContestTotals
    layout: SheetLayout
    settings: rr.StoredRecount | None
    units: tuple[UnitRow, ...]
    readiness: Readiness
    checklist: Checklist
    totals: Mapping[str, int]
    preview: Declaration | None
    declaration: rr.StoredDeclaration | None
    envelope_rule: ReturnRule
    board: BoardView
    signing: rr.StoredSigning | None
    reopens: tuple[rr.StoredReopen, ...]
    assumptions: tuple[str, ...]
    #: The recount as read for this state: the page's other views (variance, sources,
    #: envelopes) are made from it instead of reading the contest again.
    loaded: Loaded | None = field(default=None, repr=False, compare=False)

    @property
    def locked(self) -> bool:
        return self.signing is not None

    @property
    def status_line(self) -> str:
        return status_line(self.title, self.checklist, self.readiness)


@dataclass(frozen=True)
class EntryResult:
    """What saving an entry led to: the unit's status and the sheet's check."""

    entry_id: int
    state: UnitState
    check: ConsistencyCheck | None
    missing: tuple[str, ...]
    replaced: TallyEntry | None = None  # the entry this one replaced (what an undo restores)


@dataclass(frozen=True)
class EnvelopeImport:
    file: str
    added: int


# --------------------------------------------------------------------------------------
# Loading a contest
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Loaded:
    """A contest's recount as one action reads it: the core model (``ContestRecount``) and,
    beside it, the rows the store needs to write (unit and entry ids). Loaded once per
    action, with every unit (``load_recount(case, id)``) or only the units the action
    touches (``units=[...]``), in a constant number of statements; ``whole=True`` adds the
    envelopes, the board and the declaration the contest-wide transitions need."""

    contest_id: int
    totals: ContestTotals
    layout: SheetLayout
    settings: rr.StoredRecount | None
    stored_units: list[rr.StoredUnit]
    entries: dict[int, dict[int, rr.StoredEntry]]
    resolutions: dict[int, rr.StoredResolution]
    model: ContestRecount
    signing: rr.StoredSigning | None
    conn: object = field(repr=False, compare=False, default=None)
    stored_envelopes: list[rr.StoredEnvelope] | None = None
    stored_convening: rr.StoredConvening | None = None
    stored_declaration: rr.StoredDeclaration | None = None

    @property
    def title(self) -> str:
        return self.totals.contest.key.label()

    @cached_property
    def states(self) -> list[UnitState]:
        """The units' states, in unit order (the model's rule)."""
        return list(self.model.states())

    @cached_property
    def envelopes(self) -> list[rr.StoredEnvelope]:
        if self.stored_envelopes is not None:
            return self.stored_envelopes
        return rr.envelopes(self.conn, self.contest_id)  # type: ignore[arg-type]

    def unit(self, name: str) -> rr.StoredUnit:
        for u in self.stored_units:
            if u.unit.name == name:
                return u
        raise RecountError(f"{self.title} has no unit named {name!r}.")

    def envelope(self, envelope_id: str) -> rr.StoredEnvelope:
        for e in self.envelopes:
            if e.record.envelope_id == envelope_id:
                return e
        raise RecountError(f"{self.title} has no envelope {envelope_id!r}.")


def load_recount(case: Case, contest_id: int, units: Sequence[str] | None = None, *,
                 whole: bool = False) -> Loaded:
    """Read a contest's recount once: every unit, or only ``units`` (by name); with
    ``whole`` also its envelopes, board and declaration (the model of the whole contest)."""
    try:
        sc = repo.contest_by_id(case.conn, contest_id)
    except KeyError:
        raise RecountError(f"There is no contest number {contest_id} in this case.") from None
    layout = SheetLayout.for_contest(sc.totals)
    settings = rr.get_recount(case.conn, contest_id)
    stored: list[rr.StoredUnit] = []
    entries: dict[int, dict[int, rr.StoredEntry]] = {}
    resolutions: dict[int, rr.StoredResolution] = {}
    loaded: dict[int, int] = {}
    if units is None or units:  # (no unit asked for: a load's preview before any is entered)
        stored = rr.units(case.conn, contest_id, units)
        ids = None if units is None else [u.id for u in stored]
        entries = rr.current_entries(case.conn, contest_id, ids)
        resolutions = rr.current_resolutions(case.conn, contest_id, entries, ids)
        loaded = rr.loaded_units(case.conn, contest_id, ids)
    signing = rr.active_signing(case.conn, contest_id)
    title = sc.totals.contest.key.label()
    records = {}
    for u in stored:
        e = entries.get(u.id, {})
        res = resolutions.get(u.id)
        records[u.unit.name] = UnitRecord(
            u.unit, e[1].entry if 1 in e else None, e[2].entry if 2 in e else None,
            res.resolution if res else None, u.id in loaded)
    locked = "" if signing is None else (
        f"{title} is locked: its report was signed on {signing.signed_at:%Y-%m-%d %H:%M} by "
        f"{', '.join(signing.signers)}. Reopen it, with the reason, before changing anything.")
    model = ContestRecount(
        title, layout, settings.entry_mode if settings else None, records, locked,
        canvass=sc.totals,
        no_envelopes_confirmed=bool(settings and settings.no_envelopes_confirmed))
    ctx = Loaded(contest_id, sc.totals, layout, settings, stored, entries, resolutions, model,
                 signing, case.conn)
    return with_whole(case, ctx) if whole else ctx


def with_whole(case: Case, ctx: Loaded) -> Loaded:
    """``ctx`` with the contest-wide parts of the model (envelopes, board, declaration) read
    in too, if they are not yet."""
    if ctx.model.envelopes is not None:
        return ctx
    cid = ctx.contest_id
    envs = rr.envelopes(case.conn, cid)
    conv = rr.convening(case.conn, cid)
    decl = rr.current_declaration(case.conn, cid)
    model = replace(
        ctx.model, envelopes=tuple(e.record for e in envs),
        members=tuple(rr.board_members(case.conn, cid)),
        convening=None if conv is None else Convening(conv.board_kind, conv.body_size,
                                                      conv.convened_at, conv.place),
        declared=decl is not None)
    return replace(ctx, model=model, stored_envelopes=envs, stored_convening=conv,
                   stored_declaration=decl)


def ensure_writable(case: Case, ctx: Loaded) -> None:
    """Refuse (``ContestLocked``) a change to a signed contest."""
    if ctx.model.locked:
        raise ContestLocked(ctx.model.locked)


def ensure_started(ctx: Loaded) -> rr.StoredRecount:
    """The recount's settings; ``RecountNotStarted`` before the recount is started."""
    if ctx.settings is None:
        raise RecountNotStarted(f"The recount of {ctx.title} has not been started: choose the "
                                "method and the units first.")
    return ctx.settings


def _refused(r: Refusal) -> RecountError:
    """The model's refusal as the error the caller catches (the same sentence)."""
    if r.kind is RefusalKind.NEEDS_NOTE and r.check is not None:
        return WarningNeedsNote(r.text, r.check)
    if r.kind is RefusalKind.LOCKED:
        return ContestLocked(r.text)
    if r.kind is RefusalKind.NOT_STARTED:
        return RecountNotStarted(r.text)
    if r.kind is RefusalKind.NEEDS_OVERRIDE:
        return OverrideRequired(r.text, r.blockers)
    if r.kind is RefusalKind.NEEDS_LOT and r.lot_rule is not None:
        return LotRequired(r.text, r.lot_rule, r.tied)
    return RecountError(r.text)


def withdraw_stale_declaration(case: Case, ctx: Loaded, tx: store.Tx) -> None:
    """A change to the counted data makes an earlier declaration out of date (withdrawn in
    the action's transaction)."""
    declared = (ctx.model.declared if ctx.model.envelopes is not None
                else rr.current_declaration(case.conn, ctx.contest_id) is not None)
    if declared:
        rr.withdraw_declaration(tx, ctx.contest_id)
        tx["declaration_withdrawn"] = True


def _name(text: str, what: str) -> str:
    t = (text or "").strip()
    if not t:
        raise RecountError(f"Give {what}.")
    return t


def _sheet_json(sheet: TallySheet) -> dict[str, object]:
    return {"ballots": sheet.ballots, "votes": dict(sheet.votes), "write_ins": sheet.write_ins,
            "over": sheet.over, "under": sheet.under}


# --------------------------------------------------------------------------------------
# Starting the recount and entering tallies
# --------------------------------------------------------------------------------------


def start_recount(case: Case, contest_id: int, *, method: RecountMethod,
                  entry_mode: EntryMode = EntryMode.DOUBLE,
                  batches: Sequence[RecountUnit] | None = None) -> RecountState:
    """Start the recount of a contest (20A-4-401(1)(e)(i)-(ii), (2)(d)(i)-(ii)).

    Units are the contest's canvass precincts, or the named ``batches`` (each covering some
    precincts; together every precinct exactly once). Until the first tally is entered the
    recount may be started again with other settings; after that the units are fixed.
    """
    with store.transaction(case.conn, case.actor, "start recount") as tx:
        ctx = load_recount(case, contest_id)
        d = ctx.model.start(rr.contest_precincts(case.conn, contest_id), batches,
                            has_entries=ctx.settings is not None
                            and bool(rr.entry_count(case.conn, contest_id)))
        if isinstance(d, Refusal):
            raise _refused(d)
        rr.save_recount(tx, contest_id, method=method, entry_mode=entry_mode,
                        unit_kind=d.kind, units=d.units, started_at=store.utc_now(),
                        started_by=case.actor)
        tx.update({"contest_id": contest_id, "contest": ctx.title,
                   "method": method.value, "entry_mode": entry_mode.value,
                   "unit_kind": d.kind.value, "restarted": d.restarted,
                   "units": [{"name": u.name, "precincts": list(u.precincts)}
                             for u in d.units]})
    return recount_state(case, contest_id)


def enter_tally(case: Case, contest_id: int, unit: str, *, entry: int, officer: str,
                sheet: TallySheet, warning_note: str = "", expect_new: bool = False
                ) -> EntryResult:
    """Save one officer's entry of a unit's tally sheet (20A-4-401(1)(e)(ii)).

    ``entry`` is 1, or 2 for the blind second entry of double entry, made by another
    officer. Fields left ``None`` are not entered yet (not zero); a partial sheet may be
    saved and completed later. A complete sheet that fails ``ballots × seats = votes +
    under + over`` is saved only with ``warning_note`` (else ``WarningNeedsNote``).
    Entering a sheet again replaces the earlier entry of the same number (kept in history);
    it also sets aside a resolution of that unit and a declaration already made.
    ``expect_new``: the officer took the unit as not entered yet (a station of the counting
    center, where others enter at once): refused with ``AlreadyEntered`` if another station
    saved this entry meanwhile, so nobody's entry is replaced unseen.
    """
    officer = _name(officer, "the name of the officer who enters this sheet")
    with store.transaction(case.conn, case.actor, "enter tally") as tx:
        ctx = load_recount(case, contest_id, [unit])
        ensure_writable(case, ctx)
        ensure_started(ctx)
        su = ctx.unit(unit)
        taken = ctx.entries.get(su.id, {}).get(entry)
        if expect_new and taken is not None:
            raise AlreadyEntered(f"{unit}: entry {entry} was saved meanwhile by "
                                 f"{taken.entry.officer} (on another station); this sheet was "
                                 "not saved. The unit list now shows it.")
        change = ctx.model.enter(case.roster, unit, entry, officer, sheet, warning_note)
        if isinstance(change, Refusal):
            raise _refused(change)
        cids = rr.choice_ids(case.conn, contest_id)
        eid = rr.add_entry(tx, su.id, change.entry, cids, store.utc_now(), case.actor)
        withdraw_stale_declaration(case, ctx, tx)
        clean, check = change.entry.sheet, change.check
        tx.update({"contest_id": contest_id, "contest": ctx.title, "unit": unit,
                   "entry": entry, "officer": change.entry.officer,
                   "sheet": _sheet_json(clean),
                   "check_ok": None if check is None else check.ok,
                   "warning_note": change.entry.warning_note or None,
                   "replaced": change.replaces})
    return EntryResult(eid, change.state, check,
                       tuple(field_label(k) for k in clean.missing(ctx.layout)),
                       taken.entry if taken is not None else None)


def may_enter(case: Case, contest_id: int, unit: str, entry: int, officer: str) -> str | None:
    """Why ``officer`` may not make this entry of the unit (None: they may). The window
    asks this as soon as the officer is named, before any figure is typed."""
    ctx = load_recount(case, contest_id, [unit])
    ensure_started(ctx)
    ctx.unit(unit)
    who = ctx.model.who_enters(case.roster, unit, entry, officer)
    return None if who.person is not None else who.refusal


def entry_of(case: Case, contest_id: int, unit: str, entry: int) -> TallyEntry | None:
    """The current entry 1 or 2 of a unit. The second-entry page must not show entry 1."""
    ctx = load_recount(case, contest_id, [unit])
    su = ctx.unit(unit)
    got = ctx.entries.get(su.id, {}).get(entry)
    return got.entry if got else None


def differences(case: Case, contest_id: int, unit: str) -> tuple[FieldDiff, ...]:
    """The fields the two entries of a unit disagree on (side by side)."""
    ctx = load_recount(case, contest_id, [unit])
    ctx.unit(unit)
    return ctx.model.state(ctx.model.units[unit]).diffs


def resolve_mismatch(case: Case, contest_id: int, unit: str, *, kind: ResolutionKind,
                     by: str = "", corrected: TallySheet | None = None, note: str = "",
                     joint: bool = False) -> UnitState:
    """Settle a double-entry mismatch: keep the first, keep the second, or correct.

    Settled by ``by``, a third person of the roster who may supervise, or with ``joint`` by
    the two officers together; always with a ``note`` of what was checked
    (``core.people.who_resolves``). Only the unit's current pair of entries is resolved.
    """
    with store.transaction(case.conn, case.actor, "resolve tally mismatch") as tx:
        ctx = load_recount(case, contest_id, [unit])
        ensure_writable(case, ctx)
        ensure_started(ctx)
        su = ctx.unit(unit)
        change = ctx.model.resolve(case.roster, unit, kind, by=by, corrected=corrected,
                                   note=note or "", joint=joint)
        if isinstance(change, Refusal):
            raise _refused(change)
        pair = ctx.entries[su.id]
        first, second = pair[1], pair[2]
        res = change.resolution
        rid = rr.add_resolution(tx, su.id, first.id, second.id, res,
                                rr.choice_ids(case.conn, contest_id), store.utc_now())
        withdraw_stale_declaration(case, ctx, tx)
        tx.update({"contest_id": contest_id, "contest": ctx.title, "unit": unit,
                   "resolution_id": rid, "kind": kind.value, "by": res.by, "joint": joint,
                   "first_entry_id": first.id, "second_entry_id": second.id,
                   "differences": [{"field": d.label, "first": d.first,
                                    "second": d.second} for d in change.diffs],
                   "sheet": _sheet_json(res.sheet), "note": res.note or None})
    return change.state


def set_variance_note(case: Case, contest_id: int, unit: str, note: str) -> None:
    """The officer's explanation of a unit's variance against the canvass."""
    with store.transaction(case.conn, case.actor, "note variance") as tx:
        ctx = load_recount(case, contest_id)
        ensure_writable(case, ctx)
        ensure_started(ctx)
        su = ctx.unit(unit)
        rr.set_variance_note(tx, su.id, note.strip())
        tx.update({"contest_id": contest_id, "contest": ctx.title, "unit": unit,
                        "before": su.variance_note or None, "note": note.strip() or None})


# --------------------------------------------------------------------------------------
# Witnesses
# --------------------------------------------------------------------------------------


def add_witness(case: Case, contest_id: int, *, name: str, designated_by: str, side: str,
                designated_at: datetime | None = None, attended_from: datetime | None = None,
                attended_to: datetime | None = None) -> int:
    """Record a representative designated to witness the recount.

    Propositions: designated by the proponents or the opponents (20A-4-401(2)(e));
    ``side`` is ``PROPONENTS`` or ``OPPONENTS``. Races: designated by a candidate; ``side``
    is the candidate's name (a practice the statute does not govern for races).
    """
    with store.transaction(case.conn, case.actor, "add witness") as tx:
        ctx = load_recount(case, contest_id)
        d = ctx.model.designate_witness(name, designated_by, side,
                                        designated_at=designated_at,
                                        attended_from=attended_from, attended_to=attended_to)
        if isinstance(d, Refusal):
            raise _refused(d)
        w = d.witness
        wid = rr.add_witness(tx, contest_id, name=w.name, designated_by=w.designated_by,
                             side=d.side, designated_at=w.designated_at,
                             attended_from=w.attended_from, attended_to=w.attended_to,
                             recorded_by=case.actor, recorded_at=store.utc_now())
        tx.update({"contest_id": contest_id, "contest": ctx.title, "witness_id": wid,
                   "name": w.name, "designated_by": w.designated_by, "side": d.side,
                   "designated_at": _iso(w.designated_at),
                   "attended_from": _iso(w.attended_from),
                   "attended_to": _iso(w.attended_to)})
    return wid


def record_witness_attendance(case: Case, contest_id: int, witness_id: int, *,
                              attended_from: datetime | None,
                              attended_to: datetime | None) -> None:
    """When a witness was present (arrived, left)."""
    if attended_from and attended_to and attended_to < attended_from:
        raise RecountError("The witness cannot leave before arriving.")
    with store.transaction(case.conn, case.actor, "record witness attendance") as tx:
        ctx = load_recount(case, contest_id)
        ensure_writable(case, ctx)
        if witness_id not in {w.id for w in rr.witnesses(case.conn, contest_id)}:
            raise RecountError(f"No witness number {witness_id} in {ctx.title}.")
        rr.set_witness_attendance(tx, witness_id, attended_from, attended_to)
        tx.update({"contest_id": contest_id, "witness_id": witness_id,
                        "attended_from": _iso(attended_from), "attended_to": _iso(attended_to)})


def witnesses(case: Case, contest_id: int) -> list[rr.Witness]:
    return rr.witnesses(case.conn, contest_id)


def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat(timespec="minutes") if dt else None


# --------------------------------------------------------------------------------------
# Unopened absentee envelopes
# --------------------------------------------------------------------------------------

_ENVELOPE_HEADERS = {
    "envelope": ("envelope id", "envelope", "envelope_id", "envelope no", "envelope number",
                 "id", "ballot id"),
    "precinct": ("precinct", "precinct name", "precinct_name"),
    "reason": ("original reason", "reason", "original_reason", "reason not opened",
               "rejection reason"),
}


def _precinct_lookup(case: Case, contest_id: int) -> dict[str, str]:
    return {" ".join(p.casefold().split()): p
            for p in rr.contest_precincts(case.conn, contest_id)}


def _check_envelope_row(no: str, precinct: str, reason: str, lookup: Mapping[str, str],
                        existing: set[str], earlier: set[str]
                        ) -> tuple[str | None, list[tuple[str, str]]]:
    errors: list[tuple[str, str]] = []
    found = lookup.get(" ".join(precinct.casefold().split()))
    if not no:
        errors.append(("envelope id", "The envelope id is empty."))
    elif no in existing:
        errors.append(("envelope id", f"Envelope {no} is already in this case."))
    elif no in earlier:
        errors.append(("envelope id", f"Envelope {no} is listed twice."))
    if not precinct:
        errors.append(("precinct", "The precinct is empty."))
    elif found is None:
        errors.append(("precinct", f"{precinct!r} is not a precinct of this contest."))
    if not reason:
        errors.append(("original reason", "Say why the envelope was not opened."))
    return found, errors


def import_envelopes_csv(case: Case, contest_id: int, path: Path | str) -> EnvelopeImport:
    """Import the clerk's list of unopened envelopes, all or nothing ((1)(e)(iii)).

    Columns (header row, any order, case-insensitive): envelope id, precinct, original
    reason. Every problem is reported with its row; with any error nothing is imported.
    """
    path = Path(path)
    if path.exists() and not path.is_file():  # a FIFO would block the read forever
        raise RecountError(f"{path.name} is not a regular file (a folder, a pipe or a "
                           "device); save the list as a CSV file and import that.")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as e:
        raise RecountError(f"{path.name} cannot be read: {e.strerror}.") from e
    except UnicodeDecodeError:
        try:
            text = path.read_bytes().decode("cp1252")
        except UnicodeDecodeError as e:
            raise RecountError(f"{path.name} is not a text (CSV) file.") from e
    rows, issues = _parse_envelope_csv(path.name, text)
    with store.transaction(case.conn, case.actor, "import envelopes") as tx:
        ctx = load_recount(case, contest_id)
        ensure_writable(case, ctx)
        ensure_started(ctx)
        lookup = _precinct_lookup(case, contest_id)
        existing = rr.envelope_numbers(case.conn, contest_id)
        earlier: set[str] = set()
        clean: list[tuple[str, str, str]] = []
        for row_no, no, precinct, reason in rows:
            found, errors = _check_envelope_row(no, precinct, reason, lookup, existing,
                                                earlier)
            issues.extend(Issue(path.name, msg, row=row_no, column=col,
                                severity=Severity.ERROR) for col, msg in errors)
            earlier.add(no)
            if found is not None and not errors:
                clean.append((no, found, reason))
        if not rows and not issues:
            issues.append(Issue(path.name, "The file lists no envelope.",
                                severity=Severity.ERROR))
        if issues:
            raise EnvelopeImportRefused(
                f"{path.name} was not imported: {len(issues)} problem(s) to fix. Nothing was "
                "changed.", issues)
        rr.add_envelopes(tx, contest_id, clean, "csv", store.utc_now(), case.actor)
        withdraw_stale_declaration(case, ctx, tx)
        tx.update({"contest_id": contest_id, "contest": ctx.title, "file": path.name,
                        "envelopes": [list(r) for r in clean]})
    return EnvelopeImport(path.name, len(clean))


def _parse_envelope_csv(name: str, text: str
                        ) -> tuple[list[tuple[int, str, str, str]], list[Issue]]:
    issues: list[Issue] = []
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel()  # type: ignore[assignment]
    # strict: a quote left open is an error, not a field that swallows the rows after it
    reader = csv.reader(io.StringIO(text), dialect, strict=True)
    try:
        header = next(reader)
    except StopIteration:
        return [], [Issue(name, "The file is empty.", severity=Severity.ERROR)]
    except csv.Error as e:
        return [], [Issue(name, f"Not a readable CSV file ({e}).", severity=Severity.ERROR)]
    norm = [" ".join(h.casefold().replace("_", " ").split()) for h in header]
    cols: dict[str, int] = {}
    for key, names in _ENVELOPE_HEADERS.items():
        for i, h in enumerate(norm):
            if h in {" ".join(n.replace("_", " ").split()) for n in names}:
                cols[key] = i
                break
    missing = [k for k in ("envelope", "precinct", "reason") if k not in cols]
    if missing:
        words = {"envelope": "envelope id", "precinct": "precinct", "reason": "original reason"}
        return [], [Issue(name, "The header row must name the columns envelope id, precinct "
                          "and original reason; missing: "
                          + ", ".join(words[m] for m in missing) + ".", row=1,
                          severity=Severity.ERROR)]
    rows: list[tuple[int, str, str, str]] = []
    try:
        for i, rec in enumerate(reader, start=2):
            if not any(c.strip() for c in rec):
                continue
            if len(rec) > len(header) and any(c.strip() for c in rec[len(header):]):
                issues.append(Issue(name, f"Row {reader.line_num} has {len(rec)} fields but "
                                    f"the header names {len(header)}: a comma inside a "
                                    "value must be quoted.", row=reader.line_num,
                                    severity=Severity.ERROR))
                continue
            # NFKC: a full-width "Ｅ１" typed on another keyboard is the envelope "E1"
            rows.append((i, unicodedata.normalize("NFKC", _cell(rec, cols["envelope"])),
                         _cell(rec, cols["precinct"]), _cell(rec, cols["reason"])))
    except csv.Error as e:
        issues.append(Issue(name, f"The CSV cannot be read past row {reader.line_num}: {e} "
                            "(a quote opened and never closed?).",
                            row=reader.line_num, severity=Severity.ERROR))
    return rows, issues


def _cell(rec: list[str], j: int) -> str:
    return rec[j].strip() if j < len(rec) else ""


def add_envelope(case: Case, contest_id: int, *, envelope_id: str, precinct: str,
                 original_reason: str) -> int:
    """Enter one unopened envelope by hand (envelope id, precinct, why it was not opened)."""
    no = unicodedata.normalize("NFKC", (envelope_id or "").strip())  # "Ｅ１" is "E1"
    with store.transaction(case.conn, case.actor, "add envelope") as tx:
        ctx = load_recount(case, contest_id)
        ensure_writable(case, ctx)
        ensure_started(ctx)
        found, errors = _check_envelope_row(
            no, (precinct or "").strip(), (original_reason or "").strip(),
            _precinct_lookup(case, contest_id), rr.envelope_numbers(case.conn, contest_id),
            set())
        if errors:
            raise RecountError(" ".join(m for _, m in errors))
        assert found is not None
        (eid,) = rr.add_envelopes(tx, contest_id,
                                  [(no, found, original_reason.strip())], "hand",
                                  store.utc_now(), case.actor)
        withdraw_stale_declaration(case, ctx, tx)
        tx.update({"contest_id": contest_id, "contest": ctx.title, "envelope": no,
                        "precinct": found, "original_reason": original_reason.strip()})
    return eid


def _canvass_day(case: Case) -> date | None:
    cc = case.election.canvass_completed
    return cc.date() if cc else None


def _view(case: Case, e: rr.StoredEnvelope, rule: ReturnRule) -> EnvelopeView:
    timely = returned_in_time(rule, case.election.date, _canvass_day(case), e.postmarked,
                              e.received_at)
    return EnvelopeView(e.id, e.record, e.postmarked, e.received_at, timely,
                        assess_envelope(e.record.checks, rule), e.check_note, e.checked_by)


def record_envelope_checks(case: Case, contest_id: int, envelope_id: str, *,
                           checks: Mapping[EnvelopeCheck, bool | None],
                           postmarked: date | None = None, received_at: datetime | None = None,
                           note: str = "", checked_by: str | None = None) -> EnvelopeView:
    """Record the checks made on an envelope ((1)(e)(iii); 20A-3-308, 20A-3a-401).

    ``checks`` maps each check to passed / failed / ``None`` (not yet checked). When
    "returned in time" is left ``None`` and the postmark and receipt are given, it is
    computed under the rule of the election's date (``return_rule``).
    """
    by = (checked_by or case.actor).strip()
    with store.transaction(case.conn, case.actor, "check envelope") as tx:
        ctx = load_recount(case, contest_id)
        ensure_writable(case, ctx)
        env = ctx.envelope(envelope_id)
        rule = return_rule(case.election.date)
        values = dict(checks)
        timely = returned_in_time(rule, case.election.date, _canvass_day(case), postmarked,
                                  received_at)
        if values.get(EnvelopeCheck.IN_TIME) is None and timely.ok is not None:
            values[EnvelopeCheck.IN_TIME] = timely.ok
        rr.add_envelope_check(tx, env.id, values, postmarked, received_at,
                              note.strip(), by, store.utc_now())
        tx.update({"contest_id": contest_id, "contest": ctx.title,
                        "envelope": envelope_id, "checked_by": by,
                        "checks": {c.value: values.get(c) for c in EnvelopeCheck},
                        "postmarked": postmarked.isoformat() if postmarked else None,
                        "received_at": _iso(received_at), "timeliness": timely.text,
                        "rule": rule.basis, "note": note.strip() or None})
    return _view(case, load_recount(case, contest_id).envelope(envelope_id), rule)


def decide_envelope(case: Case, contest_id: int, envelope_id: str, *,
                    outcome: EnvelopeOutcome, decided_by: str,
                    reason: RejectionReason | None = None, reason_text: str = "",
                    votes: EnvelopeVotes | None = None) -> EnvelopeView:
    """Decide an envelope: it stays rejected, with a reason, or it is accepted and its
    ballot's votes join its precinct's recount ((1)(e)(iii), (2)(d)(iii)).

    Acceptance needs every check the law of the date asks for to have passed, and the
    ballot's votes. ``PENDING`` takes a decision back (recorded too).
    """
    with store.transaction(case.conn, case.actor, "decide envelope") as tx:
        ctx = load_recount(case, contest_id, whole=True)
        rule = return_rule(case.election.date)
        d = ctx.model.decide_envelope(envelope_id, outcome, decided_by=decided_by, rule=rule,
                                      reason=reason, reason_text=reason_text, votes=votes)
        if isinstance(d, Refusal):
            raise _refused(d)
        env = ctx.envelope(envelope_id)
        rr.add_envelope_decision(tx, env.id, d.outcome, d.reason, d.reason_text,
                                 d.votes, rr.choice_ids(case.conn, contest_id), d.decided_by,
                                 store.utc_now())
        withdraw_stale_declaration(case, ctx, tx)
        tx.update({"contest_id": contest_id, "contest": ctx.title,
                   "envelope": envelope_id, "precinct": d.precinct,
                   "outcome": d.outcome.value, "decided_by": d.decided_by,
                   "reason": d.reason.label if d.reason else None,
                   "reason_text": d.reason_text or None,
                   "before": d.before.value,
                   "votes": None if d.votes is None else
                   {"votes": dict(d.votes.votes), "write_ins": d.votes.write_ins,
                    "over": d.votes.over, "under": d.votes.under}})
    return _view(case, load_recount(case, contest_id).envelope(envelope_id), rule)


def confirm_no_envelopes(case: Case, contest_id: int, *, confirmed: bool = True,
                         note: str = "") -> None:
    """Record that there were no unopened absentee envelopes to reexamine ((1)(e)(iii))."""
    with store.transaction(case.conn, case.actor, "confirm no envelopes") as tx:
        ctx = load_recount(case, contest_id, whole=True)
        d = ctx.model.confirm_no_envelopes(confirmed, note)
        if isinstance(d, Refusal):
            raise _refused(d)
        rr.set_no_envelopes(tx, contest_id, d.confirmed, d.note)
        tx.update({"contest_id": contest_id, "contest": ctx.title,
                   "confirmed": d.confirmed, "note": d.note or None})


def envelope_list(case: Case, contest_id: int, ctx: Loaded | None = None
                  ) -> list[EnvelopeView]:
    """Every envelope with its checks, what they allow, and its decision (``ctx``: the
    recount as already read)."""
    ctx = ctx or load_recount(case, contest_id)
    rule = return_rule(case.election.date)
    return [_view(case, e, rule) for e in ctx.envelopes]


def envelope_summary_of(case: Case, contest_id: int, ctx: Loaded | None = None
                        ) -> tuple[EnvelopeSummaryRow, ...]:
    """Counts by outcome and reason, for the report (``ctx``: the recount as already read)."""
    return envelope_summary(e.record for e in (ctx or load_recount(case, contest_id)).envelopes)


# --------------------------------------------------------------------------------------
# Declaration
# --------------------------------------------------------------------------------------


def declaration_preview(case: Case, contest_id: int, on: date | None = None) -> Declaration:
    """The result the recount gives now (counted units plus accepted envelopes)."""
    ctx = load_recount(case, contest_id, whole=True)
    return ctx.model.preview(edition=case.edition, election_kind=case.election.kind,
                             today=on or datetime.now().date(), closed=case.closed_days)


def declare(case: Case, contest_id: int, *, override_reason: str | None = None,
            lot: Lot | None = None, on: date | None = None) -> rr.StoredDeclaration:
    """Declare the result of the recount ((1)(e)(iv)-(v), (2)(d)(iv)).

    From the reconciled units plus the accepted envelopes (``ContestRecount.declare``).
    Before every unit is reconciled and every envelope reexamined, ``override_reason`` is
    required (``OverrideRequired``). A tie at the cut-off needs ``lot`` under 20A-1-304
    (``LotRequired`` says who draws and by when); a lot drawn after that date is recorded
    and flagged late.
    """
    with store.transaction(case.conn, case.actor, "declare result") as tx:
        ctx = load_recount(case, contest_id, whole=True)
        d = ctx.model.declare(edition=case.edition, election_kind=case.election.kind,
                              today=on or datetime.now().date(),
                              override_reason=override_reason, lot=lot,
                              closed=case.closed_days)
        if isinstance(d, Refusal):
            raise _refused(d)
        decl, ready, lot = d.declaration, d.readiness, d.lot
        totals = dict(d.totals)
        did = rr.add_declaration(
            tx, contest_id, result=decl.outcome.result.value, elected=decl.elected,
            tied=decl.outcome.tied, totals=totals, text=decl.text, basis=decl.basis,
            complete=ready.complete, override_reason=d.override_reason,
            declared_by=case.actor, declared_at=store.utc_now())
        if lot is not None and decl.lot_rule is not None:
            rr.add_lot(tx, did, lot, decl.lot_rule.deadline, d.lot_late, decl.lot_rule.basis)
        tx.update({
            "contest_id": contest_id, "contest": ctx.title, "declaration_id": did,
            "result": decl.outcome.result.value, "elected": list(decl.elected),
            "tied": list(decl.outcome.tied), "totals": totals, "text": decl.text,
            "basis": decl.basis, "complete": ready.complete,
            "override_reason": d.override_reason, "blockers": list(ready.blockers),
            "lot": None if lot is None else {
                "drawn_by": lot.drawn_by, "drawn_at": _iso(lot.drawn_at), "place": lot.place,
                "method": lot.method, "witnesses": list(lot.witnesses),
                "chosen": list(lot.chosen), "late": d.lot_late}})
    got = rr.current_declaration(case.conn, contest_id)
    assert got is not None
    return got


# --------------------------------------------------------------------------------------
# Costs
# --------------------------------------------------------------------------------------


def add_cost(case: Case, contest_id: int, *, kind: CostKind, description: str,
             amount_cents: int | None = None, hours_hundredths: int | None = None,
             rate_cents: int | None = None) -> int:
    """Add a cost item ((2)(f)): staff hours × hourly rate, or an amount in cents.

    Use ``core.recount.parse_hours`` / ``parse_cents`` to read what the user typed.
    """
    description = _name(description, "a description of the cost")
    if kind is CostKind.STAFF:
        if hours_hundredths is None or rate_cents is None:
            raise RecountError("Staff time needs the hours and the hourly rate.")
        if hours_hundredths < 0 or rate_cents < 0:
            raise RecountError("Hours and rate cannot be negative.")
        amount = staff_cost(hours_hundredths, rate_cents)
    else:
        if amount_cents is None or amount_cents < 0:
            raise RecountError("Give the amount (zero or more).")
        amount, hours_hundredths, rate_cents = amount_cents, None, None
    item = CostItem(kind, description, amount, hours_hundredths, rate_cents)
    with store.transaction(case.conn, case.actor, "add cost") as tx:
        ctx = load_recount(case, contest_id)
        ensure_writable(case, ctx)
        cid = rr.add_cost(tx, contest_id, item, case.actor, store.utc_now())
        tx.update({"contest_id": contest_id, "contest": ctx.title, "cost_id": cid,
                        "kind": kind.value, "description": description,
                        "hours_hundredths": hours_hundredths, "rate_cents": rate_cents,
                        "amount_cents": amount})
    return cid


def remove_cost(case: Case, contest_id: int, cost_id: int) -> None:
    """Take a cost item off the statement (it stays in the history)."""
    with store.transaction(case.conn, case.actor, "remove cost") as tx:
        ctx = load_recount(case, contest_id)
        ensure_writable(case, ctx)
        if not rr.remove_cost(tx, contest_id, cost_id):
            raise RecountError(f"No cost item number {cost_id} in {ctx.title}.")
        tx.update({"contest_id": contest_id, "contest": ctx.title, "cost_id": cost_id})


def costs(case: Case, contest_id: int) -> list[rr.StoredCost]:
    return rr.costs(case.conn, contest_id)


def cost_statement_of(case: Case, contest_id: int) -> CostStatement:
    """The items, the total and who pays under the edition in force ((2)(f); H.B. 515)."""
    sc = repo.contest_by_id(case.conn, contest_id)
    return cost_statement([c.item for c in rr.costs(case.conn, contest_id)], case.edition,
                          sc.totals.contest.kind)


# --------------------------------------------------------------------------------------
# The board of canvassers
# --------------------------------------------------------------------------------------


def set_board_members(case: Case, contest_id: int, members: Sequence[BoardMember]
                      ) -> BoardView:
    """The board's members with names, titles, role and presence (replaces the list)."""
    clean = []
    for m in members:
        clean.append(BoardMember(_name(m.name, "each member's name"),
                                 _name(m.title, f"{m.name.strip() or 'each member'}'s title"),
                                 m.role, m.present))
    with store.transaction(case.conn, case.actor, "set board members") as tx:
        ctx = load_recount(case, contest_id)
        ensure_writable(case, ctx)
        rr.set_board_members(tx, contest_id, clean)
        tx.update({"contest_id": contest_id, "contest": ctx.title,
                        "members": [{"name": m.name, "title": m.title, "role": m.role.value,
                                     "present": m.present} for m in clean]})
    return board(case, contest_id)


def convene_board(case: Case, contest_id: int, *, convened_at: datetime, place: str,
                  body_size: int, board_kind: BoardKind | None = None) -> BoardView:
    """Record that the board of canvassers convened (20A-4-401(4)(a); 20A-4-301).

    ``body_size`` is the number of seats of the legislative body, from which the quorum is
    computed; the quorum check is returned (and shown by the checklist), and enforced when
    the report is signed (``ContestRecount.convene``, ``ContestRecount.sign``).
    """
    with store.transaction(case.conn, case.actor, "convene board") as tx:
        ctx = load_recount(case, contest_id, whole=True)
        d = ctx.model.convene(kind=board_kind or board_kind_for(case.election.kind),
                              body_size=body_size, convened_at=convened_at, place=place)
        if isinstance(d, Refusal):
            raise _refused(d)
        c, q = d.convening, d.quorum
        rr.set_convening(tx, contest_id, board_kind=c.kind, body_size=c.body_size,
                         convened_at=c.convened_at, place=c.place, recorded_by=case.actor,
                         recorded_at=store.utc_now())
        tx.update({"contest_id": contest_id, "contest": ctx.title,
                   "board_kind": c.kind.value, "body_size": c.body_size,
                   "convened_at": _iso(c.convened_at), "place": c.place,
                   "quorum": q.ok, "quorum_text": q.text})
    return board(case, contest_id)


def _board_view(case: Case, ctx: Loaded) -> BoardView:
    return BoardView(ctx.model.members, ctx.stored_convening, ctx.model.quorum(),
                     board_kind_for(case.election.kind), members_present(ctx.model.members))


def board(case: Case, contest_id: int) -> BoardView:
    """The board's members, its convening and its quorum (the model's one rule)."""
    return _board_view(case, load_recount(case, contest_id, whole=True))


# --------------------------------------------------------------------------------------
# Signing, locking, reopening
# --------------------------------------------------------------------------------------


class SigningNeedsConfirmation(RecountError):
    """The signing checks out; the officer confirms it (it locks the contest) before it is
    recorded. ``plan`` holds who signs, when, where and the quorum; the message is the
    question to ask."""

    def __init__(self, message: str, plan: SigningPlan) -> None:
        super().__init__(message)
        self.plan = plan


def signing_plan_of(case: Case, contest_id: int, *, signed_at: datetime | None,
                    signers: Sequence[str], place: str | None = None) -> SigningPlan:
    """Who would sign, checked against the board step and the quorum
    (``ContestRecount.signing_plan``); ``place`` defaults to where the board met."""
    ctx = load_recount(case, contest_id, whole=True)
    return ctx.model.signing_plan(signers, officer=_officer(case), signed_at=signed_at,
                                  place=place)


def _officer(case: Case) -> str | None:
    officer = case.roster.election_officer
    return officer.name if officer else None


def sign_report(case: Case, contest_id: int, *, signed_at: datetime, signers: Sequence[str],
                place: str | None = None, confirmed: bool = False) -> rr.StoredSigning:
    """Record that the board and the election officer signed the report ((4)(b)(ii)).

    The one way to sign, for the window and the command line alike. The signers are the
    board's members recorded present at the board step (and the election officer); a name
    not on the board is refused, and so is a signing without a quorum
    (``ContestRecount.sign``). The time and the place (default: where the board met)
    are recorded. Unless ``confirmed``, nothing is written and ``SigningNeedsConfirmation``
    carries the question to ask. Locks the contest: every write action on it then raises
    ``ContestLocked`` until ``reopen``.
    """
    with store.transaction(case.conn, case.actor, "sign report") as tx:
        ctx = load_recount(case, contest_id, whole=True)
        plan = ctx.model.sign(signers, officer=_officer(case), signed_at=signed_at,
                              place=place)
        if isinstance(plan, Refusal):
            raise _refused(plan)
        if not confirmed:
            raise SigningNeedsConfirmation(plan.confirmation(ctx.title), plan)
        digest = store.state_digest(case.conn)
        sid = rr.add_signing(tx, contest_id, signed_at, plan.signers, digest, case.actor,
                             store.utc_now(), plan.place)
        tx.update({"contest_id": contest_id, "contest": ctx.title, "signing_id": sid,
                   "signed_at": _iso(signed_at), "place": plan.place,
                   "signers": list(plan.signers), "board_signers": plan.board_signers,
                   "quorum": plan.quorum.text if plan.quorum else None,
                   "data_digest": digest})
    got = rr.active_signing(case.conn, contest_id)
    assert got is not None
    return got


def reopen(case: Case, contest_id: int, *, reason: str) -> None:
    """Unlock a signed contest; the reason is recorded and the signing set aside
    (``ContestRecount.reopen``)."""
    with store.transaction(case.conn, case.actor, "reopen contest") as tx:
        ctx = load_recount(case, contest_id)
        d = ctx.model.reopen(reason)
        if isinstance(d, Refusal):
            raise _refused(d)
        assert ctx.signing is not None
        rid = rr.reopen(tx, contest_id, ctx.signing.id, d.reason, case.actor, store.utc_now())
        tx.update({"contest_id": contest_id, "contest": ctx.title, "reopen_id": rid,
                   "signing_id": ctx.signing.id, "reason": d.reason})


# --------------------------------------------------------------------------------------
# Reading a contest's recount
# --------------------------------------------------------------------------------------


def unit_list(case: Case, contest_id: int) -> list[UnitRow]:
    """Every unit with its status, officers and variance note."""
    return list(recount_state(case, contest_id).units)


def variance(case: Case, contest_id: int, ctx: Loaded | None = None) -> VarianceTable:
    """Canvass vs recount per unit and in total, net change per choice, with notes (``ctx``:
    the recount as already read)."""
    ctx = ctx or load_recount(case, contest_id)
    return variance_table(ctx.layout, ctx.states,
                          rr.canvass_by_precinct(case.conn, contest_id),
                          [e.record for e in ctx.envelopes],
                          {u.unit.name: u.variance_note for u in ctx.stored_units})


def _requested(case: Case, contest_id: int) -> bool:
    return bool(case.conn.execute("SELECT 1 FROM recount_request WHERE contest_id=? AND "
                                  "withdrawn=0 AND accepted=1 LIMIT 1",
                                  (contest_id,)).fetchone())


def recount_state(case: Case, contest_id: int, ctx: Loaded | None = None) -> RecountState:
    """The contest's whole recount: settings, units, checklist, totals, declaration, board
    (``ctx``: the recount as the caller already read it in this action)."""
    ctx = with_whole(case, ctx) if ctx is not None else load_recount(case, contest_id,
                                                                      whole=True)
    model, settings = ctx.model, ctx.settings
    ready = model.readiness()
    decl = ctx.stored_declaration
    b = _board_view(case, ctx)
    signing = ctx.signing
    automatic = decide(ctx.totals, case.edition, kind=case.election.kind,
                       election_date=case.election.date).verdict is Verdict.AUTOMATIC
    cl = checklist(ChecklistInput(
        ctx.totals.contest.kind, _requested(case, contest_id), automatic, settings is not None,
        ready, decl is not None, bool(decl and decl.override_reason),
        b.convening is not None, bool(b.quorum and b.quorum.ok), signing is not None))
    totals = model.totals()
    preview = None
    if settings is not None:
        preview = model.preview(edition=case.edition, election_kind=case.election.kind,
                                today=datetime.now().date(), closed=case.closed_days)
    rule = return_rule(case.election.date)
    assumptions = list(rule.assumptions)
    if preview is not None and preview.lot_rule is not None:
        assumptions.extend(preview.lot_rule.assumptions)
    assumptions.extend(cost_statement_of(case, contest_id).assumptions)
    rows = []
    for su, st in zip(ctx.stored_units, ctx.states, strict=True):
        e = ctx.entries.get(su.id, {})
        rows.append(UnitRow(su.id, su.unit.name, su.unit.precincts, st,
                            e[1].entry.officer if 1 in e else None,
                            e[2].entry.officer if 2 in e else None, su.variance_note))
    return RecountState(contest_id, ctx.title, ctx.totals, ctx.layout, settings, tuple(rows),
                        ready, cl, totals, preview, decl, rule, b, signing,
                        tuple(rr.reopen_log(case.conn, contest_id)), tuple(assumptions), ctx)


@dataclass(frozen=True)
class ContestStatus:
    contest_id: int
    title: str
    stage: Stage | None
    line: str
    checklist: Checklist


def status(case: Case) -> list[ContestStatus]:
    """Every contest's checklist state, for ``recount-desk status`` and the overview."""
    out = []
    for sc in repo.contests(case.conn):
        st = recount_state(case, sc.id)
        out.append(ContestStatus(sc.id, st.title, st.checklist.stage, st.status_line,
                                 st.checklist))
    return out
