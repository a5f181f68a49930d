"""Stages shared by the families whose contests come as blocks: of columns under a header
band (the ES&S SOVC export, the Electionware statement, a wide column mapping), of lines
per precinct (the Summary Results Report) or of rows told apart by an id (report.xlsx,
GEMS).

- **sheet**: :func:`find_sheet` (the first sheet whose rows a family's test takes);
- **contests**: :func:`runs` (a header band's columns split into contests),
  :func:`over_ballots` (the precincts with more votes than ballots),
  :func:`kept_apart` (contests that share a title, told apart by an id),
  :func:`left_out`, :func:`multicounty` (the notes on what is not a contest, and on a
  county's portion of a multicounty race);
- **grid**: :func:`count_cells` (a block of text cells to whole counts, every bad cell
  named), :func:`row_counts` (the same for a table read row by row);
- **rows**: :func:`grid_rows` (a grid's choice columns as raw rows, invalid write-ins not
  counted, the totals rows as the file's totals), :func:`totals` and :func:`raw_rows`
  (raw rows of a frame: the file's totals rows taken out as its totals).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recount_desk.core.model import Severity

from . import vocab
from .base import CodedRows, ContestTuple
from .stages import melt, melt_codes, raw_frame, whole_cells, whole_cells_absent
from .stages import multicounty as _multicounty_note
from .tabular import col_letter, read_sheet_text, sheet_names

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from .pipeline import IssueLog

Choice = tuple[str, str, str, str, str, str]  # contest, district, party, choice, its party, kind
Totals = dict[ContestTuple, dict[str, int]]


def find_sheet(path: Path, kind: str, chosen: str | None,
               accept: Callable[[list[list[str]]], bool]) -> tuple[str | None, list[list[str]]]:
    """Stage *sheet* of a layout known by its header band: the officer's sheet (as it is),
    else the first sheet whose rows ``accept`` takes; ``(None, [])`` when none does."""
    for s in [chosen] if chosen is not None else sheet_names(path, kind):
        rows = read_sheet_text(path, s)
        if chosen is not None or accept(rows):
            return s, rows
    return None, []


def left_out(log: IssueLog, titles: Sequence[str]) -> None:
    """Stage *contests*: the note on the statistics "contests" left out, if any."""
    if titles:
        log.note("Not contests, left out: " + ", ".join(sorted(set(titles))) + ".")


def multicounty(log: IssueLog, titles: Sequence[str], **where: Any) -> None:
    """Stage *contests*: the note on the titles marked '(Multi-County)', in the order given."""
    if note := _multicounty_note(list(dict.fromkeys(
            t for t in titles if "(multi-county)" in t.lower()))):
        log.note(note, **where)


def void_note(log: IssueLog, votes: int) -> None:
    if votes:
        log.note(f"{votes:,} invalid write-in vote(s) are not counted for any candidate.")


def kept_apart(keys: pd.DataFrame, ids: pd.Series) -> tuple[pd.Series, list[str]]:
    """Stage *contests*: contests that share a title (the columns of ``keys``; the title
    first) are told apart by their id: the district of each row (its id where its title is
    shared, else ""), and the shared titles, sorted."""
    import pandas as pd

    cols = list(keys.columns)
    n = pd.DataFrame({**{c: keys[c] for c in cols}, "_id": ids}).groupby(cols)["_id"].nunique()
    twice = set(n[n > 1].index)
    if not twice:
        return pd.Series("", index=keys.index, dtype=object), []
    shared = [k in twice for k in (zip(*(keys[c] for c in cols), strict=True) if len(cols) > 1
                                   else keys[cols[0]])]
    return ids.where(pd.Series(shared, index=keys.index), ""), sorted(
        {k[0] if isinstance(k, tuple) else k for k in twice})


def totals(rows: pd.DataFrame) -> Totals:
    """Stage *rows*: the file's totals from its totals rows (raw rows): each contest's
    candidates and write-ins, a choice on several rows added up, in order of appearance."""
    out: Totals = {}
    cand = rows[rows["kind"].isin(["candidate", "write_in"])]
    for (c, d, p, ch), v in cand.groupby(["contest", "district", "party", "choice"],
                                         sort=False, observed=True)["votes"].sum().items():
        out.setdefault((c, d, p), {})[ch] = int(v)
    return out


def raw_rows(columns: dict[str, Any], is_total: Any) -> tuple[pd.DataFrame, Totals]:
    """Stage *rows*: the raw rows of ``columns`` (as :func:`raw_frame` takes them) without
    the file's totals rows (``is_total``), and the totals those rows give."""
    import numpy as np

    df = raw_frame(columns)
    is_total = np.asarray(is_total, dtype=bool)
    return df[~is_total].reset_index(drop=True), totals(df[is_total])


def grid_rows(values: np.ndarray, present: np.ndarray, precincts: Sequence[str],
              columns: Sequence[tuple[int, Choice]], *, log: IssueLog,
              is_total: np.ndarray | None = None) -> tuple[pd.DataFrame, Totals]:
    """Stage *rows* of a grid (one row per precinct, one column per choice): the raw rows
    of the grid's ``columns`` (its column, and the choice it stands for), the file's
    totals from the rows ``is_total`` marks (never counted as precincts), and invalid
    write-ins left out, with a note of their votes."""
    body, ks, chs, file_totals = _grid_parts(values, present, precincts, columns, log=log,
                                             is_total=is_total)
    return melt(values, present & body[:, None], ks, chs, precincts), file_totals


def grid_coded_rows(values: np.ndarray, present: np.ndarray, precincts: Sequence[str],
                    columns: Sequence[tuple[int, Choice]], *, log: IssueLog,
                    is_total: np.ndarray | None = None) -> tuple[CodedRows, Totals]:
    """:func:`grid_rows`, the rows held as codes (no frame is made: the build stage reads
    them so)."""
    body, ks, chs, file_totals = _grid_parts(values, present, precincts, columns, log=log,
                                             is_total=is_total)
    cols, votes = melt_codes(values, present & body[:, None], ks, chs, precincts)
    return CodedRows(cols, votes, _no_rows(), has_rows=False), file_totals


def _no_rows() -> np.ndarray:
    import numpy as np

    return np.zeros(0, dtype=np.int32)


def _grid_parts(values: np.ndarray, present: np.ndarray, precincts: Sequence[str],
                columns: Sequence[tuple[int, Choice]], *, log: IssueLog,
                is_total: np.ndarray | None) -> tuple[np.ndarray, list[int], list[Choice],
                                                      Totals]:
    """What :func:`grid_rows` melts: the body rows, the columns and choices kept (invalid
    write-ins left out, with a note), and the file's totals."""
    import numpy as np

    body = np.ones(len(precincts), dtype=bool) if is_total is None else ~is_total
    void = [vocab.is_void_write_in(ch[3]) for _, ch in columns]
    void_note(log, int(sum(int(values[body, k].sum()) for (k, _), v in
                           zip(columns, void, strict=True) if v)))
    keep = [(k, ch) for (k, ch), v in zip(columns, void, strict=True) if not v]
    ks, chs = [k for k, _ in keep], [ch for _, ch in keep]
    file_totals: Totals = {}
    if is_total is not None and is_total.any():
        file_totals = totals(melt(values, present & is_total[:, None], ks, chs, precincts))
    return body, ks, chs, file_totals


def over_ballots(pairs: Iterable[tuple[int, int | None]]) -> tuple[int, int | None]:
    """Stage *contests*: of a contest's precincts (its votes and the ballots cast there, each
    pair in order), how many have more votes than ballots, and which of them (its place in
    ``pairs``) has the most votes to a ballot (the first of equals); a precinct with no
    ballots stated is passed over. One test for every family that reads ballots cast
    beside the votes (more votes than ballots: more than one seat, or columns misread)."""
    n, worst, at = 0, (0, 1), None
    for i, (votes, ballots) in enumerate(pairs):
        if ballots is not None and 0 < ballots < votes:
            n += 1
            if votes * worst[1] > worst[0] * ballots:
                worst, at = (votes, ballots), i
    return n, at


@dataclass
class Run:
    """One contest of a header band: its title and its columns, each with its choice name
    (as the header gives it) and kind (None: a column to leave out, such as a total)."""

    title: str
    cols: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    kinds: list[str | None] = field(default_factory=list)


_CLOSERS = ("over", "under", "blank")


def runs(cols: Sequence[int], titles: Sequence[str], names: Sequence[str], *,
         also: Callable[[Run, int, str | None], bool] | None = None) -> list[Run]:
    """Stage *contests* of a header band: the choice columns ``cols`` (with the title and
    the choice name over each) split into contests. A contest ends where the title
    changes, where a choice name comes back, or where a candidate follows the columns that
    close a contest's choices (plain over, under or blank votes; a generic write-in
    column, which may itself follow them once); ``also(run, column, kind)``: a family's own
    sign that a new contest starts."""
    out: list[Run] = []
    cur: Run | None = None
    closed = generic = False
    for c in cols:
        t, lab = titles[c], names[c]
        ck = vocab.choice_kind_ext(lab) if lab else "candidate"
        plain_wi = ck == "write_in" and bool(vocab.GENERIC_WRITE_IN.match(lab))
        if cur is None or t != cur.title or lab in cur.names or \
                (closed and (ck == "candidate" or (plain_wi and generic))) or \
                (ck in _CLOSERS and ck in cur.kinds) or (also is not None and also(cur, c, ck)):
            cur = Run(t)
            out.append(cur)
            closed = generic = False
        cur.cols.append(c)
        cur.names.append(lab)
        cur.kinds.append(ck)
        if ck in _CLOSERS and vocab.choice_kind(lab) == ck:
            closed = True  # (not 'UNDERVOTE (CANDIDATE WITHDREW)', among the candidates)
        elif plain_wi:
            closed = generic = True
    return out


def sums_left_out(log: IssueLog, found: Sequence[Run], values: np.ndarray,
                  present: np.ndarray, pos: dict[int, int], precincts: Sequence[str], *,
                  row: int | None = None) -> None:
    """The columns a header band leaves out as sums, checked against what they would be
    the sum of, so that a choice named like a total is never lost without a word. In each
    run, 'Write-in Totals' with no write-in column beside it is the write-ins: kept, as a
    write-in. Any other column named like a sum ('Total Votes') must be, in every precinct
    that has it, the sum of the run's candidates and write-ins (or of all its counted
    columns; a write-in total beside write-ins, of those write-ins); else it is an error
    naming it (a candidate's column headed 'Total Votes' would vanish, and the runner-up
    win), and a write-in total's names the write-ins it was compared with."""
    import numpy as np

    for run in found:
        counted = [pos[c] for c, k in zip(run.cols, run.kinds, strict=True)
                   if k in ("candidate", "write_in")]
        every = [pos[c] for c, k in zip(run.cols, run.kinds, strict=True) if k is not None]
        has_write_ins = "write_in" in run.kinds
        for j, (c, lab, k) in enumerate(zip(run.cols, run.names, run.kinds, strict=True)):
            if k is not None or not vocab.is_sum_name(lab):
                continue
            if "write" in lab.casefold() and not has_write_ins:
                run.kinds[j] = "write_in"
                continue
            at = present[:, pos[c]]
            got = values[at, pos[c]]
            # (a write-in total beside write-ins is theirs: compared with them, and said so)
            write_ins = [pos[c] for c, k in zip(run.cols, run.kinds, strict=True)
                         if k == "write_in"] if "write" in lab.casefold() else []
            sums = [values[at][:, cols].sum(axis=1) for cols in (write_ins, counted, every)
                    if cols]
            if not sums or any((got == s).all() for s in sums):
                continue
            bad = int(np.flatnonzero(got != sums[0])[0])
            where = precincts[int(np.flatnonzero(at)[bad])]
            whose = "write-ins" if write_ins else "choices"
            log.error(f"{run.title}: the column {lab!r} is named like a total, but it is not "
                      f"the sum of the contest's {whose} ({int(got[bad]):,} against "
                      f"{int(sums[0][bad]):,} in precinct {where!r}): "
                      "it may be a candidate's column headed so, whose votes would be left "
                      "out. Check the header against the election system's export.",
                      row=row, column=col_letter(c))


def count_cells(cells: Sequence[Sequence[str]], *, log: IssueLog, rows: Sequence[int],
                columns: Sequence[int], not_on_ballot: frozenset[str] = frozenset(),
                bad_reads_as: str = "it is read as 0") -> tuple[np.ndarray, np.ndarray]:
    """Stage *grid* of a block of text cells (one list per body row, one cell per column):
    ``(values, present)`` of the block's shape (:func:`stages.whole_cells`). An empty
    cell, or one of ``not_on_ballot`` ("-": the contest is not on that precinct's ballot,
    said in a note), is absent; any other that is no whole count is an error naming its
    row (``rows``: the file's 0-based row of each body row) and column (``columns``:
    0-based), and is read as 0 and absent."""
    import numpy as np

    shape = (len(cells), len(columns))
    if not cells or not columns:
        return np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=bool)
    flat = np.fromiter(itertools.chain.from_iterable(cells), dtype=object,
                       count=shape[0] * shape[1])
    values, known, bad, dashes = whole_cells_absent(flat, not_on_ballot)
    if dashes:
        log.note(f"{dashes:,} cell(s) hold '-' instead of a count; they are read as the "
                 "contest not being on that precinct's ballot (no votes), as an empty cell "
                 "would be.")
    for ri, ci in np.argwhere(bad.reshape(shape)):
        log.repeated("not whole", f"The vote count {cells[ri][ci]!r} is not a whole number; "
                     f"{bad_reads_as}.", Severity.ERROR, more="cells that are not whole numbers",
                     row=rows[ri] + 1, column=col_letter(columns[ci]))
    return values.reshape(shape), known.reshape(shape)


def row_counts(texts: pd.Series, rows: Sequence[int], *, log: IssueLog | None, column: str,
               check: pd.Series | None = None, empty_is_zero: bool = False
               ) -> tuple[pd.Series, pd.Series]:
    """Stage *rows* of a table read row by row (report.xlsx, GEMS): each row's count
    ("1,075" is 1075, an empty cell 0 where ``empty_is_zero``) and whether it is bad: not
    a whole non-negative number (:func:`stages.whole_cells`), an error naming its row
    (``rows``) and ``column`` where ``log`` is given; the row is left out. Only rows
    ``check`` marks are checked."""
    import pandas as pd

    values, known, holds = whole_cells(texts.to_numpy(dtype=object))
    bad = pd.Series(holds if empty_is_zero else ~known, index=texts.index)
    if check is not None:
        bad &= check
    for i in bad.to_numpy().nonzero()[0] if log is not None else []:
        assert log is not None
        log.repeated("count", f"The vote count {texts.iloc[i]!r} is not a whole number; the "
                     "row is left out.", Severity.ERROR,
                     more="rows whose count is not a whole number", row=int(rows[i]),
                     column=column)
    return pd.Series(values, index=texts.index), bad
