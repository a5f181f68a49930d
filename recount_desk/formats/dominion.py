"""Dominion results: the Statement of Votes (per precinct) and Summary of Votes, CSV or XLSX
(and Clarity ENR's ``summary.csv``, whose columns are the Summary of Votes' by other names).

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

import functools
import re
from pathlib import Path
from typing import Any

from recount_desk.core.model import ContestKey, Issue, Severity

from . import blocks, vocab
from .base import Cancelled, CodedRawCanvass, Detection, RawCanvass, ReadOptions, fail
from .longtable import merge
from .pipeline import IssueLog, Located, Source
from .stages import (
    by_value,
    coded,
    coded_rows,
    column_name,
    counts,
    detector,
    grid,
    head_rows,
    header_at,
    pick_sheet,
    primary_in_name,
    raw_frame,
    squash,
    squashed,
    staged_read,
    stated_seats,
    whole,
)

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
    "party name": "party",
    "vote for": "vote for", "number to elect": "vote for", "seats": "vote for",
}
_PRECINCT_COLS = ("precinct code", "precinct number", "precinct name")


@functools.lru_cache(maxsize=8192)
def _norm(text: str) -> str:
    t = re.sub(r"\s+", " ", text.replace("\ufeff", "").replace("*", "")).strip().lower()
    t = re.sub(r"\b(under|over) votes\b", r"\1votes", t)
    return _ALIASES.get(t, t)


def _is_header(row: list[str]) -> bool:
    low = {_norm(c) for c in row}
    return all(n in low for n in _NEEDED)


def _has_header(rows: list[list[str]]) -> bool:
    return header_at(rows, _is_header) is not None


@detector("csv", "xlsx", "xls", "ods")
def detect(path: Path, kind: str) -> Detection | None:
    rows = head_rows(path, kind, pick_sheet(path, kind, None, _has_header))
    h = header_at(rows, _is_header)
    if h is None:
        return None
    if any(_norm(c) in _PRECINCT_COLS for c in rows[h]):
        return Detection(FAMILY, LABEL + " (Statement of Votes)", 99, "columns Contest Title, "
                         "Choice Name, Total Votes, Total Undervotes, Total Overvotes per "
                         "precinct")
    if {"line number", "num area total"} <= {_norm(c) for c in rows[h]}:
        # (Clarity ENR's summary.csv: the same columns of one county's contests, its own
        # names for them; read as a Summary of Votes is)
        return Detection(FAMILY, "Clarity ENR summary.csv (summary of votes by contest)", 98,
                         "columns line number, contest name, choice name, total votes, "
                         "over votes, under votes, county-level")
    return Detection(FAMILY, LABEL + " (Summary of Votes)", 98, "county-level columns Contest "
                     "Title, Choice Name, Total Votes, Total Undervotes, Total Overvotes")


def _cut_before_the_footnote(located: Located, header: list[str], body: Any) -> None:
    """Refused: a file whose header marks a column for the footnote that a Dominion export
    ends with ('Active Voters*', then '* Active Voters are total voters in the precinct…')
    and that has no such footnote. It was cut short (a copy or download stopped part-way),
    and its last contests' precincts are missing: read as it stood, a contest cut in half
    was offered as done with half its votes. The footnote may stand anywhere in the last
    rows (blank rows after it)."""
    marked = [" ".join(c.split()) for c in header if c.strip().endswith("*")]
    if not marked:
        return
    tail = [str(v).strip() for v in body.iloc[-12:, 0].tolist()] if len(body) else []
    if any(t.startswith("*") for t in tail):
        return
    raise fail(located.source.path, f"The file seems cut short: its header marks "
               f"{marked[0]!r} for the footnote ('* …') that a Dominion export ends with, and "
               "it has none, so the rows after its last are probably missing (a copy or "
               "download stopped part-way). Export the file again and import that copy.",
               sheet=located.sheet, row=located.header_rows + len(body))


def _partly_reported(located: Located, body: Any, col: dict[str, int], contest: Any,
                     named: Any, rowno: Any, header: list[str]) -> None:
    """An error bound to each contest of a summary whose areas reporting (Clarity's ``num
    Area rptg``) are fewer than its areas (``num Area total``): its figures are a count
    under way (an election night's), not the canvass, and no verdict rests on them."""
    import numpy as np

    if not {"num area total", "num area rptg"} <= col.keys():
        return
    total, rptg = (by_value(body[col[c]], lambda t: -1 if (n := whole(t)) is None else n,
                            np.int64) for c in ("num area total", "num area rptg"))
    short = named & (total >= 0) & (rptg >= 0) & (rptg < total)
    said: set[str] = set()
    for i in np.flatnonzero(short).tolist():
        title = str(contest[i])
        if title in said:
            continue
        said.add(title)
        located.log.issues.append(Issue(
            located.source.name, f"{title}: only {int(rptg[i]):,} of its {int(total[i]):,} "
            "areas (precincts) had reported when this summary was made "
            f"({column_name(header, col['num area rptg'])!r} against "
            f"{column_name(header, col['num area total'])!r}), so its figures are not the "
            "canvass; no verdict rests on them. Import the summary exported after the "
            "canvass, when every area has reported.", located.sheet, int(rowno[i]),
            column_name(header, col["num area rptg"]), Severity.ERROR,
            contest=ContestKey(title)))


def locate(source: Source, options: ReadOptions) -> Located:
    """The sheet holding the header (the one asked for, else the first whose first rows
    hold it: a workbook may open on a cover sheet), and its header row."""
    if source.kind not in ("csv", "xlsx", "xls", "ods"):
        raise fail(source.path, "This is not a CSV or Excel file, so it is not a Dominion "
                   "Statement of Votes. Export the Statement of Votes as CSV or XLSX.")
    sheet = pick_sheet(source.path, source.kind, options.sheet, _has_header)
    log = IssueLog(source.name, sheet)
    df = grid(source.path, source.kind, sheet, log)
    h = header_at(df.head(10).to_numpy().tolist(), _is_header)
    if h is None:
        raise fail(source.path, "No header with Contest Title, Choice Name, Total Votes, Total "
                   "Undervotes and Total Overvotes was found in the first rows; this is not a "
                   "Dominion Statement of Votes. Export it again, or use the column mapping.",
                   sheet=sheet)
    options.on_progress(1, 3)
    return Located(source, [], log, sheet, h + 1, facts={"grid": df})


def map(located: Located, options: ReadOptions) -> RawCanvass:
    """One raw row per choice row; the undervotes and overvotes of a contest in a precinct
    once, from its first choice row (unless the file gives them as choice rows)."""
    import numpy as np
    import pandas as pd

    df, h, log, sheet = located.facts["grid"], located.header_rows - 1, located.log, \
        located.sheet
    raw_header = [str(c) for c in df.iloc[h]]
    col = {c: j for j, c in reversed(list(enumerate(_norm(c) for c in raw_header))) if c}
    body = df.iloc[h + 1:].reset_index(drop=True)
    _cut_before_the_footnote(located, raw_header, body)
    rowno = np.arange(h + 2, h + 2 + len(body))
    # Contests and choices as codes into their distinct texts (the rows are kept so), and
    # as the texts of the rows for what is asked of them.
    contest_c, contest_t = squashed(body[col["contest title"]])
    choice_c, choice_t = squashed(body[col["choice name"]])
    contest, choice = (np.array(t, dtype=object)[c] for c, t in ((contest_c, contest_t),
                                                                 (choice_c, choice_t)))
    named = (contest != "") & (choice != "")
    cols = [col[c] for c in ("total votes", "total undervotes", "total overvotes",
                             "total ballots") if c in col]
    vals, known = counts(body[cols], log=log, rows=rowno, check=named,
                         names=[column_name(raw_header, j) for j in cols])
    votes, under, over = vals[:, 0], vals[:, 1], vals[:, 2]
    ballots = vals[:, 3] if "total ballots" in col else np.zeros(len(body), np.int64)
    _partly_reported(located, body, col, contest, named, rowno, raw_header)
    # A blank line or the '* Active Voters …' footnote: counts there would be lost.
    lost = ~named & known[:, :3].any(axis=1)
    kind_of = [vocab.choice_kind(t) for t in choice_t]  # (each distinct choice's)
    kind = np.array(kind_of, dtype=object)[choice_c]
    part = [squash(body[col[c]]) if c in col else np.full(len(body), "", dtype=object)
            for c in _PRECINCT_COLS]
    summary = not any(c in col for c in _PRECINCT_COLS)
    precinct = np.full(len(body), COUNTY_UNIT, dtype=object) if summary else \
        np.where(part[0] != "", part[0], np.where(part[1] != "", part[1], part[2]))
    keep = named & (kind != None)  # noqa: E711  (elementwise: a choice of a kind counted)
    lost |= keep & (precinct == "")
    keep &= precinct != ""
    prec_c, prec_t = coded(precinct)
    is_total = keep & np.array([vocab.is_total_precinct(t) for t in prec_t], dtype=bool)[prec_c]
    cand = np.isin(kind, ["candidate", "write_in"])
    tot = is_total & cand
    file_totals = blocks.totals(raw_frame({"precinct": precinct[tot], "contest": contest[tot],
                                           "district": "", "party": "", "choice": choice[tot],
                                           "choice_party": "", "kind": kind[tot],
                                           "votes": votes[tot]})) if tot.any() else {}
    keep &= ~is_total
    if options.cancelled():
        raise Cancelled()
    options.on_progress(2, 3)

    stated: dict[tuple[str, str, str], set[int]] = {}
    if "vote for" in col:
        n = by_value(body[col["vote for"]], lambda s: whole(s) or 0, np.int64)
        for c, k in dict.fromkeys(zip(contest[keep & (n > 0)], n[keep & (n > 0)].tolist(),
                                      strict=True)):
            stated.setdefault((c, "", ""), set()).add(k)
    party_c, party_t = squashed(body[col["party"]]) if "party" in col else \
        (np.zeros(len(body), dtype=np.intp), [""])
    party_c, party_t = merge(party_c, [t.upper() for t in party_t])
    extra = keep & ~cand
    # Undervotes and overvotes given both as choice rows and in the columns: the rows win.
    explicit = set(zip(contest[extra], kind[extra], strict=True))
    cand &= keep
    # Each (precinct, contest)'s first choice row.
    first = np.zeros(len(body), dtype=bool)
    at = np.flatnonzero(cand)
    if len(at):
        _, firsts = np.unique(prec_c[at].astype(np.int64) * len(contest_t) + contest_c[at],
                              return_index=True)
        first[at[firsts]] = True
    # The rows as codes into distinct texts: the choices' and their parties' with the names
    # of the undervotes and overvotes rows (and "") added where they are not among them.
    choice_t, party_t = list(choice_t), list(party_t)
    kinds: list[str] = []

    def code_of(texts: list[str], text: str) -> int:
        if text not in texts:
            texts.append(text)
        return texts.index(text)

    no_party = code_of(party_t, "")
    kind_c = np.array([-1 if k is None else code_of(kinds, k) for k in kind_of],
                      dtype=np.intp)[choice_c]
    # The choice rows, each followed by its contest's undervotes and overvotes rows where
    # it is the first of the contest in its precinct (positions 3i, 3i + 1, 3i + 2).
    pieces = [(np.flatnonzero(keep) * 3, prec_c[keep], contest_c[keep], choice_c[keep],
               np.where(cand, party_c, no_party)[keep], kind_c[keep], votes[keep])]
    for off, name_, k, v in ((1, "Undervotes", "under", under), (2, "Overvotes", "over", over)):
        given = {c for c, kk in explicit if kk == k}
        m = first & ~np.isin(contest_c, [j for j, t in enumerate(contest_t) if t in given])
        n_m = int(m.sum())
        pieces.append((np.flatnonzero(m) * 3 + off, prec_c[m], contest_c[m],
                       np.full(n_m, code_of(choice_t, name_), dtype=np.intp),
                       np.full(n_m, no_party, dtype=np.intp),
                       np.full(n_m, code_of(kinds, k), dtype=np.intp), v[m]))
    order = np.argsort(np.concatenate([pc[0] for pc in pieces]), kind="stable")
    out = {name_: np.concatenate([pc[j] for pc in pieces])[order] for j, name_ in enumerate(
        ("at", "precinct", "contest", "choice", "choice_party", "kind", "votes")) if j}
    if lost.any():
        log.warn(f"{int(lost.sum())} row(s) with counts but no precinct, contest or choice "
                 f"name (first: row {rowno[lost.argmax()]}) were left out.",
                 row=int(rowno[lost.argmax()]))
    if not len(out["votes"]):
        raise fail(located.source.path, "The Statement of Votes has a header but no result "
                   "rows.", sheet=sheet)
    if not summary and {"precinct code", "precinct number"} <= col.keys():
        both = named & (part[0] != "") & (part[1] != "")
        numbers: dict[str, set[str]] = {}
        # (each distinct pair once: a precinct's code and number repeat on all its rows)
        for code, number in dict.fromkeys(zip(part[0][both].tolist(), part[1][both].tolist(),
                                              strict=True)):
            numbers.setdefault(code, set()).add(number)
        dup = sorted(str(c) for c, ns in numbers.items() if len(ns) > 1)
        if dup:
            log.warn(f"Precinct code(s) {', '.join(dup[:5])} stand for several precinct "
                     "numbers; their rows are read as one precinct.")
    # Each contest's votes, and its ballots, undervotes and overvotes (once a precinct),
    # in order of first appearance.
    c_codes, c_u = pd.factorize(contest_c[cand])
    acc = np.zeros((len(c_u), 4), dtype=np.int64)
    for j, v in enumerate((votes, np.where(first, ballots, 0), np.where(first, under, 0),
                           np.where(first, over, 0))):
        np.add.at(acc[:, j], c_codes, v[cand].astype(np.int64))
    sums = dict(zip((contest_t[c] for c in c_u.tolist()), acc.tolist(), strict=True))
    seats = _seats(sums, stated, log, "total ballots" in col)
    options.on_progress(3, 3)
    # (held as codes: the build stage reads them without a frame)
    return CodedRawCanvass(located.source.name, FAMILY, None, log.close(), seats, file_totals,
                           set(), primary_in_name(located.source.name), sheet=sheet,
                           coded=coded_rows({
                               "precinct": (out["precinct"], prec_t),
                               "contest": (out["contest"], contest_t),
                               "choice": (out["choice"], choice_t),
                               "choice_party": (out["choice_party"], party_t),
                               "kind": (out["kind"], kinds), "votes": out["votes"],
                               "district": "", "party": ""}))


read = staged_read(locate, map)


def _seats(sums: dict[str, list[int]], stated: dict[tuple[str, str, str], set[int]],
           log: IssueLog, have_ballots: bool) -> dict[tuple[str, str, str], int]:
    """The seats each contest's Vote For column states, else those the ballot arithmetic
    gives (n · ballots = votes + undervotes + n · overvotes for one whole n); ``sums``:
    each contest's [votes, ballots, undervotes, overvotes]."""
    seats = stated_seats(stated, log, "Vote For")
    inferred: list[str] = []
    uneven: list[str] = []
    for contest, (v, b, u, o) in sums.items():
        if (contest, "", "") in stated or not have_ballots or b - o <= 0 or v + u <= 0:
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
        log.note(msg)
    if uneven:
        log.warn("The ballot arithmetic (seats × ballots = votes + undervotes + seats × "
                 "overvotes) gives no whole number of seats for " + "; ".join(uneven[:6])
                 + ("…" if len(uneven) > 6 else "") + "; check the seats in the contest "
                 "settings.")
    return seats
