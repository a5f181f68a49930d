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
from datetime import datetime
from pathlib import Path
from typing import Any

from recount_desk import store
from recount_desk.core import recount as rc
from recount_desk.core.audit import AuditEntry
from recount_desk.core.calendar import utah_local
from recount_desk.core.model import ContestKind, Scope
from recount_desk.core.report_model import (
    CANONICAL_VERSION,
    AbsenteeSummary,
    AuditRow,
    Ballots,
    Board,
    EnvelopeLine,
    Officer,
    Printing,
    RecountReport,
    RecountRequestInfo,
    RejectedReason,
    ReportChoice,
    ReportContest,
    ReportElection,
    RequestCheck,
    Unit,
    fingerprint,
    format_datetime,
    is_official,
    problems,
    short_code,
)
from recount_desk.core.rules import Result, decide
from recount_desk.core.scope import portion_eligibility
from recount_desk.paths import resource
from recount_desk.store import recount_repo, repo

from . import recount as recount_actions
from .case import Case
from .verify import chain_head, verify_open

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
    signed: bool = False
    official: bool = False
    problems: tuple[str, ...] = ()


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


def render(report: RecountReport, fp: str | None = None) -> bytes:
    """The PDF bytes of ``report`` (reportlab is imported here, not when the window opens)."""
    from recount_desk.report import pdf

    return pdf.render(report, font_dir(), fp=fp)


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
    # the recount's own model, read once: units, their states, officers and notes
    ctx = recount_actions.load_recount(case, contest_id, whole=True)
    state = recount_actions.recount_state(case, contest_id, ctx)
    layout = state.layout
    rows = {r.name: r for r in state.units}
    entries, resolutions, stored_env = ctx.entries, ctx.resolutions, ctx.envelopes
    envelopes = [s.record for s in stored_env]
    table = rc.variance_table(layout, [r.state for r in state.units],
                              recount_repo.canvass_by_precinct(conn, contest_id), envelopes,
                              {r.name: r.variance_note for r in state.units})
    missing = [r.unit for r in table.rows if r.recount is None]
    if missing:
        raise ReportNotReady(f"{len(missing)} of {len(table.rows)} units are not reconciled "
                             f"yet (first: {missing[0]}).")
    portion = contest.scope in (Scope.MULTICOUNTY, Scope.STATEWIDE)
    decl = recount_repo.current_declaration(conn, contest_id)
    if decl is None and not portion:
        raise ReportNotReady(f"The result of {contest.key.label()} has not been declared.")
    conv = recount_repo.convening(conn, contest_id)
    if conv is None:
        raise ReportNotReady("The board of canvassers has not been convened for this contest.")

    choices = layout.choices
    batches = rec.unit_kind is rc.UnitKind.BATCHES
    extras = recount_repo.canvass_extras_by_precinct(conn, contest_id)
    loads, sources = _retab_sources(case, contest_id, ctx)
    stored_units = {su.unit.name: su for su in ctx.stored_units}
    resolution_of = {r.unit_id: r for r in resolutions.values()}
    unit_of = {p: u.name for u in (su.unit for su in stored_units.values())
               for p in u.precincts}
    joined: dict[str, int] = {}
    for e in envelopes:
        if e.outcome is rc.EnvelopeOutcome.ACCEPTED and e.precinct in unit_of:
            joined[unit_of[e.precinct]] = joined.get(unit_of[e.precinct], 0) + 1
    units = []
    for r in table.rows:
        su = stored_units[r.unit]
        row = rows.get(r.unit)
        final = row.state.final if row is not None else None
        ev = [e for e in envelopes if e.outcome is rc.EnvelopeOutcome.ACCEPTED
              and unit_of.get(e.precinct) == r.unit and e.votes is not None]
        recount_b = Ballots()
        if final is not None:
            # A line the sheet does not record (a re-tabulated statement that gives no
            # ballots or over-votes) stays unknown: never printed as 0.
            recount_b = Ballots(
                _plus(final.ballots, len(ev)),  # one ballot in each accepted envelope
                _plus(final.write_ins, sum(e.votes.write_ins for e in ev if e.votes))
                if layout.write_in_line else None,
                _plus(final.over, sum(e.votes.over for e in ev if e.votes)),
                _plus(final.under, sum(e.votes.under for e in ev if e.votes)))
        canvass_b = _canvass_ballots([extras.get(p) for p in su.unit.precincts],
                                     layout.write_in_line)
        who = tuple(dict.fromkeys(
            se.entry.officer or se.entered_by
            for _, se in sorted(entries.get(su.id, {}).items())))
        res = resolution_of.get(su.id)
        resolution = ""
        if res is not None:
            resolution = (f"{res.resolution.kind.label} — by {res.resolution.by}, "
                          f"{format_datetime(_parse_dt(res.resolved_at))}"
                          + (f": {res.resolution.note}" if res.resolution.note else ""))
        units.append(Unit(r.unit, tuple(r.canvass[c] for c in choices),
                          tuple((r.recount or {})[c] for c in choices),
                          su.unit.precincts if batches else (), canvass_b, recount_b,
                          r.note, who, resolution, joined.get(r.unit, 0),
                          sources.get(r.unit, "")))
    party = {c.choice.name: c.choice.party for c in totals.choices}

    members = recount_repo.board_members(conn, contest_id)
    clerk = next((m for m in members if m.role is rc.BoardRole.CLERK), None)
    board_members = tuple(m for m in members if m.role is not rc.BoardRole.CLERK)
    board = Board(_board_title(conv.board_kind, election.jurisdiction), board_members,
                  conv.body_size, conv.board_kind, conv.convened_at, conv.place)
    officer = Officer(clerk.name if clerk else (election.officer or "Election officer"),
                      clerk.title if clerk else f"{election.jurisdiction} Clerk")

    summary = rc.envelope_summary(envelopes)
    decided = [e for e in envelopes if e.outcome is not rc.EnvelopeOutcome.PENDING]
    absentee = None
    if envelopes:
        lines = tuple(_envelope_line(s, unit_of) for s in stored_env)
        absentee = AbsenteeSummary(
            len(decided), sum(1 for e in decided if e.outcome is rc.EnvelopeOutcome.ACCEPTED),
            tuple(RejectedReason(r.reason, r.count) for r in summary
                  if r.outcome is rc.EnvelopeOutcome.REJECTED), lines)

    witnesses = tuple(rc.Witness(w.name, w.designated_by, w.designated_at, w.attended_from,
                                 w.attended_to)
                      for w in recount_repo.witnesses(conn, contest_id))

    requests = tuple(_request_info(q, portion) for q in repo.requests(conn, contest_id)
                     if q.accepted)
    automatic = ""
    if not requests and not portion:  # a county's figures never show an automatic recount
        d = decide(totals, edition, kind=case.election.kind, election_date=case.election.date)
        if d.automatic_recount:
            automatic = f"{d.explanation} ({d.basis})"

    items = [c.item for c in recount_repo.costs(conn, contest_id)]
    cost = rc.cost_statement(items, edition, contest.kind)

    stamps = [_parse_dt(s.entered_at) for u in entries.values() for s in u.values()]
    stamps += [_parse_dt(r.resolved_at) for r in resolutions.values()]
    stamps += [_parse_dt(e.decided_at) for e in envelopes if e.decided_at]
    started_at = _parse_dt(rec.started_at)
    completed_at = max(stamps, default=started_at)

    if decl is not None:
        meeting = ""
        if decl.lot is not None:
            rule = rc.lot_rule(edition, election.kind, contest.scope, completed_at.date())
            meeting = f"{rule.text} ({rule.basis})"
        result = {"passed": Result.PASSED, "failed": Result.FAILED}.get(
            decl.result, Result.ELECTED)
        declaration = rc.DeclarationRecord(
            result, decl.elected, decl.basis, _parse_dt(decl.declared_at), decl.lot,
            decl.declared_by, decl.tied, meeting, "", decl.lot_deadline,
            decl.lot_late)
    else:
        declaration = rc.DeclarationRecord(Result.ELECTED if contest.kind is ContestKind.RACE
                                           else Result.PASSED)
    canvass_done = election.canvass_completed

    return RecountReport(
        election=ReportElection(election.name, election.date, election.kind,
                                election.jurisdiction),
        board=board,
        contest=ReportContest(contest.key.title, contest.kind, contest.scope, contest.seats,
                              contest.key.district, contest.key.party),
        edition=edition,
        choices=tuple(ReportChoice(c, party.get(c, "")) for c in choices),
        units=tuple(units),
        method=rec.method,
        double_entry=rec.entry_mode is rc.EntryMode.DOUBLE,
        started=started_at.date(),
        completed=completed_at.date(),
        declaration=declaration,
        officer=officer,
        requests=requests,
        automatic_basis=automatic,
        absentee=absentee,
        witnesses=witnesses,
        loads=loads,
        costs=cost,
        canvass_completed=canvass_done.date() if canvass_done else None,
        started_at=started_at,
        completed_at=completed_at,
        write_in_line=layout.write_in_line,
    )


def _canvass_ballots(extras: list[dict[str, int] | None], write_in_line: bool) -> Ballots:
    """The canvass's over- and under-votes of a unit's precincts; unknown if any precinct
    lacks them. The canvass gives no ballots-counted figure and lists write-ins as choices,
    so those lines are unknown."""
    over: int | None = 0
    under: int | None = 0
    for x in extras:
        over = None if x is None or over is None or "over" not in x else over + x["over"]
        under = None if x is None or under is None or "under" not in x else under + x["under"]
    return Ballots(None, None, over, under)


def _envelope_line(s: recount_repo.StoredEnvelope, unit_of: dict[str, str]) -> EnvelopeLine:
    e = s.record
    checks = tuple((c.label, e.checks.get(c)) for c in rc.EnvelopeCheck if c in e.checks)
    if e.outcome is rc.EnvelopeOutcome.REJECTED:
        reason = e.reason.label if e.reason is not None else "Rejected"
        decision = f"{reason}; stays unopened" + (f" ({e.reason_text})" if e.reason_text
                                                 else "")
    else:
        decision = e.outcome.label
    joined = unit_of.get(e.precinct, "") if e.outcome is rc.EnvelopeOutcome.ACCEPTED else ""
    return EnvelopeLine(e.envelope_id, e.precinct, e.original_reason, checks, decision,
                        e.decided_by, _parse_dt(e.decided_at) if e.decided_at else None,
                        joined)


def _request_info(q: repo.StoredRequest, portion: bool) -> RecountRequestInfo:
    """A recorded request as the report states it. For a county's portion the eligibility
    line is the whole-race statement, whatever was recorded when the request was filed (a
    finding made on the county's figures, e.g. under an earlier scope setting, is no finding
    of who may ask)."""
    findings = [dict(f) for f in q.findings]
    if portion and len(findings) == 3:  # (timely, eligible, right office): RequestEvaluation
        e = portion_eligibility()
        findings[1] = {"ok": e.ok, "text": e.text, "basis": e.basis}
    checks = tuple(RequestCheck(bool(f.get("ok")), _sentence_body(str(f.get("text", ""))),
                                str(f.get("basis", ""))) for f in findings)
    basis = "; ".join(f"{c.text} ({c.basis})" for c in checks if c.ok and c.basis)
    return RecountRequestInfo(_requester(q), q.filed_at,
                              _OFFICES.get(q.filed_with, q.filed_with),
                              basis or "Accepted by the election officer",
                              tuple(n for n, _ in q.voters), checks, q.override_reason or "")


_OFFICES = {"municipal_clerk": "the municipal clerk", "district_clerk": "the district clerk",
            "county_clerk": "the county clerk",
            "lieutenant_governor": "the lieutenant governor"}


def _retab_sources(case: Case, contest_id: int, ctx: recount_actions.Loaded
                   ) -> tuple[tuple[str, ...], dict[str, str]]:
    """The re-tabulated statements loaded (one line each, with the file's SHA-256) and the
    source of each unit not loaded from them (issue 15)."""
    from recount_desk.core.retab import UnitSource

    from .retab import loads, unit_sources

    done = loads(case, contest_id)
    if not done:
        return (), {}
    src = unit_sources(case, contest_id, ctx)
    lines = []
    for ld in done:
        n = sum(1 for s in src.values() if s.load is not None and s.load.id == ld.id)
        lines.append(f"re-tabulation, loaded from {ld.file}"
                     + (f" (sheet {ld.sheet})" if ld.sheet else "")
                     + f" (SHA-256 {ld.sha256}), contest “{ld.file_contest}”, on "
                     f"{format_datetime(_parse_dt(ld.loaded_at))} by {ld.loaded_by}: {n} "
                     "unit(s) counted from it")
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




def _plus(line: int | None, add: int) -> int | None:
    return None if line is None else line + add


def _parse_dt(text: str) -> datetime:
    """A stored time as Utah local time: record stamps are UTC and are converted; times the
    officer typed (a request's filing, the board's meeting) are local already."""
    return utah_local(datetime.fromisoformat(text))


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
        at = _parse_dt(e.at).isoformat(sep=" ")[:16]
        rows.append(AuditRow(e.seq, at, e.actor, e.action, detail[:400]))
    return tuple(rows)


def _short(v: object) -> str:
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "…"


def _printing(case: Case, contest_id: int, data: dict[str, Any],
              base: RecountReport) -> Printing:
    appendix = None
    if data.get("appendix"):
        appendix = _appendix_rows(case.conn, contest_id, int(data["audit_upto"]))
    gen = data.get("generated_at")
    signing = None
    if data.get("signed_at"):
        titles = {m.name: m.title for m in base.board.members}
        titles.setdefault(base.officer.name, base.officer.title)
        signing = rc.Signing(datetime.fromisoformat(str(data["signed_at"])),
                             str(data.get("signed_place", "")),
                             tuple(rc.Signer(n, titles.get(n, ""))
                                   for n in data.get("signed_by", ())))
    return Printing(int(data.get("reprint", 0)), datetime.fromisoformat(gen) if gen else None,
                    appendix, signing, int(data.get("audit_upto", 0)),
                    # the audit chain's head beside the fingerprint (store/anchor.py)
                    str(data.get("chain_head", "")))


def _sentence_body(text: str) -> str:
    """A finding without its closing full stop (but "5:00 p.m." keeps its own)."""
    return re.sub(r"(?<![ap]\.m)\.$", "", text)


def make_report(case: Case, contest_id: int, out_path: Path | str, *, appendix: bool = False,
                reprint: bool = False, now: Callable[[], datetime] | None = None,
                on_progress: Callable[[int, int], None] | None = None) -> ReportResult:
    """Write the report of ``contest_id`` to ``out_path`` and record it in the audit log.

    Before the signing is recorded every copy is a DRAFT. The first copy made after it is
    the signed original, with conformed signatures; every later copy is "Reprint n",
    numbered per signing. ``reprint=True`` before signing is refused.
    """
    out_path = Path(out_path)
    check = verify_open(case.conn, case.path.name)
    if not check.ok:
        raise ReportNotReady("The case file does not match its audit log ("
                             + "; ".join(check.problems) + "), so no official report can be "
                             "made from it. Restore one of its automatic backups or find out "
                             "who changed the file.")
    base = build_report_data(case, contest_id)
    signing = _signing(case, contest_id)
    if reprint and signing is None:
        raise ReportNotReady("The report has not been signed yet, so there is nothing to "
                             "reprint; make the report without --reprint.")
    last = store.last_entry(case.conn)
    # the appendix shows the log up to now; without one, copies of the same data are equal
    data: dict[str, Any] = {"contest_id": contest_id, "appendix": appendix,
                            "audit_upto": (last.seq if last else 0) if appendix else 0,
                            "reprint": 0, "format": CANONICAL_VERSION,
                            "chain_head": chain_head(case.conn, skip_action=GENERATED)}
    if signing is not None:
        earlier = [d for _, d in _generations(case.conn)
                   if d.get("contest_id") == contest_id and d.get("signing_id") == signing.id]
        clock = now or datetime.now
        data["signing_id"] = signing.id
        data["reprint"] = len(earlier)
        data["generated_at"] = clock().replace(microsecond=0).isoformat()
        data["signed_at"] = signing.signed_at.replace(microsecond=0).isoformat()
        data["signed_by"] = list(signing.signers)
        data["signed_place"] = signing.place or base.board.place
    report = replace(base, printing=_printing(case, contest_id, data, base))
    if on_progress:
        on_progress(0, 1)
    fp = fingerprint(report)
    blob = render(report, fp)
    data.update({"fingerprint": fp, "code": short_code(fp), "file": out_path.name,
                 "pdf_sha256": hashlib.sha256(blob).hexdigest(),
                 "official": is_official(report)})
    with store.transaction(case.conn, case.actor, GENERATED) as tx:
        tx.update(data)
        _write(out_path, blob)
    if on_progress:
        on_progress(1, 1)
    return ReportResult(out_path, contest_id, fp, short_code(fp), int(data["reprint"]),
                        len(blob), signing is not None, is_official(report), problems(report))


def _write(path: Path, blob: bytes) -> None:
    tmp = path.with_name(path.name + ".part")
    with open(tmp, "wb") as f:
        f.write(blob)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


# --- verifying a PDF against the case ------------------------------------------------------

def _current(case: Case, cache: dict[int, RecountReport | ReportNotReady],
             cid: int) -> RecountReport | None:
    if cid not in cache:
        try:
            cache[cid] = build_report_data(case, cid)
        except ReportNotReady as e:
            cache[cid] = e
    got = cache[cid]
    return got if isinstance(got, RecountReport) else None


def _copy_name(data: dict[str, Any]) -> str:
    if not data.get("signed_at"):
        return "the draft"
    n = int(data.get("reprint", 0))
    return f"reprint {n}" if n else "the signed original"


def _when(entry: AuditEntry) -> str:
    return f"{entry.at[:16].replace('T', ' ')} UTC"


def verify_report(case: Case, pdf_path: Path | str) -> ReportCheck:
    """Is this PDF a report recorded in this case, and does the case still give its data?

    The fingerprint is read from the PDF's metadata (a PDF library, not a byte scan). A PDF
    whose bytes are recorded in the audit log is genuine; it still matches when the case's
    data gives its recorded fingerprint, even if today's program renders the same data
    differently. A PDF not recorded here (made from a copy of the case) is rendered again
    with the settings its metadata names and compared byte for byte.
    """
    from recount_desk.report import pdf_meta

    pdf_path = Path(pdf_path)
    try:
        blob = pdf_path.read_bytes()
    except OSError as e:
        return ReportCheck(False, pdf_path.name, f"cannot be read ({e.strerror}).")
    gens = _generations(case.conn)
    cache: dict[int, RecountReport | ReportNotReady] = {}
    sha = hashlib.sha256(blob).hexdigest()
    for entry, data in reversed(gens):
        if data.get("pdf_sha256") != sha:
            continue
        cid = int(data["contest_id"])
        recorded = str(data["fingerprint"])
        base = _current(case, cache, cid)
        made_by = data.get("format")
        if base is not None and made_by != CANONICAL_VERSION and fingerprint(base) != recorded:
            # The fingerprint of an earlier format cannot be computed here: say so, rather
            # than call the case changed.
            return ReportCheck(False, pdf_path.name,
                               f"this is {_copy_name(data)} made in audit entry {entry.seq} "
                               f"({_when(entry)}) by an earlier version of Recount Desk, "
                               "whose fingerprint of the recount data "
                               f"({made_by or 'a format before recount-desk-report/4'}) this "
                               f"version does not compute ({CANONICAL_VERSION}): the PDF is "
                               "the one recorded then, but whether the case still gives its "
                               "data cannot be told; make a new copy to compare.", cid,
                               recorded)
        if base is None or fingerprint(base) != recorded:
            return ReportCheck(False, pdf_path.name,
                               f"this is {_copy_name(data)} made in audit entry {entry.seq} "
                               f"({_when(entry)}), but the case has changed since: its recount "
                               "data no longer gives the recorded fingerprint "
                               f"{short_code(recorded)}.", cid, recorded)
        same = render(replace(base, printing=_printing(case, cid, data, base))) == blob
        note = "" if same else (" Today's program renders the same data differently (a newer "
                                "version); the recorded hash of this PDF and its fingerprint "
                                "prove it.")
        return ReportCheck(True, pdf_path.name,
                           f"matches {_copy_name(data)} generated in audit entry {entry.seq} "
                           f"({_when(entry)}); the case still gives its fingerprint "
                           f"{short_code(recorded)}.{note}", cid, recorded)
    meta = pdf_meta.read(blob)
    if meta is None:
        return ReportCheck(False, pdf_path.name, "cannot be read as a PDF: it was damaged or "
                           "altered after it was made, or it is not a report.")
    named = meta.fingerprint
    if named is None:
        return ReportCheck(False, pdf_path.name,
                           "its metadata names no Recount Desk fingerprint: it is not a report "
                           "of this program, or its metadata was removed.")
    copies = [(g, d) for g, d in gens if d.get("fingerprint") == named]
    candidates = ([int(d["contest_id"]) for _, d in copies]
                  or reportable_contests(case))
    for cid in dict.fromkeys(candidates):
        base = _current(case, cache, cid)
        if base is None or fingerprint(base) != named:
            continue
        data = {"contest_id": cid, **meta.settings}
        again = render(replace(base, printing=_printing(case, cid, data, base)))
        if again == blob:
            where = (f"recorded in audit entry {copies[-1][0].seq}" if copies
                     else "made from a copy of this case; not recorded in its log")
            return ReportCheck(True, pdf_path.name,
                               f"matches the report the case gives now ({where}); fingerprint "
                               f"{short_code(named)}.", cid, named)
        if pdf_meta.same_text(again, blob):
            return ReportCheck(False, pdf_path.name,
                               f"names the case's fingerprint {short_code(named)} and its text "
                               "is the same as the report the case gives, but its bytes were "
                               "altered after it was made: re-saved by another program, or "
                               "changed in a way the text does not show. Use a copy made by "
                               "Recount Desk.",
                               cid, named)
        return ReportCheck(False, pdf_path.name,
                           f"the PDF was altered after it was made: it names the case's "
                           f"fingerprint {short_code(named)}, but its text differs from the "
                           "report the case gives.", cid, named)
    if copies:
        gen = copies[-1][0]
        return ReportCheck(False, pdf_path.name,
                           f"the case changed since this report was made: its fingerprint "
                           f"{short_code(named)} was recorded in audit entry {gen.seq}, but the "
                           "recount data now gives a different one.", None, named)
    return ReportCheck(False, pdf_path.name,
                       f"it names fingerprint {short_code(named)}, which no report of this "
                       "case ever had: it belongs to another case, or it was altered.",
                       None, named)


def _norm_code(code: str) -> str:
    return re.sub(r"[^A-Z2-7]", "", code.upper().replace("0", "O").replace("1", "I"))


def verify_code(case: Case, code: str) -> ReportCheck:
    """Check a printed copy by the short code on its pages (at least its first 8 letters)."""
    want = _norm_code(code)
    shown = code.strip()
    if len(want) < 8:
        return ReportCheck(False, shown, "give at least the first two groups of the code "
                           "printed at the foot of each page (XXXX-XXXX).")
    gens = _generations(case.conn)
    hits = [(e, d) for e, d in gens if _norm_code(str(d.get("code", ""))).startswith(want)]
    cache: dict[int, RecountReport | ReportNotReady] = {}
    if hits:
        _e, d = hits[-1]
        cid = int(d["contest_id"])
        base = _current(case, cache, cid)
        copies = ", ".join(f"{_copy_name(x)} (entry {y.seq})" for y, x in hits)
        if base is not None and fingerprint(base) == d["fingerprint"]:
            return ReportCheck(True, shown,
                               f"belongs to the report with fingerprint {d['code']}: "
                               f"{copies}. The case still gives this fingerprint, so a copy "
                               "showing it on every page has the figures the case holds.",
                               cid, str(d["fingerprint"]))
        return ReportCheck(False, shown,
                           f"belongs to {copies}, but the case has changed since: its recount "
                           "data now gives a different fingerprint.", cid,
                           str(d["fingerprint"]))
    for cid in reportable_contests(case):
        base = _current(case, cache, cid)
        if base is not None and _norm_code(short_code(fingerprint(base))).startswith(want):
            fp = fingerprint(base)
            return ReportCheck(True, shown, f"matches the report the case gives now "
                               f"(fingerprint {short_code(fp)}), though no copy of it is "
                               "recorded in this case's log.", cid, fp)
    return ReportCheck(False, shown, "no report of this case has this code: the copy belongs "
                       "to another case, or it was altered.")


# --- signing ------------------------------------------------------------------------------

def record_signing(case: Case, contest_id: int, signed_at: datetime,
                   signers: Sequence[str], *, place: str | None = None,
                   confirmed: bool = True) -> str:
    """Record that the board and the officer signed the report; the contest is then locked.

    Returns the fingerprint of the data signed. A report whose dates are out of order, or
    whose board had no quorum, cannot be signed (it cannot be the official result). Uses
    the recount workflow's own signing action, so there is one way to lock a contest.
    """
    if not signers or not all(s.strip() for s in signers):
        raise ValueError("Name every person who signed.")
    data = build_report_data(case, contest_id)
    fp = fingerprint(data)
    if _signing(case, contest_id) is not None:
        raise ReportNotReady("This contest's report is already signed; reopen the contest "
                             "first to record a new signing.")
    trial = replace(data, printing=Printing(signing=rc.Signing(
        signed_at, place or data.board.place, tuple(rc.Signer(n, "") for n in signers))))
    found = problems(trial)
    if found:
        raise ReportNotReady("The report cannot be signed as the official result: "
                             + " ".join(found))
    recount_actions.sign_report(case, contest_id, signed_at=signed_at, signers=list(signers),
                                place=place, confirmed=confirmed)
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
