"""Any other layout, read through a user's column mapping (a plain JSON-able dict).

The desktop wizard fills the mapping in from a preview (:func:`preview`), and
``recount-desk check --mapping mapping.json`` loads the same object. Two layouts:

Long — one row per precinct × contest × choice::

    {"layout": "long",
     "sheet": "Sheet1",            # optional: sheet name or 0-based index; CSV files ignore it
     "header_row": 1,              # optional, 1-based row of the column names (default 1)
     "columns": {"precinct": "Precinct", "contest": "Race", "choice": "Candidate",
                 "votes": "Votes",
                 "district": null, "party": null, "choice_party": null},   # optional ones
     "contest_party": false}       # optional: true = 'party' is the contest's (a primary)

Wide — one row per precinct, one column per choice, contests as blocks of columns::

    {"layout": "wide",
     "sheet": "Results", "header_row": 4,
     "precinct_column": "Precinct",
     "blocks": [{"contest": "Mayor", "seats": 1, "columns": ["Ann", "Bob", "Over Votes"]},
                {"contest": "Council", "seats": 2, "party": "", "district": "",
                 "columns": ["Cy", "Di", "Ed"]}]}

Common optional keys: ``"primary": true|false``; ``"totals_row": "COUNTY TOTALS"`` (the
precinct cell of the file's own totals row; rows recognised as totals are always set
apart). A column is named by its header text (line breaks and repeated spaces ignored)
or, where headers repeat or are empty, by its 1-based position as an integer or a
spreadsheet letter (``"C"``). Choices named like ``Over Votes`` / ``Under Votes`` /
``Blank`` are kept apart from candidate votes; ``Total Votes`` columns are left out.
Every mistake in a mapping (unknown layout, a missing key, a column the sheet does not
have) is reported as one clear sentence.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recount_desk.core.model import Remedy

from . import blocks, vocab
from ._workbook_checks import col_number
from .base import Detection, ImportFailed, RawCanvass, ReadOptions, fail
from .stages import iter_sheets, to_int, workbook_sheet_names
from .tabular import read_csv_text, sniff

if TYPE_CHECKING:
    import numpy as np

FAMILY = "mapping"
LABEL = "Column mapping (any other layout)"

_LONG_REQUIRED = ("precinct", "contest", "choice", "votes")
_LONG_OPTIONAL = ("district", "party", "choice_party")


def detect(path: Path, kind: str) -> Detection | None:
    """Never claims a file: the mapping is chosen by the user."""
    return None


def _clean(text: str) -> str:
    return " ".join(str(text).split())


def _rows(path: Path, sheet: str | int | None, nrows: int | None = None
          ) -> tuple[list[str], list[list[str]], str | None]:
    """(sheet names, rows as text, sheet name used) for a CSV or workbook."""
    kind = sniff(path)
    if kind == "csv":
        df, _ = read_csv_text(path, header=None, nrows=nrows, sep=None)
        return [], df.fillna("").astype(str).to_numpy().tolist(), None
    if kind not in ("xlsx", "xls", "ods"):
        raise fail(path, "A column mapping reads CSV, XLSX, XLS or ODS files; this file is "
                   "not one of them.")
    names = workbook_sheet_names(path)
    if not names:
        raise fail(path, "The workbook has no sheets.")
    if sheet is None:
        name = names[0]
    elif isinstance(sheet, int) and not isinstance(sheet, bool):
        if not 0 <= sheet < len(names):
            raise fail(path, f"The mapping names sheet number {sheet}, but the workbook has "
                       f"{len(names)} sheet(s) (numbered from 0).")
        name = names[sheet]
    else:
        if sheet not in names:
            raise fail(path, f"The mapping names sheet {sheet!r}, which the workbook does not "
                       "have; its sheets are " + ", ".join(repr(n) for n in names) + ".")
        name = str(sheet)
    rows = next(iter_sheets(path, [name], nrows=nrows))[1]
    return names, rows, name


def preview(path: Path | str, sheet: str | int | None = None, header_row: int | None = None,
            nrows: int = 20) -> tuple[list[str], list[list[str]]]:
    """For the mapping wizard: the workbook's sheet names and the first ``nrows`` rows of
    the sheet, as text, starting at ``header_row`` (1-based) when given."""
    path = Path(path)
    start = max(0, (header_row or 1) - 1)
    names, rows, _ = _rows(path, sheet, nrows=start + nrows)
    return names, [list(r) for r in rows[start:start + nrows]]


def _letters(ref: str) -> int | None:
    return col_number(ref) - 1 if re.fullmatch(r"[A-Za-z]{1,3}", ref) else None


def column_position(header: list[str], ref: object) -> int | None:
    """The 1-based position a mapping's column reference (a name, a number or a letter)
    points to in ``header``, or None when it points to none (or to a repeated name)."""
    try:
        return _Columns(Path("mapping"), header, None, 1).find(ref, "the column") + 1
    except ImportFailed:
        return None


class _Columns:
    """Resolves mapping column references against a header row."""

    def __init__(self, path: Path, header: list[str], sheet: str | None, header_row: int
                 ) -> None:
        self.path, self.sheet, self.header_row = path, sheet, header_row
        self.header = [_clean(h) for h in header]
        self.by_name: dict[str, list[int]] = {}
        for j, h in enumerate(self.header):
            if h:
                self.by_name.setdefault(h.casefold(), []).append(j)

    def find(self, ref: object, what: str) -> int:
        if isinstance(ref, int) and not isinstance(ref, bool):
            if 1 <= ref <= len(self.header):
                return ref - 1
            raise self._err(f"The mapping gives column number {ref} for {what}, but the header "
                            f"row has {len(self.header)} columns.")
        if not isinstance(ref, str) or not ref.strip():
            raise self._err(f"The mapping gives no column for {what}.")
        hits = self.by_name.get(_clean(ref).casefold())
        if hits:
            if len(hits) > 1:
                raise self._err(f"The column {ref!r} ({what}) appears {len(hits)} times in the "
                                "header; name it by its position (a number or a letter) "
                                "instead.")
            return hits[0]
        j = _letters(ref.strip())
        if j is not None and j < len(self.header) and ref.strip().upper() == ref.strip() and \
                ref.strip().casefold() not in self.by_name:
            return j
        shown = ", ".join(repr(h) for h in self.header if h)[:300]
        raise self._err(f"The mapping names the column {ref!r} for {what}, but row "
                        f"{self.header_row} has no such column. Its columns are: {shown}.")

    def _err(self, message: str) -> Exception:
        return fail(self.path, message, sheet=self.sheet, row=self.header_row)


def validate(mapping: object) -> list[str]:
    """Problems with the shape of a mapping (before any file is opened), as sentences."""
    if not isinstance(mapping, dict):
        return ["The mapping must be an object (a JSON dictionary)."]
    errs: list[str] = []
    layout = mapping.get("layout")
    if layout not in ("long", "wide"):
        errs.append(f"The mapping's \"layout\" must be \"long\" or \"wide\", not {layout!r}.")
        return errs
    hr = mapping.get("header_row", 1)
    if not isinstance(hr, int) or isinstance(hr, bool) or hr < 1:
        errs.append(f"\"header_row\" must be a row number from 1, not {hr!r}.")
    if "primary" in mapping and not isinstance(mapping["primary"], bool):
        errs.append("\"primary\" must be true or false.")
    known = {"layout", "sheet", "header_row", "columns", "contest_party", "primary",
             "totals_row", "precinct_column", "blocks", "name", "header"}
    head = mapping.get("header", [])
    if not isinstance(head, list) or not all(isinstance(h, str) for h in head):
        errs.append("\"header\" must be the list of the column names the mapping was made on.")
    extra = sorted(set(mapping) - known)
    if extra:
        errs.append("The mapping has unknown key(s) " + ", ".join(repr(k) for k in extra) + ".")
    if layout == "long":
        cols = mapping.get("columns")
        if not isinstance(cols, dict):
            errs.append("A long mapping needs \"columns\": which column holds the precinct, "
                        "contest, choice and votes.")
            return errs
        for k in _LONG_REQUIRED:
            if cols.get(k) in (None, ""):
                errs.append(f"A long mapping needs a column for {k!r}.")
        unknown = sorted(set(cols) - set(_LONG_REQUIRED) - set(_LONG_OPTIONAL))
        if unknown:
            errs.append("\"columns\" has unknown key(s) " + ", ".join(repr(k) for k in unknown)
                        + "; the keys are precinct, contest, choice, votes, district, party, "
                        "choice_party.")
    else:
        if mapping.get("precinct_column") in (None, ""):
            errs.append("A wide mapping needs \"precinct_column\".")
        blocks = mapping.get("blocks")
        if not isinstance(blocks, list) or not blocks:
            errs.append("A wide mapping needs \"blocks\": a list of contests, each with its "
                        "columns.")
            return errs
        for n, b in enumerate(blocks, start=1):
            if not isinstance(b, dict):
                errs.append(f"Block {n} must be an object with \"contest\" and \"columns\".")
                continue
            if not isinstance(b.get("contest"), str) or not b["contest"].strip():
                errs.append(f"Block {n} has no contest title (\"contest\").")
            if not isinstance(b.get("columns"), list) or not b["columns"]:
                errs.append(f"Block {n} ({b.get('contest')!r}) lists no columns.")
            s = b.get("seats", 1)
            if s is not None and (not isinstance(s, int) or isinstance(s, bool) or s < 1):
                errs.append(f"Block {n} ({b.get('contest')!r}): \"seats\" must be a whole "
                            "number from 1.")
    return errs


def read(path: Path, options: ReadOptions | None = None) -> RawCanvass:
    """Read a file as the user's mapping says: a long one through the rows stage of every
    long table (:func:`recount_desk.formats.longtable.rows`), a wide one as a grid of
    counts (:func:`recount_desk.formats.blocks.grid_rows`)."""
    options = options or ReadOptions()
    mapping: Any = options.mapping
    if mapping is None:
        raise fail(path, "No column mapping was given.", remedy=Remedy.MAP_COLUMNS)
    errs = validate(mapping)
    if errs:
        raise fail(path, "The column mapping is not valid: " + " ".join(errs))
    sheet = options.sheet if options.sheet is not None else mapping.get("sheet")
    header_row = int(mapping.get("header_row", 1))
    _names, rows, sheet_name = _rows(path, sheet)
    if len(rows) < header_row:
        raise fail(path, f"The mapping puts the header on row {header_row}, but the sheet has "
                   f"only {len(rows)} row(s).", sheet=sheet_name)
    cols = _Columns(path, rows[header_row - 1], sheet_name, header_row)
    width = len(cols.header)
    body = [(r + [""] * width)[:width] for r in rows[header_row:]]
    if not any(any(c.strip() for c in r) for r in body):
        raise fail(path, "The sheet has a header but no rows under it.", sheet=sheet_name,
                   row=header_row)
    totals_row = _clean(str(mapping["totals_row"])).casefold() \
        if mapping.get("totals_row") else None

    def is_total(precinct: str) -> bool:
        return vocab.is_total_precinct(precinct) or (
            totals_row is not None and _clean(precinct).casefold() == totals_row)

    read_layout = _read_long if mapping["layout"] == "long" else _read_wide
    raw = read_layout(path, mapping, cols, body, is_total, options)
    if raw.rows.empty:
        raise fail(path, "The mapping found no vote rows in the sheet: check the header row and "
                   "the columns.", sheet=sheet_name)
    primary = mapping.get("primary")
    return dataclasses.replace(raw, primary=primary if isinstance(primary, bool) else None)


_PARTY_SEP = "\x1f"  # a contest's party carried beside its district through the rows stage


def _read_long(path: Path, mapping: dict[str, Any], cols: _Columns, body: list[list[str]],
               is_total: Callable[[str], bool], options: ReadOptions) -> RawCanvass:
    """The mapped columns as a long table's roles; a totals row the mapping names is read as
    one. With ``contest_party`` the party is the contest's (a primary's party races)."""
    import numpy as np

    from . import longtable
    from .stages import coded, squash

    spec = mapping["columns"]
    at = {k: cols.find(spec[k], k) for k in (*_LONG_REQUIRED, *_LONG_OPTIONAL)
          if spec.get(k) not in (None, "")}
    cell: dict[str, Any] = {k: squash([r[j] for r in body]) for k, j in at.items()}
    blank = [""] * len(body)
    # A totals row named as the mapping says: named as the stage knows one.
    cell["precinct"] = [("Total" if is_total(p) and not vocab.is_total_precinct(p) else p)
                        for p in cell["precinct"]]
    party, chparty = cell.get("party", blank), cell.get("choice_party", blank)
    if mapping.get("contest_party"):
        cell["district"] = [f"{d}{_PARTY_SEP}{p}" for d, p in
                            zip(cell.get("district", blank), party, strict=True)]
        cell["party"] = chparty
    else:
        cell["party"] = [c or p for c, p in zip(chparty, party, strict=True)]
    roles = {"office": "contest", "candidate": "choice", "votes": "votes",
             "precinct": "precinct", "district": "district", "party": "party"}
    header = [h or f"column {j + 1}" for j, h in enumerate(cols.header)]
    names = {r: header[at[k]] if k in at else r for r, k in roles.items() if k in cell}

    def col(role: str) -> tuple[np.ndarray, list[str]]:
        if roles.get(role, "") in cell:
            return coded(cell[roles[role]])
        return np.zeros(len(body), dtype=np.intp), [""]

    raw = longtable.rows(FAMILY, path, col, names, len(body), header=header, issues=[],
                         sheet=cols.sheet, first_row=cols.header_row + 1,
                         kind_name=sniff(path), options=options)
    if not mapping.get("contest_party"):
        return raw

    def key(k: tuple[str, str, str]) -> tuple[str, str, str]:
        d, _, p = k[1].partition(_PARTY_SEP)
        return (k[0], d, p)

    df = raw.rows.copy()
    split = df["district"].astype(str).str.partition(_PARTY_SEP)
    df["district"], df["party"] = split[0], split[2]
    return dataclasses.replace(
        raw, rows=df, file_totals={key(k): v for k, v in raw.file_totals.items()},
        suppressed={key(k) for k in raw.suppressed},
        hidden={key(k): v for k, v in raw.hidden.items()})


def _read_wide(path: Path, mapping: dict[str, Any], cols: _Columns, body: list[list[str]],
               is_total: Callable[[str], bool], options: ReadOptions) -> RawCanvass:
    """One row per precinct (a totals row may carry its label in another column), the
    blocks' columns as a grid of counts; suppressed cells mark their contest."""
    import numpy as np

    from .pipeline import IssueLog

    log = IssueLog(path.name, cols.sheet)
    pj = cols.find(mapping["precinct_column"], "the precinct")
    seats: dict[tuple[str, str, str], int] = {}
    columns: list[tuple[int, blocks.Choice]] = []
    for b in mapping["blocks"]:
        key = (_clean(b["contest"]), _clean(b.get("district") or ""),
               _clean(b.get("party") or ""))
        if b.get("seats") is not None:
            seats[key] = int(b["seats"])
        for ref in b["columns"]:
            j = cols.find(ref, f"contest {b['contest']!r}")
            choice, prefix = vocab.split_party_prefix(cols.header[j] or f"column {j + 1}")
            kind = vocab.choice_kind(choice)
            if kind is not None:  # (else a Total Votes column)
                columns.append((j, (*key, choice, prefix, kind)))
    js = [j for j, _ in columns]
    picked: list[tuple[int, str]] = []
    for n, r in enumerate(body):
        # A totals row may carry its label in another column ('', '', 'Totals:', 714, …).
        precinct = _clean(r[pj]) or next((_clean(c) for j, c in enumerate(r) if j not in js
                                          and c.strip() and is_total(_clean(c))), "")
        if precinct:
            picked.append((n, precinct))
    suppressed: set[tuple[str, str, str]] = set()
    cells = [[body[n][j] for j in js] for n, _ in picked]
    totals = np.array([is_total(p) for _, p in picked], dtype=bool)
    # A blank cell is 0 votes (but nothing in a totals row of statistics only).
    blank = ~totals[:, None] & (np.array([[not c.strip() for c in row] for row in cells],
                                         dtype=bool).reshape(len(cells), len(js)))
    for row in cells:
        for k, c in enumerate(row):
            if vocab.is_suppressed(c):
                suppressed.add(columns[k][1][:3])
                row[k] = ""
    values, present = blocks.count_cells(cells, log=log, columns=js,
                                         rows=[cols.header_row + n for n, _ in picked])
    present |= blank
    df, file_totals = blocks.grid_rows(values, present, [p for _, p in picked],
                                       list(enumerate(ch for _, ch in columns)), log=log,
                                       is_total=totals)
    return RawCanvass(path.name, FAMILY, df, log.close(), seats, file_totals, suppressed,
                      sheet=cols.sheet)


# --- Proposals: a mapping guessed from what the columns hold --------------------------------

_ROLE_WORDS = {"precinct": ("precinct", "ward", "voting district", "unit"),
               "contest": ("contest", "office", "race"),
               "choice": ("candidate", "choice", "ballot name", "name"),
               "votes": ("votes", "count", "total"),
               "district": ("district",), "party": ("party",)}
_PROPOSE_ROWS = 200  # body rows looked at


def _is_count(text: str) -> bool:
    return to_int(text) is not None


def _is_fraction(text: str) -> bool:
    t = text.replace(",", "").strip().rstrip("%")
    try:
        v = float(t)
    except ValueError:
        return False
    return not v.is_integer() or text.strip().endswith("%")


def _header_row(rows: list[list[str]]) -> int:
    """0-based: the last row of text cells above the first rows that hold counts."""
    for i, r in enumerate(rows[:40]):
        texts = [c for c in r if c.strip() and not _is_count(c) and not _is_fraction(c)]
        below = rows[i + 1:i + 4]
        if len(texts) >= 2 and below and all(any(_is_count(c) for c in b) for b in below):
            return i
    return next((i for i, r in enumerate(rows) if any(c.strip() for c in r)), 0)


def propose(path: Path | str, sheet: str | int | None = None,
            header_row: int | None = None) -> dict[str, Any]:
    """A mapping for one sheet guessed from what its columns hold, not only their names:
    the header row (above the first rows of counts), long or wide, and each column's role.
    The officer checks it on the wizard's mapping page; it is never read unchecked.

    Long: the votes are the column of whole counts (a name such as "Votes" preferred); the
    choice the text column that changes most from row to row, the contest the one with the
    fewest distinct values, the precinct the rest's most varied; a column of party codes is
    the party. Wide: the precinct is the text column of distinct values; the choices are
    the columns of counts, statistics (``Reg. Voters``, ``Ballots Cast``) and percentages
    (``Turn out %``, fractions) left out, in blocks split where the row above the header
    names a new contest."""
    path = Path(path)
    _names, rows, name = _rows(path, sheet, nrows=(header_row or 0) + 40 + _PROPOSE_ROWS)
    if not rows:
        raise fail(path, "The sheet is empty: there is nothing to map.", sheet=name)
    h = header_row - 1 if header_row else _header_row(rows)
    header = [_clean(c) for c in rows[h]] if h < len(rows) else []
    width = max([len(header), *(len(r) for r in rows[h + 1:h + 1 + _PROPOSE_ROWS])], default=0)
    header += [""] * (width - len(header))
    body = [(r + [""] * width)[:width] for r in rows[h + 1:h + 1 + _PROPOSE_ROWS]
            if any(c.strip() for c in r)]
    out: dict[str, Any] = {"header_row": h + 1}
    if name is not None:
        out["sheet"] = name

    def values(j: int) -> list[str]:
        return [r[j].strip() for r in body if r[j].strip()]

    def named(role: str, j: int) -> bool:
        return any(w in header[j].lower() for w in _ROLE_WORDS[role])

    filled = [j for j in range(width) if values(j)]
    counts = [j for j in filled if sum(map(_is_count, values(j))) >= 0.8 * len(values(j))
              and not any(_is_fraction(v) for v in values(j))]
    texts = [j for j in filled if j not in counts
             and not sum(map(_is_fraction, values(j))) >= 0.5 * len(values(j))]
    stats = {j for j in counts if vocab.STATISTIC.match(header[j]) or vocab.PERCENT.search(
        header[j])}

    def distinct(j: int) -> int:
        return len(set(values(j)))

    repeating = [j for j in texts if distinct(j) <= len(values(j)) // 2]
    coded = {j for j in counts if named("precinct", j) or named("district", j)}
    if len(texts) >= 2 and repeating and len(set(counts) - stats - coded) <= 4:
        out["layout"] = "long"
        cols: dict[str, Any] = dict.fromkeys((*_LONG_REQUIRED, *_LONG_OPTIONAL))
        free = list(texts)

        def take(role: str, j: int | None) -> None:
            if j is not None:
                cols[role] = header[j] or j + 1
                if j in free:
                    free.remove(j)

        def votes_rank(j: int) -> int:
            h = header[j].lower()
            if re.search(r"\bvotes?\b", h) and not re.search(r"under|over|blank", h):
                return 0
            return 1 if named("votes", j) and j not in stats else 2

        votes = sorted((j for j in counts if (j not in coded and votes_rank(j) < 2) or
                        j not in stats | coded), key=lambda j: (votes_rank(j), -j))
        take("votes", votes[0] if votes else None)
        party = next((j for j in free if named("party", j)), None)
        if party is None:
            party = next((j for j in free
                          if all(v.upper() in vocab.PARTY_CELLS for v in values(j))), None)
        take("party", party)
        for role in ("precinct", "contest", "choice", "district"):
            j = next((j for j in free if named(role, j)), None)
            if j is None and role in ("precinct", "district"):
                j = next((j for j in sorted(coded) if named(role, j)), None)
            take(role, j)

        def changes(j: int) -> int:
            col = [r[j] for r in body]
            return sum(a != b for a, b in itertools.pairwise(col))

        if cols["choice"] is None and free:
            take("choice", max(free, key=changes))
        if cols["contest"] is None and free:
            take("contest", min(free, key=lambda j: len(set(values(j)))))
        if cols["precinct"] is None and free:
            take("precinct", max(free, key=lambda j: len(set(values(j)))))
        out["columns"] = cols
        return out

    out["layout"] = "wide"
    precinct = next((j for j in texts if named("precinct", j)), None)
    if precinct is None and texts:
        precinct = max(texts, key=lambda j: (len(set(values(j))), -j))
    out["precinct_column"] = precinct + 1 if precinct is not None else None
    above = [_clean(c) for c in rows[h - 1]] + [""] * width if h > 0 else [""] * width
    choices = [j for j in counts if not (
        j in stats or j == precinct or (precinct is not None and j < precinct)
        or vocab.STATISTIC.match(above[j]) or vocab.PERCENT.search(above[j]))]
    # The contests as a header band's (blocks.runs), the title over a contest's first column
    # standing for the columns beside it; a gap between columns ends a contest.
    titles = [""] * width
    for j in choices:
        titles[j] = above[j] or (titles[j - 1] if j - 1 in choices else "")
    names = [h.casefold() or f"\0{j}" for j, h in enumerate(header)]  # (a blank repeats none)
    found = blocks.runs(choices, titles, names, also=lambda r, c, _: c != r.cols[-1] + 1)
    out["blocks"] = [{"contest": r.title, "seats": 1, "columns": [c + 1 for c in r.cols]}
                     for r in found]
    return out


def fits(mapping: dict[str, Any], header: list[str]) -> bool:
    """Whether a saved mapping suits a sheet with this ``header``: every column it names by
    name is there, and where it names columns by position (a wide mapping), the header it
    was made on (its ``"header"``) has the same names at those positions. For the wizard,
    which offers a saved mapping for another sheet of the workbook or next year's file."""
    refs: list[object] = []
    if mapping.get("layout") == "long":
        refs = [r for r in mapping.get("columns", {}).values() if r not in (None, "")]
    elif mapping.get("layout") == "wide":
        refs = [mapping.get("precinct_column")] + [
            c for b in mapping.get("blocks", []) for c in b.get("columns", [])]
    made_on = [_clean(h).casefold() for h in mapping.get("header", [])]
    here = [_clean(h).casefold() for h in header]
    if not refs:
        return False
    for r in refs:
        at = column_position(header, r)
        if at is None:
            return False
        by_name = isinstance(r, str) and _letters(r) is None
        if not by_name and (at > len(made_on) or made_on[at - 1] != here[at - 1]):
            return False  # a position the sheet has, but not known to hold the same
    return True
