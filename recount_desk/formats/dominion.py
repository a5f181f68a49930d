"""Dominion results: the Statement of Votes (per precinct) and Summary of Votes, CSV or XLSX.

Statement: one row per precinct × contest × choice, columns ``Precinct Code, Precinct Number,
[Active Voters,] Contest Title, Choice Name, Active Voters*, Total Ballots, Total Votes, Total
Undervotes, Total Overvotes``; headers may hold line breaks and counts thousands separators
(``"1,075"``). Undervotes, overvotes and ballots repeat on every choice row of a contest in a
precinct, so they are taken once per precinct and contest, never summed across choices.
Summary: the same without precinct columns (one county-level unit). XLSX files put a title
row (``Official Statement``) above the header, and both end with a footnote row.

Exports from other counties put the same columns in another order, name the precinct
column ``Precinct`` or ``Precinct Name``, add ``Party`` or ``Vote For`` columns, spell
``Under Votes`` with a space, or start with a byte-order mark; columns are found by name.

The Boulder files state no vote-for count. Where a ``Vote For`` column is present it gives the
seats; otherwise, where ``n · ballots = votes + undervotes + n · overvotes`` holds exactly for a
whole number n, n is taken as the seats (and an issue says so); where it holds for none, an
issue names the contest. Rows whose precinct is ``Total`` are the file's own totals.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from recount_desk.core.model import Issue, Severity

from . import vocab
from ._sheets import RawRow, chosen_sheets, frame, to_int
from .base import NOT_OURS, Cancelled, Detection, RawCanvass, ReadOptions, fail
from .tabular import col_letter, read_csv_text, read_sheet_text, sheet_names, sniff

FAMILY = "dominion"
LABEL = "Dominion Statement / Summary of Votes"

COUNTY_UNIT = "Entire county (summary)"
_NEEDED = ("contest title", "choice name", "total votes", "total undervotes", "total overvotes")
# Other spellings of the needed and optional columns -> the Boulder name.
_ALIASES = {
    "contest": "contest title", "contest name": "contest title", "race": "contest title",
    "choice": "choice name", "candidate": "choice name", "candidate name": "choice name",
    "votes": "total votes", "undervotes": "total undervotes",
    "overvotes": "total overvotes", "ballots": "total ballots", "ballots cast": "total ballots",
    "total ballots cast": "total ballots", "precinct": "precinct name",
    "precinct id": "precinct code", "precinct portion": "precinct name",
    "choice party": "party", "party code": "party", "candidate party": "party",
    "vote for": "vote for", "number to elect": "vote for", "seats": "vote for",
}
_PRECINCT_COLS = ("precinct code", "precinct number", "precinct name")


def _norm(text: str) -> str:
    t = re.sub(r"\s+", " ", text.replace("\ufeff", "").replace("*", "")).strip().lower()
    t = re.sub(r"\b(under|over) votes\b", r"\1votes", t)
    return _ALIASES.get(t, t)


def _header_at(rows: list[list[str]]) -> int | None:
    for i, r in enumerate(rows[:10]):
        low = {_norm(c) for c in r}
        if all(n in low for n in _NEEDED):
            return i
    return None


def _head_rows(path: Path, kind: str, sheet: str | None = None, nrows: int | None = 10
               ) -> tuple[list[list[str]], str | None]:
    if kind == "csv":
        df, note = read_csv_text(path, header=None, nrows=nrows)
        return df.fillna("").astype(str).to_numpy().tolist(), note
    return read_sheet_text(path, sheet if sheet is not None else 0, nrows=nrows), None


def _statement_sheet(path: Path, kind: str, sheet: str | None) -> str | None:
    """The sheet to read: the one asked for, else the first whose first rows hold the
    header (a workbook may open on a cover sheet)."""
    if kind == "csv" or sheet is not None:
        return sheet
    names = sheet_names(path)
    for name in names[:6]:
        if _header_at(read_sheet_text(path, name, nrows=10)) is not None:
            return name
    return names[0] if names else None


def detect(path: Path, kind: str) -> Detection | None:
    if kind not in ("csv", "xlsx", "xls", "ods"):
        return None
    try:
        rows, _ = _head_rows(path, kind, _statement_sheet(path, kind, None))
    except NOT_OURS:  # a file of another family, or damaged
        return None
    h = _header_at(rows)
    if h is None:
        return None
    low = {_norm(c) for c in rows[h]}
    if any(c in low for c in _PRECINCT_COLS):
        return Detection(FAMILY, LABEL + " (Statement of Votes)", 99, "columns Contest Title, "
                         "Choice Name, Total Votes, Total Undervotes, Total Overvotes per "
                         "precinct")
    return Detection(FAMILY, LABEL + " (Summary of Votes)", 98, "county-level columns Contest "
                     "Title, Choice Name, Total Votes, Total Undervotes, Total Overvotes")


def read(path: Path, options: ReadOptions | None = None) -> RawCanvass:
    """Read a Dominion Statement or Summary of Votes into raw rows."""
    options = options or ReadOptions()
    kind = sniff(path)
    name = path.name
    if kind not in ("csv", "xlsx", "xls", "ods"):
        raise fail(path, "This is not a CSV or Excel file, so it is not a Dominion Statement of "
                   "Votes. Export the Statement of Votes as CSV or XLSX.")
    if kind != "csv":
        chosen_sheets(path, sheet_names(path), options.sheet)
    sheet = _statement_sheet(path, kind, options.sheet)
    rows, note = _head_rows(path, kind, sheet, None)
    issues: list[Issue] = []
    if note:
        issues.append(Issue(name, note, severity=Severity.WARNING))
    h = _header_at(rows)
    if h is None:
        raise fail(path, "No header with Contest Title, Choice Name, Total Votes, Total "
                   "Undervotes and Total Overvotes was found in the first rows; this is not a "
                   "Dominion Statement of Votes. Export it again, or use the column mapping.",
                   sheet=sheet)
    header = [_norm(c) for c in rows[h]]
    col = {c: j for j, c in reversed(list(enumerate(header))) if c}
    jc, jch = col["contest title"], col["choice name"]
    jv, ju, jo = col["total votes"], col["total undervotes"], col["total overvotes"]
    jb = col.get("total ballots")
    jp = col.get("precinct code")
    jn = col.get("precinct number")
    jname = col.get("precinct name")
    jparty = col.get("party")
    jseats = col.get("vote for")
    summary = jp is None and jn is None and jname is None
    options.on_progress(1, 3)

    out: list[RawRow] = []
    extras_seen: set[tuple[str, str]] = set()
    explicit: set[tuple[str, str]] = set()      # (contest, kind) given as choice rows
    derived: list[int] = []                     # indices of over/under rows from the columns
    # Per contest: ballots, votes, undervotes, overvotes (for the seat inference).
    sums: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    stated: dict[str, set[int]] = defaultdict(set)
    file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
    bad = 0
    lost: list[int] = []
    code_numbers: dict[str, set[str]] = defaultdict(set)
    raw_header = rows[h]
    for i, r in enumerate(rows[h + 1:], start=h + 2):
        if i % 20000 == 0:
            if options.cancelled():
                raise Cancelled()
            options.on_progress(2, 3)
        r = r + [""] * (len(header) - len(r))
        contest, choice = " ".join(r[jc].split()), " ".join(r[jch].split())
        if not contest or not choice:
            # A blank line or the '* Active Voters …' footnote; counts here would be lost.
            if any(to_int(r[j]) is not None for j in (jv, ju, jo)):
                lost.append(i)
            continue
        if summary:
            precinct = COUNTY_UNIT
        else:
            code = r[jp].strip() if jp is not None else ""
            number = r[jn].strip() if jn is not None else ""
            pname = " ".join(r[jname].split()) if jname is not None else ""
            precinct = code or number or pname
            if code and number:
                code_numbers[code].add(number)
        counts = []
        for j in (jv, ju, jo) + ((jb,) if jb is not None else ()):
            v = to_int(r[j])
            if v is None:
                if r[j].strip():
                    bad += 1
                    if bad <= 10:
                        issues.append(Issue(name, f"The count {r[j]!r} is not a whole number; "
                                            "it is read as 0.", sheet, i,
                                            " ".join(raw_header[j].split()) or col_letter(j),
                                            Severity.ERROR))
                v = 0
            counts.append(v)
        votes, under, over = counts[0], counts[1], counts[2]
        k = vocab.choice_kind(choice)
        if k is None:
            continue
        if not precinct:
            lost.append(i)
            continue
        if vocab.is_total_precinct(precinct):
            if k in ("candidate", "write_in"):
                tot = file_totals.setdefault((contest, "", ""), {})
                tot[choice] = tot.get(choice, 0) + votes
            continue
        if jseats is not None:
            n_stated = to_int(r[jseats])
            if n_stated:
                stated[contest].add(n_stated)
        chparty = ""
        if jparty is not None:
            chparty = " ".join(r[jparty].split()).upper()
        if k in ("over", "under", "blank"):
            # A choice row of its own: then the columns' figures are not added again.
            out.append((precinct, contest, "", "", choice, "", k, votes))
            explicit.add((contest, k))
            continue
        out.append((precinct, contest, "", "", choice, chparty, k, votes))
        s = sums[contest]
        s[1] += votes
        if (precinct, contest) not in extras_seen:
            extras_seen.add((precinct, contest))
            for row in ((precinct, contest, "", "", "Undervotes", "", "under", under),
                        (precinct, contest, "", "", "Overvotes", "", "over", over)):
                derived.append(len(out))
                out.append(row)
            s[0] += counts[3] if jb is not None else 0
            s[2] += under
            s[3] += over
    if explicit:
        # Undervotes and overvotes given both as choice rows and in the columns: the rows win.
        drop = {i for i in derived if (out[i][1], out[i][6]) in explicit}
        out = [r for i, r in enumerate(out) if i not in drop]
    if bad > 10:
        issues.append(Issue(name, f"… {bad - 10} more counts are not whole numbers.", sheet,
                            severity=Severity.ERROR))
    if lost:
        issues.append(Issue(name, f"{len(lost)} row(s) with counts but no precinct, contest or "
                            f"choice name (first: row {lost[0]}) were left out.", sheet, lost[0],
                            severity=Severity.WARNING))
    if not out:
        raise fail(path, "The Statement of Votes has a header but no result rows.", sheet=sheet)
    dup_codes = sorted(c for c, ns in code_numbers.items() if len(ns) > 1)
    if dup_codes:
        issues.append(Issue(name, f"Precinct code(s) {', '.join(dup_codes[:5])} stand for "
                            "several precinct numbers; their rows are read as one precinct.",
                            sheet, severity=Severity.WARNING))

    seats: dict[tuple[str, str, str], int] = {}
    for contest, ns in stated.items():
        if len(ns) == 1:
            seats[(contest, "", "")] = next(iter(ns))
        else:
            issues.append(Issue(name, f"{contest}: the Vote For column says "
                                f"{' and '.join(str(n) for n in sorted(ns))} on different rows; "
                                "set the seats in the contest settings.", sheet,
                                severity=Severity.WARNING))
    inferred = []
    uneven = []
    for contest, (b, v, u, o) in sums.items():
        if contest in stated or jb is None or b - o <= 0 or v + u <= 0:
            continue
        n, rem = divmod(v + u, b - o)
        if rem == 0 and n >= 1:
            seats[(contest, "", "")] = n
            if n > 1:
                inferred.append(f"{contest} ({n})")
        else:
            uneven.append(contest)
    if len(seats) > len(stated):
        msg = ("Seats are inferred from the ballot arithmetic (seats × ballots = votes + "
               "undervotes + seats × overvotes), since Dominion does not state the vote-for "
               "count")
        msg += (": multi-seat " + "; ".join(inferred[:6]) + ("…" if len(inferred) > 6 else "")
                + "." if inferred else "; every such contest came out as one seat.")
        issues.append(Issue(name, msg, sheet, severity=Severity.NOTE))
    if uneven:
        issues.append(Issue(name, "The ballot arithmetic (seats × ballots = votes + undervotes + "
                            "seats × overvotes) gives no whole number of seats for "
                            + "; ".join(uneven[:6]) + ("…" if len(uneven) > 6 else "")
                            + "; check the seats in the contest settings.", sheet,
                            severity=Severity.WARNING))
    options.on_progress(3, 3)
    low = name.lower()
    primary = True if "primary" in low else (False if "general" in low else None)
    return RawCanvass(name, FAMILY, frame(out), issues, seats, file_totals, set(), primary,
                      sheet=sheet)
