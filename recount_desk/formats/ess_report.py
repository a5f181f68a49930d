"""Reads the Electionware long results workbook ``report.xlsx`` (Summary / Precinct Results sheets).

Sheets ``Summary Results``, ``Summary Results by Group``, ``Precinct Results`` and
``Precinct Results by Group`` hold long rows ``[Precinct,] Office Name, Contest ID, Ballot
Name, Choice ID, Party, [Group,] Total``. The precinct rows come from ``Precinct Results``
(or, failing that, the by-group sheet summed over its groups); ``Summary Results`` (or,
failing that, its by-group sheet summed) is the file's own totals, for the candidates and for
the over/under votes. Sheets are found by name in any order. ``Ballot Name`` also carries
``Ballots Cast`` (a statistic), ``Over Vote Count`` / ``Under Vote Count`` and write-ins
(``Write-in``, ``Write-in: NAME``, invalid ``Write-in: Invalid``); where a contest's
``Write-in`` line is, in every precinct, the sum of its ``Write-in: …`` lines it is a
subtotal and is not counted again. Offices keep their ``(Multi-County)`` mark.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from recount_desk.core.model import Issue, Severity

from . import blocks, vocab
from .base import Detection, RawCanvass, ReadOptions, fail
from .pipeline import IssueLog, Located, Source
from .stages import detector, raw_frame, staged_read
from .tabular import read_sheet_text, sheet_names

if TYPE_CHECKING:
    import pandas as pd

FAMILY = "ess_report"
LABEL = "Electionware results workbook (report.xlsx: Summary / Precinct Results)"

_PRECINCT = "precinct results"
_PRECINCT_GROUP = "precinct results by group"
_SUMMARY = "summary results"
_SUMMARY_GROUP = "summary results by group"
_NEEDED = ("office name", "ballot name", "total")


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s.strip().lower())


@detector("xlsx", "xls", "ods")
def detect(path: Path, kind: str) -> Detection | None:
    names = {_norm(s): s for s in sheet_names(path, kind)}
    sheet = names.get(_PRECINCT) or names.get(_PRECINCT_GROUP) or names.get(_SUMMARY) or \
        names.get(_SUMMARY_GROUP)
    if sheet is None:
        return None
    head = read_sheet_text(path, sheet, nrows=10)
    if not any(all(h in {_norm(c) for c in r} for h in _NEEDED) for r in head):
        return None
    precincts = _PRECINCT in names or _PRECINCT_GROUP in names
    conf = 98 if precincts and (_SUMMARY in names or _SUMMARY_GROUP in names) else 90
    return Detection(FAMILY, LABEL, conf, f"sheet {sheet!r} with Office Name, Ballot Name, Total")


def _frame(path: Path, sheet: str) -> pd.DataFrame:
    import pandas as pd

    rows = read_sheet_text(path, sheet)
    if not rows:
        raise fail(path, f"The sheet {sheet!r} is empty.", sheet=sheet)
    # The header is row 1; a title row or two above it is tolerated.
    top = next((i for i, r in enumerate(rows[:10])
                if all(h in {_norm(c) for c in r} for h in _NEEDED)), 0)
    header = [_norm(h) for h in rows[top]]
    width = len(header)
    body = [(r + [""] * width)[:width] for r in rows[top + 1:]]
    df = pd.DataFrame(body, columns=[h or f"column {i + 1}" for i, h in enumerate(header)],
                      dtype=object)
    missing = [h for h in _NEEDED if h not in df.columns]
    if missing:
        raise fail(path, f"The sheet {sheet!r} has no column " + ", ".join(
            repr(m.title()) for m in missing) + "; export the results workbook again.",
            sheet=sheet, row=top + 1)
    df["_row"] = range(top + 2, len(df) + top + 2)
    return df


def _col(df: pd.DataFrame, name: str) -> pd.Series:
    import pandas as pd

    if name in df.columns:
        return df[name].astype(str).str.strip().str.replace(r"\s+", " ", regex=True)
    return pd.Series([""] * len(df), index=df.index, dtype=object)


def _classify(df: pd.DataFrame, sheet: str, log: IssueLog | None) -> pd.DataFrame:
    """office, contest id, choice, party, kind, votes (+ precinct, _row), non-counted rows out."""
    import pandas as pd

    office = _col(df, "office name")
    choice = _col(df, "ballot name")
    cid = _col(df, "contest id")
    party = _col(df, "party")
    precinct = _col(df, "precinct")
    blank_row = (office == "") & (choice == "") & (df["total"].astype(str).str.strip() == "")
    num, bad = blocks.row_counts(df["total"], df["_row"].tolist(), log=log, column="Total",
                                 check=~blank_row, empty_is_zero=True)
    kinds = {c: vocab.choice_kind(c) for c in choice.unique()}
    void = {c for c in kinds if vocab.is_void_write_in(c)}
    kind = choice.map(kinds)
    # Invalid write-ins stay for now (kind 'void'): a bare 'Write-in' line may add them up.
    kind = kind.where(~choice.isin(void), "void")
    keep = ~blank_row & ~bad & kind.notna() & (office != "")
    keep &= ~office.map({o: vocab.is_non_contest_office(o) for o in office.unique()}).astype(bool)
    if log is not None and void:
        n = int(num[choice.isin(void) & ~bad].fillna(0).sum())
        log.note(f"{n:,} invalid write-in vote(s) (e.g. {sorted(void)[0]!r}) are not counted "
                 "for any candidate.", sheet=sheet)
    return pd.DataFrame({
        "precinct": precinct[keep], "office": office[keep], "cid": cid[keep],
        "choice": choice[keep], "party": party[keep], "kind": kind[keep],
        "votes": num[keep].fillna(0).astype("int64"), "_row": df["_row"][keep],
    })


def locate(source: Source, options: ReadOptions) -> Located:
    """The sheet of precinct rows (Precinct Results, else its by-group sheet, else the
    county's Summary Results) and its rows under the header."""
    path, name = source.path, source.name
    if source.kind not in ("xlsx", "xls", "ods"):
        raise fail(path, "This is not an Electionware results workbook (report.xlsx).")
    names = {_norm(s): s for s in sheet_names(path, source.kind)}
    log = IssueLog(name)
    issues = log.issues
    summed_groups = False
    if options.sheet is not None:
        sheet = options.sheet
        summed_groups = "group" in _norm(sheet)
    elif _PRECINCT in names:
        sheet = names[_PRECINCT]
    elif _PRECINCT_GROUP in names:
        sheet = names[_PRECINCT_GROUP]
        summed_groups = True
        issues.append(Issue(name, "The workbook has no 'Precinct Results' sheet; its by-group "
                            "sheet is read instead.", sheet, severity=Severity.NOTE))
    elif _SUMMARY in names or _SUMMARY_GROUP in names:
        sheet = names.get(_SUMMARY) or names[_SUMMARY_GROUP]
        summed_groups = sheet != names.get(_SUMMARY)
        issues.append(Issue(name, "The workbook has no 'Precinct Results' sheet, only county "
                            "totals; the county is read as one unit. Export the report with "
                            "precinct results for a recount.", sheet, severity=Severity.WARNING))
    else:
        raise fail(path, "This workbook has no 'Precinct Results' or 'Summary Results' sheet; "
                   "export the Electionware results report (report.xlsx) again.")
    log.sheet = sheet
    options.on_progress(1, 4)
    df = _frame(path, sheet)
    if df.empty:
        raise fail(path, f"The sheet {sheet!r} has a header but no rows.", sheet=sheet)
    return Located(source, [], log, sheet, 1, {"frame": df, "names": names,
                                               "summed": summed_groups})


def map(located: Located, options: ReadOptions) -> RawCanvass:
    """The rows classified (counts, kinds, invalid write-ins), groups added up, a bare
    'Write-in' subtotal left out, contests kept apart by Contest ID; the Summary Results
    sheet as the file's totals, checked against the precincts."""

    path, name, log = located.source.path, located.source.name, located.log
    issues = log.issues
    sheet: str = located.sheet or ""
    df: pd.DataFrame = located.facts["frame"]
    names: dict[str, str] = located.facts["names"]
    summed_groups: bool = located.facts["summed"]
    rows = _classify(df, sheet, log)
    options.on_progress(2, 4)
    if "precinct" not in df.columns:
        rows["precinct"] = "County"
    if (rows["precinct"] == "").any():
        first = int(rows.loc[rows["precinct"] == "", "_row"].iloc[0])
        issues.append(Issue(name, "Some rows have no precinct name (first at row "
                            f"{first}); they are left out.", sheet, first, "Precinct",
                            Severity.WARNING))
        rows = rows[rows["precinct"] != ""]
    if summed_groups:
        issues.append(Issue(name, f"The sheet {sheet!r} splits each count by group (in person, "
                            "by mail …); the groups are added up per precinct.", sheet,
                            severity=Severity.NOTE))
        rows = rows.groupby(["precinct", "office", "cid", "choice", "party", "kind"],
                            sort=False, as_index=False).agg(votes=("votes", "sum"),
                                                            _row=("_row", "min"))

    rows = _drop_write_in_subtotal(rows, name, sheet, issues)
    rows = rows[rows["kind"] != "void"]
    if not rows["kind"].isin(["candidate", "write_in"]).any():
        raise fail(path, f"The sheet {sheet!r} has no candidate votes, only statistics such as "
                   "Ballots Cast and Over/Under Vote Count; export the report with its "
                   "'Precinct Results' sheet.", sheet=sheet)

    # Two contests with one office name are told apart by their contest ID.
    district, twice = blocks.kept_apart(rows[["office"]], rows["cid"])
    if twice:
        log.note("Several contests share an office name and are kept apart by their Contest ID: "
                 + ", ".join(twice) + ".", sheet=sheet)
    cparty = rows["office"].map({o: vocab.contest_party(o) for o in rows["office"].unique()})
    blocks.multicounty(log, sorted(rows["office"].unique()), sheet=sheet)
    out = raw_frame({"precinct": rows["precinct"], "contest": rows["office"],
                     "district": district, "party": cparty, "choice": rows["choice"],
                     "choice_party": rows["party"], "kind": rows["kind"], "votes": rows["votes"]})
    options.on_progress(3, 4)

    # The file's own totals: the Summary Results sheet (or its by-group sheet, summed).
    # (The by-group sheets of the real files hold only Ballots Cast / Over / Under.)
    file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
    summaries = [names[k] for k in (_SUMMARY, _SUMMARY_GROUP) if k in names]
    checked = False
    for summary in summaries if "precinct" in df.columns else []:
        s = _classify(_frame(path, summary), summary, None)
        s = _drop_write_in_subtotal(s.assign(precinct="County"), name, summary, [])
        s = s[s["kind"] != "void"]
        cands = s[s["kind"].isin(["candidate", "write_in"])]
        if cands.empty:
            continue
        for (o, cid, ch), v in cands.groupby(["office", "cid", "choice"], sort=False)["votes"] \
                .sum().items():
            key = (o, cid if o in set(twice) else "", vocab.contest_party(o))
            file_totals.setdefault(key, {})[ch] = file_totals.get(key, {}).get(ch, 0) + int(v)
        _compare_with_summary(rows, s, name, summary, issues)
        checked = True
        break
    if not checked and "precinct" in df.columns:
        issues.append(Issue(name, "The workbook has no 'Summary Results' sheet with candidate "
                            "totals, so the precincts cannot be checked against the file's own "
                            "totals.", sheet, severity=Severity.WARNING))
    primary = True if (cparty != "").any() else None
    if primary is None and "general" in name.lower():
        primary = False
    options.on_progress(4, 4)
    return RawCanvass(name, FAMILY, out, log.close(), {}, file_totals, set(), primary,
                      sheet=sheet)


read = staged_read(locate, map)


_NAMED_WRITE_IN = re.compile(r"^\s*write-?\s*in\s*:", re.IGNORECASE)
_BARE_WRITE_IN = re.compile(r"^\s*write-?\s*ins?\s*$", re.IGNORECASE)


def _drop_write_in_subtotal(rows: pd.DataFrame, name: str, sheet: str,
                            issues: list[Issue]) -> pd.DataFrame:
    """Leave out a contest's bare 'Write-in' line where it only adds up its 'Write-in: …' lines.

    Decided per contest from the figures: if in every precinct that has named write-in lines
    the bare line equals their sum (invalid ones included), it is a subtotal; otherwise it is a
    count of its own and is kept."""
    import pandas as pd

    bare = rows["choice"].str.match(_BARE_WRITE_IN)
    if not bare.any():
        return rows
    named = rows["choice"].str.match(_NAMED_WRITE_IN)
    if not named.any():
        return rows
    keys = ["precinct", "office", "cid"]
    b = rows[bare].groupby(keys, sort=False)["votes"].sum()
    n = rows[named].groupby(keys, sort=False)["votes"].sum()
    both = b.index.intersection(n.index)
    if not len(both):
        return rows
    cmp = (b.loc[both] == n.loc[both]).groupby(level=[1, 2]).all()
    nonzero = (n.loc[both] > 0).groupby(level=[1, 2]).any()
    sub = {k for k, ok in cmp.items() if ok and nonzero.get(k, False)}
    if not sub:
        return rows
    has_named = set(both)
    drop = bare & pd.Series([(p, o, c) in has_named and (o, c) in sub for p, o, c in
                             zip(rows["precinct"], rows["office"], rows["cid"], strict=True)],
                            index=rows.index, dtype=bool)
    issues.append(Issue(name, "In " + ", ".join(sorted({o for o, _ in sub})) + ", the "
                        "'Write-in' line is the sum of the 'Write-in: …' lines below it; it is "
                        "not counted again.", sheet, severity=Severity.NOTE))
    return rows[~drop]


def _compare_with_summary(rows: pd.DataFrame, summary: pd.DataFrame, name: str, sheet: str,
                          issues: list[Issue]) -> None:
    """What build() cannot see: contests or choices on one sheet only, and over/under votes
    whose precinct sum is not the Summary Results figure."""
    keys = ["office", "cid", "choice", "kind"]
    prec = rows.groupby(keys, sort=False)["votes"].sum()
    summ = summary.groupby(keys, sort=False)["votes"].sum()
    only_summary = [k for k in summ.index if k not in prec.index and summ[k] != 0]
    only_precincts = [k for k in prec.index if k not in summ.index and prec[k] != 0]
    for ks, where in ((only_summary, f"only on {sheet!r}"),
                      (only_precincts, "only on the precinct sheet")):
        if ks:
            issues.append(Issue(name, f"{len(ks)} result line(s) with votes appear {where} "
                                "(e.g. " + ", ".join(f"{c!r} in {o!r}" for o, _i, c, _k in ks[:3])
                                + "); the two sheets do not describe the same contests.", sheet,
                                severity=Severity.WARNING))
    bad = [(o, c, int(prec[k]), int(summ[k])) for k in prec.index
           if k in summ.index and k[3] in ("over", "under") and prec[k] != summ[k]
           for o, _i, c, _k in [k]]
    if bad:
        issues.append(Issue(name, "Over/under votes of the precincts do not add up to the "
                            "summary sheet: " + "; ".join(f"{o!r} {c}: precincts {a:,}, "
                                                          f"summary {b:,}" for o, c, a, b in
                                                          bad[:4]) + ".", sheet,
                            severity=Severity.WARNING))
