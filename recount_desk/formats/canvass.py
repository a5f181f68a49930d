"""Build contests, choices and totals from a reader's raw rows, the same way for every family.

Rules applied here (DESIGN.md §2): over/under/blank never count as candidate votes; in a
primary each party's race is a contest of its own, in a general election the party belongs
to the candidate; seats come from the file or are 1 with a note; exact duplicate rows are
dropped with a warning and disagreeing duplicates are errors; the sum of the precincts is
checked against the file's own totals row, whose figures are used where precincts are
suppressed.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
    Remedy,
    Scope,
    Severity,
    VoteColumn,
    looks_like_proposition,
    stance_of,
)
from recount_desk.core.rules import proposition_scope, seats_in_title

from .base import CodedRawCanvass, CodedRows, Detection, RawCanvass

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd


@dataclass(frozen=True)
class ParsedCanvass:
    """A canvass ready to be checked or stored: contests, choices, per-precinct counts.

    Frozen: the reading pipeline makes it once (:func:`build`), and later stages (the
    plausibility gate, the detection that found the family) give a changed copy
    (``dataclasses.replace``), so its totals are the single source of every figure shown.
    """

    file: str
    family: str
    sha256: str
    precincts: list[str]
    contests: list[Contest]
    choices: list[list[Choice]]  # per contest
    # Per-precinct votes, one column per choice, in (contest, choice) order.
    columns: list[VoteColumn]
    # Over/under/blank: precinct index, contest index, kind, count.
    extras: Sequence[tuple[int, int, str, int]]
    totals: list[ContestTotals]
    issues: list[Issue] = field(default_factory=list)
    primary: bool = False
    election_name: str | None = None
    election_date: str | None = None
    # How the family was found (None when the caller named it, or for a mapping).
    detection: Detection | None = None
    # The counties the file's rows name (a county column), in the file's order.
    counties: tuple[str, ...] = ()
    # Why the plausibility gate doubts this reading, in sentences (its issues are also
    # among ``issues``); a doubtful reading is not offered as done.
    doubts: list[str] = field(default_factory=list)
    # The workbook's sheet that was read (None for a CSV, or a reading of several sheets).
    sheet: str | None = None
    # The file's title where it calls its figures unofficial ('UNOFFICIAL RESULTS'): no
    # verdict rests on them (core.rules.unofficial_figures); an error says so, too.
    unofficial: str | None = None

    @property
    def doubtful(self) -> bool:
        """The reading does not look like a real canvass: not to be offered as done."""
        return bool(self.doubts)

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.severity is Severity.ERROR]

    @property
    def blocking(self) -> list[Issue]:
        """The errors that stop an import: a cell that cannot be read, rows that contradict
        each other (bad input: the case is left as it was), anything not bound to a contest
        of this reading. Not those in how one contest's figures hang together as one
        contest (``Issue.only_contest``: a candidate spelled two ways), which are imported
        with it, as hidden counts are, and withhold its verdict."""
        keys = {c.key for c in self.contests}
        return [i for i in self.errors if not (i.only_contest and i.contest in keys)]

    @property
    def withheld(self) -> list[Contest]:
        """The contests whose figures do not hang together as one contest's: they can be
        imported, with no verdict on them until the file is corrected."""
        bound = {i.contest for i in self.errors if i.only_contest}
        return [c for c in self.contests if c.key in bound]

    @property
    def rows(self) -> int:
        return sum(len(c.votes) for c in self.columns)

    def vote_rows(self) -> Iterator[tuple[str, int, str, int]]:
        """(precinct name, contest index, choice name, votes) for every stored count."""
        for col in self.columns:
            name = self.choices[col.contest][col.choice].name
            for p, v in zip(col.precincts, col.votes, strict=True):
                yield self.precincts[p - 1], col.contest, name, v


class ExtraRows(Sequence[tuple[int, int, str, int]]):
    """The over/under/blank rows as :func:`build` sums them: (precinct index, contest
    index, kind, count), kept as the columns they are built in and made into tuples only
    when asked for (by the store, at an import). A check never asks, and an ES&S statement
    of votes cast has one such row per precinct, contest and kind: tens of thousands of
    tuples that cost more to make than the rest of the build."""

    __slots__ = ("_columns", "_rows")

    def __init__(self, precincts: np.ndarray, contests: np.ndarray, kinds: np.ndarray,
                 names: list[str], counts: np.ndarray) -> None:
        """Equal-length integer arrays, ``kinds`` indexing ``names``."""
        self._columns = (precincts, contests, kinds, names, counts)
        self._rows: list[tuple[int, int, str, int]] | None = None

    def _all(self) -> list[tuple[int, int, str, int]]:
        if self._rows is None:
            precincts, contests, kinds, names, counts = self._columns
            self._rows = list(zip(precincts.tolist(), contests.tolist(),
                                  [names[k] for k in kinds.tolist()], counts.tolist(),
                                  strict=True))
        return self._rows

    def __len__(self) -> int:
        return len(self._columns[0])

    def __getitem__(self, i: Any) -> Any:
        return self._all()[i]

    def __iter__(self) -> Iterator[tuple[int, int, str, int]]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (equal to a list of the same rows)

    def __repr__(self) -> str:
        return f"ExtraRows({self._all()!r})"


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# A zero-width space stands where a space was; the other invisible characters are dropped.
_INVISIBLE: dict[int, str | None] = {0x200B: " ", **dict.fromkeys(map(ord, "\u200c\u200d"
                                                                        "\u2060\ufeff\u00ad"))}
MAX_NAME = 300  # longer is not a name (a pasted paragraph, a broken export)


@functools.lru_cache(maxsize=1 << 14)  # (every choice of every file is cleaned)
def _clean_name(text: str) -> str:
    """One spelling for one name: Unicode NFC, no invisible characters, single spaces."""
    return " ".join(unicodedata.normalize("NFC", text).translate(_INVISIBLE).split())


def _unify_names(raw: RawCanvass, df: pd.DataFrame, issues: list[Issue]) -> pd.DataFrame:
    """Choice names that differ only by Unicode form (NFC/NFD), case, spacing or an
    invisible character are one choice, under the spelling seen first, with a warning:
    never two candidates that are one. A name too long to be a name is an error."""
    import pandas as pd

    final = _unified(raw, list(pd.unique(df["choice"])), issues)
    if all(str(u) == v for u, v in final.items()):
        return df
    return df.assign(choice=df["choice"].map(lambda u: final.get(u, u)))


def _unified(raw: RawCanvass, distinct: list[Any], issues: list[Issue]) -> dict[Any, str]:
    """How :func:`_unify_names` spells each of the ``distinct`` names (in order of first
    appearance); its issues added to ``issues``."""
    first: dict[str, str] = {}
    final: dict[object, str] = {}
    for u in distinct:
        text = str(u)
        clean = _clean_name(text)
        final[u] = first.setdefault(clean.casefold(), clean)
        if len(clean) > MAX_NAME:
            issues.append(_long_name(raw, clean))
    changed = {u: v for u, v in final.items() if str(u) != v}
    merged = [(str(u), v) for u, v in changed.items() if str(u).strip() != v]
    shown = "; ".join(f"{u!r} is read as {v!r}" for u, v in merged[:5])
    if merged:
        issues.append(Issue(raw.file, "Choice names that differ only in case, spacing, "
                            "Unicode form or invisible characters are read as one choice: "
                            f"{shown}" + (f" (and {len(merged) - 5} more)" if len(merged) > 5
                                          else "") + ". Check them against the election "
                            "system.", raw.sheet, severity=Severity.WARNING))
    return final


def totals_as_named(file_tot: dict[str, int] | None, named: Sequence[str] | dict[str, int]
                    ) -> dict[str, int] | None:
    """A contest's file totals under its choices' names as read: the names that differ from
    one only as :func:`_unified` merges them ('No' and 'NO' in two columns) are that choice,
    their figures summed, as its precinct counts are."""
    if not file_tot or all(nm in named for nm in file_tot):
        return file_tot
    spelled = {_clean_name(nm).casefold(): nm for nm in named}
    out: dict[str, int] = {}
    for nm, v in file_tot.items():
        key = nm if nm in named else spelled.get(_clean_name(nm).casefold(), nm)
        out[key] = out.get(key, 0) + v
    return out


def build(raw: RawCanvass, *, primary: bool | None = None,
          seats: dict[str, int] | None = None, sha256: str = "") -> ParsedCanvass:
    """Turn raw rows into a :class:`ParsedCanvass`.

    ``primary``: None takes the file's word (``raw.primary``), else general.
    ``seats``: the officer's seats by contest (``--seats "NAME=N"``, NAME the contest's
    full name as check prints it, or its title when that names one contest only).
    """
    import pandas as pd

    is_primary = bool(raw.primary) if primary is None else primary
    issues = list(raw.issues)
    import numpy as np

    # Rows held as codes (a long table) are read as such; the frame is made only where the
    # rows need more than their codes (names to unify, a primary's over/under rows without
    # a party, duplicates to name).
    coded = raw.coded_rows() if isinstance(raw, CodedRawCanvass) else None
    fast = _from_codes(raw, coded, is_primary, issues) if coded is not None else None
    df: Any  # the frame, where it was read
    if fast is not None:
        (n, t_codes, t_u, d_codes, d_u, y_codes, y_u, precinct_codes, precinct_uniques,
         choice_codes, choice_u, kind_codes, kind_u, votes_all, choice_party, renamed) = fast
        df = None
    else:
        # (a frame of the codes made here is not kept: the codes stay the rows)
        df = coded.frame() if coded is not None else raw.rows
        if df.empty:
            issues.append(Issue(raw.file, "No contest results were found in this file.",
                                raw.sheet, severity=Severity.ERROR))
            return ParsedCanvass(raw.file, raw.family, sha256, [], [], [], [], [], [], issues,
                                 is_primary, raw.election_name, raw.election_date,
                                 sheet=raw.sheet)
        (df, n, t_codes, t_u, d_codes, d_u, y_codes, y_u, precinct_codes, precinct_uniques,
         choice_codes, choice_u, kind_codes, kind_u, votes_all) = _from_frame(
            raw, df, is_primary, issues)
        choice_party = None
    nd, ny = len(d_u), len(y_u)
    if nd * ny == 1:  # one district and one party throughout: the title is the contest
        contest_codes, combo_u = t_codes, np.arange(len(t_u))
    else:
        combo = (t_codes.astype(np.int64) * nd + d_codes) * ny + y_codes
        contest_codes, combo_u = _factorize(combo)
    titles, districts, parties = ([str(x) for x in u] for u in (t_u, d_u, y_u))
    contest_keys = [(titles[k // (nd * ny)], districts[(k // ny) % nd], parties[k % ny])
                    for k in combo_u.tolist()]
    n_contests, n_prec, n_names = len(combo_u), len(precinct_uniques), len(choice_u)

    kind_names = [str(k) for k in kind_u]
    is_cand_kind = np.array([k in ("candidate", "write_in") for k in kind_names], dtype=bool)

    # Candidate rows grouped into one column per (contest, choice) pair, ascending by
    # precinct within each. Duplicates (the same choice twice in a precinct) show up as
    # neighbours there: identical ones are then dropped with a warning and disagreeing ones
    # are errors, and the rows are grouped again.
    alive = np.ones(n, dtype=bool)
    for attempt in range(2):
        cand = alive & is_cand_kind[kind_codes]
        every = bool(cand.all())
        if every:  # every row a candidate's (no copies needed)
            ci, pi, vv, qi = contest_codes, precinct_codes, votes_all, choice_codes
        else:
            rows_c = np.flatnonzero(cand)
            ci, pi = contest_codes[rows_c], precinct_codes[rows_c]
            vv, qi = votes_all[rows_c], choice_codes[rows_c]
        ci, pi = ci.astype(np.int64, copy=False), pi.astype(np.int64, copy=False)
        pair_codes, pair_u = _factorize(ci * n_names + qi)
        order, repeated = _group_by_pair(pair_codes, pi, len(pair_u), n_prec)
        rows_x = np.zeros(0, np.int64) if every else \
            np.flatnonzero(alive & ~is_cand_kind[kind_codes])
        key_x = ((precinct_codes[rows_x].astype(np.int64) * n_contests
                  + contest_codes[rows_x]) * n_names + choice_codes[rows_x]) * len(kind_u) \
            + kind_codes[rows_x]
        if attempt or not (repeated or _has_repeats(key_x)):
            break
        kind_class = np.where(is_cand_kind, 0, np.arange(len(kind_u)) + 1)[kind_codes]
        rowkey = (((precinct_codes.astype(np.int64) * n_contests + contest_codes) * n_names
                   + choice_codes) * (len(kind_u) + 1) + kind_class)
        alive = _duplicates(raw, _frame_cells(df) if df is not None else
                            _coded_cells(coded, renamed, is_primary),
                            rowkey, votes_all, issues)

    # Choices: (contest, name) pairs, each contest's in order of first appearance.
    first = _first_occurrences(pair_codes)
    if not every:
        first = rows_c[first]
    if choice_party is not None:
        cp_codes, cp_texts = choice_party
        first_party = [cp_texts[k] for k in cp_codes[first].tolist()]
    else:
        first_party = [str(x) for x in _pick(df["choice_party"], first)]
    first_kind = [kind_names[k] for k in kind_codes[first].tolist()]
    pair_contest = (pair_u // n_names).astype(np.int64)
    contest_of = pair_contest.tolist()  # (each pair's contest and place in it, as lists)
    pos_of: list[int] = []
    by_contest: dict[int, list[tuple[str, str, str]]] = defaultdict(list)
    for k, (c, q) in enumerate(zip(contest_of, (pair_u % n_names).tolist(), strict=True)):
        entries = by_contest[c]
        pos_of.append(len(entries))
        entries.append((str(choice_u[q]), first_party[k], first_kind[k]))
    pair_pos = np.array(pos_of, dtype=np.int64)

    seat_over = _seat_overrides(raw, contest_keys, seats or {}, issues)
    contests: list[Contest] = []
    choices: list[list[Choice]] = []
    assumed_seats = 0
    for ci_, (title, district, cparty) in enumerate(contest_keys):
        entries = by_contest.get(ci_, [])
        names = [nm for nm, _, _ in entries]
        is_prop = looks_like_proposition(names)
        chs: list[Choice] = []
        for name, chparty, kind in entries:
            if is_prop:
                ck = stance_of(name) or ChoiceKind.CANDIDATE
            else:
                ck = ChoiceKind.WRITE_IN if kind == "write_in" else ChoiceKind.CANDIDATE
            chs.append(Choice(name, "" if is_primary else chparty, ck))
        tup = (title, district, cparty)
        # Seats: given by the officer (--seats), stated by the file, stated in the title
        # ("Vote for 2"), else 1 and the verdict says it assumed so.
        n_seats = seat_over.get(ci_)
        from_file = n_seats is not None
        if n_seats is None and tup in raw.seats:
            n_seats, from_file = raw.seats[tup], True
        if n_seats is None and not is_prop:
            n_seats = seats_in_title(title)
            from_file = n_seats is not None
        if n_seats is None:
            n_seats = 1
            if not is_prop:
                assumed_seats += 1
        # A city's or a district's proposition, where its title says so, is filed with
        # that body's clerk at a special election (20A-4-401(2)(c)(i),(ii)).
        scope = (proposition_scope(title) if is_prop else None) or Scope.COUNTY
        contests.append(Contest(
            ContestKey(title, district, cparty),
            ContestKind.PROPOSITION if is_prop else ContestKind.RACE,
            seats=max(1, n_seats), scope=scope, seats_from_file=from_file,
        ))
        choices.append(chs)
    if assumed_seats:
        issues.append(Issue(
            raw.file, f"The file does not say how many seats {assumed_seats} race(s) fill; one "
            "seat each is assumed. For a multi-seat race, set its seats.", raw.sheet,
            severity=Severity.NOTE, remedy=Remedy.SET_SEATS))

    # The columns in (contest, choice) order: the store's order, so neither the store nor
    # its digest sorts again.
    pc_sorted = pair_codes[order]
    starts = np.flatnonzero(np.concatenate(([True], pc_sorted[1:] != pc_sorted[:-1]))) \
        if len(order) else np.zeros(0, dtype=np.int64)
    ends = np.append(starts[1:], len(order)).astype(np.int64)
    # 32-bit columns where the counts fit (they always do: readers refuse counts of a
    # billion): half the bytes for the store to write and hash.
    v_sorted = vv[order]
    fits = not len(vv) or (int(vv.min()) >= -(2**31) and int(vv.max()) < 2**31)
    width, code, np_type = (4, "i", np.int32) if fits else (8, "q", np.int64)
    p_bytes = memoryview((pi[order] + 1).astype(np_type).tobytes())
    v_bytes = memoryview(v_sorted.astype(np_type).tobytes())
    sums = np.add.reduceat(v_sorted, starts).tolist() if len(starts) else []
    columns: list[VoteColumn] = []
    counted_by: list[dict[str, int]] = [{ch.name: 0 for ch in chs} for chs in choices]
    lo, hi = (starts * width).tolist(), (ends * width).tolist()
    for pair in np.lexsort((pair_pos, pair_contest)).tolist():
        c, pos = contest_of[pair], pos_of[pair]
        pa, va = array(code), array(code)
        pa.frombytes(p_bytes[lo[pair]:hi[pair]])
        va.frombytes(v_bytes[lo[pair]:hi[pair]])
        columns.append(VoteColumn(c, pos, pa, va))
        counted_by[c][choices[c][pos].name] = sums[pair]
    # Precincts with votes in each contest: a bitmap when it is small, else a hash.
    if n_contests * n_prec <= 50_000_000:
        seen = np.zeros(n_contests * n_prec, dtype=bool)
        seen[ci * n_prec + pi] = True
        nprec = seen.reshape(n_contests, n_prec).sum(axis=1).tolist()
    else:
        pairs = pd.unique(ci * n_prec + pi)
        nprec = np.bincount(pairs // n_prec, minlength=n_contests).tolist()

    issues.extend(_spelled_twice(raw, contests, columns))

    # Over/under/blank rows: few, and summed per precinct (a file may split them by mode);
    # summed by their codes (exact: float64 holds every sum below 2**53).
    nk = max(len(kind_u), 1)
    x_codes, x_keys = _factorize((precinct_codes[rows_x].astype(np.int64) * n_contests
                                  + contest_codes[rows_x]) * nk + kind_codes[rows_x])
    x_sums = np.bincount(x_codes, weights=votes_all[rows_x],
                         minlength=len(x_keys)).astype(np.int64)
    x_p, x_ck = np.divmod(np.asarray(x_keys, dtype=np.int64), n_contests * nk)
    ck_codes, ck_keys = _factorize(x_ck)
    ext = {(int(k) // nk, kind_names[int(k) % nk]): int(v) for k, v in zip(
        ck_keys.tolist(), np.bincount(ck_codes, weights=x_sums, minlength=len(ck_keys))
        .astype(np.int64).tolist(), strict=True)}
    totals: list[ContestTotals] = []
    for ci_, contest in enumerate(contests):
        tup = (contest.key.title, contest.key.district, contest.key.party)
        counted = counted_by[ci_]
        file_tot = totals_as_named(raw.file_totals.get(tup), counted)
        use = counted
        hid: dict[str, list[str] | None] = dict(raw.hidden.get(tup, {}))
        n_hidden = sum(len(ps or ()) for ps in hid.values())
        if not n_hidden and tup in raw.suppressed:
            n_hidden = 1  # the reader marked it without saying where: at least one cell
            hid = {nm: None for nm in counted}
        # The file's own totals are the official figures where they cover every choice:
        # the verdict rests on them, not on precinct rows that hide or leave out counts.
        official = file_tot is not None and bool(file_tot) and \
            all(nm in file_tot for nm in counted)
        if file_tot:
            diffs = [(nm, counted.get(nm, 0), v) for nm, v in file_tot.items()
                     if nm in counted and counted[nm] != v]
            if official:
                use = {nm: file_tot[nm] for nm in counted}
            if diffs:
                figures = "; ".join(f"{nm}: precincts add up to {a:,}, the file's total "
                                    f"says {b:,}" for nm, a, b in diffs[:4])
                used = ("The file's totals are used for the contest total." if official else
                        "The file's totals do not cover every choice, so the precincts are "
                        "used.")
                if tup in raw.suppressed or n_hidden:
                    issues.append(Issue(
                        raw.file, f"{contest.key.label()}: some precinct counts are hidden "
                        f"(suppressed for voter privacy, or blank), so the precincts do not add "
                        f"up to the file's totals ({figures}). {used}",
                        raw.sheet, severity=Severity.NOTE if official else Severity.WARNING))
                else:
                    issues.append(Issue(
                        raw.file, f"{contest.key.label()}: the precincts do not add up to the "
                        f"file's own totals row ({figures}). {used}", raw.sheet,
                        severity=Severity.WARNING))
        elif n_hidden:
            issues.append(Issue(
                raw.file, f"{contest.key.label()}: {n_hidden:,} precinct count(s) are hidden "
                "(suppressed for voter privacy, or blank) and the file has no totals for this "
                "contest; its verdict cannot rest on these figures.", raw.sheet,
                severity=Severity.WARNING))
        extras_tot = {ExtraKind(k): int(ext[(ci_, k)]) for k in ("over", "under", "blank")
                      if (ci_, k) in ext}
        totals.append(ContestTotals(
            contest,
            tuple(ChoiceTotal(ch, use[ch.name]) for ch in choices[ci_]),
            extras_tot,
            int(nprec[ci_]) if ci_ < len(nprec) else 0,
            official=official,
            hidden_cells=n_hidden,
            hidden_max={nm: _most(ps, raw.ballots) for nm, ps in hid.items()
                        if nm in counted and ps != []},
            precinct_sums={nm: counted[nm] for nm in counted
                           if official and counted[nm] != use[nm]},
        ))

    extras_rows = ExtraRows(x_p, x_ck // nk, x_ck % nk, kind_names, x_sums)
    return ParsedCanvass(
        raw.file, raw.family, sha256, [str(p) for p in precinct_uniques], contests, choices,
        columns, extras_rows, totals, issues, is_primary, raw.election_name,
        raw.election_date, counties=raw.counties, sheet=raw.sheet,
    )


def _from_frame(raw: RawCanvass, df: pd.DataFrame, is_primary: bool,
                issues: list[Issue]) -> tuple[Any, ...]:
    """The rows' columns as codes, from the frame: (frame as read, rows, then codes and
    distinct values of contest, district, party, precinct, choice and kind, and the
    votes). In a primary the party of the race is the choice's."""
    import numpy as np
    import pandas as pd

    df = df.reset_index(drop=True)
    df = _unify_names(raw, df, issues)
    party = df["party"]
    if is_primary:
        # In a primary the race belongs to the party (DESIGN.md §2).
        # (on the cells as arrays: a frame's comparisons of categoricals cost milliseconds)
        own = party.to_numpy(dtype=object)
        merged = np.where(own != "", own, df["choice_party"].to_numpy(dtype=object))
        df = df.assign(party=merged)
        # Over/under rows carry no party: give them the contest's only party, if it has one.
        blank_party = (merged == "") & np.isin(df["kind"].to_numpy(dtype=object),
                                               ["over", "under", "blank"])
        if blank_party.any():
            parties = (df[df["party"] != ""].groupby(["contest", "district"])["party"]
                       .agg(lambda s: s.iloc[0] if s.nunique() == 1 else ""))
            fill = [parties.get((c, d), "") for c, d in
                    zip(df.loc[blank_party, "contest"], df.loc[blank_party, "district"],
                        strict=True)]
            df.loc[blank_party, "party"] = fill

    # Everything below works on integer codes (one per distinct text), never on the text of
    # each row: a statewide canvass has a million rows but only a few thousand names.
    n = len(df)
    t_codes, t_u = pd.factorize(df["contest"], sort=False, use_na_sentinel=False)
    d_codes, d_u = pd.factorize(df["district"], sort=False, use_na_sentinel=False)
    y_codes, y_u = pd.factorize(df["party"], sort=False, use_na_sentinel=False)
    precinct_codes, precinct_uniques = pd.factorize(df["precinct"], sort=False,
                                                    use_na_sentinel=False)
    choice_codes, choice_u = pd.factorize(df["choice"], sort=False, use_na_sentinel=False)
    kind_codes, kind_u = pd.factorize(df["kind"], sort=False)
    votes_all = df["votes"].to_numpy(dtype=np.int64)
    return (df, n, t_codes, t_u, d_codes, d_u, y_codes, y_u, precinct_codes,
            precinct_uniques, choice_codes, choice_u, kind_codes, kind_u, votes_all)


def _from_codes(raw: RawCanvass, coded: CodedRows, is_primary: bool,
                issues: list[Issue]) -> tuple[Any, ...] | None:
    """What :func:`_from_frame` gives, from rows held as codes without making their frame
    (and the choice party of every row, as codes and texts, and the names unified); None
    where the frame is needed: no rows, or a primary's over/under rows without a party."""
    import numpy as np

    n = len(coded)
    if not n:
        return None
    cols = coded.columns
    kind_codes, kind_u = _by_first(*cols["kind"])
    cp_codes, cp_texts = cols["choice_party"]
    if is_primary:
        # The race belongs to the party: the row's own party, else the choice's (as
        # _from_frame merges them), as codes into the distinct texts of both.
        p_codes, p_texts = cols["party"]
        parties: dict[str, int] = {}
        both = np.array([parties.setdefault(t, len(parties)) for t in [*p_texts, *cp_texts]],
                        dtype=np.intp)
        own = np.array([t != "" for t in p_texts], dtype=bool)[p_codes]
        merged = both[np.where(own, p_codes, len(p_texts) + cp_codes)]
        blank = np.array([t == "" for t in parties], dtype=bool)[merged] & np.isin(
            kind_codes, [i for i, k in enumerate(kind_u) if k in ("over", "under", "blank")])
        if blank.any():
            return None
        y_codes, y_u = _by_first(merged, list(parties))
    else:
        y_codes, y_u = _by_first(*cols["party"])
    # _unify_names on the codes: the names to spell otherwise merged, in the same order.
    choice_codes, choice_u = _by_first(*cols["choice"])
    final = _unified(raw, choice_u, issues)
    changed = {u: v for u, v in final.items() if u != v}
    if changed:
        index: dict[str, int] = {}
        remap = np.array([index.setdefault(changed.get(t, t), len(index)) for t in choice_u],
                         dtype=np.intp)
        choice_codes, choice_u = remap[choice_codes], list(index)
    t_codes, t_u = _by_first(*cols["contest"])
    d_codes, d_u = _by_first(*cols["district"])
    precinct_codes, precinct_uniques = _by_first(*cols["precinct"])
    return (n, t_codes, t_u, d_codes, d_u, y_codes, y_u, precinct_codes, precinct_uniques,
            choice_codes, choice_u, kind_codes, kind_u,
            coded.votes.astype(np.int64, copy=False), (cp_codes, cp_texts), changed)


_SMALL_ROWS = 1 << 12  # below this numpy's sort beats pandas' hashing (~50 µs a call)
_TINY_ROWS = 128  # below this a dict beats numpy's sort
_CHUNK = 1 << 20


def _factorize(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``pandas.factorize(values, sort=False)`` of integers: codes in order of first
    appearance and the distinct values in that order."""
    import numpy as np
    import pandas as pd

    if len(values) <= _TINY_ROWS:  # (numpy's sorts cost ~15 µs a call whatever the size)
        seen: dict[int, int] = {}
        codes = [seen.setdefault(v, len(seen)) for v in values.tolist()]
        return np.array(codes, dtype=np.intp), np.array(list(seen), dtype=values.dtype)
    if len(values) <= _SMALL_ROWS:
        used, first, inverse = np.unique(values, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(used), dtype=np.intp)
        rank[order] = np.arange(len(used))
        return rank[inverse.reshape(-1)], used[order]
    got = _ascending(values)
    if got is not None:
        return got
    codes, uniques = pd.factorize(values, sort=False)
    return codes, uniques


def _ascending(values: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The factorization of non-negative integers that first appear in ascending order
    (as codes already numbered in order of first appearance do, with some values unused):
    each value's rank among the values present. None when they are not so (then hashing
    is needed); found in a few passes over the array, several times faster than hashing."""
    import numpy as np

    top = int(values.max())
    if int(values.min()) < 0 or top >= max(len(values), 1 << 16):
        return None
    present = np.bincount(values, minlength=top + 1) > 0
    codes = (np.cumsum(present) - 1)[values]
    # Ranks in order of first appearance: the running maximum steps by one at a time.
    prev = -1
    for s in range(0, len(codes), _CHUNK):
        run = np.maximum(np.maximum.accumulate(codes[s:s + _CHUNK]), prev)
        if run[0] - prev > 1 or bool((np.diff(run) > 1).any()):
            return None
        prev = int(run[-1])
    return codes, np.flatnonzero(present).astype(values.dtype)


def _by_first(codes: np.ndarray, texts: list[str]) -> tuple[np.ndarray, list[str]]:
    """``pandas.factorize`` of a categorical column given as its codes into distinct
    ``texts``: codes in order of first appearance, and the texts that occur, in that
    order."""
    import numpy as np

    if len(texts) == 1:  # (a column the file lacks: one empty text)
        return np.zeros(len(codes), dtype=np.intp), list(texts[:len(codes) > 0])
    if len(codes) and int(codes[0]) == 0:
        # Codes numbered in order of first appearance (as a reader that codes as it reads
        # gives them), the texts after the last one used left out: they stand as they are.
        top = np.maximum.accumulate(codes)
        if not (np.diff(top) > 1).any():
            return codes.astype(np.intp), list(texts[:int(top[-1]) + 1])
    new, used = _factorize(codes)
    return new, [texts[k] for k in used.tolist()]


def _long_name(raw: RawCanvass, clean: str) -> Issue:
    return Issue(raw.file, f"A choice name of {len(clean):,} characters ({clean[:60]!r}…) "
                 "is not a candidate's name: check the file's columns (or shorten the name "
                 "in the file).", raw.sheet, severity=Severity.ERROR)


def _pick(column: pd.Series, rows: np.ndarray) -> list[object]:
    """The cells of ``rows`` of a column (of a categorical one through its codes, without
    making every cell an object)."""
    import pandas as pd

    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()[rows]
        if not (codes < 0).any():  # (an empty cell has no category)
            return list(column.cat.categories.to_numpy(dtype=object)[codes])
    return list(column.iloc[rows])


def _most(precincts: list[str] | None, ballots: dict[str, int]) -> int | None:
    """The most a choice's hidden cells could hold: each at most its precinct's ballots
    cast (a voter votes once for a candidate); None where a precinct's ballots are not
    known (or the precincts are not)."""
    if precincts is None or any(p not in ballots for p in precincts):
        return None
    return sum(ballots[p] for p in precincts)


def _seat_overrides(raw: RawCanvass, keys: list[tuple[str, str, str]],
                    given: dict[str, int], issues: list[Issue]) -> dict[int, int]:
    """The officer's seats (``--seats``) per contest position. A key is a contest's full
    name as check prints it ("Title — District 2 (REP)") or its title alone; a title that
    names several contests, or a key that names none, is an error (never a guess)."""
    if not given:
        return {}
    labels = [ContestKey(*k).label().casefold() for k in keys]
    out: dict[int, int] = {}
    for key, n in given.items():
        k = " ".join(key.split()).casefold()
        hits = [i for i, lab in enumerate(labels) if " ".join(lab.split()) == k]
        if not hits:
            hits = [i for i, t in enumerate(keys) if " ".join(t[0].split()).casefold() == k]
        if len(hits) == 1:
            out[hits[0]] = n
        elif not hits:
            issues.append(Issue(raw.file, f"--seats {key!r} names no contest of this file; "
                                "give the contest's name as check prints it.", raw.sheet,
                                severity=Severity.ERROR))
        else:
            names = ", ".join(repr(ContestKey(*keys[i]).label()) for i in hits[:6])
            issues.append(Issue(raw.file, f"--seats {key!r} names {len(hits)} contests "
                                f"({names}); give the full name of the one you mean, as "
                                "check prints it.", raw.sheet, severity=Severity.ERROR))
    return out


@functools.lru_cache(maxsize=1 << 14)
def _words(label: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[0-9]+|[^\W\d_]+", label.casefold()))


# Words that tell contests apart even when they look alike ('Council North', 'South').
_DISTINCT = frozenset({"north", "south", "east", "west", "northern", "southern", "eastern",
                       "western", "central", "upper", "lower", "full", "partial", "short",
                       "unexpired", "city", "town", "county"})


@functools.lru_cache(maxsize=1 << 14)
def _near(a: str, b: str) -> bool:
    """Two long words a letter apart (two for words of eight letters or more): insert,
    delete or replace. Never two words that name parts ('North', 'South')."""
    limit = 1 if max(len(a), len(b)) < 8 else 2
    if (min(len(a), len(b)) < 4 or not (a.isalpha() and b.isalpha())
            or abs(len(a) - len(b)) > limit or a in _DISTINCT or b in _DISTINCT):
        return False
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        cur = [i]
        for j, cb in enumerate(b, start=1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1] <= limit


@functools.lru_cache(maxsize=1 << 14)  # (a file's titles repeat their words)
def _deletions(word: str) -> tuple[str, ...]:
    """The word and its variants with up to one letter deleted (two for words of eight
    letters or more), in a fixed order."""
    variants = {word}
    for _ in range(1 if len(word) < 8 else 2):
        variants |= {v[:j] + v[j + 1:] for v in variants for j in range(len(v))}
    return tuple(sorted(variants))


@functools.lru_cache(maxsize=1 << 14)  # (asked of every word of every title)
def _never_near(word: str) -> bool:
    """A word :func:`_near` refuses whatever it is compared with."""
    return len(word) < 4 or not word.isalpha() or word in _DISTINCT


def _near_pairs(words: list[str]) -> set[tuple[str, str]]:
    """The pairs of distinct ``words`` that :func:`_near` accepts, found through the
    variants of each word with up to one deletion (two for words of eight letters or more):
    two words within that distance share one."""
    from itertools import combinations

    buckets: dict[str, list[str]] = defaultdict(list)
    for w in words:
        if _never_near(w):
            continue
        for v in _deletions(w):
            buckets[v].append(w)
    out = set()
    for group in buckets.values():
        for a, b in combinations(group, 2):
            if a != b and (b, a) not in out and _near(a, b):
                out.add((a, b))
    return out


@functools.lru_cache(maxsize=1 << 14)
def _run_together(words: tuple[str, ...]) -> tuple[str, ...]:
    """A title's words with the letters between two numbers written as one word: 'U.S.
    Senate', 'US Senate' and 'U S Senate' are ('ussenate',); numbers stay apart ('District
    1 2' is not 'District 12')."""
    out: list[str] = []
    for w in words:
        if out and w.isalpha() and out[-1].isalpha():
            out[-1] += w
        else:
            out.append(w)
    return tuple(out)


def _spelled_twice(raw: RawCanvass, contests: list[Contest], columns: list[VoteColumn]
                   ) -> list[Issue]:
    """Contests whose titles differ only in punctuation or spacing ('U.S. Senate', 'US
    Senate') or by a letter or two in one word, and that share no precinct: almost surely
    one contest spelled two ways (a scanned canvass: 'District' and 'Distriet'). Kept apart,
    but the officer is told, because a margin computed on either part is wrong. Numbers and
    one-letter words must agree ('District 69' and 'District 70', 'Seat A' and 'Seat B' are
    different contests)."""
    words = [_words(c.key.label()) for c in contests]
    by_mask: dict[tuple[int, int, tuple[str, ...]], list[int]] = defaultdict(list)
    pairs: set[tuple[int, int]] = set()
    exact: dict[tuple[str, ...], int] = {}
    together: dict[tuple[str, ...], int] = {}
    for k, w in enumerate(words):
        if w in exact:
            pairs.add((exact[w], k))
        else:
            joined = _run_together(w)
            if joined in together:  # (alike but for the spaces between letters)
                pairs.add((together[joined], k))
            together.setdefault(joined, k)
        exact.setdefault(w, k)
        for i, word in enumerate(w):
            if not _never_near(word):  # (two titles apart only there are never alike)
                by_mask[(len(w), i, w[:i] + w[i + 1:])].append(k)
    for (_, i, _), group in by_mask.items():
        if len(group) < 2:
            continue
        # Compare the distinct words in that place, and only those that share a deletion
        # variant (near-linear: 30,000 contests "Office 00001" … took minutes pairwise).
        by_word: dict[str, list[int]] = defaultdict(list)
        for k in group:
            by_word[words[k][i]].append(k)
        for wa, wb in _near_pairs(list(by_word)):
            for a in by_word[wa]:
                for b in by_word[wb]:
                    pairs.add((min(a, b), max(a, b)))
    if not pairs:
        return []
    precincts: dict[int, set[int]] = defaultdict(set)
    alike = {k for pair in pairs for k in pair}  # (only these contests' precincts matter)
    for col in columns:
        if col.contest in alike:
            precincts[col.contest].update(col.precincts)
    out = []
    for a, b in sorted(pairs):
        if precincts[a] & precincts[b]:
            continue  # both on the same ballots: two contests, however alike their names
        la, lb = contests[a].key.label(), contests[b].key.label()
        na, nb = (f"{n} precinct{'s' if n != 1 else ''}"
                  for n in (len(precincts[a]), len(precincts[b])))
        # Bound to each of the two: neither part's figures are the contest's, so neither
        # gets a verdict (the rest of the reading stands).
        for k, (this, n_this, other, n_other) in enumerate(((la, na, lb, nb),
                                                            (lb, nb, la, na))):
            out.append(Issue(
                raw.file, f"{this!r} ({n_this}) and {other!r} ({n_other}) look like one "
                "contest spelled two ways in the file: they share no precinct and their names "
                "differ only by a letter or punctuation. Read apart, neither one's figures are "
                "the contest's, so no verdict rests on either. Spell the contest one way and "
                "import the file again.", raw.sheet, severity=Severity.ERROR,
                contest=contests[(a, b)[k]].key, only_contest=True))
    return out


def _group_by_pair(pair_codes: np.ndarray, precincts: np.ndarray, n_pairs: int,
                   n_prec: int) -> tuple[np.ndarray, bool]:
    """The order that groups rows by pair code, ascending by precinct within each group, and
    whether some group holds a precinct twice."""
    import numpy as np

    if len(pair_codes) == 0:
        return np.zeros(0, dtype=np.int64), False
    # Files list their rows precinct by precinct, so a stable sort on the pair alone (a radix
    # sort when the codes fit in 16 bits) usually leaves each group in precinct order.
    small = pair_codes.astype(np.int16) if n_pairs < 2**15 else pair_codes
    order = np.argsort(small, kind="stable")
    grouped = pair_codes[order]
    same = grouped[1:] == grouped[:-1]
    step = np.diff(precincts[order])
    if np.any(same & (step < 0)):
        order = np.argsort(pair_codes.astype(np.int64) * max(n_prec, 1) + precincts,
                           kind="stable")
        grouped = pair_codes[order]
        same = grouped[1:] == grouped[:-1]
        step = np.diff(precincts[order])
    return order, bool(np.any(same & (step == 0)))


def _has_repeats(values: np.ndarray) -> bool:
    """Whether some value occurs twice (a sort, without np.unique's further passes)."""
    import numpy as np

    ordered = np.sort(values)
    return bool((ordered[1:] == ordered[:-1]).any())


def _first_occurrences(codes: np.ndarray) -> np.ndarray:
    """Positions where each code first appears, for codes numbered in order of appearance."""
    import numpy as np

    if len(codes) == 0:
        return np.zeros(0, dtype=np.int64)
    seen = np.maximum.accumulate(codes)
    return np.flatnonzero(np.concatenate(([True], codes[1:] > seen[:-1])))


# A raw row's cell as text (column, row) and the file's row of each raw row (or None).
Cells = tuple[Callable[[str, int], str], "np.ndarray | None"]


def _frame_cells(df: pd.DataFrame) -> Cells:
    """The cells of the rows' frame."""
    return ((lambda name, i: str(df[name].iloc[i])),
            df["row"].to_numpy() if "row" in df.columns else None)


def _coded_cells(coded: CodedRows | None, renamed: dict[Any, str], is_primary: bool) -> Cells:
    """The cells of rows held as codes, as their frame would give them with the choices'
    names unified (``renamed``) and, in a primary, the race's party its own or else the
    choice's (no frame is made: a few rows are named)."""
    assert coded is not None
    cols = coded.columns

    def cell(name: str, i: int) -> str:
        if name == "party" and is_primary:  # (the race's party: its own, else the choice's)
            codes, texts = cols[name]
            if own := str(texts[int(codes[i])]):
                return own
            name = "choice_party"
        codes, texts = cols[name]
        text = str(texts[int(codes[i])])
        return renamed.get(text, text) if name == "choice" else text

    return cell, coded.row if coded.has_rows else None


def _duplicates(raw: RawCanvass, cells: Cells, rowkey: np.ndarray,
                votes: np.ndarray, issues: list[Issue]) -> np.ndarray:
    """Rows that repeat a (precinct, contest, choice, kind): identical repeats are counted
    once with a warning; repeats that disagree are errors. Returns the rows to keep.
    ``votes``: each row's; ``cells``: the rows' cells, to name disagreeing repeats (found
    here by sorting the keys)."""
    import numpy as np

    # By key, then votes; equal ones keep the file's order (a stable sort).
    order = np.lexsort((votes, rowkey))
    k_s, v_s = rowkey[order], votes[order]
    same_key = k_s[1:] == k_s[:-1]
    same_pair = same_key & (v_s[1:] == v_s[:-1])
    exact = order[1:][same_pair]  # a (key, votes) after its first row
    bad_keys = np.unique(k_s[1:][same_key & ~same_pair])  # a key with several votes
    if len(bad_keys):
        at_bad = np.flatnonzero(np.isin(rowkey, bad_keys))
        bad = list(dict.fromkeys(rowkey[at_bad].tolist()))  # in order of first appearance
        cell, file_rows = cells
        for k in bad[:20]:
            rows = at_bad[rowkey[at_bad] == k]
            r0 = int(rows[0])
            title = cell("contest", r0)
            choice = cell("choice", r0)
            precinct = cell("precinct", r0)
            shown = ", ".join(str(v) for v in votes[rows].tolist())
            where, first_row = "", None
            if file_rows is not None:  # the file's row numbers, where the reader kept them
                numbers = [int(r) for r in file_rows[rows].tolist()]
                where, first_row = " (rows " + ", ".join(map(str, numbers)) + ")", numbers[0]
            issues.append(Issue(
                raw.file, f"Duplicate rows disagree for {choice!r} in {title!r}, precinct "
                f"{precinct!r}{where}: {shown}. Correct the file in the election system's "
                "export, or remove the wrong rows.", raw.sheet, first_row,
                severity=Severity.ERROR, contest=ContestKey(
                    title, cell("district", r0), cell("party", r0))))
        if len(bad) > 20:
            issues.append(Issue(raw.file, f"… and {len(bad) - 20} more disagreeing duplicates.",
                                raw.sheet, severity=Severity.ERROR))
    alive = np.ones(len(rowkey), dtype=bool)
    if len(exact):
        issues.append(Issue(raw.file, f"{len(exact)} exact duplicate row(s) were counted once.",
                            raw.sheet, severity=Severity.WARNING))
        alive[exact] = False
    return alive
