"""Reads the Electionware "Statement of Votes Cast" custom table XLSX (Davis County style).

Title rows (``Statement of Votes Cast`` / election / date), then a header band: a row with
``STATISTICS`` and the contest titles (each over the first of its columns, merged across
them; primaries prefix ``REP ``/``DEM ``), usually a ``VOTE FOR n`` row, and the row
``Precinct, Registered Voters, Total Ballots Cast, Turnout, By Mail, …`` followed by the
choice names (sometimes on a row of their own below). Then one row per precinct and a
``Totals`` row, the file's own totals. ``-`` or an empty cell means the contest is not on the
precinct's ballot. Older files (Davis 2016) have several sub-rows per precinct (``Polling``,
``By Mail``, ``Provisional-Paper``, ``Paper at Polls`` …, sometimes ``Total``): where a
precinct has a ``Total`` sub-row only that row is read (and the others are checked against
it), else its sub-rows are added up, so nothing is counted twice.
The layout drifts between years (the precinct column moves, the header label sits one column
off), so columns are found from the data, not from fixed positions.
"""

from __future__ import annotations

import re
from pathlib import Path

from recount_desk.core.model import Issue, Severity

from . import vocab
from .base import NOT_OURS, Cancelled, Detection, RawCanvass, ReadOptions, fail
from .tabular import col_letter, read_sheet_text, sheet_names, sniff

FAMILY = "ess_custom"
LABEL = "Electionware Statement of Votes Cast (custom table XLSX)"

_RV = re.compile(r"registered\s+voters", re.IGNORECASE)
_STAT_WORD = re.compile(r"^\s*(statistics|precinct|precicnts?|precincts)\s*$", re.IGNORECASE)
_VOTE_FOR_WORD = re.compile(r"vote\s+for\s+(one|two|three|four|five|six|seven|eight|nine)\b",
                            re.IGNORECASE)
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9}
_NOT_ON_BALLOT = {"", "-", "--", "—", "–", "n/a", "N/A"}
# Sub-row labels of the older per-precinct blocks (Davis 2016: Polling, By Mail, …, Total).
_SUB_ROW = re.compile(
    r"^\s*(total|polling|polls?|by\s+mail(\s+after)?|mail(\s+ballots?)?|absentee|"
    r"provisional(\s*-\s*paper)?|paper(\s+at\s+polls)?|early(\s+voting)?|election\s+day|"
    r"in[\s-]+person|in[\s-]+office|vote\s+centers?|emergency|uocava|military)\s*$",
    re.IGNORECASE)


def _seats(text: str) -> int | None:
    s = vocab.seats_in(text)
    if s is not None:
        return s
    m = _VOTE_FOR_WORD.search(text)
    return _WORDS[m.group(1).lower()] if m else None


def _find_layout(rows: list[list[str]]) -> tuple[int, int, int] | None:
    """(row of 'Registered Voters', its column, first data row) or None."""
    for r in range(min(len(rows), 25)):
        for c, v in enumerate(rows[r]):
            if _RV.search(v):
                for d in range(r + 1, min(len(rows), r + 6)):
                    if c < len(rows[d]) and vocab.parse_count(rows[d][c]) is not None:
                        return r, c, d
                return None
    return None


def detect(path: Path, kind: str) -> Detection | None:
    if kind not in ("xlsx", "xls", "ods"):
        return None
    try:
        names = sheet_names(path, kind)
    except NOT_OURS:  # a file of another family, or damaged
        return None
    # The statement is usually the first sheet; a few workbooks put a cover sheet first.
    for s in names[:3]:
        try:
            rows = read_sheet_text(path, s, nrows=14)
        except NOT_OURS:  # a file of another family, or damaged
            return None
        found = _detect_rows(rows)
        if found is not None:
            return found
    return None


def _detect_rows(rows: list[list[str]]) -> Detection | None:
    lay = _find_layout(rows)
    if lay is None:
        return None
    r, _, _ = lay
    head = " ".join(c for row in rows[:r + 1] for c in row[:4] if c).lower()
    band = " ".join(c for row in rows[:r + 2] for c in row).lower()
    if "county number" in band or "precinct code" in band:
        return None
    score = 60
    if "statement of votes cast" in head or "sovc" in head or "official results" in head:
        score += 25
    if "statistics" in band:
        score += 8
    if re.search(r"vote\s+for", band):
        score += 5
    if score < 70:
        return None
    return Detection(FAMILY, LABEL, min(score, 95),
                     "title rows, a header band with contest titles and 'Registered Voters'")


def read(path: Path, options: ReadOptions | None = None) -> RawCanvass:
    """Read the statement's precinct rows (or Total sub-rows) into raw rows."""
    import pandas as pd

    options = options or ReadOptions()
    name = path.name
    kind = sniff(path)
    if kind not in ("xlsx", "xls", "ods"):
        raise fail(path, "This is not an Excel Statement of Votes Cast; export it as XLSX.")
    issues: list[Issue] = []
    rows: list[list[str]] = []
    lay = None
    sheet = options.sheet
    if sheet is not None:
        rows = read_sheet_text(path, sheet)
        lay = _find_layout(rows)
    else:
        for s in sheet_names(path, kind):
            rows = read_sheet_text(path, s)
            lay = _find_layout(rows)
            if lay is not None:
                sheet = s
                break
    if lay is None:
        raise fail(path, "No sheet has the Statement of Votes Cast header ('Registered Voters' "
                   "above the precinct rows); export the SOVC custom table report again.",
                   sheet=sheet)
    options.on_progress(1, 4)
    rv_row, rv_col, data0 = lay
    width = max(len(r) for r in rows)
    rows = [(r + [""] * width)[:width] for r in rows]
    title_row = rv_row - 1
    for t in range(rv_row, max(-1, rv_row - 4), -1):
        if any(c.strip().lower() == "statistics" for c in rows[t]):
            title_row = t
            break
    if title_row < 0:
        raise fail(path, "The header has no row of contest titles above 'Registered Voters'.",
                   sheet=sheet, row=rv_row + 1)
    head_text = " ".join(c for r in rows[:title_row + 1] for c in r[:3] if c)
    primary = True if "primary" in head_text.lower() else (
        False if "general" in head_text.lower() else None)
    election_name = next((c for r in rows[:title_row] for c in r if c and not
                          re.match(r"^(statement of votes cast|sovc report)$", c, re.I)), None)
    election_date = next((d for r in rows[:title_row + 1] for c in r[:12] if c
                          for d in [vocab.date_in(c)] if d), None)

    # Contest columns: from the first title to the right of the statistics.
    first = None
    for c in range(rv_col + 1, width):
        v = rows[title_row][c]
        if v and not _STAT_WORD.match(v):
            first = c
            break
    if first is None:
        raise fail(path, "No contest titles were found in the header.", sheet=sheet,
                   row=title_row + 1)
    band = range(title_row + 1, data0)
    contests: list[tuple[str, list[int]]] = []
    for c in range(first, width):
        heading = vocab.clean_name(rows[title_row][c])
        if heading:
            contests.append((heading, [c]))
        elif contests:
            contests[-1][1].append(c)
    choice_name: dict[int, str] = {}
    seats_of: dict[int, int] = {}
    for ci, (_t, cols) in enumerate(contests):
        for c in cols:
            nm = ""
            for r in band:
                v = rows[r][c]
                if not v:
                    continue
                n_seats = _seats(v)
                if n_seats is not None and re.match(r"^\s*vote\s+for", v, re.IGNORECASE):
                    seats_of[ci] = n_seats
                    continue
                nm = vocab.clean_name(v)
            if nm:
                choice_name[c] = nm

    # Precinct column and sub-row type column, found from the data.
    body = [r for r in range(data0, len(rows)) if any(rows[r])]
    left = range(0, rv_col)
    text_count = {c: sum(1 for r in body if rows[r][c] and vocab.parse_count(rows[r][c]) is None)
                  for c in left}
    type_col = None
    for c in left:
        vals = {vocab.clean_name(rows[r][c]).lower() for r in body if rows[r][c]}
        typed = {v for v in vals if _SUB_ROW.match(v)}
        if 2 <= len(vals) <= 10 and text_count[c] > len(body) // 2 and (
                "total" in vals or len(typed) >= 2) and len(typed) >= len(vals) - 1:
            type_col = c
            break
    cand = [c for c in left if c != type_col]
    if not cand:
        raise fail(path, "No precinct column was found left of 'Registered Voters'.",
                   sheet=sheet, row=rv_row + 1)
    prec_col = max(cand, key=lambda c: (text_count[c], -c))
    options.on_progress(2, 4)

    # Which rows to read: one per precinct (the Total sub-row where there are sub-rows).
    picked: list[tuple[str, int]] = []
    cur = ""
    groups: dict[str, list[int]] = {}
    order: list[str] = []
    for r in body:
        p = vocab.clean_name(rows[r][prec_col])
        if type_col is None:
            if not p:
                continue
            if not any(vocab.parse_count(rows[r][c]) is not None for c in choice_name):
                continue
            picked.append((p, r))
            continue
        if p:
            cur = p
        if not cur:
            continue
        if cur not in groups:
            groups[cur] = []
            order.append(cur)
        groups[cur].append(r)
    summed: list[str] = []
    if type_col is not None:
        with_total = bad_subs = 0
        for p in order:
            rs = groups[p]
            tot = [r for r in rs if rows[r][type_col].strip().lower() == "total"]
            if tot:
                with_total += 1
                picked.append((p, tot[-1]))
                if not _check_sub_rows(name, sheet, rows, p, [r for r in rs if r not in tot],
                                       tot[-1], choice_name, issues if bad_subs < 10 else []):
                    bad_subs += 1
            else:
                summed.append(p)
                picked.extend((p, r) for r in rs
                              if any(vocab.parse_count(rows[r][c]) is not None
                                     for c in choice_name))
        kinds = ", ".join(sorted({rows[r][type_col] for r in body if rows[r][type_col]}))
        if with_total:
            issues.append(Issue(name, f"Each precinct has several sub-rows ({kinds}); only its "
                                "'Total' sub-row is read, so no vote is counted twice.", sheet,
                                severity=Severity.NOTE))
        if bad_subs > 10:
            issues.append(Issue(name, f"… {bad_subs} precincts in all have sub-rows that do not "
                                "add up to their 'Total' sub-row.", sheet,
                                severity=Severity.WARNING))
        if summed and with_total:
            issues.append(Issue(name, f"{len(summed)} precinct(s) have no 'Total' sub-row "
                                f"(e.g. {summed[0]!r}); their sub-rows are added up.", sheet,
                                severity=Severity.WARNING))
        elif summed:
            issues.append(Issue(name, f"Each precinct has several sub-rows ({kinds}) and no "
                                "'Total' sub-row; each precinct's sub-rows are added up.",
                                sheet, severity=Severity.NOTE))
    if not picked:
        raise fail(path, "The statement has a header but no precinct rows.", sheet=sheet)
    if type_col is None:
        # Two rows with one precinct name are two precincts (a split whose name was cut).
        seen: dict[str, int] = {}
        renamed: list[tuple[str, int]] = []
        for k, (p, r) in enumerate(picked):
            n = seen.get(p, 0) + 1
            seen[p] = n
            if n > 1 and not vocab.is_total_precinct(p):
                picked[k] = (f"{p} ({n})", r)
                renamed.append((p, r))
        for p, r in renamed[:10]:
            issues.append(Issue(name, f"The precinct name {p!r} appears on more than one row; "
                                f"this row is read as a precinct of its own, {p + ' (2)'!r} or "
                                "later number. Check the precinct names in the export.", sheet,
                                r + 1, col_letter(prec_col), Severity.WARNING))

    recs: list[tuple[str, str, str, str, str, str, int]] = []
    file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
    seats: dict[tuple[str, str, str], int] = {}
    bad = 0
    void_votes = 0
    skipped: list[str] = []
    multi: list[str] = []
    total_rows = 0
    for ci, (title, cols) in enumerate(contests):
        if options.cancelled():
            raise Cancelled()
        if vocab.is_non_contest_office(title):
            skipped.append(title)
            continue
        cparty = vocab.contest_party(title)
        key = (title, "", cparty)
        if ci in seats_of:
            seats[key] = seats_of[ci]
        if "(multi-county)" in title.lower():
            multi.append(title)
        for c in cols:
            lab = choice_name.get(c)
            if not lab:
                continue
            ck = vocab.choice_kind_ext(lab)
            if ck is None:
                continue
            void = vocab.is_void_write_in(lab)
            choice, pfx = (vocab.split_party_prefix(lab) if ck == "candidate" and not cparty
                           else (lab, ""))
            for p, r in picked:
                raw = rows[r][c].strip()
                if raw in _NOT_ON_BALLOT:
                    continue
                count = vocab.parse_count(raw)
                if count is None:
                    bad += 1
                    if bad <= 10:
                        issues.append(Issue(name, f"The vote count {raw!r} for {lab!r} in "
                                            f"{title!r} is not a whole number; it is left out.",
                                            sheet, r + 1, col_letter(c), Severity.ERROR))
                    continue
                if void:
                    if not vocab.is_total_precinct(p) and p.lower() != "election total":
                        void_votes += count
                    continue
                if vocab.is_total_precinct(p) or p.lower() == "election total":
                    total_rows += 1
                    if ck in ("candidate", "write_in"):
                        choice_totals = file_totals.setdefault(key, {})
                        choice_totals[choice] = choice_totals.get(choice, 0) + count
                    continue
                recs.append((p, title, cparty, choice, pfx, ck, count))
    if bad > 10:
        issues.append(Issue(name, f"… and {bad - 10} more cells that are not whole numbers.",
                            sheet, severity=Severity.ERROR))
    if skipped:
        issues.append(Issue(name, "Not contests, left out: " + ", ".join(sorted(set(skipped)))
                            + ".", sheet, severity=Severity.NOTE))
    if void_votes:
        issues.append(Issue(name, f"{void_votes:,} invalid write-in vote(s) are not counted for "
                            "any candidate.", sheet, severity=Severity.NOTE))
    if multi:
        issues.append(Issue(name, "These contests are this county's portion of a multicounty "
                            "race (marked '(Multi-County)' in the file): " + "; ".join(multi)
                            + ". A recount of the whole race involves the other counties.",
                            sheet, severity=Severity.NOTE))
    if not total_rows:
        issues.append(Issue(name, "The statement has no Totals row, so the precincts cannot be "
                            "checked against the county totals; it may be cut short.", sheet,
                            severity=Severity.WARNING))
    options.on_progress(3, 4)
    df = pd.DataFrame(recs, columns=["precinct", "contest", "party", "choice", "choice_party",
                                     "kind", "votes"])
    df.insert(2, "district", "")
    df["votes"] = df["votes"].astype("int64")
    if type_col is not None and summed:
        df = df.groupby(["precinct", "contest", "district", "party", "choice", "choice_party",
                         "kind"], sort=False, as_index=False)["votes"].sum()
    if primary is None and (df["party"] != "").any():
        primary = True
    options.on_progress(4, 4)
    return RawCanvass(name, FAMILY, df, issues, seats, file_totals, set(), primary,
                      election_name=election_name, election_date=election_date, sheet=sheet)


def _check_sub_rows(name: str, sheet: str | None, rows: list[list[str]], precinct: str,
                    parts: list[int], total: int, choice_name: dict[int, str],
                    issues: list[Issue]) -> bool:
    """A precinct's sub-rows must add up to its 'Total' sub-row; the first cell that does not
    is a warning (the Total row is what is counted). False when they do not."""
    if not parts:
        return True
    for c, lab in choice_name.items():
        want = vocab.parse_count(rows[total][c])
        got = [vocab.parse_count(rows[r][c]) for r in parts]
        if want is None or all(v is None for v in got):
            continue
        s = sum(v for v in got if v is not None)
        if s != want:
            issues.append(Issue(name, f"In precinct {precinct!r}, the sub-rows for {lab!r} add "
                                f"up to {s:,} but its 'Total' sub-row says {want:,}; the Total "
                                "row is counted.", sheet, total + 1, col_letter(c),
                                Severity.WARNING))
            return False
    return True
