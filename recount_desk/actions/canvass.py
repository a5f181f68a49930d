"""Reading a canvass file, checking it without a case, and importing it into a case."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from recount_desk import formats, store
from recount_desk.core.calendar import Closed
from recount_desk.core.districts import COUNTIES, county_name, year_named
from recount_desk.core.election_kind import KindInference, KindSource, infer_kind
from recount_desk.core.model import (
    ContestKind,
    ContestTotals,
    ElectionKind,
    Issue,
    Scope,
    Severity,
)
from recount_desk.core.rules import (
    Edition,
    MarginDecision,
    Verdict,
    edition_for,
    errors_touching,
    filing_office,
    request_deadline,
    unofficial_figures,
    unread_counts,
)
from recount_desk.core.scope import (
    Coverage,
    ScopeFinding,
    check_label,
    decide_scoped,
    infer_scope,
    officer_finding,
    scope_override,
    spans_counties,
    with_scope,
)
from recount_desk.formats import Cancelled, Detection, ImportFailed, ParsedCanvass, ReadOptions
from recount_desk.store import repo

from .case import Case

__all__ = ["Cancelled", "Detection", "ImportFailed", "ParsedCanvass", "ReadOptions"]


def detect_file(path: Path | str) -> list[Detection]:
    """The families that claim this file, most confident first (ImportFailed if none can)."""
    return formats.detect(Path(path))


def odd_separator(path: Path | str) -> str | None:
    """For a text file no reader recognised: "tabs" or "semicolons" when its columns are
    separated so (the readers take commas; the column mapping sniffs the separator), else
    None (and for a workbook)."""
    return formats.odd_separator(Path(path))


def unread_hint(path: Path | str) -> str:
    """For a file no reader recognised: why, where its header says (a long table whose
    votes are split by mode with no total column), else ""."""
    return formats.unread_hint(Path(path))


def read_file(path: Path | str, *, family: str | None = None, primary: bool | None = None,
              seats: dict[str, int] | None = None,
              options: ReadOptions | None = None,
              detection: Detection | None = None) -> ParsedCanvass:
    """Read a canvass file into memory; nothing is written. Raises ImportFailed.

    ``detection``: the family's claim from :func:`detect_file`, which the plausibility gate
    lowers when the reading looks wrong (see :func:`with_gate`). Every contest's scope is
    inferred (core.scope) from the file, the office and the district table, with the
    file's election date (or today's) and county."""
    parsed = formats.read_canvass(path, family=family, primary=primary, seats=seats,
                                  options=options, detection=detection)
    return with_inferred_scopes(parsed, read_date(parsed), file_county(parsed))


def read_date(parsed: ParsedCanvass) -> date | None:
    """The day whose district maps a read file's scopes are inferred with: the file's
    election date, or the year its names give; None (neither map assumed) without either."""
    if parsed.election_date:
        return date.fromisoformat(parsed.election_date)
    return map_year(parsed)


def case_scopes(parsed: ParsedCanvass, election_date: date, county: str | None
                ) -> ParsedCanvass:
    """The canvass with the scopes the case's election gives: a contest whose scope is the
    one inferred at the reading (from the file's own date, or none) is inferred again with
    the case's election date and county; a scope the officer set in the import wizard
    stands."""
    when, at_read = read_date(parsed), file_county(parsed)
    if when == election_date and at_read == county:
        return parsed
    totals = []
    for t in parsed.totals:
        read = infer_scope(t.contest, county=at_read, election_date=when).scope
        if t.contest.scope is read:
            f = infer_scope(t.contest, county=county, election_date=election_date)
            if (c := with_scope(t.contest, f)) is not t.contest:
                t = dataclasses.replace(t, contest=c)
        totals.append(t)
    return dataclasses.replace(parsed, totals=totals, contests=[t.contest for t in totals])


def with_gate(found: list[Detection], parsed: ParsedCanvass) -> list[Detection]:
    """The claims with the read family's confidence as the plausibility gate left it,
    most confident first."""
    d = parsed.detection
    if d is None:
        return found
    return sorted([d if x.family == d.family else x for x in found],
                  key=lambda x: -x.confidence)


class ImportRefused(Exception):
    """The canvass has errors, or the case already holds one and replace was not asked."""

    def __init__(self, message: str, issues: list[Issue] | None = None) -> None:
        super().__init__(message)
        self.issues = issues or []


def import_canvass(case: Case, parsed: ParsedCanvass, *, replace: bool = False) -> int:
    """Store a read canvass in the case, all or nothing, as one audited action.

    A canvass with errors is refused whole (``parsed.blocking``), but for those in how one
    contest's figures hang together (``parsed.withheld``: a candidate spelled two ways):
    that contest is imported with no verdict until the file is corrected
    (core.rules.unread_counts), as a contest with hidden counts is. A case that
    already holds a canvass keeps it unless ``replace`` is given; replacing also removes
    the requests recorded against it.
    """
    if parsed.blocking:
        raise ImportRefused(
            f"{parsed.file} was not imported: {len(parsed.blocking)} error(s) must be fixed "
            "first. Nothing was changed.", parsed.blocking)
    existing = repo.current_import(case.conn)
    if existing is not None and not replace:
        same = existing.sha256 == parsed.sha256
        raise ImportRefused(
            f"This case already holds the canvass from {existing.file}"
            + (" (the very same file)" if same else "")
            + ". Choose “Replace” to import the new file instead; nothing was changed.")
    if existing is not None and recount_started(case):
        raise ImportRefused(
            "A recount has been started in this case; replacing its canvass would discard the "
            "recount's records. Start a new case file for the new canvass; nothing was changed.")
    conflict = kind_mismatch(parsed, case.election.kind, case.election.date)
    if conflict is not None and conflict not in parsed.issues:
        parsed.issues.append(conflict)
    parsed = case_scopes(parsed, case.election.date,
                         county_name(case.election.jurisdiction) or file_county(parsed))
    with store.transaction(case.conn, case.actor, "import canvass") as tx:
        if existing is not None:
            repo.clear_canvass(tx)
        import_id, digest = repo.insert_canvass(
            tx, file=parsed.file, sha256=parsed.sha256, family=parsed.family,
            imported_at=store.utc_now(), primary=parsed.primary, precincts=parsed.precincts,
            totals=parsed.totals, columns=parsed.columns, extras=parsed.extras,
            issues=parsed.issues)
        tx.update({"file": parsed.file, "sha256": parsed.sha256, "family": parsed.family,
                   "contests": len(parsed.contests), "precincts": len(parsed.precincts),
                   "rows": parsed.rows, "canvass_digest": digest,
                   "withheld": [c.key.label() for c in parsed.withheld],
                   "replaced": existing.file if existing else None})
    return import_id


def with_inferred_scopes(parsed: ParsedCanvass, election_date: date | None,
                         county: str | None) -> ParsedCanvass:
    """The canvass with every contest's scope inferred (core.scope), for storing."""
    findings = scope_findings(parsed, election_date, county)
    totals = [t if (c := with_scope(t.contest, f)) is t.contest
              else dataclasses.replace(t, contest=c)
              for t, f in zip(parsed.totals, findings, strict=True)]
    return dataclasses.replace(parsed, totals=totals,
                               contests=[t.contest for t in totals])


def recount_started(case: Case) -> bool:
    """Whether a recount has begun in this case (then its canvass can no longer be replaced)."""
    return repo.has_recount(case.conn)


@dataclass(frozen=True)
class ContestCheck:
    """One contest's verdict with its filing office and deadline (when the canvass date is
    known), its scope, and which part of the race the figures are."""

    totals: ContestTotals
    decision: MarginDecision
    office: str
    office_basis: str
    deadline: str | None
    deadline_explained: str | None
    scope: ScopeFinding | None = None
    coverage: Coverage | None = None
    # The county's own figures, when the verdict is on the whole race's.
    county_totals: ContestTotals | None = None

    def figures_text(self) -> str:
        """Which figures the verdict stands on, in plain words (portion or whole race)."""
        cov = self.coverage
        scope = self.scope
        if scope is None or not spans_counties(scope):
            return "The whole race: it is voted within this jurisdiction."
        race = (f"the city lies in {' and '.join(scope.counties or ())} counties"
                if scope.scope is Scope.MUNICIPAL
                else f"the race covers {', '.join(scope.counties)}" if scope.counties
                else "the race covers several counties" if scope.scope is Scope.MULTICOUNTY
                else "the race is voted in all 29 counties")
        if self.portion:
            where = (f"{', '.join(cov.counties)}" if cov and cov.counties else "this county")
            typed = ("the city's canvass" if scope.scope is Scope.MUNICIPAL
                     else "the state canvass's")
            return (f"A portion only — {where}'s figures; {race}. No verdict on a portion: "
                    f"add the other counties' canvasses or type {typed} totals to decide "
                    "the whole race.")
        own = ""
        if self.county_totals is not None:
            own = (" This county's own figures: " + ", ".join(
                f"{c.choice.name} {c.votes:,}" for c in self.county_totals.choices) + ".")
        src = cov.source if cov else "the whole race"
        return f"The whole race ({race}), from {src}.{own}"

    @property
    def portion(self) -> bool:
        """The figures are a county's part of a multicounty or statewide contest."""
        return self.decision.verdict is Verdict.PORTION

    @property
    def within_margin(self) -> bool | None:
        """None for a portion: the whole race decides (20A-4-401(1)(b))."""
        return None if self.portion else self.decision.within_margin


@dataclass(frozen=True)
class CheckResult:
    source: str
    family: str
    edition: Edition
    kind: ElectionKind
    contests: list[ContestCheck]
    issues: list[Issue]
    detection: Detection | None = None
    # Why the plausibility gate doubts the reading (empty when it looks like a canvass).
    doubts: tuple[str, ...] = ()
    kind_inference: KindInference | None = None
    county: str | None = None
    law_assumption: str | None = None  # when the text applied may not be the day's


def check_contest(totals: ContestTotals, edition: Edition, kind: ElectionKind,
                  election_date: date, canvass_completed: date | None,
                  closed: Closed = (), *,
                  scope: ScopeFinding | None = None, coverage: Coverage | None = None,
                  county: str | None = None,
                  county_totals: ContestTotals | None = None,
                  read_errors: int = 0, own_errors: bool = False,
                  unofficial: str | None = None) -> ContestCheck:
    """One contest's verdict, office and deadline; ``closed``: the case's proclaimed
    holidays (63G-1-301). The office's assumption, if any, joins the verdict's. A county's
    portion of a multicounty or statewide contest gets no verdict (core.scope).
    ``read_errors``: counts the reader of these figures refused; any could be this
    contest's, so no verdict rests on the margin (core.rules.unread_counts); ``own_errors``:
    they are all in this contest's own figures; ``unofficial``: the file's title where it
    calls its figures unofficial (core.rules.unofficial_figures)."""
    if scope is None:
        scope = infer_scope(totals.contest, county=county, election_date=election_date)
    if coverage is None and county:
        coverage = Coverage((county,), False, "county file")
    contest = with_scope(totals.contest, scope)
    if contest is not totals.contest:
        totals = dataclasses.replace(totals, contest=contest)
    d = decide_scoped(totals, edition, scope, coverage, county, kind=kind,
                      election_date=election_date)
    office = filing_office(kind, totals.contest.scope, totals.contest.kind, election_date)
    if office.assumption:
        d = dataclasses.replace(d, assumptions=(*d.assumptions, office.assumption))
    d = unread_counts(d, read_errors, own=own_errors,
                      why=unofficial_figures(unofficial) if unofficial else None)
    dl = (request_deadline(kind, canvass_completed, totals.contest.kind, closed)
          if canvass_completed else None)
    return ContestCheck(
        totals, d, office.name, office.basis,
        dl.due.isoformat(timespec="minutes") if dl else None,
        dl.explain() if dl else None, scope, coverage, county_totals,
    )


def file_county(parsed: ParsedCanvass, jurisdiction: str | None = None) -> str | None:
    """The county whose canvass this is: the file's county column, the election's
    jurisdiction, or an OpenElections file name (``…__grand__precinct.csv``); None when the
    file holds several counties or none can be told."""
    named = {county_name(c) for c in parsed.counties} - {None}
    if len(named) == 1:
        return named.pop()
    if len(named) > 1:
        return None
    if jurisdiction and county_name(jurisdiction):
        return county_name(jurisdiction)
    m = re.search(r"__ut__\w+?__([a-z_]+?)_{1,2}precinct", parsed.file)
    return county_name(m.group(1)) if m else None


def file_coverage(parsed: ParsedCanvass, finding: ScopeFinding,
                  county: str | None, present: tuple[str, ...] | None = None
                  ) -> Coverage | None:
    """Which part of a contest a file's figures are (the whole race when the file holds
    every county the race covers). ``present``: :func:`file_counties`, when known."""
    if present is None:
        present = file_counties(parsed)
    if len(present) > 1:
        need = COUNTIES if finding.scope is Scope.STATEWIDE else finding.counties
        whole = need is not None and _covers(need, present)
        return Coverage(present, whole, "state file")
    return Coverage((county,), False, "county file") if county else None


@functools.lru_cache(maxsize=1024)  # (asked for every contest of a state's file)
def _covers(need: tuple[str, ...], present: tuple[str, ...]) -> bool:
    """Whether the counties ``present`` include every one of ``need``."""
    return set(need) <= set(present)


def file_counties(parsed: ParsedCanvass) -> tuple[str, ...]:
    """The counties the file's rows name, as the district table names them, in order."""
    return tuple(sorted({n for c in parsed.counties if (n := county_name(c))}))


def scope_findings(parsed: ParsedCanvass, election_date: date | None, county: str | None,
                   scopes: Mapping[str, Scope] | None = None) -> list[ScopeFinding]:
    """Every contest's scope: the officer's where given, else inferred (core.scope)."""
    out = []
    for t in parsed.totals:
        chosen = scope_override(scopes or {}, t.contest.key)
        out.append(officer_finding(chosen) if chosen is not None else
                   infer_scope(t.contest, county=county, election_date=election_date))
    return out


def check_parsed(parsed: ParsedCanvass, *, kind: ElectionKind | None = None,
                 election_date: date | None = None, edition: Edition | None = None,
                 canvass_completed: date | None = None,
                 closed: Closed = (), county: str | None = None,
                 scopes: Mapping[str, Scope] | None = None,
                 kind_given_by: str = "given with --kind") -> CheckResult:
    """Verdicts for every contest of a read canvass, without a case file.

    ``scopes`` are the officer's scope settings by contest title or label (``check
    --scope``); every other contest's scope is inferred from the file, the office and the
    district table.
    """
    if election_date is None and parsed.election_date:
        election_date = date.fromisoformat(parsed.election_date)
    known_date = election_date
    issues = list(parsed.issues)
    # The district maps follow the election's date, or the year the file's names give;
    # without either no map is assumed (core.scope), and no label is corrected by either.
    map_date = known_date or map_year(parsed)
    if election_date is None:
        election_date = date.today()
        issues.append(Issue(parsed.file, "The election date is not known (give --date); "
                            f"the law in force on {election_date.isoformat()} is applied, "
                            + (f"and the district maps of {map_date.year} are used (the year in "
                               "the file's name)." if map_date else
                               "and no district map is assumed."),
                            severity=Severity.NOTE))
    found = file_kind(parsed, known_date)
    if kind is None:
        kind = found.kind
        issues.append(Issue(
            parsed.file, f"Election kind: {found.describe()}."
            + ("" if found.source is KindSource.FILE else
               " Give --kind if it is another: the deadline (3 days for a municipal primary, "
               "7 otherwise) and the office depend on it (20A-4-401(1)(d))."),
            severity=Severity.NOTE if found.source is KindSource.FILE else Severity.WARNING))
        inference = found
    else:
        inference = KindInference(kind, KindSource.GIVEN, kind_given_by)
        if found.source is KindSource.FILE and found.kind is not kind:
            issues.append(_kind_conflict(parsed.file, kind, found))
    ed = edition or edition_for(election_date)
    county = county or file_county(parsed)
    findings = scope_findings(parsed, map_date, county, scopes)
    for t in parsed.totals:
        fix = check_label(t.contest.key, county, map_date)
        if fix is not None:
            issues.append(Issue(parsed.file, f"{fix.message} Check the file's labels.",
                                severity=Severity.WARNING))
    # A count the reader refused could be any contest's, unless the reader knows whose rows
    # it is in: no verdict rests on the rest of the counts of the contests it can touch.
    keys = {t.contest.key for t in parsed.totals}
    present = file_counties(parsed)
    touching = errors_touching(issues, keys)
    checks = [check_contest(t, ed, kind, election_date, canvass_completed, closed, scope=f,
                            coverage=file_coverage(parsed, f, county, present),
                            county=county, read_errors=touching[t.contest.key][0],
                            own_errors=touching[t.contest.key][1],
                            unofficial=parsed.unofficial)
              for t, f in zip(parsed.totals, findings, strict=True)]
    return CheckResult(
        parsed.file, parsed.family, ed, kind,
        checks,
        issues, parsed.detection, tuple(parsed.doubts), inference, county,
        ed.assumption(election_date),
    )


def map_year(parsed: ParsedCanvass) -> date | None:
    """A day of the election year the file's names give, for the district maps of that year
    (core.districts.year_named); None when they give none."""
    found = year_named((parsed.election_name, parsed.sheet, Path(parsed.file).stem))
    return date(found[0], 1, 1) if found else None


def file_kind(parsed: ParsedCanvass, election_date: date | None = None) -> KindInference:
    """The kind of election the file says it is from (or what is assumed, and why)."""
    if election_date is None and parsed.election_date:
        election_date = date.fromisoformat(parsed.election_date)
    return infer_kind(
        names=(parsed.election_name, parsed.sheet, Path(parsed.file).stem),
        election_date=election_date,
        primary=parsed.primary,
        titles=[c.key.title for c in parsed.contests if c.kind is ContestKind.RACE])


def _kind_conflict(file: str, kind: ElectionKind, found: KindInference) -> Issue:
    return Issue(file, f"The file looks like a {found.kind.label.lower()} ({found.reason}), "
                 f"but the election is set as a {kind.label.lower()}. The deadline and the "
                 "office follow the election's kind (20A-4-401(1)(d)): check it (File › "
                 "Election details, or --kind).", severity=Severity.WARNING)


def kind_mismatch(parsed: ParsedCanvass, kind: ElectionKind,
                  election_date: date | None) -> Issue | None:
    """A warning when the file says it is from another kind of election than the case's
    (the window adds it to the problems it shows before the import; the import keeps it)."""
    found = file_kind(parsed, election_date)
    if found.source is KindSource.FILE and found.kind is not kind:
        return _kind_conflict(parsed.file, kind, found)
    return None
