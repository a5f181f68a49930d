"""The re-tabulated statement of votes as the recount's tallies: matching and comparison.

Utah recounts are normally made by running the ballots through the tabulators again
(20A-4-401(1)(e)(ii), (2)(d)(ii); utah-law-notes §5d): the election system then prints a new
statement of votes for the contest. This module decides, without touching a file, which
contest of such a statement is the recounted one, which of its precincts are the recount's
units, what each unit's tally is, what does not fit (a unit the file lacks, a precinct or a
candidate the canvass does not have, suppressed or blank figures), and how the loaded
figures compare with the canvass, per unit and in total, including whether the declared
result would change.

Double entry (two officers keying the same sheet) guards against typing errors; a machine
export is not typed, so a loaded unit counts on one load. A file that names a precinct or a
candidate the canvass does not have is refused whole: its votes would have nowhere to go,
and a recount may not drop votes ((1)(e)(ii): all ballots cast for the race).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .model import ChoiceTotal, Contest, ContestKey, ContestKind, ContestTotals
from .recount import (
    RecountUnit,
    SheetLayout,
    TallySheet,
    UnitState,
    UnitStatus,
    consistency,
    field_label,
)
from .rules import Result, outcome

RETAB_BASIS = "20A-4-401(1)(e)(ii), (2)(d)(ii)"

# --------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------

_PUNCT = re.compile(r"[^\w\s]")
_PARTY_SUFFIX = re.compile(r"\s*\((?:[A-Za-z]{1,4}|[A-Za-z ]+ party)\)\s*$")


def norm_words(text: str) -> str:
    """Case, punctuation and spacing folded away: ``"LaVar  Christensen."`` → ``"lavar
    christensen"``."""
    if text.isalnum():  # most precinct codes: nothing to fold but the case
        return text.casefold()
    return " ".join(_PUNCT.sub(" ", text.casefold()).split())


def norm_person(name: str) -> str:
    """A candidate's name for matching across files: case, punctuation, a trailing party
    code (``"(DEM)"``) and single-letter middle initials ignored."""
    base = _PARTY_SUFFIX.sub("", name)
    words = norm_words(base).split()
    if len(words) > 2:
        words = [words[0], *(w for w in words[1:-1] if len(w) > 1), words[-1]]
    return " ".join(words)


# Office names as statements of votes spell them, folded to one name each.
_OFFICES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("state house", ("state representative", "state house of representatives", "state house",
                     "utah house of representatives", "house of representatives")),
    ("state senate", ("state senator", "state senate", "utah state senate")),
    ("us house", ("united states representative", "u s representative", "us representative",
                  "representative in congress", "u s house", "us house", "u s congress",
                  "us congress")),
    ("us senate", ("united states senator", "u s senator", "us senator", "u s senate",
                   "us senate")),
    ("school board", ("state school board", "state board of education",
                      "board of education")),
)
_DISTRICT = re.compile(r"\b(?:dist(?:rict)?|no|number|seat)\s*(?:#|no)?\s*(\d+)\b|#\s*(\d+)")


def district_of(key: ContestKey) -> str:
    """The district number a contest gives, in its district field or in its title
    (``"STATE REPRESENTATIVE DIST #32"`` → ``"32"``); ``""`` when it gives none."""
    if key.district.strip():
        digits = re.findall(r"\d+", key.district)
        return str(int(digits[0])) if digits else norm_words(key.district)
    m = _DISTRICT.search(key.title.casefold())
    if m:
        return str(int(m.group(1) or m.group(2)))
    return ""


def office_of(title: str) -> str:
    """The office a contest's title names, with district words left out, folded so that
    ``"State House"`` and ``"STATE REPRESENTATIVE DIST #32"`` are both ``"state house"``."""
    t = _DISTRICT.sub(" ", title.casefold())
    t = norm_words(t)
    for office, spellings in _OFFICES:
        if any(t == s or t.startswith(s + " ") for s in spellings):
            return office
    return t


# --------------------------------------------------------------------------------------
# Which contest of the file is the recounted one
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FileContest:
    """A contest as the re-tabulated file gives it."""

    index: int
    key: ContestKey
    choices: tuple[str, ...]
    write_ins: tuple[str, ...] = ()
    suppressed: bool = False  # the reader says some of its counts are hidden
    # What reading the file warned about in this contest's rows: (row, message).
    warnings: tuple[tuple[int, str], ...] = ()

    @property
    def label(self) -> str:
        return self.key.label()


@dataclass(frozen=True, slots=True)
class ContestMatch:
    """How well one of the file's contests fits the recounted contest, and why."""

    contest: FileContest
    score: int
    sure: bool
    reasons: tuple[str, ...]


def match_contest(target: ContestKey, choices: Sequence[str], candidate: FileContest
                  ) -> ContestMatch:
    """Score one contest of the file against the recounted one: title, district, party,
    candidates. ``sure`` when every candidate of the canvass is there and nothing else,
    and office, district and party do not contradict."""
    score = 0
    reasons: list[str] = []
    sure = True
    office_t, office_c = office_of(target.title), office_of(candidate.key.title)
    if office_t == office_c:
        score += 40
        reasons.append("same office")
    else:
        a, b = set(office_t.split()), set(office_c.split())
        overlap = len(a & b) * 20 // max(1, len(a | b))
        score += overlap
        sure = False
        reasons.append(f"office differs ({target.title!r} / {candidate.key.title!r})")
    d_t, d_c = district_of(target), district_of(candidate.key)
    if d_t and d_c:
        if d_t == d_c:
            score += 30
            reasons.append(f"district {d_t}")
        else:
            score -= 50
            sure = False
            reasons.append(f"district {d_c}, not {d_t}")
    elif d_t or d_c:
        sure = False
        reasons.append("the district is not given on one side")
    p_t, p_c = norm_words(target.party), norm_words(candidate.key.party)
    if p_t and p_c and p_t != p_c:
        score -= 30
        sure = False
        reasons.append(f"party {candidate.key.party}, not {target.party}")
    elif p_t == p_c and p_t:
        score += 10
        reasons.append(f"party {target.party}")
    want = {norm_person(c) for c in choices}
    have = {norm_person(c) for c in candidate.choices}
    found = len(want & have)
    score += 40 * found // max(1, len(want))
    if want <= have and want:
        score += 10
        reasons.append("every candidate of the canvass")
    else:
        sure = False
        reasons.append(f"{found} of {len(want)} candidates of the canvass")
    extra = have - want
    if extra:
        sure = False
        reasons.append(f"{len(extra)} candidate(s) the canvass does not have")
    return ContestMatch(candidate, score, sure, tuple(reasons))


def propose_contest(target: ContestKey, choices: Sequence[str],
                    file_contests: Iterable[FileContest]) -> tuple[ContestMatch, ...]:
    """The file's contests, best match first (ties keep the file's order)."""
    scored = [match_contest(target, choices, c) for c in file_contests]
    return tuple(sorted(scored, key=lambda m: (-m.score, m.contest.index)))


# --------------------------------------------------------------------------------------
# Precincts, candidates and tallies
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FilePrecinct:
    """One precinct of the chosen contest, as the file gives it. ``votes`` holds the
    figures found by the file's choice name; a choice with no figure (a suppressed or blank
    cell) is absent. ``over``/``under`` are None when the file does not give them."""

    name: str
    row: int | None
    votes: Mapping[str, int]
    over: int | None = None
    under: int | None = None


class ProblemKind(StrEnum):
    """What does not fit between the file and the recount's units."""

    UNKNOWN_PRECINCT = "unknown_precinct"
    UNKNOWN_CANDIDATE = "unknown_candidate"
    CANDIDATE_MISSING = "candidate_missing"
    DUPLICATE_PRECINCT = "duplicate_precinct"
    UNIT_MISSING = "unit_missing"
    BLANK_FIGURES = "blank_figures"
    SUPPRESSED = "suppressed"
    READ_WARNING = "read_warning"
    NO_CONTEST = "no_contest"

    @property
    def refuses(self) -> bool:
        """Problems that refuse the whole file: votes with nowhere to go, or no way to tell
        which figure is which. The others leave their unit to be counted by hand."""
        return self not in (ProblemKind.UNIT_MISSING, ProblemKind.BLANK_FIGURES)


@dataclass(frozen=True, slots=True)
class LoadProblem:
    kind: ProblemKind
    text: str
    unit: str | None = None
    precinct: str | None = None
    row: int | None = None

    @property
    def refuses(self) -> bool:
        return self.kind.refuses

    def where(self) -> str:
        return f"row {self.row}" if self.row is not None else ""


def _precinct_keys(name: str) -> set[str]:
    """A precinct's name, its leading code and the name after the code, folded."""
    n = norm_words(name)
    keys = {n, n.replace(" ", "")}
    parts = n.split(" ", 1)
    if len(parts) == 2 and any(ch.isdigit() for ch in parts[0]):
        keys.update({parts[0], parts[1]})
    return keys


def precinct_matcher(precincts: Sequence[str]) -> dict[str, str]:
    """Folded name or code → the canvass precinct; a key two precincts share is dropped."""
    first: dict[str, str] = {}
    shared: set[str] = set()
    for p in precincts:
        for k in _precinct_keys(p):
            if first.setdefault(k, p) != p:
                shared.add(k)
    out = {k: p for k, p in first.items() if k not in shared}
    out.update({norm_words(p): p for p in precincts})  # a full name wins over another's code
    return out


def match_precinct(name: str, matcher: Mapping[str, str]) -> str | None:
    """The canvass precinct a file's precinct is, by full name first, then by code."""
    n = norm_words(name)
    if n in matcher:
        return matcher[n]
    for k in sorted(_precinct_keys(name), key=len, reverse=True):
        if k in matcher:
            return matcher[k]
    return None


@dataclass(frozen=True, slots=True)
class LoadPlan:
    """What loading the file would record: one sheet per unit found complete in the file,
    the units left for hand counting, and every problem, with its row."""

    file_contest: FileContest
    choice_map: Mapping[str, str]  # file choice name → canvass choice (or WRITE_IN)
    sheets: Mapping[str, TallySheet]  # unit name → its loaded tally
    rows: Mapping[str, tuple[int, ...]]  # unit name → the file rows it came from
    problems: tuple[LoadProblem, ...]
    units_total: int

    @property
    def refused(self) -> bool:
        return any(p.refuses for p in self.problems)

    @property
    def left_for_hand(self) -> tuple[str, ...]:
        return tuple(p.unit for p in self.problems
                     if not p.refuses and p.unit is not None)


WRITE_IN = "\x00write-ins"


def map_choices(layout: SheetLayout, file_contest: FileContest
                ) -> tuple[dict[str, str], list[LoadProblem]]:
    """File choice → canvass choice by name (case, punctuation, party code and middle
    initials ignored); the file's write-in lines go to the sheet's write-in line."""
    by_norm: dict[str, str] = {}
    for c in layout.choices:
        by_norm.setdefault(norm_person(c), c)
    out: dict[str, str] = {}
    problems: list[LoadProblem] = []
    for fc in file_contest.choices:
        hit = by_norm.get(norm_person(fc))
        if hit is None:
            problems.append(LoadProblem(
                ProblemKind.UNKNOWN_CANDIDATE,
                f"The file gives votes for {fc!r}, who is not a candidate of this contest in "
                "the canvass: the file cannot be loaded (a recount may not drop votes)."))
        elif hit in out.values():
            problems.append(LoadProblem(
                ProblemKind.UNKNOWN_CANDIDATE,
                f"Two of the file's candidates ({fc!r} and another) match {hit!r}: "
                "the file cannot be loaded."))
        else:
            out[fc] = hit
    for fw in file_contest.write_ins:
        hit = by_norm.get(norm_person(fw))
        if hit is not None and hit not in out.values():
            out[fw] = hit
        elif layout.write_in_line:
            out[fw] = WRITE_IN
        else:
            problems.append(LoadProblem(
                ProblemKind.UNKNOWN_CANDIDATE,
                f"The file gives write-in votes ({fw!r}) in a contest without a write-in "
                "line: the file cannot be loaded."))
    missing = [c for c in layout.choices if c not in out.values()]
    for c in missing:
        problems.append(LoadProblem(
            ProblemKind.CANDIDATE_MISSING,
            f"The file has no figures for {c!r}, a candidate of this contest in the canvass: "
            "the file cannot be loaded as this contest's recount."))
    return out, problems


def plan_load(layout: SheetLayout, units: Sequence[RecountUnit], canvass_precincts:
              Sequence[str], file_contest: FileContest,
              file_precincts: Sequence[FilePrecinct],
              skip_units: Iterable[str] = ()) -> LoadPlan:
    """Match the file's precincts to the recount's units and build each unit's tally.

    A unit is loaded when the file gives every figure of every precinct it covers; a unit
    the file lacks, or whose figures are suppressed or blank, is listed and left for a hand
    count. ``skip_units`` (already hand-entered) are not replaced by the load.
    """
    choice_map, problems = map_choices(layout, file_contest)
    # A file's precinct is the canvass precinct of its folded full name, as
    # ``match_precinct`` finds it (a full name wins over another's code); the matcher of
    # codes is made only for a name that is not a full name (one fold per name).
    full: dict[str, str] = {}
    for p in canvass_precincts:
        full[norm_words(p)] = p
    by_code: dict[str, str] | None = None
    unit_of = {p: u.name for u in units for p in u.precincts}
    found: dict[str, FilePrecinct] = {}
    for fp in file_precincts:
        hit = full.get(norm_words(fp.name))
        if hit is None:
            if by_code is None:
                by_code = precinct_matcher(canvass_precincts)
            hit = match_precinct(fp.name, by_code)
        if hit is None or hit not in unit_of:
            problems.append(LoadProblem(
                ProblemKind.UNKNOWN_PRECINCT,
                f"Precinct {fp.name!r} is not a precinct of this contest in the canvass: the "
                "file cannot be loaded (its votes would have nowhere to go).",
                precinct=fp.name, row=fp.row))
        elif hit in found:
            problems.append(LoadProblem(
                ProblemKind.DUPLICATE_PRECINCT,
                f"Precinct {fp.name!r} appears twice (also as {found[hit].name!r}"
                + (f", row {found[hit].row}" if found[hit].row is not None else "")
                + "): the file cannot be loaded.", unit_of[hit], fp.name, fp.row))
        else:
            found[hit] = fp
    sheets: dict[str, TallySheet] = {}
    rows: dict[str, tuple[int, ...]] = {}
    skip = set(skip_units)
    mapped = list(choice_map.items())
    has_write_ins = any(v == WRITE_IN for v in choice_map.values())
    # A unit of one precinct whose every candidate is given (most units): its figures as
    # they are, the candidates in the sheet's order.
    plain = {t: fc for fc, t in mapped if t != WRITE_IN}
    whole = set(plain) == set(layout.choices)
    plain_names = [plain[c] for c in layout.choices] if whole else []
    wi_names = [fc for fc, t in mapped if t == WRITE_IN]
    with_wi = layout.write_in_line
    for u in units:
        if u.name in skip:
            continue
        if whole and len(u.precincts) == 1 and (one := found.get(u.precincts[0])) is not None:
            fvotes = one.votes
            vals = [fvotes.get(fc) for fc in plain_names]
            if None not in vals:
                wi: int | None = None
                if has_write_ins:
                    wi = 0
                    for fc in wi_names:
                        v = fvotes.get(fc)
                        if v is not None:
                            wi += v
                sheets[u.name] = TallySheet(None, dict(zip(layout.choices, vals, strict=True)),
                                            wi if with_wi else 0, one.over, one.under)
                rows[u.name] = () if one.row is None else (one.row,)
                continue
        absent = [p for p in u.precincts if p not in found]
        if absent:
            problems.append(LoadProblem(
                ProblemKind.UNIT_MISSING,
                f"{u.name}: the file has no figures for "
                + ("it" if absent == list(u.precincts) else ", ".join(absent))
                + "; count this unit by hand.", u.name, absent[0]))
            continue
        blank: list[str] = []
        votes = dict.fromkeys(layout.choices, 0)
        write_ins: int | None = 0 if has_write_ins else None
        over: int | None = 0
        under: int | None = 0
        unit_rows: list[int] = []
        first_row: int | None = None
        for p in u.precincts:
            fp = found[p]
            if fp.row is not None:
                unit_rows.append(fp.row)
                first_row = fp.row if first_row is None else first_row
            fvotes = fp.votes
            for fc, target in mapped:
                v = fvotes.get(fc)
                if v is None:
                    if target != WRITE_IN:
                        blank.append(f"{p}: {fc}")
                    continue
                if target == WRITE_IN:
                    write_ins = (write_ins or 0) + v
                else:
                    votes[target] += v
            over = None if over is None or fp.over is None else over + fp.over
            under = None if under is None or fp.under is None else under + fp.under
        if blank:
            problems.append(LoadProblem(
                ProblemKind.BLANK_FIGURES,
                f"{u.name}: suppressed or blank figures ({', '.join(blank)}); count this "
                "unit by hand.", u.name, u.precincts[0], first_row))
            continue
        sheets[u.name] = TallySheet(None, votes, write_ins if layout.write_in_line else 0,
                                    over, under)
        rows[u.name] = tuple(unit_rows)
    for row, message in file_contest.warnings:
        problems.append(LoadProblem(
            ProblemKind.READ_WARNING,
            f"Reading the file found a problem in this contest's rows: {message} A recount "
            "is loaded only from figures read as they stand.", row=row))
    if file_contest.suppressed and not any(p.kind is ProblemKind.BLANK_FIGURES
                                           for p in problems):
        problems.append(LoadProblem(
            ProblemKind.SUPPRESSED,
            "The file hides some of this contest's counts (suppressed for voter privacy) and "
            "does not say which precinct's: a hidden count would be recorded as 0. Load the "
            "unsuppressed statement the election system printed for the recount."))
    return LoadPlan(file_contest, choice_map, sheets, rows, tuple(problems), len(units))


# --------------------------------------------------------------------------------------
# A loaded unit's status
# --------------------------------------------------------------------------------------


def loaded_missing(sheet: TallySheet, layout: SheetLayout) -> tuple[str, ...]:
    """The fields a loaded sheet must have: every choice. Ballots, write-ins, over- and
    under-votes are recorded when the file gives them (many statements give none)."""
    return tuple(k for k in layout.fields() if k.startswith("votes:")
                 and sheet.value(k) is None)


def loaded_unit_state(unit: RecountUnit, layout: SheetLayout, sheet: TallySheet,
                      note: str = "") -> UnitState:
    """A unit loaded from the re-tabulated statement ((1)(e)(ii), (2)(d)(ii)).

    It counts on one load: double entry guards against keying errors, and nothing was keyed.
    When the file gives ballots, over- and under-votes, the sheet's consistency check
    (20A-4-109, applied to the recount) still applies and a failure needs a note.
    """
    missing = loaded_missing(sheet, layout)
    if missing:
        return UnitState(unit, UnitStatus.FIRST_ENTRY, None, (), None, "",
                         "The loaded figures lack: " + ", ".join(field_label(k)
                                                                 for k in missing) + ".")
    check = consistency(sheet, layout) if sheet.complete(layout) else None
    if check is None or check.ok:
        return UnitState(unit, UnitStatus.RECONCILED, sheet, (), check, note, "")
    if note.strip():
        return UnitState(unit, UnitStatus.ACCEPTED_WITH_WARNING, sheet, (), check, note, "")
    return UnitState(unit, UnitStatus.WARNING_NEEDS_NOTE, None, (), check, "", check.text)


class UnitSource(StrEnum):
    """Where a unit's counted tally comes from."""

    LOADED = "loaded"
    HAND = "hand"
    NONE = "none"

    @property
    def label(self) -> str:
        return {"loaded": "Re-tabulation (loaded)", "hand": "Hand-entered",
                "none": "—"}[self.value]


# --------------------------------------------------------------------------------------
# Compare before committing
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitComparison:
    unit: str
    canvass: Mapping[str, int]
    recount: Mapping[str, int] | None
    source: str  # "file", "kept" (already counted, not replaced) or "open"

    @property
    def change(self) -> Mapping[str, int] | None:
        if self.recount is None:
            return None
        return {c: self.recount[c] - self.canvass.get(c, 0) for c in self.recount}

    @property
    def differs(self) -> bool:
        ch = self.change
        return ch is not None and any(v != 0 for v in ch.values())


@dataclass(frozen=True, slots=True)
class LoadComparison:
    """The canvass against the recount as it would stand after the load."""

    choices: tuple[str, ...]
    rows: tuple[UnitComparison, ...]
    canvass_total: Mapping[str, int]
    recount_total: Mapping[str, int]
    units_counted: int
    units_total: int
    canvass_winners: tuple[str, ...]
    recount_winners: tuple[str, ...] | None
    result_text: str
    basis: str = RETAB_BASIS
    envelope_note: str = ""
    assumptions: tuple[str, ...] = field(default_factory=tuple)

    @property
    def change_total(self) -> dict[str, int]:
        return {c: self.recount_total[c] - self.canvass_total[c] for c in self.choices}

    @property
    def complete(self) -> bool:
        return self.units_counted == self.units_total

    @property
    def result_changes(self) -> bool | None:
        """None while units are still open: no verdict on incomplete figures."""
        if self.recount_winners is None:
            return None
        return set(self.recount_winners) != set(self.canvass_winners)


def _winners(contest: Contest, votes: Mapping[str, int], canvass: ContestTotals
             ) -> tuple[tuple[str, ...], str]:
    choices = tuple(ChoiceTotal(c.choice, votes.get(c.choice.name, 0))
                    for c in canvass.choices)
    o = outcome(ContestTotals(contest, choices))
    if o.result is Result.TIE:
        return (*o.winners, *o.tied), "tie: " + " and ".join(o.tied) + " (decided by lot, " \
            "20A-1-304)"
    if contest.kind is ContestKind.PROPOSITION:
        return (o.result.value,), o.result.value
    return o.winners, ", ".join(o.winners) or "no votes"


def compare_load(canvass: ContestTotals, layout: SheetLayout, units: Sequence[RecountUnit],
                 canvass_by_precinct: Mapping[str, Mapping[str, int]],
                 loaded: Mapping[str, TallySheet], kept: Mapping[str, TallySheet],
                 envelope_votes: Mapping[str, int] | None = None) -> LoadComparison:
    """Canvass vs recount per unit and in total, and whether the declared result changes.

    ``loaded``: the sheets the load would record; ``kept``: units already counted that the
    load leaves as they are (hand-entered). Accepted envelopes (``envelope_votes``) join the
    recount totals ((1)(e)(iii)). With any unit still open the result is not judged.
    """
    rows: list[UnitComparison] = []
    choices = layout.choices
    canvass_total = dict.fromkeys(choices, 0)
    recount_total = dict.fromkeys(choices, 0)
    counted = 0
    nothing: Mapping[str, int] = {}
    for u in units:
        if len(u.precincts) == 1:  # most units are one precinct: its figures as they are
            src = canvass_by_precinct.get(u.precincts[0], nothing)
            canv = {c: src.get(c, 0) for c in choices}
        else:
            canv = dict.fromkeys(choices, 0)
            for p in u.precincts:
                src = canvass_by_precinct.get(p, nothing)
                for c in choices:
                    canv[c] += src.get(c, 0)
        for c in choices:
            canvass_total[c] += canv[c]
        sheet, source = (loaded[u.name], "file") if u.name in loaded else \
            (kept[u.name], "kept") if u.name in kept else (None, "open")
        if sheet is None:
            rows.append(UnitComparison(u.name, canv, None, source))
            continue
        counted += 1
        votes = sheet.votes
        rec = {c: votes.get(c) or 0 for c in choices}  # (TallySheet.choice_votes)
        for c in choices:
            recount_total[c] += rec[c]
        rows.append(UnitComparison(u.name, canv, rec, source))
    env = envelope_votes or {}
    for c in layout.choices:
        recount_total[c] += env.get(c, 0)
    contest = canvass.contest
    canvass_votes = {c.choice.name: c.votes for c in canvass.choices}
    before, before_text = _winners(contest, canvass_votes, canvass)
    if counted < len(units):
        after: tuple[str, ...] | None = None
        text = (f"{len(units) - counted} of {len(units)} units would still be open: whether "
                "the declared result changes is not judged on incomplete figures.")
    else:
        after, after_text = _winners(contest, recount_total, canvass)
        if set(after) == set(before):
            text = f"The declared result does not change: {after_text}."
        else:
            text = f"The declared result CHANGES: {before_text} on the canvass, {after_text} " \
                   "on the recount."
    note = ""
    if env and any(env.values()):
        note = "The recount totals include the accepted absentee envelopes."
    return LoadComparison(layout.choices, tuple(rows), canvass_total, recount_total, counted,
                          len(units), before, after, text, envelope_note=note)

