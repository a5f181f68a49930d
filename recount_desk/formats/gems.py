"""Reads GEMS (Premier/Diebold) text exports: headerless CSV rows of ten fields.

Fields: ``county#, precinct#, precinct, race, race id, race party, candidate, cand id,
cand party, votes`` (often with a trailing comma). Pseudo-candidates hold statistics
(``Number of Precincts…``, ``Registered Voters``, ``Times Counted``) or the contest's
``Times Blank Voted`` / ``Times Over Voted`` / ``Number of Under Votes``; the race ``Race
Statistics`` is turnout only. Precinct ``999999`` (``Election Total``) is the file's totals.

Every row comes several times, once per counting group and once more for their total. In
the Grand and Wayne 2016 exports each key appears exactly three times and, for every
candidate, the third value is the sum of the first two (1,129 of 1,129 keys in Grand, 421 of
421 in Wayne; e.g. Grand, Election Total, GOVERNOR, GARY R. HERBERT: 2224, 42, 2266). So the
reader takes the *last* row of each repeated key when that rule holds for at least nine in
ten of the keys whose repeats differ (the others are reported: a damaged or cut export), the
*first* row when the total comes first instead, takes one row when all repeats are equal,
and otherwise adds them up with a warning.

A key is precinct × race × race id × race party × candidate: in a primary export (Carbon
2016) each party's race is its own contest, and two party races may share a title; the race
party is the contest's party. A race title with ``Vote for N`` states its seats; otherwise a
race with more candidate votes than ``Times Counted`` ballots in a precinct gets a warning.
Pseudo-candidates spelled otherwise (``Number of Over Votes``, ``Times Under Voted``) are
over/under votes; any other ``Number of …``/``Times …`` row is left out with a warning, never
counted as a candidate. A trailing Ctrl-Z and a hand-added line of column names are passed over.

Where no rule fits, the repeats are added up (a warning says so): counting groups without a
total row. A copy is never added up: the whole body written again after itself, or one
precinct's block written again row for row, is read once, with a warning naming its lines
(Wayne 2016 written twice was read four times over: each key's six rows, parts and total
twice, failed both rules and were summed).
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import TYPE_CHECKING

from recount_desk.core.model import Issue, Remedy, Severity

from . import blocks, vocab
from .base import Cancelled, Detection, RawCanvass, ReadOptions, fail
from .pipeline import IssueLog, Located, Source
from .stages import detector, head_rows, staged_read
from .tabular import NOT_UTF8_NOTE

if TYPE_CHECKING:
    import pandas as pd

FAMILY = "gems"
LABEL = "GEMS text export (ten fields, no header)"

_COLS = ("county", "pno", "precinct", "race", "race_id", "race_party", "candidate", "cand_id",
         "cand_party", "votes")


# Any other 'Number of …' / 'Times …' row than those of the shared vocabulary ('Times Over
# Voted', 'Number of Under Votes') is a statistic this reader does not know.
_PSEUDO_OTHER = re.compile(r"^\s*(?:number\s+of|times)\s", re.IGNORECASE)


def _pseudo_kind(candidate: str) -> str | None:
    """The row kind of a GEMS candidate name; '?' for an unknown statistic."""
    kind = vocab.choice_kind(candidate)
    return "?" if kind == "candidate" and _PSEUDO_OTHER.match(candidate) else kind


def _more_votes_than_ballots(name: str, votes: pd.DataFrame, counted: pd.DataFrame, rule: str,
                             seats: dict[tuple[str, str, str], int]) -> list[Issue]:
    """A warning for each race whose candidates have more votes than ballots were counted in
    some precinct: one seat is assumed, and that cannot be right."""
    how = "sum" if rule == "sum" else "max"  # the repeats' total is their largest value
    ballots = counted.groupby(["pno", "race", "race_id", "race_party"])["v"].agg(how)
    by_race = {(p, r, i, q): int(b) for (p, r, i, q), b in ballots.items()}
    by_precinct = {p: int(b) for (p, r, _, _), b in ballots.items()
                   if vocab.is_non_contest_office(r)}
    sums = votes.groupby(["race", "district", "race_party", "race_id", "pno", "precinct"],
                         sort=False)["v"].sum()
    over: dict[tuple[str, str, str], list[tuple[str, int, int]]] = {}
    for (r, d, q, i, p, pname), v in sums.items():
        b = by_race.get((p, r, i, q), by_precinct.get(p))
        if b is not None and b > 0 and v > b and (r, d, q) not in seats:
            over.setdefault((r, d, q), []).append((pname, int(v), b))
    out = []
    for (r, d, _), bad in over.items():
        n, w = blocks.over_ballots((v, b) for _, v, b in bad)
        pname, v, b = bad[w or 0]
        out.append(Issue(name, f"{f'{r} {d}'.strip()}: in {n} precinct(s) the candidates "
                         f"have more votes than ballots were counted (e.g. {pname}: {v:,} votes "
                         f"on {b:,} ballots), so it elects more than one seat; the file does not "
                         "say how many. Set its seats before trusting its verdict.",
                         severity=Severity.WARNING, remedy=Remedy.SET_SEATS))
    return out


def _text(path: Path) -> tuple[str, str | None]:
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), NOT_UTF8_NOTE


def _looks_like_gems(row: list[str]) -> bool:
    if len(row) < 10 or (len(row) > 10 and any(c.strip() for c in row[10:])):
        return False
    return row[0].strip().isdigit() and row[1].strip().isdigit() and \
        vocab.parse_count(row[9]) is not None and bool(row[3].strip())


@detector("csv")
def detect(path: Path, kind: str) -> Detection | None:
    head = head_rows(path, kind, nrows=20)
    if not any(len(r) >= 10 for r in head):  # (no row of ten fields: none looks like GEMS)
        return None
    rows = [r for r in head if any(c.strip().strip("\x1a") for c in r)]
    if not rows:
        return None
    ok = sum(_looks_like_gems(r) for r in rows)
    if ok < max(1, len(rows) * 0.9):
        return None
    stats = any(r[6].strip() in ("Number of Precincts", "Registered Voters", "Times Counted")
                or r[3].strip() == "Race Statistics" for r in rows)
    return Detection(FAMILY, LABEL, 95 if stats else 85,
                     "headerless rows of ten fields (county, precinct, race, candidate, votes)")


def _repeats(seq: list[list[str]]) -> int:
    """How many rows of ``seq`` make one copy when ``seq`` is nothing but that copy written
    two or more times over, row for row, and the copy holds more than one key; else 0 (the
    rows of one key alone, all equal, are that key's counting groups, resolved in map)."""
    n = len(seq)
    for times in range(2, n + 1):
        if n % times == 0 and seq[:n // times] * times == seq:
            one = n // times
            return one if len({tuple(r[:9]) for r in seq[:one]}) > 1 else 0
    return 0


def _without_copies(recs: list[list[str]], rownos: list[int], log: IssueLog) -> list[int]:
    """The indexes of the rows to read: all of them, less the rows that are an exact copy of
    the file's body (the whole export written again after itself) or of one precinct's whole
    block, each copy left out with a warning naming its lines.

    Repeats of a key are otherwise counting groups (or their total) and are resolved in
    ``map``; but a copy is not a counting group: added up, every figure would come out
    twice over (and, since each key's total row is added to its parts, four times over).
    A block written again row for row, every count the same, is never a real part: a
    precinct's counting groups and their total row differ wherever the precinct has a vote."""
    one = _repeats(recs)
    if one:
        log.warn(f"The file's lines {rownos[one]:,}–{rownos[-1]:,} repeat lines "
                 f"{rownos[0]:,}–{rownos[one - 1]:,} exactly (the whole export is written "
                 f"{len(recs) // one} times over): they are a copy, not more counting groups, "
                 "so the export is read once. Check that this is the export the county "
                 "meant to give.")
        return list(range(one))
    by_precinct: dict[tuple[str, str], list[int]] = {}
    for i, r in enumerate(recs):
        by_precinct.setdefault((r[1], r[2]), []).append(i)
    dropped: set[int] = set()
    for (_, precinct), idx in by_precinct.items():
        block = [recs[i] for i in idx]
        one = _repeats(block)
        if not one:
            continue
        dropped.update(idx[one:])
        log.warn(f"The rows of precinct {precinct!r} on lines {rownos[idx[one]]:,}–"
                 f"{rownos[idx[-1]]:,} repeat its rows on lines {rownos[idx[0]]:,}–"
                 f"{rownos[idx[one - 1]]:,} exactly: they are a copy, not more counting "
                 "groups, so the precinct is read once. Check the precinct against the "
                 "printed canvass.", row=rownos[idx[one]])
    return [i for i in range(len(recs)) if i not in dropped]


def locate(source: Source, options: ReadOptions) -> Located:
    """The rows of ten fields (a line of column names added by hand passed over, and an
    exact copy of the whole body or of a precinct's block left out with a warning); a row
    of another shape is an error naming its row."""
    path, name = source.path, source.name
    text, note = _text(path)
    log = IssueLog(name)
    if note:
        log.warn(note)
    recs: list[list[str]] = []
    rownos: list[int] = []
    for i, r in enumerate(csv.reader(io.StringIO(text, newline=""))):
        if i % 20000 == 0:
            options.on_progress(i, max(1, len(text) // 80))
            if options.cancelled():
                raise Cancelled()
        if not r or not any(c.strip().strip("\x1a") for c in r):
            continue  # blank lines and the DOS end-of-file mark (Ctrl-Z)
        if len(r) < 10 or any(c.strip() for c in r[10:]):
            log.repeated("shape", f"The row has {len(r)} fields instead of the ten of a GEMS "
                         "export; it is left out.", Severity.ERROR,
                         more="rows without ten fields", row=i + 1)
            continue
        if not recs and not log.count("shape") and not r[0].strip().isdigit() and \
                vocab.parse_count(r[9]) is None:
            # A line of column names added by hand (the export itself has none).
            log.note(f"The first row ({', '.join(c.strip() for c in r[:4])} …) is read as "
                     "column names, not votes.", row=i + 1)
            continue
        recs.append([c.strip() for c in r[:10]])
        rownos.append(i + 1)
    if recs:
        keep = _without_copies(recs, rownos, log)
        recs, rownos = [recs[i] for i in keep], [rownos[i] for i in keep]
    if not recs:
        raise fail(path, "This is not a GEMS text export: no row has the ten fields county, "
                   "precinct number, precinct, race, race id, race party, candidate, candidate "
                   "id, candidate party, votes.")
    return Located(source, recs, log, facts={"rows": rownos})


def map(located: Located, options: ReadOptions) -> RawCanvass:
    """The ten fields as raw rows: counts checked, repeats per counting group resolved,
    the Election Total rows as the file's totals."""
    import pandas as pd

    name, log, recs = located.source.name, located.log, located.rows
    issues = log.issues
    df = pd.DataFrame(recs, columns=list(_COLS))
    df["row"] = located.facts["rows"]
    num, bad = blocks.row_counts(df["votes"], df["row"].tolist(), log=log,
                                 column="votes (field 10)")
    df = df[~bad].assign(v=num[~bad].astype("int64"))

    kinds = {c: _pseudo_kind(c) for c in df["candidate"].unique()}
    unknown = sorted(c for c, k in kinds.items() if k == "?")
    if unknown:
        issues.append(Issue(name, "These rows look like GEMS statistics, not candidates, and are "
                            "left out: " + ", ".join(repr(c) for c in unknown[:6]) + ". If one "
                            "is a candidate, read the file through the column mapping.",
                            severity=Severity.WARNING))
    df["kind"] = df["candidate"].map({c: (None if k == "?" else k) for c, k in kinds.items()})
    is_stat_race = df["race"].map({r: vocab.is_non_contest_office(r)
                                   for r in df["race"].unique()}).astype(bool)
    df["race_party"] = df["race_party"].map(vocab.party_code)
    # Ballots counted, per race or per precinct (Race Statistics): kept apart to check that
    # a race has no more votes than ballots (else it elects more than one).
    counted = df[df["candidate"].str.casefold().isin({"times counted", "times cast"})]
    df = df[df["kind"].notna() & ~is_stat_race & (df["race"] != "")]
    options.on_progress(1, 3)

    # A race party left blank while the title names it ('US SENATE (REP)').
    no_party = df["race_party"] == ""
    if no_party.any():
        by_title = {r: vocab.contest_party(r) for r in df.loc[no_party, "race"].unique()}
        df.loc[no_party, "race_party"] = df.loc[no_party, "race"].map(by_title)

    # Repeats per counting group.
    rule = "last"
    key = ["pno", "precinct", "race", "race_id", "race_party", "candidate"]
    g = df.groupby(key, sort=False)["v"]
    n = g.transform("size")
    repeated = n > 1
    if repeated.any():
        agg = g.agg(["size", "first", "last", "sum", "min", "max"])
        multi = agg[agg["size"] > 1]
        all_equal = multi["min"] == multi["max"]
        informative = ~all_equal
        informative_n = int(informative.sum())
        fits_last = int((informative & (multi["last"] * 2 == multi["sum"])).sum())
        fits_first = int((informative & (multi["first"] * 2 == multi["sum"])).sum())
        rule = "last" if fits_last >= fits_first else "first"
        fits = max(fits_last, fits_first)
        is_sum = multi[rule] * 2 == multi["sum"]
        odd = agg.index.isin(multi.index[informative & ~is_sum])
        if informative_n == 0:
            rule = "last"
            issues.append(Issue(name, "Every row comes more than once with the same count; each "
                                "is counted once.", severity=Severity.WARNING))
        elif fits * 10 >= informative_n * 9:
            word = "last" if rule == "last" else "first"
            issues.append(Issue(name, f"Each row comes up to {int(multi['size'].max())} times "
                                "(once per counting group, and once for their total); the "
                                f"{word} one is the sum of the others ({fits:,} of "
                                f"{informative_n:,} checked), so the {word} one is used.",
                                severity=Severity.NOTE))
            if fits < informative_n:
                bad_keys = agg.index[odd][:5]
                issues.append(Issue(
                    name, f"{informative_n - fits} repeated row(s) do not "
                    f"{'end' if rule == 'last' else 'begin'} with their total "
                    f"(the export may be damaged or cut); their {word} value is used: "
                    + "; ".join(f"{k[1]} / {k[2]} / {k[5]}" for k in bad_keys) + ".",
                    severity=Severity.WARNING))
        else:
            rule = "sum"
            issues.append(Issue(name, f"Rows repeat per counting group and {informative_n - fits:,}"
                                f" of {informative_n:,} do not end (or begin) with their total; "
                                "the repeats are added up. Check the totals against the printed "
                                "canvass.", severity=Severity.WARNING))
        agg = agg.reset_index()
        agg["v"] = agg[rule]
        first = df.drop_duplicates(key, keep="first").drop(columns=["v"])
        df = first.merge(agg[[*key, "v"]], on=key, how="left", sort=False)
    options.on_progress(2, 3)

    is_total = (df["pno"] == "999999") | df["precinct"].map(
        {p: vocab.is_total_precinct(p) for p in df["precinct"].unique()}).astype(bool)
    # Two races with one title (and party) are told apart by their race id.
    district, twice = blocks.kept_apart(df[["race", "race_party"]], df["race_id"])
    if twice:
        log.note("Several races share a title and are kept apart by their race id: "
                 + ", ".join(twice) + ".")
    # Precinct names are the precincts' keys; two numbers under one name stay apart.
    per_name = df.groupby("precinct")["pno"].nunique()
    shared = set(per_name[per_name > 1].index)
    if shared:
        mask = df["precinct"].isin(shared) & (df["pno"] != "999999")
        df.loc[mask, "precinct"] = df.loc[mask, "pno"] + " " + df.loc[mask, "precinct"]
        log.note("Several precinct numbers share a name, so those precincts are named by "
                 "number and name: " + ", ".join(sorted(shared)[:5]) + ".")
    void = df["candidate"].map(vocab.is_void_write_in).astype(bool)
    blocks.void_note(log, int(df.loc[void & ~is_total, "v"].sum()))
    body = ~is_total & ~void
    counted_rows = df[~void]
    out, file_totals = blocks.raw_rows({
        "precinct": counted_rows["precinct"], "contest": counted_rows["race"],
        "district": district[~void], "party": counted_rows["race_party"],
        "choice": counted_rows["candidate"],
        "choice_party": counted_rows["cand_party"].map(vocab.party_code),
        "kind": counted_rows["kind"], "votes": counted_rows["v"]}, is_total[~void])
    if not is_total.any():
        # The export always ends with them: without them the file is probably cut short.
        issues.append(Issue(name, "The export has no 'Election Total' (999999) rows, which "
                            "the election system's export always ends with: the file is "
                            "probably cut short (or the rows were deleted), so its precincts "
                            "may not be all of them. Export it again.",
                            severity=Severity.ERROR))
    seats: dict[tuple[str, str, str], int] = {}
    for r, d, p in set(zip(out["contest"], out["district"], out["party"], strict=True)):
        n = vocab.seats_in(r)
        if n:
            seats[r, d, p] = n
    if not counted.empty:
        issues += _more_votes_than_ballots(
            name, df[body & df["kind"].isin(["candidate", "write_in"])].assign(
                district=district[body]), counted, rule, seats)
    primary = True if (df["race_party"] != "").any() else None
    options.on_progress(3, 3)
    return RawCanvass(name, FAMILY, out, log.close(), seats, file_totals, set(), primary)


read = staged_read(locate, map)
