"""The shared stages of the grid layouts: a sheet with a row per precinct and a column per
choice under a header band (hand-built workbooks, the Salt Lake SOVC, Clarity's contest
pages), or the same turned sideways (precincts across, choices down).

In the order of the pipeline's stages:

- **open** and **sheet**: :func:`open_sheets` (the file must be a spreadsheet of the kinds
  a family reads, else the family's sentence; the sheets to read), :func:`other_sheets`
  (which sheets were read and which were not, said once);
- **header band**: :func:`band` (the rows of a band of several rows around a header:
  contest, candidate, party, "Vote for" and vote-mode rows in any order),
  :func:`band_kind` (what one row of it holds), :func:`band_roles` (which row names the
  contests, which the candidates, which the parties; a party row's cells through
  :func:`vocab.party_of`),
  :data:`PAGE_LINE` (a printed page's "Page n of m");
- **grid**: :class:`Tally` (a reading's counts, every bad cell named up to a cap and the
  rest counted), :func:`number_like`;
- **contests**: :func:`primary_of` (a primary where a contest has a party or the title
  says so);
- **rows**: :func:`count` (a grid's cells to raw rows: empty cells, ``Suppressed`` cells
  hiding a contest's counts in a row or one cell, bad cells, fractions; precinct by
  precinct or choice by choice), :func:`merge` (the reading of one more page or sheet
  joined to the others').

Who uses what (2026-12-02): ``count``, ``other_sheets``, ``open_sheets`` the hand-built and
sideways workbooks; ``Tally`` and ``primary_of`` those and the Salt Lake SOVC and Clarity;
the header band (``band``, ``band_roles``) the hand-built workbooks, for any
grid under a band of several rows.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from recount_desk.core.model import Issue, Remedy, Severity

from . import vocab
from .base import ContestTuple, RawCanvass, fail
from .pipeline import IssueLog
from .stages import RawRow, chosen_sheets, primary_in_name, to_int
from .stages import frame as raw_rows
from .tabular import col_letter, sheet_names, sniff

if TYPE_CHECKING:
    import pandas as pd

T = TypeVar("T")
SPREADSHEETS = ("xlsx", "xls", "ods", "csv")
WORKBOOKS = ("xlsx", "xls", "ods")


def clean(text: str) -> str:
    """A cell's text on one line: runs of white space one space, trimmed."""
    return " ".join(text.split())


COUNTY_WORKBOOK = ("This is not a spreadsheet, so it is not a county results workbook. "
                   "Export it as XLSX or CSV.")


def open_sheets(path: Path, chosen: str | None, refusal: str = COUNTY_WORKBOOK,
                kinds: Sequence[str] = SPREADSHEETS, *, listed: int | None = None
                ) -> tuple[str, list[str], list[str] | None]:
    """Stages *open* and *sheet*: what the file is (refused with ``refusal`` unless one of
    ``kinds``), a workbook's sheets and those to read (only ``chosen`` where the officer
    chose one; refused, naming the first ``listed`` sheets, where it has none of that
    name); ``(kind, [], None)`` for a CSV."""
    kind = sniff(path)
    if kind not in kinds:
        raise fail(path, refusal)
    if kind == "csv":
        return kind, [], None
    names = sheet_names(path)
    return kind, names, chosen_sheets(path, names, chosen, listed=listed)


def other_sheets(issues: list[Issue], file: str, read: str | None, others: Sequence[str], *,
                 n: int | None = None, rest: str = "") -> None:
    """Stage *sheet*: a warning first among ``issues`` that ``others`` are result sheets
    too and only ``read`` was read (``n``: how many result sheets in all, else "several");
    ``rest`` says what became of the workbook's other sheets (a note where no other sheet
    holds results)."""
    msg = ""
    if others:
        msg = (f"This workbook holds {n if n is not None else 'several'} result sheets; sheet "
               f"{read!r} was read; the others are "
               + ", ".join(repr(s) for s in others) + ".")
    if rest:
        msg += (" " if msg else "") + rest
    if msg:
        issues.insert(0, Issue(file, msg, read, severity=Severity.WARNING if others
                               else Severity.NOTE,
                               remedy=Remedy.CHOOSE_SHEET if others else None))


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
# The sheets a PDF conversion makes of one report's pages: 'Table 1', 'Page 2' …
PAGE_SHEET = re.compile(r"^(table|page|sheet|pg\.?)\s*\d+$", re.IGNORECASE)
_VOTE_FOR_ONLY = re.compile(r"^\(?\s*vote\s+for\s+(not\s+more\s+than\s+)?\d+\s*\)?$",
                            re.IGNORECASE)
# What the first cell of a band row under the header may say.
BAND_LEADS = frozenset({"", "candidate", "candidates", "choice", "choices", "party", "parties",
                        "contest", "contests", "office", "race", "vote for", "name"})


_NAME_PARTY = re.compile(rf"\s*\(\s*({vocab.PARTY_CODES}|NPA)\s*\)\s*$", re.IGNORECASE)


def row_above(rows: Sequence[Sequence[str]], i: int, within: int | None = None
              ) -> Sequence[str] | None:
    """The nearest row above row ``i`` with something in it (within ``within`` rows, where
    given), or None."""
    start = 0 if within is None else max(0, i - within)
    return next((r for r in reversed(rows[start:i]) if any(c.strip() for c in r)), None)


def block_cells(rows: Sequence[Sequence[str]], lines: Sequence[int], cols: Sequence[int],
                errors: dict[tuple[int, int], str], *, precincts_across: bool
                ) -> tuple[list[list[str]], Callable[[int, int], tuple[int, str]],
                           Callable[[int, int], str | None]]:
    """Stage *grid*: a block's count cells for :func:`count`, one list per precinct (its
    column, ``precincts_across``, else its row) and one cell per choice (the rows ``lines``
    or the columns ``cols``), with its ``where`` (the file's row and column of a cell) and
    ``error`` (an Excel error value the cell held, of ``errors`` by 1-based row and
    column)."""
    def text(i: int, j: int) -> str:
        return rows[i][j].strip() if j < len(rows[i]) else ""

    if precincts_across:
        cells = [[text(i, j) for i in lines] for j in cols]

        def at(p: int, c: int) -> tuple[int, int]:
            return lines[c], cols[p]
    else:
        cells = [[text(i, j) for j in cols] for i in lines]

        def at(p: int, c: int) -> tuple[int, int]:
            return lines[p], cols[c]

    def where(p: int, c: int) -> tuple[int, str]:
        i, j = at(p, c)
        return i + 1, col_letter(j)

    def error(p: int, c: int) -> str | None:
        i, j = at(p, c)
        return errors.get((i + 1, j + 1))
    return cells, where, error


def split_title(title: str) -> tuple[str, str, int | None]:
    """Stage *contests*: (contest, party, seats) from a title row of a sheet: 'REP U.S.
    SENATE (Vote for 1)', 'Governor (DEM)' (the sideways and the stacked sheets)."""
    seats = vocab.seats_in(title)
    t = vocab.VOTE_FOR_IN_TITLE.sub("", title).strip() if seats is not None else title
    party = vocab.contest_party(t)
    if party:
        if t.upper().startswith(party + " "):
            t = t[len(party) + 1:].strip()
        else:
            t = re.sub(r"\s*\(\s*" + party + r"\s*\)\s*$", "", t, flags=re.IGNORECASE).strip()
    return t or title, party, seats


def choice_party(name: str) -> tuple[str, str]:
    """Stage *header band*: a choice's name and the party it names, or "" where it names
    none. The party stands before the name ('REP MIKE LEE', 'Republican Mike Lee') or after
    it: in brackets ('Chris Stewart (REP)', '(Republican)'; '(GOP)' is REP), after a dash
    ('Mike Lee - Republican', 'Lee, Mike - R'), or as the last word ('Mike Lee REP', 'Mike
    Lee Republican'). A word is taken for a party only where it is sure to be one: a party
    code in capitals, a party's name of two words ('United Utah'), a word set off by a dash
    or brackets, or a party's word that is no one's name beside a whole name of two words
    or more; a surname that is a party's word ('Evan Green') stays the name. A party of no
    party ('Nonpartisan', 'NP') is taken off the name and gives ""."""
    name, party = vocab.split_party_prefix(name)
    m = _NAME_PARTY.search(name)
    if m and m.start() > 0:
        name = name[:m.start()]
        party = party or {"GOP": "REP"}.get(m.group(1).upper(), m.group(1).upper())
    else:
        name, after = _party_after(name)
        party = party or (after or "")
    if not party:
        name, before = _party_before(name)
        party = before or ""
    return " ".join(name.split()), party


# A choice's kind while the contest's other choices are not all known: a line of the
# write-ins' sum ('Write-In Totals'), settled by :func:`settle_write_in_totals`.
WRITE_IN_TOTAL = "write_in_total"
# An invalid write-in's line ('Write-In: Invalid Write-In', 'Write-in: Fictitious Entry'):
# its votes are for no candidate and not counted (:func:`count` keeps only their sum), as
# the long tables and the block readers leave them out.
VOID_WRITE_IN = "void_write_in"


def choice_kind(name: str) -> str | None:
    """:func:`vocab.choice_kind`, but :data:`WRITE_IN_TOTAL` for a line of the write-ins'
    sum, which :func:`settle_write_in_totals` counts or leaves out once the contest's other
    choices are known, and :data:`VOID_WRITE_IN` for an invalid write-in's."""
    k = vocab.choice_kind(name)
    if k == "write_in" and vocab.is_void_write_in(name):
        return VOID_WRITE_IN
    return WRITE_IN_TOTAL if k is None and vocab.is_write_in_total(name) else k


def settle_write_in_totals(choices: Sequence[tuple[object, str | None]]) -> list[str | None]:
    """Stage *contests*: the kinds of ``choices`` ((contest, kind) each, kinds as
    :func:`choice_kind` gives them), a line of the write-ins' sum the write-ins where its
    contest names none, and left out (None) where it does: beside named write-ins it is
    their sum, and counting it would count them twice."""
    named = {c for c, k in choices if k == "write_in"}
    return [("write_in" if c not in named else None) if k == WRITE_IN_TOTAL else k
            for c, k in choices]


def band_kind(cells: Sequence[str]) -> str:
    """What one row of a header band holds over the choice columns: 'empty', 'party'
    (party codes or names), 'seats' ('Vote for 1' under each contest), 'modes' (how the
    votes were cast, under each choice: 'Election Day', 'Mail', 'Total'), or 'text'."""
    filled = [c for c in cells if c]
    if not filled:
        return "empty"
    if vocab.party_row(filled):
        return "party"
    if all(_VOTE_FOR_ONLY.match(c) for c in filled):
        return "seats"
    if len(filled) >= 2 and all(vocab.VOTE_MODE.match(c) for c in filled):
        return "modes"
    return "text"


def band(rows: Sequence[Sequence[str]], h: int, width: int, *,
         clean: Callable[[str], str] = clean,
         leads: frozenset[str] = BAND_LEADS) -> tuple[list[int], int]:
    """Stage *header band*: the rows of the band around the header at ``h`` (up to five
    rows of text above it, and up to five below whose first cell is one of ``leads``;
    none with counts or a page line: contests, "Vote for", candidates (over two rows where
    their names are split), vote modes and parties make six rows) and the first row after
    the band."""
    def cells(i: int) -> list[str]:
        return [clean(c) for c in rows[i]] + [""] * (width - len(rows[i]))

    def no_counts(r: list[str]) -> bool:
        return not any(to_int(c) is not None for c in r[1:width] if c)

    above = []
    for i in range(h - 1, max(h - 6, -1), -1):
        r = cells(i)
        if not any(r[1:width]) or not no_counts(r) or PAGE_LINE.search(" ".join(r)):
            break
        above.append(i)
    below = []
    for i in range(h + 1, min(h + 6, len(rows))):
        r = cells(i)
        if r[0].lower().rstrip(":") not in leads or not any(r[1:width]) or not no_counts(r):
            break
        below.append(i)
    return [*reversed(above), h, *below], (below[-1] if below else h) + 1


def band_roles(grid: dict[int, list[str]], rows: Sequence[int], h: int, first: int,
               skip: Container[int] = ()
               ) -> tuple[int | None, int, int | None, dict[int, str]]:
    """Stage *header band*: of the band's ``rows`` (``grid``: each one's cells) around the
    header ``h``, the contests' row, the choices' row and the parties' row, and what each
    row holds (:func:`band_kind`: the "Vote for" and vote-mode rows), judged over the
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
    return contest_i, name_i, party_i, kinds


def split_names(grid: dict[int, list[str]], rows: Sequence[int], first: int,
                skip: Container[int] = ()) -> tuple[int, int] | None:
    """Stage *header band*: two rows of the band, one under the other, that are the choices'
    names split in two (first names over surnames: 'Mike' / 'Lee'), as (upper, lower); None
    if there are none. Both rows name the same choice columns (from ``first``, but not those
    of ``skip``), each candidate differently (four in five distinct at least, not counting
    the columns that are no candidate's: 'Sub' over 'Total'), and a third row of text names
    the contests: a row of titles names a contest's first column only, or repeats its
    title over its columns; a row of parties is no text row."""
    width = len(grid[rows[0]])
    js = [j for j in range(first, width) if j not in skip]

    def filled(i: int) -> frozenset[int]:
        return frozenset(j for j in js if grid[i][j])

    text = [i for i in rows if band_kind([grid[i][j] for j in js]) == "text"]
    if len(text) < 3:
        return None
    pairs = []
    for a, b in itertools.pairwise(text):
        f = filled(a)
        if b != a + 1 or len(f) < 2 or f != filled(b):
            continue
        cands = [j for j in f if vocab.choice_kind(f"{grid[a][j]} {grid[b][j]}") == "candidate"]
        if len(cands) >= 2 and all(5 * _distinct([grid[i][j] for j in cands]) >= 4 * len(cands)
                                   for i in (a, b)):
            pairs.append((a, b))
    # (three such rows, or two pairs: which two are one name cannot be told)
    return pairs[0] if len(pairs) == 1 else None


def running_mates(grid: dict[int, list[str]], rows: Sequence[int], name_i: int, first: int,
                  skip: Container[int] = ()) -> int | None:
    """Stage *header band*: the row of the band right under the choices' names (``name_i``)
    that names running mates under some of them ('JD Vance' under 'Donald J. Trump'), else
    None: a row of text under names only, each a whole name of two words or more over
    another, two at least, all different."""
    below = name_i + 1
    if below not in rows:
        return None
    js = [j for j in range(first, len(grid[name_i])) if j not in skip]
    under = [j for j in js if grid[below][j]]
    if len(under) < 2 or band_kind([grid[below][j] for j in js]) != "text" or \
            _distinct([grid[below][j] for j in under]) < len(under):
        return None
    def whole(t: str) -> bool:
        return len(t.split()) >= 2 and vocab.choice_kind(t) == "candidate" and \
            not vocab.CONTEST_WORD.search(t)

    if all(grid[name_i][j] and whole(grid[name_i][j]) and whole(grid[below][j])
           for j in under):
        return below
    return None


def _distinct(cells: Sequence[str]) -> int:
    return len({c.casefold() for c in cells if c})


# --- Rows -------------------------------------------------------------------------------

# A choice column: contest, district, party, choice, the choice's party, kind ("" for a
# column that is counted, its bad cells named, but read into no raw row).
Choice = tuple[str, str, str, str, str, str]


@dataclass
class Counted:
    """The raw rows of a grid's cells and what was hidden in them."""

    rows: list[RawRow] = field(default_factory=list)
    sums: list[int] = field(default_factory=list)   # per body row, the counts read
    suppressed: set[ContestTuple] = field(default_factory=set)
    hidden: dict[ContestTuple, dict[str, list[str]]] = field(default_factory=dict)
    suppressed_cells: int = 0                         # contest cells, one per row
    suppressed_rows: dict[ContestTuple, int] = field(default_factory=dict)
    fractional: dict[tuple[str, str, str, str], int] = field(default_factory=dict)
    # A precinct's cells of one contest that all say 'not on this ballot' ('-', 'n/a'):
    # (contest title, precinct, the file's row) of each, read as no rows (as empty cells).
    off_ballot: list[tuple[str, str, int]] = field(default_factory=list)
    # The invalid write-ins' votes (:data:`VOID_WRITE_IN`), not counted, and one's name.
    void: int = 0
    void_name: str = ""
    # Contests titled as no contest ('Straight Party', a statistic): their cells not read.
    not_contests: list[str] = field(default_factory=list)

    def add(self, more: Counted) -> None:
        """The counts of the rows under another header after these."""
        self.rows += more.rows
        self.sums += more.sums
        self.suppressed |= more.suppressed
        for key, per in more.hidden.items():
            for ch, ps in per.items():
                self.hidden.setdefault(key, {}).setdefault(ch, []).extend(ps)
        self.suppressed_cells += more.suppressed_cells
        for key, n in more.suppressed_rows.items():
            self.suppressed_rows[key] = self.suppressed_rows.get(key, 0) + n
        for f, n in more.fractional.items():
            self.fractional[f] = self.fractional.get(f, 0) + n
        self.off_ballot += more.off_ballot
        self.void += more.void
        self.void_name = self.void_name or more.void_name
        self.not_contests += [t for t in more.not_contests if t not in self.not_contests]

    def note_void(self, log: IssueLog) -> None:
        """The note on the invalid write-ins' votes left out, as the long tables give it."""
        if self.void_name:
            log.note(f"{self.void:,} invalid write-in vote(s) (e.g. {self.void_name!r}) are "
                     "not counted for any candidate.")

    def note_left_out(self, log: IssueLog) -> None:
        """The notes on what the counts left out: contests not on some precincts' ballots,
        invalid write-ins, titles that name no contest."""
        self.note_off_ballot(log)
        self.note_void(log)
        self.note_not_contests(log)

    def note_not_contests(self, log: IssueLog) -> None:
        """The note on the columns left out for a title that names no contest."""
        if self.not_contests:
            shown = ", ".join(repr(t) for t in self.not_contests[:5])
            log.note(f"{shown} {'is' if len(self.not_contests) == 1 else 'are'} no contest "
                     "(straight-party tallies or ballot statistics): the columns under "
                     + ("it are" if len(self.not_contests) == 1 else "them are")
                     + " left out, as every reader leaves them out.")

    def note_off_ballot(self, log: IssueLog) -> None:
        """Say, once, which contests were read as not on some precincts' ballots because
        every one of their cells there says so ('-', 'n/a')."""
        if not self.off_ballot:
            return
        titles = list(dict.fromkeys(t for t, _p, _r in self.off_ballot))
        title, precinct, row = self.off_ballot[0]
        log.note(f"{len(self.off_ballot):,} time(s) a precinct holds '-' (or 'n/a') in every "
                 f"cell of a contest ({', '.join(repr(t) for t in titles[:5])}"
                 + (f" and {len(titles) - 5} more" if len(titles) > 5 else "")
                 + f"; first {title!r} in precinct {precinct!r}, row {row}): read as the "
                 "contest not on that precinct's ballot, as empty cells are. A '-' beside "
                 "counts of the same contest is an error.", row=row)


def _off_ballot(text: str, blank_is_zero: bool) -> bool:
    """A cell that says its contest is not on the precinct's ballot, or an empty one (where
    an empty cell is not 0)."""
    t = text.strip()
    return t in vocab.NOT_ON_BALLOT or (not t and not blank_is_zero)


def count(cells: Sequence[Sequence[str]], choices: Sequence[Choice], precincts: Sequence[str],
          where: Callable[[int, int], tuple[int, str]], tally: Tally, *,
          blank_is_zero: bool = False, suppress: str = "", hide: bool = False,
          by_column: bool = False, message: Callable[[str, str, str], str] | None = None,
          error: Callable[[int, int], str | None] | None = None) -> Counted:
    """Stage *rows* of a grid: the raw rows of ``cells`` (one list per precinct, one cell
    per choice; ``where(i, k)``: the file's row and the column of precinct ``i``'s cell of
    choice ``k``, as messages name them), precinct by precinct (``by_column``: choice by
    choice). An empty cell is no row (the contest was
    not on that precinct's ballot) unless ``blank_is_zero``; a cell that is no whole
    number is 0 and an error (``message(what, choice, precinct)``, else "The vote count
    '…' is not a whole number"; ``error`` gives an Excel error value the cell held, for
    an empty cell too), and a fraction or percentage is kept in ``fractional``. A cell
    marked suppressed (:func:`vocab.is_suppressed`) is no row and marks its contest
    suppressed: ``suppress`` "cell" for that cell alone, "contest" for every cell of the
    contest in that row where none of them holds a count (beside counts, for that cell
    alone; ``hide``: each is a hidden cell of the contest). A precinct whose
    cells of a contest all say it is not on the ballot (:data:`vocab.NOT_ON_BALLOT`, '-',
    'n/a'; or are empty) has no rows of it, as empty cells (kept in ``off_ballot``, for
    :meth:`Counted.note_off_ballot`); a '-' beside counts of the contest stays an error:
    what it stands for is not certain there."""
    got = Counted()
    groups: dict[ContestTuple, list[int]] = {}
    for k, ch in enumerate(choices):
        if ch[0] and vocab.is_non_contest_office(ch[0]):
            # ('Straight Party': tallies of straight-ticket votes by party, no race; every
            # other reader leaves them out by the same words)
            if ch[0] not in got.not_contests:
                got.not_contests.append(ch[0])
            continue
        groups.setdefault((ch[0], ch[1], ch[2]), []).append(k)
    order: Iterable[tuple[int, ContestTuple, list[int]]]
    if by_column:
        order = ((i, (ch[0], ch[1], ch[2]), [k]) for k, ch in enumerate(choices)
                 if (ch[0], ch[1], ch[2]) in groups for i in range(len(cells)))
    else:
        order = ((i, key, ks) for i in range(len(cells)) for key, ks in groups.items())
    sums = got.sums = [0] * len(cells)
    out = got.rows
    marked = vocab.is_suppressed
    ints: dict[str, int | None] = {}  # a grid repeats a few hundred counts
    dashes = vocab.NOT_ON_BALLOT
    off: set[tuple[int, ContestTuple]] = set()  # (precinct, contest) not on its ballot
    for i, key, ks in order:
        r, p = cells[i], precincts[i]
        if (i, key) in off:
            continue
        if any(r[k].strip() in dashes for k in ks) and \
                all(_off_ballot(r[k], blank_is_zero) and (error is None or error(i, k) is None)
                    for k in groups[key]):
            off.add((i, key))
            got.off_ballot.append((key[0], p, where(i, ks[0])[0]))
            continue
        if suppress == "contest" and any(marked(r[k]) for k in ks) and \
                not any(to_int(r[k]) is not None for k in ks):
            got.suppressed.add(key)
            if hide:  # every count of this precinct's contest is hidden
                for k in ks:
                    got.hidden.setdefault(key, {}).setdefault(choices[k][3], []).append(p)
            got.suppressed_rows[key] = got.suppressed_rows.get(key, 0) + 1
            got.suppressed_cells += 1
            continue
        for k in ks:
            text = r[k]
            err = error(i, k) if error is not None else None
            if not text and err is None and not blank_is_zero:
                continue  # not on this precinct's ballot
            if suppress and marked(text):
                # (under "contest", a mark beside counts of the contest hides its own cell
                # only: the counts beside it are the precinct's)
                got.suppressed.add(key)
                got.suppressed_cells += 1
                if hide:
                    got.hidden.setdefault(key, {}).setdefault(choices[k][3], []).append(p)
                continue
            v = ints.get(text, -1)
            if v == -1:
                v = ints[text] = to_int(text)
            if v is None:
                v = 0
                if number_like(text):
                    f = (*key, choices[k][3])
                    got.fractional[f] = got.fractional.get(f, 0) + 1
                if text.strip() or err:
                    what = (repr(text) if not err else
                            f"a formula with no value ({err}: never calculated; save the file "
                            "in Excel or LibreOffice)" if err.startswith("=") else
                            f"Excel error value {err}")
                    tally.wrong(message(what, choices[k][3], p) if message is not None else
                                f"The vote count {what} is not a whole number; it is read as 0.",
                                row=where(i, k)[0], column=where(i, k)[1])
            sums[i] += v
            ch = choices[k]
            if ch[5] == VOID_WRITE_IN:  # (for no candidate: only summed, for the note)
                got.void += v
                got.void_name = got.void_name or ch[3]
            elif ch[5]:
                out.append((p, ch[0], ch[1], ch[2], ch[3], ch[4], ch[5], v))
    return got


def some(log: IssueLog, items: Sequence[T], say: Callable[[T], object], more: str,
         cap: int = 5) -> None:
    """Stage *rows*: a problem said of each of the first ``cap`` of ``items`` (``say``),
    then "… N more <more>." as one warning."""
    for x in items[:cap]:
        say(x)
    if len(items) > cap:
        log.warn(f"… {len(items) - cap} more {more}.")


def number_like(text: str) -> bool:
    """Whether a cell holds a number of any kind ('0.87', '87%', '1,075.5')."""
    t = text.replace(",", "").replace("%", "").strip()
    try:
        float(t)
    except ValueError:
        return False
    return True

def merge(result: RawCanvass, more: RawCanvass, *, same_precincts: bool = False) -> None:
    """Stage *rows*: the reading of another page or sheet joined to ``result`` (its rows,
    totals, seats and issues after the others'; ballots added — or, where ``more`` is other
    contests of the same precincts (a sheet a contest), kept as first given; where things
    are, first seen kept)."""
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
        result.ballots[p] = (result.ballots.setdefault(p, b) if same_precincts
                             else result.ballots.get(p, 0) + b)
        result.ballots_rows.setdefault(p, more.ballots_rows.get(p, 0))
    if more.ballots_total is not None and not (same_precincts and
                                               result.ballots_total is not None):
        result.ballots_total = more.ballots_total
    for k, n in more.fractional.items():
        result.fractional[k] = result.fractional.get(k, 0) + n
    result.doubts.extend(more.doubts)
    if result.primary is None:
        result.primary = more.primary


class Book:
    """Stage *rows* of a workbook of one contest per sheet (the Salt Lake SOVC, Clarity):
    what the sheets read add up to (raw rows, issues, seats, totals, suppressed contests,
    whether a contest has a party), made one reading by :meth:`raw`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rows: list[RawRow] = []
        self.log = IssueLog(name)
        self.tally = Tally(self.log)
        self.seats: dict[ContestTuple, int] = {}
        self.file_totals: dict[ContestTuple, dict[str, int]] = {}
        self.suppressed: set[ContestTuple] = set()
        self.contests = 0
        self.any_party = False

    def raw(self, family: str, said: str, frame: pd.DataFrame | None = None, **more: Any
            ) -> RawCanvass:
        """The reading: its raw rows (``frame``, else :func:`stages.frame` of them), a
        primary where a contest has a party or ``said`` (the file's or the election's
        name) says primary."""
        return RawCanvass(self.name, family, frame if frame is not None else
                          raw_rows(self.rows), self.log.issues, self.seats, self.file_totals,
                          self.suppressed, primary_of(said, self.any_party), **more)


# --- A choice's party beside its name (choice_party) ------------------------------------

# The party after a name, set off by a dash ('Mike Lee - Republican', 'Lee, Mike - R') or
# in brackets ('Mike Lee (Republican)').
_DASH_PARTY = re.compile(r"\s[-\u2013\u2014]\s*([^-\u2013\u2014()]+?)\s*$")
_BRACKET_PARTY = re.compile(r"\s*\(\s*([^()]+?)\s*\)\s*$")
# Letters in brackets that are a party ('(R)'; not '(I)', which marks an incumbent).
_BRACKET_LETTERS = frozenset({"R", "D", "L"})
# Party codes that are no one's name, as a name's last word in capitals ('Mike Lee REP').
_NAME_CODES = frozenset({"REP", "DEM", "LIB", "CON", "IAP", "UNA", "GRN", "UUP", "IND",
                         "UTJ", "UPP", "GOP", "NPA", "NP", "NON"})
# Party words that are no one's name ('Green' is a surname: 'Evan Green').
_NAME_WORDS = frozenset({"republican", "democrat", "democratic", "libertarian",
                         "constitution", "unaffiliated", "independent", "nonpartisan",
                         "non-partisan"})
# A person's whole name: two words or more of letters ('Mike Lee', 'Lee, Mike', 'J. R. Doe').
_PERSON = re.compile(r"^[^\W\d_][\w.'\u2019-]*,?(\s+[^\W\d_][\w.'\u2019-]*,?){1,4}$")
_PARTY_WORD = re.compile(r"\s+party$", re.IGNORECASE)


def _party_named(words: Sequence[str]) -> str | None:
    """The code of the party ``words`` name ('Republican', 'R', 'United Utah', 'Green
    Party'; "" for 'Nonpartisan'), None where they name none."""
    text = _PARTY_WORD.sub("", " ".join(words))
    return vocab.party_of(text) if text.strip() else None


def _sure_party(words: Sequence[str]) -> str | None:
    """The party ``words`` name where they cannot be a part of a person's name: a party's
    name of two words or more ('United Utah', 'Republican Party'), a party code in capitals
    ('REP'), a party's word that is no one's name ('Republican'; not 'Green')."""
    code = _party_named(words)
    if code is None:
        return None
    if len(words) >= 2 or words[0] in _NAME_CODES or words[0].casefold() in _NAME_WORDS:
        return code
    return None


def _whole_person(text: str) -> bool:
    """Whether ``text`` is a person's whole name, two words or more, and no office's."""
    t = text.strip()
    return bool(_PERSON.match(t)) and vocab.choice_kind(t) == "candidate" and \
        not vocab.CONTEST_WORD.search(t)


def _party_after(name: str) -> tuple[str, str | None]:
    """``name`` without a party written after it (choice_party's), and that party's code;
    the name and None where none is."""
    for pattern in (_DASH_PARTY, _BRACKET_PARTY):
        m = pattern.search(name)
        if m is None or not name[:m.start()].strip():
            continue
        inside = m.group(1)
        if pattern is _BRACKET_PARTY and len(inside.strip(".")) == 1 and \
                inside.strip(".").upper() not in _BRACKET_LETTERS:
            continue
        code = _party_named(inside.split())
        if code is not None:
            return name[:m.start()], code
    words = name.split()
    for n in (3, 2, 1):
        rest = " ".join(words[:-n])
        if len(words) <= n or not rest.strip():
            continue
        code = _sure_party(words[-n:])
        if code is None:
            continue
        if n >= 2 or words[-1] in _NAME_CODES or _whole_person(rest):
            return rest, code
    return name, None


def _party_before(name: str) -> tuple[str, str | None]:
    """``name`` without a party's word before it ('Republican Mike Lee'), the rest a whole
    name of two words or more, and that party's code; the name and None where none is."""
    words = name.split()
    for n in (3, 2, 1):
        rest = " ".join(words[n:])
        if len(words) <= n:
            continue
        code = _sure_party(words[:n])
        if code is not None and _whole_person(rest):
            return rest, code
    return name, None


def ends_with_party(name: str) -> bool:
    """Whether ``name`` ends with the party of the choice it names, as :func:`choice_party`
    reads it ('Mike Lee (REP)', 'Mike Lee - R', 'Mike Lee Republican'): a name that goes on
    no further."""
    m = _NAME_PARTY.search(name)
    return bool(m and m.start() > 0) or _party_after(name)[1] is not None
