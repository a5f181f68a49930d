"""Stage *rows* of a long table (one row per precinct × contest × choice), the same for
every family of that shape: a family finds the columns (and reads them as codes into their
distinct texts); this turns them into raw rows.

Every test is made once per distinct text, never per row: statistics "offices" and blank
rows are left out, a choice without a contest is an error naming its row, totals rows in
the precinct column become the file's totals (each county's, in a file of several), a
contest's title in the precinct column is a totals row where it adds up (else said), names
that look garbled or hold invisible characters are said, counts are whole numbers (a '*' is
suppressed, a blank a warning, '1e3', fractions, negatives and absurd sizes are errors
naming their rows), invalid write-ins are not counted, a write-in total beside named
write-ins is not counted twice (nor a generic 'Write-in' line that is, precinct by
precinct, their sum), one district written '53', '053' or 'District 53' is one, and the
hidden cells of each contest are kept for the verdict.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from recount_desk.core.model import Issue, Severity

from . import vocab
from ._workbook_checks import excel_error_cells
from .base import ROW_KINDS, CodedRawCanvass, CodedRows, RawCanvass, ReadOptions
from .stages import all_match, primary_in_name

if TYPE_CHECKING:
    import numpy as np

# UTF-8 read as Windows-1252 ("JosÃ©", "â€™") and the replacement character.
_GARBLED = vocab.GARBLED
# Control characters and bidirectional overrides that make a name display as another.
_HIDDEN_CHARS = re.compile("[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")

Column = Callable[[str], "tuple[np.ndarray, list[str]]"]


def rows(family: str, path: Path, col: Column, cols: dict[str, str], n: int, *,
         header: list[str], issues: list[Issue], sheet: str | None, first_row: int,
         kind_name: str, options: ReadOptions, skip: np.ndarray | None = None
         ) -> RawCanvass:
    """The raw rows of a long table of ``n`` rows. ``cols``: the header name of each role
    found (office, candidate and votes always; precinct, county, district, party where the
    file has them); ``col(role)``: that column as (codes, distinct texts), codes 0 into
    [""] for a role the file lacks. ``first_row``: the file's row of the table's first row;
    ``issues``: what the family noticed so far (added to); ``skip``: rows the family has
    left out (a choice's rows by vote mode beside its total row)."""
    import numpy as np
    import pandas as pd

    name = path.name
    office_c, office_u = col("office")
    cand_c, cand_u = col("candidate")
    votes_c, votes_u = col("votes")
    prec_c, prec_u = col("precinct")
    county_c, county_u = col("county")
    # A precinct's own name, by code (in a file of several counties the code is a pair's).
    own_u, own_of = prec_u, None
    if "precinct" not in cols:
        prec_c, prec_u = county_c, county_u
        own_u = prec_u
    elif len(county_u) > 1:
        pair_codes, pairs = pd.factorize(county_c.astype(np.int64) * len(prec_u) + prec_c)
        prec_c = pair_codes
        own_of = pairs % len(prec_u)
        prec_u = [f"{county_u[k // len(prec_u)]} / {prec_u[k % len(prec_u)]}"
                  for k in pairs.tolist()]
    dist_c, dist_u = col("district")
    # One district written several ways ('53.0', '053', 'District 53') is one district: the
    # contest's label says "District" itself, and a race split so is no race's figures.
    dist_c, dist_u = merge(dist_c, [_district(d) for d in dist_u])
    party_c, party_u = col("party")

    def flags(uniques: list[str], test: Callable[[str], bool]) -> np.ndarray:
        return np.array([test(u) for u in uniques], dtype=bool)

    # Statistics "offices" and blank rows are not contests.
    office_blank = flags(office_u, lambda o: o == "")[office_c]
    cand_blank = flags(cand_u, lambda c: c == "")[cand_c]
    # Votes: whole numbers in digits are what nearly every cell holds; only the other texts
    # (``words``) are tested for being blank, suppressed or written as a power of ten.
    num_u, words = _numbers(votes_u)

    def word_flags(test: Callable[[str], bool]) -> np.ndarray:
        out = np.zeros(len(votes_u), dtype=bool)
        if words:
            out[words] = [test(votes_u[k]) for k in words]
        return out

    votes_blank_u = word_flags(lambda v: v == "")
    keep = ~flags(office_u, lambda o: o == "" or vocab.is_non_contest_office(o))[office_c]
    if skip is not None:
        keep &= ~skip
    # A choice without a contest (a merged or blanked office cell) cannot be placed: an error,
    # never a silent drop. A statistic (Registered Voters, Ballots Cast) named in the choice
    # column is no choice: files put turnout rows there with the office left empty.
    statistic = flags(cand_u, vocab.is_non_contest_office)[cand_c]
    # Nor is it one with the office filled in (Sevier's 2022 file puts "REGISTERED VOTERS -
    # TOTAL" under "Constitutional Amendment A" in some precincts): a statistic row, read
    # for no contest's votes.
    keep &= ~statistic
    orphan = np.flatnonzero(office_blank & ~cand_blank & ~statistic & ~votes_blank_u[votes_c])
    ocol = cols["office"]
    for i in orphan[:10]:
        issues.append(Issue(name, f"The row for {cand_u[cand_c[i]][:80]!r} names no contest "
                            "(the office cell is empty; merged cells leave all but the first "
                            "cell empty). Fill in the office on every row.", sheet,
                            first_row + int(i), ocol, Severity.ERROR))
    if len(orphan) > 10:
        issues.append(Issue(name, f"… {len(orphan) - 10} more rows name no contest.", sheet,
                            None, ocol, Severity.ERROR))
    # Rows of a statistic (turnout, ballots cast: an office like "Registered Voters", or the
    # statistic in the choice column with no office), read for no contest's figures.
    stat_row = ~keep & ~(office_blank & ~statistic)
    keep &= ~cand_blank

    # Totals rows in the precinct column go to file_totals; in a file of several counties the
    # precinct is named "County / precinct", and "Kane / TOTALS" is Kane's totals row.
    multi_county = "precinct" in cols and len(county_u) > 1
    if own_of is not None and not any(" / " in c for c in county_u):
        # "County / precinct" is told by its precinct's name, tested once per name.
        is_total = flags(own_u, vocab.is_total_precinct)[own_of][prec_c]
    else:
        is_total = flags(prec_u, lambda p: vocab.is_total_precinct(
            p.split(" / ", 1)[1] if multi_county and " / " in p else p))[prec_c]

    # Choice kinds, classified once per distinct name (-1: a row to leave out).
    kind_of = {k: i for i, k in enumerate(ROW_KINDS)}
    kind_u = np.array([kind_of.get(vocab.choice_kind(c) or "", -1) for c in cand_u],
                      dtype=np.int64)
    kind = kind_u[cand_c]
    invalid_u = flags(cand_u, vocab.is_invalid_write_in)
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
    invalid = invalid_u[cand_c]
    options.on_progress(2, 4)

    # Votes: integers; '*' is suppressed; blank is a warning; anything else is an error.
    for k in words:
        # "1,234": a thousands separator.
        plain = votes_u[k].replace(",", "")
        if plain != votes_u[k] and np.isnan(num_u[k]):
            num_u[k] = _numbers([plain])[0][0]
    num = num_u[votes_c]
    suppressed = word_flags(vocab.is_suppressed)[votes_c]
    blank = votes_blank_u[votes_c]
    stat_bad = np.flatnonzero(stat_row & np.isnan(num) & ~suppressed & ~blank)
    if len(stat_bad):  # said, not dropped without a word, though no figure rests on them
        i = int(stat_bad[0])
        issues.append(Issue(name, f"{len(stat_bad)} statistics row(s) (turnout, ballots cast: "
                            "no contest's votes) hold a value that is not a number, e.g. "
                            f"{votes_u[votes_c[i]][:40]!r} for {cand_u[cand_c[i]][:60]!r}; "
                            "they are not used.", sheet, first_row + i, cols["votes"],
                            Severity.WARNING))
    xl_error = np.zeros(n, dtype=bool)
    if kind_name == "xlsx" and (keep & blank).any():
        # calamine reads #DIV/0!, #N/A … as empty cells; find them so they are not 0 votes.
        errs = excel_error_cells(path, sheet)
        vpos = header.index(cols["votes"]) + 1
        for i in np.flatnonzero(keep & blank):
            err = errs.get((first_row + int(i), vpos))
            if err:
                issues.append(Issue(name, (
                    f"The vote count is a formula with no value ({err}): the file was "
                    "written by a program that does not calculate formulas. Save it in Excel "
                    "or LibreOffice and import that copy." if err.startswith("=") else
                    f"The vote count is the Excel error value {err} (a broken formula). Fix "
                    "the formula in Excel."), sheet, first_row + int(i), cols["votes"],
                    Severity.ERROR))
                blank[i] = False
                xl_error[i] = True
    # "1e3" is not how a count is written: refuse it rather than read 1,000.
    sci = word_flags(lambda v: isinstance(v, str) and ("e" in v or "E" in v)
                     and not np.isnan(pd.to_numeric(v, errors="coerce")))[votes_c] & keep
    for i in np.flatnonzero(sci)[:10]:
        issues.append(Issue(name, f"The vote count {votes_u[votes_c[i]][:40]!r} is written "
                            "as a power of ten; write the count in digits.", sheet,
                            first_row + int(i), cols["votes"], Severity.ERROR))
    num = np.where(sci, 0, num)
    known = ~np.isnan(num)
    bad = keep & ~known & ~suppressed & ~blank & ~xl_error
    huge = keep & known & (np.abs(np.where(known, num, 0)) >= 1e9)
    vcol = cols["votes"]
    for i in np.flatnonzero(huge)[:10]:
        issues.append(Issue(name, f"The vote count {votes_u[votes_c[i]][:40]!r} is too large "
                            "to be a vote count.", sheet, first_row + int(i), vcol,
                            Severity.ERROR))
    num = np.where(huge | ~known, 0, num)
    # Fractions, told once per distinct count (a fraction made 0 above is none).
    frac_u = (num_u % 1) != 0
    fractional = (known & ~huge & ~sci & frac_u[votes_c] if frac_u[~np.isnan(num_u)].any()
                  else np.zeros(n, dtype=bool))
    frac = keep & fractional
    neg = keep & known & (num < 0)
    for mask, why in ((bad, "is not a number"), (frac, "is not a whole number"),
                      (neg, "is negative")):
        idx = np.flatnonzero(mask)
        for i in idx[:10]:
            issues.append(Issue(name, f"The vote count {votes_u[votes_c[i]]!r} {why}.", sheet,
                                first_row + int(i), vcol, Severity.ERROR))
        if len(idx) > 10:
            issues.append(Issue(name, f"… {len(idx) - 10} more rows whose vote count {why}.",
                                sheet, None, vcol, Severity.ERROR))
    blank_rows = np.flatnonzero(keep & blank & (kind >= 0))
    if len(blank_rows):
        first = first_row + int(blank_rows[0])
        issues.append(Issue(name, f"{len(blank_rows)} row(s) have no vote count (first at "
                            f"row {first}); they are read as 0.", sheet, first, vcol,
                            Severity.WARNING))
    votes = np.where(bad | frac | neg | xl_error, 0, num).astype(np.int64)

    if (invalid & keep).any():
        total = int(votes[invalid & keep].sum())
        example = sorted(c for c, f in zip(cand_u, invalid_u, strict=True) if f)[0]
        issues.append(Issue(name, f"{total:,} invalid write-in vote(s) (e.g. {example!r}) are "
                            "not counted for any candidate.", sheet, severity=Severity.NOTE))
    keep &= ~invalid

    # Write-in totals beside named write-ins double-count; alone, they are the write-ins.
    race = office_c.astype(np.int64) * len(dist_u) + dist_c
    wi_total = keep & (kind < 0) & flags(cand_u, lambda c: "write" in c.lower())[cand_c]
    if wi_total.any():
        named = keep & (kind == kind_of["write_in"])
        alone = wi_total & ~np.isin(race, race[named])
        kind = np.where(alone, kind_of["write_in"], kind)
    keep &= kind >= 0
    # A generic 'Write-in' line beside named write-ins ('Write-In: Joe Smith') is their
    # total where, in every precinct, it is their sum: counted too it would count them
    # twice. Where it is not their sum it is the other write-ins, and counted.
    is_wi = keep & (kind == kind_of["write_in"])
    generic = is_wi & flags(cand_u, lambda c: bool(_GENERIC_WRITE_IN.match(c)))[cand_c]
    if generic.any() and (is_wi & ~generic).any():
        cell = race * len(prec_u) + prec_c
        g_keys, g_sums = _sums_by(cell[generic], votes[generic])
        n_keys, n_sums = _sums_by(cell[is_wi & ~generic], votes[is_wi & ~generic])
        both = np.intersect1d(race[generic], race[is_wi & ~generic])
        summed = []
        for r in both.tolist():
            at = g_keys // len(prec_u) == r
            named_at = _sums_at(g_keys[at], n_keys, n_sums)
            # (equal where the generic line is, and no named votes anywhere else)
            if np.array_equal(named_at, g_sums[at]) and \
                    int(n_sums[n_keys // len(prec_u) == r].sum()) == int(g_sums[at].sum()):
                summed.append(r)
        if summed:
            drop = generic & np.isin(race, summed)
            keep &= ~drop
            shown = ", ".join(repr(office_u[int(r) // len(dist_u)]) for r in summed[:3])
            issues.append(Issue(name, f"The generic write-in line of {shown} is, in every "
                                "precinct, the sum of the named write-ins beside it: it is "
                                "their total and not counted again.", sheet,
                                severity=Severity.NOTE))

    # A contest's title in the precinct column is a parse artifact of some exports. Where
    # those rows repeat what the precincts add up to they are the contest's totals row;
    # otherwise they stay a "precinct" of that name, and the officer is told.
    titles = {_fold(o) for o in office_u if o}
    if own_of is not None and not any("/" in t for t in titles):
        title_prec = np.zeros(n, dtype=bool)  # ("County / precinct" is no title)
    else:
        title_prec = flags(prec_u, lambda p: _fold(p) in titles)[prec_c] & keep & ~is_total
    if title_prec.any():
        key = race * len(cand_u) + cand_c
        rest = keep & ~is_total & ~title_prec
        t_keys, as_total = _sums_by(key[title_prec], votes[title_prec])
        counted = _sums_at(t_keys, key[rest], votes[rest])
        n_rows, example = int(title_prec.sum()), prec_u[prec_c[title_prec.argmax()]]
        if np.array_equal(as_total, counted):
            is_total |= title_prec
            issues.append(Issue(name, f"{n_rows} row(s) carry a contest title in the "
                                f"precinct column (e.g. {example!r}); they equal the sum of "
                                "the precincts, so they are read as the file's totals rows.",
                                sheet, first_row + int(title_prec.argmax()),
                                cols.get("precinct"), Severity.NOTE))
        else:
            issues.append(Issue(name, f"{n_rows} row(s) carry a contest title in the "
                                f"precinct column (e.g. {example!r}) and do not equal the "
                                "sum of the precincts; they are read as a precinct of that "
                                "name. The file was probably exported or converted wrongly: "
                                "check the totals against the election system.", sheet,
                                first_row + int(title_prec.argmax()), cols.get("precinct"),
                                Severity.WARNING))

    # A precinct named like a totals row ("Total", "County") is the file's totals row only
    # when it is the sum of the precincts (for at least one choice: a totals row with a typo
    # stays one, and is reported below as not adding up); otherwise it stays among the rows,
    # and the pipeline's validate stage refuses it for every family alike (neither counted
    # as a precinct nor taken for the totals).
    named_total = keep & is_total
    if named_total.any():
        key = race * len(cand_u) + cand_c
        plain = keep & ~is_total
        # Each (totals row's name, contest and choice)'s votes, by one code per pair.
        n_key = int(key.max()) + 1
        pairs, as_total = _sums_by(prec_c[named_total].astype(np.int64) * n_key
                                   + key[named_total], votes[named_total])
        names, keys = pairs // n_key, pairs % n_key
        # the sum of the plain precincts, or of every other row (a "County" precinct
        # beside the real "Total" row), for some choice
        adds_up = (as_total == _sums_at(keys, key[plain], votes[plain])) | \
            (as_total == _sums_at(keys, key[keep], votes[keep]) - as_total)
        not_totals = np.setdiff1d(names, names[adds_up])
        if len(not_totals):
            is_total &= ~(named_total & np.isin(prec_c, not_totals))

    total_rows = keep & is_total
    body = keep & ~is_total
    cut = _cut_at_a_line_end(body & (kind == kind_of["candidate"]), prec_c, race, cand_c)
    if cut is not None:
        last, have, every, short = cut
        label = office_u[office_c[last]] + (f" {dist_u[dist_c[last]]}"
                                            if dist_u[dist_c[last]] else "")
        what = (f"{have} of the {every} candidates of {label!r} that every other precinct "
                "lists" if short is not None else
                f"{have} of the {every} contests that every other precinct has")
        issues.append(Issue(name, f"The file seems cut short at a line's end: its last "
                            f"precinct, {prec_u[prec_c[last]]!r}, lists {what}, so the rows "
                            "after it are probably missing (a copy or download stopped "
                            "part-way). Copy or export the file again and import that copy.",
                            sheet, first_row + last, cols["candidate"], Severity.ERROR))
    options.on_progress(3, 4)

    # The file's own totals row.
    file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
    if total_rows.any() and multi_county:
        # Each county's totals row checks that county's precincts; it is never a precinct.
        # Summed by one code per (county, office, district, candidate), in that order.
        n_o, n_d, n_c = len(office_u), len(dist_u), len(cand_u)

        def code(mask: np.ndarray) -> np.ndarray:
            got: np.ndarray = ((county_c[mask].astype(np.int64) * n_o + office_c[mask]) * n_d
                               + dist_c[mask]) * n_c + cand_c[mask]
            return got

        codes_t, stated = _sums_by(code(total_rows), votes[total_rows])
        counted_here = _sums_at(codes_t, code(body), votes[body])
        for j in np.flatnonzero(stated != counted_here)[:5].tolist():
            at, v = int(codes_t[j]), int(stated[j])
            ki, oi, di, ci = (at // (n_o * n_d * n_c), at // (n_d * n_c) % n_o,
                              at // n_c % n_d, at % n_c)
            label = office_u[oi] + (f" {dist_u[di]}" if dist_u[di] else "")
            issues.append(Issue(name, f"{county_u[ki]}'s totals row for {label}, "
                                f"{cand_u[ci]}: {v:,}, but its precincts add up to "
                                f"{int(counted_here[j]):,}. The precincts are "
                                "counted; the totals row is not.", sheet,
                                severity=Severity.WARNING))
    elif total_rows.any():
        # Summed per (office, district, candidate), in order of first appearance.
        by_choice: dict[tuple[int, int, int], int] = {}
        for o, d, c, v in zip(office_c[total_rows].tolist(), dist_c[total_rows].tolist(),
                              cand_c[total_rows].tolist(), votes[total_rows].tolist(),
                              strict=True):
            by_choice[(o, d, c)] = by_choice.get((o, d, c), 0) + v
        for (o, d, c), v in by_choice.items():
            file_totals.setdefault((office_u[o], dist_u[d], ""), {})[cand_u[c]] = v

    sup_rows = body & suppressed
    sup_contests = {(office_u[o], dist_u[d]) for o, d in
                    set(zip(office_c[sup_rows].tolist(), dist_c[sup_rows].tolist(),
                            strict=True))}
    if sup_contests:
        issues.append(Issue(name, f"{int(sup_rows.sum())} vote count(s) are suppressed ('*') "
                            "for voter privacy and read as 0.", sheet, severity=Severity.NOTE))
    # Hidden cells (privacy marks and blanks) per contest and choice, for the verdict.
    hidden_cells: dict[tuple[str, str, str], dict[str, list[str]]] = {}
    hid_rows = body & (suppressed | blank) & (kind >= 0)
    for o, d, c, p in zip(office_c[hid_rows].tolist(), dist_c[hid_rows].tolist(),
                          cand_c[hid_rows].tolist(), prec_c[hid_rows].tolist(), strict=True):
        hidden_cells.setdefault((office_u[o], dist_u[d], ""), {}).setdefault(
            cand_u[c], []).append(prec_u[p])

    is_primary = primary_in_name(name)
    if is_primary is not True:
        # (tested on the statistics rows alone: a few in a hundred)
        at = np.flatnonzero(stat_row & known & ~is_total & ~fractional & ~(num < 0))
        at = at[flags(party_u, lambda q: q == "")[party_c[at]]
                & (flags(office_u, _is_ballots_cast)[office_c[at]] & cand_blank[at]
                   | flags(cand_u, _is_ballots_cast)[cand_c[at]])]
        counted = np.zeros(n, dtype=bool)
        counted[at] = True
        ballots, ballots_rows = _ballots_cast(counted, prec_c, prec_u, num, first_row)
    else:
        ballots, ballots_rows = {}, {}

    everything = bool(body.all())

    def part(codes: np.ndarray, uniques: list[str]) -> tuple[np.ndarray, list[str]]:
        # In the narrowest integers that hold them, as a categorical column would be.
        narrow = np.min_scalar_type(-max(len(uniques), 1))
        return (codes if everything else codes[body]).astype(narrow, copy=False), uniques

    # Kept as codes: the build stage reads them so; the frame is made only when asked for.
    coded = CodedRows({
        "precinct": part(prec_c, prec_u),
        "contest": part(office_c, office_u),
        "district": part(dist_c, dist_u),
        "party": part(np.zeros(n, dtype=np.int8), [""]),
        "choice": part(cand_c, cand_u),
        "choice_party": part(party_c, party_u),
        "kind": part(kind, list(ROW_KINDS)),
    }, votes if everything else votes[body],
        np.arange(first_row, first_row + n, dtype=np.int32)[body])
    return CodedRawCanvass(
        name, family, None, issues, {}, file_totals,
        {(o, d, "") for o, d in sup_contests}, is_primary, sheet=sheet, hidden=hidden_cells,
        counties=tuple(c for c in county_u if c), coded=coded, ballots=ballots,
        ballots_rows=ballots_rows, ballots_column=cols["votes"] if ballots else None,
    )


def _ballots_cast(at: np.ndarray, prec_c: np.ndarray, prec_u: list[str], num: np.ndarray,
                  first_row: int) -> tuple[dict[str, int], dict[str, int]]:
    """The ballots cast per precinct that the rows ``at`` (statistics rows named 'Ballots
    Cast', whole numbers, no totals row, no party's) give, and the file's row of each, for
    the gate's check that no contest has more votes than its ballots allow. None at all
    where a precinct is given two different figures: which one bounds its contests cannot
    be told (ballots of a part of the precinct, or of one vote mode), and a wrong bound
    would be a false error."""
    import numpy as np

    idx = np.flatnonzero(at)
    if not len(idx):
        return {}, {}
    ballots: dict[str, int] = {}
    rows: dict[str, int] = {}
    for i, p, b in zip(idx.tolist(), prec_c[idx].tolist(), num[idx].astype(np.int64).tolist(),
                       strict=True):
        name = prec_u[p]
        if ballots.setdefault(name, b) != b:
            return {}, {}
        rows.setdefault(name, first_row + i)
    return ballots, rows


# A statistic that is the ballots cast (in the office or the choice column): not the blank
# ballots, nor the paper ones only.
_BALLOTS_CAST = re.compile(r"^\s*(total\s+)?ballots(\s+cast)?(\s*-\s*total)?\s*$",
                           re.IGNORECASE)


def _is_ballots_cast(text: str) -> bool:
    return bool(_BALLOTS_CAST.match(text))


def _cut_at_a_line_end(candidate: np.ndarray, prec_c: np.ndarray, race: np.ndarray,
                      cand_c: np.ndarray) -> tuple[int, int, int, int | None] | None:
    """How a long table shows it was cut at a line's end, inside its last precinct's rows:
    (the last candidate row, what that precinct lists, what every other precinct lists, the
    race short of candidates or None) when the last precinct lists fewer of its last
    contest's candidates than every other precinct of it does (three or more), or, its rows
    coming last in the file and those of its contests the precinct before it has the first
    of that one's, in the same order, fewer of the contests that every other precinct has;
    else None."""
    import numpy as np

    rows = np.flatnonzero(candidate)
    if not len(rows):
        return None
    last = int(rows[-1])
    width = int(cand_c.max()) + 1
    of_race = rows[race[rows] == race[last]]
    # (precinct and choice codes are below the rows' number: their sets are counts by code,
    # not sorts, which cost more than the rest on a county's file)
    p_of = prec_c[of_race]
    seen = np.bincount(p_of) > 0
    if np.count_nonzero(seen) >= 3:
        rank = np.cumsum(seen) - 1  # (each precinct's place among the race's, ascending)
        listed = np.bincount(_unique(rank[p_of].astype(np.int64) * width + cand_c[of_race])
                             // width, minlength=int(rank[-1]) + 1)
        here = int(rank[prec_c[last]])
        every = int(np.count_nonzero(np.bincount(cand_c[of_race])))
        if listed[here] < every and (np.delete(listed, here) == every).all():
            return last, int(listed[here]), every, int(race[last])
    # The precinct's rows last in the file, and contests every other precinct has missing.
    mine = prec_c[rows] == prec_c[last]
    first_mine = int(np.argmax(mine))
    if first_mine == 0 or not mine[first_mine:].all():
        return None
    # Its contests, in the file's order, begin the precinct's before it as a cut leaves
    # them: the same contests in the same order, then none of the rest. (Tested first: it
    # looks at two precincts' rows only, and a whole file passes it by.)
    before = rows[:first_mine]
    block = before[prec_c[before] == prec_c[before[-1]]]
    mine_order = list(dict.fromkeys(race[rows[mine]].tolist()))
    prev_order = list(dict.fromkeys(race[block].tolist()))
    # (a district's contest the precinct before does not have may be among them)
    prev_set = set(prev_order)
    in_both = [r for r in mine_order if r in prev_set]
    if not (len(in_both) < len(prev_order) and prev_order[:len(in_both)] == in_both):
        return None
    others = int(np.count_nonzero(np.bincount(prec_c[rows[~mine]])))
    if others < 3:
        return None
    places = int(prec_c.max()) + 1
    pairs = _unique(race[rows].astype(np.int64) * places + prec_c[rows])
    # (ascending pairs: each race's precincts a run of them)
    of = pairs // places
    starts = np.flatnonzero(np.concatenate(([True], of[1:] != of[:-1])))
    races, spread = of[starts], np.diff(np.append(starts, len(of)))
    have = set(mine_order)
    everywhere = [int(r) for r, k in zip(races.tolist(), spread.tolist(), strict=True)
                  if k == others and r not in have]
    shared = sum(1 for r, k in zip(races.tolist(), spread.tolist(), strict=True)
                 if k == others + 1)
    if everywhere and shared:
        return last, shared, shared + len(everywhere), None
    return None


def _unique(values: np.ndarray) -> np.ndarray:
    """``numpy.unique`` of a 1-D array of integers (its distinct values, ascending), by one
    sort: without numpy's other work, which costs more than the sort on a short array."""
    import numpy as np

    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    out: np.ndarray = ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]
    return out


def _sums_by(codes: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``codes`` (ascending) and the sum of the ``values`` of each, exact in
    64-bit integers (``pandas.Series(values).groupby(codes).sum()``)."""
    import numpy as np

    keys, inverse = np.unique(codes, return_inverse=True)
    sums = np.zeros(len(keys), dtype=np.int64)
    np.add.at(sums, inverse.reshape(-1), values.astype(np.int64, copy=False))
    return keys, sums


def _sums_at(keys: np.ndarray, codes: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The sum of the ``values`` whose code is each of the ascending ``keys`` (0 where
    none is): the group sums reindexed on ``keys``."""
    import numpy as np

    sums = np.zeros(len(keys), dtype=np.int64)
    if not len(keys) or not len(codes):
        return sums
    at = np.minimum(np.searchsorted(keys, codes), len(keys) - 1)
    hit = keys[at] == codes
    np.add.at(sums, at[hit], values[hit].astype(np.int64, copy=False))
    return sums


_DIGITS = re.compile(r"[0-9]{1,15}")  # a whole number a float64 holds exactly
_ALL_DIGITS = re.compile(r"(?:[0-9]{1,15}\n)*[0-9]{1,15}")  # lines of such numbers
# What ``to_numeric`` reads as no number: no letter or digit of any script at all ('*',
# '-'), or ASCII digits in thousands groups ('1,052'; read as a count after the commas go).
_NO_NUMBER = re.compile(r"[^\w]*|[0-9]{1,3}(?:,[0-9]{3})+")


def _numbers(texts: list[str]) -> tuple[np.ndarray, list[int]]:
    """``pandas.to_numeric(texts, errors="coerce")`` as float64: digits are converted here
    (a county's file has a few hundred distinct counts, and pandas costs ~100 µs a call);
    pandas converts only what else there is. And the positions of the texts that are not
    whole numbers in digits (the empty one too)."""
    import numpy as np
    import pandas as pd

    if all_match(_ALL_DIGITS, texts):  # (as nearly always)
        # (float of fifteen digits or fewer is exact: what int, then float64, gives)
        return np.fromiter(map(float, texts), dtype=np.float64, count=len(texts)), []
    digits = _DIGITS.fullmatch
    out = np.array([int(t) if digits(t) else np.nan for t in texts], dtype=np.float64)
    words = [k for k, t in enumerate(texts) if not digits(t)]
    # (an empty text is no number; nor, for ``to_numeric``, one without a letter or a digit
    # such as '*' or '-', nor digits in groups of a thousand such as '1,052')
    rest = [k for k in words if texts[k] and not _NO_NUMBER.fullmatch(texts[k])]
    if rest:
        out[rest] = np.array(pd.to_numeric(pd.Series([texts[k] for k in rest], dtype=object),
                                           errors="coerce"), dtype=np.float64)
    return out, words


def _fold(text: str) -> str:
    """A title compared without case and spacing."""
    return " ".join(text.split()).casefold()


_GENERIC_WRITE_IN = re.compile(r"^\s*write-?\s*ins?(\s+votes?)?\s*:?\s*$", re.IGNORECASE)
_DISTRICT_NUMBER = re.compile(r"^(?:district|dist\.?)?\s*0*([0-9]+)(?:\.0)?$", re.IGNORECASE)


def _district(text: str) -> str:
    """A district column's cell as its number alone where it is one ('053', 'District 53',
    '53.0' -> '53'); any other text as it stands."""
    m = _DISTRICT_NUMBER.match(text.strip())
    return str(int(m.group(1))) if m else re.sub(r"\.0$", "", text)


def merge(codes: np.ndarray, texts: list[str]) -> tuple[np.ndarray, list[str]]:
    """Codes into ``texts`` renumbered so that equal texts share one code ("A " and "A")."""
    import numpy as np
    import pandas as pd

    if len(set(texts)) == len(texts):
        return codes, texts
    remap, uniques = pd.factorize(np.array(texts, dtype=object), use_na_sentinel=False)
    return remap[codes], [str(u) for u in uniques]
