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
from operator import itemgetter
from pathlib import Path

from . import blocks, vocab
from .base import Cancelled, Detection, RawCanvass, ReadOptions, fail
from .pipeline import IssueLog, Located, Source
from .stages import detector, head_rows, pick_sheet, primary_in_name, staged_read
from .tabular import col_letter

FAMILY = "ess_custom"
LABEL = "Electionware Statement of Votes Cast (custom table XLSX)"

_RV = re.compile(r"registered\s+voters", re.IGNORECASE)
_STAT_WORD = re.compile(r"^\s*(statistics|precinct|precicnts?|precincts)\s*$", re.IGNORECASE)
_VOTE_FOR_WORD = re.compile(r"vote\s+for\s+(one|two|three|four|five|six|seven|eight|nine)\b",
                            re.IGNORECASE)
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9}
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


@detector("xlsx", "xls", "ods")
def detect(path: Path, kind: str) -> Detection | None:
    # The statement is usually the first sheet; a few workbooks put a cover sheet first.
    sheet = pick_sheet(path, kind, None, lambda rows: _detect_rows(rows) is not None,
                       look=3, nrows=14)
    return _detect_rows(head_rows(path, kind, sheet, nrows=14))


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


def locate(source: Source, options: ReadOptions) -> Located:
    """The sheet with the header band, and the band itself: the contests (each a run of
    columns under its title), their choices and their stated seats."""
    path, name = source.path, source.name
    if source.kind not in ("xlsx", "xls", "ods"):
        raise fail(path, "This is not an Excel Statement of Votes Cast; export it as XLSX.")
    sheet, rows = blocks.find_sheet(path, source.kind, options.sheet,
                                    lambda rows: _find_layout(rows) is not None)
    lay = _find_layout(rows)
    if lay is None:
        raise fail(path, "No sheet has the Statement of Votes Cast header ('Registered Voters' "
                   "above the precinct rows); export the SOVC custom table report again.",
                   sheet=sheet)
    options.on_progress(1, 4)
    rv_row, rv_col, data0 = lay
    width = max(len(r) for r in rows)
    rows = [(r + [""] * width)[:width] for r in rows]
    title_row = next((t for t in range(rv_row, max(-1, rv_row - 4), -1)
                      if any(c.strip().lower() == "statistics" for c in rows[t])), rv_row - 1)
    if title_row < 0:
        raise fail(path, "The header has no row of contest titles above 'Registered Voters'.",
                   sheet=sheet, row=rv_row + 1)
    head_text = " ".join(c for r in rows[:title_row + 1] for c in r[:3] if c)
    # Contest columns: from the first title to the right of the statistics.
    first = next((c for c in range(rv_col + 1, width)
                  if rows[title_row][c] and not _STAT_WORD.match(rows[title_row][c])), None)
    if first is None:
        raise fail(path, "No contest titles were found in the header.", sheet=sheet,
                   row=title_row + 1)
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
            for r in range(title_row + 1, data0):
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
    return Located(source, rows, IssueLog(name, sheet), sheet, data0, facts={
        "rv": (rv_row, rv_col), "contests": contests, "choices": choice_name,
        "seats": seats_of, "primary": primary_in_name(head_text),
        "election_name": next((c for r in rows[:title_row] for c in r if c and not re.match(
            r"^(statement of votes cast|sovc report)$", c, re.I)), None),
        "election_date": next((d for r in rows[:title_row + 1] for c in r[:12] if c
                               for d in [vocab.date_in(c)] if d), None)})


def _precinct_columns(rows: list[list[str]], body: list[int], rv_col: int
                      ) -> tuple[int | None, list[int], dict[int, int]]:
    """The sub-row type column (or None) and the candidates for the precinct column, found
    from the data left of 'Registered Voters', with how many text cells each holds."""
    left = range(0, rv_col)
    text_count = {c: sum(1 for r in body if rows[r][c] and vocab.parse_count(rows[r][c]) is None)
                  for c in left}
    type_col = None
    for c in left:
        vals = {vocab.clean_name(rows[r][c]).lower() for r in body if rows[r][c]}
        typed = {v for v in vals if vocab.VOTE_MODE.match(v)}
        if 2 <= len(vals) <= 10 and text_count[c] > len(body) // 2 and (
                "total" in vals or len(typed) >= 2) and len(typed) >= len(vals) - 1:
            type_col = c
            break
    return type_col, [c for c in left if c != type_col], text_count


def map(located: Located, options: ReadOptions) -> RawCanvass:
    """One row per precinct (its Total sub-row where it has sub-rows, else its sub-rows
    added up), each choice column's counts as raw rows; the Totals row is the file's."""
    import numpy as np

    path, name, sheet, log = located.source.path, located.source.name, located.sheet, located.log
    rows, data0 = located.rows, located.header_rows
    rv_row, rv_col = located.facts["rv"]
    contests: list[tuple[str, list[int]]] = located.facts["contests"]
    choice_name: dict[int, str] = located.facts["choices"]
    body = [r for r in range(data0, len(rows)) if any(rows[r])]
    type_col, cand, text_count = _precinct_columns(rows, body, rv_col)
    if not cand:
        raise fail(path, "No precinct column was found left of 'Registered Voters'.",
                   sheet=sheet, row=rv_row + 1)
    prec_col = max(cand, key=lambda c: (text_count[c], -c))
    options.on_progress(2, 4)
    picked, summed = _pick_rows(located, body, type_col, prec_col)
    if not picked:
        raise fail(path, "The statement has a header but no precinct rows.", sheet=sheet)
    if options.cancelled():
        raise Cancelled()

    # The contests' choice columns, and their counts in the picked rows.
    seats: dict[tuple[str, str, str], int] = {}
    skipped: list[str] = []
    columns: list[tuple[int, blocks.Choice]] = []
    for ci, (title, run) in enumerate(contests):
        if vocab.is_non_contest_office(title):
            skipped.append(title)
            continue
        cparty = vocab.contest_party(title)
        if ci in located.facts["seats"]:
            seats[(title, "", cparty)] = located.facts["seats"][ci]
        for c in run:
            lab = choice_name.get(c)
            ck = vocab.choice_kind_ext(lab) if lab else None
            if lab and ck is not None:
                choice, pfx = (vocab.split_party_prefix(lab) if ck == "candidate" and not cparty
                               else (lab, ""))
                columns.append((c, (title, "", cparty, choice, pfx, ck)))
    cols = [c for c, _ in columns]
    pick = itemgetter(*cols) if cols else None
    cells = [[("" if x in vocab.NOT_ON_BALLOT else x) for x in
              ((pick(rows[r]),) if len(cols) == 1 else pick(rows[r]))] if pick else []
             for _, r in picked]
    values, present = blocks.count_cells(cells, log=log, rows=[r for _, r in picked],
                                         columns=cols, bad_reads_as="it is left out")
    is_total = np.array([vocab.is_total_precinct(p) for p, _ in picked], dtype=bool)
    blocks.left_out(log, skipped)
    df, file_totals = blocks.grid_rows(values, present, [p for p, _ in picked],
                                       [(k, ch) for k, (_, ch) in enumerate(columns)],
                                       log=log, is_total=is_total)
    blocks.multicounty(log, [ch[0] for _, ch in columns])
    if not present[is_total].any():
        # The export always ends with its Totals row: without it the file is probably cut
        # short, and no figure of it can be trusted as the whole canvass.
        log.error("The statement has no Totals row, which the election system's export "
                  "always ends with: the file is probably cut short (or the row was deleted), "
                  "so its precincts may not be all of them. Export the statement again.")
    options.on_progress(3, 4)
    if type_col is not None and summed:
        df = df.groupby(["precinct", "contest", "district", "party", "choice", "choice_party",
                         "kind"], sort=False, as_index=False, observed=True)["votes"].sum()
    primary = located.facts["primary"]
    if primary is None and (df["party"] != "").any():
        primary = True
    options.on_progress(4, 4)
    return RawCanvass(name, FAMILY, df, log.close(), seats, file_totals, set(), primary,
                      election_name=located.facts["election_name"],
                      election_date=located.facts["election_date"], sheet=sheet)


read = staged_read(locate, map)


def _pick_rows(located: Located, body: list[int], type_col: int | None, prec_col: int
               ) -> tuple[list[tuple[str, int]], list[str]]:
    """(precinct, row) of each row to read, and the precincts whose sub-rows are added up."""
    rows, log = located.rows, located.log
    choice_name: dict[int, str] = located.facts["choices"]
    picked: list[tuple[str, int]] = []
    cur = ""
    groups: dict[str, list[int]] = {}
    for r in body:
        p = vocab.clean_name(rows[r][prec_col])
        if type_col is None:
            if p and any(vocab.parse_count(rows[r][c]) is not None for c in choice_name):
                picked.append((p, r))
            continue
        cur = p or cur
        if cur:
            groups.setdefault(cur, []).append(r)
    summed: list[str] = []
    if type_col is not None:
        with_total = bad_subs = 0
        for p, rs in groups.items():
            tot = [r for r in rs if rows[r][type_col].strip().lower() == "total"]
            if tot:
                with_total += 1
                picked.append((p, tot[-1]))
                if not _check_sub_rows(rows, p, [r for r in rs if r not in tot], tot[-1],
                                       choice_name, log if bad_subs < 10 else None):
                    bad_subs += 1
            else:
                summed.append(p)
                picked.extend((p, r) for r in rs
                              if any(vocab.parse_count(rows[r][c]) is not None
                                     for c in choice_name))
        kinds = ", ".join(sorted({rows[r][type_col] for r in body if rows[r][type_col]}))
        if with_total:
            log.note(f"Each precinct has several sub-rows ({kinds}); only its 'Total' sub-row "
                     "is read, so no vote is counted twice.")
        if bad_subs > 10:
            log.warn(f"… {bad_subs} precincts in all have sub-rows that do not add up to "
                     "their 'Total' sub-row.")
        if summed and with_total:
            log.warn(f"{len(summed)} precinct(s) have no 'Total' sub-row (e.g. {summed[0]!r}); "
                     "their sub-rows are added up.")
        elif summed:
            log.note(f"Each precinct has several sub-rows ({kinds}) and no 'Total' sub-row; "
                     "each precinct's sub-rows are added up.")
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
            log.warn(f"The precinct name {p!r} appears on more than one row; this row is read "
                     f"as a precinct of its own, {p + ' (2)'!r} or later number. Check the "
                     "precinct names in the export.", row=r + 1, column=col_letter(prec_col))
    return picked, summed


def _check_sub_rows(rows: list[list[str]], precinct: str, parts: list[int], total: int,
                    choice_name: dict[int, str], log: IssueLog | None) -> bool:
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
            if log is not None:
                log.warn(f"In precinct {precinct!r}, the sub-rows for {lab!r} add up to {s:,} "
                         f"but its 'Total' sub-row says {want:,}; the Total row is counted.",
                         row=total + 1, column=col_letter(c))
            return False
    return True
