"""Reads the Electionware "Summary Results Report" exported as CSV: stacked blocks per precinct.

Each printed page starts with ``Summary Results Report … OFFICIAL RESULTS``, the election
name and the date/county line, then the precinct's name. A ``STATISTICS`` block (registered
voters, ballots cast, turnout) is followed by contests: the title, ``Vote For N`` (the seats),
a column header (``TOTAL`` and any vote-mode columns) and one line per choice, then the
summary lines ``Write-In Totals``, ``Total Votes Cast``, ``Overvotes``, ``Undervotes``,
``Contest Totals``. Page footers (``Precinct Summary - date … n of N``, ``Report generated
with Electionware``) are skipped. The columns drift from page to page, so a count is the
number under ``TOTAL`` when the line has one number per column, else the first number.
A report without precinct names (county summary) is read as one unit; a ``Cumulative`` or
``Total`` section is the file's own totals.
"""

from __future__ import annotations

import re
from pathlib import Path

from recount_desk.core.model import Issue, Severity

from . import vocab
from .base import Cancelled, Detection, RawCanvass, ReadOptions, fail
from .tabular import read_csv_rows

FAMILY = "ess_summary"
LABEL = "Electionware Summary Results Report (CSV)"

_NUM = re.compile(r"^-?\d{1,3}(,\d{3})*$|^-?\d+$")
_PCT = re.compile(r"^-?\d+(\.\d+)?\s*%$")
_FOOTER = re.compile(r"^(report generated with|(precinct\s+)?summary\s*-\s*\d|cumulative\s*-\s*\d|"
                     r"page\s+\d+)", re.IGNORECASE)
_STATISTICS = re.compile(r"^statistics$", re.IGNORECASE)
_MODE_WORD = re.compile(r"^(total|election\s+day|early(\s+voting)?|by\s+mail|mail|absentee|"
                        r"provisional|polls?|in\s+person|vote\s+centers?|vot%|percent|%)$",
                        re.IGNORECASE)


def detect(path: Path, kind: str) -> Detection | None:
    if kind != "csv":
        return None
    try:
        rows, _ = read_csv_rows(path, 60)
    except Exception:
        return None
    if not rows or not rows[0] or not rows[0][0].lower().startswith("summary results report"):
        return None
    vote_for = any(vocab.seats_in(c) for r in rows for c in r[:3] if c)
    return Detection(FAMILY, LABEL, 96 if vote_for else 80,
                     "'Summary Results Report' page header" + (" and 'Vote For N'" if vote_for
                                                               else ""))


def _line(cells: list[str]) -> tuple[str, list[int], list[str]]:
    """(label, numbers, other texts) of one line."""
    label = ""
    nums: list[int] = []
    texts: list[str] = []
    for c in cells:
        if not c:
            continue
        if _NUM.match(c):
            if label or texts:
                nums.append(int(c.replace(",", "")))
            else:
                texts.append(c)
        elif _PCT.match(c):
            continue
        elif not label:
            label = c
        else:
            texts.append(c)
    return label, nums, texts


def read(path: Path, options: ReadOptions | None = None) -> RawCanvass:
    """Walk the report's lines and collect every precinct × contest × choice count."""
    import pandas as pd

    options = options or ReadOptions()
    name = path.name
    rows, note = read_csv_rows(path)
    issues: list[Issue] = []
    if note:
        issues.append(Issue(name, note, severity=Severity.WARNING))
    if not rows or not rows[0] or not rows[0][0].lower().startswith("summary results report"):
        raise fail(path, "This is not an Electionware 'Summary Results Report' CSV (the first "
                   "line should start with 'Summary Results Report').", row=1)
    lines = [(i + 1, r) for i, r in enumerate(rows) if any(r)]
    election_name: str | None = None
    primary: bool | None = None
    county = ""
    precinct = ""
    saw_precinct = False
    contest: str | None = None
    skip_contest = False
    header: list[str] = []
    in_stats = False
    recs: list[tuple[str, str, str, str, int, int]] = []   # precinct, contest, choice, kind, v, row
    seats: dict[str, int] = {}
    stray = 0
    n = len(lines)
    i = 0

    def next_is_vote_for(j: int) -> bool:
        return j + 1 < n and vocab.seats_in(_line(lines[j + 1][1])[0] or "") is not None and \
            _line(lines[j + 1][1])[0].lower().startswith("vote for")

    while i < n:
        if i % 5000 == 0:
            options.on_progress(i, n)
            if options.cancelled():
                raise Cancelled()
        rowno, cells = lines[i]
        label, nums, texts = _line(cells)
        low = label.lower()
        if low.startswith("summary results report"):
            # Page header: election name, then the date and county line, then the precinct.
            if i + 1 < n and election_name is None:
                election_name = _line(lines[i + 1][1])[0] or None
                if election_name:
                    if "primary" in election_name.lower():
                        primary = True
                    elif "general" in election_name.lower():
                        primary = False
            if i + 2 < n:
                date_line = [c for c in lines[i + 2][1] if c]
                if len(date_line) > 1:
                    county = date_line[-1]
            i += 3
            if i < n:
                plabel, pnums, _ = _line(lines[i][1])
                if plabel and not pnums and not _STATISTICS.match(plabel) and \
                        not next_is_vote_for(i) and not _FOOTER.match(plabel):
                    if plabel != precinct:
                        contest = None
                        in_stats = False
                    precinct = plabel
                    saw_precinct = True
                    i += 1
            continue
        if _FOOTER.match(label) or (texts and texts[-1].lower().startswith("of ")):
            i += 1
            continue
        if _STATISTICS.match(label):
            in_stats, contest = True, None
            i += 1
            continue
        if low.startswith("vote for"):
            i += 1
            continue
        if label and not nums and next_is_vote_for(i):
            contest = vocab.clean_name(label)
            in_stats = False
            skip_contest = vocab.is_non_contest_office(contest)
            s = vocab.seats_in(_line(lines[i + 1][1])[0])
            if s is not None and not skip_contest:
                seats[contest] = s
            header = []
            i += 2
            continue
        if (not nums and label.upper() == "TOTAL") or (
                not nums and label and all(_MODE_WORD.match(t) for t in [label, *texts])):
            header = [t.upper() for t in [label, *texts]]
            i += 1
            continue
        if in_stats:
            i += 1
            continue
        if contest is None:
            if nums:
                stray += 1
                if stray <= 5:
                    issues.append(Issue(name, f"The line {label!r} has counts but belongs to no "
                                        "contest; it is left out.", None, rowno,
                                        severity=Severity.WARNING))
            i += 1
            continue
        if skip_contest:
            i += 1
            continue
        if not nums:
            issues.append(Issue(name, f"In {contest!r} ({precinct or county}), the line "
                                f"{label!r} has no vote count; it is left out.", None, rowno,
                                severity=Severity.ERROR))
            i += 1
            continue
        if "TOTAL" in header and len(nums) == len(header):
            v = nums[header.index("TOTAL")]
        else:
            v = nums[0]
        kind = vocab.choice_kind(vocab.clean_name(label))
        if kind is None and re.search(r"write", label, re.IGNORECASE):
            kind = "write_in_total"
        if kind is not None:
            recs.append((precinct, contest, vocab.clean_name(label), kind, v, rowno))
        i += 1
    options.on_progress(n, n)

    if not recs:
        raise fail(path, "No contest results were found in this Summary Results Report.")
    df = pd.DataFrame(recs, columns=["precinct", "contest", "choice", "kind", "votes", "row"])
    if not saw_precinct:
        unit = county or "County"
        df["precinct"] = unit
        issues.append(Issue(name, "This report has no precinct breakdown (a county summary); "
                            f"the whole county is read as one unit ({unit!r}). Export the "
                            "precinct-level report for a recount.", severity=Severity.WARNING))
    # 'Write-In Totals' are the write-ins only where no named write-in rows exist.
    named = set(df.loc[df["kind"] == "write_in", "contest"])
    wt = df["kind"] == "write_in_total"
    df.loc[wt & ~df["contest"].isin(named), "kind"] = "write_in"
    df = df[df["kind"] != "write_in_total"]
    void = df["choice"].map(vocab.is_void_write_in)
    if void.any():
        issues.append(Issue(name, f"{int(df.loc[void, 'votes'].sum()):,} invalid write-in "
                            "vote(s) are not counted for any candidate.", severity=Severity.NOTE))
        df = df[~void]
    is_tot = df["precinct"].map(vocab.is_total_precinct).astype(bool)
    file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
    for (c, ch), v in df[is_tot & df["kind"].isin(["candidate", "write_in"])] \
            .groupby(["contest", "choice"], sort=False)["votes"].sum().items():
        file_totals.setdefault((c, "", vocab.contest_party(c)), {})[ch] = int(v)
    df = df[~is_tot]
    cparty = df["contest"].map({c: vocab.contest_party(c) for c in df["contest"].unique()})
    if primary is None and (cparty != "").any():
        primary = True
    out = pd.DataFrame({
        "precinct": df["precinct"].to_numpy(), "contest": df["contest"].to_numpy(),
        "district": "", "party": cparty.to_numpy(), "choice": df["choice"].to_numpy(),
        "choice_party": "", "kind": df["kind"].to_numpy(),
        "votes": df["votes"].to_numpy().astype("int64"),
    })
    # A 'REP MITT ROMNEY' choice in a general election: the prefix is the candidate's party.
    if not primary:
        split = [vocab.split_party_prefix(c) for c in out["choice"]]
        is_cand = (out["kind"] == "candidate").to_numpy()
        out["choice"] = [s[0] if k else c for s, k, c in zip(split, is_cand, out["choice"],
                                                            strict=True)]
        out["choice_party"] = [s[1] if k else "" for s, k in zip(split, is_cand, strict=True)]
        file_totals = {k: {vocab.split_party_prefix(ch)[0]: v for ch, v in t.items()}
                       for k, t in file_totals.items()}
    seat_map = {(c, "", vocab.contest_party(c)): s for c, s in seats.items()}
    multi = sorted(c for c in out["contest"].unique() if "(multi-county)" in c.lower())
    if multi:
        issues.append(Issue(name, "These contests are this county's portion of a multicounty "
                            "race (marked '(Multi-County)' in the file): " + "; ".join(multi)
                            + ". A recount of the whole race involves the other counties.",
                            severity=Severity.NOTE))
    return RawCanvass(name, FAMILY, out.reset_index(drop=True), issues, seat_map, file_totals,
                      set(), primary, election_name=election_name)
