"""Hand-built county workbooks: free-form wide sheets headed 'Precinct Name, Reg. Voters, …'.

What such sheets share (Juab, Tooele and others): title rows; a header row that starts with
``Precinct Name`` (or ``Precinct``) followed by statistics (``Total Reg. Voters``, ``Total
Ballots Cast``, ``Turn out %``) and then one column per candidate. Contests are given either
as a row of titles above the candidate names (``US Senate`` repeated or merged over its
candidates) or as the header itself with the candidate names on the next row; an optional
row of party codes may follow. Line breaks inside headers are ignored. A closing
``COUNTY TOTALS`` / ``Totals:`` row holds the file's own totals. ``Suppressed`` in a
contest's first cell hides that precinct's counts for privacy. A blank cell means the
contest was not on that precinct's ballot.

Several elections may sit in several sheets: ``options.sheet`` picks one; otherwise the
first sheet that reads is used and an issue names the others. These layouts are made by
hand, so detection is only moderately confident.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from recount_desk.core.model import Issue, Severity

from . import vocab
from ._sheets import RawRow, frame, iter_sheets, to_int, workbook_sheet_names
from .base import Detection, RawCanvass, ReadOptions, fail
from .tabular import read_csv_text, sniff

FAMILY = "handbuilt"
LABEL = "Hand-built county workbook (Precinct Name, Reg. Voters, Ballots Cast, candidates)"

_STAT = re.compile(r"^(total\s+)?(reg(\.|istered)?\s*voters?|ballots?\s+cast|turn\s*-?\s*out\s*%?|"
                   r"voter\s+turnout|%\s*turnout|times\s+cast|cards\s+cast)$", re.IGNORECASE)
_PRECINCT = re.compile(r"^precincts?(\s+name)?$", re.IGNORECASE)
_PARTY_CODE = re.compile(r"^\(?\s*(REP|DEM|LIB|CON|IAP|UNA|GRN|UUP|NON|IND|AMD|UTJ|NLP|UPP|"
                         r"GOP|NP)\s*\)?$", re.IGNORECASE)
_PARTY_PREFIX = re.compile(r"^(GOP|REP|Republican|DEM|Democratic|Democrat|LIB|Libertarian|CON|"
                           r"Constitution)\s+(for\s+)?(?=\S)", re.IGNORECASE)
_PARTY_NAMES = {"gop": "REP", "rep": "REP", "republican": "REP", "dem": "DEM",
                "democratic": "DEM", "democrat": "DEM", "lib": "LIB", "libertarian": "LIB",
                "con": "CON", "constitution": "CON"}
_SUPPRESSED = {"suppressed", "*", "**", "***", "****"}


def _clean(text: str) -> str:
    return " ".join(text.split())


def _find_header(rows: list[list[str]]) -> int | None:
    for i, r in enumerate(rows[:25]):
        cells = [_clean(c) for c in r]
        if not cells or not _PRECINCT.match(cells[0]):
            continue
        stats = sum(1 for c in cells[1:6] if _STAT.match(c))
        if stats >= 2 and len([c for c in cells if c]) > stats + 1:
            # Not the Salt Lake SOVC ('Precinct, Type, …') nor an ES&S table ('By Mail').
            low = {c.lower() for c in cells}
            if "type" in low or "by mail" in low:
                return None
            return i
    return None


def detect(path: Path, kind: str) -> Detection | None:
    if kind not in ("xlsx", "xls", "ods", "csv"):
        return None
    try:
        for sheet, rows in _sheets(path, kind, nrows=25, limit=4):
            h = _find_header(rows)
            if h is None:
                continue
            first = _clean(rows[h][0]).lower()
            conf = 70 if first.startswith("precinct name") or first.startswith("precincts") \
                else 50
            where = f"sheet {sheet!r}, " if sheet else ""
            return Detection(FAMILY, LABEL, conf, f"{where}row {h + 1}: a hand-built header "
                             f"{_clean(rows[h][0])!r} with voter statistics and candidate "
                             "columns (free-form layout: check the contests read)")
    except Exception:  # never raise for a file that is not ours
        return None
    return None


def _sheets(path: Path, kind: str, *, nrows: int | None = None, limit: int | None = None,
            names: list[str] | None = None, options: ReadOptions | None = None
            ) -> Iterator[tuple[str, list[list[str]]]]:
    if kind == "csv":
        df, _ = read_csv_text(path, header=None, nrows=nrows, sep=None)
        yield "", df.fillna("").astype(str).to_numpy().tolist()
        return
    all_names = names if names is not None else workbook_sheet_names(path)
    if limit is not None:
        all_names = all_names[:limit]
    yield from iter_sheets(path, all_names, nrows=nrows, options=options)


def read(path: Path, options: ReadOptions | None = None) -> RawCanvass:
    """Read one election (one sheet) of a hand-built county workbook."""
    options = options or ReadOptions()
    kind = sniff(path)
    if kind not in ("xlsx", "xls", "ods", "csv"):
        raise fail(path, "This is not a spreadsheet, so it is not a county results workbook. "
                   "Export it as XLSX or CSV.")
    names: list[str] | None = None
    if kind != "csv":
        all_names = workbook_sheet_names(path)
        if options.sheet is not None:
            if options.sheet not in all_names:
                raise fail(path, f"The workbook has no sheet {options.sheet!r}; its sheets are "
                           + ", ".join(repr(n) for n in all_names) + ".")
            names = [options.sheet]
        else:
            names = all_names
    readable: list[str] = []
    result: RawCanvass | None = None
    for sheet, rows in _sheets(path, kind, names=names, options=options):
        h = _find_header(rows)
        if h is None:
            continue
        if result is None:
            result = _read_sheet(path, sheet, rows, h)
            if result.rows.empty:
                result = None
                continue
        readable.append(sheet)
    if result is None:
        raise fail(path, "No sheet has a 'Precinct Name, Reg. Voters, Ballots Cast, <candidates>' "
                   "header with results under it, so this workbook cannot be read without help. "
                   "Use the column mapping to say where the precincts, contests and candidates "
                   "are.", sheet=options.sheet)
    others = [s for s in readable if s != result.sheet]
    if others and options.sheet is None:
        result.issues.insert(0, Issue(
            path.name, f"This workbook holds several result sheets; sheet {result.sheet!r} was "
            "read. Choose another sheet to import "
            + ", ".join(repr(s) for s in others) + " instead.", result.sheet,
            severity=Severity.WARNING))
    return result


def _split_contest(title: str) -> tuple[str, str]:
    m = _PARTY_PREFIX.match(title)
    if m:
        return title[m.end():].strip(), _PARTY_NAMES[m.group(1).lower()]
    m = re.search(r"\s*\((REP|DEM|LIB|CON|UNA|IAP)\)\s*$", title)
    if m:
        return title[:m.start()].strip(), m.group(1)
    return title, ""


def _read_sheet(path: Path, sheet: str, rows: list[list[str]], h: int) -> RawCanvass:
    name = path.name
    issues: list[Issue] = []
    header = [_clean(c) for c in rows[h]]
    width = max(len(r) for r in rows)
    header += [""] * (width - len(header))
    first = 1
    while first < len(header) and (_STAT.match(header[first]) or not header[first]):
        first += 1
        if first > 8:
            break
    below = [_clean(c) for c in rows[h + 1]] + [""] * width if h + 1 < len(rows) else [""] * width
    below_first = below[0].lower().rstrip(":")
    names_below = (below_first in ("", "candidate", "candidates", "choice") and
                   sum(1 for c in below[first:width] if c) >= 1 and
                   not any(to_int(c) is not None for c in below[1:width] if c) and
                   not all(_PARTY_CODE.match(c) for c in below[first:width] if c))
    if names_below:
        contest_row, name_row, data_start = header, below, h + 2
    else:
        above = [_clean(c) for c in rows[h - 1]] + [""] * width if h > 0 else [""] * width
        contest_row, name_row, data_start = above, header, h + 1
    # An optional row of party codes under the names.
    party_row = [""] * width
    if data_start < len(rows):
        nxt = [_clean(c) for c in rows[data_start]] + [""] * width
        cand = [c for c in nxt[first:width] if c]
        if cand and all(_PARTY_CODE.match(c) for c in cand):
            party_row, data_start = nxt, data_start + 1

    # Columns → (contest, party, choice, choice_party, kind); contests forward-filled.
    cols: list[tuple[int, str, str, str, str, str]] = []
    current = ""
    seen_titles: dict[str, str] = {}
    for j in range(first, width):
        title = contest_row[j] if j < len(contest_row) else ""
        if title:
            current = seen_titles.setdefault(title.casefold(), title)
        cname = name_row[j] if j < len(name_row) else ""
        if not cname:
            continue
        contest_title = current or "Results"
        k = vocab.choice_kind(cname)
        if k is None:
            continue
        contest, party = _split_contest(contest_title)
        cparty_raw = party_row[j] if j < len(party_row) else ""
        cparty = _PARTY_CODE.match(cparty_raw).group(1).upper() if cparty_raw and \
            _PARTY_CODE.match(cparty_raw) else ""
        choice, prefix = vocab.split_party_prefix(cname)
        cols.append((j, contest, party, choice, cparty or prefix, k))
    if not cols:
        return RawCanvass(name, FAMILY, frame([]), issues, sheet=sheet)
    if not (current or any(contest_row[first:width])):
        issues.append(Issue(name, "The sheet names no contests above its candidate columns; "
                            "they are read as one contest 'Results'. Use the column mapping "
                            "to split them.", sheet, h + 1, severity=Severity.WARNING))

    groups: dict[tuple[str, str], list[int]] = {}
    for idx, (_, contest, party, *_rest) in enumerate(cols):
        groups.setdefault((contest, party), []).append(idx)

    out: list[RawRow] = []
    file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
    suppressed: set[tuple[str, str, str]] = set()
    n_sup = 0
    bad = 0
    for i in range(data_start, len(rows)):
        r = [c.strip() for c in rows[i]] + [""] * width
        label = _clean(r[0])
        lead = [_clean(c) for c in r[:first + 1]]
        is_total = any(c and vocab.is_total_precinct(c) for c in lead) or \
            label.lower().startswith("county total")
        if not label and not is_total:
            continue
        if is_total:
            for j, contest, party, choice, _cp, _k in cols:
                v = to_int(r[j])
                if v is not None:
                    file_totals.setdefault((contest, "", party), {})[choice] = \
                        file_totals.get((contest, "", party), {}).get(choice, 0) + v
            continue
        for (contest, party), idxs in groups.items():
            cells = [r[cols[x][0]] for x in idxs]
            if cells and cells[0].lower() in _SUPPRESSED:
                suppressed.add((contest, "", party))
                n_sup += 1
                continue
            for x, text in zip(idxs, cells, strict=True):
                j, _c, _p, choice, cparty, k = cols[x]
                if not text:
                    continue  # not on this precinct's ballot
                v = to_int(text)
                if v is None:
                    bad += 1
                    if bad <= 10:
                        issues.append(Issue(name, f"The vote count {text!r} is not a whole "
                                            "number; it is read as 0.", sheet, i + 1,
                                            rows[h][j] if j < len(rows[h]) else None,
                                            Severity.ERROR))
                    v = 0
                out.append((label, contest, "", party, choice, cparty, k, v))
    if bad > 10:
        issues.append(Issue(name, f"… {bad - 10} more vote counts are not whole numbers.",
                            sheet, severity=Severity.ERROR))
    if n_sup:
        issues.append(Issue(name, f"{n_sup} precinct result(s) are marked 'Suppressed' for voter "
                            "privacy; the file's totals row is used for those contests.", sheet,
                            severity=Severity.NOTE))
    seats: dict[tuple[str, str, str], int] = {}
    for contest, party in groups:
        n = vocab.seats_in(contest)
        if n:
            seats[(contest, "", party)] = n
    title_text = " ".join(_clean(c) for r in rows[:h] for c in r if c).lower()
    primary: bool | None = None
    if "primary" in title_text or any(p for _c, p in groups):
        primary = True
    elif "general" in title_text:
        primary = False
    return RawCanvass(name, FAMILY, frame(out), issues, seats, file_totals, suppressed, primary,
                      election_name=_clean(rows[0][0]) if rows and rows[0] and rows[0][0]
                      else None, sheet=sheet or None)
