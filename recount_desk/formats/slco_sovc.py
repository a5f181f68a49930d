"""Salt Lake County Statements of Votes Cast in Excel: 2016–2018 workbooks, 2024 printed SOVC.

2016–2018 (``TOC`` sheet, one sheet per contest): title rows, then a header
``Precinct, Type, Reg. Voters, Cards Cast, Total Votes, CANDIDATE (PARTY), <% column>, …``
and six rows per precinct whose ``Type`` is a counting group (``Polling``, ``Vote Centers``,
``Vote By Mail``, ``Early Voting``, ``In-Office``) or ``Total``. Only the ``Total`` rows
count; the closing ``Election Total`` block is the file's own totals.

2024 (ES&S report printed to Excel, ``Page: n of 96``, one contest per sheet): title
``U.S. PRESIDENT (Vote for  1)   **** - Insufficient Turnout …``, header ``Precinct, Times
Cast, Registered Voters, , Precinct, NAME\\n((PARTY)), <%>, …, Total Votes, NAME\\nQualified
Write In, …, Unresolved\\nWrite-In``, then the blocks ``County`` / ``Salt Lake County`` with one
row per precinct and ``… - Total`` rows. Precincts with too few voters show ``****`` in every
cell: the contest is marked suppressed and the ``County - Total`` row is the contest total.
"""

from __future__ import annotations

import re
from pathlib import Path

from recount_desk.core.model import Issue, Severity

from . import vocab
from ._sheets import RawRow, frame, iter_sheets, to_int, workbook_sheet_names
from .base import Detection, RawCanvass, ReadOptions, fail
from .tabular import sniff

FAMILY = "slco_sovc"
LABEL = "Salt Lake County Statement of Votes Cast (SOVC workbook, 2016–2024)"

_GROUP_TYPES = {"polling", "vote centers", "vote by mail", "early voting", "in-office",
                "in office", "provisional", "absentee", "election day", "mail"}
_PARTY_END = re.compile(r"\s*\(+\s*([A-Za-z]{2,5})\s*\)+\s*$")
_VOTE_FOR = re.compile(r"\(\s*vote\s+for\s+(\d+)\s*\)", re.IGNORECASE)
_SUPPRESSED = "****"
_BLOCK_TOTAL = re.compile(r"^(.*\S)\s+-\s+total$", re.IGNORECASE)
_PAGE = re.compile(r"^page:\s*\d+\s+of\s+\d+", re.IGNORECASE)
_QUALIFIED_WI = re.compile(r"qualified\s+write[\s-]*in", re.IGNORECASE)
_UNRESOLVED_WI = re.compile(r"unresolved\s+write[\s-]*in", re.IGNORECASE)


def _clean(text: str) -> str:
    return " ".join(text.replace("_x0009_", " ").split())


# ---------------------------------------------------------------------------------------------

def detect(path: Path, kind: str) -> Detection | None:
    if kind not in ("xlsx", "xls", "ods"):
        return None
    try:
        names = workbook_sheet_names(path)
        if not names:
            return None
        first = next(iter_sheets(path, names[:1], nrows=15))[1]
        cells = [c for r in first for c in r if c]
        if names[0].strip().upper() == "TOC" and len(names) > 1 and any(
                "statement of votes cast" in c.lower() for c in cells):
            second = next(iter_sheets(path, names[1:2], nrows=14))[1]
            if _find_header_2018(second) is not None:
                return Detection(FAMILY, LABEL, 93, "TOC sheet and contest sheets with the "
                                 "header 'Precinct, Type, Reg. Voters, Cards Cast, Total Votes'")
            return Detection(FAMILY, LABEL, 60, "TOC sheet of a Statement of Votes Cast")
        if cells and _PAGE.match(cells[0]) and any(
                "statement of votes cast" in c.lower() for c in cells):
            if len(names) > 1:
                second = next(iter_sheets(path, names[1:2], nrows=6))[1]
                if _find_header_2024(second) is not None:
                    return Detection(FAMILY, LABEL, 90, "printed SOVC ('Page: 1 of n') with "
                                     "contest pages headed 'Precinct, Times Cast, Registered "
                                     "Voters'")
            return Detection(FAMILY, LABEL, 55, "printed Statement of Votes Cast ('Page: n of "
                             "m')")
    except Exception:  # never raise for a file that is not ours
        return None
    return None


def _find_header_2018(rows: list[list[str]]) -> tuple[int, int] | None:
    """(row index, column of 'Precinct') of the 2016-2018 header."""
    for i, r in enumerate(rows[:30]):
        low = [c.strip().lower() for c in r]
        for j, c in enumerate(low[:4]):
            if c == "precinct" and low[j + 1:j + 2] == ["type"] and "total votes" in low:
                return i, j
    return None


def _find_header_2024(rows: list[list[str]]) -> tuple[int, int] | None:
    for i, r in enumerate(rows[:30]):
        low = [_clean(c).lower() for c in r]
        for j, c in enumerate(low[:4]):
            if c == "precinct" and "times cast" in low:
                return i, j
    return None


def _shift(rows: list[list[str]], off: int) -> list[list[str]]:
    """Drop the empty columns left of the table (the sheets start in column B)."""
    return rows if off == 0 else [r[off:] for r in rows]


# ---------------------------------------------------------------------------------------------

def read(path: Path, options: ReadOptions | None = None) -> RawCanvass:
    """Read every contest sheet of a Salt Lake County SOVC workbook."""
    options = options or ReadOptions()
    kind = sniff(path)
    if kind not in ("xlsx", "xls", "ods"):
        raise fail(path, "This is not an Excel workbook, so it is not a Salt Lake County SOVC. "
                   "Export the Statement of Votes Cast as XLSX.")
    names = workbook_sheet_names(path)
    if options.sheet is not None:
        if options.sheet not in names:
            raise fail(path, f"The workbook has no sheet {options.sheet!r}; its sheets are "
                       + ", ".join(repr(n) for n in names[:12]) + ".")
        names = [options.sheet]
    st = _State(path.name)
    for sheet, rows in iter_sheets(path, names, options=options):
        found = _find_header_2018(rows)
        if found is not None:
            st.sheet_2018(sheet, _shift(rows, found[1]), found[0])
            continue
        found = _find_header_2024(rows)
        if found is not None:
            st.sheet_2024(sheet, _shift(rows, found[1]), found[0])
    if st.contests == 0:
        raise fail(path, "No contest sheet of a Salt Lake County Statement of Votes Cast was "
                   "found (no header 'Precinct, Type, …' or 'Precinct, Times Cast, …'). Export "
                   "the SOVC again as XLSX, or use the column mapping.")
    return st.finish()


class _State:
    def __init__(self, name: str) -> None:
        self.name = name
        self.rows: list[RawRow] = []
        self.issues: list[Issue] = []
        self.seats: dict[tuple[str, str, str], int] = {}
        self.file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
        self.suppressed: set[tuple[str, str, str]] = set()
        self.contests = 0
        self.any_party = False
        self.election_name: str | None = None
        self.unresolved = 0
        self.bad = 0

    # -- helpers ---------------------------------------------------------------------------
    def _title(self, raw: str) -> tuple[str, str, int | None]:
        title = _clean(raw)
        seats = None
        m = _VOTE_FOR.search(title)
        if m:
            seats = int(m.group(1))
            title = title[:m.start()].strip()
        party = ""
        m = _PARTY_END.search(title)
        if m and m.group(1).upper() == m.group(1):
            party = m.group(1).upper()
            title = title[:m.start()].strip()
            self.any_party = True
        return title, party, seats

    def _count(self, text: str, sheet: str, row: int, column: str) -> int:
        v = to_int(text)
        if v is None:
            if text.strip():
                self.bad += 1
                if self.bad <= 10:
                    self.issues.append(Issue(self.name, f"The vote count {text!r} is not a "
                                             "whole number; it is read as 0.", sheet, row,
                                             column, Severity.ERROR))
            return 0
        return v

    # -- 2016-2018 -------------------------------------------------------------------------
    def sheet_2018(self, sheet: str, rows: list[list[str]], h: int) -> None:
        above = [_clean(c) for r in rows[:h] for c in r[:8] if _clean(c)]
        if len(above) >= 2 and self.election_name is None:
            self.election_name = above[1]
        titles = [c for c in above if c.lower() not in ("table of contents",)]
        raw_title = titles[-1] if titles else _clean(sheet)
        title, party, seats = self._title(raw_title)
        key = (title, "", party)
        if seats is not None:
            self.seats[key] = seats
        header = rows[h]
        low = [c.strip().lower() for c in header]
        start = low.index("total votes") + 1
        cols: list[tuple[int, str, str, str]] = []
        for j in range(start, len(header)):
            cname = _clean(header[j])
            if not cname:
                continue  # the unlabelled percent column beside each count
            k = vocab.choice_kind(cname)
            if k is None:
                continue
            name, cparty = cname, ""
            m = _PARTY_END.search(cname)
            if m:
                name, cparty = cname[:m.start()].strip(), m.group(1).upper()
            cols.append((j, name, cparty, k))
        if not cols:
            return
        self.contests += 1
        for i, r in enumerate(rows[h + 1:], start=h + 2):
            if len(r) < 2 or not r[0].strip():
                continue
            typ = r[1].strip().lower()
            if typ != "total":
                if typ and typ not in _GROUP_TYPES:
                    self.issues.append(Issue(self.name, f"Unknown row type {r[1]!r}; only "
                                             "'Total' rows are counted.", sheet, i, "Type",
                                             Severity.WARNING))
                continue
            precinct = r[0].strip()
            is_total = vocab.is_total_precinct(precinct)
            for j, name, cparty, k in cols:
                v = self._count(r[j] if j < len(r) else "", sheet, i, header[j])
                if is_total:
                    self.file_totals.setdefault(key, {})[name] = v
                else:
                    self.rows.append((precinct, title, "", party, name, cparty, k, v))

    # -- 2024 printed ------------------------------------------------------------------------
    def sheet_2024(self, sheet: str, rows: list[list[str]], h: int) -> None:
        raw_title = ""
        for r in rows[:h]:
            for c in r:
                if _VOTE_FOR.search(c) or (c and not _PAGE.match(c) and not raw_title and
                                           not c[:1].isdigit()):
                    raw_title = c
            if raw_title and _VOTE_FOR.search(raw_title):
                break
        if not raw_title:
            self.issues.append(Issue(self.name, "A contest page has no title; it was skipped.",
                                     sheet, h + 1, severity=Severity.WARNING))
            return
        # The legend after the title ("**** - Insufficient Turnout …") is not part of it.
        raw_title = raw_title.split("****")[0]
        title, party, seats = self._title(raw_title)
        key = (title, "", party)
        if seats is not None:
            self.seats[key] = seats
        header = rows[h]
        low = [_clean(c).lower() for c in header]
        # Candidates start after the repeated 'Precinct' column.
        second = [j for j, c in enumerate(low) if c == "precinct"]
        start = (second[1] if len(second) > 1 else low.index("times cast")) + 1
        cols: list[tuple[int, str, str, str]] = []
        unresolved_cols: list[int] = []
        for j in range(start, len(header)):
            text = header[j]
            if not text.strip():
                continue  # percent column
            parts = [p.strip() for p in text.split("\n") if p.strip()]
            name = _clean(parts[0]) if parts else ""
            rest = " ".join(parts[1:])
            if _UNRESOLVED_WI.search(_clean(text)):
                unresolved_cols.append(j)
                continue
            k = vocab.choice_kind(name)
            if k is None:
                continue  # Total Votes
            cparty = ""
            m = _PARTY_END.search(rest) if rest else None
            if m:
                cparty = m.group(1).upper()
            if _QUALIFIED_WI.search(rest):
                k = "write_in"
            cols.append((j, name, cparty, k))
        if not cols:
            return
        self.contests += 1
        totals: dict[str, int] | None = None
        fallback: dict[str, int] | None = None
        sup = 0
        for i, r in enumerate(rows[h + 1:], start=h + 2):
            if not r or not r[0].strip():
                continue
            precinct = _clean(r[0])
            values = [r[j] if j < len(r) else "" for j, *_ in cols]
            m = _BLOCK_TOTAL.match(precinct)
            if m:
                tot = {name: self._count(v, sheet, i, name)
                       for (_, name, _, _), v in zip(cols, values, strict=True)}
                if m.group(1).lower() == "county":
                    totals = tot
                elif fallback is None and any(tot.values()):
                    fallback = tot
                continue
            if precinct.lower() in ("county", "cumulative") or vocab.is_total_precinct(precinct):
                continue
            if not any(v.strip() for v in values):
                continue  # a block label such as 'Salt Lake County'
            if any(v.strip() == _SUPPRESSED for v in values):
                sup += 1
                continue
            for (j, name, cparty, k), v in zip(cols, values, strict=True):
                self.rows.append((precinct, title, "", party, name, cparty, k,
                                  self._count(v, sheet, i, header[j])))
            for j in unresolved_cols:
                self.unresolved += to_int(r[j] if j < len(r) else "") or 0
        use = totals if totals is not None else fallback
        if use is not None:
            self.file_totals[key] = use
        if sup:
            self.suppressed.add(key)
            self.issues.append(Issue(
                self.name, f"{title}: {sup} precinct(s) are suppressed ('****', insufficient "
                "turnout to protect voter privacy); their votes are only in the county total "
                "row, which is used for the contest total.", sheet, severity=Severity.NOTE))

    def finish(self) -> RawCanvass:
        if self.bad > 10:
            self.issues.append(Issue(self.name, f"… {self.bad - 10} more vote counts are not "
                                     "whole numbers.", severity=Severity.ERROR))
        if self.unresolved:
            self.issues.append(Issue(self.name, f"{self.unresolved:,} unresolved write-in "
                                     "vote(s) are not counted for any candidate.",
                                     severity=Severity.NOTE))
        low = f"{self.name} {self.election_name or ''}".lower()
        primary: bool | None = None
        if self.any_party or "primary" in low:
            primary = True
        elif "general" in low:
            primary = False
        return RawCanvass(self.name, FAMILY, frame(self.rows), self.issues, self.seats,
                          self.file_totals, self.suppressed, primary,
                          election_name=self.election_name)
