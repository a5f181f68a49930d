"""The contests overview, contest settings, and recount requests: what the officer decides."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import date, datetime

from recount_desk import store
from recount_desk.core.calendar import Closed
from recount_desk.core.model import (
    Contest,
    ContestKind,
    ContestTotals,
    PassRule,
    Scope,
    VotingMethod,
)
from recount_desk.core.rules import (
    Office,
    Requester,
    RequestEvaluation,
    evaluate_request,
)
from recount_desk.core.scope import (
    ScopeFinding,
    check_label,
    infer_scope,
    officer_finding,
    portion_eligibility,
    spans_counties,
    stored_finding,
)
from recount_desk.store import repo

from .canvass import ContestCheck, check_contest, file_county
from .case import Case
from .whole_case import WholeRaceRecord, whole_races


@dataclass(frozen=True)
class ContestRow:
    id: int
    check: ContestCheck
    requests: int


def overview(case: Case) -> list[ContestRow]:
    """Every contest of the case with its verdict, office and deadline."""
    e = case.election
    cc = e.canvass_completed.date() if e.canvass_completed else None
    counts = dict(case.conn.execute(
        "SELECT contest_id, count(*) FROM recount_request WHERE withdrawn=0 "
        "GROUP BY contest_id").fetchall())
    set_by_officer = officer_scopes(case)
    county = case_county(case)
    closed = case.closed_days
    whole = whole_races(case)
    withheld = repo.withheld_contests(case.conn)
    return [_row(case, sc, cc, closed, county, set_by_officer.get(sc.id), whole.get(sc.id),
                 counts.get(sc.id, 0), withheld.get(sc.id, 0))
            for sc in repo.contests(case.conn)]


def _check(case: Case, totals: ContestTotals, cc: date | None, closed: Closed,
           county: str | None, finding: ScopeFinding,
           whole: WholeRaceRecord | None, read_errors: int = 0) -> ContestCheck:
    """The contest's check: on the whole race when the case knows it, else on its figures.
    ``read_errors``: the import's errors in this contest's own figures (no verdict on them,
    nor on a whole race they are part of)."""
    e = case.election
    if whole is not None and spans_counties(finding):
        return check_contest(whole.totals(totals), case.edition, e.kind, e.date, cc, closed,
                             scope=finding, coverage=whole.coverage(), county=county,
                             county_totals=totals, read_errors=read_errors,
                             own_errors=True)
    return check_contest(totals, case.edition, e.kind, e.date, cc, closed, scope=finding,
                         county=county, read_errors=read_errors, own_errors=True)


def case_county(case: Case) -> str | None:
    """The county whose canvass the case holds: the election's jurisdiction, else the file."""
    from recount_desk.core.districts import county_name

    named = county_name(case.election.jurisdiction)
    if named:
        return named
    imp = repo.current_import(case.conn)
    if imp is None:
        return None
    from .canvass import ParsedCanvass

    return file_county(ParsedCanvass(imp.file, "", "", [], [], [], [], [], []))


def officer_scopes(case: Case) -> dict[int, Scope]:
    """The scopes the election officer set, by contest id, from the audit log (the record)."""
    out: dict[int, Scope] = {}
    for (payload,) in case.conn.execute(
            "SELECT payload FROM audit WHERE action='change contest settings' ORDER BY seq"):
        entry = json.loads(payload)
        p = entry.get("data", entry) if isinstance(entry, dict) else {}
        changed = p.get("before", {}).get("scope") != p.get("after", {}).get("scope")
        if changed or int(p.get("contest_id", 0)) in out:
            out[int(p["contest_id"])] = Scope(p["after"]["scope"])
    return out


def _finding(contest: Contest, officer: Scope | None, county: str | None,
             case: Case) -> ScopeFinding:
    inferred = infer_scope(contest, county=county, election_date=case.election.date)
    if officer is not None and officer is contest.scope:
        return officer_finding(officer, inferred)
    if inferred.scope is contest.scope or contest.scope is Scope.COUNTY:
        # As inferred; or "county" stored by a version that did not infer scope, which
        # must not hide a multicounty race (the officer's own choice is in the audit log).
        return inferred
    # Stored when the canvass was imported (the import wizard's settings): nobody is
    # named as having chosen it, the audit log records no officer's change.
    return stored_finding(contest.scope, inferred)


def labelled(totals: ContestTotals, county: str | None, when: date) -> tuple[ContestTotals,
                                                                               str | None]:
    """The contest under its proper name when the district table contradicts the file's
    label (Grand's 2018 file calls its U.S. House 3 rows district 1: core.scope.check_label),
    with the sentence that says so; else the totals as stored and None."""
    fix = check_label(totals.contest.key, county, when)
    if fix is None:
        return totals, None
    return replace(totals, contest=replace(totals.contest, key=fix.key)), fix.message


def _row(case: Case, sc: repo.StoredContest, cc: date | None, closed: Closed,
         county: str | None, officer: Scope | None, whole: WholeRaceRecord | None,
         requests: int, read_errors: int = 0) -> ContestRow:
    totals, relabelled = labelled(sc.totals, county, case.election.date)
    check = _check(case, totals, cc, closed, county,
                   _finding(totals.contest, officer, county, case), whole, read_errors)
    if relabelled is not None:
        check = replace(check, decision=replace(
            check.decision, assumptions=(*check.decision.assumptions, relabelled)))
    return ContestRow(sc.id, check, requests)


def contest_check(case: Case, contest_id: int) -> ContestRow:
    e = case.election
    sc = repo.contest_by_id(case.conn, contest_id)
    cc = e.canvass_completed.date() if e.canvass_completed else None
    n = case.conn.execute("SELECT count(*) FROM recount_request WHERE withdrawn=0 AND "
                          "contest_id=?", (contest_id,)).fetchone()[0]
    county = case_county(case)
    return _row(case, sc, cc, case.closed_days, county, officer_scopes(case).get(contest_id),
                whole_races(case).get(contest_id), n,
                repo.withheld_contests(case.conn).get(contest_id, 0))


def precinct_table(case: Case, contest_id: int) -> tuple[list[str], list[str], list[list[int]]]:
    return repo.precinct_table(case.conn, contest_id)


def set_contest_settings(case: Case, contest_id: int, *, seats: int, scope: Scope,
                         voting_method: VotingMethod, pass_rule: PassRule,
                         kind: ContestKind | None = None) -> ContestRow:
    """Change a contest's seats, scope, voting method or pass rule; the verdict follows."""
    if seats < 1:
        raise ValueError("A contest fills at least one seat.")
    before = repo.contest_by_id(case.conn, contest_id).totals.contest
    with store.transaction(case.conn, case.actor, "change contest settings") as tx:
        repo.update_contest(tx, contest_id, seats=seats, scope=scope,
                            voting_method=voting_method, pass_rule=pass_rule, kind=kind)
        tx.update({
            "contest_id": contest_id, "contest": before.key.label(),
            "before": {"seats": before.seats, "scope": before.scope.value,
                       "voting_method": before.voting_method.value,
                       "pass_rule": before.pass_rule.value, "kind": before.kind.value},
            "after": {"seats": seats, "scope": scope.value,
                      "voting_method": voting_method.value, "pass_rule": pass_rule.value,
                      "kind": (kind or before.kind).value},
        })
    return contest_check(case, contest_id)


def evaluate(case: Case, contest_id: int, *, requester: Requester, candidate: str | None,
             voters: list[tuple[str, bool]], filed_at: datetime,
             filed_with: Office) -> RequestEvaluation:
    """What the program says of a request before it is recorded."""
    e = case.election
    row = contest_check(case, contest_id)
    ev = evaluate_request(
        row.check.decision, e.kind, e.date,
        e.canvass_completed.date() if e.canvass_completed else None,
        requester, candidate, sum(1 for _, ok in voters if ok), filed_at, filed_with,
        case.closed_days)
    if row.check.portion:
        # A county's figures cannot show who may ask: the whole race decides.
        return RequestEvaluation(ev.timely, portion_eligibility(), ev.right_office,
                                 ev.deadline)
    return ev


class RequestRefused(Exception):
    """A request that fails a check and has no recorded reason to accept it anyway."""


def record_request(case: Case, contest_id: int, *, requester: Requester,
                   candidate: str | None, voters: list[tuple[str, bool]],
                   filed_at: datetime, filed_with: Office,
                   override_reason: str | None = None) -> tuple[int, RequestEvaluation]:
    """Record a recount request (20A-4-401(1)(d), (2)(a)-(c)).

    A request that is late, from someone who may not ask, or filed with the wrong office
    is recorded only with ``override_reason``; the reason is kept with it.
    """
    ev = evaluate(case, contest_id, requester=requester, candidate=candidate, voters=voters,
                  filed_at=filed_at, filed_with=filed_with)
    reason = (override_reason or "").strip() or None
    if not ev.ok and reason is None:
        failed = "; ".join(f.text for f in ev.findings() if not f.ok)
        raise RequestRefused(f"The request fails a check ({failed}). To accept it anyway, "
                             "give the reason.")
    findings = [{"ok": f.ok, "text": f.text, "basis": f.basis} for f in ev.findings()]
    with store.transaction(case.conn, case.actor, "record recount request") as tx:
        rid = repo.add_request(
            tx, contest_id=contest_id, requester=requester.value, candidate=candidate,
            filed_at=filed_at, filed_with=filed_with.value, timely=ev.timely.ok,
            eligible=ev.eligible.ok, right_office=ev.right_office.ok, accepted=True,
            override_reason=reason, findings=findings, voters=voters,
            recorded_by=case.actor, recorded_at=store.utc_now())
        tx.update({"request_id": rid, "contest_id": contest_id,
                        "requester": requester.value, "candidate": candidate,
                        "voters": [n for n, _ in voters],
                        "filed_at": filed_at.isoformat(timespec="minutes"),
                        "filed_with": filed_with.value, "findings": findings,
                        "override_reason": reason})
    return rid, ev


def requests(case: Case, contest_id: int | None = None) -> list[repo.StoredRequest]:
    return repo.requests(case.conn, contest_id)
