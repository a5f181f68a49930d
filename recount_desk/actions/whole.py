"""Whole races: check several counties' canvasses (or the state canvass) together.

``recount-desk check FILE [FILE …]`` reads every file, matches each multicounty and
statewide contest across them and decides it on the whole race (core.whole); with
``--state-canvass`` the counties' figures are cross-checked against the lieutenant
governor's official county-level canvass, and the verdict rests on the official figures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from recount_desk.core.calendar import Closed
from recount_desk.core.districts import county_name
from recount_desk.core.model import ElectionKind, Issue, Scope, Severity
from recount_desk.core.rules import Edition, edition_for, not_added_up, read_errors_of
from recount_desk.core.scope import Coverage, officer_finding, scope_override
from recount_desk.core.whole import CountyPart, Disagreement, WholeRace, combine, cross_check

from .canvass import (
    ContestCheck,
    ParsedCanvass,
    check_contest,
    file_counties,
    file_county,
    map_year,
    read_file,
)


@dataclass(frozen=True)
class RaceCheck:
    """A race decided on what is known of it: the whole race, or (when not) a portion."""

    race: WholeRace
    check: ContestCheck
    state: WholeRace | None = None  # the state canvass's figures, when given

    @property
    def official(self) -> bool:
        """The verdict rests on the state canvass's figures."""
        return self.state is not None and self.state.totals is not None


@dataclass
class WholeCheck:
    files: list[str]
    kind: ElectionKind
    edition: Edition
    races: list[RaceCheck]
    issues: list[Issue] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    state_source: str | None = None
    law_assumption: str | None = None  # when the text applied may not be the day's


def contest_counties(parsed: ParsedCanvass, county: str | None) -> list[tuple[str, ...]]:
    """The counties each contest's figures come from: the file's county, or, in a file of
    several counties, the counties named in its precincts ("Kane / K1", or a county-level
    file's county rows)."""
    if county is not None or len(parsed.counties) <= 1:
        return [(county,) if county else ()] * len(parsed.totals)
    names = []
    for p in parsed.precincts:
        head = p.split(" / ", 1)[0]
        names.append(county_name(head))
    out: list[set[str]] = [set() for _ in parsed.totals]
    for col in parsed.columns:
        for pos, v in zip(col.precincts, col.votes, strict=True):
            n = names[pos - 1]
            if n is not None and v:
                out[col.contest].add(n)
    return [tuple(sorted(s)) for s in out]


def parts_of(parsed: ParsedCanvass, jurisdiction: str | None = None) -> list[CountyPart]:
    """Every contest of a read file as a county part."""
    county = file_county(parsed, jurisdiction)
    return [CountyPart(cs, parsed.file, t)
            for cs, t in zip(contest_counties(parsed, county), parsed.totals, strict=True)]


def read_errors(parsed: Sequence[ParsedCanvass], races: Sequence[WholeRace]
                 ) -> Callable[[WholeRace], int]:
    """The reading errors that can touch each race (core.rules.read_errors_of): those of
    the files it is added up from, in its own rows or naming no contest. An error in a
    contest that is no race's part by its own key (two contests of a file made one) counts
    for every race of that file."""
    parts = {(p.source, p.totals.contest.key) for r in races for p in r.parts}
    by_file = {p.file: p for p in parsed}
    keys_of = {p.file: {t.contest.key for t in p.totals} for p in parsed}
    loose = {p.file: [i for i in p.issues if i.severity is Severity.ERROR
                      and i.contest in keys_of[p.file] and (p.file, i.contest) not in parts]
             for p in parsed}

    def count(race: WholeRace) -> int:
        n = 0
        for part in race.parts:
            p = by_file.get(part.source)
            if p is None:
                continue
            n += read_errors_of(p.issues, part.totals.contest.key, keys_of[p.file])
            n += len(loose[p.file])
        return n
    return count


def check_files(paths: Sequence[Path | str], *, kind: ElectionKind | None = None,
                election_date: date | None = None, edition: Edition | None = None,
                canvass_completed: date | None = None, closed: Closed = (),
                scopes: Mapping[str, Scope] | None = None,
                state_canvass: Path | str | None = None,
                read: Callable[[Path | str], ParsedCanvass] = read_file) -> WholeCheck:
    """Read every file and decide each contest on the whole race where it is known.

    Raises ImportFailed (from the reader) for a file that is not a canvass.
    """
    # A file given twice (the same path, however written) is read once: its figures would
    # otherwise count twice in every race it is part of.
    once: dict[Path, Path | str] = {}
    for p in paths:
        once.setdefault(Path(p).resolve(), p)
    twice = [str(p) for p in paths if once.get(Path(p).resolve()) is not p]
    parsed = [read(p) for p in once.values()]
    # A copy of a file given beside it (the same bytes under another name) is read once too.
    by_bytes: dict[str, ParsedCanvass] = {}
    copies: list[tuple[str, str]] = []
    for pc in parsed:
        first = by_bytes.setdefault(pc.sha256, pc) if pc.sha256 else pc
        if first is not pc:
            copies.append((pc.file, first.file))
    parsed = [pc for pc in parsed if not pc.sha256 or by_bytes[pc.sha256] is pc]
    issues = [i for p in parsed for i in p.issues]
    for copy, kept in reversed(copies):
        issues.insert(0, Issue(f"{copy}, {kept}", f"{copy} is the same file as {kept} (the "
                               "same bytes under another name); it is read once (its figures "
                               "are counted once).", severity=Severity.WARNING))
    if twice:
        issues.insert(0, Issue(", ".join(dict.fromkeys(Path(p).name for p in twice)),
                               "This file was given more than once; it is read once (its "
                               "figures are counted once).", severity=Severity.WARNING))
    parts = [part for p in parsed for part in parts_of(p)]
    if election_date is None:
        dates = {p.election_date for p in parsed if p.election_date}
        if len(dates) > 1:
            issues.append(Issue(", ".join(p.file for p in parsed), "The files are of different "
                                f"elections ({', '.join(sorted(dates))}); check only one "
                                "election's files together.", severity=Severity.ERROR))
        election_date = date.fromisoformat(min(dates)) if dates else None
    # Without the date no district map is taken for granted (core.scope); the law applied
    # is then the day's, and said so.
    known_date = election_date
    if election_date is None:
        election_date = date.today()
        years = {map_year(p) for p in parsed}
        known_date = years.pop() if len(years) == 1 else None
        issues.append(Issue(", ".join(p.file for p in parsed), "The election date is not "
                            f"known (give --date); the law in force on "
                            f"{election_date.isoformat()} is applied, and "
                            + (f"the district maps of {known_date.year} are used (the year the "
                               "files' names give)." if known_date else "no district map is "
                               "assumed."), severity=Severity.NOTE))
    if kind is None:
        kind = ElectionKind.PRIMARY if any(p.primary for p in parsed) else ElectionKind.GENERAL
    ed = edition or edition_for(election_date)
    races = combine(parts, known_date)
    state_races: list[WholeRace] = []
    state_file = None
    state_errors = 0
    if state_canvass is not None:
        sp = read(state_canvass)
        named = file_counties(sp)
        if len(named) < 2:
            # The lieutenant governor's canvass gives every county's figures; a file of one
            # county decides no race beyond it (such races stay portions), and says so.
            issues.append(Issue(
                sp.file, "The file given as the state canvass holds "
                + (f"only {named[0]} County's figures" if named else "no county's figures")
                + "; the lieutenant governor's canvass gives every county's. No race beyond "
                "that county is decided from it (give the canvass by county).",
                severity=Severity.WARNING))
        state_file = sp.file
        issues.extend(sp.issues)
        state_errors = sum(1 for i in sp.issues if i.severity is Severity.ERROR)
        state_races = combine(parts_of(sp), known_date)
    disagreements, official = cross_check(races, state_races)
    errors = read_errors(parsed, races)
    out = []
    for r in races:
        for n in r.notes:
            issues.append(Issue(n.split(":", 1)[0], n.split(": ", 1)[-1] + " (checked against "
                                "the district table)", severity=Severity.WARNING))
        if r.refused:
            issues.append(Issue(", ".join(p.source for p in r.parts),
                                f"{r.key.label()}: {r.refused}", severity=Severity.ERROR))
        chosen = scope_override(scopes or {}, r.key)
        finding = officer_finding(chosen) if chosen is not None else r.finding
        state = official.get(r.key)
        if state is not None and state.totals is not None:
            totals = replace(state.totals, contest=replace(
                state.totals.contest, seats=(r.totals or state.totals).contest.seats))
            coverage = replace(state.coverage, source="state canvass (official)")
        elif r.totals is not None:
            totals, coverage = r.totals, r.coverage
        else:
            # Not added up: no figure of the race is known (core.rules.not_added_up).
            totals = r.parts[0].totals
            coverage = Coverage(r.coverage.counties, False, "counties' files, not added up")
        county = coverage.counties[0] if len(coverage.counties) == 1 else None
        # a count a reader refused could be any race's whose figures come from that file:
        # the counties' files it is added up from, or the state canvass when it rests on it
        from_files = state is None or state.totals is None
        cc = check_contest(totals, ed, kind, election_date, canvass_completed, closed,
                           scope=finding, coverage=coverage, county=county,
                           read_errors=errors(r) if from_files else state_errors)
        if r.totals is None and from_files:
            cc = replace(cc, decision=not_added_up(cc.decision, r.refused or ""))
        out.append(RaceCheck(r, cc, state))
    return WholeCheck([p.file for p in parsed], kind, ed, out, issues, disagreements,
                      state_file, ed.assumption(election_date))
