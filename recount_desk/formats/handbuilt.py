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

Retention and ballot-question columns may carry the stance in the title (``YES Judicial
Retention`` / ``NO Judicial Retention`` over the judge's name, ``FOR Cons. Amend A`` /
``AGAINST Cons. Amend A`` over an empty cell): the stance is the choice and the rest (with
the judge's name) the contest. A sheet converted from a PDF may repeat its title and header
rows on every page, carry ``Page n of m`` lines, and leave empty columns from merged cells;
those are skipped. Excel error values (``#DIV/0!``) in a vote column are errors, not blanks.

Several elections may sit in several sheets: ``options.sheet`` picks one; otherwise the
first sheet that reads is used and an issue names every other sheet. A workbook (or sheet)
that holds only ballot statistics (registered voters, ballots cast, provisional ballots) and
no contest results is refused with a sentence saying so. These layouts are made by hand, so
detection is only moderately confident.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from recount_desk.core.model import Issue, Remedy, Severity

from . import grid, vocab
from ._workbook_checks import excel_error_cells, hidden_sheets
from .base import Detection, ImportFailed, RawCanvass, ReadOptions, fail
from .pipeline import IssueLog
from .stages import detector, frame, sheets, to_int
from .tabular import col_letter, read_csv_rows, read_csv_text

FAMILY = "handbuilt"
LABEL = "Hand-built county workbook (Precinct Name, Reg. Voters, Ballots Cast, candidates)"
# detect() never claims more than this (formats.detect skips it after a surer claim).
MAX_CONFIDENCE = 70
COUNTY_UNIT = "Entire county (totals row)"
SUMMARY_LABEL = "Ballot summary (ballot statistics only, no contest results)"

# A header with no statistics columns is claimed less surely than one with them.
_BARE_CONFIDENCE = 40
_DETECT_SHEETS = 9       # Tooele 2024 keeps nine elections in nine sheets
# (a county's own short words too: 'Voters', 'Ballots', 'Percent', 'Total Votes Cast')
_STAT = re.compile(r"^(total\s+)?(reg(\.|istered)?\s*voters?|"
                   r"ballots?\s+(cast|counted|issued|received|returned)|turn\s*-?\s*out\s*%?|"
                   r"voter\s+turnout|%\s*turnout|times\s+cast|cards\s+cast|active\s+voters?|"
                   r"voters|ballots|percent|votes\s+cast)$",
                   re.IGNORECASE)
_PRECINCT = vocab.PRECINCT_HEADER
# Header cells of other layouts beside 'Precinct': the Salt Lake SOVC's, an ES&S table's.
_OTHER_LAYOUTS = frozenset({"type", "by mail"})
_PARTY_PREFIX = re.compile(r"^(GOP|REP|Republican|DEM|Democratic|Democrat|LIB|Libertarian|CON|"
                           r"Constitution)\s+(for\s+)?(?=\S)", re.IGNORECASE)
_BALLOTS_CAST = re.compile(r"\bballots\s+cast\b(?!\s*-?\s*blank)|\btimes\s+cast\b",
                           re.IGNORECASE)
# 'YES Judicial Retention', 'NO \nJudicial Retention', 'FOR Cons. Amend A', 'Prop 1 - Against'.
_STANCE_FIRST = re.compile(r"^(yes|no|for|against)\b[\s:\-–]*(?=\S)(.*)$", re.IGNORECASE)
_STANCE_LAST = re.compile(r"^(.*?\S)[\s:\-–]+(yes|no|for|against)$", re.IGNORECASE)
# A precinct's total under its parts ('SL001 Total' under 'SL001 - Part 1'): its stem.
_PRECINCT_TOTAL = re.compile(r"^(.*?\S)\s*[-:–]?\s*(sub-?\s*)?totals?\s*:?$", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Ballot statistics, as a summary of ballots (Summit 2020) or provisional ballots (Cache 2020)
# labels them; none of them is a contest or a candidate. Some words only say so alongside
# at least one of the specific ones.
_BALLOT_STAT = re.compile(
    r"^(total\s+)?(registered\s+voters?|reg\.?\s*voters?|active\s+voters?|"
    r"(total\s+)?ballots?(\s+(cast|counted|issued|returned|received|rejected|accepted|mailed|"
    r"processed|spoiled|challenged|cured|tabulated|voted|sent|outstanding|"
    r"by\s+mail|in\s+person))?|turn\s*-?\s*out\s*%?|(voter\s+)?turnout(\s*%)?|%\s*turnout|"
    r"provisional(\s+(ballots?|envelopes?))?(\s+(cast|counted|received|accepted|rejected|"
    r"issued|verified))?|mail(\s+ballots?)|absentee(\s+ballots?)?|uocava(\s+ballots?)?|"
    r"signature\s+(cure|rejected|mismatch)s?)\s*:?$", re.IGNORECASE)
_GENERIC_STAT = re.compile(
    r"^(accepted|rejected|counted|(vote\s+)?by\s+mail|in\s+person|early(\s+voting)?|"
    r"election\s+day|vote\s+centers?|military|overseas|drop\s+box(es)?|precincts?(\s+name)?|"
    r"precincts?\s+(counted|reporting)|statistics|summary|ballot\s+summary|reason|date|"
    r"count|number|percent|%|total|totals)\s*:?$", re.IGNORECASE)
_CHOICE_WORD = re.compile(r"^(yes|no|for|against|rep|dem|gop|lib|con|una|iap|write-?\s*in)$",
                          re.IGNORECASE)
# Column names of a comparison of counts (a recount sheet), not of candidates.
_COMPARISON = re.compile(r"^(original(\s+count)?|machine\s+count|canvass(\s+count)?|"
                         r"recount(\s+count)?|hand\s+count|difference|diff\.?|change|"
                         r"net\s+change|variance|gain|loss)$", re.IGNORECASE)


def _clean(text: str) -> str:
    return " ".join(_CONTROL.sub(" ", text).split())


def _strip_leading_columns(rows: list[list[str]]) -> tuple[list[list[str]], int]:
    """Rows without the columns that are empty in every row (a PDF conversion leaves them
    before the precinct names); also the number of columns removed."""
    lead = min((next((j for j, c in enumerate(r) if c.strip()), len(r)) for r in rows
                if any(c.strip() for c in r)), default=0)
    if lead == 0:
        return rows, 0
    return [r[lead:] for r in rows], lead


def _is_header(cells: list[str]) -> bool:
    if not cells or not _PRECINCT.match(cells[0]):
        return False
    stats = sum(1 for c in cells[1:6] if _STAT.match(c))
    # (and a cell that is no ballot statistic: a sheet of those alone is a ballot summary)
    return stats >= 2 and len([c for c in cells if c]) > stats + 1 and any(
        c and not _STAT.match(c) and not _BALLOT_STAT.match(c) for c in cells[1:])


def _join_split_headers(rows: list[list[str]]) -> list[list[str]]:
    """A header a PDF conversion split over two rows ('Precinct' / 'Name', 'Total Reg.' /
    'Voters') joined into the first of them; the second is left empty, so row numbers stay."""
    out = rows
    for i in range(len(rows) - 1):
        a, b = rows[i], rows[i + 1]
        starts = (_clean(a[0]) if a else "") + " " + (_clean(b[0]) if b else "")
        if not starts.strip().lower().startswith(("precinct", "pct")):
            continue
        if _is_header([_clean(c) for c in a]) or _is_header([_clean(c) for c in b]):
            continue
        width = max(len(a), len(b))
        joined = [" ".join(x for x in ((a[j] if j < len(a) else "").strip(),
                                       (b[j] if j < len(b) else "").strip()) if x)
                  for j in range(width)]
        if _is_header([_clean(c) for c in joined]):
            if out is rows:
                out = list(rows)
            out[i], out[i + 1] = joined, [""] * width
    return out


def _find_header(rows: list[list[str]]) -> int | None:
    for i, r in enumerate(rows[:25]):
        cells = [_clean(c) for c in r]
        if not _is_header(cells):
            continue
        below = [_clean(c) for c in rows[i + 1]] if i + 1 < len(rows) else []
        if _is_header(below) and below != cells:
            # The header band's rows each begin 'Precinct Name, Reg. Voters …': the lower
            # one names the candidates, the upper one (above it in the band) the contests.
            i, cells = i + 1, below
        # Not the Salt Lake SOVC ('Precinct, Type, …') nor an ES&S table ('By Mail').
        if any(c.lower() in _OTHER_LAYOUTS for c in cells):
            return None
        return i
    return next((i for i in range(min(len(rows), 25)) if _bare_header(rows, i)), None)


def _bare_header(rows: list[list[str]], i: int) -> bool:
    """A header with no statistics columns ('Precinct, Mike Lee, Evan McMullin, …') under a
    row of contests' titles over the candidates' columns (its first cell empty), with
    precinct rows of counts under it: the hand-built layout without its statistics. (A
    stacked table's title is in the precincts' column; a sideways sheet's header names
    precincts under title rows.)"""
    if not rows[i] or not _PRECINCT.match(_clean(rows[i][0])):
        return False
    cells = [_clean(c) for c in rows[i]]
    rest = [c for c in cells[1:] if c]
    if len(rest) < 2 or any(to_int(c) is not None or c.lower() in _OTHER_LAYOUTS
                            for c in rest):
        return False
    above = grid.row_above(rows, i, 3)
    if above is None:
        return False
    over = [_clean(c) for c in above]
    if not over or over[0]:
        return False
    if not any(j < len(cells) and cells[j] and t for j, t in enumerate(over) if j) or \
            any(to_int(t) is not None for t in over if t):
        return False
    # (one precinct's row will do: a district's contest may be on one precinct's ballot)
    return any(r and _clean(r[0]) and any(to_int(c) is not None for c in r[1:])
               for r in rows[i + 1:i + 8])


def _ballot_summary(rows: list[list[str]]) -> str | None:
    """What a sheet of ballot statistics holds ('registered voters, ballots cast, …'), or
    None when it is not one (it names contests or candidates, or holds no counts)."""
    labels: list[str] = []
    numbers = 0
    strong = 0
    for r in rows[:200]:
        for c in r:
            t = _clean(c)
            if not t:
                continue
            if to_int(t) is not None or grid.number_like(t):
                numbers += 1
                continue
            if _BALLOT_STAT.match(t):
                labels.append(t)
                strong += 1
            elif _GENERIC_STAT.match(t):
                labels.append(t)
            elif vocab.CONTEST_WORD.search(t) or _CHOICE_WORD.match(t):
                return None
    distinct = list(dict.fromkeys(x.lower() for x in labels))
    if not strong or len(distinct) < 3 or numbers < 3:
        return None
    return ", ".join(distinct[:4])


def _summary_failure(path: Path, sheet: str | None, what: str, others: list[str]
                     ) -> ImportFailed:
    where = f"sheet {sheet!r} of this workbook" if sheet else "this file"
    instead = ("choose another sheet (" + ", ".join(repr(n) for n in others) + ")"
               if others else "export the precinct-level canvass (the Statement of Votes Cast, "
               "with a column or row per candidate) from the election system as XLSX or CSV")
    return fail(path, f"This is a ballot summary, not a canvass: {where} holds ballot statistics "
                f"({what} …) but no contest results, so there is nothing to recount in it; "
                f"{instead} instead.", sheet=sheet or None)


@detector("xlsx", "xls", "ods", "csv")
def detect(path: Path, kind: str) -> Detection | None:
    summaries = 0
    seen = 0
    for sheet, raw in _sheets(path, kind, nrows=200, limit=_DETECT_SHEETS):
        rows, _lead, h = _prepare(raw)
        if h is None:
            if any(any(c.strip() for c in r) for r in rows):
                seen += 1
                summaries += _ballot_summary(rows) is not None
            continue
        first = _clean(rows[h][0]).lower()
        where = f"sheet {sheet!r}, " if sheet else ""
        if not _is_header([_clean(c) for c in rows[h]]):
            # (no statistics columns: the least sure of this family's claims)
            return Detection(FAMILY, LABEL, _BARE_CONFIDENCE, f"{where}row {h + 1}: a "
                             f"hand-built header {_clean(rows[h][0])!r} with candidate "
                             "columns under a row of contests, no voter statistics "
                             "(free-form layout: check the contests read)")
        conf = 70 if first.startswith("precinct name") or first.startswith("precincts") \
            else 50
        return Detection(FAMILY, LABEL, conf, f"{where}row {h + 1}: a hand-built header "
                         f"{_clean(rows[h][0])!r} with voter statistics and candidate "
                         "columns (free-form layout: check the contests read)")
    if seen and summaries == seen:
        return Detection(FAMILY, SUMMARY_LABEL, 10, "only ballot statistics (registered "
                         "voters, ballots cast …) and no contests or candidates")
    return None


def _csv_rows(path: Path, nrows: int | None) -> list[list[str]]:
    """A hand-made CSV's rows, its delimiter sniffed (rows of different lengths, such as a
    title line of one field, as they are); read as commas where the first line tells no
    delimiter (a blank line, as a re-save leaves: kept, so that rows keep their numbers)."""
    try:
        df, _ = read_csv_text(path, header=None, nrows=nrows, sep=None)
    except (ImportFailed, csv.Error):
        return read_csv_rows(path, limit=nrows)[0]
    rows: list[list[str]] = df.fillna("").astype(str).to_numpy().tolist()
    return rows


def _prepare(rows: list[list[str]]) -> tuple[list[list[str]], int, int | None]:
    """A sheet's rows without its empty leading columns (and how many), a split header
    joined, and the header's row (None where there is none)."""
    rows, lead = _strip_leading_columns(rows)
    rows = _join_split_headers(rows)
    return rows, lead, _find_header(rows)


def _sheets(path: Path, kind: str, **how: Any) -> Iterator[tuple[str, list[list[str]]]]:
    return sheets(path, kind, csv_rows=_csv_rows, **how)


def read(path: Path, options: ReadOptions | None = None) -> RawCanvass:
    """Read one election (one sheet) of a hand-built county workbook."""
    options = options or ReadOptions()
    kind, all_names, names = grid.open_sheets(path, options.sheet)
    # Excel shows the visible sheets; a hidden one is read only when the officer chooses it
    # (a draft, or an earlier election's figures, kept out of sight).
    hidden = hidden_sheets(path) if kind != "csv" and options.sheet is None else []
    if hidden and names is not None:
        names = [n for n in names if n not in hidden]
    readable: list[str] = []
    summaries: dict[str, str] = {}
    empty: list[str] = []
    result: RawCanvass | None = None
    read_from = first_title = ""
    pages: list[str] = []
    by_contest: list[str] = []  # the sheets after the first, a contest each
    first_named = False  # the first sheet read has one contest, named as the sheet
    unread: list[str] = []  # sheets with figures on them and no header found
    for sheet, raw in _sheets(path, kind, names=names, options=options):
        rows, lead, h = _prepare(raw)
        if h is None:
            if not any(any(c.strip() for c in r) for r in rows):
                empty.append(sheet)
                continue
            what = _ballot_summary(rows)
            if what is not None:
                summaries[sheet] = what
            elif any(to_int(c) is not None for r in rows for c in r[1:]):
                unread.append(sheet)   # (figures: a contest's sheet, perhaps; not notes)
            continue
        if result is None:
            result, read_from = _read_sheet(path, kind, sheet, rows, h, lead), sheet
            first_title = _title_of(rows, h)
            if result.rows.empty:
                result = None
                continue
            first_named = _titled_by_its_sheet(result, sheet)
        elif options.sheet is None and first_named and \
                _title_of(rows, h) == first_title and \
                _titled_by_its_sheet(more := _read_sheet(path, kind, sheet, rows, h, lead),
                                     sheet):
            # 'US Senate', 'County Sheriff' …: a sheet a contest, each named by its contest,
            # under one title: one election.
            differ = [p for p, b in more.ballots.items()
                      if p in result.ballots and result.ballots[p] != b]
            if differ:
                p = differ[0]
                result.issues.append(Issue(
                    path.name, f"Sheet {sheet!r} gives precinct {p!r} {more.ballots[p]:,} "
                    f"ballots cast, sheet {read_from!r} {result.ballots[p]:,}"
                    + (f" (and {len(differ) - 1} more precincts differ)" if len(differ) > 1
                       else "") + f": the ballots of {read_from!r} are the ones each "
                    "contest's votes are checked against. Check the sheets' statistics.",
                    sheet, more.ballots_rows.get(p), None, Severity.WARNING))
            grid.merge(result, more, same_precincts=True)
            by_contest.append(sheet)
            continue
        elif grid.PAGE_SHEET.match(read_from) and grid.PAGE_SHEET.match(sheet) and \
                _title_of(rows, h) in ("", first_title):
            # 'Table 1', 'Table 2' … of a PDF conversion: pages of one report.
            page = _read_sheet(path, kind, sheet, rows, h, lead)
            if not page.rows.empty:
                grid.merge(result, page)
                pages.append(sheet)
                continue
        readable.append(sheet)
    if result is None:
        nonempty = [n for n in (names or [""]) if n not in empty]
        if summaries and all(n in summaries for n in nonempty):
            first = next(iter(summaries))
            others = [n for n in all_names if n != first]
            raise _summary_failure(path, first if kind != "csv" else None, summaries[first],
                                   others if options.sheet is not None else [])
        raise fail(path, "No sheet has a 'Precinct Name, Reg. Voters, Ballots Cast, <candidates>' "
                   "header with results under it, so this workbook cannot be read without help. "
                   "Use the column mapping to say where the precincts, contests and candidates "
                   "are.", sheet=options.sheet)
    if hidden:
        result.issues.insert(0, Issue(
            path.name, "Hidden sheet(s) " + ", ".join(repr(h) for h in hidden) + " were not "
            f"read; the canvass was read from {read_from!r}. Choose a hidden sheet to read it.",
            read_from, severity=Severity.WARNING, remedy=Remedy.CHOOSE_SHEET))
    if by_contest:
        result.issues.insert(0, Issue(
            path.name, f"Sheets {read_from!r}, " + ", ".join(repr(s) for s in by_contest)
            + " are read as one election, a contest a sheet: each sheet's one contest has "
            f"the sheet's name, under the same title ({first_title!r}).", read_from,
            severity=Severity.NOTE))
    if pages:
        result.issues.insert(0, Issue(
            path.name, f"Sheets {read_from!r}, " + ", ".join(repr(s) for s in pages) + " are "
            "read as the pages of one report (a PDF conversion): the same title and layout.",
            read_from, severity=Severity.NOTE))
    if unread and options.sheet is None:
        # (a contest's sheet whose header was not found is a contest missing: said, loudly)
        result.issues.insert(0, Issue(
            path.name, ("Sheet " if len(unread) == 1 else "Sheets ")
            + ", ".join(repr(s) for s in unread[:6])
            + (f" and {len(unread) - 6} more" if len(unread) > 6 else "")
            + (" holds" if len(unread) == 1 else " hold") + " figures but no header "
            "of precincts and candidates that could be read, so "
            + ("it was" if len(unread) == 1 else "they were") + " not read. If "
            + ("it holds" if len(unread) == 1 else "they hold") + " contests, choose "
            + ("it" if len(unread) == 1 else "each") + " and use the column mapping.",
            unread[0], severity=Severity.WARNING, remedy=Remedy.CHOOSE_SHEET))
    others = [s for s in readable if s != read_from]
    if options.sheet is None and (others or summaries):
        rest = [s for s in all_names if s != read_from and s not in others and s not in pages
                and s not in by_contest and s not in unread]
        grid.other_sheets(result.issues, path.name, result.sheet, others, n=len(readable),
                          rest=(("Its other sheets " if len(rest) > 1 else "Its other sheet ")
                                + ", ".join(repr(s) + (" (ballot statistics, no contest "
                                                       "results)" if s in summaries else "")
                                            for s in rest)
                                + (" were not read." if len(rest) > 1 else " was not read."))
                          if rest else "")
    return result


def _titled_by_its_sheet(raw: RawCanvass, sheet: str) -> bool:
    """Whether a sheet's reading is of one contest, whose title is the sheet's name ('US
    Senate' on the sheet 'US Senate'; 'U.S. Senate' on 'US Senate')."""
    titles = set(raw.rows["contest"].astype(str)) if not raw.rows.empty else set()
    if len(titles) != 1:
        return False
    # (a sheet's name cannot hold a colon, slashes, '?', '*' or brackets, and is cut at 31
    # characters: 'County Clerk/Auditor' is on 'County Clerk Auditor', a long title on its
    # first 31 characters)
    title = _title_key(_NOT_IN_SHEET_NAMES.sub(" ", next(iter(titles))))
    name = _title_key(_NOT_IN_SHEET_NAMES.sub(" ", sheet))
    return title == name or (len(sheet) == _SHEET_NAME_MAX and title.startswith(name))


_NOT_IN_SHEET_NAMES = re.compile(r"[:\\/?*\[\]]")
_SHEET_NAME_MAX = 31


def _title_of(rows: list[list[str]], h: int) -> str:
    """The title rows above a header (not the row just above it, which may hold contests)."""
    return " ".join(_clean(c) for r in rows[:max(h - 1, 0)] for c in r if c.strip()).lower()


# Words a title may be shortened to: 'US House Dist 2' is 'US House District 2'.
_TITLE_WORDS = {"dist": "district", "co": "county", "cnty": "county", "cty": "county"}


def _title_key(title: str) -> str:
    """A contest title as the columns under it are grouped by: case, dots, commas and
    spaces aside and short words spelled out ('U.S. Senate' is 'US Senate', 'Co. Sheriff'
    'County Sheriff')."""
    words = re.sub(r"[.,]", " ", title.casefold()).split()
    return "".join(_TITLE_WORDS.get(w, w) for w in words)


def _two_level(office: list[str], sub: list[str], first: int, skip: dict[int, str]
               ) -> list[str]:
    """A row of titles in two: offices ('State House', 'County Commission') over their
    districts or seats ('District 68', 'Seat A'), each contest's title the two joined over
    its first column ('State House District 68'); ``sub`` as it is where its cells are not
    all a district's or a seat's, or the office row is not over them."""
    filled = [sub[j] for j in range(first, len(sub)) if sub[j] and j not in skip]
    if not filled or not all(vocab.TITLE_GOES_ON.match(c) for c in filled) or \
            not any(office[j] for j in range(first, len(office)) if j not in skip):
        return sub
    out = [""] * len(sub)
    top = low = ""
    for j in range(first, len(sub)):
        if j in skip:
            continue
        if office[j]:
            top, low = office[j], ""
        if sub[j]:
            low = sub[j]
        if office[j] or sub[j]:
            out[j] = f"{top} {low}".strip()
    return out


def _split_contest(title: str) -> tuple[str, str]:
    m = _PARTY_PREFIX.match(title)
    if m:
        return title[m.end():].strip(), vocab.party_of(m.group(1)) or ""
    m = re.search(r"\s*\((REP|DEM|LIB|CON|UNA|IAP)\)\s*$", title)
    if m:
        return title[:m.start()].strip(), m.group(1)
    return title, ""


def _stance(title: str) -> tuple[str, str] | None:
    """('Yes', 'Judicial Retention') from 'YES Judicial Retention'; None for other titles."""
    m = _STANCE_FIRST.match(title)
    if m:
        return m.group(1).capitalize(), m.group(2).strip()
    m = _STANCE_LAST.match(title)
    if m:
        return m.group(2).capitalize(), m.group(1).strip()
    return None


Col = tuple[int, str, str, str, str, str]   # column, contest, party, choice, its party, kind


class _Section(NamedTuple):
    """What :func:`_section` reads of one header band (its docstring says each)."""

    data_start: int
    cols: list[Col]
    block: set[tuple[str, ...]]
    no_titles: bool
    block_start: int
    stats: dict[int, str]
    seats: dict[tuple[str, str], set[int]]
    # The two rows that split the names in two, and what joins them: ' ' ('Mike' over
    # 'Lee'), ' / ' (a running mate under a name).
    split_names: tuple[int, int, str] | None
    # Columns with no name over them right after a choice's (column: the choice's column):
    # where they hold counts, sub-columns of that choice not told apart.
    unnamed: dict[int, int]
    # The choices' columns left of the first contest title, where the row of titles has some.
    untitled: list[int]


def _is_section_header(cells: list[str]) -> bool:
    """A header again further down: a PDF page, or the next contests of a wide table printed
    across pages (which may leave out the statistics columns)."""
    if _is_header(cells):
        return True
    if not cells or not _PRECINCT.match(cells[0]):
        return False
    rest = [c for c in cells[1:] if c]
    return len(rest) >= 2 and not any(to_int(c) is not None for c in rest)


# A column before the candidates that says how each row's votes were cast (a precinct's
# 'Election Day', 'Mail' and 'Total' rows).
_MODE_COLUMN = re.compile(r"^(vote\s+(type|mode|method)|voting\s+(method|type)|ballot\s+type|"
                          r"counting\s+group)$", re.IGNORECASE)
# A candidate's share beside its votes ('%', 'Pct', 'Percent'): a statistic, not a choice.
_PERCENT_COLUMN = re.compile(r"^(%|pct\.?|percent(age)?|%\s*of\s+(votes|total))$",
                             re.IGNORECASE)


def _section(path: Path, rows: list[list[str]], h: int, width: int, lead: int = 0
             ) -> _Section:
    """For the header at row ``h``: the first data row, the candidate columns, the rows of
    the header block as text, whether the block names no contests, the block's first row
    (the title rows are above it), the statistics columns among the candidates'
    ({column: label}), and the seats a "Vote for N" row of the band gives each contest
    ({(contest, party): the numbers it says}), and the two rows that split the choices'
    names in two ('Mike' over 'Lee', read as one name: :func:`grid.split_names`).

    Under a row of vote modes ('Election Day', 'Mail', 'Total' under each candidate) only
    each candidate's 'Total' column is read; a candidate whose modes have no total is
    refused (their sum is not assumed to be the total: a file's modes may leave votes out)."""
    band, data_start = grid.band(rows, h, width, clean=_clean)
    cells = {i: ([_clean(c) for c in rows[i]] + [""] * width)[:width] for i in band}

    def is_stat(j: int) -> str | None:
        # (a second precinct column, 'Precinct Name' after 'Precinct ID', is no candidate)
        return next((cells[i][j] for i in band if _STAT.match(cells[i][j])
                     or _PERCENT_COLUMN.match(cells[i][j])
                     or (i == h and j < 4 and (_PRECINCT.match(cells[i][j])
                                               or _MODE_COLUMN.match(cells[i][j])))), None)

    first = 1
    # Past the statistics, and past empty columns (but not a ballot question's columns,
    # empty in the header with its title above).
    while first < width and (is_stat(first) or not any(cells[i][first] for i in band)):
        first += 1
        if first > 8:
            break
    # Statistics further right ('Turn out %' between contests): never a candidate.
    stats = {j: label for j in range(first, width) if (label := is_stat(j)) is not None}
    # Names split over two rows ('Mike' over 'Lee'): one name, in the upper row.
    pair = grid.split_names(cells, band, first, stats)
    split = None if pair is None else (*pair, " ")
    if pair is not None:
        up, low = pair
        for j in range(first, width):
            if j not in stats and cells[low][j]:
                cells[up][j] = f"{cells[up][j]} {cells[low][j]}"
                cells[low][j] = ""
    contest_i, name_i, party_i, kinds = grid.band_roles(cells, band, h, first, stats)
    mates = grid.running_mates(cells, band, name_i, first, stats)
    if mates is not None and mates not in (contest_i, party_i):
        for j in range(first, width):
            if j not in stats and cells[mates][j]:
                cells[name_i][j] = f"{cells[name_i][j]} / {cells[mates][j]}"
        split = split or (name_i, mates, " / ")
    empty_row = [""] * width
    seats_row = next((cells[i] for i in band if kinds[i] == "seats"), None)
    modes_row = next((cells[i] for i in band if kinds[i] == "modes"), None)
    contest_row = cells[contest_i] if contest_i is not None else empty_row
    if contest_i is not None and contest_i - 1 in band and kinds[contest_i - 1] == "text":
        contest_row = _two_level(cells[contest_i - 1], contest_row, first, stats)
    name_row, party_row = cells[name_i], cells[party_i] if party_i is not None else empty_row
    block_start = band[0]
    # Rows above the data, as text: a PDF conversion repeats them on every page.
    block = {tuple(_clean(c) for c in r if c.strip()) for r in rows[block_start:data_start]}
    block.discard(())

    # Columns → (contest, party, choice, choice_party, kind); contests forward-filled.
    cols: list[Col] = []
    current = ""
    seen_titles: dict[str, str] = {}
    # A stance in a title counts only beside its opposite over the same question ('YES X'
    # next to 'NO X'): 'City Council Seat 1 For' alone is a contest title.
    stances = {j: st for j in range(first, min(width, len(contest_row)))
               if contest_row[j] and (st := _stance(contest_row[j])) is not None}
    paired = {j for j, (w, rest) in stances.items() for k in (j - 1, j + 1)
              if k in stances and stances[k][1].casefold() == rest.casefold()
              and {w.lower(), stances[k][0].lower()} in ({"yes", "no"}, {"for", "against"})}
    named = named_party = ""  # the candidate over a run of vote-mode columns
    modes: dict[tuple[str, str], list[int]] = {}  # (contest, candidate): its mode columns
    totalled: set[tuple[str, str]] = set()
    seats: dict[tuple[str, str], set[int]] = {}
    unnamed: dict[int, int] = {}
    untitled: list[int] = []  # choices left of the first title
    for j in range(first, width):
        if j in stats:
            continue
        title = contest_row[j] if j < len(contest_row) else ""
        if title:
            current = seen_titles.setdefault(_title_key(title), title)
        cname = name_row[j] if j < len(name_row) else ""
        cparty_raw = party_row[j] if j < len(party_row) else ""
        if modes_row is not None and modes_row[j]:
            # (the name and the party over the first of a candidate's mode columns)
            if cname:
                named, named_party = cname, cparty_raw
            cname, cparty_raw = named, named_party
            if not vocab.TOTAL_MODE.match(modes_row[j]):
                modes.setdefault((current, cname), []).append(j)
                continue
            totalled.add((current, cname))
        if seats_row is not None and (n := vocab.seats_in(seats_row[j])) is not None:
            seats.setdefault(_split_contest(current or "Results"), set()).add(n)
        contest_title = current or "Results"
        stance = stances[j] if j in paired else None
        if stance is not None:
            # A retention or ballot question: the stance is the choice.
            word, rest = stance
            contest_title = f"{rest}: {cname}" if cname else rest
            cname = word
        if not cname:
            if cols and cols[-1][1:3] == _split_contest(contest_title):
                unnamed[j] = cols[-1][0]
            continue
        k = grid.choice_kind(cname)
        if k is None:
            continue
        contest, party = _split_contest(contest_title)
        cparty = (vocab.party_of(cparty_raw) or "") if cparty_raw else ""
        choice, prefix = grid.choice_party(cname)
        if not current and stance is None and any(contest_row[first:width]):
            untitled.append(j)
        cols.append((j, contest, party, choice, cparty or prefix, k))
    settled = grid.settle_write_in_totals([(c[1:3], c[5]) for c in cols])
    cols = [(*c[:5], k) for c, k in zip(cols, settled, strict=True) if k is not None]
    untotalled = [k for k in modes if k not in totalled]
    if untotalled:
        contest, cname = untotalled[0]
        js = modes[(contest, cname)]
        span = f"{col_letter(js[0] + lead)}–{col_letter(js[-1] + lead)}"
        raise fail(path, f"The columns {span} under {cname!r} ({contest or 'Results'}) hold "
                   "its votes by how they were cast ("
                   + ", ".join(repr(modes_row[j]) for j in js if modes_row is not None)
                   + ") with no 'Total' column; their sum is not assumed to be the total (a "
                   "file's modes may leave votes out). Add each candidate's total column, or "
                   "export the totals, and import again.", row=h + 1)
    no_titles = not (current or any(contest_row[first:width]))
    return _Section(data_start, cols, block, no_titles, block_start, stats, seats, split,
                    unnamed, untitled)


def _read_sheet(path: Path, kind: str, sheet: str, rows: list[list[str]], h: int,
                lead: int = 0) -> RawCanvass:
    name = path.name
    log = IssueLog(name, sheet or None)
    doubt = IssueLog(name, sheet or None)
    width = max(len(r) for r in rows)
    (data_start, cols, block, no_titles, block_start, stats, band_seats, split, unnamed,
     untitled) = _section(path, rows, h, width, lead)
    if not cols:
        return RawCanvass(name, FAMILY, frame([]), [], sheet=sheet)
    with_counts = sorted(j for j in unnamed if any(
        j < len(r) and to_int(r[j]) is not None for r in rows[data_start:]))
    if with_counts:
        j0 = with_counts[0]
        owner = next(c for c in cols if c[0] == unnamed[j0])
        over = [t for i in range(block_start, data_start)
                if (t := _clean(rows[i][j0]) if j0 < len(rows[i]) else "")]
        span = ", ".join(col_letter(j + lead) for j in with_counts[:6]) + \
            (f" and {len(with_counts) - 6} more" if len(with_counts) > 6 else "")
        doubt.error(f"Column(s) {span} hold counts but no name over them, beside "
                    f"{owner[3]!r} ({owner[1] or 'Results'}): sub-columns of its votes by how "
                    "they were cast, under headings that were not recognised"
                    + (f" ({', '.join(repr(t) for t in over)})" if over else "")
                    + ", or a candidate whose name is missing. Their counts were not read. "
                    "Name each column (a 'Total' column under each candidate), or use the "
                    "column mapping.", row=h + 1, column=col_letter(j0 + lead))
    if untitled:
        names = [c[3] for c in cols if c[0] in untitled]
        first_title = next(c for c in cols if c[0] not in untitled)
        span = col_letter(untitled[0] + lead) + (
            f"–{col_letter(untitled[-1] + lead)}" if len(untitled) > 1 else "")
        doubt.error(f"Column(s) {span} ({', '.join(repr(n) for n in names[:4])}) have no "
                    "contest title over them, though the row of titles names contests further "
                    "right (the first, "
                    f"{first_title[1]!r}, over {col_letter(first_title[0] + lead)}): a title "
                    "typed over the last or the middle column of its contest moves candidates "
                    "into the contest beside it. Put each title over its contest's first "
                    "column, or use the column mapping.", row=h + 1,
                    column=col_letter(untitled[0] + lead))
    if no_titles:
        doubt.warn("The sheet names no contests above its candidate columns; they are read as "
                   "one contest 'Results'. Use the column mapping to split them.", sheet=sheet,
                   row=h + 1)
    # A contest's columns side by side: a title that comes back after another one is no
    # contest title (a party row, most likely, taken for the contests' row).
    runs: list[tuple[str, str]] = []
    for _j, contest, party, *_r in cols:
        if not runs or runs[-1] != (contest, party):
            runs.append((contest, party))
    again = [c for k, (c, p) in enumerate(runs) if (c, p) in runs[:k]]
    if again:
        j0 = next(j for j, c, *_r in cols if c == again[0])
        doubt.warn(f"The row read as the contests' titles names {again[0]!r} again after other "
                   "contests: a contest's candidates sit side by side, so this row is probably "
                   "not the contests' titles (a row of parties?). Check the contests read, or "
                   "use the column mapping.", row=h + 1, column=col_letter(j0 + lead))
    # The same choices under two contests or more ('Walk In', 'Drop Box' under 'Cy Cole' and
    # under 'Di Dunn'): no two races have one slate, so the row read as the choices holds
    # something else (vote modes not recognised), and the row over it the candidates.
    slates: dict[tuple[str, ...], list[str]] = {}
    for contest, party in runs:
        slate = tuple(sorted(c[3].casefold() for c in cols if c[1:3] == (contest, party)
                             and c[5] == "candidate"))
        if len(slate) >= 2 and not set(slate) <= vocab.STANCE_WORDS and \
                contest not in slates.get(slate, []):
            slates.setdefault(slate, []).append(contest)
    same = next((cs for cs in slates.values() if len(cs) > 1), None)
    if same is not None:
        j0 = next(j for j, c, *_r in cols if c == same[1])
        shown = sorted({c[3] for c in cols if c[1] == same[0] and c[5] == "candidate"})
        doubt.warn(f"The contests {same[0]!r} and {same[1]!r} were read with the same choices "
                   f"({', '.join(repr(c) for c in shown[:4])}): no two races have one slate, so "
                   "the row read as the choices probably holds something else (how the votes "
                   "were cast, under words that were not recognised) and the row above it the "
                   "candidates. Check the contests read, or use the column mapping.",
                   row=h + 1, column=col_letter(j0 + lead))
    if split is not None:
        up, low = ([_clean(c) for c in rows[i]] + [""] * width for i in split[:2])
        j0 = next(j for j in range(1, width) if up[j] and low[j] and j not in stats)
        what = ("the candidates' names are split over" if split[2] == " " else
                "running mates are named under the candidates, in")
        log.note(f"{what[0].upper() + what[1:]} rows {split[0] + 1} and {split[1] + 1} "
                 f"({up[j0]!r} over {low[j0]!r}); each is read as one name "
                 f"({up[j0] + split[2] + low[j0]!r}).", row=split[0] + 1,
                 column=col_letter(j0 + lead))
    if stats:
        log.note("Statistics columns among the candidates are left out: "
                 + ", ".join(f"{col_letter(j + lead)} ({t!r})"
                             for j, t in list(stats.items())[:6]) + ".", row=h + 1)
    # Further headers: each starts a section with its own columns.
    sections: dict[int, tuple[int, list[Col]]] = {}
    for i in range(data_start, len(rows)):
        cells = [_clean(c) for c in rows[i]]
        if tuple(c for c in cells if c) in block or not _is_section_header(cells):
            continue
        start, more, more_block, _, _, _, more_seats, _, _, _ = _section(path, rows, i, width, lead)
        block |= more_block
        for k, ns in more_seats.items():
            band_seats.setdefault(k, set()).update(ns)
        if more:
            sections[i] = (start, more)

    comparison = sorted({c[3] for c in cols if _COMPARISON.match(c[3])})
    if len(comparison) >= 2:
        doubt.warn("Columns named " + ", ".join(repr(c) for c in comparison) + " compare "
                   "counts (a recount sheet?) rather than name candidates; they are read as "
                   "choices. Check the contests read, or use the column mapping.", row=h + 1)
    all_groups = {(c[1], c[2]) for cs in [cols, *(m for _s, m in sections.values())] for c in cs}
    # calamine reads an Excel error value as an empty cell: find them, so that '#DIV/0!'
    # under a candidate is an error and not 'not on this ballot'.
    errors = excel_error_cells(path, sheet) if kind == "xlsx" else {}

    def column_name(j: int) -> str:
        return col_letter(j + lead)

    # The ballots cast of each precinct (the gate checks no contest has more votes).
    head = [" ".join(_clean(rows[i][j]) for i in (h - 1, h, h + 1)
                     if 0 <= i < len(rows) and j < len(rows[i])) for j in range(width)]
    ballots_j = next((j for j in range(1, cols[0][0]) if _BALLOTS_CAST.search(head[j])), None)
    ballots: dict[str, int] = {}
    ballots_rows: dict[str, int] = {}
    ballots_total: int | None = None
    file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
    tally = grid.Tally(log)
    got = grid.Counted()
    skipped: list[int] = []
    part_totals: list[tuple[int, str, int]] = []  # (row, label, parts): a precinct's sum
    section_end = data_start
    body: list[tuple[int, str, list[str]]] = []

    def count() -> None:  # the precinct rows under one header
        if body:
            got.add(grid.count(
                [c for *_, c in body], [(c, "", p, ch, cp, k) for _j, c, p, ch, cp, k in cols],
                [b[1] for b in body], lambda i, k: (body[i][0], column_name(cols[k][0])), tally,
                suppress="contest", hide=True, message=lambda what, ch, p: (
                    f"The vote count for {ch!r} in precinct {p!r} is {what}, not a whole "
                    "number; it is read as 0."),
                error=lambda i, k: errors.get((body[i][0], cols[k][0] + lead + 1))))
            body.clear()

    # A column of vote modes: each precinct's rows by how its votes were cast, and its total.
    mode_j = next((j for j in range(1, cols[0][0]) if _MODE_COLUMN.match(_clean(rows[h][j]))),
                  None)
    last_label = ""
    nameless: list[tuple[int, dict[int, int], dict[int, int]]] = []  # row, counts, sums above
    sums: dict[int, int] = {}  # each column's precinct counts so far
    by_mode: dict[str, int] = {}  # precinct: its first row by mode
    mode_totals: set[str] = set()
    for i in range(data_start, len(rows)):
        if i in sections:
            count()
            section_end, cols = sections[i]
            ballots_j = None  # a section further down has its own columns
        if i < section_end:
            continue  # the rows of a header further down
        r = [c.strip() for c in rows[i]] + [""] * width
        label = _clean(r[0])
        if mode_j is not None:
            mode = _clean(r[mode_j])
            last_label = label or last_label
            if mode and vocab.VOTE_MODE.match(mode):
                label = label or last_label
                if not vocab.TOTAL_MODE.match(mode):
                    by_mode.setdefault(label, i + 1)
                    continue  # (only a precinct's total is read)
                mode_totals.add(label)
                r[mode_j] = ""  # (its 'Total' names no totals row of the county)
        lead_cells = [_clean(c) for c in r[:cols[0][0] + 1]]
        is_total = any(c and vocab.is_total_precinct(c) for c in lead_cells) or \
            label.lower().startswith("county total")
        if not label and not is_total:
            counts = {j: v for j, *_ in cols if (v := to_int(r[j])) is not None}
            if counts:
                nameless.append((i + 1, counts, dict(sums)))
            continue
        texts = tuple(_clean(c) for c in r if c.strip())
        if texts in block or _is_section_header([_clean(c) for c in r]) or \
                (any(grid.PAGE_LINE.search(c) for c in texts) and not is_total):
            continue  # the title and header again on a new page, or a page footer
        if is_total:
            row_tot: dict[tuple[str, str, str], dict[str, int]] = {}
            for j, contest, party, choice, _cp, _k in cols:
                v = to_int(r[j])
                if v is not None:  # (a choice in two columns, 'Yes' and 'YES': their sum)
                    got_tot = row_tot.setdefault((contest, "", party), {})
                    got_tot[choice] = got_tot.get(choice, 0) + v
            # The last totals row that has a contest's figures is the county's.
            file_totals.update(row_tot)
            if ballots_j is not None and (b := to_int(r[ballots_j])) is not None:
                ballots_total = b
            continue
        if (m := _PRECINCT_TOTAL.match(label)) and body and \
                body[-1][1].casefold().startswith(m.group(1).casefold()):
            # 'SL001 Total' under 'SL001 - Part 1' and 'Part 2': the parts' sum, no precinct.
            stem = m.group(1).casefold()
            start = len(body)
            while start and body[start - 1][1].casefold().startswith(stem):
                start -= 1
            parts = body[start:]
            off = next((cols[n][0] for n, (j, *_) in enumerate(cols)
                        if to_int(r[j]) != (sum(to_int(b[2][n]) or 0 for b in parts)
                                            if any(to_int(b[2][n]) is not None for b in parts)
                                            else None)), None)
            if off is None:
                part_totals.append((i + 1, label, len(parts)))
            else:
                log.error(f"Row {i + 1} ({label!r}) reads as the total of the rows above it "
                          f"named {parts[0][1]!r} …, but its count in column "
                          f"{column_name(off)} is not their sum: which is right cannot be "
                          "told, so no verdict rests on these figures. Correct the file and "
                          "import again.", row=i + 1, column=column_name(off))
            continue
        values = [r[j] for j, *_ in cols if r[j]]
        if values and not any(to_int(v) is not None or vocab.is_suppressed(v)
                              for v in values):
            skipped.append(i)
            continue  # text across the candidate columns: not a precinct's counts
        if ballots_j is not None and (b := to_int(r[ballots_j])) is not None:
            ballots[label] = ballots.get(label, 0) + b
            ballots_rows.setdefault(label, i + 1)
        body.append((i + 1, label, [r[j] for j, *_ in cols]))
        for j, *_ in cols:
            if (v := to_int(r[j])) is not None:
                sums[j] = sums.get(j, 0) + v
    count()
    # Rows with counts and no precinct's name: an unlabelled sum of the rows above is
    # passed over; any other (a precinct's second row under a name merged over both?) is
    # no one's, so it is not counted and no verdict rests on the figures.
    unread = [n for n, counts, above in nameless
              if any(above.get(j, 0) != v for j, v in counts.items())]
    if unread:
        log.error((f"Row {unread[0]} holds" if len(unread) == 1 else
                   f"Rows {unread[0]} and {len(unread) - 1} more hold")
                  + " counts under the candidates but no precinct name (a precinct's "
                  "second row, under its name merged over both?): they are not read, so no "
                  "verdict rests on these figures. Give each row its precinct's name and "
                  "import again.", row=unread[0], column=column_name(0))
    untotalled = [p for p in by_mode if p not in mode_totals]
    if untotalled:
        first_p = untotalled[0]
        nor = f" (nor have {len(untotalled) - 1} more)" if len(untotalled) > 1 else ""
        raise fail(path, f"Precinct {first_p!r} (row {by_mode[first_p]}) has its votes by how "
                   f"they were cast (the column {_clean(rows[h][mode_j or 0])!r}) but no "
                   f"'Total' row{nor}; their sum is not assumed to be the total (a file's "
                   "modes may leave votes out). Add each precinct's total row, or export the "
                   "totals, and import again.",
                   sheet=sheet, row=by_mode[first_p])
    out = got.rows
    if not out and file_totals:
        # Only a totals row (a recount sheet may give the county figures alone): read it as
        # one county-wide unit, and say so.
        kinds = {(c, p, ch): k for _j, c, p, ch, _cp, k in cols}
        parties = {(c, p, ch): cp for _j, c, p, ch, cp, _k in cols}
        for (contest, _d, party), by_choice in file_totals.items():
            for choice, v in by_choice.items():
                out.append((COUNTY_UNIT, contest, "", party, choice,
                            parties.get((contest, party, choice), ""),
                            kinds.get((contest, party, choice), "candidate"), v))
        file_totals = {}
        log.warn("The sheet has a totals row but no precinct rows; its totals are read as one "
                 f"unit, {COUNTY_UNIT!r}, so a recount cannot be split by precinct.")
    tally.close()
    grid.some(log, part_totals, lambda t: log.note(
        f"Row {t[0]} ({t[1]!r}) is the sum of the {t[2]} row(s) above it, a precinct's parts; "
        "it is not read as a precinct of its own.", row=t[0], column=column_name(0)),
        "rows that sum a precinct's parts were left out")
    grid.some(log, skipped, lambda i: log.warn(
        f"Row {i + 1} ({_clean(rows[i][0])!r}) has text, not counts, under the candidates; it "
        "was left out.", row=i + 1, column=column_name(0)),
        "rows with text under the candidates were left out")
    got.note_left_out(log)
    if got.suppressed_cells:
        log.note(f"{got.suppressed_cells} precinct result(s) are marked 'Suppressed' for voter "
                 "privacy; the file's totals row is used for those contests.")
    counted = {(c, "", p) for _pr, c, _d, p, *_ in out}
    for hidden_key in sorted(got.suppressed - counted):
        log.warn(f"{hidden_key[0]!r} is suppressed in every precinct "
                 f"({got.suppressed_rows[hidden_key]}), "
                 "so it has no precinct counts and is not imported.")
    seats = {(c, "", p): n for c, p in all_groups if (n := vocab.seats_in(c))}
    # A "Vote for N" row of the band: the seats of each contest under it, unless its columns
    # say two numbers (then none is taken, and the officer is told).
    for (c, p), ns in band_seats.items():
        if (c, p) not in all_groups or (c, "", p) in seats:
            continue
        if len(ns) == 1:
            seats[(c, "", p)] = next(iter(ns))
        else:
            doubt.warn(f"The 'Vote for' row says {' and '.join(map(str, sorted(ns)))} over the "
                       f"columns of {c!r}; its seats are not taken from it. Give them with "
                       "the seats setting.", row=h + 1)
    # The title rows, not the contest titles ('City Council Seat 2 Primary' is no primary).
    title_text = " ".join(_clean(c) for r in rows[:block_start] for c in r if c).lower()
    primary = grid.primary_of(title_text or sheet.lower(), any(p for _c, p in all_groups))
    where: dict[tuple[str, str, str, str], tuple[int | None, str | None]] = {}
    for cs, at in [(cols, h), *((more, i) for i, (_s, more) in sections.items())]:
        for j, contest, party, choice, _cp, _k in cs:
            where.setdefault((contest, "", party, ""), (at + 1, column_name(j)))
            where.setdefault((contest, "", party, choice), (at + 1, column_name(j)))
    issues = log.issues + doubt.issues
    return RawCanvass(name, FAMILY, frame(out), issues, seats, file_totals, got.suppressed,
                      primary,
                      election_name=_clean(rows[0][0]) if rows and rows[0] and rows[0][0]
                      else None, sheet=sheet or None, where=where, ballots=ballots,
                      hidden=got.hidden, ballots_rows=ballots_rows,
                      ballots_column=column_name(ballots_j) if ballots_j is not None else None,
                      ballots_total=ballots_total, fractional=got.fractional, doubts=doubt.issues)
