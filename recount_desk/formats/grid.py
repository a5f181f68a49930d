"""The shared stages of the grid layouts: a sheet with a row per precinct and a column per
choice under a header band (hand-built workbooks, the Salt Lake SOVC, Clarity's contest
pages), or the same turned sideways (precincts across, choices down).

In the order of the pipeline's stages:

- **open**: :func:`spreadsheet` (the file must be a spreadsheet of the kinds a family
  reads, else the family's sentence);
- **sheet**: :func:`other_sheets` (which sheets were read and which were not, said once);
- **header band**: :func:`band` (the rows of a band of several rows around a header:
  contest, candidate, party and "Vote for" rows in any order), :func:`band_kind` (what one
  row of it holds), :func:`band_roles` (which row names the contests, which the
  candidates, which the parties), :func:`party_of` (a party row's cell as a party code),
  :data:`PAGE_LINE` (a printed page's "Page n of m");
- **grid**: :class:`Tally` (a reading's counts, every bad cell named up to a cap and the
  rest counted);
- **contests**: :func:`primary_of` (a primary where a contest has a party or the title
  says so);
- **rows**: :func:`merge` (the reading of one more page or sheet joined to the others').
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Sequence
from pathlib import Path

from recount_desk.core.model import Issue, Severity

from .base import RawCanvass, fail
from .pipeline import IssueLog
from .stages import primary_in_name, to_int
from .tabular import sniff

SPREADSHEETS = ("xlsx", "xls", "ods", "csv")
WORKBOOKS = ("xlsx", "xls", "ods")


def spreadsheet(path: Path, refusal: str, kinds: Sequence[str] = SPREADSHEETS) -> str:
    """Stage *open*: what the file is, refused with ``refusal`` unless one of ``kinds``."""
    kind = sniff(path)
    if kind not in kinds:
        raise fail(path, refusal)
    return kind


def other_sheets(issues: list[Issue], file: str, read: str | None, others: Sequence[str], *,
                 n: int | None = None, rest: str = "") -> None:
    """Stage *sheet*: a warning first among ``issues`` that ``others`` are result sheets
    too and only ``read`` was read (``n``: how many result sheets in all, else "several");
    ``rest`` says what became of the workbook's other sheets (a note where no other sheet
    holds results)."""
    msg = ""
    if others:
        msg = (f"This workbook holds {n if n is not None else 'several'} result sheets; sheet "
               f"{read!r} was read. Choose another sheet to import "
               + ", ".join(repr(s) for s in others) + " instead.")
    if rest:
        msg += (" " if msg else "") + rest
    if msg:
        issues.insert(0, Issue(file, msg, read, severity=Severity.WARNING if others
                               else Severity.NOTE))


class Tally:
    """The counts of one reading: a cell that is not a whole number is an error naming its
    row and column, the first ``cap`` of them, then "… N more vote counts are not whole
    numbers." (:meth:`close`)."""

    def __init__(self, log: IssueLog, cap: int = 10) -> None:
        self.log, self.cap, self.bad = log, cap, 0

    def wrong(self, message: str, *, row: int | None = None, column: str | None = None,
              sheet: str | None = None) -> None:
        """One more bad cell, said in ``message`` while fewer than ``cap`` were."""
        self.bad += 1
        if self.bad <= self.cap:
            self.log.error(message, row=row, column=column, sheet=sheet)

    def count(self, text: str, *, row: int | None = None, column: str | None = None,
              sheet: str | None = None, message: str | None = None) -> int:
        """The whole count of ``text``; 0 for an empty cell, and 0 with an error (``message``,
        else "The vote count '…' is not a whole number") for any other that is not one."""
        v = to_int(text)
        if v is None:
            if text.strip():
                self.wrong(message or f"The vote count {text!r} is not a whole number; it is "
                           "read as 0.", row=row, column=column, sheet=sheet)
            return 0
        return v

    def close(self, sheet: str | None = None) -> None:
        if self.bad > self.cap:
            self.log.error(f"… {self.bad - self.cap} more vote counts are not whole numbers.",
                           sheet=sheet)


def primary_of(text: str, party: bool = False) -> bool | None:
    """Stage *contests*: a primary where a contest belongs to a party or ``text`` (the
    title rows, the file's name) says primary; a general where it says general."""
    return True if party else primary_in_name(text)


# --- The header band --------------------------------------------------------------------

PAGE_LINE = re.compile(r"\bpage\s+\d+(\s+of\s+\d+)?\b", re.IGNORECASE)
_PARTY_CODE = re.compile(r"^\(?\s*(REP|DEM|LIB|CON|IAP|UNA|GRN|UUP|NON|IND|AMD|UTJ|NLP|UPP|"
                         r"GOP|NP)\s*\)?$", re.IGNORECASE)
_PARTY_WORDS = {"r": "REP", "rep": "REP", "republican": "REP", "gop": "REP",
                "d": "DEM", "dem": "DEM", "democrat": "DEM", "democratic": "DEM",
                "l": "LIB", "lib": "LIB", "libertarian": "LIB", "c": "CON", "con": "CON",
                "constitution": "CON", "g": "GRN", "green": "GRN", "u": "UNA", "una": "UNA",
                "unaffiliated": "UNA", "i": "IND", "ind": "IND", "independent": "IND",
                "iap": "IAP", "independent american": "IAP", "uup": "UUP",
                "united utah": "UUP", "np": "", "non": "", "nonpartisan": "",
                "non-partisan": ""}
_VOTE_FOR_ONLY = re.compile(r"^\(?\s*vote\s+for\s+(not\s+more\s+than\s+)?\d+\s*\)?$",
                            re.IGNORECASE)
# What the first cell of a band row under the header may say.
BAND_LEADS = frozenset({"", "candidate", "candidates", "choice", "choices", "party", "parties",
                        "contest", "contests", "office", "race", "vote for", "name"})


def party_of(cell: str) -> str | None:
    """The party code a party row's cell names ('REP', 'Republican', '(R)', 'Dem.'; 'NP' and
    'Nonpartisan' are no party, ""), or None when it names none."""
    m = _PARTY_CODE.match(cell)
    if m:
        return {"GOP": "REP", "NP": "", "NON": ""}.get(m.group(1).upper(), m.group(1).upper())
    return _PARTY_WORDS.get(cell.strip("() .").casefold())


def band_kind(cells: Sequence[str]) -> str:
    """What one row of a header band holds over the choice columns: 'empty', 'party'
    (party codes or names), 'seats' ('Vote for 1' under each contest), or 'text'."""
    filled = [c for c in cells if c]
    if not filled:
        return "empty"
    if all(party_of(c) is not None for c in filled):
        return "party"
    if all(_VOTE_FOR_ONLY.match(c) for c in filled):
        return "seats"
    return "text"


def band(rows: Sequence[Sequence[str]], h: int, width: int, *,
         clean: Callable[[str], str] = lambda s: " ".join(s.split()),
         leads: frozenset[str] = BAND_LEADS) -> tuple[list[int], int]:
    """Stage *header band*: the rows of the band around the header at ``h`` (up to three
    rows of text above it, and up to three below whose first cell is one of ``leads``;
    none with counts or a page line) and the first row after the band."""
    def cells(i: int) -> list[str]:
        return [clean(c) for c in rows[i]] + [""] * (width - len(rows[i]))

    def no_counts(r: list[str]) -> bool:
        return not any(to_int(c) is not None for c in r[1:width] if c)

    above = []
    for i in range(h - 1, max(h - 4, -1), -1):
        r = cells(i)
        if not any(r[1:width]) or not no_counts(r) or PAGE_LINE.search(" ".join(r)):
            break
        above.append(i)
    below = []
    for i in range(h + 1, min(h + 4, len(rows))):
        r = cells(i)
        if r[0].lower().rstrip(":") not in leads or not any(r[1:width]) or not no_counts(r):
            break
        below.append(i)
    return [*reversed(above), h, *below], (below[-1] if below else h) + 1


def band_roles(grid: dict[int, list[str]], rows: Sequence[int], h: int, first: int,
               skip: Container[int] = ()) -> tuple[int | None, int, int | None]:
    """Stage *header band*: of the band's ``rows`` (``grid``: each one's cells) around the
    header ``h``, the contests' row, the choices' row and the parties' row, judged over the
    choice columns (from ``first``, but not those of ``skip``). The choices' row is the row
    under the header where it holds text (the header is then the contests' row) unless the
    header has more distinct names, else the header, else the last row of text; the
    contests' row is the nearest row of text above the choices' row, else the nearest
    below it."""
    width = len(grid[h])
    kinds = {i: band_kind([grid[i][j] for j in range(first, width) if j not in skip])
             for i in rows}
    text = [i for i in rows if kinds[i] == "text"]
    below_h = [i for i in text if i > h]
    name_i = below_h[0] if below_h and h in text else h
    if name_i != h and h in text and _distinct(grid[h][first:]) > _distinct(grid[name_i][first:]):
        name_i = h  # the header holds the names, the row under it the contests' titles
    if name_i not in text and text:
        name_i = text[-1]
    others = [i for i in text if i != name_i]
    up = [i for i in others if i < name_i]
    contest_i = up[-1] if up else (others[0] if others else None)
    party_i = next((i for i in rows if kinds[i] == "party"), None)
    return contest_i, name_i, party_i


def _distinct(cells: Sequence[str]) -> int:
    return len({c.casefold() for c in cells if c})


# --- Rows -------------------------------------------------------------------------------

def merge(result: RawCanvass, more: RawCanvass) -> None:
    """Stage *rows*: the reading of another page or sheet joined to ``result`` (its rows,
    totals, seats and issues after the others'; ballots added; where things are, first
    seen kept)."""
    import pandas as pd

    result.rows = pd.concat([result.rows, more.rows], ignore_index=True)
    result.issues.extend(more.issues)
    result.seats.update(more.seats)
    result.file_totals.update(more.file_totals)
    result.suppressed |= more.suppressed
    for key, per in more.hidden.items():
        for ch, ps in per.items():
            result.hidden.setdefault(key, {}).setdefault(ch, []).extend(ps)
    for k, v in more.where.items():
        result.where.setdefault(k, v)
    for p, b in more.ballots.items():
        result.ballots[p] = result.ballots.get(p, 0) + b
        result.ballots_rows.setdefault(p, more.ballots_rows.get(p, 0))
    if more.ballots_total is not None:
        result.ballots_total = more.ballots_total
    for k, n in more.fractional.items():
        result.fractional[k] = result.fractional.get(k, 0) + n
    result.doubts.extend(more.doubts)
    if result.primary is None:
        result.primary = more.primary
