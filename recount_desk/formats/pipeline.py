"""The one reading pipeline every canvass file goes through, in named stages.

1. **open** — what the file really is, whatever its name says (:func:`open_source`).
2. **locate** — the family finds its sheet, header band and body rows.
3. **map** — the family turns that grid into raw rows (:class:`RawCanvass`).
   A family module provides ``locate(source, options)`` and ``map(located, options)``
   when it is written in stages (:data:`STAGED`), else one ``read(path, options)`` that does
   both.
4. **validate** — checks that are the same for every family (:func:`validate`): a totals row
   that a reader let through among the precincts (``Total``, ``COUNTY TOTALS``, ``Election
   Total``…) is taken out and used as the file's own totals, or refused where it disagrees
   with them; never counted as a precinct, never dropped without a word.
5. **build** — contests, choices and totals, the same way for every family
   (:func:`recount_desk.formats.canvass.build`), into a frozen :class:`ParsedCanvass`.
6. **gate** — the plausibility gate (:func:`recount_desk.formats.plausibility.gate`): a
   reading no real canvass looks like is said loudly and not offered as done.

Shared pieces the families use inside their stages live here too: :class:`IssueLog` (one
log per reading that caps a repeated problem at a few examples and a count).
"""

from __future__ import annotations

import dataclasses
import gc
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from recount_desk.core.model import Issue, Severity

from . import vocab
from .base import Cancelled, CodedRawCanvass, Detection, RawCanvass, ReadOptions, fail
from .tabular import sniff

if TYPE_CHECKING:
    import numpy as np

    from .canvass import ParsedCanvass


@dataclass(frozen=True)
class Source:
    """Stage 1: an opened file — its path, what it really is, and the name messages use."""

    path: Path
    kind: str  # as :func:`recount_desk.formats.tabular.sniff` says

    @property
    def name(self) -> str:
        return self.path.name


def open_source(path: Path | str, kind: str | None = None) -> Source:
    """Stage 1. Refuses at once what is no regular file or no spreadsheet at all.
    ``kind``: what :func:`~recount_desk.formats.tabular.sniff` said of it already."""
    path = Path(path)
    return Source(path, kind if kind is not None else sniff(path))


@runtime_checkable
class StagedFamily(Protocol):
    """A family written in stages: ``locate`` gives what ``map`` reads (any object the
    family defines; :class:`Located` suits grid layouts)."""

    FAMILY: str

    def locate(self, source: Source, options: ReadOptions) -> Any: ...

    def map(self, located: Any, options: ReadOptions) -> RawCanvass: ...


@dataclass
class Located:
    """Stage 2 for a grid layout: the sheet, its rows as text, where the header band ends,
    and what the family noticed on the way (its issue log)."""

    source: Source
    rows: list[list[str]]
    log: IssueLog
    sheet: str | None = None
    header_rows: int = 0
    facts: dict[str, Any] = field(default_factory=dict)


def read_raw(family: Any, path: Path, options: ReadOptions, kind: str | None = None
             ) -> RawCanvass:
    """Stages 2–3 of one family: ``locate`` then ``map`` where it is staged, else its
    ``read``. A cancel between stages raises :class:`Cancelled`."""
    if isinstance(family, StagedFamily):
        located = family.locate(open_source(path, kind), options)
        if options.cancelled():
            raise Cancelled()
        return family.map(located, options)
    raw: RawCanvass = family.read(path, options)
    return raw


class IssueLog:
    """The problems of one reading, in order. A problem that repeats (a bad count in every
    row) is shown ``cap`` times, then once more as "… and N more <what>", so a broken
    column gives a readable message, not ten thousand of them."""

    def __init__(self, file: str, sheet: str | None = None) -> None:
        self.file = file
        self.sheet = sheet
        self.issues: list[Issue] = []
        self._seen: dict[str, int] = {}
        self._more: dict[str, tuple[int, int, str]] = {}  # kind: (index, cap, what)

    def add(self, message: str, severity: Severity = Severity.NOTE, *,
            row: int | None = None, column: str | None = None,
            sheet: str | None = None) -> None:
        self.issues.append(Issue(self.file, message, sheet if sheet is not None else
                                 self.sheet, row, column, severity))

    def note(self, message: str, **where: Any) -> None:
        self.add(message, Severity.NOTE, **where)

    def warn(self, message: str, **where: Any) -> None:
        self.add(message, Severity.WARNING, **where)

    def error(self, message: str, **where: Any) -> None:
        self.add(message, Severity.ERROR, **where)

    def repeated(self, kind: str, message: str, severity: Severity, *, more: str,
                 cap: int = 10, row: int | None = None, column: str | None = None,
                 sheet: str | None = None) -> None:
        """One more of the problem ``kind``: shown while fewer than ``cap`` were, else
        counted; ``more`` names them in the closing line ("cells that are not whole
        numbers"), which stands where the first one left out would have."""
        n = self._seen.get(kind, 0) + 1
        self._seen[kind] = n
        if n <= cap:
            self.add(message, severity, row=row, column=column, sheet=sheet)
        elif n == cap + 1:
            self._more[kind] = (len(self.issues), cap, more)
            self.add(more, severity, sheet=sheet)  # its text is set by close()

    def count(self, kind: str) -> int:
        return self._seen.get(kind, 0)

    def close(self) -> list[Issue]:
        """Every issue, with the "… and N more" line of each capped problem."""
        for kind, (at, cap, what) in self._more.items():
            self.issues[at] = dataclasses.replace(
                self.issues[at], message=f"… and {self._seen[kind] - cap} more {what}.")
        self._more.clear()
        return self.issues


def _total_name(precinct: str) -> bool:
    # "Kane / TOTALS": a several-county file names its precincts "County / precinct".
    return vocab.is_total_precinct(precinct.split(" / ", 1)[1] if " / " in precinct
                                   else precinct)


def validate(raw: RawCanvass) -> RawCanvass:
    """Stage 4, the same for every family: a totals row among the precincts (a reader that
    did not know the file's totals row by that name) is taken out of the precincts. Where
    the reader found no totals for its contest it becomes the file's own totals (checked
    against the precincts by :func:`build`); where it agrees with the totals the reader
    found it is dropped with a note; where it disagrees, or several totals rows of a
    contest disagree, it is an error naming the row: the file contradicts itself. (A totals
    row that is not the sum of the precincts for any choice is refused by the plausibility
    gate, whichever family read it.)"""
    raw = _without_running_totals(raw)
    names = _precincts_named(raw, _total_name)
    if not names:
        return raw
    df = raw.rows
    is_total = df["precinct"].isin(names)
    tot = df[is_total]
    issues = list(raw.issues)
    file_totals = {k: dict(v) for k, v in raw.file_totals.items()}
    cand = tot[tot["kind"].isin(["candidate", "write_in"])]
    has_row = "row" in df.columns
    totals_rows = dict(raw.totals_rows)
    conflicts = 0
    noted: list[str] = []
    for key, grp in cand.groupby(["contest", "district", "party"], sort=False):
        key = (str(key[0]), str(key[1]), str(key[2]))
        label = " ".join(x for x in key if x)
        per_name: dict[str, dict[str, int]] = {}
        first_row: dict[str, int | None] = {}
        for p, ch, v, r in zip(grp["precinct"], grp["choice"], grp["votes"],
                               grp["row"] if has_row else [None] * len(grp), strict=True):
            d = per_name.setdefault(str(p), {})
            d[str(ch)] = d.get(str(ch), 0) + int(v)
            first_row.setdefault(str(p), int(r) if r is not None else None)
        stated = file_totals.get(key)
        for p, sums in per_name.items():
            if stated is None:
                stated = file_totals[key] = sums
                noted.append(p)
                if first_row[p] is not None:
                    totals_rows[key] = int(first_row[p] or 0)
                continue
            differ = sorted(ch for ch in set(stated) | set(sums)
                            if stated.get(ch, 0) != sums.get(ch, 0))
            if differ:
                conflicts += 1
                ch = differ[0]
                if conflicts <= 10:
                    issues.append(Issue(
                        raw.file, f"{label}: the totals row {p!r} gives {ch!r} "
                        f"{sums.get(ch, 0):,} votes, but the file's totals give "
                        f"{stated.get(ch, 0):,}"
                        + (f" (and {len(differ) - 1} more choices differ)" if len(differ) > 1
                           else "") + ". The file contradicts itself; it is not read until "
                        "the election system exports it again.", raw.sheet, first_row[p],
                        None, Severity.ERROR))
            elif p not in noted:
                noted.append(p)
    if conflicts > 10:
        issues.append(Issue(raw.file, f"… and {conflicts - 10} more totals rows that disagree "
                            "with the file's totals.", raw.sheet, severity=Severity.ERROR))
    if noted:
        shown = ", ".join(repr(p) for p in sorted(set(noted))[:5])
        issues.append(Issue(raw.file, f"Rows named {shown} in the precinct column are the "
                            "file's own totals, not a precinct: they are not counted, and the "
                            "precincts are checked against them.", raw.sheet,
                            severity=Severity.NOTE))
    ballots = {p: b for p, b in raw.ballots.items() if not _total_name(p)}
    ballots_total = raw.ballots_total
    if ballots_total is None:
        stated_b = [raw.ballots[p] for p in raw.ballots if _total_name(p)]
        ballots_total = stated_b[0] if len(set(stated_b)) == 1 else None
    return dataclasses.replace(
        raw, rows=df[~is_total].reset_index(drop=True), issues=issues,
        file_totals=file_totals, totals_rows=totals_rows, ballots=ballots,
        ballots_total=ballots_total,
        ballots_rows={p: r for p, r in raw.ballots_rows.items() if p in ballots},
        hidden={k: {ch: [p for p in ps if not _total_name(p)] for ch, ps in v.items()}
                for k, v in raw.hidden.items()})


def _precincts_named(raw: RawCanvass, test: Callable[[str], bool]) -> list[str]:
    """The precincts of the rows whose name passes ``test``: asked of the codes where the
    rows are held so (no frame made when none passes), else of the frame."""
    coded = raw.coded_rows() if isinstance(raw, CodedRawCanvass) else None
    if coded is not None:
        codes, texts = coded.columns["precinct"]
        if not any(test(texts[k]) for k in _present(codes, len(texts))):
            return []
    df = raw.rows
    if df.empty:
        return []
    return [p for p in df["precinct"].unique().tolist() if test(str(p))]


def _running_total(precinct: str) -> bool:
    return vocab.is_running_total(precinct.split(" / ", 1)[1] if " / " in precinct
                                  else precinct)


def _without_running_totals(raw: RawCanvass) -> RawCanvass:
    """Rows of a running total ('Carried Forward', 'Page Total': the sum of the rows above
    it on a printed page) taken out of the precincts, with a note: they are neither a
    precinct nor the county's totals, and counted they would count votes twice."""
    names = _precincts_named(raw, _running_total)
    if not names:
        return raw
    df = raw.rows
    shown = ", ".join(repr(p) for p in sorted(names)[:5])
    return dataclasses.replace(
        raw, rows=df[~df["precinct"].isin(names)].reset_index(drop=True),
        issues=[*raw.issues, Issue(
            raw.file, f"Rows named {shown} are a running total of the rows above them (a "
            "page's subtotal), not a precinct: they are not counted.", raw.sheet,
            severity=Severity.NOTE)],
        ballots={p: b for p, b in raw.ballots.items() if p not in names})


def _present(codes: np.ndarray, n: int) -> list[int]:
    """The codes (of ``n``) that occur."""
    import numpy as np

    return np.flatnonzero(np.bincount(codes, minlength=n)).tolist()


_HASH_BESIDE = 1 << 20


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off while a file is read. A reader makes
    tens of thousands of short-lived lists and tuples (a report's lines, their cells), which
    reference counting frees and which hold no cycles; left on, the collector counts them
    and runs its full pass over every object of the process (pandas' modules included)
    several times per reading — a third of a stacked report's whole reading time. Where
    the collector is off already (the window runs it on its own thread) it stays off."""
    was_on = gc.isenabled()
    if was_on:
        gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def run(family: Any, path: Path, options: ReadOptions, *, primary: bool | None,
        seats: dict[str, int] | None, detection: Detection | None,
        sha256: Callable[[Path], str], kind: str | None = None) -> ParsedCanvass:
    """Stages 2–6 for one family on one opened file (``kind``: what ``sniff`` said of it,
    when it was asked already); the SHA-256 of a file of a megabyte or
    more is computed beside the read (hashing releases the interpreter lock)."""
    return run_with_raw(family, path, options, primary=primary, seats=seats,
                        detection=detection, sha256=sha256, kind=kind)[1]


def run_with_raw(family: Any, path: Path, options: ReadOptions, *, primary: bool | None,
                 seats: dict[str, int] | None, detection: Detection | None,
                 sha256: Callable[[Path], str], kind: str | None = None
                 ) -> tuple[RawCanvass, ParsedCanvass]:
    """``run``, with the family's raw reading beside what was built of it (the recount
    load names the file's rows from it)."""
    with collector_paused():
        return _run(family, path, options, primary=primary, seats=seats,
                    detection=detection, sha256=sha256, kind=kind)


def _run(family: Any, path: Path, options: ReadOptions, *, primary: bool | None,
         seats: dict[str, int] | None, detection: Detection | None,
         sha256: Callable[[Path], str], kind: str | None
         ) -> tuple[RawCanvass, ParsedCanvass]:
    from . import plausibility
    from .canvass import build

    if path.stat().st_size < _HASH_BESIDE:  # hashing it costs less than a thread
        raw = validate(read_raw(family, path, options, kind))
        if options.cancelled():
            raise Cancelled()
        parsed = build(raw, primary=primary, seats=seats, sha256=sha256(path))
    else:
        with ThreadPoolExecutor(max_workers=1) as pool:
            sha = pool.submit(sha256, path)
            raw = validate(read_raw(family, path, options, kind))
            if options.cancelled():
                raise Cancelled()
            parsed = build(raw, primary=primary, seats=seats, sha256=sha.result())
    parsed = dataclasses.replace(parsed, detection=detection)
    parsed = plausibility.gate(raw, parsed)
    head = _head(path, kind or sniff(path), raw)
    if head is not None and (said := plausibility.unofficial(head, raw.file, raw.sheet)):
        parsed = dataclasses.replace(parsed, issues=[said[1], *parsed.issues],
                                     unofficial=said[0])
    elif head is not None and (part := plausibility.partly_reported(head, raw.file,
                                                                     raw.sheet)):
        parsed = dataclasses.replace(parsed, issues=[part, *parsed.issues])
    return raw, parsed


def _head(path: Path, kind: str, raw: RawCanvass) -> list[list[str]] | None:
    """The head of the file that :func:`plausibility.unofficial` and
    :func:`plausibility.partly_reported` look at: of the sheet read, in a workbook (the
    first where the reading names several); None for Clarity's XML (its <Contest>s say
    what they say of their reporting themselves)."""
    from . import plausibility
    from .stages import head_rows
    from .tabular import sheet_names

    if kind not in ("csv", "xlsx", "xls", "ods"):
        return None
    sheet: str | int = 0
    if kind != "csv" and raw.sheet is not None and raw.sheet in sheet_names(path, kind):
        sheet = raw.sheet
    return head_rows(path, kind, sheet, nrows=max(plausibility.TITLE_ROWS,
                                                  plausibility.REPORTED_ROWS))


def unknown_family(path: Path, family: str) -> Exception:
    return fail(path, f"Unknown format family {family!r}.")
