"""Build contests, choices and totals from a reader's raw rows, the same way for every family.

Rules applied here (DESIGN.md §2): over/under/blank never count as candidate votes; in a
primary each party's race is a contest of its own, in a general election the party belongs
to the candidate; seats come from the file or are 1 with a note; exact duplicate rows are
dropped with a warning and disagreeing duplicates are errors; the sum of the precincts is
checked against the file's own totals row, whose figures are used where precincts are
suppressed.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from recount_desk.core.model import (
    Choice,
    ChoiceKind,
    ChoiceTotal,
    Contest,
    ContestKey,
    ContestKind,
    ContestTotals,
    ExtraKind,
    Issue,
    Severity,
    looks_like_proposition,
    stance_of,
)

from .base import RawCanvass


@dataclass
class ParsedCanvass:
    """A canvass ready to be checked or stored: contests, choices, per-precinct counts."""

    file: str
    family: str
    sha256: str
    precincts: list[str]
    contests: list[Contest]
    choices: list[list[Choice]]  # per contest
    # Parallel integer columns: precinct index, contest index, choice index within contest.
    vote_precinct: list[int]
    vote_contest: list[int]
    vote_choice: list[int]
    vote_count: list[int]
    # Over/under/blank: precinct index, contest index, kind, count.
    extras: list[tuple[int, int, str, int]]
    totals: list[ContestTotals]
    issues: list[Issue] = field(default_factory=list)
    primary: bool = False
    election_name: str | None = None
    election_date: str | None = None

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.severity is Severity.ERROR]

    @property
    def rows(self) -> int:
        return len(self.vote_count)


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def build(raw: RawCanvass, *, primary: bool | None = None,
          seats: dict[str, int] | None = None, sha256: str = "") -> ParsedCanvass:
    """Turn raw rows into a :class:`ParsedCanvass`.

    ``primary``: None takes the file's word (``raw.primary``), else general.
    ``seats``: overrides by contest title (``--seats "TITLE=N"``), case-insensitive.
    """
    import pandas as pd

    is_primary = bool(raw.primary) if primary is None else primary
    issues = list(raw.issues)
    df = raw.rows
    if df.empty:
        issues.append(Issue(raw.file, "No contest results were found in this file.",
                            raw.sheet, severity=Severity.ERROR))
        return ParsedCanvass(raw.file, raw.family, sha256, [], [], [], [], [], [], [], [], [],
                             issues, is_primary, raw.election_name, raw.election_date)

    df = df.reset_index(drop=True)
    party = df["party"]
    if is_primary:
        # In a primary the race belongs to the party (DESIGN.md §2).
        party = party.where(party != "", df["choice_party"])
        df = df.assign(party=party)
        # Over/under rows carry no party: give them the contest's only party, if it has one.
        blank_party = (df["party"] == "") & df["kind"].isin(["over", "under", "blank"])
        if blank_party.any():
            parties = (df[df["party"] != ""].groupby(["contest", "district"])["party"]
                       .agg(lambda s: s.iloc[0] if s.nunique() == 1 else ""))
            fill = [parties.get((c, d), "") for c, d in
                    zip(df.loc[blank_party, "contest"], df.loc[blank_party, "district"],
                        strict=True)]
            df.loc[blank_party, "party"] = fill

    # Contest identity, in order of first appearance, from integer codes (no string joins).
    import numpy as np

    t_codes, t_u = pd.factorize(df["contest"], sort=False)
    d_codes, d_u = pd.factorize(df["district"], sort=False)
    y_codes, y_u = pd.factorize(df["party"], sort=False)
    combo = (t_codes.astype(np.int64) * len(d_u) + d_codes) * len(y_u) + y_codes
    contest_codes, combo_u = pd.factorize(combo, sort=False)
    nd, ny = len(d_u), len(y_u)
    contest_uniques = [f"{t_u[k // (nd * ny)]}\x1f{d_u[(k // ny) % nd]}\x1f{y_u[k % ny]}"
                       for k in combo_u.tolist()]
    precinct_codes, precinct_uniques = pd.factorize(df["precinct"], sort=False)
    choice_codes, _ = pd.factorize(df["choice"], sort=False)
    kind_codes, _ = pd.factorize(df["kind"], sort=False)
    df = df.assign(c=contest_codes, p=precinct_codes, q=choice_codes, k=kind_codes)

    # Duplicates: identical rows are dropped with a warning; disagreeing ones are errors.
    keycols = ["p", "c", "q", "k"]
    # One int64 key per row (precinct, contest, choice, kind) makes the check cheap.
    rowkey = ((df["p"].to_numpy(np.int64) * (int(contest_codes.max()) + 1) + df["c"].to_numpy())
              * (int(choice_codes.max()) + 1) + df["q"].to_numpy()) * 8 + df["k"].to_numpy()
    dup = pd.Series(rowkey, index=df.index).duplicated(keep=False)
    if dup.any():
        d = df[dup]
        exact = d.duplicated([*keycols, "votes"], keep="first")
        agree = d.groupby(keycols, sort=False)["votes"].nunique()
        bad = agree[agree > 1]
        if len(bad):
            for (p, c, q, _kind) in bad.index[:20]:
                title = contest_uniques[c].split("\x1f")[0]
                choice = d[d.q == q]["choice"].iloc[0]
                issues.append(Issue(
                    raw.file, f"Duplicate rows disagree for {choice!r} in {title!r}, precinct "
                    f"{precinct_uniques[p]!r}: "
                    + ", ".join(str(v) for v in d[(d.p == p) & (d.c == c) &
                                                    (d.q == q)]["votes"]),
                    raw.sheet, severity=Severity.ERROR))
            if len(bad) > 20:
                issues.append(Issue(raw.file, f"… and {len(bad) - 20} more disagreeing "
                                    "duplicates.", raw.sheet, severity=Severity.ERROR))
        n_exact = int(exact.sum())
        if n_exact:
            issues.append(Issue(raw.file, f"{n_exact} exact duplicate row(s) were counted once.",
                                raw.sheet, severity=Severity.WARNING))
            df = df.drop(index=d.index[exact.to_numpy()])

    cand = df[df["kind"].isin(["candidate", "write_in"])]
    extra = df[~df["kind"].isin(["candidate", "write_in"])]

    seat_over = {k.casefold(): v for k, v in (seats or {}).items()}
    contests: list[Contest] = []
    choices: list[list[Choice]] = []
    choice_index: list[dict[str, int]] = []
    assumed_seats = 0
    # Choice order: first appearance within each contest.
    first = cand.drop_duplicates(["c", "choice"])[["c", "choice", "choice_party", "kind"]]
    by_contest: dict[int, list[tuple[str, str, str]]] = defaultdict(list)
    for c, name, cparty, kind in first.itertuples(index=False, name=None):
        by_contest[int(c)].append((name, cparty, kind))
    for ci, key in enumerate(contest_uniques):
        title, district, cparty = key.split("\x1f")
        entries = by_contest.get(ci, [])
        names = [n for n, _, _ in entries]
        is_prop = looks_like_proposition(names)
        chs: list[Choice] = []
        for name, chparty, kind in entries:
            if is_prop:
                ck = stance_of(name) or ChoiceKind.CANDIDATE
            else:
                ck = ChoiceKind.WRITE_IN if kind == "write_in" else ChoiceKind.CANDIDATE
            chs.append(Choice(name, "" if is_primary else chparty, ck))
        tup = (title, district, cparty)
        n_seats = seat_over.get(title.casefold())
        from_file = False
        if n_seats is None and tup in raw.seats:
            n_seats, from_file = raw.seats[tup], True
        if n_seats is None:
            n_seats = 1
            if not is_prop:
                assumed_seats += 1
        contests.append(Contest(
            ContestKey(title, district, cparty),
            ContestKind.PROPOSITION if is_prop else ContestKind.RACE,
            seats=max(1, n_seats), seats_from_file=from_file,
        ))
        choices.append(chs)
        choice_index.append({ch.name: i for i, ch in enumerate(chs)})
    if assumed_seats:
        issues.append(Issue(
            raw.file, f"The file does not say how many seats {assumed_seats} race(s) fill; one "
            "seat each is assumed. Change it in the contest settings (or with --seats "
            "\"TITLE=N\") for a multi-seat race.", raw.sheet, severity=Severity.NOTE))

    # Integer columns for the store.
    cc = cand["c"].to_numpy()
    ch_idx = [choice_index[c][n] for c, n in zip(cc.tolist(), cand["choice"].tolist(),
                                                 strict=True)]
    # Sorted by (contest, choice, precinct): the store's key order, so its digest needs no sort.

    pp = cand["p"].to_numpy()
    ch_arr = np.asarray(ch_idx, dtype=np.int64)
    order = np.lexsort((pp, ch_arr, cc))
    vote_precinct = pp[order].tolist()
    vote_contest = cc[order].tolist()
    ch_idx = ch_arr[order].tolist()
    vote_count = cand["votes"].to_numpy()[order].tolist()

    # Totals per contest and choice.
    sums = cand.groupby(["c", "choice"], sort=False)["votes"].sum().to_dict()
    nprec = cand.groupby("c")["p"].nunique().to_dict()
    ext = extra.groupby(["c", "kind"], sort=False)["votes"].sum().to_dict()
    totals: list[ContestTotals] = []
    for ci, contest in enumerate(contests):
        tup = (contest.key.title, contest.key.district, contest.key.party)
        counted = {ch.name: int(sums.get((ci, ch.name), 0)) for ch in choices[ci]}
        file_tot = raw.file_totals.get(tup)
        use = counted
        if file_tot:
            diffs = [(n, counted.get(n, 0), v) for n, v in file_tot.items()
                     if n in counted and counted[n] != v]
            if diffs:
                names = "; ".join(f"{n}: precincts add up to {a:,}, the file's total says {b:,}"
                                  for n, a, b in diffs[:4])
                if tup in raw.suppressed:
                    issues.append(Issue(
                        raw.file, f"{contest.key.label()}: some precincts are suppressed for "
                        f"voter privacy, so the precincts do not add up to the file's totals "
                        f"({names}). The file's totals are used for the contest total.",
                        raw.sheet, severity=Severity.NOTE))
                    use = {n: file_tot.get(n, counted[n]) for n in counted}
                else:
                    issues.append(Issue(
                        raw.file, f"{contest.key.label()}: the precincts do not add up to the "
                        f"file's own totals row ({names}).", raw.sheet,
                        severity=Severity.WARNING))
        extras_tot = {ExtraKind(k): int(ext[(ci, k)]) for k in ("over", "under", "blank")
                      if (ci, k) in ext}
        totals.append(ContestTotals(
            contest,
            tuple(ChoiceTotal(ch, use[ch.name]) for ch in choices[ci]),
            extras_tot,
            int(nprec.get(ci, 0)),
        ))

    extras_rows = [
        (int(p), int(c), str(k), int(v))
        for p, c, k, v in extra.groupby(["p", "c", "kind"], sort=False)["votes"].sum()
        .reset_index().itertuples(index=False, name=None)
    ]
    return ParsedCanvass(
        raw.file, raw.family, sha256, [str(p) for p in precinct_uniques], contests, choices,
        vote_precinct, vote_contest, ch_idx, vote_count, extras_rows, totals, issues,
        is_primary, raw.election_name, raw.election_date,
    )
