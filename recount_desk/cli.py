"""The command line: the same jobs as the window, without one (check, new, import, verify…)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sqlite3
import sys
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recount_desk import __version__
from recount_desk.actions import canvass as canvass_actions
from recount_desk.actions import case as case_actions
from recount_desk.actions import demo as demo_actions
from recount_desk.actions import verify as verify_actions
from recount_desk.actions.canvass import (
    CheckResult,
    ContestCheck,
    ImportFailed,
    ImportRefused,
    ReadOptions,
    check_parsed,
)
from recount_desk.core.calendar import ClosedDay
from recount_desk.core.model import (
    Contest,
    ContestKind,
    Election,
    ElectionKind,
    Issue,
    Remedy,
    Scope,
    Severity,
)
from recount_desk.core.rules import Edition, Verdict, seats_assumption
from recount_desk.core.scope import PORTION_BASIS

if TYPE_CHECKING:
    from recount_desk.actions.whole import WholeCheck

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def _seats(values: Sequence[str] | None) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values or []:
        title, sep, n = v.rpartition("=")
        if not sep or not n.strip().isdigit() or int(n) < 1:
            raise SystemExit(f"--seats takes NAME=N with N ≥ 1 (NAME as check prints it), "
                             f"not {v!r}")
        out[title.strip()] = int(n)
    return out


def _scopes(values: Sequence[str] | None) -> dict[str, Scope]:
    out: dict[str, Scope] = {}
    names = ", ".join(s.value for s in Scope)
    for v in values or []:
        title, sep, scope = v.rpartition("=")
        try:
            out[title.strip()] = Scope(scope.strip().lower().replace("-", "_"))
        except ValueError:
            raise SystemExit(f"--scope takes TITLE=SCOPE with SCOPE one of {names}, "
                             f"not {v!r}") from None
        if not sep or not title.strip():
            raise SystemExit(f"--scope takes TITLE=SCOPE, not {v!r}")
    return out


def _closed_day(text: str) -> ClosedDay:
    day, sep, reason = text.partition("=")
    try:
        d = date.fromisoformat(day.strip())
    except ValueError as e:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give DATE=REASON, e.g. 2026-11-24=\"Day of mourning\"") from e
    if not sep or not reason.strip():
        raise argparse.ArgumentTypeError(
            f"{text!r}: give the reason after '=' (the governor's proclamation)")
    return ClosedDay(d, reason.strip())


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2026-11-03") from e


def _datetime(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a date/time like 2026-11-17 or 2026-11-17T16:30") from e


def _seats_source(c: Contest, given: set[str]) -> str:
    """'given' (--seats), 'file' (the file or its title states them), 'assumed' (1)."""
    if c.kind is not ContestKind.RACE:
        return "n/a"
    names = {" ".join(c.key.label().split()).casefold(),
             " ".join(c.key.title.split()).casefold()}
    if names & given:
        return "given"
    return "file" if c.seats_from_file else "assumed"


def contest_json(cc: ContestCheck, given: set[str]) -> dict[str, Any]:
    """One contest of the `check --json` contract."""
    d = cc.decision
    t = cc.totals
    c = t.contest
    ranking = d.outcome.ranking
    return {
        "title": c.key.title, "district": c.key.district, "party": c.key.party,
        "kind": c.kind.value, "seats": c.seats,
        "seats_source": _seats_source(c, given),
        "seats_assumption": seats_assumption(c),
        "voting_method": c.voting_method.value,
        "scope": c.scope.value, "total": d.total,
        "choices": [{"name": ch.choice.name, "votes": ch.votes} for ch in ranking],
        "winners": list(d.outcome.winners), "result": d.outcome.result.value,
        "tied": list(d.outcome.tied),
        "closest_loser": d.closest_loser, "margin": d.margin,
        "threshold_votes": d.threshold, "within_margin": cc.within_margin,
        "portion": cc.portion,
        "scope_reason": cc.scope.reason if cc.scope else None,
        "scope_basis": cc.scope.basis if cc.scope else None,
        "scope_assumed": cc.scope.assumed if cc.scope else False,
        "scope_set_by_officer": cc.scope.overridden if cc.scope else False,
        "counties": list(cc.coverage.counties) if cc.coverage else None,
        "district_counties": (list(cc.scope.counties) if cc.scope and cc.scope.counties
                              else None),
        "tie": d.tie, "automatic_recount": d.automatic_recount, "decided": d.decided,
        "official_totals": t.official, "hidden_cells": t.hidden_cells,
        "verdict": d.verdict.value, "basis": d.basis, "explanation": d.explanation,
        "who_may_request": d.who_may_request, "filing_office": cc.office,
        "filing_office_basis": cc.office_basis, "deadline": cc.deadline,
        "assumptions": list(d.assumptions),
        "over_votes": t.extras.get("over"), "under_votes": t.extras.get("under"),
    }


def check_json(result: CheckResult, given_seats: Sequence[str] = ()) -> dict[str, Any]:
    """The `check --json` contract (issue: Foundation §5)."""
    given = _given(given_seats)
    contests = [contest_json(cc, given) for cc in result.contests]
    det = result.detection
    inf = result.kind_inference
    return {"source": result.source, "format": result.family,
            "detection": None if det is None else {
                "family": det.family, "label": det.label, "confidence": det.confidence,
                "reason": det.reason},
            "doubts": list(result.doubts),
            "edition": result.edition.value,
            "edition_label": result.edition.label,
            "law_assumption": result.law_assumption, "election_kind": result.kind.value,
            "election_kind_source": inf.source.value if inf else None,
            "election_kind_reason": inf.reason if inf else None,
            "contests": contests,
            "issues": [_issue_json(i) for i in result.issues]}


def whole_json(result: WholeCheck) -> dict[str, Any]:
    """`check FILE FILE … --json`: every contest decided on the whole race where known."""
    contests = []
    for rc in result.races:
        item = contest_json(rc.check, set())
        r = rc.race
        if r.totals is None and not rc.official:
            # Not added up: no figure of the race is known, so none is given (not the first
            # file's as the race's).
            item.update({"total": None, "choices": [], "winners": [], "tied": [],
                         "result": None, "closest_loser": None, "threshold_votes": None,
                         "over_votes": None, "under_votes": None})
        item.update({
            "whole": rc.check.coverage.whole if rc.check.coverage else False,
            "official": rc.official,
            "figures_from": rc.check.coverage.source if rc.check.coverage else None,
            "parts": [{"counties": list(p.counties), "file": p.source,
                       "total": p.totals.total,
                       "choices": [{"name": c.choice.name, "votes": c.votes}
                                   for c in p.totals.choices]} for p in r.parts],
            "counties_files_choices": (None if r.totals is None else [
                {"name": c.choice.name, "votes": c.votes} for c in r.totals.choices]),
            "name_matches": list(r.confirm), "label_notes": list(r.notes),
            "refused": r.refused,
        })
        contests.append(item)
    return {"files": result.files, "state_canvass": result.state_source,
            "edition": result.edition.value, "edition_label": result.edition.label,
            "law_assumption": result.law_assumption,
            "election_kind": result.kind.value, "contests": contests,
            "cross_check": [{"title": dis.key.title, "district": dis.key.district,
                             "party": dis.key.party, "text": dis.text(),
                             "figures": [{"name": n, "counties_files": a, "state_canvass": b}
                                         for n, a, b in dis.figures]}
                            for dis in result.disagreements],
            "issues": [_issue_json(i) for i in result.issues]}


def _print_whole(result: WholeCheck, only_close: bool) -> None:
    print(f"{len(result.files)} file(s)"
          + (f", cross-checked against {result.state_source}" if result.state_source else "")
          + f" — {len(result.races)} contests; law applied: {result.edition.label}")
    if result.law_assumption:
        print(result.law_assumption)
    width = min(max([len(r.check.totals.contest.key.label()) for r in result.races] + [10]),
                60)
    for rc in result.races:
        cc = rc.check
        d = cc.decision
        if only_close and not d.within_margin:
            continue
        label = cc.totals.contest.key.label()[:width]
        unknown = rc.race.totals is None and not rc.official  # not added up
        margin = "—" if d.margin is None else f"{d.margin:,}"
        threshold = "—" if cc.portion or unknown else f"{d.threshold:,}"
        total = "—" if unknown else f"{d.total:,}"
        what = ("official" if rc.official else "not added up" if unknown
                else "whole race" if not cc.portion
                else f"{len(cc.coverage.counties) if cc.coverage else 0} county part(s)")
        verdict = "Cannot be decided" if unknown else d.verdict.label
        print(f"{label:<{width}}  total {total:>9}  margin {margin:>7}  "
              f"threshold {threshold:>6}  {verdict} ({what})")
        if d.within_margin:
            print(f"    {d.explanation}")
            print(f"    File with {cc.office} ({cc.office_basis})"
                  + (f"; {cc.deadline_explained}" if cc.deadline_explained else ""))
        for m in rc.race.confirm:
            print(f"    Confirm: {m}.")
    close = sum(1 for r in result.races if r.check.decision.within_margin)
    print(f"{close} contest(s) inside the recount margin.")
    if result.disagreements:
        print(f"The counties' files disagree with the state canvass in "
              f"{len(result.disagreements)} race(s); the verdicts rest on the state canvass:")
        for dis in result.disagreements:
            print(f"  {dis.text()}")
    if result.issues:
        print("Issues:")
        _print_issues(result.issues, sys.stdout)


# What to do about an issue, in the command line's terms (the window words its own).
REMEDY_WORDS = {Remedy.SET_SEATS: 'Give its seats with --seats "NAME=N" (NAME as check '
                                  "prints it).",
                Remedy.MAP_COLUMNS: "Give a mapping with --mapping mapping.json (the window's "
                                    "import wizard saves one).",
                Remedy.CHOOSE_SHEET: "To read another, give it with --sheet NAME."}


def _issue_text(i: Issue) -> str:
    """The issue's message with what to do about it on the command line."""
    return f"{i.message} {REMEDY_WORDS[i.remedy]}" if i.remedy else i.message


def _issue_json(i: Issue) -> dict[str, Any]:
    return {"file": i.file, "sheet": i.sheet, "row": i.row, "column": i.column,
            "severity": i.severity.value, "message": _issue_text(i)}


def _print_issues(issues: Sequence[Issue], out: Any) -> None:
    for i in issues:
        print(f"  [{i.severity.value}] {i.where()}: {_issue_text(i)}", file=out)


def _given(values: Sequence[str] | None) -> set[str]:
    return {" ".join(k.split()).casefold() for k in _seats(values)}


def _print_check(result: CheckResult, only_close: bool,
                 given_seats: Sequence[str] = ()) -> None:
    det = result.detection
    how = (f"{det.label}, detected with {det.confidence} % confidence: {det.reason}"
           if det else f"{result.family} format")
    print(f"{result.source} — {len(result.contests)} contests ({how}); "
          f"law applied: {result.edition.label}")
    if result.law_assumption:
        print(result.law_assumption)
    if result.doubts:
        print("THIS READING LOOKS WRONG; do not rely on the figures below until the file is "
              "mapped (check --mapping) or corrected:")
        for why in result.doubts:
            print(f"  - {why}")
    if result.kind_inference is not None:
        print(f"Election kind: {result.kind_inference.describe()}")
    given = _given(given_seats)
    sources = [_seats_source(c.totals.contest, given) for c in result.contests]
    races = [s for s in sources if s != "n/a"]
    loud = [c.totals.contest.key.label() for c, s in zip(result.contests, sources, strict=True)
            if s == "assumed" and (seats_assumption(c.totals.contest) or "").startswith(
                "SEATS NOT STATED")]
    print(f"Seats: {len(races)} race(s): {races.count('file')} stated by the file, "
          f"{races.count('given')} given with --seats, {races.count('assumed')} assumed to "
          "fill one seat (the file does not say)"
          + (f"; {len(loud)} of these have titles that suggest several seats: "
             + ", ".join(loud[:8]) + (" …" if len(loud) > 8 else "") if loud else "") + ".")
    width = max([len(c.totals.contest.key.label()) for c in result.contests] + [10])
    width = min(width, 60)
    said: dict[str, str] = {}  # an explanation already printed → the contest it was under

    def explain(label: str, text: str) -> None:
        first = said.setdefault(text, label)
        print(f"    {text}" if first == label else f"    (The same reason as for {first}.)")

    for cc, src in zip(result.contests, sources, strict=True):
        d = cc.decision
        if only_close and not d.within_margin and d.decided:
            continue
        c = cc.totals.contest
        label = c.key.label()[:width]
        margin = "—" if d.margin is None else f"{d.margin:,}"
        threshold = "—" if cc.portion else f"{d.threshold:,}"
        seats = "" if src == "n/a" else f"  {c.seats} seat{'s' if c.seats != 1 else ''} ({src})"
        print(f"{label:<{width}}  total {d.total:>9,}  margin {margin:>7}  "
              f"threshold {threshold:>6}  {d.verdict.label}{seats}")
        if cc.portion and d.doubt:
            explain(c.key.label(), d.doubt)
        if not d.within_margin and not cc.portion:
            for a in d.assumptions:
                if a.startswith("SEATS NOT STATED"):
                    print(f"    Assumption: {a}")
            if not d.decided or d.verdict is Verdict.NO_RESULT:
                explain(c.key.label(), d.explanation)
        if d.within_margin:
            print(f"    {d.explanation}")
            print(f"    File with {cc.office} ({cc.office_basis})"
                  + (f"; {cc.deadline_explained}" if cc.deadline_explained else ""))
            for a in d.assumptions:
                print(f"    Assumption: {a}")
    close = sum(1 for c in result.contests if c.decision.within_margin)
    open_ = sum(1 for c in result.contests if not c.decision.decided)
    print(f"{close} contest(s) inside the recount margin."
          + (f" {open_} cannot be decided from this file (why is said under each)."
             if open_ else ""))
    portions = [c for c in result.contests if c.portion]
    if portions:
        where = f"{result.county} County" if result.county else "this file"
        print(f"{len(portions)} contest(s) are {where}'s portion of a multicounty or statewide "
              "race: the figures are shown, but eligibility for a recount is "
              "decided on the whole race's canvass, by the lieutenant governor's office "
              f"({PORTION_BASIS}). Give every county's file (or --state-canvass) to decide "
              "the whole race.")
    if result.issues:
        print("Issues:")
        _print_issues(result.issues, sys.stdout)


def cmd_check(args: argparse.Namespace) -> int:
    if args.demo_portion:
        from recount_desk.actions import demo_portion

        alone, whole = demo_portion.check_portion_demo()
        if args.json:
            print(json.dumps({"county_portion": whole_json(alone), "whole_race":
                              whole_json(whole)}, indent=2, ensure_ascii=False))
            return EXIT_OK
        print("Step 1 — Grand County's canvass alone: every contest is Grand's portion of a "
              "multicounty or statewide race.")
        _print_whole(alone, args.close)
        print("\nStep 2 — with Carbon's, Duchesne's and Emery's files: State House 69 is "
              "decided on the whole race.")
        _print_whole(whole, args.close)
        return EXIT_OK
    if args.demo:
        spec = demo_actions.demo_spec()
        path = spec.canvass
        kind = spec.election.kind
        when = spec.election.date
        cc = spec.election.canvass_completed.date() if spec.election.canvass_completed else None
    else:
        if not args.file:
            print("check: give a canvass file, or --demo", file=sys.stderr)
            return EXIT_USAGE
        if len(args.file) > 1 or args.state_canvass:
            return _check_whole(args)
        path = Path(args.file[0])
        kind = ElectionKind(args.kind) if args.kind else None
        when = args.date
        cc = args.canvass_completed.date() if args.canvass_completed else None
    mapping = None
    if args.mapping:
        try:
            mapping = json.loads(Path(args.mapping).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            print(f"{args.mapping}: cannot read the mapping ({e})", file=sys.stderr)
            return EXIT_FAIL
    try:
        parsed = canvass_actions.read_file(
            path, family=args.format, primary=(kind.is_primary if kind else None),
            seats=_seats(args.seats), options=ReadOptions(sheet=args.sheet, mapping=mapping))
    except ImportFailed as e:
        if args.json:
            print(json.dumps({"source": path.name, "contests": [],
                              "issues": [_issue_json(e.issue)]}, indent=2, ensure_ascii=False))
        else:
            print(f"{e.issue.where()}: {_issue_text(e.issue)}", file=sys.stderr)
        return EXIT_FAIL
    if args.demo:
        parsed = demo_actions.apply_demo_scopes(parsed)
    result = check_parsed(parsed, kind=kind, election_date=when,
                          edition=Edition(args.edition) if args.edition else None,
                          canvass_completed=cc, closed=tuple(args.closed_day or ()),
                          scopes=_scopes(args.scope),
                          kind_given_by="the demo election's details" if args.demo
                          else "given with --kind")
    if args.json:
        print(json.dumps(check_json(result, args.seats or ()), indent=2, ensure_ascii=False))
    else:
        _print_check(result, args.close, args.seats or ())
    return EXIT_FAIL if result.doubts or any(i.severity is Severity.ERROR
                                             for i in result.issues) else EXIT_OK


def _check_whole(args: argparse.Namespace) -> int:
    """`check FILE FILE …`: the counties' files (or a state canvass) as whole races."""
    from recount_desk.actions import whole as whole_actions

    kind = ElectionKind(args.kind) if args.kind else None

    def read(path: Path | str) -> canvass_actions.ParsedCanvass:
        return canvass_actions.read_file(
            path, family=args.format, primary=(kind.is_primary if kind else None),
            seats=_seats(args.seats), options=ReadOptions(sheet=args.sheet))

    try:
        result = whole_actions.check_files(
            args.file, kind=kind, election_date=args.date,
            edition=Edition(args.edition) if args.edition else None,
            canvass_completed=args.canvass_completed.date() if args.canvass_completed else None,
            closed=tuple(args.closed_day or ()), scopes=_scopes(args.scope),
            state_canvass=args.state_canvass, read=read)
    except ImportFailed as e:
        if args.json:
            print(json.dumps({"files": args.file, "contests": [],
                              "issues": [_issue_json(e.issue)]}, indent=2, ensure_ascii=False))
        else:
            print(f"{e.issue.where()}: {_issue_text(e.issue)}", file=sys.stderr)
        return EXIT_FAIL
    if args.json:
        print(json.dumps(whole_json(result), indent=2, ensure_ascii=False))
    else:
        _print_whole(result, args.close)
    return EXIT_FAIL if any(i.severity is Severity.ERROR for i in result.issues) else EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    e = Election(args.name, args.date, ElectionKind(args.kind), args.jurisdiction,
                 args.canvass_completed, args.officer or "")
    errs = case_actions.validate_election(e.name, e.date, e.kind.value, e.jurisdiction,
                                          e.canvass_completed)
    if errs:
        for err in errs:
            print(f"{err.field}: {err.message}", file=sys.stderr)
        return EXIT_FAIL
    try:
        case = case_actions.create_case(args.case, e,
                                        edition=Edition(args.edition) if args.edition else None,
                                        actor=_person(args))
    except case_actions.store.CaseFileError as err:
        print(str(err), file=sys.stderr)
        return EXIT_FAIL
    with case:
        print(f"Created {case.path} — {e.name}, {e.jurisdiction}; law applied: "
              f"{case.edition.label}")
    return EXIT_OK


def cmd_election(args: argparse.Namespace) -> int:
    """Show the election's details, or change the ones given (one audited action)."""
    try:
        case = case_actions.open_case(args.case, actor=_person(args))
    except case_actions.store.CaseFileError as err:
        print(str(err), file=sys.stderr)
        return EXIT_FAIL
    with case:
        e = case.election
        changes = {k: v for k, v in (
            ("name", args.name), ("date", args.date),
            ("kind", ElectionKind(args.kind) if args.kind else None),
            ("jurisdiction", args.jurisdiction), ("canvass_completed", args.canvass_completed),
            ("officer", args.officer)) if v is not None}
        if changes:
            if _refuse_write(case):
                return EXIT_FAIL
            try:
                case_actions.update_election(case, dataclasses.replace(e, **changes))
            except (case_actions.ElectionDetailsRefused,
                    case_actions.store.CaseFileError) as err:
                print(str(err), file=sys.stderr)
                return EXIT_FAIL
            e = case.election
        if args.closed_day or args.no_closed_days:
            keep = [] if args.no_closed_days else list(case.closed_days)
            try:
                case_actions.set_closed_days(case, keep + list(args.closed_day or []))
            except (case_actions.ElectionDetailsRefused,
                    case_actions.store.CaseFileError) as err:
                print(str(err), file=sys.stderr)
                return EXIT_FAIL
        done = (e.canvass_completed.isoformat(timespec="minutes") if e.canvass_completed
                else "not known")
        closed = "; ".join(f"{c.day.isoformat()} {c.reason}" for c in case.closed_days)
        print(f"{e.name}\n  date: {e.date.isoformat()}\n  kind: {e.kind.label}\n"
              f"  jurisdiction: {e.jurisdiction}\n  canvass completed: {done}\n"
              f"  officer: {e.officer or '—'}\n  law applied: {case.edition.label}\n"
              f"  days proclaimed holidays (63G-1-301): {closed or 'none'}")
    return EXIT_OK


def _refuse_write(case: case_actions.Case) -> bool:
    """Before the command line writes: the case must be writable and verify, and a backup is
    kept (as the window keeps one per open). True (after saying why) when it must not."""
    if case.readonly:
        print((case.readonly_reason or f"{case.path.name} is open read-only.")
              + " Nothing was changed.", file=sys.stderr)
        return True
    problems = case_actions.backup_before_writing(case)
    if problems:
        print(f"{case.path.name} does not verify, so nothing was changed: "
              + "; ".join(problems) + ". See `recount-desk verify` and "
              "`recount-desk restore`.", file=sys.stderr)
    return bool(problems)


def cmd_import(args: argparse.Namespace) -> int:
    try:
        case = case_actions.open_case(args.case, actor=_person(args))
    except case_actions.store.CaseFileError as err:
        print(str(err), file=sys.stderr)
        return EXIT_FAIL
    with case:
        if _refuse_write(case):
            return EXIT_FAIL
        kind = case.election.kind
        try:
            parsed = canvass_actions.read_file(
                args.file, family=args.format, primary=kind.is_primary,
                seats=_seats(args.seats), options=ReadOptions(sheet=args.sheet))
        except ImportFailed as e:
            print(f"{e.issue.where()}: {_issue_text(e.issue)}", file=sys.stderr)
            return EXIT_FAIL
        try:
            canvass_actions.import_canvass(case, parsed, replace=args.replace)
        except ImportRefused as e:
            print(str(e), file=sys.stderr)
            _print_issues(e.issues, sys.stderr)
            return EXIT_FAIL
        print(f"Imported {parsed.file}: {len(parsed.contests)} contests, "
              f"{len(parsed.precincts)} precincts, {parsed.rows:,} rows.")
        if parsed.withheld:
            print(f"No verdict on {len(parsed.withheld)} contest(s) until the file is "
                  "corrected, for the errors in their own figures listed below: "
                  + "; ".join(c.key.label() for c in parsed.withheld) + ".")
        if parsed.issues:
            print("Notes:")
            _print_issues(parsed.issues, sys.stdout)
    return EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    if args.demo:
        with demo_actions.open_demo_case() as case:
            path = case.path
    else:
        path = args.case  # a case file, or a postgresql:// URL
    result = verify_actions.verify_case(path)
    print(result.summary())
    if getattr(args, "report", None) or getattr(args, "code", None):
        from recount_desk.actions import report as report_actions

        with case_actions.open_case(path, readonly=True) as case:
            checks = []
            if args.report:
                checks.append(report_actions.verify_report(case, args.report))
            if args.code:
                checks.append(report_actions.verify_code(case, args.code))
        for check in checks:
            print(check.summary())
        return EXIT_OK if result.ok and all(c.ok for c in checks) else EXIT_FAIL
    return EXIT_OK if result.ok else EXIT_FAIL


def cmd_report(args: argparse.Namespace) -> int:
    from recount_desk.actions import report as report_actions

    try:
        if args.demo:  # the demo's report is made by its election officer unless --as says
            case = demo_actions.open_demo_case(
                actor=_person(args) or demo_actions.demo_spec().election.officer)
        elif args.case:
            case = case_actions.open_case(args.case, actor=_person(args))
        else:
            print("report: give a case file, or --demo", file=sys.stderr)
            return EXIT_USAGE
    except case_actions.store.CaseFileError as err:
        print(str(err), file=sys.stderr)
        return EXIT_FAIL
    with case:
        contest = args.contest
        if contest is None:
            contest = report_actions.default_contest(case, demo=args.demo)
        if contest is None:
            print("report: give --contest ID (see `recount-desk status`)", file=sys.stderr)
            return EXIT_USAGE
        try:
            res = report_actions.make_report(case, contest, args.output,
                                             appendix=args.appendix, reprint=args.reprint)
        except report_actions.ReportNotReady as err:
            print(str(err), file=sys.stderr)
            return EXIT_FAIL
    label = (f" (reprint {res.reprint})" if res.reprint else " (signed original)" if res.signed
             else " (DRAFT: the signing is not recorded)")
    print(f"Wrote {res.path}{label}: fingerprint {res.code} (SHA-256 {res.fingerprint})")
    for p in res.problems:
        print(f"  Not official: {p}")
    return EXIT_OK


def cmd_restore(args: argparse.Namespace) -> int:
    found = case_actions.backups(args.case)
    if not args.backup:
        if not found:
            print(f"No automatic backups of {Path(args.case).name}.")
            return EXIT_FAIL
        print("Automatic backups, newest first (restore one with --backup FILE):")
        for b in found:
            print(f"  {b}")
        return EXIT_OK
    try:
        aside = case_actions.restore_backup(args.case, args.backup)
    except case_actions.store.CaseFileError as e:
        print(str(e), file=sys.stderr)
        return EXIT_FAIL
    print(f"Restored {Path(args.case).name} from {Path(args.backup).name}; the replaced file "
          f"was kept as {aside.name}.")
    return EXIT_OK


def cmd_status(args: argparse.Namespace) -> int:
    """Each contest's recount checklist: one line each, the steps with --steps."""
    from recount_desk.actions import recount as recount_actions

    if not args.demo and not args.case:
        print("status: give a case file, or --demo", file=sys.stderr)
        return EXIT_USAGE
    try:
        case = (demo_actions.open_demo_case() if args.demo
                else case_actions.open_case(args.case, readonly=True))
    except case_actions.store.CaseFileError as err:
        print(str(err), file=sys.stderr)
        return EXIT_FAIL
    with case:
        rows = recount_actions.status(case)
    if args.json:
        print(json.dumps([{
            "contest_id": r.contest_id, "contest": r.title,
            "stage": r.stage.value if r.stage else None, "line": r.line,
            "steps": [{"step": s.stage.value, "label": s.stage.label, "done": s.done,
                       "detail": s.detail, "basis": s.basis, "blocker": s.blocker}
                      for s in r.checklist.steps]} for r in rows],
            indent=2, ensure_ascii=False))
        return EXIT_OK
    for r in rows:
        print(f"[{r.contest_id}] {r.line}")
        if args.steps:
            for s in r.checklist.steps:
                mark = "x" if s.done else " "
                tail = f" — {s.blocker}" if s.blocker and not s.done else ""
                print(f"      [{mark}] {s.stage.label}: {s.detail} ({s.basis}){tail}")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    """The contests overview as CSV or XLSX, safe against formula injection."""
    from recount_desk.actions import export as export_actions

    try:
        case = case_actions.open_case(args.case, readonly=True)
    except case_actions.store.CaseFileError as err:
        print(str(err), file=sys.stderr)
        return EXIT_FAIL
    with case:
        try:
            out = export_actions.export_results(case, args.output)
        except export_actions.ExportError as err:
            print(str(err), file=sys.stderr)
            return EXIT_FAIL
    print(f"Wrote the results of {case.path.name} to {out}.")
    return EXIT_OK


def cmd_push(args: argparse.Namespace) -> int:
    """Copy a case file to an empty database on the counting-center server."""
    from recount_desk.actions import center

    moved = center.push(args.case, args.url)
    print(moved.summary())
    print(f"Stations now work on {moved.destination}; {Path(args.case).name} stays as it was "
          "(an older copy of the case from now on).")
    return EXIT_OK


def cmd_pull(args: argparse.Namespace) -> int:
    """Copy a case from the counting-center server into a new case file."""
    from recount_desk.actions import center

    moved = center.pull(args.url, args.case)
    print(moved.summary())
    return EXIT_OK


def _person(args: argparse.Namespace) -> str | None:
    """Who acts: ``--as NAME``, else the RECOUNT_DESK_AS environment variable (a name of the
    case's roster; a one-person roster needs neither)."""
    return getattr(args, "person", None) or os.environ.get("RECOUNT_DESK_AS") or None


def _open_for_recount(path: str, person: str | None = None) -> Any:
    try:
        return case_actions.open_case(path, actor=person)
    except case_actions.store.CaseFileError as err:
        print(str(err), file=sys.stderr)
        return None


def _read_voters(path: str) -> list[tuple[str, bool]]:
    """One voter a line: ``NAME`` or ``NAME,voted`` (the officer confirmed the person voted;
    ``yes``/``y``/``1``/``voted``/``true``). A name alone is not confirmed."""
    import csv as _csv

    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise SystemExit(f"--voters: {path} cannot be read ({e}).") from e
    out: list[tuple[str, bool]] = []
    for rec in _csv.reader(text.splitlines()):
        if not rec or not rec[0].strip():
            continue
        name = rec[0].strip()
        flag = rec[1].strip().casefold() if len(rec) > 1 else ""
        if name.casefold() in ("name", "voter") and len(out) == 0:
            continue  # a header row
        out.append((name, flag in ("yes", "y", "1", "voted", "true", "x")))
    return out


def cmd_request(args: argparse.Namespace) -> int:
    """Record a recount request (the same action as the window's request dialog)."""
    from recount_desk.actions import contests as contest_actions
    from recount_desk.core.rules import Office, Requester

    case = _open_for_recount(args.case, _person(args))
    if case is None:
        return EXIT_FAIL
    with case:
        voters = _read_voters(args.voters) if args.voters else []
        requester = Requester.VOTERS if args.voters else Requester.CANDIDATE
        candidate = args.candidate
        try:
            row = contest_actions.contest_check(case, args.contest)
        except KeyError:
            print(f"There is no contest number {args.contest} in this case.", file=sys.stderr)
            return EXIT_FAIL
        if candidate:
            names = {c.choice.name.casefold(): c.choice.name for c in row.check.totals.choices}
            candidate = names.get(candidate.strip().casefold(), candidate.strip())
        try:
            rid, ev = contest_actions.record_request(
                case, args.contest, requester=requester, candidate=candidate, voters=voters,
                filed_at=args.filed_at, filed_with=Office(args.filed_with),
                override_reason=args.override_reason)
        except contest_actions.RequestRefused as e:
            print(str(e), file=sys.stderr)
            return EXIT_FAIL
        print(f"Recorded request {rid} for {row.check.totals.contest.key.label()}:")
        for f in ev.findings():
            print(f"  [{'ok' if f.ok else 'NO'}] {f.text} ({f.basis})")
    return EXIT_OK


def cmd_start(args: argparse.Namespace) -> int:
    """Start a contest's recount: the method, one unit per canvass precinct."""
    from recount_desk.actions import recount as recount_actions
    from recount_desk.core.recount import EntryMode, RecountMethod

    case = _open_for_recount(args.case, _person(args))
    if case is None:
        return EXIT_FAIL
    with case:
        method = RecountMethod(args.method)
        mode = EntryMode(args.entry_mode) if args.entry_mode else EntryMode.DOUBLE
        try:
            st = recount_actions.start_recount(case, args.contest, method=method,
                                               entry_mode=mode)
        except recount_actions.RecountError as e:
            print(str(e), file=sys.stderr)
            return EXIT_FAIL
        if method is RecountMethod.RETABULATION:
            print(f"Started the {method.label.lower()} of {st.title}: {len(st.units)} units. "
                  "Load the re-tabulated statement with `recount --from FILE`; a unit typed "
                  f"by hand instead is in {mode.label.lower()}.")
        else:
            print(f"Started the {method.label.lower()} of {st.title}: {len(st.units)} units, "
                  f"{mode.label.lower()}.")
    return EXIT_OK


def cmd_recount(args: argparse.Namespace) -> int:
    """Load a re-tabulated statement of votes as a contest's recount tallies."""
    from recount_desk.actions import recount as recount_actions
    from recount_desk.actions import retab as retab_actions

    case = _open_for_recount(args.case, _person(args))
    if case is None:
        return EXIT_FAIL
    with case:
        try:
            f = retab_actions.read_retab_file(args.source, sheet=args.sheet)
            preview = retab_actions.preview_load(case, args.contest, f,
                                                 file_contest=args.file_contest)
        except ImportFailed as e:
            print(f"{e.issue.where()}: {_issue_text(e.issue)}", file=sys.stderr)
            return EXIT_FAIL
        except recount_actions.RecountError as e:
            print(str(e), file=sys.stderr)
            return EXIT_FAIL
        best = preview.matches[0]
        if args.file_contest is None and not best.sure:
            print(f"{f.file}: no contest of the file is surely the recount of "
                  f"{preview.title} (closest: {best.contest.label!r}, "
                  f"{'; '.join(best.reasons)}); name it with --file-contest "
                  f"({', '.join(f'{c.index}={c.label!r}' for c in f.contests)}).",
                  file=sys.stderr)
            return EXIT_FAIL
        for line in preview.lines():
            print(line)
        if preview.refused:
            bad = [p for p in preview.problems if p.refuses]
            print(f"{f.file} cannot be loaded: {bad[0].text}"
                  + (f" ({len(bad) - 1} more problem(s) listed above)" if len(bad) > 1
                     else ""), file=sys.stderr)
            return EXIT_FAIL
        if not args.yes:
            print("Nothing was written: run again with --yes to record this load.")
            return EXIT_OK
        try:
            res = retab_actions.load_retab(case, preview, confirm=True)
        except recount_actions.RecountError as e:
            print(str(e), file=sys.stderr)
            return EXIT_FAIL
        print(f"Loaded {res.loaded} of {preview.plan.units_total} units from {f.file} "
              f"(SHA-256 {f.sha256}) as one audited action."
              + (f" Left for a hand count: {', '.join(res.left_for_hand)}."
                 if res.left_for_hand else ""))
    return EXIT_OK


def cmd_sign(args: argparse.Namespace) -> int:
    """Record the signing of a contest's report: the same action as the Recount page's
    "Sign and lock" (board members present, the quorum, the time and place)."""
    from recount_desk.actions import recount as recount_actions

    case = _open_for_recount(args.case, _person(args))
    if case is None:
        return EXIT_FAIL
    with case:
        kw = {"signed_at": args.signed_at, "signers": args.signer, "place": args.place}
        try:
            recount_actions.sign_report(case, args.contest, **kw)
        except recount_actions.SigningNeedsConfirmation as ask:
            print(str(ask))
            if not args.yes:
                print("Nothing was written: run again with --yes to record the signing.")
                return EXIT_OK
        except recount_actions.RecountError as e:
            print(str(e), file=sys.stderr)
            return EXIT_FAIL
        try:
            got = recount_actions.sign_report(case, args.contest, confirmed=True, **kw)
        except recount_actions.RecountError as e:
            print(str(e), file=sys.stderr)
            return EXIT_FAIL
        print(f"Signed on {got.signed_at:%Y-%m-%d %H:%M} at {got.place} by "
              f"{', '.join(got.signers)}: the contest is locked.")
    return EXIT_OK


def cmd_tally_sheets(args: argparse.Namespace) -> int:
    """Blank tally sheets for a hand count, one page per unit (PDF)."""
    from recount_desk.actions import recount as recount_actions
    from recount_desk.actions import tally_sheets as sheet_actions

    case = _open_for_recount(args.case, _person(args))
    if case is None:
        return EXIT_FAIL
    with case:
        try:
            out = sheet_actions.make_tally_sheets(case, args.contest, args.output)
        except recount_actions.RecountError as e:
            print(str(e), file=sys.stderr)
            return EXIT_FAIL
        print(f"Wrote {out.pages} tally sheet(s) to {out.path}.")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="recount-desk",
        description="Recount Desk — Utah recounts under Utah Code 20A-4-401.")
    p.add_argument("--version", action="version", version=f"recount-desk {__version__}")
    p.add_argument("--as", dest="person", metavar="NAME",
                   help="who is acting: a name of the case's roster of people (default: the "
                        "RECOUNT_DESK_AS environment variable; a one-person roster needs none)")
    p.add_argument("--self-test", action="store_true",
                   help="check this installation offline with the demo election, then exit")
    sub = p.add_subparsers(dest="command")

    c = sub.add_parser("check", help="every contest of a canvass file, its verdict and why")
    c.add_argument("file", nargs="*", help="canvass file (CSV, XLSX, XLS, ODS, XML, ZIP); "
                   "several counties' files are combined into whole races")
    c.add_argument("--state-canvass", metavar="FILE",
                   help="the lieutenant governor's county-level canvass: the counties' figures "
                   "are cross-checked against it and the verdicts rest on it")
    c.add_argument("--demo", action="store_true", help="the bundled demo election")
    c.add_argument("--demo-portion", action="store_true",
                   help="the county-portion demo: Grand's part of State House 69, then the "
                   "whole race from the four counties' files")
    c.add_argument("--json", action="store_true", help="machine-readable output")
    c.add_argument("--close", action="store_true", help="show only contests inside the margin")
    c.add_argument("--kind", choices=[k.value for k in ElectionKind])
    c.add_argument("--date", type=_date, help="election date (decides the edition of the law)")
    c.add_argument("--canvass-completed", type=_datetime, help="for the request deadline")
    c.add_argument("--closed-day", action="append", type=_closed_day, metavar="DATE=REASON",
                   help="a day the governor proclaimed a legal holiday (63G-1-301)")
    c.add_argument("--edition", choices=[e.value for e in Edition])
    c.add_argument("--seats", action="append", metavar="NAME=N",
                   help="seats of a race: NAME is its full name as check prints it (title — "
                   "District d (PARTY)), or its title when that names one race only")
    c.add_argument("--scope", action="append", metavar="TITLE=SCOPE",
                   help="the contest's scope (county, municipal, special_district, "
                   "multicounty, statewide), where the program's inference is wrong")
    c.add_argument("--sheet", help="the sheet to read, for workbooks with several elections")
    c.add_argument("--format", help="force a format family")
    c.add_argument("--mapping", help="JSON column mapping for an unknown layout")
    c.set_defaults(func=cmd_check)

    n = sub.add_parser("new", help="create a case file")
    n.add_argument("case")
    n.add_argument("--name", required=True)
    n.add_argument("--date", type=_date, required=True)
    n.add_argument("--kind", choices=[k.value for k in ElectionKind], required=True)
    n.add_argument("--jurisdiction", required=True)
    n.add_argument("--canvass-completed", type=_datetime)
    n.add_argument("--officer")
    n.add_argument("--edition", choices=[e.value for e in Edition])
    n.set_defaults(func=cmd_new)

    el = sub.add_parser("election", help="show the election's details, or change them")
    el.add_argument("case")
    el.add_argument("--name")
    el.add_argument("--date", type=_date)
    el.add_argument("--kind", choices=[k.value for k in ElectionKind])
    el.add_argument("--jurisdiction")
    el.add_argument("--canvass-completed", type=_datetime)
    el.add_argument("--officer")
    el.add_argument("--closed-day", action="append", type=_closed_day, metavar="DATE=REASON",
                    help="a day the governor proclaimed a legal holiday (63G-1-301); every "
                    "deadline counts it (repeat for several)")
    el.add_argument("--no-closed-days", action="store_true",
                    help="remove the proclaimed holidays entered before")
    el.set_defaults(func=cmd_election)

    i = sub.add_parser("import", help="import a canvass file into a case")
    i.add_argument("case")
    i.add_argument("file")
    i.add_argument("--replace", action="store_true", help="replace the canvass already there")
    i.add_argument("--seats", action="append", metavar="NAME=N")
    i.add_argument("--sheet")
    i.add_argument("--format")
    i.set_defaults(func=cmd_import)

    v = sub.add_parser("verify", help="integrity and audit chain of a case file")
    v.add_argument("case", nargs="?")
    v.add_argument("--demo", action="store_true")
    v.add_argument("--report", metavar="PDF", help="also prove this report PDF matches the case")
    v.add_argument("--code", metavar="XXXX-XXXX",
                   help="check a printed copy by the fingerprint code at the foot of its pages")
    v.set_defaults(func=cmd_verify)

    rp = sub.add_parser("report", help="the board of canvassers' recount report (PDF)")
    rp.add_argument("case", nargs="?")
    rp.add_argument("--demo", action="store_true",
                    help="the demo's finished recount (made by its election officer unless "
                    "--as names another)")
    rp.add_argument("--contest", type=int, help="contest id (the only recounted one if omitted)")
    rp.add_argument("-o", "--output", required=True, help="the PDF to write")
    rp.add_argument("--appendix", action="store_true", help="add the contest's audit log")
    rp.add_argument("--reprint", action="store_true", help="a reprint after signing")
    rp.set_defaults(func=cmd_report)

    r = sub.add_parser("restore", help="list a case's automatic backups, or restore one")
    r.add_argument("case")
    r.add_argument("--backup", help="the backup file to restore")
    r.set_defaults(func=cmd_restore)
    st = sub.add_parser("status", help="where each contest's recount stands (its checklist)")
    st.add_argument("case", nargs="?")
    st.add_argument("--demo", action="store_true", help="the demo case")
    st.add_argument("--steps", action="store_true", help="every checklist step, with its basis")
    st.add_argument("--json", action="store_true", help="machine-readable output")
    st.set_defaults(func=cmd_status)

    rq = sub.add_parser("request", help="record a recount request for a contest")
    rq.add_argument("case")
    rq.add_argument("--contest", type=int, required=True, help="contest id (see status)")
    who = rq.add_mutually_exclusive_group(required=True)
    who.add_argument("--candidate", help="the losing candidate who requests")
    who.add_argument("--voters", metavar="FILE",
                     help="the requesting voters, one a line: NAME or NAME,voted")
    rq.add_argument("--filed-at", type=_datetime, required=True, metavar="YYYY-MM-DD HH:MM")
    rq.add_argument("--filed-with", required=True,
                    choices=["county_clerk", "municipal_clerk", "district_clerk",
                             "lieutenant_governor"])
    rq.add_argument("--override-reason", help="record a request that fails a check anyway")
    rq.set_defaults(func=cmd_request)

    sr = sub.add_parser("start", help="start a contest's recount")
    sr.add_argument("case")
    sr.add_argument("--contest", type=int, required=True)
    sr.add_argument("--method", required=True, choices=["retabulation", "hand_count"])
    sr.add_argument("--entry-mode", choices=["single", "double"],
                    help="hand entry of tally sheets (default: double; a loaded "
                    "re-tabulation is not keyed)")
    sr.set_defaults(func=cmd_start)

    rc = sub.add_parser("recount", help="load the re-tabulated statement of votes as the "
                        "recount's tallies (prints the comparison; --yes records it)")
    rc.add_argument("case")
    rc.add_argument("--contest", type=int, required=True)
    rc.add_argument("--from", dest="source", required=True, metavar="FILE")
    rc.add_argument("--sheet", help="the workbook's sheet holding the recount")
    rc.add_argument("--file-contest", type=int, metavar="N",
                    help="the file's contest to use, when the proposal is not sure")
    rc.add_argument("--yes", action="store_true", help="record the load")
    rc.set_defaults(func=cmd_recount)

    sg = sub.add_parser("sign", help="record that the board signed a contest's report "
                        "(prints what is recorded; --yes records it and locks the contest)")
    sg.add_argument("case")
    sg.add_argument("--contest", type=int, required=True)
    sg.add_argument("--signer", action="append", required=True, metavar="NAME",
                    help="a board member present at the board step, or the election "
                    "officer (repeat for each)")
    sg.add_argument("--signed-at", type=_datetime, required=True, metavar="YYYY-MM-DD HH:MM")
    sg.add_argument("--place", help="where the report was signed (default: where the board "
                    "met)")
    sg.add_argument("--yes", action="store_true", help="record the signing")
    sg.set_defaults(func=cmd_sign)

    ts = sub.add_parser("tally-sheets", help="printed tally sheets for a hand count (PDF)")
    ts.add_argument("case")
    ts.add_argument("--contest", type=int, required=True)
    ts.add_argument("-o", "--output", required=True, help="the PDF to write")
    ts.set_defaults(func=cmd_tally_sheets)

    ex = sub.add_parser("export", help="the contests overview as CSV or XLSX (by the suffix)")
    ex.add_argument("case")
    ex.add_argument("-o", "--output", required=True, help="results.csv or results.xlsx")
    ex.set_defaults(func=cmd_export)

    pu = sub.add_parser("push", help="copy a case file to the counting center's PostgreSQL "
                        "server (an empty database), for several stations at once")
    pu.add_argument("case", help="the case file")
    pu.add_argument("url", help="postgresql://[ROLE@]HOST[:PORT]/DATABASE (empty)")
    pu.set_defaults(func=cmd_push)
    pl = sub.add_parser("pull", help="copy a case from the counting center's server into a "
                        "new case file")
    pl.add_argument("url", help="postgresql://[ROLE@]HOST[:PORT]/DATABASE")
    pl.add_argument("case", help="the new case file")
    pl.set_defaults(func=cmd_pull)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.self_test:
        from recount_desk.selftest import main as self_test
        return self_test()
    if args.command is None:
        parser.error("give a command (check, new, import, verify…), or --self-test")
    if getattr(args, "command", None) == "verify" and not args.demo and not args.case:
        parser.error("verify: give a case file, or --demo")
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except case_actions.CaseFileError as e:  # also read-only, full-disk, server-gone refusals
        print(str(e), file=sys.stderr)
        return EXIT_FAIL
    except sqlite3.DatabaseError as e:  # a file changed outside in a way no check foresaw
        print(f"The case file is damaged or not as Recount Desk wrote it ({e}). Run "
              "`recount-desk verify` on it, or restore a backup. Nothing was changed.",
              file=sys.stderr)
        return EXIT_FAIL
    except MemoryError:
        print("The file is too large to be read on this computer; nothing was changed.",
              file=sys.stderr)
        return EXIT_FAIL
    except OSError as e:
        print(_os_error(e), file=sys.stderr)
        return EXIT_FAIL


def _os_error(e: OSError) -> str:
    """An operating-system failure in the user's words (never a traceback)."""
    import errno

    name = Path(e.filename).name if e.filename else "the file"
    why = {errno.ENOSPC: "the disk is full", errno.EROFS: "it is on read-only media",
           errno.EACCES: "permission denied", errno.ELOOP: "its path is a loop of "
           "symbolic links", errno.ENOENT: "it does not exist"}.get(e.errno or 0,
                                                                     e.strerror or str(e))
    return f"{name}: {why}. Nothing was changed."


if __name__ == "__main__":
    raise SystemExit(main())
