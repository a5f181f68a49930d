"""Making, verifying and signing the board of canvassers' recount report (20A-4-401(4)).

``make_report`` renders the PDF from the case and records one audit entry ("report
generated") with the fingerprint, the reprint number and everything needed to make the
same bytes again; ``verify_report`` re-generates each recorded report from the case and
compares bytes, so a PDF altered after it was made, or a case changed since, is named.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from recount_desk import store
from recount_desk.core import recount as rc
from recount_desk.core.audit import AuditEntry
from recount_desk.core.model import ContestKind
from recount_desk.core.report_model import (
    AbsenteeSummary,
    AuditRow,
    Board,
    BoardMember,
    CostItem,
    CostStatement,
    Declaration,
    Declared,
    Lot,
    Officer,
    Printing,
    RecountMethod,
    RecountReport,
    RecountRequestInfo,
    RejectedReason,
    ReportChoice,
    ReportContest,
    ReportElection,
    Unit,
    Witness,
    fingerprint,
    short_code,
)
from recount_desk.core.rules import decide
from recount_desk.paths import resource
from recount_desk.store import recount_repo, repo

from . import recount as recount_actions
from .case import Case
from .verify import verify_open

GENERATED = "report generated"


class ReportNotReady(Exception):
    """The contest cannot be reported yet; the message says what is missing, for the user."""


@dataclass(frozen=True)
class ReportResult:
    path: Path
    contest_id: int
    fingerprint: str
    code: str
    reprint: int
    size: int


@dataclass(frozen=True)
class ReportCheck:
    ok: bool
    path: str
    message: str
    contest_id: int | None = None
    fingerprint: str | None = None

    def summary(self) -> str:
        return f"{self.path}: {'OK' if self.ok else 'NOT OK'} — {self.message}"


def font_dir() -> Path:
    return resource("fonts")


def render(report: RecountReport) -> bytes:
    """The PDF bytes of ``report`` (reportlab is imported here, not when the window opens)."""
    from recount_desk.report import pdf

    return pdf.render(report, font_dir())


# --- reading the recount out of the case -----------------------------------------------

def build_report_data(case: Case, contest_id: int) -> RecountReport:
    """Everything the report shows, read from the case file (the recount's store)."""
    conn = case.conn
    election = case.election
    edition = case.edition
    try:
        sc = repo.contest_by_id(conn, contest_id)
    except KeyError:
        raise ReportNotReady(f"The case has no contest number {contest_id}.") from None
    totals = sc.totals
    contest = totals.contest
    rec = recount_repo.get_recount(conn, contest_id)
    if rec is None:
        raise ReportNotReady(f"No recount of {contest.key.label()} has been started.")
    layout = rc.SheetLayout.for_contest(totals)
    table = recount_actions.variance(case, contest_id)
    stored_units = recount_repo.units(conn, contest_id)
    covers = {su.unit.name: su.unit.precincts for su in stored_units}
    entries = recount_repo.current_entries(conn, contest_id)
    resolutions = recount_repo.current_resolutions(conn, contest_id, entries)
    envelopes = [s.record for s in recount_repo.envelopes(conn, contest_id)]
    missing = [r.unit for r in table.rows if r.recount is None]
    if missing:
        raise ReportNotReady(f"{len(missing)} of {len(table.rows)} units are not reconciled "
                             f"yet (first: {missing[0]}).")
    decl = recount_repo.current_declaration(conn, contest_id)
    if decl is None:
        raise ReportNotReady(f"The result of {contest.key.label()} has not been declared.")
    conv = recount_repo.convening(conn, contest_id)
    if conv is None:
        raise ReportNotReady("The board of canvassers has not been convened for this contest.")

    choices = layout.choices
    batches = rec.unit_kind is rc.UnitKind.BATCHES
    loads, sources = _retab_sources(case, contest_id)
    units = tuple(Unit(r.unit, tuple(r.canvass[c] for c in choices),
                       tuple((r.recount or {})[c] for c in choices),
                       covers.get(r.unit, ()) if batches else (), sources.get(r.unit, ""))
                  for r in table.rows)
    party = {c.choice.name: c.choice.party for c in totals.choices}

    members = recount_repo.board_members(conn, contest_id)
    clerk = next((m for m in members if m.role is rc.BoardRole.CLERK), None)
    board_members = tuple(BoardMember(m.name, m.title, m.present) for m in members
                          if m.role is not rc.BoardRole.CLERK)
    minimum = 3 if conv.board_kind is rc.BoardKind.COUNTY else 1
    board = Board(_board_title(conv.board_kind, election.jurisdiction), board_members,
                  conv.body_size, minimum, conv.convened_at, conv.place)
    officer = Officer(clerk.name if clerk else (election.officer or "Election officer"),
                      clerk.title if clerk else f"{election.jurisdiction} Clerk")

    summary = rc.envelope_summary(envelopes)
    decided = [e for e in envelopes if e.outcome is not rc.EnvelopeOutcome.PENDING]
    absentee = None
    if envelopes:
        absentee = AbsenteeSummary(
            len(decided), sum(1 for e in decided if e.outcome is rc.EnvelopeOutcome.ACCEPTED),
            tuple(RejectedReason(r.reason, r.count) for r in summary
                  if r.outcome is rc.EnvelopeOutcome.REJECTED))

    witnesses = tuple(Witness(w.name, w.designated_by)
                      for w in recount_repo.witnesses(conn, contest_id)
                      if w.attended_from is not None)

    requests = tuple(
        RecountRequestInfo(_requester(q), q.filed_at, _OFFICES.get(q.filed_with, q.filed_with),
                           "; ".join(f"{_sentence_body(str(f.get('text')))} ({f.get('basis')})"
                                     for f in q.findings if f.get("ok"))
                           or "Accepted by the election officer"
                           + (f": {q.override_reason}" if q.override_reason else ""),
                           tuple(n for n, _ in q.voters))
        for q in repo.requests(conn, contest_id) if q.accepted)
    automatic = ""
    if not requests:
        d = decide(totals, edition, kind=case.election.kind, election_date=case.election.date)
        automatic = (f"{d.explanation} ({d.basis})" if d.automatic_recount
                     else "No request is recorded; the recount was begun by the election "
                          "officer.")

    cost = None
    items = [c.item for c in recount_repo.costs(conn, contest_id)]
    if items or contest.kind is ContestKind.PROPOSITION:
        cs = rc.cost_statement(items, edition, contest.kind)
        cost = CostStatement(tuple(CostItem(i.description, i.amount_cents) for i in items),
                             cs.payer, cs.basis)

    lot = None
    if decl.lot is not None:
        lot = Lot(decl.lot.method, decl.lot.drawn_by, decl.lot.drawn_at, decl.lot.place,
                  f"{_join(decl.lot.chosen)} chosen by lot", decl.tied)
    result = {"passed": Declared.PASSED, "failed": Declared.FAILED}.get(decl.result,
                                                                          Declared.ELECTED)
    declared_at = _parse_dt(decl.declared_at)
    stamps = [s.entered_at for u in entries.values() for s in u.values()]
    stamps += [r.resolved_at for r in resolutions.values()]
    completed = max((_parse_dt(s).date() for s in stamps), default=declared_at.date())

    return RecountReport(
        election=ReportElection(election.name, election.date, election.kind,
                                election.jurisdiction),
        board=board,
        contest=ReportContest(contest.key.title, contest.kind, contest.scope, contest.seats,
                              contest.key.district, contest.key.party),
        edition=edition,
        choices=tuple(ReportChoice(c, party.get(c, "")) for c in choices),
        units=units,
        method=RecountMethod(rec.method.value),
        double_entry=rec.entry_mode is rc.EntryMode.DOUBLE,
        started=_parse_dt(rec.started_at).date(),
        completed=completed,
        declaration=Declaration(result, decl.elected, decl.basis, declared_at, lot),
        officer=officer,
        requests=requests,
        automatic_basis=automatic,
        ballots_rejected=absentee.rejected_total if absentee else 0,
        absentee=absentee,
        witnesses=witnesses,
        loads=loads,
        costs=cost,
    )


_OFFICES = {"municipal_clerk": "the municipal clerk", "district_clerk": "the district clerk",
            "county_clerk": "the county clerk",
            "lieutenant_governor": "the lieutenant governor"}


def _retab_sources(case: Case, contest_id: int) -> tuple[tuple[str, ...], dict[str, str]]:
    """The re-tabulated statements loaded (one line each, with the file's SHA-256) and the
    source of each unit not loaded from them (issue 15)."""
    from .retab import UnitSource, loads, unit_sources

    done = loads(case, contest_id)
    if not done:
        return (), {}
    src = unit_sources(case, contest_id)
    lines = []
    for ld in done:
        n = sum(1 for s in src.values() if s.load is not None and s.load.id == ld.id)
        lines.append(f"re-tabulation, loaded from {ld.file}"
                     + (f" (sheet {ld.sheet})" if ld.sheet else "")
                     + f" (SHA-256 {ld.sha256}), contest “{ld.file_contest}”, on "
                     f"{ld.loaded_at[:10]} by {ld.loaded_by}: {n} unit(s) counted from it")
    marks = {u: ("Hand count" + (f": {s.note}" if s.note else "")) if s.source is
             UnitSource.HAND else s.text for u, s in src.items()
             if s.source is not UnitSource.LOADED}
    return tuple(lines), marks


def _requester(q: repo.StoredRequest) -> str:
    if q.requester == "candidate" and q.candidate:
        return f"{q.candidate}, candidate"
    if q.requester == "voters":
        return f"{len(q.voters)} voters who voted in the election"
    return q.candidate or q.requester


def _board_title(kind: rc.BoardKind, jurisdiction: str) -> str:
    if kind is rc.BoardKind.STATE:
        return "Board of State Canvassers"
    if kind is rc.BoardKind.MUNICIPAL:
        return f"Board of {jurisdiction} Municipal Canvassers"
    return f"Board of {jurisdiction} Canvassers"


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _parse_dt(text: str) -> datetime:
    """A stored time as a naive local time (UTC stamps are shown as recorded)."""
    return datetime.fromisoformat(text).replace(tzinfo=None, microsecond=0)


# --- making the report ---------------------------------------------------------------------

def _generations(conn: sqlite3.Connection) -> list[tuple[AuditEntry, dict[str, Any]]]:
    out = []
    for e in store.audit_entries(conn):
        if e.action == GENERATED:
            out.append((e, json.loads(e.payload)["data"]))
    return out


def _signing(case: Case, contest_id: int) -> recount_repo.StoredSigning | None:
    try:
        return recount_repo.active_signing(case.conn, contest_id)
    except sqlite3.OperationalError:  # a case file from before the recount tables
        return None


def _appendix_rows(conn: sqlite3.Connection, contest_id: int,
                   upto: int) -> tuple[AuditRow, ...]:
    rows = []
    for e in store.audit_entries(conn):
        if e.seq > upto:
            break
        data = json.loads(e.payload).get("data", {})
        if data.get("contest_id") not in (contest_id, None) or (
                "contest_id" not in data and e.action not in ("create case", "import canvass")):
            continue
        detail = ", ".join(f"{k}={_short(v)}" for k, v in sorted(data.items())
                           if k != "contest_id")
        rows.append(AuditRow(e.seq, e.at, e.actor, e.action, detail[:400]))
    return tuple(rows)


def _short(v: object) -> str:
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "…"


def _printing(case: Case, contest_id: int, data: dict[str, Any]) -> Printing:
    appendix = None
    if data.get("appendix"):
        appendix = _appendix_rows(case.conn, contest_id, int(data["audit_upto"]))
    gen = data.get("generated_at")
    signed = data.get("signed_on")
    return Printing(int(data.get("reprint", 0)), datetime.fromisoformat(gen) if gen else None,
                    appendix, date.fromisoformat(signed) if signed else None,
                    tuple(data.get("signed_by", ())))


def _sentence_body(text: str) -> str:
    """A finding without its closing full stop (but "5:00 p.m." keeps its own)."""
    return re.sub(r"(?<![ap]\.m)\.$", "", text)


def make_report(case: Case, contest_id: int, out_path: Path | str, *, appendix: bool = False,
                reprint: bool = False, now: Callable[[], datetime] | None = None,
                on_progress: Callable[[int, int], None] | None = None) -> ReportResult:
    """Write the report of ``contest_id`` to ``out_path`` and record it in the audit log.

    Once the contest is signed every new copy is a reprint, marked "Reprint n — generated at
    …" (n counts this contest's reprints); ``reprint=True`` before signing is refused.
    """
    out_path = Path(out_path)
    check = verify_open(case.conn, case.path.name)
    if not check.ok:
        raise ReportNotReady("The case file does not match its audit log ("
                             + "; ".join(check.problems) + "), so no official report can be "
                             "made from it. Restore a backup (recount-desk restore) or find out "
                             "who changed the file.")
    base = build_report_data(case, contest_id)
    signing = _signing(case, contest_id)
    if reprint and signing is None:
        raise ReportNotReady("The report has not been signed yet, so there is nothing to "
                             "reprint; make the report without --reprint.")
    earlier = [d for _, d in _generations(case.conn) if d.get("contest_id") == contest_id]
    last = store.last_entry(case.conn)
    data: dict[str, Any] = {"contest_id": contest_id, "appendix": appendix,
                            "audit_upto": last.seq if last else 0, "reprint": 0}
    if signing is not None:
        clock = now or datetime.now
        data["reprint"] = 1 + max((int(d.get("reprint", 0)) for d in earlier), default=0)
        data["generated_at"] = clock().replace(microsecond=0).isoformat()
        data["signed_on"] = signing.signed_at.date().isoformat()
        data["signed_by"] = list(signing.signers)
    report = replace(base, printing=_printing(case, contest_id, data))
    if on_progress:
        on_progress(0, 1)
    blob = render(report)
    fp = fingerprint(report)
    data.update({"fingerprint": fp, "code": short_code(fp), "file": out_path.name,
                 "pdf_sha256": hashlib.sha256(blob).hexdigest()})
    with store.transaction(case.conn, case.actor, GENERATED) as tx:
        tx.update(data)
        _write(out_path, blob)
    if on_progress:
        on_progress(1, 1)
    return ReportResult(out_path, contest_id, fp, short_code(fp), int(data["reprint"]),
                        len(blob))


def _write(path: Path, blob: bytes) -> None:
    tmp = path.with_name(path.name + ".part")
    with open(tmp, "wb") as f:
        f.write(blob)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


# --- verifying a PDF against the case ------------------------------------------------------

_FP_RE = re.compile(rb"fingerprint=([0-9a-f]{64})")


def verify_report(case: Case, pdf_path: Path | str) -> ReportCheck:
    """Does this PDF match, byte for byte, a report recorded in this case?"""
    pdf_path = Path(pdf_path)
    try:
        blob = pdf_path.read_bytes()
    except OSError as e:
        return ReportCheck(False, pdf_path.name, f"cannot be read ({e.strerror}).")
    gens = _generations(case.conn)
    current: dict[int, RecountReport | ReportNotReady] = {}
    sha = hashlib.sha256(blob).hexdigest()
    for entry, data in reversed(gens):
        cid = int(data["contest_id"])
        if cid not in current:
            try:
                current[cid] = build_report_data(case, cid)
            except ReportNotReady as e:
                current[cid] = e
        base = current[cid]
        if isinstance(base, ReportNotReady):
            continue
        if data.get("pdf_sha256") not in (None, sha):
            continue  # the same data and settings would give the recorded bytes, not these
        report = replace(base, printing=_printing(case, cid, data))
        if render(report) == blob:
            what = f"reprint {data['reprint']}" if data.get("reprint") else "the report"
            return ReportCheck(True, pdf_path.name,
                               f"matches {what} generated in audit entry {entry.seq} "
                               f"({entry.at[:16].replace('T', ' ')} UTC) from the case as it "
                               f"is now; fingerprint {data['fingerprint'][:16]}…",
                               cid, data["fingerprint"])
    m = _FP_RE.search(blob)
    for cid in reportable_contests(case):
        # a report made from a copy of this case: its generation is not in this audit log
        if m is None or cid in current:
            continue
        try:
            base = current[cid] = build_report_data(case, cid)
        except ReportNotReady as e:
            current[cid] = e
            continue
        if fingerprint(base) == m.group(1).decode() and render(base) == blob:
            return ReportCheck(True, pdf_path.name, "matches the report the case gives now "
                               "(made from a copy of this case; not recorded in its log)",
                               cid, fingerprint(base))
    return ReportCheck(False, pdf_path.name, _explain(blob, sha, gens, current))


def _explain(blob: bytes, sha: str, gens: list[tuple[AuditEntry, dict[str, Any]]],
             current: dict[int, RecountReport | ReportNotReady]) -> str:
    m = _FP_RE.search(blob)
    named = m.group(1).decode() if m else None
    recorded_sha = [e for e, d in gens if d.get("pdf_sha256") == sha]
    if recorded_sha:
        e = recorded_sha[-1]
        return (f"this is the PDF made in audit entry {e.seq}, but the case has changed since "
                "(its recount data no longer gives the same report).")
    if named is None:
        return ("no Recount Desk fingerprint is found in it: it is not a report of this "
                "program, or it was altered.")
    now = {fingerprint(r) for r in current.values() if isinstance(r, RecountReport)}
    if named in now:
        return ("the PDF was altered after it was made: it names the case's current "
                f"fingerprint {short_code(named)}, but its bytes differ from the report "
                "the case gives.")
    if any(d.get("fingerprint") == named for _, d in gens):
        return (f"the case changed since this report was made: the report's fingerprint "
                f"{short_code(named)} was recorded then, but the recount data now gives a "
                "different one.")
    return (f"it names fingerprint {short_code(named)}, which no report of this case ever "
            "had: it belongs to another case, or it was altered.")


# --- signing ------------------------------------------------------------------------------

def record_signing(case: Case, contest_id: int, signed_at: datetime,
                   signers: Sequence[str]) -> str:
    """Record that the board and the officer signed the report; the contest is then locked.

    Returns the fingerprint of the data signed. Uses the recount workflow's own signing
    action when there is one, so there is one way to lock a contest.
    """
    if not signers or not all(s.strip() for s in signers):
        raise ValueError("Name every person who signed.")
    data = build_report_data(case, contest_id)
    fp = fingerprint(data)
    if _signing(case, contest_id) is not None:
        raise ReportNotReady("This contest's report is already signed; reopen the contest "
                             "first to record a new signing.")
    # One way to sign and lock a contest: the recount workflow's own action (its audit
    # entry is "sign report"); the data fingerprint is recorded beside it.
    recount_actions.sign_report(case, contest_id, signed_at=signed_at, signers=list(signers))
    return fp


def reportable_contests(case: Case) -> list[int]:
    """Contests whose recount has been started (the candidates for a report)."""
    try:
        return recount_repo.recount_contest_ids(case.conn)
    except sqlite3.OperationalError:
        return []



DEMO_CONTEST = ("State House", "32")


def default_contest(case: Case, *, demo: bool = False) -> int | None:
    """The contest to report when none is named: the demo's State House District 32, or
    the case's only recounted contest."""
    if demo:
        for c in repo.contests(case.conn):
            key = c.totals.contest.key
            if (key.title, key.district) == DEMO_CONTEST:
                return c.id
        return None
    ids = reportable_contests(case)
    return ids[0] if len(ids) == 1 else None
