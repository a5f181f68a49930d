"""County workbooks with contests stacked down one sheet, each a small table of its own.

Some counties paste one table per contest, one under another, on a single sheet::

      Wayne County 2020 General Election
      President
      Precinct        Brock Pierce   Joseph R. Biden   …   Total
      Fremont         0              18                    …
      Loa             0              35
      Total           2              365
      (blank row)
      U.S. House District 2
      Precinct        Kael Weston    Chris Stewart     …
      Fremont         16             123
      …

What the family shares, and what this reader takes from it:

* a contest is a **title row** (a label and nothing else), optionally a ``Vote for N`` row,
  then a **header row** whose first cell says ``Precinct`` and whose other cells name the
  choices (a ``Total`` column is the precinct's sum, a ``%`` column a share: neither is a
  choice), perhaps a row of the choices' parties, then one row per precinct, and perhaps a
  ``Total`` row (the file's own totals);
* the same precincts down the tables, most of each table's in other tables too (a
  district's race lists some of them): this is what tells the layout from a sideways
  sheet, whose header rows name precincts and whose rows are choices (read sideways, these
  tables made every candidate a precinct and every precinct a candidate);
* the title rows above the first contest name the election.

Two tables at least, each with a title: a sheet holding one table is a hand-built workbook's
(:mod:`.handbuilt`). A table with no title above its header is refused, naming its row. A
table whose header band holds more than its one title and its header (a row of text over
the choices' columns above the header or under it, other than a party row: contests' titles
each over its first candidate, names under a header of contests) is no table of this
layout: its choices are in several contests, and the sheet is left to the hand-built reader
(read so, a section's heading, 'Federal and State Races', was one contest of every
candidate under it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from recount_desk.core.model import Issue, Severity

from . import grid, vocab
from ._workbook_checks import excel_error_cells
from .base import Detection, RawCanvass, ReadOptions, fail
from .pipeline import IssueLog
from .stages import detector, frame, sheets, to_int
from .tabular import col_letter, sniff

FAMILY = "stacked"
LABEL = "County workbook with contests stacked down one sheet, a table each"
MAX_CONFIDENCE = 80

_PRECINCT_HEAD = re.compile(r"^(precincts?|precinct\s+name|voting\s+precinct|pct)\s*:?$",
                            re.IGNORECASE)
_clean = grid.clean


@dataclass
class _Table:
    title: str
    title_row: int                  # 0-based; -1 where no title stands above it
    header_row: int
    label_col: int                  # the column of the precinct names
    choices: dict[int, str]         # column -> the choice it names
    seats: int | None = None
    precincts: list[int] = field(default_factory=list)   # rows
    parties: dict[int, str] = field(default_factory=dict)  # column -> party (a party row)
    totals: list[int] = field(default_factory=list)      # rows of the file's own totals


def _header(row: list[str]) -> tuple[int, dict[int, str]] | None:
    """A table's header row: 'Precinct' first (its column), then the choices' names (sums
    and shares left out); None if it is not one."""
    cells = [(j, _clean(c)) for j, c in enumerate(row) if c.strip()]
    if len(cells) < 2 or not _PRECINCT_HEAD.match(cells[0][1]):
        return None
    if any(to_int(c) is not None for _, c in cells[1:]):
        return None
    return cells[0][0], {j: c for j, c in cells[1:] if not vocab.TOTAL_MODE.match(c)
                         and not vocab.is_total_precinct(c) and not vocab.PERCENT_HEAD.match(c)
                         and not vocab.STATISTIC.match(c) and not vocab.PERCENT.search(c)}


def _tables(rows: list[list[str]], one: bool = False
            ) -> tuple[list[_Table], list[str]] | None:
    """The tables of a sheet and the title rows above the first; None unless there are two
    or more, most of each one's precincts in other tables too (``one``: exactly one, with
    its title, for a workbook of a table a sheet, whose sheets are compared by
    :func:`_one_a_sheet`)."""
    tables: list[_Table] = []
    above: list[tuple[int, str, int]] = []   # label-only rows since the last table (column)
    seats: int | None = None
    t: _Table | None = None
    head: list[str] = []
    band: list[tuple[int, set[int]]] = []   # rows of text in columns since the last title
    for i, r in enumerate(rows):
        texts = [(j, _clean(c)) for j, c in enumerate(r) if c.strip()]
        if not texts:
            if t is not None and (t.precincts or t.totals):
                t = None   # (a blank row ends a table; one under its header, a party row
            continue       # left blank for a nonpartisan race, does not)
        found = _header(r)
        if found is not None:
            if any(cols & found[1].keys() for _, cols in band):
                # A row of text over the choices' columns between the title and the header
                # (contests' titles, each over its first candidate): a hand-built sheet's
                # header band, its choices in several contests (read as this layout, they
                # were one contest under the title, a section's heading).
                return None
            if len(above) >= 2 and vocab.TITLE_GOES_ON.match(above[-1][1]) and \
                    above[-2][0] == above[-1][0] - 1 and above[-2][2] == above[-1][2]:
                # A title wrapped onto two rows ('U.S. House' / 'District 2'): one title.
                (r1, t1, c1), (_r2, t2, _c2) = above[-2:]
                above[-2:] = [(r1, f"{t1} {t2}", c1)]
            title_row, title, at = above[-1] if above else (-1, "", found[0])
            if at != found[0]:
                # A title over the choices' columns, not in the precincts' column: a
                # hand-built sheet's contest band (the hand-built reader's), not this layout.
                return None
            if not tables:
                head = [x for _, x, _ in above[:-1]]
            t = _Table(title, title_row, i, found[0], found[1], seats)
            tables.append(t)
            above, seats, band = [], None, []
            continue
        label = texts[0][1]
        if t is not None and not t.precincts and all(j in t.choices for j, _c in texts) \
                and vocab.party_row([c for _j, c in texts]):
            t.parties = {j: vocab.party_of(c) or "" for j, c in texts}   # a party row
            continue
        if t is not None:
            # (a precinct's row by the cell under 'Precinct': one left blank is a precinct
            # with no name, which the pipeline refuses where it holds the others' sum)
            counted = [c for j, c in texts if j != t.label_col
                       and (to_int(c) is not None or vocab.is_suppressed(c)
                            or c in vocab.NOT_ON_BALLOT)]  # ('-': not on its ballot)
            if counted:
                name = _label(r, t.label_col)
                (t.totals if vocab.is_total_precinct(name) else t.precincts).append(i)
                continue
        counted = [c for j, c in texts[1:] if to_int(c) is not None or vocab.is_suppressed(c)]
        if len(texts) == 1 or all(vocab.seats_in(c) is not None for _, c in texts[1:]):
            t = None
            n = vocab.seats_in(" ".join(c for _, c in texts))
            if vocab.VOTE_FOR_ROW.match(label):
                seats = n
            else:
                above.append((i, label, texts[0][0]))
                band = []
                seats = n if vocab.seats_in(label) is None else None
            continue
        if counted:
            return None   # counts outside any table: not this layout
        if t is not None and not t.precincts and {j for j, _ in texts} & t.choices.keys():
            # A row of text under the header, over its choices' columns, that is no party
            # row (the candidates' names under the contests' titles, or their votes by how
            # they were cast): a header band of several rows, not this layout's one header.
            return None
        band.append((i, {j for j, _ in texts}))
    if one:
        return (tables, head) if len(tables) == 1 and tables[0].precincts and \
            tables[0].title else None
    if len(tables) < 2 or any(not x.precincts for x in tables):
        return None
    # Most of each table's precincts are other tables' too (a district's race lists some of
    # the county's precincts); read sideways, each 'precinct' would be one contest's choice.
    if not _mostly_shared([{_label(rows[i], x.label_col) for i in x.precincts}
                           for x in tables]):
        return None
    return tables, head


def _mostly_shared(names: list[set[str]]) -> bool:
    """Whether most of each table's precincts are in another table too."""
    for k, mine in enumerate(names):
        others = set().union(*(n for j, n in enumerate(names) if j != k))
        if 2 * len(mine & others) < len(mine):
            return False
    return True


def _label(row: list[str], col: int) -> str:
    return _clean(row[col]) if col < len(row) else ""


def tables_in(rows: list[list[str]]) -> bool:
    """Whether a sheet's rows are this layout (for the sideways reader, which must not read
    them: its header rows would be these tables' choices)."""
    return _tables(rows) is not None


@detector(*grid.SPREADSHEETS)
def detect(path: Path, kind: str) -> Detection | None:
    head = list(sheets(path, kind, limit=4, nrows=_HEAD_ROWS))
    for sheet, rows in head:
        found = _tables(rows)
        if found is None and len(rows) >= _HEAD_ROWS and _titled_table_first(rows):
            # (a county of 400 precincts and more: its first table fills the head, and the
            # second, which tells this layout from a hand-built sheet, is further down)
            found = next((_tables(whole) for _s, whole in sheets(
                path, kind, names=[sheet] if sheet else None)), None)
        if found is None:
            continue
        tables = found[0]
        where = f"sheet {sheet!r}, " if sheet else ""
        return Detection(FAMILY, LABEL, MAX_CONFIDENCE,
                         f"{where}{len(tables)} tables stacked down, each a contest's title, a "
                         f"'Precinct' header row and {len(tables[0].precincts)} precinct "
                         f"rows ({', '.join(x.title or '?' for x in tables[:3])}, …)")
    if kind != "csv":
        book = _one_a_sheet(head)
        if book is not None:
            return Detection(FAMILY, LABEL, _ONE_A_SHEET_CONFIDENCE,
                             f"a table a sheet, each a contest's title, a 'Precinct' header "
                             f"row and its precincts ({', '.join(repr(s) for s, *_ in book[:3])}"
                             ", …)")
    return None


# A workbook of a table a sheet is less sure than tables stacked down one sheet: each sheet
# alone is any one-table sheet.
_ONE_A_SHEET_CONFIDENCE = 70


def _one_a_sheet(found: list[tuple[str, list[list[str]]]]
                 ) -> list[tuple[str, list[list[str]], tuple[list[_Table], list[str]]]] | None:
    """The sheets of a workbook of one contest a sheet ('U.S. Senate', 'County Sheriff' …,
    each one titled table of this layout), or None: two sheets at least, every sheet with a
    'Precinct' header such a table, the same title rows above each, and most of each sheet's
    precincts on other sheets too (one election's contests, not several elections)."""
    book = []
    for sheet, rows in found:
        if not any(_header(r) for r in rows):
            continue   # (no table: a title page, a sheet of notes or ballot statistics)
        got = _tables(rows, one=True)
        if got is None:
            return None
        book.append((sheet, rows, got))
    if len(book) < 2 or len({tuple(head) for *_, (_t, head) in book}) > 1:
        return None
    if not _mostly_shared([{_label(rows[i], ts[0].label_col) for i in ts[0].precincts}
                           for _s, rows, (ts, _h) in book]):
        return None
    return book


_HEAD_ROWS = 400


def _titled_table_first(rows: list[list[str]]) -> bool:
    """Whether the first table header of ``rows`` ('Precinct' and the choices) has a row
    of one label above it in its own column (a contest's title), as this layout's do."""
    for i, r in enumerate(rows):
        found = _header(r)
        if found is None:
            continue
        above = grid.row_above(rows, i)
        if above is None:
            return False
        texts = [j for j, c in enumerate(above) if c.strip()]
        return texts == [found[0]]
    return False


def read(path: Path, options: ReadOptions | None = None) -> RawCanvass:
    options = options or ReadOptions()
    kind, _all, names = grid.open_sheets(path, options.sheet)
    readable: list[tuple[str, list[list[str]], tuple[list[_Table], list[str]]]] = []
    every: list[tuple[str, list[list[str]]]] = []
    for sheet, rows in sheets(path, kind, names=names, options=options):
        every.append((sheet, rows))
        found = _tables(rows)
        if found is not None:
            readable.append((sheet, rows, found))
    if not readable and kind != "csv":
        book = _one_a_sheet(every) if options.sheet is None else \
            [(s, r, got) for s, r in every if (got := _tables(r, one=True)) is not None]
        if book:
            result = _read_book(path, book)
            rest = [s for s, _r in every if s not in {b[0] for b in book}]
            if rest and options.sheet is None:
                result.issues.append(Issue(
                    path.name, "Sheet(s) " + ", ".join(repr(s) for s in rest) + " hold no "
                    "table of precincts and were not read.", result.sheet,
                    severity=Severity.NOTE))
            return result
    if not readable:
        raise fail(path, "No sheet holds two tables or more stacked down, each a contest's "
                   "title, a 'Precinct' header row and a row per precinct, nor is each sheet "
                   "one such table under the same title rows (a contest a sheet).",
                   sheet=options.sheet)
    sheet, rows, (tables, head) = readable[0]
    result = _read_sheet(path, sheet, rows, tables, head)
    if options.sheet is None:
        grid.other_sheets(result.issues, path.name, result.sheet, [s for s, _, _ in readable[1:]])
    return result


def _read_book(path: Path, book: list[tuple[str, list[list[str]],
                                            tuple[list[_Table], list[str]]]]) -> RawCanvass:
    """A workbook of one contest a sheet (:func:`_one_a_sheet`), read as one election; one
    contest on two sheets is refused, naming them."""
    first: dict[str, str] = {}
    for sheet, _rows, (tables, _head) in book:
        title = grid.split_title(tables[0].title)[0]
        if title in first:
            raise fail(path, f"The contest {title!r} is on two sheets, {first[title]!r} and "
                       f"{sheet!r}: give each contest one sheet, and import again.",
                       sheet=sheet, row=tables[0].title_row + 1)
        first[title] = sheet
    result = _read_sheet(path, *book[0][0:2], *book[0][2])
    for sheet, rows, (tables, head) in book[1:]:
        grid.merge(result, _read_sheet(path, sheet, rows, tables, head), same_precincts=True)
    if len(book) > 1:
        result.issues.insert(0, Issue(
            path.name, f"Sheets {', '.join(repr(s) for s, *_ in book[:4])}"
            + (f" and {len(book) - 4} more" if len(book) > 4 else "") + " are read as one "
            "election, a contest a sheet: each sheet one titled table of the precincts, under "
            "the same title rows.", book[0][0], severity=Severity.NOTE))
    return result


def _read_sheet(path: Path, sheet: str, rows: list[list[str]], tables: list[_Table],
                head: list[str]) -> RawCanvass:
    untitled = next((x for x in tables if not x.title), None)
    if untitled is not None:
        raise fail(path, f"The table whose header is row {untitled.header_row + 1} has no "
                   "contest title above it: type the contest's title in the row above its "
                   "header, and import again.", sheet=sheet or None,
                   row=untitled.header_row + 1, column=col_letter(untitled.label_col))
    log = IssueLog(path.name, sheet or None)
    tally = grid.Tally(log)
    errors = excel_error_cells(path, sheet) if sniff(path) == "xlsx" else {}
    got = grid.Counted()
    file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
    seats: dict[tuple[str, str, str], int] = {}
    seen: dict[tuple[str, str, str], int] = {}   # contest -> its title's row
    for t in tables:
        title, party, seats_in_title = grid.split_title(t.title)
        key = (title, "", party)
        if key in seen:
            raise fail(path, f"The contest title {title!r} heads two tables (rows "
                       f"{seen[key] + 1} and {t.title_row + 1}): give each contest its own "
                       "title, and import again.", sheet=sheet or None, row=t.title_row + 1,
                       column=col_letter(t.label_col))
        seen[key] = t.title_row
        if t.seats or seats_in_title:
            seats[key] = t.seats or seats_in_title or 1
        choices: list[grid.Choice] = []
        cols: list[int] = []
        kinds = grid.settle_write_in_totals([(0, grid.choice_kind(n))
                                             for n in t.choices.values()])
        for (j, name), k in zip(t.choices.items(), kinds, strict=True):
            if k is None:
                continue
            choice, chparty = grid.choice_party(name)
            choices.append((title, "", party, choice, "" if k in ("over", "under", "blank")
                            else t.parties.get(j) or chparty, k))
            cols.append(j)
        for i in t.totals:
            tot = file_totals.setdefault(key, {})
            for ch, j in zip(choices, cols, strict=True):
                v = to_int(rows[i][j]) if j < len(rows[i]) else None
                if v is not None:
                    tot[ch[3]] = tot.get(ch[3], 0) + v
        cells, where, error = grid.block_cells(rows, t.precincts, cols, errors,
                                               precincts_across=False)
        got.add(grid.count(
            cells, choices, [_label(rows[i], t.label_col) for i in t.precincts], where, tally,
            suppress="cell",
            message=lambda what, ch, p: (f"The vote count for {ch!r} in precinct {p!r} is "
                                         f"{what}, not a whole number; it is read as 0."),
            error=error))
    got.note_left_out(log)
    tally.close()
    if got.suppressed_cells:
        log.note(f"{got.suppressed_cells} precinct count(s) are suppressed for voter privacy; "
                 "the file's totals are used for those contests.")
    primary = grid.primary_of(" ".join(head), any(r[3] for r in got.rows))
    return RawCanvass(log.file, FAMILY, frame(got.rows), log.close(), seats, file_totals,
                      got.suppressed, primary, election_name=head[0] if head else None,
                      sheet=log.sheet)
