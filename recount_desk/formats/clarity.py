"""Clarity ENR exports: detail.xls (SpreadsheetML), in a .zip, re-saved as .xlsx, and detail.xml.

``detail.xls`` is not a binary Excel file but SpreadsheetML 2003 XML. It is parsed with an
incremental C XML parser (expat and the C tree builder, DTDs and entities refused:
``formats/_xml.py``), one worksheet at a time, and read straight out of a ``.zip`` without
extracting it. Layout: sheet ``Table of Contents``
(contest titles with ``( n)``, read as the vote-for count), sheet ``Registered Voters``,
then one sheet per contest: row 1 the title, row 2 the candidate names (each merged across
its vote-type columns), row 3 the vote types with ``Total Votes`` closing each candidate,
one row per precinct, and a final ``Total:`` row that is the file's own totals. Only each
candidate's ``Total Votes`` column is read. A re-saved ``.xlsx`` (counts stored as text) has
the same layout and is read with calamine.

``detail.xml``: ``<Contest text voteFor>`` holds contest-level ``<VoteType name="Undervotes"
|"Overvotes">`` and ``<Choice text party totalVotes>`` → ``<VoteType>`` → ``<Precinct name
votes>`` (``<County>`` in state files); vote types are summed per precinct.
"""

from __future__ import annotations

import hashlib
import html
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from recount_desk.core.model import ContestKey, Issue, Severity

from . import grid, vocab
from .base import RAW_COLUMNS, Cancelled, Detection, RawCanvass, ReadOptions, fail
from .pipeline import IssueLog
from .stages import detector
from .tabular import (
    MAX_UNZIPPED,
    SS_NS,
    SheetTooLarge,
    col_letter,
    iter_spreadsheetml,
    read_sheet_text,
    sheet_names,
    sniff,
)

if TYPE_CHECKING:
    import pandas as pd

FAMILY = "clarity"
LABEL = "Clarity ENR detail.xls / detail.xml (Salt Lake County results site)"

_TOC = "table of contents"
_TOC_SHEET = "Table of Contents"
_SEATS = re.compile(r"\s*\(\s*(\d+)\s*\)\s*$")
# A party in brackets at the end of a title marks a primary race: "GOVERNOR (REP)".
# Only party codes: a title such as 'CITY COUNCIL (FULL)' names no party.
_PARTY_SUFFIX = re.compile(r"\s*\(\s*(REP|DEM|LIB|CON|GRN|UUP|IAP|UNA|IND|NON|NLP|UTJ|"
                           r"AMD|PSL|SWP)\s*\)\s*$")
_PARTY_WORD = re.compile(r"\s+-\s+(REPUBLICAN|DEMOCRATIC|DEMOCRAT|LIBERTARIAN|CONSTITUTION|"
                         r"GREEN|NONPARTISAN|INDEPENDENT|REP|DEM|LIB|CON|GRN|UUP|IAP)\s*$",
                         re.IGNORECASE)
_PARTY_CODES = {"REPUBLICAN": "REP", "DEMOCRATIC": "DEM", "DEMOCRAT": "DEM",
                "LIBERTARIAN": "LIB", "CONSTITUTION": "CON", "GREEN": "GRN",
                "INDEPENDENT": "IND"}
_WRITE_IN_SUFFIX = re.compile(r"\s*\(write-?\s*in\)\s*$", re.IGNORECASE)

Row = tuple[str, str, str, str, str, str, str, int]


# ---------------------------------------------------------------------------------------------
# Detection

@detector()
def detect(path: Path, kind: str) -> Detection | None:
    if kind == "spreadsheetml":
        head = _head_bytes(path)
        if b"SOE Software" in head or b'Name="Table of Contents"' in head:
            return Detection(FAMILY, LABEL, 97, "SpreadsheetML workbook by SOE Software "
                             "(Clarity) with a Table of Contents sheet")
        return None
    if kind == "xml":
        head = _head_bytes(path)
        if b"<ElectionResult" in head:
            return Detection(FAMILY, LABEL, 97, "Clarity detail.xml (<ElectionResult>)")
        return None
    if kind == "zip":
        member = _zip_member(path)
        if member is not None:
            return Detection(FAMILY, LABEL, 95, f"zip archive holding {member}")
        return None
    if kind in ("xlsx", "xls", "ods"):
        names = sheet_names(path, kind)
        if len(names) >= 2 and names[0].strip().lower() == _TOC:
            if len(names) >= 3 and names[1].strip().lower() == "registered voters":
                return Detection(FAMILY, LABEL, 92, "sheets 'Table of Contents', "
                                 "'Registered Voters' then one per contest (re-saved "
                                 "Clarity detail.xls)")
            toc = read_sheet_text(path, names[0])
            if any([c.strip().lower() for c in r[:2]] == ["page", "contest"]
                   for r in toc[:10]):
                return Detection(FAMILY, LABEL, 85, "a 'Table of Contents' sheet listing "
                                 "'Page, Contest' (re-saved Clarity detail.xls)")
    return None


def _head_bytes(path: Path, n: int = 1 << 14) -> bytes:
    with open(path, "rb") as f:
        return f.read(n)


def _zip_member(path: Path) -> str | None:
    """The detail.xls / detail.xml inside a zip, if there is one."""
    with zipfile.ZipFile(path) as z:
        names = [n for n in z.namelist() if not n.endswith("/")]
        for n in names:
            if Path(n).name.lower() in ("detail.xls", "detail.xml"):
                return n
        for n in names:
            if n.lower().endswith((".xls", ".xml")):
                with z.open(n) as f:
                    head = f.read(1 << 14)
                if b"SOE Software" in head or b"<ElectionResult" in head or (
                        SS_NS.encode() in head and b"Table of Contents" in head):
                    return n
    return None


# ---------------------------------------------------------------------------------------------
# Reading

def read(path: Path, options: ReadOptions | None = None) -> RawCanvass:
    """Read a Clarity export (any of its four shapes) into raw rows."""
    options = options or ReadOptions()
    kind = sniff(path)
    if kind == "zip":
        member = _zip_member(path)
        if member is None:
            raise fail(path, "This zip archive holds no Clarity detail.xls or detail.xml. "
                       "Extract the results spreadsheet and import it instead.")
        with zipfile.ZipFile(path) as z:
            info = z.getinfo(member)
            if info.file_size > MAX_UNZIPPED:
                raise fail(path, "The file inside the zip is far larger than any canvass; it "
                           "is refused as unsafe.")
            with z.open(member) as f:
                head = f.read(1 << 14)
            with z.open(member) as f:
                if b"<ElectionResult" in head:
                    return _read_detail_xml(path, f, options, member)
                return _read_spreadsheetml(path, f, options, member)
    if kind == "spreadsheetml":
        with open(path, "rb") as f:
            return _read_spreadsheetml(path, f, options, None)
    if kind == "xml":
        with open(path, "rb") as f:
            return _read_detail_xml(path, f, options, None)
    if kind in ("xlsx", "xls", "ods"):
        return _read_workbook(path, options)
    raise fail(path, "This is not a Clarity detail.xls, detail.xml or re-saved workbook. "
               "Download detail.xls (or detail.xml) from the results site again.")


def _read_spreadsheetml(path: Path, source: IO[bytes], options: ReadOptions,
                        member: str | None) -> RawCanvass:
    import xml.etree.ElementTree as ET

    from ._xml import HostileXml

    state = _Workbook(path, options)
    try:
        for sheet, rows in iter_spreadsheetml(source, options.cancelled):
            state.sheet(sheet, rows)
    except SheetTooLarge as e:
        raise fail(path, f"The Clarity workbook{' in ' + member if member else ''} is "
                   f"damaged: {e}. Download detail.xls again from the results site.") from e
    except (HostileXml, ET.ParseError) as e:
        what = f"forbidden DTD or entity declarations ({e})" if isinstance(e, HostileXml) \
            else f"invalid XML ({e})"
        raise fail(path, f"The Clarity workbook{' in ' + member if member else ''} cannot be "
                   f"read: it holds {what}. Download detail.xls again from the results "
                   "site.") from e
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise fail(path, "The zip archive is damaged and detail.xls cannot be read from it. "
                   "Download it again.") from e
    return state.finish()


def _read_workbook(path: Path, options: ReadOptions) -> RawCanvass:
    state = _Workbook(path, options)
    names = sheet_names(path, sniff(path))
    for name in names:
        if options.cancelled():
            raise Cancelled()
        state.sheet(name, read_sheet_text(path, name))
    return state.finish()


def _num(text: str) -> int | None:
    t = text.replace(",", "").strip()
    if not t:
        return None
    try:
        return int(t)
    except ValueError:
        try:
            f = float(t)
        except ValueError:
            return None
        return int(f) if f.is_integer() else None


def _split_title(title: str) -> tuple[str, int | None, str]:
    """'U.S. SENATE ( 1)' -> ('U.S. SENATE', 1, ''); 'GOVERNOR (REP)' -> ('GOVERNOR', None,
    'REP')."""
    title = html.unescape(" ".join(title.split()))
    seats = None
    m = _SEATS.search(title)
    if m:
        seats = int(m.group(1))
        title = title[:m.start()].strip()
    party = ""
    m = _PARTY_SUFFIX.search(title)
    if m:
        party = m.group(1)
        title = title[:m.start()].strip()
    if seats is None:
        m = _SEATS.search(title)
        if m:
            seats = int(m.group(1))
            title = title[:m.start()].strip()
    return title, seats, party


class _Workbook(grid.Book):
    """Collects the contest sheets of a Clarity workbook, whatever the container."""

    def __init__(self, path: Path, options: ReadOptions) -> None:
        super().__init__(path.name)
        self.path = path
        self.options = options
        self.toc_total = 0
        self.toc: dict[str, tuple[str, int]] = {}  # page (sheet name) -> (title, TOC row)
        self.done = 0
        self.saw_toc = False
        self.contests = 0
        self.read_pages: set[str] = set()
        self.titles: dict[tuple[str, str], str] = {}  # (title, party) -> first sheet

    def sheet(self, sheet: str, rows: list[list[str]]) -> None:
        self.done += 1
        self.options.on_progress(self.done, max(self.toc_total, self.done))
        low = sheet.strip().lower()
        if low == _TOC:
            self.saw_toc = True
            for i, r in enumerate(rows, start=1):
                if len(r) > 1 and _num(r[0]) is not None and r[1].strip():
                    self.toc[str(_num(r[0]))] = (r[1], i)
            self.toc_total = len(self.toc) + 1
            return
        if low == "registered voters" or not any(any(c for c in r) for r in rows):
            return
        self._contest(sheet, rows)

    def _contest(self, sheet: str, rows: list[list[str]]) -> None:
        # Row 3 holds the vote types and 'Total Votes'; find it rather than trust its place.
        t = next((i for i, r in enumerate(rows[:10])
                  if any(c.strip().lower() == "total votes" for c in r)), None)
        toc_title = self.toc.get(sheet.strip(), ("", 0))[0]
        above = rows[:t - 1] if t else []
        # The title is the text nearest above the candidate names: a banner a re-save puts
        # at the top ("Official Canvass Results - printed …") is not every page's title.
        raw_title = next((c for r in reversed(above) for c in r if c.strip()), "")
        if t is None or t < 1:
            what = raw_title or toc_title or (next((c for c in rows[0] if c), "") if rows
                                              else "")
            self.log.warn(f"This sheet{' (' + what + ')' if what else ''} has no row of vote "
                          "types ending in 'Total Votes' under a row of candidate names, so it "
                          "is not a Clarity contest page; it was skipped.", sheet=sheet, row=1)
            return
        self.read_pages.add(sheet.strip())
        title, seats, party = _split_title(raw_title or toc_title)
        if not title:
            self.log.warn("This contest sheet has no title above its candidate names; it was "
                          "skipped.", sheet=sheet, row=1)
            return
        if toc_title:
            t_title, t_seats, t_party = _split_title(toc_title)
            if seats is None:
                seats = t_seats
            elif t_seats is not None and t_seats != seats:
                self.log.warn(f"{title}: the Table of Contents says ( {t_seats}) but the "
                              f"contest sheet says ( {seats}); the contest sheet is used. Check "
                              "the number of seats.", sheet=sheet, row=1)
            party = party or (t_party if t_title == title else "")
        if vocab.is_non_contest_office(title):
            return
        district = ""
        seen = self.titles.get((title, party))
        if seen is not None:
            district = f"page {sheet.strip()}"
            self.log.warn(f"The contest title {title!r} appears on two pages ({seen} and "
                          f"{sheet.strip()}); they are kept apart as two contests, the second "
                          f"marked {district!r}. Check which race each is.", sheet=sheet, row=1)
        else:
            self.titles[(title, party)] = sheet.strip()
        names, types = rows[t - 1], rows[t]
        # Each candidate's "Total Votes" column; the name sits at the start of its merge.
        cols: list[tuple[int, str]] = []
        nameless: list[int] = []
        current = ""
        total_col = None
        for j, ty in enumerate(types):
            if j < len(names) and names[j].strip():
                current = " ".join(html.unescape(names[j]).split())
            low = ty.strip().lower()
            if low == "total votes":
                if current:
                    cols.append((j, current))
                else:
                    nameless.append(j)
                current = ""
            elif low == "total" and not current:
                total_col = j
        if nameless:
            self.log.error(f"{title}: {len(nameless)} 'Total Votes' column(s) have no candidate "
                           "name above them; they were not counted. Check the file.",
                           sheet=sheet, row=t + 1, column=col_letter(nameless[0]))
        if not cols:
            self.log.warn(f"The contest {title!r} has no 'Total Votes' columns under its "
                          "candidates; it was skipped.", sheet=sheet, row=t + 1)
            return
        key = (title, district, party)
        if party:
            self.any_party = True
        if seats is not None:
            self.seats[key] = seats
        self.contests += 1
        kinds = [vocab.choice_kind(cname) for _, cname in cols]
        off_total: list[tuple[str, int]] = []
        countless: list[tuple[str, int]] = []
        count_cols = [c for c, _ in cols] + ([] if total_col is None else [total_col])
        rows_before = len(self.rows)
        for i, r in enumerate(rows[t + 1:], start=t + 2):
            if not r or not r[0].strip():
                continue
            precinct = " ".join(html.unescape(r[0]).split())
            if all(not (r[j] if j < len(r) else "").strip() for j in count_cols):
                # A line of text below the table ("Report generated …"), not a precinct: a
                # precinct's row gives every candidate's count, if only 0.
                countless.append((precinct, i))
                continue
            is_total = vocab.is_total_precinct(precinct)
            row_sum = 0
            for (j, cname), k in zip(cols, kinds, strict=True):
                text = r[j] if j < len(r) else ""
                v = _num(text)
                if v is None or v < 0:
                    if text.strip():
                        self.tally.wrong(f"The vote count {text!r} is not a whole number; it "
                                         "is read as 0.", sheet=sheet, row=i, column=cname)
                    v = 0
                row_sum += v
                if k is None:
                    continue
                choice = _WRITE_IN_SUFFIX.sub("", cname) if k == "write_in" else cname
                if is_total:
                    self.file_totals.setdefault(key, {})[choice] = v
                else:
                    self.rows.append((precinct, title, district, party, choice, "", k, v))
            if total_col is not None:
                tv = _num(r[total_col]) if total_col < len(r) else None
                if tv is not None and tv != row_sum:
                    off_total.append((precinct, i))
        if key not in self.file_totals and len(self.rows) > rows_before:
            # Every contest's sheet ends with its 'Total:' row: without it the sheet was cut
            # short (or the row deleted), and its precincts may not be all of them.
            self.log.issues.append(Issue(
                self.log.file, f"{title}: the contest's sheet has no 'Total:' row, which the "
                "results export ends every contest's sheet with: the sheet is probably cut "
                "short (or the row was deleted), so its precincts may not be all of them. "
                "Download the results again.", sheet, severity=Severity.ERROR,
                contest=ContestKey(*key)))
        if countless:
            self.log.warn(f"{title}: {len(countless)} row(s) name no counts at all (first "
                          f"{countless[0][0][:60]!r}); they are not read as precincts.",
                          sheet=sheet, row=countless[0][1])
        if off_total:
            self.log.warn(f"{title}: in {len(off_total)} row(s) the candidates' 'Total Votes' do "
                          f"not add up to the 'Total' column (first {off_total[0][0]!r}); the "
                          "columns may be shifted. Check the file.", sheet=sheet,
                          row=off_total[0][1], column=col_letter(total_col or 0))

    def finish(self) -> RawCanvass:
        if not self.saw_toc and not self.contests:
            raise fail(self.path, "This workbook is not a Clarity results export (no 'Table of "
                       "Contents' sheet and no contest sheets). Download detail.xls from the "
                       "results site, or use the column mapping.")
        self.tally.close()
        missing = [(page, title, row) for page, (title, row) in self.toc.items()
                   if page != "1" and page not in self.read_pages
                   and title.strip().lower() != "registered voters"]
        if missing:
            listed = ", ".join(f"{t.strip()!r} (page {p})" for p, t, _ in missing[:5])
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            self.log.warn(f"The Table of Contents lists {len(missing)} contest(s) that have no "
                          f"contest sheet in this workbook: {listed}{more}. They are not "
                          "imported; download the complete detail.xls if you need them.",
                          sheet=_TOC_SHEET, row=missing[0][2])
        if self.seats:
            self.log.note("Seats are read from the '( n)' after each contest title (Table of "
                          "Contents and contest sheets); Clarity does not label it, so it is "
                          "presumed to be the vote-for count. Check multi-seat races.",
                          sheet=_TOC_SHEET)
        return self.raw(FAMILY, self.name, _frame(self.rows))


def _frame(rows: list[Row]) -> pd.DataFrame:
    # (Plain text columns: quicker here than stages.frame's categoricals, 2026-12-02.)
    import pandas as pd

    df = pd.DataFrame(rows, columns=list(RAW_COLUMNS))
    return df.astype({c: str for c in RAW_COLUMNS if c != "votes"} | {"votes": "int64"})


# ---------------------------------------------------------------------------------------------
# detail.xml

_Shape = tuple[str, tuple[tuple[str, str], ...], str, tuple[Any, ...]]


def _shape(el: Any) -> _Shape:
    """An element as a value to compare with another: its tag, attributes, text and
    children, all of them (not the whitespace around it)."""
    return (el.tag, tuple(sorted(el.attrib.items())), (el.text or "").strip(),
            tuple(_shape(c) for c in el))


def _digest(el: Any) -> bytes:
    """The SHA-256 of an element's :func:`_shape`: what is kept of each contest to tell a
    copy by (a statewide file's contests, every precinct's counts, are not held twice)."""
    return hashlib.sha256(repr(_shape(el)).encode()).digest()


def _read_detail_xml(path: Path, source: IO[bytes], options: ReadOptions,
                     member: str | None) -> RawCanvass:
    import xml.etree.ElementTree as ET

    from ._xml import HostileXml, iterparse

    name = path.name
    log = IssueLog(name)
    rows: list[Row] = []
    seats: dict[tuple[str, str, str], int] = {}
    file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
    election_name = election_date = None
    any_party = False
    n_contests = 0
    titled: dict[tuple[str, str], int] = {}  # (title, party): <Contest>s of it so far
    # key attribute -> (text, shape's digest, contest key) of its first <Contest>
    by_key: dict[str, tuple[str, bytes | None, tuple[str, str, str]]] = {}
    copies: list[str] = []
    clashes: list[tuple[str, str, str, tuple[str, str, str], tuple[str, str, str]]] = []
    no_units: list[str] = []
    bad_counts: list[str] = []
    try:
        for _event, el in iterparse(source, events=("end",)):
            tag = el.tag
            if tag == "ElectionName":
                election_name = (el.text or "").strip() or None
            elif tag == "ElectionDate":
                election_date = vocab.date_in((el.text or "").strip())
            elif tag == "Contest":
                n_contests += 1
                options.on_progress(n_contests, n_contests + 1)
                if options.cancelled():
                    raise Cancelled()
                text = " ".join((el.get("text") or "").split())
                title, party = text, ""
                m = _PARTY_WORD.search(text)
                if m and m.group(1).upper() != "NONPARTISAN":
                    party = _PARTY_CODES.get(m.group(1).upper(), m.group(1).upper())
                    title = text[:m.start()].strip()
                    any_party = True
                elif m:
                    title = text[:m.start()].strip()
                else:
                    title, _, party = _split_title(text)
                    any_party = any_party or bool(party)
                if vocab.is_non_contest_office(title):
                    el.clear()
                    continue
                # A contest's key names one contest: a second <Contest> of that key is a
                # copy (read once) or a contradiction (no verdict on either).
                ckey = el.get("key")
                shape = _digest(el) if ckey is not None else None
                before = by_key.get(ckey) if ckey is not None else None
                if before is not None and before[1] == shape:
                    copies.append(f'key="{ckey}" ({text!r})')
                    el.clear()
                    continue
                # Two <Contest>s of one title (districts of one office, say) are two contests,
                # kept apart by a number, never one contest of both's candidates.
                nth = titled[title, party] = titled.get((title, party), 0) + 1
                district = f"#{nth}" if nth > 1 else ""
                key = (title, district, party)
                if before is not None:
                    clashes.append((ckey or "", before[0], text, before[2], key))
                elif ckey is not None:
                    by_key[ckey] = (text, shape, key)
                vf = el.get("voteFor")
                if vf and vf.strip().isdigit():
                    seats[key] = int(vf)
                if (short := _partly_reported(el)) is not None:
                    log.issues.append(Issue(
                        name, f"{ContestKey(*key).label()}: {short}, so its figures may be a "
                        "count under way (an election night's), not the canvass; no verdict "
                        "rests on them. Download detail.xml again after the canvass, when "
                        "every precinct has reported.", severity=Severity.ERROR,
                        contest=ContestKey(*key)))
                totals: dict[str, int] = {}
                for child in el:
                    if child.tag == "VoteType":
                        k = vocab.choice_kind(child.get("name", ""))
                        if k in ("over", "under", "blank"):
                            for prec, v in _units(child, bad_counts):
                                rows.append((prec, title, district, party, child.get("name", k),
                                             "", k, v))
                    elif child.tag == "Choice":
                        cname = " ".join((child.get("text") or "").split())
                        k = vocab.choice_kind(cname) or "candidate"
                        cparty = (child.get("party") or "").strip()
                        per: dict[str, int] = {}
                        for vt in child.iter("VoteType"):
                            for prec, v in _units(vt, bad_counts):
                                per[prec] = per.get(prec, 0) + v
                        for prec, v in per.items():
                            rows.append((prec, title, district, party, cname, cparty, k, v))
                        tv = child.get("totalVotes")
                        if not per and _num(tv or "") and k in ("candidate", "write_in"):
                            no_units.append(f"{title}: {cname}")
                        if tv is not None and _num(tv) is not None:
                            totals[cname] = int(_num(tv) or 0)
                if totals:
                    file_totals[key] = totals
                el.clear()
    except (HostileXml, ET.ParseError) as e:
        raise fail(path, "This XML file cannot be read as a Clarity detail.xml "
                   f"({'forbidden DTD or entities' if isinstance(e, HostileXml) else e})"
                   ". Download detail.xml again from the results site.") from e
    if copies:
        log.warn(f"{len(copies)} contest(s) come twice in the file, the second time identical "
                 "to the first, element for element (a copy, not another contest): each is "
                 "read once: " + ", ".join(copies[:6]) + ". Check that the file is the results "
                 "site's own download.")
    for ckey, text_a, text_b, key_a, key_b in clashes:
        # Bound to each of the two: neither one's figures can be trusted as the contest's.
        for key in (key_a, key_b):
            log.issues.append(Issue(
                name, f"The contest key=\"{ckey}\" comes twice in the file ({text_a!r}, then "
                f"{text_b!r}), with different contents. A key names one contest, so the file "
                "contradicts itself and it cannot be told which is right; they are read as "
                f"{ContestKey(*key_a).label()!r} and {ContestKey(*key_b).label()!r}, and no "
                f"verdict rests on {ContestKey(*key).label()!r}. Download detail.xml again "
                "from the results site.", severity=Severity.ERROR, contest=ContestKey(*key),
                only_contest=True))
    shared = sorted({t for (t, _), n in titled.items() if n > 1})
    if shared:
        log.note("Several contests share a title and are kept apart, the second and later "
                 "numbered #2, #3 …: " + ", ".join(repr(t) for t in shared) + ". Check which "
                 "district each one is.")
    if bad_counts:
        log.error(f"{len(bad_counts)} count(s) are not vote counts (first: {bad_counts[0]}). "
                  "Download detail.xml again from the results site; nothing is read as 0.")
    if no_units:
        log.error(f"{len(no_units)} choice(s) have a total but no per-precinct (or per-county) "
                  f"votes, so they cannot be counted by precinct (first: {no_units[0]}). "
                  "Download the detail.xml with precinct results.")
    if n_contests == 0:
        raise fail(path, "This XML file holds no <Contest> results; it is not a Clarity "
                   "detail.xml. Download detail.xml (or detail.xls) from the results site.")
    return RawCanvass(name, FAMILY, _frame(rows), log.issues, seats, file_totals, set(),
                      grid.primary_of(election_name or name, any_party),
                      election_name=election_name, election_date=election_date)


# What a <Contest> says of its reporting units: (reported, of all) attribute pairs. Clarity's
# detail.xml of a state names counties and precincts "Participating" and "Reported"; an
# older county schema (Kentucky 2014) gives "precinctsReporting" beside
# "precinctsReported" — equal in a finished count, whichever of the two is the whole.
_REPORTED = (("countiesReported", "countiesParticipating"),
             ("precinctsReported", "precinctsParticipating"),
             ("precinctsReported", "precinctsReporting"))


def _partly_reported(el: Any) -> str | None:
    """Why a <Contest>'s own attributes say not every unit had reported when the file was
    made (fewer reported than participate, or a percent reporting below 100), else None.
    Attributes absent or not numbers say nothing."""
    for done, whole in _REPORTED:
        a, b = _num(el.get(done) or ""), _num(el.get(whole) or "")
        if a is None or b is None or a == b:
            continue
        said = f"{done}=\"{a}\" against {whole}=\"{b}\""
        unit = "county" if done.startswith("counties") else "precinct"
        if whole.endswith("Participating") and a > b:
            return f"{said}, more reported than take part: the file contradicts itself"
        return f"{said}: the file does not say that every {unit} had reported"
    pct = (el.get("precinctsReportingPercent") or "").strip()
    try:
        share = float(pct) if pct else None
    except ValueError:
        share = None
    if share is not None and share < 100:
        return (f"precinctsReportingPercent=\"{pct}\": only part of its precincts had "
                "reported when the file was made")
    return None


_COUNT = re.compile(r"[0-9]{1,3}(,[0-9]{3})*|[0-9]+")


def count_problem(text: str) -> str | None:
    """Why a count attribute is not a vote count, or None when it is one ("" is 0)."""
    t = text.strip()
    if not t or _COUNT.fullmatch(t):
        if not t or int(t.replace(",", "")) < 10**9:
            return None
        return "is too large to be a vote count"
    if re.fullmatch(r"[+-]?[0-9.]+[eE][+-]?[0-9]+", t):
        return "is written as a power of ten; a count is written in digits"
    if re.fullmatch(r"-[0-9,]+", t):
        return "is negative"
    if re.fullmatch(r"[0-9,]*\.[0-9]+", t):
        return "is not a whole number"
    return "is not a number"


def _units(vote_type: object, bad: list[str] | None = None) -> Iterator[tuple[str, int]]:
    for unit in vote_type:  # type: ignore[attr-defined]
        if unit.tag in ("Precinct", "County"):
            text = unit.get("votes", "")
            where = " ".join((unit.get("name") or "").split())
            why = count_problem(text)
            if why is not None:
                if bad is not None:
                    bad.append(f"{where}: votes={text[:30]!r} {why}")
                yield where, 0
                continue
            yield where, int(text.replace(",", "").strip() or 0)
