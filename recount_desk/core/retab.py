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
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from itertools import repeat

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


class UnitColumns:
    """The recount's units as columns (a countywide race has thousands): their names in unit
    order and, beside each, the precincts it covers (``precincts``); or, when every unit
    covers exactly one (most recounts), that precinct (``one``: then ``precincts`` is made
    from it only if asked for)."""

    __slots__ = ("_one", "_precincts", "names")

    def __init__(self, names: Sequence[str], precincts: Sequence[tuple[str, ...]] | None = None,
                 *, one: Sequence[str] | None = None) -> None:
        if (precincts is None) == (one is None):
            raise ValueError("give each unit's precincts, or each unit's one precinct")
        if len(names) != len(precincts if precincts is not None else one or ()):
            raise ValueError("one entry of precincts per unit")
        self.names = names
        self._precincts = precincts
        self._one = one

    @classmethod
    def of(cls, units: Iterable[RecountUnit]) -> UnitColumns:
        us = list(units)
        return cls([u.name for u in us], [u.precincts for u in us])

    def __len__(self) -> int:
        return len(self.names)

    @property
    def precincts(self) -> Sequence[tuple[str, ...]]:
        if self._precincts is None:
            self._precincts = [(p,) for p in self._one or ()]
        return self._precincts

    def unit(self, i: int) -> RecountUnit:
        return RecountUnit(self.names[i], tuple(self.precincts[i]))

    def single(self) -> Sequence[str] | None:
        """Each unit's one precinct, when every unit covers exactly one; else None."""
        if self._one is not None:
            return self._one
        if set(map(len, self.precincts)) != {1}:
            return None
        return [ps[0] for ps in self.precincts]


@dataclass(frozen=True, slots=True)
class FileTable:
    """One contest's precincts as the file gives them, as columns, in the file's order:
    ``votes`` holds, by the file's choice name, one figure per precinct (None: a suppressed
    or blank cell, as a choice absent from ``FilePrecinct.votes``); ``over``/``under`` one
    figure per precinct (None where the file gives none)."""

    names: Sequence[str]
    rows: Sequence[int | None]
    votes: Mapping[str, Sequence[int | None]]
    over: Sequence[int | None]
    under: Sequence[int | None]

    @classmethod
    def of(cls, precincts: Sequence[FilePrecinct]) -> FileTable:
        keys: dict[str, None] = {}
        for fp in precincts:
            keys.update(dict.fromkeys(fp.votes))
        return cls([fp.name for fp in precincts], [fp.row for fp in precincts],
                   {k: [fp.votes.get(k) for fp in precincts] for k in keys},
                   [fp.over for fp in precincts], [fp.under for fp in precincts])

    def __len__(self) -> int:
        return len(self.names)

    def precinct(self, i: int) -> FilePrecinct:
        return FilePrecinct(self.names[i], self.rows[i],
                            {k: v for k, col in self.votes.items() if (v := col[i]) is not None},
                            self.over[i], self.under[i])


@dataclass(frozen=True, slots=True)
class SheetColumns:
    """Tally sheets as columns, one value per sheet in each: ``votes`` by choice (a choice
    missing from it is one no sheet gives). ``sheet(i)`` is the i-th as a ``TallySheet``."""

    ballots: Sequence[int | None]
    votes: Mapping[str, Sequence[int | None]]
    write_ins: Sequence[int | None]
    over: Sequence[int | None]
    under: Sequence[int | None]

    def __len__(self) -> int:
        return len(self.ballots)

    def sheet(self, i: int) -> TallySheet:
        return TallySheet(self.ballots[i], {c: col[i] for c, col in self.votes.items()},
                          self.write_ins[i], self.over[i], self.under[i])


@dataclass(frozen=True)
class LoadPlan:
    """What loading the file would record: one sheet per unit found complete in the file
    (``units``, in unit order, their figures as columns in ``tallies``; ``index``: each
    one's place among the recount's units), the units left for hand counting, and every
    problem, with its row. ``sheets`` and ``rows`` give them unit by unit (made when asked:
    a countywide load holds thousands)."""

    file_contest: FileContest
    choice_map: Mapping[str, str]  # file choice name → canvass choice (or WRITE_IN)
    problems: tuple[LoadProblem, ...]
    units_total: int
    units: Sequence[str] = ()
    index: Sequence[int] = ()
    tallies: SheetColumns = field(default_factory=lambda: SheetColumns((), {}, (), (), ()))
    # each loaded unit's file rows: a tuple, or the one precinct's row (int or None)
    file_rows: Sequence[tuple[int, ...] | int | None] = ()

    @property
    def refused(self) -> bool:
        return any(p.refuses for p in self.problems)

    @property
    def left_for_hand(self) -> tuple[str, ...]:
        return tuple(p.unit for p in self.problems
                     if not p.refuses and p.unit is not None)

    @cached_property
    def sheets(self) -> Mapping[str, TallySheet]:
        """unit name → its loaded tally."""
        return _Sheets(self)

    @cached_property
    def rows(self) -> Mapping[str, tuple[int, ...]]:
        """unit name → the file rows it came from."""
        return {u: r if isinstance(r, tuple) else () if r is None else (r,)
                for u, r in zip(self.units, self.file_rows, strict=True)}


class _Sheets(Mapping[str, TallySheet]):
    """A plan's loaded units as ``TallySheet``s, each made when asked for."""

    def __init__(self, plan: LoadPlan) -> None:
        self.plan = plan
        self._at: dict[str, int] | None = None

    def _where(self) -> dict[str, int]:
        if self._at is None:
            self._at = {u: i for i, u in enumerate(self.plan.units)}
        return self._at

    def __getitem__(self, unit: str) -> TallySheet:
        return self.plan.tallies.sheet(self._where()[unit])

    def __contains__(self, unit: object) -> bool:
        return unit in self._where()

    def __iter__(self) -> Iterator[str]:
        return iter(self.plan.units)

    def __len__(self) -> int:
        return len(self.plan.units)


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


def plan_load(layout: SheetLayout, units: Sequence[RecountUnit] | UnitColumns,
              canvass_precincts: Sequence[str], file_contest: FileContest,
              file_precincts: Sequence[FilePrecinct] | FileTable,
              skip_units: Iterable[str] = ()) -> LoadPlan:
    """Match the file's precincts to the recount's units and build each unit's tally.

    A unit is loaded when the file gives every figure of every precinct it covers; a unit
    the file lacks, or whose figures are suppressed or blank, is listed and left for a hand
    count. ``skip_units`` (already hand-entered) are not replaced by the load.

    The units and the file's precincts may be given as columns (``UnitColumns``,
    ``FileTable``): a countywide statement has thousands, and the usual file — every unit
    one precinct, each in the file once under its own name with every figure — is then
    planned column by column; anything else unit by unit, by the same rules.
    """
    cols = units if isinstance(units, UnitColumns) else UnitColumns.of(units)
    table = file_precincts if isinstance(file_precincts, FileTable) else \
        FileTable.of(file_precincts)
    choice_map, problems = map_choices(layout, file_contest)
    # A file's precinct is the canvass precinct of its folded full name, as
    # ``match_precinct`` finds it (a full name wins over another's code); the matcher of
    # codes is made only for a name that is not a full name (one fold per name). A name
    # spelled as the canvass spells it is looked up as it is (``exact``: the same answer).
    # (every name letters and digits only: told of all the names joined, in one call)
    keys = list(map(str.casefold, canvass_precincts)) \
        if all(canvass_precincts) and "".join(canvass_precincts).isalnum() \
        else list(map(norm_words, canvass_precincts))
    by_code: dict[str, str] | None = None
    firsts = cols.single()
    names, file_rows = table.names, table.rows
    found: dict[str, int] | None = None  # canvass precinct → its place in the file
    # The usual export: the units' own precincts, one a unit (no two units alike), in the
    # units' order, each spelled as the canvass spells it, and no two canvass names folding
    # alike (then each is its own ``exact`` match): each file precinct is its unit's, in
    # place (its place in the file is made only if a unit is then taken on its own).
    # (when the units' precincts are the canvass's, in its order, no two folding alike
    # makes them distinct and the canvass's: two sets fewer)
    in_place = firsts is not None and len(firsts) == len(names) and \
        list(names) == list(firsts) and len(set(keys)) == len(keys) and (
            list(firsts) == list(canvass_precincts) or
            (len(set(firsts)) == len(firsts) and set(canvass_precincts).issuperset(names)))
    if not in_place:
        full = dict(zip(keys, canvass_precincts, strict=True))
        exact = dict(zip(canvass_precincts, map(full.__getitem__, keys), strict=True))
        unit_of = dict(zip(firsts, range(len(firsts)), strict=True)) if firsts is not None \
            else {p: i for i, ps in enumerate(cols.precincts) for p in ps}
        hits = list(map(exact.get, names))
        if None not in hits and len(set(hits)) == len(hits) and \
                all(map(unit_of.__contains__, hits)):
            found = dict(zip(hits, range(len(hits)), strict=True))  # type: ignore[arg-type]
        else:
            found = {}
            for i, name in enumerate(names):
                hit = hits[i]
                if hit is None:
                    hit = full.get(norm_words(name))
                if hit is None:
                    if by_code is None:
                        by_code = precinct_matcher(canvass_precincts)
                    hit = match_precinct(name, by_code)
                if hit is None or hit not in unit_of:
                    problems.append(LoadProblem(
                        ProblemKind.UNKNOWN_PRECINCT,
                        f"Precinct {name!r} is not a precinct of this contest in the "
                        "canvass: the file cannot be loaded (its votes would have nowhere "
                        "to go).", precinct=name, row=file_rows[i]))
                elif hit in found:
                    j = found[hit]
                    problems.append(LoadProblem(
                        ProblemKind.DUPLICATE_PRECINCT,
                        f"Precinct {name!r} appears twice (also as {names[j]!r}"
                        + (f", row {file_rows[j]}" if file_rows[j] is not None else "")
                        + "): the file cannot be loaded.", cols.names[unit_of[hit]], name,
                        file_rows[i]))
                else:
                    found[hit] = i
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
    vcols = table.votes
    nothing: Sequence[int | None] = [None] * len(names)
    plain_cols = [vcols.get(fc, nothing) for fc in plain_names]
    wi_cols = [vcols.get(fc, nothing) for fc in wi_names]
    over_col, under_col = table.over, table.under
    tallies = _columns_every_unit(layout, firsts, found or {}, plain_cols, wi_cols,
                                  has_write_ins, table, in_place) \
        if whole and firsts is not None and not skip else None
    if tallies is None and found is None:  # in place, but a unit is taken on its own
        found = dict(zip(names, range(len(names)), strict=True))
    if tallies is not None:
        index: list[int] = list(range(len(cols.names)))
        # (in place: the file's rows as they are, made only if one is asked for)
        loaded_rows: Sequence[tuple[int, ...] | int | None] = file_rows if found is None \
            else [file_rows[found[p]] for p in firsts or ()]
    else:
        assert found is not None
        index, loaded_rows = [], []
        votes_out: dict[str, list[int | None]] = {c: [] for c in layout.choices}
        wi_out: list[int | None] = []
        over_out: list[int | None] = []
        under_out: list[int | None] = []
        for ui, (uname, ps) in enumerate(zip(cols.names, cols.precincts, strict=True)):
            if uname in skip:
                continue
            if whole and len(ps) == 1 and (fi := found.get(ps[0])) is not None:
                vals = [col[fi] for col in plain_cols]
                if None not in vals:
                    wi: int | None = None
                    if has_write_ins:
                        wi = 0
                        for col in wi_cols:
                            v = col[fi]
                            if v is not None:
                                wi += v
                    index.append(ui)
                    for c, v in zip(layout.choices, vals, strict=True):
                        votes_out[c].append(v)
                    wi_out.append(wi if with_wi else 0)
                    over_out.append(over_col[fi])
                    under_out.append(under_col[fi])
                    loaded_rows.append(file_rows[fi])
                    continue
            absent = [p for p in ps if p not in found]
            if absent:
                problems.append(LoadProblem(
                    ProblemKind.UNIT_MISSING,
                    f"{uname}: the file has no figures for "
                    + ("it" if absent == list(ps) else ", ".join(absent))
                    + "; count this unit by hand.", uname, absent[0]))
                continue
            blank: list[str] = []
            votes = dict.fromkeys(layout.choices, 0)
            write_ins: int | None = 0 if has_write_ins else None
            over: int | None = 0
            under: int | None = 0
            unit_rows: list[int] = []
            first_row: int | None = None
            for p in ps:
                fi = found[p]
                row = file_rows[fi]
                if row is not None:
                    unit_rows.append(row)
                    first_row = row if first_row is None else first_row
                for fc, target in mapped:
                    v = vcols.get(fc, nothing)[fi]
                    if v is None:
                        if target != WRITE_IN:
                            blank.append(f"{p}: {fc}")
                        continue
                    if target == WRITE_IN:
                        write_ins = (write_ins or 0) + v
                    else:
                        votes[target] += v
                fo, fu = over_col[fi], under_col[fi]
                over = None if over is None or fo is None else over + fo
                under = None if under is None or fu is None else under + fu
            if blank:
                problems.append(LoadProblem(
                    ProblemKind.BLANK_FIGURES,
                    f"{uname}: suppressed or blank figures ({', '.join(blank)}); count this "
                    "unit by hand.", uname, ps[0], first_row))
                continue
            index.append(ui)
            for c in layout.choices:
                votes_out[c].append(votes[c])
            wi_out.append(write_ins if layout.write_in_line else 0)
            over_out.append(over)
            under_out.append(under)
            loaded_rows.append(tuple(unit_rows))
        tallies = SheetColumns([None] * len(index), votes_out, wi_out, over_out, under_out)
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
    return LoadPlan(file_contest, choice_map, tuple(problems), len(cols.names),
                    [cols.names[i] for i in index], index, tallies, loaded_rows)


def _columns_every_unit(layout: SheetLayout, firsts: Sequence[str], found: Mapping[str, int],
                        plain_cols: Sequence[Sequence[int | None]],
                        wi_cols: Sequence[Sequence[int | None]], has_write_ins: bool,
                        table: FileTable, in_place: bool = False) -> SheetColumns | None:
    """Every unit's tally column by column, when every unit is one precinct the file gives
    with every candidate's figure (``plan_load``'s rule for such a unit, for all at once);
    None when one is not (then ``plan_load`` goes unit by unit). ``in_place``: the file's
    i-th precinct is the i-th unit's (its columns are then taken as they are)."""
    where: Sequence[int] | None = None  # (None: in place)
    if not in_place:
        at = list(map(found.get, firsts))
        if None in at:
            return None
        where = at  # type: ignore[assignment]

    def pick(col: Sequence[int | None]) -> list[int | None]:
        return list(col) if where is None else list(map(col.__getitem__, where))

    votes: dict[str, Sequence[int | None]] = {}
    for c, col in zip(layout.choices, plain_cols, strict=True):
        vals = pick(col)
        if None in vals:
            return None
        votes[c] = vals
    n = len(table.names) if where is None else len(where)
    write_ins: list[int | None]
    if not layout.write_in_line:
        write_ins = [0] * n
    elif has_write_ins:
        sums = [0] * n
        for col in wi_cols:
            sums = [a + (v or 0) for a, v in zip(sums, pick(col), strict=True)]
        write_ins = list(sums)
    else:
        write_ins = [None] * n
    return SheetColumns([None] * n, votes, write_ins, pick(table.over), pick(table.under))


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


@dataclass(frozen=True)
class LoadComparison:
    """The canvass against the recount as it would stand after the load. Per unit as
    columns (``unit_names``; ``canvass_units``/``recount_units`` by choice, None where the
    unit stays open; ``sources``); ``rows`` gives them unit by unit, made when asked for."""

    choices: tuple[str, ...]
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
    unit_names: Sequence[str] = ()
    canvass_units: Mapping[str, Sequence[int]] = field(default_factory=dict)
    recount_units: Mapping[str, Sequence[int | None]] = field(default_factory=dict)
    sources: Sequence[str] = ()  # "file", "kept" (already counted, not replaced) or "open"

    @cached_property
    def rows(self) -> tuple[UnitComparison, ...]:
        choices, canv, rec = self.choices, self.canvass_units, self.recount_units
        return tuple(
            UnitComparison(name, {c: canv[c][i] for c in choices},
                           None if src == "open" else
                           {c: rec[c][i] or 0 for c in choices}, src)
            for i, (name, src) in enumerate(zip(self.unit_names, self.sources, strict=True)))

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


class CanvassColumns:
    """A contest's canvass by choice: choice → precinct → votes (a precinct without a
    figure for the choice has none: 0).

    Or, as the case stores it when every choice has its figures for the same precincts
    (``in_order``): the precincts' names in order (``order``) and each choice's figures in
    that order (``columns``); ``votes`` is then made from them only if asked for."""

    __slots__ = ("_votes", "columns", "order")

    def __init__(self, votes: Mapping[str, Mapping[str, int]] | None = None) -> None:
        self._votes = votes
        self.order: Sequence[str] | None = None
        self.columns: Mapping[str, Sequence[int]] = {}

    @classmethod
    def in_order(cls, order: Sequence[str], columns: Mapping[str, Sequence[int]]
                 ) -> CanvassColumns:
        if any(len(col) != len(order) for col in columns.values()):
            raise ValueError("one figure per precinct in each column")
        out = cls()
        out.order, out.columns = order, columns
        return out

    @property
    def votes(self) -> Mapping[str, Mapping[str, int]]:
        if self._votes is None:
            order = self.order or ()
            self._votes = {c: dict(zip(order, col, strict=True))
                           for c, col in self.columns.items()}
        return self._votes

    @classmethod
    def by_precinct(cls, canvass_by_precinct: Mapping[str, Mapping[str, int]],
                    choices: Iterable[str]) -> CanvassColumns:
        return cls({c: {p: v[c] for p, v in canvass_by_precinct.items() if c in v}
                    for c in choices})


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


def compare_load(canvass: ContestTotals, layout: SheetLayout,
                 units: Sequence[RecountUnit] | UnitColumns,
                 canvass_votes: CanvassColumns | Mapping[str, Mapping[str, int]],
                 loaded: Mapping[str, TallySheet], kept: Mapping[str, TallySheet],
                 envelope_votes: Mapping[str, int] | None = None) -> LoadComparison:
    """Canvass vs recount per unit and in total, and whether the declared result changes.

    ``canvass_votes``: by choice (``CanvassColumns``) or precinct → choice → votes.
    ``loaded``: the sheets the load would record (a plan's ``sheets`` are taken as its
    columns); ``kept``: units already counted that the load leaves as they are
    (hand-entered). Accepted envelopes (``envelope_votes``) join the recount totals
    ((1)(e)(iii)). With any unit still open the result is not judged.
    """
    cols = units if isinstance(units, UnitColumns) else UnitColumns.of(units)
    choices = layout.choices
    given = canvass_votes if isinstance(canvass_votes, CanvassColumns) else \
        CanvassColumns.by_precinct(canvass_votes, choices)
    n = len(cols.names)
    firsts = cols.single()
    none: Mapping[str, int] = {}
    canv: dict[str, Sequence[int]] = {}
    if firsts is not None and given.order is not None and \
            list(given.order) == list(firsts):  # unit i is the canvass's precinct i
        for c in choices:
            figures = given.columns.get(c)
            canv[c] = [0] * n if figures is None else list(figures)
    by_choice = given.votes if len(canv) < len(choices) else {}
    for c in choices if len(canv) < len(choices) else ():
        got = by_choice.get(c, none)  # a unit's canvass: its precincts' figures summed
        if firsts is not None:  # most units are one precinct: its figures as they are
            canv[c] = list(map(got.get, firsts, repeat(0)))
        else:
            canv[c] = [sum(got.get(p, 0) for p in ps) for ps in cols.precincts]
    rec: dict[str, list[int | None]] = {c: [None] * n for c in choices}
    sources = ["open"] * n
    if kept:
        for i, name in enumerate(cols.names):
            sheet = kept.get(name)
            if sheet is not None and name not in loaded:
                sv = sheet.votes
                for c in choices:
                    rec[c][i] = sv.get(c) or 0  # (TallySheet.choice_votes)
                sources[i] = "kept"
    plan = loaded.plan if isinstance(loaded, _Sheets) else None
    if plan is not None and plan.index and \
            list(map(cols.names.__getitem__, plan.index)) == list(plan.units):
        tv = plan.tallies.votes
        if len(plan.index) == n:  # every unit loaded
            for c in choices:
                rec[c] = [v or 0 for v in tv.get(c, [None] * n)]
            sources = ["file"] * n
        else:
            for c in choices:
                col, out = tv.get(c, [None] * len(plan.index)), rec[c]
                for i, v in zip(plan.index, col, strict=True):
                    out[i] = v or 0
            for i in plan.index:
                sources[i] = "file"
    elif loaded:
        for i, name in enumerate(cols.names):
            sheet = loaded.get(name)
            if sheet is not None:
                sv = sheet.votes
                for c in choices:
                    rec[c][i] = sv.get(c) or 0
                sources[i] = "file"
    canvass_total = {c: sum(canv[c]) for c in choices}
    recount_total = {c: sum(filter(None, rec[c])) for c in choices}  # (None: open)
    counted = n - sources.count("open")
    env = envelope_votes or {}
    for c in layout.choices:
        recount_total[c] += env.get(c, 0)
    contest = canvass.contest
    canvass_vote = {c.choice.name: c.votes for c in canvass.choices}
    before, before_text = _winners(contest, canvass_vote, canvass)
    if counted < n:
        after: tuple[str, ...] | None = None
        text = (f"{n - counted} of {n} units would still be open: whether "
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
    return LoadComparison(layout.choices, canvass_total, recount_total, counted, n, before,
                          after, text, envelope_note=note, unit_names=cols.names,
                          canvass_units=canv, recount_units=rec, sources=sources)
