"""The long format: one row per precinct × contest × choice (OpenElections style), CSV or XLSX.

Columns ``county, precinct, office, district, party, candidate, votes`` in any order and any
case; extra vote-mode columns (``mail``, ``early_voting`` …) are ignored because ``votes``
is their total. County-level files (no ``precinct``) use the county as the unit.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from recount_desk.core.model import Issue, Severity

from . import vocab
from ._workbook_checks import excel_error_cells, first_visible_sheet
from .base import Detection, RawCanvass, ReadOptions, fail
from .tabular import cell_text, read_csv_text, sniff

if TYPE_CHECKING:
    import pandas as pd

FAMILY = "long"
LABEL = "Long table (one row per precinct, contest and choice)"

_ALIASES = {
    "office": ("office", "contest", "contest_name", "race", "contest_title", "office_name"),
    "candidate": ("candidate", "choice", "choice_name", "candidate_name", "ballot_name"),
    "votes": ("votes", "total_votes", "vote_count", "total", "count"),
    "precinct": ("precinct", "precinct_name", "precinct_code", "unit"),
    "county": ("county", "county_name"),
    "district": ("district",),
    "party": ("party", "party_name", "party_code"),
}


# UTF-8 read as Windows-1252 ("JosÃ©", "â€™") and the replacement character.
_GARBLED = re.compile("[\u00c2\u00c3][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178"
                      "\u017d\u017e\u0192\u02c6\u02dc\u2013-\u203a\u20ac\u2122]|"
                      "\u00e2\u20ac|\ufffd")
# Control characters and bidirectional overrides that make a name display as another.
_HIDDEN_CHARS = re.compile("[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


def _norm(col: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", col.strip().lower()).strip("_")


def _columns(cols: list[str]) -> dict[str, str]:
    normed = {_norm(c): c for c in cols}
    found: dict[str, str] = {}
    for key, names in _ALIASES.items():
        for n in names:
            if n in normed:
                found[key] = normed[n]
                break
    return found


def detect(path: Path, kind: str) -> Detection | None:
    if kind not in ("csv", "xlsx", "xls", "ods"):
        return None
    try:
        head = _head(path, kind)
    except Exception:
        return None
    cols = _columns(head)
    if {"office", "candidate", "votes"} <= cols.keys():
        conf = 95 if "precinct" in cols or "county" in cols else 80
        return Detection(FAMILY, LABEL, conf,
                         f"columns {', '.join(cols[k] for k in ('office', 'candidate', 'votes'))}")
    return None


def _head(path: Path, kind: str) -> list[str]:
    if kind == "csv":
        df, _ = read_csv_text(path, nrows=0)
        return [str(c) for c in df.columns]
    from .tabular import read_sheet_text

    rows = read_sheet_text(path, 0, nrows=1)
    return rows[0] if rows else []


def read(path: Path, options: ReadOptions | None = None) -> RawCanvass:
    """Read a long-format file into raw rows, with every problem as an issue."""
    import numpy as np
    import pandas as pd

    options = options or ReadOptions()
    kind = sniff(path)
    name = path.name
    issues: list[Issue] = []
    sheet = None
    if kind == "csv":
        df, note = read_csv_text(path)
        if note:
            issues.append(Issue(name, note, severity=Severity.WARNING))
        first_row = 2
    elif kind in ("xlsx", "xls", "ods"):
        sheet = options.sheet
        if sheet is None:
            # Excel shows the first visible sheet; a hidden one before it is often a draft.
            sheet, hidden = first_visible_sheet(path)
            if hidden:
                issues.append(Issue(name, "Hidden sheet(s) " + ", ".join(map(repr, hidden))
                                    + f" were not read; the canvass was read from {sheet!r}.",
                                    sheet, severity=Severity.WARNING))
            if sheet is None:
                raise fail(path, "Every sheet of this workbook is hidden; unhide the canvass "
                           "sheet in Excel, or choose the sheet to read.")
        df = _read_excel_text(path, sheet)
        first_row = 2
    else:
        raise fail(path, "This file is not a long-format CSV or spreadsheet.")
    options.on_progress(1, 4)
    cols = _columns([str(c) for c in df.columns])
    missing = [k for k in ("office", "candidate", "votes") if k not in cols]
    if missing:
        raise fail(path, "The header has no column for "
                   + ", ".join(repr(m) for m in missing)
                   + "; a long-format canvass needs office (contest), candidate (choice) and "
                   "votes columns.", sheet=sheet, row=1)
    if df.empty:
        raise fail(path, "The file has a header but no rows.", sheet=sheet)

    def col(key: str, categorical: bool = True) -> pd.Series:
        # Text work on the distinct values only: a canvass repeats the same few names, so
        # names stay categorical (comparisons and look-ups then work on small integer codes).
        if key not in cols:
            return pd.Series("", index=df.index, dtype="category" if categorical else object)
        codes, uniques = pd.factorize(df[cols[key]], use_na_sentinel=False)
        clean = np.array([cell_text(u) for u in uniques], dtype=object)
        if not categorical:
            return pd.Series(clean[codes], index=df.index, dtype=object)
        # Two raw values may clean to the same text ("A " and "A"): merge their codes.
        remap, cats = pd.factorize(clean, use_na_sentinel=False)
        return pd.Series(pd.Categorical.from_codes(remap[codes], categories=cats),
                         index=df.index)

    office, cand, votes_txt = col("office"), col("candidate"), col("votes", categorical=False)
    precinct, county = col("precinct"), col("county")
    if "precinct" not in cols:
        precinct = county
    elif county.nunique() > 1:
        precinct = (county.astype(object) + " / " + precinct.astype(object)).astype("category")
    district, party = col("district"), col("party")
    district = district.map({d: re.sub(r"\.0$", "", d) for d in district.unique()})

    rownum = pd.Series(range(first_row, first_row + len(df)), index=df.index)

    # Statistics "offices" and blank rows are not contests.
    offices_u = office.unique()
    stat = {o: (o == "" or vocab.is_non_contest_office(o)) for o in offices_u}
    keep = ~office.map(stat).astype(bool)
    # A choice without a contest (a merged or blanked office cell) cannot be placed: an error,
    # never a silent drop.
    orphan = (office == "") & (cand != "") & (votes_txt != "")
    if orphan.any():
        idx = orphan[orphan].index
        ocol = cols["office"]
        for i in idx[:10]:
            issues.append(Issue(name, f"The row for {cand[i][:80]!r} names no contest (the "
                                "office cell is empty; merged cells leave all but the first "
                                "cell empty). Fill in the office on every row.", sheet,
                                int(rownum[i]), ocol, Severity.ERROR))
        if len(idx) > 10:
            issues.append(Issue(name, f"… {len(idx) - 10} more rows name no contest.", sheet,
                                None, ocol, Severity.ERROR))
    keep &= ~(cand == "") | (office == "")
    empty_cand = keep & (cand == "")
    keep &= ~empty_cand

    # Totals rows in the precinct column go to file_totals.
    prec_u = precinct.unique()
    tot = {p: vocab.is_total_precinct(p) for p in prec_u}
    is_total = precinct.map(tot).astype(bool)

    # Choice kinds, classified once per distinct name.
    cand_u = cand.unique()
    kinds = {c: vocab.choice_kind(c) for c in cand_u}
    kind_s = cand.map(kinds).astype(object)
    invalid_u = {c for c in cand_u if vocab.is_invalid_write_in(c)}
    odd = [c for c in cand_u if _GARBLED.search(c)]
    if odd:
        issues.append(Issue(name, f"{len(odd)} name(s) look garbled (e.g. {odd[0][:60]!r}): "
                            "the text was probably saved in one encoding and read in another. "
                            "Check the names against the election system.", sheet,
                            severity=Severity.WARNING))
    hidden_ch = [c for c in cand_u if _HIDDEN_CHARS.search(c)]
    if hidden_ch:
        issues.append(Issue(name, f"{len(hidden_ch)} name(s) hold invisible control or "
                            f"text-direction characters (e.g. {hidden_ch[0][:60]!r}); they "
                            "may display differently from what they are.", sheet,
                            severity=Severity.WARNING))
    invalid = cand.isin(invalid_u) if invalid_u else pd.Series(False, index=df.index)
    options.on_progress(2, 4)

    # Votes: integers; '*' is suppressed; blank is a warning; anything else is an error.
    num = pd.to_numeric(votes_txt, errors="coerce")
    vt = votes_txt
    if num.isna().any():
        nan = num.isna()
        vt = votes_txt.where(~nan, votes_txt[nan].str.replace(",", "", regex=False))
        num = num.where(~nan, pd.to_numeric(vt[nan], errors="coerce"))
    suppressed = vt.isin(["*", "**", "***", "****", "Suppressed", "suppressed"])
    blank = vt == ""
    xl_error = pd.Series(False, index=df.index)
    if kind == "xlsx" and (keep & blank).any():
        # calamine reads #DIV/0!, #N/A … as empty cells; find them so they are not 0 votes.
        errs = excel_error_cells(path, sheet)
        vpos = list(df.columns).index(cols["votes"]) + 1
        for i in (keep & blank)[keep & blank].index:
            err = errs.get((int(rownum[i]), vpos))
            if err:
                issues.append(Issue(name, f"The vote count is the Excel error value {err} "
                                    "(a broken formula). Fix the formula in Excel.", sheet,
                                    int(rownum[i]), cols["votes"], Severity.ERROR))
                blank[i] = False
                xl_error[i] = True
    bad = keep & num.isna() & ~suppressed & ~blank & ~xl_error
    huge = keep & num.notna() & (num.abs() >= 1e9)
    if huge.any():
        for i in huge[huge].index[:10]:
            issues.append(Issue(name, f"The vote count {votes_txt[i][:40]!r} is too large to be "
                                "a vote count.", sheet, int(rownum[i]), cols["votes"],
                                Severity.ERROR))
        num = num.where(~huge, 0)
    frac = keep & num.notna() & ((num % 1) != 0)
    neg = keep & num.notna() & (num < 0)
    vcol = cols["votes"]
    for mask, why in ((bad, "is not a number"), (frac, "is not a whole number"),
                      (neg, "is negative")):
        if mask.any():
            idx = mask[mask].index
            for i in idx[:10]:
                issues.append(Issue(name, f"The vote count {votes_txt[i]!r} {why}.", sheet,
                                    int(rownum[i]), vcol, Severity.ERROR))
            if len(idx) > 10:
                issues.append(Issue(name, f"… {len(idx) - 10} more rows whose vote count {why}.",
                                    sheet, None, vcol, Severity.ERROR))
    blank_rows = keep & blank & kind_s.notna()
    if blank_rows.any():
        first = int(rownum[blank_rows[blank_rows].index[0]])
        issues.append(Issue(name, f"{int(blank_rows.sum())} row(s) have no vote count (first at "
                            f"row {first}); they are read as 0.", sheet, first, vcol,
                            Severity.WARNING))
    votes = num.fillna(0)
    votes = votes.where(~(bad | frac | neg | xl_error), 0).astype("int64")

    if invalid.any():
        n = int(votes[invalid & keep].sum())
        issues.append(Issue(name, f"{n:,} invalid write-in vote(s) (e.g. "
                            f"{sorted(invalid_u)[0]!r}) are not counted for any candidate.",
                            sheet, severity=Severity.NOTE))
    keep &= ~invalid

    # Write-in totals beside named write-ins double-count; alone, they are the write-ins.
    sum_rows = keep & kind_s.isna()
    wi_total = sum_rows & cand.map({c: "write" in c.lower() for c in cand_u}).astype(bool)
    if wi_total.any():
        named = keep & (kind_s == "write_in")
        contests_with_named = set(zip(office[named], district[named], strict=True))
        alone = wi_total & ~pd.Series(
            [(o, d) in contests_with_named for o, d in zip(office, district, strict=True)],
            index=df.index)
        kind_s = kind_s.where(~alone, "write_in")
    keep &= kind_s.notna()

    total_rows = keep & is_total
    body = keep & ~is_total
    options.on_progress(3, 4)

    # The file's own totals row.
    file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
    if total_rows.any():
        t = pd.DataFrame({"o": office[total_rows], "d": district[total_rows],
                          "c": cand[total_rows], "v": votes[total_rows]})
        for (o, d, c), v in t.groupby(["o", "d", "c"], sort=False)["v"].sum().items():
            file_totals.setdefault((o, d, ""), {})[c] = int(v)

    sup_contests = set(zip(office[body & suppressed], district[body & suppressed], strict=True))
    if sup_contests:
        issues.append(Issue(name, f"{int((body & suppressed).sum())} vote count(s) are "
                            "suppressed ('*') for voter privacy and read as 0.", sheet,
                            severity=Severity.NOTE))

    is_primary = None
    low = name.lower()
    if "primary" in low:
        is_primary = True
    elif "general" in low:
        is_primary = False

    def part(s: pd.Series) -> pd.Series:
        return s[body].reset_index(drop=True)

    rows = pd.DataFrame({
        "precinct": part(precinct),
        "contest": part(office),
        "district": part(district),
        "party": "",
        "choice": part(cand),
        "choice_party": part(party).astype(object),
        "kind": part(kind_s).astype("category"),
        "votes": part(votes),
    })
    m = re.match(r"(\d{4})(\d{2})(\d{2})__", name)
    options.on_progress(4, 4)
    return RawCanvass(
        name, FAMILY, rows, issues, {}, file_totals,
        {(o, d, "") for o, d in sup_contests}, is_primary,
        election_date=f"{m.group(1)}-{m.group(2)}-{m.group(3)}" if m else None, sheet=sheet,
    )


def _read_excel_text(path: Path, sheet: str | None) -> pd.DataFrame:
    """A sheet as a frame of its raw cells (text conversion happens per distinct value, in
    ``read``), with the first row as the header."""
    import pandas as pd

    from .tabular import read_sheet_raw

    rows = read_sheet_raw(path, sheet if sheet is not None else 0)
    if not rows:
        raise fail(path, "The sheet is empty.", sheet=sheet)
    header = [cell_text(h) for h in rows[0]]
    width = len(header)
    body = rows[1:]
    if body and any(len(r) != width for r in body):
        body = [(list(r) + [None] * (width - len(r)))[:width] for r in body]
    names = [h or f"column {i + 1}" for i, h in enumerate(header)]
    return pd.DataFrame.from_records(body, columns=names) if body else \
        pd.DataFrame(columns=names, dtype=object)
