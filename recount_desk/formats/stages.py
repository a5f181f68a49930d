"""The shared work of the families' ``locate``/``map`` stages, so that a family module holds
only what is its own (its detection and its layout's specifics).

In the order of the pipeline's stages:

- **detect**: :func:`detector` (the frame of a family's ``detect``: the kinds of file it
  looks at, and a file of another family or a damaged one claimed by none);
  :func:`staged_read` (a staged family's ``read``);
- **sheet**: :func:`head_rows` (the first rows of a file or sheet, read once for every
  family's ``detect``), :func:`pick_sheet` (the sheet the officer chose, else the first
  whose head a family accepts);
- **header band**: :func:`header_at` (the first row of the head that a family's test
  accepts), :func:`blank_lead` and :func:`csv_lead` (the blank lines above a file's first
  line of text), :func:`lead_note`;
- **grid**: :func:`grid` (a file's or sheet's cells as a frame of text),
  :func:`by_value` (a test or a cleaning done once per distinct cell, not once per row),
  :func:`whole_cells` (the one test of a count cell, once per distinct cell, that the
  families' checks of counts share), :func:`counts` (a block of cells to whole counts,
  every bad cell named);
- **contests**: :func:`stated_seats` (the seats a file states, refused where it says two
  things), :func:`primary_in_name`;
- **rows**: :func:`raw_frame` (the raw rows as the pipeline's build stage wants them).

What the grid layouts share beyond these (header bands of several rows, a grid's cells to
raw rows with suppressed and bad cells, a workbook of one contest per sheet) is in
:mod:`.grid`.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Callable, Container, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .base import (
    NOT_OURS,
    RAW_COLUMNS,
    Cancelled,
    CodedRows,
    ContestTuple,
    Detection,
    RawCanvass,
    ReadOptions,
    fail,
)
from .tabular import (
    cell_text,
    col_letter,
    read_csv_rows,
    read_sheet_raw,
    read_sheet_text,
    sheet_names,
    split_csv_text,
)

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from .pipeline import IssueLog

T = TypeVar("T")

Detect = Callable[[Path, str], "Detection | None"]


def detector(*kinds: str) -> Callable[[Detect], Detect]:
    """Stage *detect*, the frame of every family's ``detect(path, kind)``: it claims nothing
    for a file of another kind than ``kinds`` (any kind where none is given), nor where
    the file raises what a file of another family or a damaged one raises
    (:data:`~.base.NOT_OURS`); anything else it raises is a bug, and is raised."""
    def frame(look: Detect) -> Detect:
        @functools.wraps(look)
        def detect(path: Path, kind: str) -> Detection | None:
            if kinds and kind not in kinds:
                return None
            try:
                return look(path, kind)
            except NOT_OURS:  # a file of another family, or damaged
                return None
        return detect
    return frame


class Reader(Protocol):
    """A family's ``read``."""

    def __call__(self, path: Path, options: ReadOptions | None = None) -> RawCanvass: ...


def staged_read(locate: Callable[[Any, ReadOptions], T],
                map: Callable[[T, ReadOptions], RawCanvass]) -> Reader:
    """A staged family's ``read(path, options)``: its ``locate`` then its ``map`` on the
    opened file, as the pipeline runs them (:func:`~.pipeline.read_raw`)."""
    def read(path: Path, options: ReadOptions | None = None) -> RawCanvass:
        """Read the file into raw rows (the family's ``locate``, then its ``map``)."""
        from .pipeline import open_source

        options = options or ReadOptions()
        return map(locate(open_source(path), options), options)
    return read


_HEAD_BYTES = 1 << 16
# (device, inode, mtime, size) -> (rows of the file's first 64 KB, whether it is longer)
_CSV_HEAD: dict[tuple[int, int, int, int], tuple[list[list[str]], bool]] = {}


# The key of a file while one detection round looks at it (:func:`one_look`).
_PINNED: dict[Path, tuple[int, int, int, int]] = {}


@contextmanager
def one_look(path: Path) -> Iterator[None]:
    """While every family's ``detect`` looks at ``path``: its head is found by the file's
    identity asked once, not once per family (a stat costs as much as a family's look)."""
    try:
        st = path.stat()
    except (OSError, ValueError):
        yield  # (each look then fails, or not, as it would have)
        return
    _PINNED[path] = (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)
    try:
        yield
    finally:
        _PINNED.pop(path, None)


def _csv_head(path: Path) -> tuple[list[list[str]], bool]:
    key = _PINNED.get(path)
    if key is None:
        st = path.stat()
        # The file itself, however it is named (resolving the path cost more than the
        # look-up).
        key = (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)
    got = _CSV_HEAD.get(key)
    if got is None:
        with open(path, "rb") as f:
            data = f.read(_HEAD_BYTES + 1)
        cut = len(data) > _HEAD_BYTES
        data = data[:_HEAD_BYTES]
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            if cut and e.start >= len(data) - 4:  # only a character cut at 64 KB
                text = data[:e.start].decode("utf-8-sig")
            else:
                text = data.decode("cp1252", errors="replace")
        got_rows = split_csv_text(text)
        rows = got_rows if got_rows is not None else list(
            csv.reader(io.StringIO(text, newline="")))
        if cut and rows:
            rows.pop()  # the last row may be cut short
        _CSV_HEAD.clear()
        _CSV_HEAD[key] = got = (rows, cut)
    return got


def head_rows(path: Path, kind: str, sheet: str | int | None = None, nrows: int = 10
              ) -> list[list[str]]:
    """The first ``nrows`` rows of a CSV (cells as written, ragged rows as they are) or of
    a workbook's sheet (cells as text), for a family's ``detect``: a CSV's head is read
    once for every family (a 600-column export costs pandas 50 ms per look)."""
    if kind == "csv":
        rows, _ = _csv_head(path)
        return rows[:nrows]
    return read_sheet_text(path, sheet if sheet is not None else 0, nrows=nrows)


def blank_lead(rows: Sequence[Sequence[str]]) -> int:
    """Stage *sheet*: how many blank lines come before a file's first line of text (a CSV
    re-saved with an empty first line), so that a family finds its header below them and
    still names the file's real rows."""
    return next((i for i, r in enumerate(rows) if any(str(c).strip() for c in r)), len(rows))


def csv_lead(path: Path) -> int:
    """Stage *sheet*: :func:`blank_lead` of a CSV (from its head, read once for every
    detector)."""
    return blank_lead(_csv_head(path)[0])


def lead_note(log: IssueLog, top: int) -> None:
    """The note that a file's first ``top`` lines are blank and its header is below them."""
    if top:
        log.note(f"The file starts with {top} blank line(s); its header is read from row "
                 f"{top + 1}.", row=top + 1)


def header_at(rows: list[list[str]], test: Callable[[list[str]], bool],
              within: int = 10) -> int | None:
    """Stage *header band*: the first of the first ``within`` rows that ``test`` accepts."""
    return next((i for i, r in enumerate(rows[:within]) if test(r)), None)


def pick_sheet(path: Path, kind: str, chosen: str | None,
               accept: Callable[[list[list[str]]], bool], *, look: int = 6,
               nrows: int = 10) -> str | None:
    """Stage *sheet*: None for a CSV; the officer's sheet (refused, naming the sheets,
    where the workbook has none of that name); else the first of the first ``look``
    sheets whose head ``accept`` takes (a workbook may open on a cover sheet), or the
    first sheet."""
    if kind == "csv":
        return None
    names = sheet_names(path)
    if chosen is not None:
        if chosen not in names:
            raise fail(path, f"The workbook has no sheet {chosen!r}; its sheets are "
                       + ", ".join(repr(n) for n in names) + ".")
        return chosen
    for name in names[:look]:
        if accept(read_sheet_text(path, name, nrows=nrows)):
            return name
    return names[0] if names else None


def grid(path: Path, kind: str, sheet: str | None, log: IssueLog) -> pd.DataFrame:
    """Stage *grid*: every row of a CSV or of a workbook's sheet as a frame of text cells,
    columns 0, 1, … (short rows padded with ""); a CSV that is not UTF-8 is read as
    Windows-1252 with a warning."""
    import pandas as pd

    from .tabular import read_csv_text

    if kind == "csv":
        top = csv_lead(path)  # (blank lines first: pandas takes the first for the width)
        df, note = read_csv_text(path, header=None, dtype=object, skiprows=top)
        if note:
            log.warn(note)
        if top:  # they stand as blank rows, so that the frame's rows are the file's
            lead_note(log, top)
            df = pd.concat([pd.DataFrame("", index=range(top), columns=df.columns,
                                         dtype=object), df], ignore_index=True)
        return df  # (a short row's missing fields are NaN: :func:`coded` reads them as "")
    rows = read_sheet_text(path, sheet if sheet is not None else 0)
    width = max((len(r) for r in rows), default=0)
    return pd.DataFrame([r + [""] * (width - len(r)) for r in rows], columns=range(width),
                        dtype=object)


def coded(values: pd.Series | np.ndarray) -> tuple[np.ndarray, list[Any]]:
    """A column as codes into its distinct cells, in order of first appearance."""
    import numpy as np
    import pandas as pd

    codes, uniques = pd.factorize(np.asarray(values, dtype=object), use_na_sentinel=False)
    # An empty cell (a short row's missing field) is "".
    return codes, [u if isinstance(u, str) else "" if u is None or u != u else u
                   for u in uniques]


def by_value(values: pd.Series | np.ndarray, fn: Callable[[Any], T],
             dtype: Any = object) -> np.ndarray:
    """``fn`` of every cell, computed once per distinct cell (a canvass repeats a few
    thousand names over its rows): an array of ``dtype`` in the cells' order."""
    import numpy as np

    codes, uniques = coded(values)
    out: np.ndarray = np.empty(len(uniques), dtype=dtype)
    out[:] = [fn(u) for u in uniques]
    picked: np.ndarray = out[codes]
    return picked


def squash(values: pd.Series | np.ndarray) -> np.ndarray:
    """Each cell with its runs of white space made one space, trimmed."""
    return by_value(values, _squashed_text)


def squashed(values: pd.Series | np.ndarray) -> tuple[np.ndarray, list[str]]:
    """:func:`squash` as codes into its distinct texts (in order of first appearance)."""
    import numpy as np

    codes, uniques = coded(values)
    index: dict[str, int] = {}
    remap = [index.setdefault(_squashed_text(u), len(index)) for u in uniques]
    return np.array(remap, dtype=np.intp)[codes], list(index)


def _squashed_text(cell: Any) -> str:
    return " ".join(str(cell).split())


# A count as a cell writes it: digits, perhaps grouped by thousands ("1,075"), perhaps
# with a zero fraction as a spreadsheet's number ("145.0"). Not "1_1" (a precinct's name,
# which Python's int reads as 11), "1,2", "1e3", "+5" or other scripts' digits.
_WHOLE = re.compile(r"\s*([0-9]+|[0-9]{1,3}(?:,[0-9]{3})+)(?:\.0*)?\s*")


def whole(text: Any) -> int | None:
    """A whole, non-negative count from a cell's text ("1,075", "145", "145.0"), or None."""
    m = _WHOLE.fullmatch(str(text))
    if m is None:
        return None
    v = int(m.group(1).replace(",", ""))
    return v if v < 2**63 else None


def all_match(lines: re.Pattern[str], texts: list[str]) -> bool:
    """Whether the ``texts``, one to a line, match ``lines`` (a pattern of lines of what
    each text must be): one scan for a test of every text (none may hold a line end)."""
    joined = "\n".join(texts)
    return joined.count("\n") == len(texts) - 1 and lines.fullmatch(joined) is not None


# Lines of plain counts, each of which :func:`whole` reads as ``int`` does (below 2**63).
_COUNT_LINES = re.compile(r"(?:[0-9]{1,18}\n)*[0-9]{1,18}")


def whole_cells(values: Sequence[Any] | np.ndarray, absent: Container[str] = ()
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Stage *grid*, the one test of a count cell that every family makes: ``(values,
    known, bad)`` of each cell (int64, 0 where no count; bool; bool), tested once per
    distinct cell (:func:`whole`). An empty cell, or one of ``absent`` ("-" for a contest
    not on a precinct's ballot), is neither known nor bad; a cell that holds anything else
    and no whole non-negative count is bad."""
    vals, known, bad, _ = whole_cells_absent(values, absent)
    return vals, known, bad


def whole_cells_absent(values: Sequence[Any] | np.ndarray, absent: Container[str]
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """:func:`whole_cells`, and how many of the cells are one of ``absent``."""
    import numpy as np

    codes, uniques = coded(values)
    # (cells of digits, as nearly every count is, read by int without whole's other tests)
    plain = all(type(u) is str for u in uniques) and all_match(_COUNT_LINES, uniques)
    ints = [None if u in absent else int(u) if plain else whole(u) for u in uniques]
    vals = np.array([v or 0 for v in ints], dtype=np.int64)[codes]
    known = np.array([v is not None for v in ints], dtype=bool)[codes]
    bad = np.array([v is None and u not in absent and bool(str(u).strip())
                    for v, u in zip(ints, uniques, strict=True)], dtype=bool)[codes]
    held = [k for k, u in enumerate(uniques) if u in absent]
    n_absent = int(np.bincount(codes, minlength=len(uniques))[held].sum()) if held else 0
    return vals, known, bad, n_absent


def counts(cells: pd.DataFrame, *, log: IssueLog, rows: np.ndarray,
           names: Sequence[str], check: np.ndarray | None = None, cap: int = 10,
           more: str = "counts are not whole numbers") -> tuple[np.ndarray, np.ndarray]:
    """Stage *grid*: a block of count cells (one column per count) as ``(values, known)``
    int64 and bool arrays, an empty or bad cell 0 and not known; a cell that is not a
    whole number is an error naming its row (``rows``: the file's 1-based row of each) and
    column (``names``), in reading order, ``cap`` of them and then how many more (only on
    rows where ``check`` is set)."""
    import numpy as np

    # Every cell of the block tested at once, column by column (the columns share most of
    # their distinct counts), then laid out as the block.
    flat = whole_cells(cells.to_numpy(dtype=object).ravel(order="F"))
    vals, known, bad = (a.reshape(len(cells.columns), len(cells)).T for a in flat)
    if check is not None:
        bad &= check[:, None]
    where = np.argwhere(bad)
    for ri, ci in where[:cap]:
        log.error(f"The count {cells.iat[ri, ci]!r} is not a whole number; it is read as 0.",
                  row=int(rows[ri]), column=names[ci])
    if len(where) > cap:
        log.error(f"… {len(where) - cap} more {more}.")
    return vals, known


def stated_seats(stated: dict[ContestTuple, set[int]], log: IssueLog, column: str
                 ) -> dict[ContestTuple, int]:
    """Stage *contests*: the seats each contest's rows state (``column`` names where);
    a contest whose rows say two things gets a warning and no seats."""
    seats: dict[ContestTuple, int] = {}
    for key, ns in stated.items():
        if len(ns) == 1:
            seats[key] = next(iter(ns))
        else:
            log.warn(f"{key[0]}: the {column} column says "
                     f"{' and '.join(str(n) for n in sorted(ns))} on different rows; set the "
                     "seats in the contest settings.")
    return seats


def cut_in_the_last_precinct(recs: Sequence[tuple[str, str, str]]) -> tuple[str, str] | None:
    """How a file listed precinct by precinct (``recs``: each candidate line's precinct,
    contest and choice, in the file's order) shows it was cut inside its last precinct:
    (that precinct, what it lists) when its last contest lists fewer candidates than every
    other precinct with that contest lists (three precincts or more, each the same), or its
    contests are the first of another precinct's, in the same order (a precinct of the same
    ballot), short of one that every other precinct has; else None. (A cut that falls
    between two precincts leaves nothing to see.)"""
    if not recs:
        return None
    last = recs[-1][0]
    k = len(recs)
    while k and recs[k - 1][0] == last:
        k -= 1
    if not k or any(r[0] == last for r in recs[:k]):
        return None   # (one precinct, or a file not in precinct order)
    listed: dict[str, dict[str, set[str]]] = {}
    for p, c, ch in recs:
        listed.setdefault(p, {}).setdefault(c, set()).add(ch)
    mine = listed[last]
    contest = recs[-1][1]
    others = [d[contest] for p, d in listed.items() if p != last and contest in d]
    if len(others) >= 3 and all(o == others[0] for o in others) and mine[contest] < others[0]:
        return last, (f"{len(mine[contest])} of the {len(others[0])} candidates of {contest!r} "
                      "that every other precinct lists")
    order = list(mine)
    longer = [list(d) for p, d in listed.items() if p != last and len(d) > len(order)
              and list(d)[:len(order)] == order]
    if len(listed) >= 3 and longer:
        every = set.intersection(*(set(d) for p, d in listed.items() if p != last))
        missing = [c for c in longer[0] if c in every and c not in mine]
        if missing:
            return last, (f"the first {len(order)} of the contests that precincts of its "
                          f"ballot list, not {missing[0]!r}, which every other precinct has")
    return None


def primary_in_name(text: str) -> bool | None:
    """True where a file's name (or title) says primary, False where it says general."""
    low = text.lower()
    return True if "primary" in low else (False if "general" in low else None)


def text_column(values: Any) -> pd.Categorical:
    """A raw text column as a categorical (codes into its distinct texts, in order of
    first appearance): what the build stage groups by is then integers, and pandas'
    own string type (slow to hash in pure Python) is never made."""
    import numpy as np
    import pandas as pd

    if isinstance(values, pd.Categorical):
        return values
    codes, uniques = pd.factorize(np.asarray(values, dtype=object), use_na_sentinel=False)
    return pd.Categorical.from_codes(codes, categories=pd.Index(uniques, dtype=object),
                                     validate=False)


def raw_frame(columns: dict[str, Any], *, row: Any = None) -> pd.DataFrame:
    """Stage *rows*: the raw-rows frame from one array of text (or one text for every
    row) per raw column and the votes, with the file's row of each where ``row`` is
    given."""
    import numpy as np
    import pandas as pd

    votes = np.asarray(columns["votes"], dtype=np.int64)
    df = pd.DataFrame({c: text_column(np.full(len(votes), v, dtype=object)
                                      if isinstance(v, str) else v)
                       for c in RAW_COLUMNS if c != "votes" for v in [columns[c]]}
                      | {"votes": votes})
    if row is not None:
        df["row"] = row
    return df


def coded_rows(columns: dict[str, Any]) -> CodedRows:
    """Stage *rows*: the raw rows :func:`raw_frame` makes of the same ``columns``, held as
    codes (each column's distinct texts in order of first appearance), without the file's
    rows: the build stage reads them without a frame. A column given as (codes, distinct
    texts) is taken as it stands."""
    import numpy as np
    import pandas as pd

    votes = np.asarray(columns["votes"], dtype=np.int64)
    coded: dict[str, tuple[np.ndarray, list[str]]] = {}
    for c in RAW_COLUMNS:
        if c == "votes":
            continue
        v = columns[c]
        if isinstance(v, str):
            coded[c] = (np.zeros(len(votes), dtype=np.intp), [v] if len(votes) else [])
        elif isinstance(v, tuple):  # codes into distinct texts already
            coded[c] = v
        else:
            codes, uniques = pd.factorize(np.asarray(v, dtype=object), use_na_sentinel=False)
            coded[c] = (codes, list(uniques))
    return CodedRows(coded, votes, np.zeros(0, dtype=np.int32), has_rows=False)


def column_name(header: Sequence[str], j: int) -> str:
    """A column as messages name it: its header text on one line, else its letter."""
    return " ".join(str(header[j]).split()) if j < len(header) and str(header[j]).strip() \
        else col_letter(j)


def melt(values: np.ndarray, present: np.ndarray, columns: Sequence[int] | np.ndarray,
         choices: Sequence[tuple[str, str, str, str, str, str]],
         precincts: Sequence[str]) -> pd.DataFrame:
    """Stage *rows* of a grid (one row per precinct, one column per choice): the raw rows
    of the grid's columns ``columns``, each standing for the choice ``(contest, district,
    party, choice, choice party, kind)`` beside it, one raw row per cell ``present``
    (column by column, precincts in order)."""
    import pandas as pd

    cols, votes = melt_codes(values, present, columns, choices, precincts)
    return raw_frame({**{n: pd.Categorical.from_codes(codes, validate=False,
                                                     categories=pd.Index(texts, dtype=object))
                         for n, (codes, texts) in cols.items()}, "votes": votes})


def melt_codes(values: np.ndarray, present: np.ndarray, columns: Sequence[int] | np.ndarray,
               choices: Sequence[tuple[str, str, str, str, str, str]],
               precincts: Sequence[str]
               ) -> tuple[dict[str, tuple[np.ndarray, list[str]]], np.ndarray]:
    """The rows :func:`melt` makes, as codes into each raw column's distinct texts, and
    their votes."""
    import numpy as np
    import pandas as pd

    ks = np.asarray(columns, dtype=np.intp)
    grid_t = present[:, ks].T  # one line per choice column
    col_i, prec_i = np.nonzero(grid_t)
    meta = np.empty((len(choices), 6), dtype=object)
    if len(choices):
        meta[:] = [list(c) for c in choices]

    def at(labels: Any, which: np.ndarray) -> tuple[np.ndarray, list[str]]:
        codes, uniques = pd.factorize(np.asarray(labels, dtype=object), use_na_sentinel=False)
        return codes[which], list(uniques)

    names = ("contest", "district", "party", "choice", "choice_party", "kind")
    return ({"precinct": at(precincts, prec_i),
             **{n: at(meta[:, j], col_i) for j, n in enumerate(names)}},
            values[:, ks].T[grid_t])


def sheet_table(path: Path, sheet: str | None) -> pd.DataFrame:
    """Stage *grid* of a table with a one-row header: a sheet as a frame of its raw cells
    (text conversion is left to be done per distinct value), with the first row as the
    column names ("column N" where blank)."""
    import numpy as np
    import pandas as pd

    from .tabular import cell_text, read_sheet_raw

    rows = read_sheet_raw(path, sheet if sheet is not None else 0)
    if not rows:
        raise fail(path, "The sheet is empty.", sheet=sheet)
    header = [cell_text(h) for h in rows[0]]
    width = len(header)
    body = rows[1:]
    names = [h or f"column {i + 1}" for i, h in enumerate(header)]
    if not body:
        return pd.DataFrame(columns=names, dtype=object)
    # One object matrix, then its columns: no per-row work and no type guessing.
    cells = np.empty((len(body), width), dtype=object)
    try:
        if len(body[0]) != width:  # (numpy would repeat a one-cell row across the width)
            raise ValueError
        cells[:] = body
    except ValueError:  # ragged rows (calamine gives even ones; a hand-made sheet may not)
        cells[:] = [(list(r) + [None] * (width - len(r)))[:width] for r in body]
    df = pd.DataFrame({i: np.ascontiguousarray(cells[:, i]) for i in range(width)},
                      copy=False)
    df.columns = pd.Index(names, dtype=object)
    return df


RawRow = tuple[str, str, str, str, str, str, str, int]


def iter_sheets(path: Path, names: list[str] | None = None, *,
                options: ReadOptions | None = None, nrows: int | None = None
                ) -> Iterator[tuple[str, list[list[str]]]]:
    """Stage *sheet*: (sheet name, rows of text cells) for each sheet (or each of
    ``names``), opening the workbook once. Progress is reported per sheet; a cancel raises
    :class:`Cancelled`."""
    wanted = sheet_names(path) if names is None else names
    for i, name in enumerate(wanted):
        if options is not None:
            if options.cancelled():
                raise Cancelled()
            options.on_progress(i, len(wanted))
        rows = read_sheet_raw(path, name)
        if nrows is not None:
            rows = rows[:nrows]
        yield name, [[cell_text(v) for v in r] for r in rows]
    if options is not None:
        options.on_progress(len(wanted), len(wanted))


def sheets(path: Path, kind: str, *, names: list[str] | None = None, limit: int | None = None,
           nrows: int | None = None, options: ReadOptions | None = None,
           csv_rows: Callable[[Path, int | None], list[list[str]]] | None = None
           ) -> Iterator[tuple[str, list[list[str]]]]:
    """Stage *sheet* for the free-form layouts: a CSV as one sheet named "" (its rows as
    ``csv_rows`` reads them, else as written), else each sheet of the workbook (the first
    ``limit``), ``nrows`` rows of each."""
    if kind == "csv":
        yield "", (csv_rows(path, nrows) if csv_rows is not None else
                   read_csv_rows(path, limit=nrows)[0])
        return
    wanted = names if names is not None else sheet_names(path)
    yield from iter_sheets(path, wanted[:limit] if limit is not None else wanted,
                           nrows=nrows, options=options)


def workbook_sheet_names(path: Path) -> list[str]:
    return sheet_names(path)


def chosen_sheets(path: Path, names: list[str], sheet: str | None, *,
                  listed: int | None = None) -> list[str]:
    """``names``, or only ``sheet`` when the officer chose one; a sheet the workbook does
    not have is refused naming the sheets it does have (the first ``listed`` of them)."""
    if sheet is None:
        return names
    if sheet not in names:
        raise fail(path, f"The workbook has no sheet {sheet!r}; its sheets are "
                   + ", ".join(repr(n) for n in names[:listed]) + ".")
    return [sheet]


to_int = whole


def frame(rows: list[RawRow]) -> pd.DataFrame:
    """The raw-rows frame of raw-row tuples (categorical text columns, int64 votes)."""
    import numpy as np

    columns = list(zip(*rows, strict=True)) if rows else [()] * len(RAW_COLUMNS)
    return raw_frame({c: (np.asarray(v, dtype=np.int64) if c == "votes" else
                          np.asarray(v, dtype=object))
                      for c, v in zip(RAW_COLUMNS, columns, strict=True)})


def multicounty(titles: Sequence[str]) -> str | None:
    """Stage *contests*: the note on the contests a file marks '(Multi-County)' (ES&S
    exports), None when there are none."""
    if not titles:
        return None
    return ("These contests are this county's portion of a multicounty race (marked "
            "'(Multi-County)' in the file): " + "; ".join(titles) + ". A recount of the "
            "whole race involves the other counties.")
