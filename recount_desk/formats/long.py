"""The long format: one row per precinct × contest × choice (OpenElections style), CSV or XLSX.

Columns ``county, precinct, office, district, party, candidate, votes`` in any order and any
case; extra vote-mode columns (``mail``, ``early_voting`` …) are not counted because
``votes`` is their total, but a candidate's row whose modes add up to more than its votes
is an error on its contest (the file contradicts itself), and a ``total`` column beside
``votes`` that disagrees with it is refused. A ``mode`` column (a row per vote mode) is
read from its ``Total`` rows. County-level files (no ``precinct``) use the county as the
unit. Blank and title lines above a CSV's header are passed over; a CSV cut short inside
its last row is refused.
"""

from __future__ import annotations

import builtins
import dataclasses
import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from recount_desk.core.model import ContestKey, Issue, Severity

from . import longtable, vocab
from ._workbook_checks import first_visible_sheet, hidden_sheets
from .base import Detection, ImportFailed, RawCanvass, ReadOptions, fail
from .pipeline import IssueLog, Located, Source
from .stages import (
    all_match,
    blank_lead,
    detector,
    head_rows,
    lead_note,
    sheet_table,
    staged_read,
    to_int,
)
from .tabular import (
    NotText,
    cell_text,
    factorize_text,
    read_csv_coded,
    read_csv_text,
    read_sheet_raw,
    sheet_names,
    sniff,
    split_csv_cells,
    split_csv_text,
)

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

FAMILY = "long"
LABEL = "Long table (one row per precinct, contest and choice)"

_ALIASES = {
    "office": ("office", "contest", "contest_name", "race", "contest_title", "office_name"),
    "candidate": ("candidate", "choice", "choice_name", "candidate_name", "ballot_name"),
    "votes": ("votes", "total_votes", "vote_count", "total", "count"),
    "precinct": ("precinct", "precinct_name", "precinct_code", "unit"),
    "county": ("county", "county_name"),
    "district": ("district",),
    "party": ("party", "party_name", "party_code"),
    # How each row's votes were cast, where a choice has a row per mode (and its total).
    "mode": ("mode", "vote_mode", "vote_type", "voting_method", "vote_method", "ballot_type"),
}


@functools.lru_cache(maxsize=4096)
def _norm(col: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", col.strip().lower()).strip("_")


@functools.lru_cache(maxsize=4096)
def _base_norm(col: str) -> str:
    """The name without pandas' ".1" of a repeated column, normalised."""
    return _norm(re.sub(r"\.[0-9]+$", "", col))


def _columns(cols: list[str]) -> dict[str, str]:
    normed = {_norm(c): c for c in cols}
    found: dict[str, str] = {}
    for key, names in _ALIASES.items():
        for n in names:
            if n in normed:
                found[key] = normed[n]
                break
    return found


@detector("csv", "xlsx", "xls", "ods")
def detect(path: Path, kind: str) -> Detection | None:
    cols = _columns(_head(path, kind))
    if {"office", "candidate", "votes"} <= cols.keys():
        conf = 95 if "precinct" in cols or "county" in cols else 80
        return Detection(FAMILY, LABEL, conf,
                         f"columns {', '.join(cols[k] for k in ('office', 'candidate', 'votes'))}")
    return None


def why_not(path: Path, kind: str) -> str:
    """What a refusal of an unrecognised file says when its header is a long table's but
    for its votes: contest and choice columns, and votes split by how they were cast
    (``election_day``, ``absentee`` …) with no total. Their sum is not taken for the total:
    a file's modes may leave some votes out (empty when the header is not so)."""
    try:
        header = _head(path, kind)
    except (OSError, ValueError, ImportFailed):
        return ""
    cols = _columns(header)
    modes = [c for c in header if vocab.VOTE_MODE.match(c.replace("_", " "))]
    if "votes" in cols or not {"office", "candidate"} <= cols.keys() or not modes:
        return ""
    return (f" Its header names contests ({cols['office']!r}) and choices "
            f"({cols['candidate']!r}) and votes by how they were cast ("
            + ", ".join(repr(m) for m in modes[:6])
            + ") but no column of total votes; their sum is not assumed to be the total "
            "(a file's modes may leave some votes out). Export the file with its total "
            "votes column, or add one named 'votes'.")


def _head(path: Path, kind: str) -> list[str]:
    """The header: the first row (of a CSV, the first below any blank or title lines)."""
    rows = head_rows(path, kind, nrows=1 if kind != "csv" else _LEAD + 1)
    rows = rows[_lead(rows):] if kind == "csv" else rows
    return rows[0] if rows else []


def _lead(rows: list[list[str]]) -> int:
    """The lines above a CSV's header: blank ones (a re-saved file), and title lines of a
    cell or two ('Morgan County Official Canvass', as Excel saves a sheet with its title)
    where the header below them names the contest, choice and votes columns."""
    top = blank_lead(rows)
    for i in range(top, min(len(rows), _LEAD)):
        if {"office", "candidate", "votes"} <= _columns(rows[i]).keys():
            return i
        if sum(1 for c in rows[i] if c.strip()) > 2:
            break  # (a line of many cells that is no header: not a title)
    return top


def _title_lines(path: Path, top: int) -> list[str]:
    """The text of the title lines above a CSV's header (none where they are blank)."""
    return [" ".join(c.strip() for c in r if c.strip())
            for r in head_rows(path, "csv", nrows=top)[:top] if any(c.strip() for c in r)]


_LEAD = 20  # blank lines above a CSV's header that are passed over


def locate(source: Source, options: ReadOptions) -> Located:
    """The table: a CSV read as codes per column, or the sheet of a workbook (the first
    visible one unless the officer chose); its columns found by name."""
    path, name, kind = source.path, source.name, source.kind
    log = IssueLog(name)
    sheet = None
    top = 0  # blank lines above the header (a re-saved CSV)
    doubts: list[Issue] = []   # what the reading itself doubts (the gate says it loudly)
    if kind == "csv":
        top = min(_lead(head_rows(path, "csv", nrows=_LEAD + 1)), _LEAD)
        header, n_rows, coded, note = _read_csv(path, top)
        if note:
            log.warn(note)
        titles = _title_lines(path, top)
        if titles:
            log.note(f"The file starts with {len(titles)} title line(s) ("
                     + "; ".join(repr(t) for t in titles[:2]) + f"); its header is read from "
                     f"row {top + 1}.", row=top + 1)
        else:
            lead_note(log, top)
        table = None
    elif kind in ("xlsx", "xls", "ods"):
        sheet = options.sheet
        if sheet is None:
            # Excel shows the first visible sheet; a hidden one before it is often a draft.
            sheet, hidden = first_visible_sheet(path)
            if hidden:
                log.warn("Hidden sheet(s) " + ", ".join(repr(h) for h in hidden)
                         + f" were not read; the canvass was read from {sheet!r}.", sheet=sheet)
            if sheet is None:
                raise fail(path, "Every sheet of this workbook is hidden; unhide the canvass "
                           "sheet in Excel, or choose the sheet to read.")
        table, coded = sheet_table(path, sheet), None
        header, n_rows = [str(c) for c in table.columns], len(table)
        if options.sheet is None and (doubt := _bigger_sheets(path, sheet, n_rows)):
            log.issues.append(doubt)
            # (doubted as strongly as an error, so that the reading is not offered as done;
            # it is a warning among the issues: the file is imported if the officer says so)
            doubts.append(dataclasses.replace(doubt, severity=Severity.ERROR))
    else:
        raise fail(path, "This file is not a long-format CSV or spreadsheet.")
    options.on_progress(1, 4)
    cols = _columns(header)
    missing = [k for k in ("office", "candidate", "votes") if k not in cols]
    if missing:
        raise fail(path, "The header has no column for "
                   + ", ".join(repr(m) for m in missing)
                   + "; a long-format canvass needs office (contest), candidate (choice) and "
                   "votes columns.", sheet=sheet, row=top + 1)
    # Two columns of one role ("votes" twice; pandas names the second "votes.1"): which to
    # count cannot be guessed, and ignoring one would drop its votes without a word.
    for key in ("votes", "candidate", "office", "precinct"):
        if key not in cols:
            continue
        # (the found column's name is one of the key's aliases as it stands)
        same = [c for c in header if _base_norm(str(c)) == _norm(cols[key])]
        if len(same) > 1:
            raise fail(path, f"The header has {len(same)} {key!r} columns "
                       f"({', '.join(repr(c) for c in same)}); keep one (or rename the "
                       "others) so it is clear which to count.", sheet=sheet, row=top + 1)
    if not n_rows:
        raise fail(path, "The file has a header but no rows.", sheet=sheet)
    if kind == "csv" and (cells := _cut_short(path, len(header))) is not None:
        raise fail(path, f"The file seems cut short: its last line has {cells} of the header's "
                   f"{len(header)} cells and no line end, as a copy or download stopped "
                   "part-way leaves it. Copy or export the file again and import that copy.",
                   row=top + 1 + n_rows)
    return Located(source, [], log, sheet, top + 1, facts={
        "header": header, "n": n_rows, "coded": coded, "table": table, "cols": cols,
        "doubts": doubts})


def map(located: Located, options: ReadOptions) -> RawCanvass:
    """The columns as codes into their distinct texts, then the long-table stage
    (:func:`recount_desk.formats.longtable.rows`); an OpenElections name gives the date."""
    import numpy as np
    import pandas as pd

    f = located.facts
    n: int = f["n"]
    cols: dict[str, str] = f["cols"]
    coded: dict[str, tuple[np.ndarray, list[str]]] | None = f["coded"]
    table: pd.DataFrame | None = f["table"]

    def col_values(name: str) -> tuple[np.ndarray, list[str]]:
        """A column's codes and texts, left in place (for the checks before the reading)."""
        if coded is not None:
            return coded[name]
        assert table is not None
        codes, uniques = pd.factorize(table[name].to_numpy(dtype=object),
                                      use_na_sentinel=False)
        return codes, [cell_text(u) for u in uniques]

    # Text work happens once per distinct value: a canvass repeats the same few thousand
    # names over a million rows, so every column becomes integer codes into its distinct
    # cleaned texts, and every test is a look-up by code.
    def col(key: str) -> tuple[np.ndarray, list[str]]:
        if key not in cols:
            return np.zeros(n, dtype=np.intp), [""]
        if coded is not None:  # a CSV: read as codes already
            codes, texts = coded.pop(cols[key])
            return longtable.merge(codes, texts)
        assert table is not None
        # Taken out of the frame: its cells are freed once they are codes.
        column = table.pop(cols[key])
        if column.dtype.kind == "i":  # whole numbers, parsed as such by the CSV reader
            codes, numbers = pd.factorize(column.to_numpy())
            return codes, [str(v) for v in numbers.tolist()]
        codes, uniques = factorize_text(column.to_numpy(dtype=object))
        return longtable.merge(codes, [cell_text(u) for u in uniques])

    _cross_check(located, col_values)
    skip = _by_mode(located, col_values)

    raw = longtable.rows(FAMILY, located.source.path, col, cols, n, header=f["header"],
                         issues=located.log.issues, sheet=located.sheet,
                         first_row=located.header_rows + 1,
                         kind_name=located.source.kind, options=options, skip=skip)
    m = re.match(r"(\d{4})(\d{2})(\d{2})__", located.source.name)  # 20181106__ut__…
    options.on_progress(4, 4)
    # (set, not replaced: a copy would make the frame of rows held as codes)
    raw.election_date = f"{m.group(1)}-{m.group(2)}-{m.group(3)}" if m else None
    raw.doubts = f["doubts"]
    return raw


read = staged_read(locate, map)


def _bigger_sheets(path: Path, sheet: str, n_rows: int) -> Issue | None:
    """A workbook's other visible sheets with more rows than the long table read from its
    first: a doubt (the reading is not offered as done), for the canvass may be one of them
    (a sheet of chart data, the county's totals by contest, put before the export read as
    a long table of ten contests, the export's fifty left unread)."""
    hidden = set(hidden_sheets(path))
    bigger = []
    for other in sheet_names(path, sniff(path))[:8]:
        if other == sheet or other in hidden:
            continue
        n = len(read_sheet_raw(path, other))
        if n > n_rows + 1:
            bigger.append(f"{other!r} ({n:,} rows)")
    if not bigger:
        return None
    return Issue(path.name, f"Only the first sheet, {sheet!r} ({n_rows:,} rows under its "
                 "header), was read, as a long table; the workbook's sheet(s) "
                 + ", ".join(bigger) + " hold more rows and were not read. If the canvass "
                 "is on another sheet, save that sheet as a file of its own (CSV, or a "
                 "workbook of one sheet) and import that.", sheet, severity=Severity.WARNING)




def _by_mode(located: Located, values: Callable[[str], tuple[np.ndarray, list[str]]]
             ) -> np.ndarray | None:
    """The rows to leave out of a table whose mode column gives a choice's votes by how
    they were cast: every row but the 'Total' ones (said in a note); None where there is no
    mode column, or it is empty. Modes without a 'Total' row are refused: their sum is not
    assumed to be the total (a file's modes may leave votes out)."""
    import numpy as np

    cols: dict[str, str] = located.facts["cols"]
    if "mode" not in cols:
        return None
    codes, texts = values(cols["mode"])
    filled = [bool(t.strip()) for t in texts]
    if not any(filled):
        return None
    total = np.array([bool(vocab.TOTAL_MODE.match(t)) for t in texts], dtype=bool)
    if not total.any():
        shown = ", ".join([repr(t) for t, f in zip(texts, filled, strict=True) if f][:4])
        raise fail(located.source.path, f"The {cols['mode']!r} column gives each choice's "
                   f"votes by how they were cast ({shown}) with no 'Total' rows; their sum is "
                   "not assumed to be the total (a file's modes may leave votes out). Export "
                   "the file with its total rows (or a votes column of totals), and import "
                   "that copy.", sheet=located.sheet, column=cols["mode"])
    located.log.note(f"The {cols['mode']!r} column splits each choice's votes by how they "
                     "were cast; only its 'Total' rows are read.")
    blank = np.array([not f for f in filled], dtype=bool)
    skip: np.ndarray = ~(total | blank)[codes]
    return skip


def _cut_short(path: Path, width: int) -> int | None:
    """The cells of a CSV's last line where the file ends inside it: no line end after it
    and fewer cells than the header's ``width`` (a copy stopped part-way); else None."""
    import csv

    with open(path, "rb") as fh:
        fh.seek(max(0, fh.seek(0, 2) - (1 << 16)))
        tail = fh.read()
    if not tail or tail.endswith((b"\n", b"\r")):
        return None
    # (the text after the last line end: a split of the whole tail costs more)
    last = tail[max(tail.rfind(b"\n"), tail.rfind(b"\r")) + 1:].decode("utf-8", "replace")
    cells = next(csv.reader([last]), [])
    return len(cells) if len(cells) < width else None


def _checked(header: list[str], roles: dict[str, str]) -> list[str]:
    """The columns a long table's votes are checked against: another column of total votes
    ('total' beside 'votes') and the votes by mode ('election_day', 'mail' …)."""
    votes = roles.get("votes")
    if votes is None:
        return []
    used = set(roles.values())
    return [c for c in header if c not in used and (
        _norm(c) in _ALIASES["votes"] or vocab.VOTE_MODE.match(c.replace("_", " ")))]


def _cross_check(located: Located, values: Callable[[str], tuple[np.ndarray, list[str]]]
                 ) -> None:
    """Refuse a table whose votes contradict the file's other counts of them, in the rows
    of candidates (statistics rows repeat one figure across the mode columns): another
    column of total votes that disagrees (which one to count cannot be guessed), or votes
    by mode that add up to more than the votes (a file cut short inside its last cell, or
    the votes column another mode's)."""
    import numpy as np

    f = located.facts
    cols: dict[str, str] = f["cols"]
    checked = _checked(f["header"], cols)
    if not checked:
        return
    path, sheet, first = located.source.path, located.sheet, located.header_rows + 1

    def numbers(name: str) -> np.ndarray:
        codes, texts = values(name)
        if all_match(_COUNT_TEXTS, texts):  # (as nearly always: to_int is int of each)
            table = np.fromiter(builtins.map(float, texts), dtype=np.float64,
                                count=len(texts))
        else:
            table = np.array([float(v) if (v := to_int(t)) is not None else np.nan
                              for t in texts] or [np.nan])
        out: np.ndarray = table[codes]
        return out

    office_codes, office_texts = values(cols["office"])
    cand_codes, cand_texts = values(cols["candidate"])
    rows = (~np.array([bool(vocab.STATISTIC.match(t)) for t in office_texts], dtype=bool)
            [office_codes]) & np.array([bool(t.strip()) for t in cand_texts],
                                       dtype=bool)[cand_codes]
    votes = numbers(cols["votes"])
    totals = [c for c in checked if _norm(c) in _ALIASES["votes"]]
    for other in totals:
        theirs = numbers(other)
        bad = np.flatnonzero(rows & ~np.isnan(votes) & ~np.isnan(theirs) & (votes != theirs))
        if len(bad):
            r = int(bad[0])
            raise fail(path, f"The header has both {cols['votes']!r} and {other!r} columns, and "
                       f"they disagree in {len(bad):,} row(s) (row {first + r}: "
                       f"{int(votes[r]):,} against {int(theirs[r]):,}); keep the one that holds "
                       "each choice's total votes (or rename the other), and import again.",
                       sheet=sheet, row=first + r, column=other)
    modes = [c for c in checked if c not in totals]
    if not modes:
        return
    by_mode = np.vstack([numbers(c) for c in modes])
    summed = by_mode.sum(axis=0)  # (nan where a mode is blank: such rows are not judged)
    bad = np.flatnonzero(rows & ~np.isnan(votes) & ~np.isnan(summed) & (summed > votes))
    # A votes cell left blank where the modes hold counts: the votes are not known (a blank
    # is not 0, and the modes' sum is not assumed to be the total), so not read as 0.
    v_codes, v_texts = values(cols["votes"])
    blank = np.array([not str(t).strip() for t in v_texts] or [False], dtype=bool)[v_codes]
    unknown = np.flatnonzero(rows & blank & (np.nansum(by_mode, axis=0) > 0))
    # Each contest with such rows gets an error naming its first one: its verdict cannot rest
    # on its votes (a contest the key names not as read is every contest's, to be safe). The
    # key is the contest's as the table reader makes it: the district as its number, and no
    # party (a long table's party column is the candidate's).
    districts = values(cols["district"]) if "district" in cols else None

    def district(r: int) -> str:
        if districts is None:
            return ""
        codes, names = districts
        return longtable._district(str(names[int(codes[r])]).strip())

    def parts(r: int) -> str:
        return " + ".join(f"{c} {int(by_mode[k, r]):,}" for k, c in enumerate(modes)
                          if not np.isnan(by_mode[k, r]))

    def per_contest(found: np.ndarray, says: Callable[[str, int], str],
                    summary: Callable[[int], str]) -> None:
        """One error per contest, naming its first row of ``found``: each one's verdict is
        withheld; where there are more rows, a warning of them all (``summary`` of the
        number of contests)."""
        said: set[tuple[str, str, str]] = set()
        for r in found.tolist():
            key = (office_texts[office_codes[r]].strip(), district(r), "")
            if key in said:
                continue
            said.add(key)
            located.log.issues.append(Issue(
                path.name, says(key[0], r), sheet, first + r, cols["votes"], Severity.ERROR,
                contest=ContestKey(*key)))
        if len(found) > 1:
            located.log.issues.append(Issue(path.name, summary(len(said)), sheet,
                                            severity=Severity.WARNING))

    per_contest(bad, lambda office, r: (
        f"{office}: row {first + r}'s votes by mode add up to more than its "
        f"{cols['votes']!r} ({parts(r)} = {int(summed[r]):,}; {cols['votes']} "
        f"{int(votes[r]):,}), so the file contradicts itself there (cut short, or its "
        "columns mixed up); no verdict rests on this contest's figures. Check the file "
        "against the election system."), lambda n: (
        f"In {len(bad):,} row(s) in all, of {n:,} contest(s), the votes by mode add up to "
        f"more than the {cols['votes']!r} column."))
    per_contest(unknown, lambda office, r: (
        f"{office}: row {first + r}'s {cols['votes']!r} is blank, but its votes by mode are "
        f"given ({parts(r)}), so the file does not say how many votes the row has (a blank "
        "is not 0, and the votes by mode are not assumed to be all of them); no verdict "
        f"rests on this contest's figures. Fill in the {cols['votes']!r} column from the "
        "election system (or export the file again) and import that copy."), lambda n: (
        f"In {len(unknown):,} row(s) in all, of {n:,} contest(s), the {cols['votes']!r} "
        "column is blank where the votes by mode are given."))


def _read_csv(path: Path, top: int = 0
              ) -> tuple[list[str], int, dict[str, tuple[np.ndarray, list[str]]], str | None]:
    """The CSV as codes per column (:func:`read_csv_coded`: the memory of categorical
    columns, one parse). The votes column, and the votes by mode beside it, are parsed as
    numbers where they hold whole numbers (no text to convert); one with a blank, a '*' or
    a '1,234' keeps the file's text, so its problems can be reported cell by cell; only
    where the parser reads one as other numbers (fractions) is the file read again as
    text. ``top``: the blank lines above the header."""
    if path.stat().st_size <= _SMALL_CSV:
        got = _read_csv_small(path, top)
        if got is not None:
            return got
    head = head_rows(path, "csv", nrows=top + 1)[top:]
    names = head[0] if head else []
    if not names or "" in names or len(set(names)) < len(names):
        # pandas' own names for blank or repeated ones ("Unnamed: 3", "votes.1")
        names = [str(c) for c in read_csv_text(path, nrows=0, dtype=object,
                                                skiprows=top)[0].columns]
    roles = _columns(names)
    votes = roles.get("votes")
    # the columns read (and those the votes are checked against); the others are parsed,
    # not coded
    checked = _checked(names, roles)
    keep = set(roles.values()) | set(checked)
    if votes is not None:
        # (the counts beside the votes, by mode, parsed as numbers too: as text they would
        # be categories that pandas turns into numbers, and read again)
        counts = {votes, *checked}
        try:
            return read_csv_coded(path, dtype={c: object for c in names if c not in counts},
                                  keep=keep, skiprows=top)
        except NotText:
            pass
    return read_csv_coded(path, dtype={c: object for c in names}, keep=keep, skiprows=top)


# Below this size pandas' fixed cost per parse and per column (a millisecond and more for a
# county's 10 kB file, several times the parse itself) outweighs its speed per cell: the
# file is read with the csv module instead, the same cells as :func:`read_csv_coded` gives.
_SMALL_CSV = 1 << 17
_WHOLE = re.compile(r"[+-]?[0-9]+")
# Lines of whole numbers that int64 holds, each written as ``str(int(cell))`` writes it.
_DIGIT_LINES = re.compile(r"(?:(?:0|[1-9][0-9]{0,17})\n)*(?:0|[1-9][0-9]{0,17})")
_HASHED = 512  # rows above which a column is coded by pandas' hashing
# Lines of plain counts, each of which :func:`to_int` reads as ``int`` does (below 2**63).
_COUNT_TEXTS = re.compile(r"(?:[0-9]{1,18}\n)*[0-9]{1,18}")


def _read_csv_small(path: Path, top: int = 0) -> tuple[list[str], int,
                                         dict[str, tuple[np.ndarray, list[str]]],
                                         str | None] | None:
    """A small UTF-8 CSV as :func:`_read_csv` gives it, read once with the csv module: each
    column the reading uses (office, candidate, votes, precinct …) as codes into its
    distinct stripped texts in order of first appearance; a votes
    column of whole numbers as their digits (``str(int(cell))``, as pandas parses it).
    None where this cannot be sure to read it as pandas would (another encoding, a header
    with blank or repeated names, a row of another length, a blank line, a votes cell
    with spaces or too large), and then pandas reads it. ``top``: the blank lines above
    the header, passed over."""
    import csv
    import io

    import numpy as np
    import pandas as pd

    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    # The cells in one list, row after row (one split of the text: no list per row), each
    # column every ``width``-th of them; the last column's cells end with the mark of
    # their line end, cut off once per distinct text.
    got = split_csv_cells(text) if not top else None
    if got is not None:
        flat, width = got
        header = flat[:width]
        header[-1] = header[-1][:-1]
        n = len(flat) // width - 1

        def column(j: int) -> tuple[list[str], bool]:
            return flat[width + j::width], j == width - 1
    else:
        try:
            rows = split_csv_text(text)
            if rows is None:
                rows = list(csv.reader(io.StringIO(text, newline="")))
        except csv.Error:
            return None
        del rows[:top]
        if len(rows) < 2 or len(set(builtins.map(len, rows))) != 1:
            return None
        header, n = rows[0], len(rows) - 1
        width = len(header)

        def column(j: int) -> tuple[list[str], bool]:
            return [r[j] for r in rows[1:]], False
    if not n or not width or "" in header or len(set(header)) < width:
        return None
    roles = _columns(header)
    votes = roles.get("votes")
    keep = set(roles.values()) | set(_checked(header, roles))
    coded: dict[str, tuple[np.ndarray, list[str]]] = {}
    for j, name in enumerate(header):
        if name not in keep:
            continue
        cells, marked = column(j)
        codes: np.ndarray | None = None
        if n > _HASHED:  # (pandas hashes a long column faster than a dict does)
            codes, uniques = pd.factorize(np.array(cells, dtype=object))
            keys = uniques.tolist()
        else:
            keys = list(dict.fromkeys(cells))
        distinct = [c[:-1] for c in keys] if marked else keys
        if name == votes and all_match(_DIGIT_LINES, distinct):
            texts = distinct  # (each as pandas parses it and ``str(int(cell))`` gives it)
        elif name == votes and any(c != c.strip() for c in distinct):
            return None  # (how pandas reads " 07" is its own affair)
        elif name == votes and all(_WHOLE.fullmatch(c) for c in distinct):
            numbers = [int(c) for c in distinct]
            if not all(-(1 << 63) <= v < (1 << 63) for v in numbers):
                return None  # pandas would read it as unsigned or as text
            texts = [str(v) for v in numbers]
        else:
            texts = [c.strip() for c in distinct]
        merged: dict[str, int] = {}
        lookup = [merged.setdefault(t, len(merged)) for t in texts]
        if codes is not None:
            codes = (np.array(lookup, dtype=np.int32)[codes] if len(merged) < len(texts)
                     else codes.astype(np.int32))
        else:
            index = dict(zip(keys, lookup, strict=True))  # (merged: "A " and "A")
            codes = np.fromiter(builtins.map(index.__getitem__, cells), dtype=np.int32,
                                count=n)
        coded[name] = (codes, list(merged))
    return header, n, coded, None

