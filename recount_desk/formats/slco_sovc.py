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

from recount_desk.core.model import ContestKey, Issue, Severity

from . import grid, vocab
from .base import Detection, RawCanvass, ReadOptions, fail
from .stages import detector, iter_sheets, to_int, workbook_sheet_names

FAMILY = "slco_sovc"
LABEL = "Salt Lake County Statement of Votes Cast (SOVC workbook, 2016–2024)"

_GROUP_TYPES = {"polling", "vote centers", "vote by mail", "early voting", "in-office",
                "in office", "provisional", "absentee", "election day", "mail"}
_PARTY_END = re.compile(r"\s*\(+\s*([A-Za-z]{2,5})\s*\)+\s*$")
# A party in a contest title marks a primary race; only party codes count ('(FULL)' does not).
_TITLE_PARTY = re.compile(r"\s*\(+\s*(REP|DEM|LIB|CON|GRN|UUP|IAP|UNA|IND|NON|NLP|UTJ|AMD|"
                          r"PSL|SWP)\s*\)+\s*$")
_VOTE_FOR = re.compile(r"\(\s*vote\s+for\s+(\d+)\s*\)", re.IGNORECASE)
_BLOCK_TOTAL = re.compile(r"^(.*\S)\s+-\s+total$", re.IGNORECASE)
_PAGE = re.compile(r"^page:\s*\d+\s+of\s+\d+", re.IGNORECASE)
_QUALIFIED_WI = re.compile(r"qualified\s+write[\s-]*in", re.IGNORECASE)
_UNRESOLVED_WI = re.compile(r"unresolved\s+write[\s-]*in", re.IGNORECASE)
# Statistics columns between 'Type' and the first candidate of the 2016-2018 layout.
_STAT_HEADERS = {"reg. voters", "reg voters", "registered voters", "cards cast", "ballots cast",
                 "times cast", "total votes", "voter turnout", "turnout", "total ballots"}
_PERCENT_HEADER = re.compile(r"^(%|pct\.?|percent(age)?|% of votes)$", re.IGNORECASE)
# Lines above the header that are not the contest title.
_NOT_TITLE = re.compile(
    r"^(statement of votes cast.*|table of contents|.*\b(general|primary|special|municipal|"
    r"presidential)\s+election\b.*|.*\bcounty,?\s+(ut|utah)|salt lake county|"
    r"(january|february|march|april|may|june|july|august|september|october|november|"
    r"december)\b.*\d{4}|\d{1,2}/\d{1,2}/\d{2,4}.*|page\b.*|vote\s+for\s+\d+|"
    r"disclaimer.*|(official|unofficial|final)\s+results?)$", re.IGNORECASE)


_ELECTION = re.compile(r"\b(general|primary|special|municipal)\b.*\belection\b", re.I)
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_DATE_WORDS = re.compile(r"^(?:\w+day,?\s+)?(" + "|".join(_MONTHS) + r")\s+(\d{1,2})"
                         r"(?:st|nd|rd|th)?,?\s+(\d{4})$", re.IGNORECASE)
_DATE_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:\s+00:00:00)?$")
_DATE_US = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")


def _date(text: str) -> str | None:
    """An ISO date from a line that is only a date: 'June 26th, 2018', '2024-11-05',
    '11/8/2016'."""
    import datetime as dt

    y = mo = d = 0
    if m := _DATE_WORDS.match(text):
        y, mo, d = int(m.group(3)), _MONTHS.index(m.group(1).lower()) + 1, int(m.group(2))
    elif m := _DATE_ISO.match(text):
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    elif m := _DATE_US.match(text):
        y, mo, d = int(m.group(3)), int(m.group(1)), int(m.group(2))
    else:
        return None
    try:
        return dt.date(y, mo, d).isoformat()
    except ValueError:
        return None


def _clean(text: str) -> str:
    return " ".join(text.replace("_x0009_", " ").split())


# ---------------------------------------------------------------------------------------------

@detector("xlsx", "xls", "ods")
def detect(path: Path, kind: str) -> Detection | None:
    names = workbook_sheet_names(path)
    if not names:
        return None
    first = next(iter_sheets(path, names[:1], nrows=30))[1]
    cells = [c for r in first[:15] for c in r if c]
    if names[0].strip().upper() == "TOC" and len(names) > 1:
        second = next(iter_sheets(path, names[1:2], nrows=30))[1]
        if _find_header_2018(second) is not None:
            return Detection(FAMILY, LABEL, 93, "TOC sheet and contest sheets with the "
                             "header 'Precinct, Type, Reg. Voters, Cards Cast, Total Votes'")
        if any("statement of votes cast" in c.lower() for c in cells):
            return Detection(FAMILY, LABEL, 60, "TOC sheet of a Statement of Votes Cast")
    if _find_header_2018(first) is not None:
        # A workbook of contest sheets without the TOC (one contest, e.g. a recount).
        return Detection(FAMILY, LABEL, 88, "contest sheet with the header 'Precinct, Type, "
                         "Reg. Voters, Cards Cast, Total Votes' (Salt Lake County SOVC)")
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
    return None


def _find_header_2018(rows: list[list[str]]) -> tuple[int, int] | None:
    """(row index, column of 'Precinct') of the 2016-2018 header: 'Precinct, Type' followed
    by statistics columns ('Reg. Voters', 'Cards Cast', 'Total Votes')."""
    for i, r in enumerate(rows[:30]):
        low = [_clean(c).lower() for c in r]
        for j, c in enumerate(low[:4]):
            if c == "precinct" and low[j + 1:j + 2] == ["type"] and any(
                    x in _STAT_HEADERS for x in low[j + 2:j + 6]):
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
    _, _, names = grid.open_sheets(path, options.sheet, "This is not an Excel workbook, so it "
                                   "is not a Salt Lake County SOVC. Export the Statement of "
                                   "Votes Cast as XLSX.", grid.WORKBOOKS, listed=12)
    st = _State(path.name)
    for sheet, rows in iter_sheets(path, names, options=options):
        found = _find_header_2018(rows)
        if found is not None:
            st.sheet_2018(sheet, _shift(rows, found[1]), found[0])
            continue
        found = _find_header_2024(rows)
        if found is not None:
            st.sheet_2024(sheet, _shift(rows, found[1]), found[0])
            continue
        st.meta(rows[:15])  # the cover sheet: election name and date
    if st.contests == 0:
        raise fail(path, "No contest sheet of a Salt Lake County Statement of Votes Cast was "
                   "found (no header 'Precinct, Type, …' or 'Precinct, Times Cast, …'). Export "
                   "the SOVC again as XLSX, or use the column mapping.")
    return st.finish()


class _State(grid.Book):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.election_name: str | None = None
        self.election_date: str | None = None
        self.unresolved = 0

    # -- helpers ---------------------------------------------------------------------------
    def _title(self, raw: str) -> tuple[str, str, int | None]:
        title = _clean(raw)
        seats = None
        m = _VOTE_FOR.search(title)
        if m:
            seats = int(m.group(1))
            title = title[:m.start()].strip()
        party = ""
        m = _TITLE_PARTY.search(title)
        if m:
            party = m.group(1).upper()
            title = title[:m.start()].strip()
            self.any_party = True
        return title, party, seats

    def meta(self, rows: list[list[str]]) -> None:
        """The election's name and date from the lines above a table ('2018 Primary
        Election', 'June 26th, 2018'; 'General Election', '2024-11-05')."""
        for c in (_clean(c) for r in rows for c in r):
            if not c or len(c) > 200:
                continue
            if self.election_name is None and _ELECTION.search(c):
                self.election_name = c
            if self.election_date is None:
                self.election_date = _date(c)

    # -- 2016-2018 -------------------------------------------------------------------------
    def _title_2018(self, sheet: str, rows: list[list[str]], h: int) -> tuple[str, int | None]:
        """The contest title above the header, and a 'Vote for n' line if there is one.

        The title rows hold 'Statement of Votes Cast', the election, its date, the county and
        the contest; the cell that the sheet name begins (sheet names are cut at 31
        characters) is the title, else the last line that is none of the others."""
        above = [_clean(c) for r in rows[:h] for c in r[:8] if _clean(c)]
        above = [c for c in above if len(c) <= 200]  # the disclaimer paragraph
        self.meta([above])
        seats = None
        for c in above:
            n = vocab.seats_in(c)
            if n is not None:
                seats = n
                break
        want = _clean(sheet).casefold()
        for c in above:
            if want and (c.casefold() == want or (len(want) >= 20 and
                                                  c.casefold().startswith(want))):
                return c, seats
        titles = [c for c in above if not _NOT_TITLE.match(c)]
        return (titles[-1] if titles else _clean(sheet)), seats

    def sheet_2018(self, sheet: str, rows: list[list[str]], h: int) -> None:
        raw_title, seats_line = self._title_2018(sheet, rows, h)
        title, party, seats = self._title(raw_title)
        seats = seats if seats is not None else seats_line
        key = (title, "", party)
        if seats is not None:
            self.seats[key] = seats
        header = rows[h]
        low = [_clean(c).lower() for c in header]
        start = max(j for j, c in enumerate(low[:12]) if c in _STAT_HEADERS or j == 1) + 1
        cols: list[tuple[int, str, str, str]] = []
        for j in range(start, len(header)):
            cname = _clean(header[j])
            if not cname or _PERCENT_HEADER.match(cname):
                continue  # the percent column beside each count
            k = vocab.choice_kind(cname)
            if k is None:
                continue
            name, cparty = cname, ""
            m = _PARTY_END.search(cname)
            if m:
                name, cparty = cname[:m.start()].strip(), m.group(1).upper()
            cols.append((j, name, cparty, k))
        if not cols:
            self.log.warn(f"The contest {title!r} has no candidate columns after the statistics "
                          "columns; it was skipped.", sheet=sheet, row=h + 1)
            return
        self.contests += 1
        # Per precinct (in order of appearance): its 'Total' rows and the sum of its
        # counting-group rows, so that a precinct without a 'Total' row is still counted and
        # a 'Total' row that disagrees with its groups is reported.
        totals: dict[str, list[tuple[int, list[int]]]] = {}
        groups: dict[str, list[int]] = {}
        first_row: dict[str, int] = {}
        unknown: dict[str, tuple[int, int]] = {}  # type -> (rows, first row)
        untyped: list[int] = []
        hidden: set[str] = set()
        sup = 0
        for i, r in enumerate(rows[h + 1:], start=h + 2):
            if len(r) < 2 or not r[0].strip():
                continue
            precinct = _clean(r[0])
            typ = _clean(r[1]).lower()
            cells = [r[j] if j < len(r) else "" for j, *_ in cols]
            if not typ:
                if any(c.strip() for c in cells):
                    untyped.append(i)
                continue
            if typ != "total" and typ not in _GROUP_TYPES:
                n, first = unknown.get(_clean(r[1]), (0, i))
                unknown[_clean(r[1])] = (n + 1, first)
                continue
            if any(vocab.is_suppressed(c) for c in cells):
                if typ == "total" and not vocab.is_total_precinct(precinct):
                    sup += 1
                    hidden.add(precinct)
                continue
            values = [self.tally.count(c, sheet=sheet, row=i, column=header[j]) for c, (j, *_) in
                      zip(cells, cols, strict=True)]
            first_row.setdefault(precinct, i)
            if typ == "total":
                totals.setdefault(precinct, []).append((i, values))
            else:
                acc = groups.setdefault(precinct, [0] * len(cols))
                for n, v in enumerate(values):
                    acc[n] += v
        no_total: list[str] = []
        mismatch: list[tuple[str, int]] = []
        for precinct in first_row:
            if precinct in hidden:
                continue
            rows_tot = totals.get(precinct)
            group = groups.get(precinct)
            if rows_tot is None:
                if group is None:
                    continue
                no_total.append(precinct)
                rows_tot = [(first_row[precinct], group)]
            elif group is not None and rows_tot[0][1] != group:
                mismatch.append((precinct, rows_tot[0][0]))
            if vocab.is_total_precinct(precinct):
                self.file_totals[key] = {name: v for (_, name, _, _), v in
                                         zip(cols, rows_tot[0][1], strict=True)}
                continue
            for _, values in rows_tot:
                for (_, name, cparty, k), v in zip(cols, values, strict=True):
                    self.rows.append((precinct, title, "", party, name, cparty, k, v))
        if first_row and not any(vocab.is_total_precinct(p) for p in (*first_row, *hidden)):
            self._cut_short(sheet, title, key)
        for typ, (n, first) in unknown.items():
            self.log.warn(f"{title}: {n} row(s) have the unknown Type {typ!r}; only 'Total' rows "
                          "are counted, so check that these are not votes left out.",
                          sheet=sheet, row=first, column="Type")
        if untyped:
            self.log.warn(f"{title}: {len(untyped)} row(s) with counts have no Type; they were "
                          "not counted.", sheet=sheet, row=untyped[0], column="Type")
        if no_total:
            self.log.warn(f"{title}: {len(no_total)} precinct(s) have no 'Total' row (first "
                          f"{no_total[0]!r}); their counting-group rows were added up instead.",
                          sheet=sheet, row=first_row[no_total[0]], column="Type")
        if mismatch:
            self.log.warn(f"{title}: in {len(mismatch)} precinct(s) the 'Total' row is not the "
                          f"sum of the counting-group rows above it (first {mismatch[0][0]!r}); "
                          "the 'Total' row is counted. Check the file against the printed "
                          "SOVC.", sheet=sheet, row=mismatch[0][1], column="Type")
        if sup:
            self.suppressed.add(key)
            self.log.note(f"{title}: {sup} precinct(s) are suppressed ('****'); their votes are "
                          "only in the Election Total, which is used for the contest total.",
                          sheet=sheet)

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
            self.log.warn("A contest page has no title; it was skipped.", sheet=sheet, row=h + 1)
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
                tot = {name: self.tally.count(v, sheet=sheet, row=i, column=name)
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
            if any(vocab.is_suppressed(v) for v in values):
                sup += 1
                continue
            for (j, name, cparty, k), v in zip(cols, values, strict=True):
                self.rows.append((precinct, title, "", party, name, cparty, k,
                                  self.tally.count(v, sheet=sheet, row=i, column=header[j])))
            for j in unresolved_cols:
                self.unresolved += to_int(r[j] if j < len(r) else "") or 0
        use = totals if totals is not None else fallback
        if use is not None:
            self.file_totals[key] = use
        elif any(r and r[0].strip() for r in rows[h + 1:]):
            self._cut_short(sheet, title, key)
        if sup:
            self.suppressed.add(key)
            self.log.note(f"{title}: {sup} precinct(s) are suppressed ('****', insufficient "
                          "turnout to protect voter privacy); their votes are only in the county "
                          "total row, which is used for the contest total.", sheet=sheet)

    def _cut_short(self, sheet: str, title: str, key: tuple[str, str, str]) -> None:
        """A contest's sheet without the county's totals, which the export ends every
        contest's sheet with: cut short (or the rows deleted), so its precincts may not be
        all of them. An error on that contest (the other sheets are whole)."""
        self.log.issues.append(Issue(
            self.log.file, f"{title}: the contest's sheet has no county (Election Total) rows, "
            "which the Statement of Votes Cast ends every contest's sheet with: the sheet is "
            "probably cut short (or the rows were deleted), so its precincts may not be all of "
            "them. Export the statement again.", sheet, severity=Severity.ERROR,
            contest=ContestKey(*key)))

    def finish(self) -> RawCanvass:
        self.tally.close()
        if self.unresolved:
            self.log.note(f"{self.unresolved:,} unresolved write-in vote(s) are not counted for "
                          "any candidate.")
        return self.raw(FAMILY, f"{self.name} {self.election_name or ''}",
                        election_name=self.election_name, election_date=self.election_date)
