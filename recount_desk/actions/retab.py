"""Load the tabulators' re-tabulated statement of votes as a recount's tallies (issue 15).

The officer of a started recount (method: re-tabulation) picks the file the election system
printed after running the ballots again — any family the canvass importers read, one sheet
of a workbook if asked — and the contest in it. ``preview_load`` reads it and says what a
load would record and how it compares with the canvass, writing nothing; ``load_retab``
records it as ONE audited action: one tally per unit, the file's name and SHA-256, who
loaded it. ``hand_count_unit`` sets a loaded unit aside for a hand count, with a note.
The rules (which contest, which precinct, what is refused) live in ``core.retab``.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import overload

from recount_desk import formats, store
from recount_desk.core.model import ChoiceKind, Issue, Severity
from recount_desk.core.recount import (
    EnvelopeOutcome,
    RecountMethod,
    UnitStatus,
)
from recount_desk.core.retab import (
    ContestMatch,
    FileContest,
    FilePrecinct,
    FileTable,
    LoadComparison,
    LoadPlan,
    LoadProblem,
    ProblemKind,
    UnitSource,
    compare_load,
    plan_load,
    propose_contest,
)
from recount_desk.formats import ImportFailed, ParsedCanvass, ReadOptions
from recount_desk.formats.base import CodedRawCanvass
from recount_desk.store import recount_repo as rr

from .case import Case
from .recount import (
    Loaded,
    RecountError,
    ensure_started,
    ensure_writable,
    load_recount,
    withdraw_stale_declaration,
)

__all__ = ["ImportFailed", "RetabFile", "RetabPreview", "RetabRefused", "hand_count_unit",
           "load_retab", "preview_load", "read_retab_file", "unit_sources"]

LOADED_OFFICER = "re-tabulation"


class RetabRefused(RecountError):
    """The file cannot be loaded as it is (or its listed problems were not confirmed);
    every problem is listed and nothing was changed."""

    def __init__(self, message: str, problems: Sequence[LoadProblem] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)


# --------------------------------------------------------------------------------------
# Reading the file
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RetabFile:
    """A re-tabulated statement as read: its contests, and each contest's precincts."""

    path: Path
    file: str
    sha256: str
    family: str
    sheet: str | None
    contests: tuple[FileContest, ...]
    precincts: Mapping[int, tuple[FilePrecinct, ...]]  # file contest index → its precincts
    issues: tuple[Issue, ...]

    def table(self, index: int) -> FileTable:
        """The precincts of the file's contest ``index`` as columns (none: no such contest)."""
        if isinstance(self.precincts, _Precincts):
            try:
                return self.precincts.table(index)
            except KeyError:
                return FileTable.of(())
        return FileTable.of(self.precincts.get(index, ()))

    def contest(self, index: int) -> FileContest:
        for c in self.contests:
            if c.index == index:
                return c
        raise RecountError(f"{self.file} has no contest number {index}.")


def read_retab_file(path: Path | str, *, sheet: str | None = None,
                    cancelled: Callable[[], bool] | None = None) -> RetabFile:
    """Read a re-tabulated statement with the canvass readers; raises ImportFailed."""
    path = Path(path)
    opts = ReadOptions(sheet=sheet)
    if cancelled is not None:
        opts.cancelled = cancelled
    # As the canvass is read (one pipeline: detection, the family's reading with the
    # collector held off, the build, the plausibility gate), with the raw rows beside.
    raw, parsed = formats.read_canvass_with_raw(path, options=opts)
    if opts.cancelled():
        raise formats.Cancelled()
    if parsed.errors:
        first = parsed.errors[0]
        raise ImportFailed(Issue(first.file, f"{first.message} ({len(parsed.errors)} "
                                 "error(s) in the file; nothing was loaded)", first.sheet,
                                 first.row, first.column, Severity.ERROR))
    warnings: dict[tuple[str, str], list[tuple[int, str]]] = {}
    rows = _FirstRows(raw)
    located = [i for i in parsed.issues if i.row is not None and i.severity is not Severity.NOTE]
    if located:
        df = raw.rows
        at = df[df["row"].isin([i.row for i in located])] if "row" in df.columns else df[:0]
        contest_of = {int(r): (str(c), str(d)) for r, c, d in
                      zip(at["row"], at["contest"], at["district"], strict=True)}
        for i in located:
            key = contest_of.get(int(i.row or 0))
            if key is not None:
                warnings.setdefault(key, []).append((int(i.row or 0), i.message))
    suppressed = {(str(c), str(d)) for c, d, _ in raw.suppressed}
    return _file_of(path, parsed, raw.sheet or sheet, rows, suppressed, warnings)


class _FirstRows:
    """Each precinct's first row in the file, by contest, made the first time a row is
    asked for: only a message names one (a precinct the canvass lacks, a blank count), so
    the usual load never makes them (on 9,000 rows they cost a third of a millisecond)."""

    def __init__(self, raw: formats.RawCanvass) -> None:
        self._raw: formats.RawCanvass | None = raw
        self._rows: Mapping[tuple[str, str], Mapping[str, int]] = {}

    def of(self, key: tuple[str, str]) -> Mapping[str, int]:
        if self._raw is not None:
            self._rows, self._raw = _first_rows(self._raw), None
        return self._rows.get(key, {})


class _RowsOf(Sequence[int | None]):
    """A contest's precincts' first rows (``FileTable.rows``), made when first read."""

    def __init__(self, first: _FirstRows, key: tuple[str, str], names: Sequence[str]) -> None:
        self._first, self._key, self._names = first, key, names
        self._got: list[int | None] | None = None

    def _list(self) -> list[int | None]:
        if self._got is None:
            rows = self._first.of(self._key)
            self._got = list(map(rows.get, self._names))
        return self._got

    def __len__(self) -> int:
        return len(self._names)

    @overload
    def __getitem__(self, i: int) -> int | None: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[int | None]: ...

    def __getitem__(self, i: int | slice) -> int | Sequence[int | None] | None:
        return self._list()[i]


def _first_rows(raw: formats.RawCanvass) -> Mapping[tuple[str, str], Mapping[str, int]]:
    """(contest, district) as the file spells them → precinct → the file's first row of it.
    Rows held as codes (a long table) are grouped by their codes, one key per distinct
    triple; a frame (the other families) by pandas."""
    import numpy as np

    coded = raw.codes() if isinstance(raw, CodedRawCanvass) else None
    out: dict[tuple[str, str], dict[str, int]] = {}
    if coded is not None:
        if not len(coded):
            return {}
        (c, ct), (d, dt), (p, pt) = (coded.columns[k] for k in ("contest", "district",
                                                                  "precinct"))
        nd, npr = max(1, len(dt)), max(1, len(pt))
        key = (c.astype(np.int64) * nd + d) * npr + p
        order = np.lexsort((coded.row, key))  # by key, then row: the first row of each key
        k = key[order]
        first = np.ones(len(k), dtype=bool)
        first[1:] = k[1:] != k[:-1]
        k, r = k[first], coded.row[order][first].astype(np.int64)
        cd = k // npr  # (contest, district): sorted, so each one's precincts are together
        starts = np.flatnonzero(np.r_[True, cd[1:] != cd[:-1]]).tolist()
        qs, rs = (k % npr).tolist(), r.tolist()
        for s, e in zip(starts, [*starts[1:], len(qs)], strict=True):
            a, b = divmod(int(cd[s]), nd)
            out[(ct[a], dt[b])] = dict(zip(map(pt.__getitem__, qs[s:e]), rs[s:e],
                                           strict=True))
        return out
    df = raw.rows
    if "row" not in df.columns or not len(df):
        return {}
    first_rows = df.groupby(["contest", "district", "precinct"], sort=False,
                            observed=True)["row"].min()
    idx = first_rows.index  # (its levels as lists: iterating the index is slower)
    keys = zip(*(idx.get_level_values(i).astype(str).tolist() for i in range(3)), strict=True)
    for (title, district, precinct), row in zip(keys, first_rows.astype("int64").tolist(),
                                                strict=True):
        out.setdefault((title, district), {})[precinct] = row
    return out


class _Precincts(Mapping[int, tuple[FilePrecinct, ...]]):
    """file contest index → its precincts as the file gives them, each contest's made the
    first time it is asked for (a load uses one contest of a file that may hold hundreds)."""

    def __init__(self, parsed: ParsedCanvass,
                 rows: _FirstRows) -> None:
        self._parsed = parsed
        self._rows = rows
        self._made: dict[int, tuple[FilePrecinct, ...]] = {}
        self._tables: dict[int, FileTable] = {}
        by: dict[int, list[int]] = {}
        for k, col in enumerate(parsed.columns):
            by.setdefault(col.contest, []).append(k)
        self._columns = by
        over: dict[tuple[int, int], int] = {}
        under: dict[tuple[int, int], int] = {}
        has_extras: set[int] = set()
        for p, c, kind, n in parsed.extras:
            if kind == "over":
                over[(c, p)] = over.get((c, p), 0) + n
                has_extras.add(c)
            elif kind in ("under", "blank"):
                under[(c, p)] = under.get((c, p), 0) + n
                has_extras.add(c)
        self._over, self._under, self._has_extras = over, under, has_extras

    def __len__(self) -> int:
        return len(self._parsed.contests)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self._parsed.contests)))

    def __getitem__(self, ci: int) -> tuple[FilePrecinct, ...]:
        got = self._made.get(ci)
        if got is None:
            t = self.table(ci)
            got = self._made[ci] = tuple(t.precinct(i) for i in range(len(t)))
        return got

    def table(self, ci: int) -> FileTable:
        """The contest's precincts as columns (what a load uses: no object per precinct)."""
        got = self._tables.get(ci)
        if got is None:
            if not isinstance(ci, int) or not 0 <= ci < len(self._parsed.contests):
                raise KeyError(ci)
            got = self._tables[ci] = self._table(ci)
        return got

    def _table(self, ci: int) -> FileTable:
        parsed = self._parsed
        names = parsed.precincts
        key = parsed.contests[ci].key
        cols = [parsed.columns[k] for k in self._columns.get(ci, ())]
        choice_names = [parsed.choices[ci][col.choice].name for col in cols]
        where = [_ints(col.precincts) for col in cols]
        ext = ci in self._has_extras
        over, under = self._over, self._under
        extra_ps = {p for (c, p) in (*over, *under) if c == ci} if ext else set()
        first = where[0] if where else []
        order: list[int]  # the contest's precincts (0-based), in the precincts' order
        votes: dict[str, Sequence[int | None]] = {}
        if all(w == first for w in where[1:]) and first == sorted(first) and \
                len(set(first)) == len(first) and \
                (not extra_ps or extra_ps <= {p - 1 for p in first}):
            # every choice given in the same precincts (the usual case): its column as it is
            order = [p - 1 for p in first]
            for name, col in zip(choice_names, cols, strict=True):
                votes[name] = _ints(col.votes)
        else:
            per: dict[int, dict[str, int]] = {}
            for name, ps, col in zip(choice_names, where, cols, strict=True):
                for p, v in zip(ps, _ints(col.votes), strict=True):
                    got = per.get(p - 1)
                    if got is None:
                        got = per[p - 1] = {}
                    got[name] = v
            order = sorted(set(per) | extra_ps) if extra_ps else sorted(per)
            nothing: dict[str, int] = {}
            for name in dict.fromkeys(choice_names):
                votes[name] = [per.get(p, nothing).get(name) for p in order]
        pnames = list(map(names.__getitem__, order))
        n = len(order)
        return FileTable(pnames, _RowsOf(self._rows, (key.title, key.district), pnames), votes,
                         [over.get((ci, p), 0) for p in order] if ext else [None] * n,
                         [under.get((ci, p), 0) for p in order] if ext else [None] * n)


def _ints(values: Sequence[int]) -> list[int]:
    """A column of counts (an array or a list) as a list of ints."""
    if isinstance(values, array) and values.typecode in "bBhHiIlLqQ":
        return values.tolist()
    kind = getattr(getattr(values, "dtype", None), "kind", "")
    if kind in ("i", "u"):
        return values.tolist()  # type: ignore[attr-defined,no-any-return]
    return [int(v) for v in values]


def _file_of(path: Path, parsed: ParsedCanvass, sheet: str | None,
             rows: _FirstRows,
             suppressed: set[tuple[str, str]],
             warnings: Mapping[tuple[str, str], list[tuple[int, str]]]) -> RetabFile:
    contests: list[FileContest] = []
    for ci, contest in enumerate(parsed.contests):
        ch = parsed.choices[ci]
        contests.append(FileContest(
            ci, contest.key, tuple(c.name for c in ch if c.kind is not ChoiceKind.WRITE_IN),
            tuple(c.name for c in ch if c.kind is ChoiceKind.WRITE_IN),
            (contest.key.title, contest.key.district) in suppressed,
            tuple(warnings.get((contest.key.title, contest.key.district), ()))))
    return RetabFile(path, parsed.file, parsed.sha256, parsed.family, sheet, tuple(contests),
                     _Precincts(parsed, rows), tuple(parsed.issues))


# --------------------------------------------------------------------------------------
# What a load would do
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RetabPreview:
    """What loading the file would record, and how it compares with the canvass."""

    contest_id: int
    title: str
    file: RetabFile
    matches: tuple[ContestMatch, ...]
    chosen: FileContest
    plan: LoadPlan
    comparison: LoadComparison
    replaced: tuple[str, ...]  # units loaded before, whose tally this load replaces
    kept: tuple[str, ...]  # units hand-entered, which the load leaves as they are
    made_on: str = ""  # the hash of the case's last audit entry when the preview was made
    # The recount as read for the preview: the load's transaction uses it while the case is
    # still at ``made_on`` (checked against its log at the start of the transaction).
    recount: Loaded | None = field(default=None, repr=False, compare=False)
    # The recount's units as read for the preview (their ids beside the plan's units).
    units: rr.UnitTable | None = field(default=None, repr=False, compare=False)

    @property
    def problems(self) -> tuple[LoadProblem, ...]:
        return self.plan.problems

    @property
    def refused(self) -> bool:
        return self.plan.refused

    @property
    def needs_confirmation(self) -> bool:
        """Listed problems (units left for hand counting) the officer must confirm."""
        return any(not p.refuses for p in self.plan.problems)

    def lines(self) -> list[str]:
        """The comparison as text, as the command line prints it."""
        c = self.comparison
        out = [f"{self.file.file} (SHA-256 {self.file.sha256})"
               + (f", sheet {self.file.sheet!r}" if self.file.sheet else "")
               + f": contest {self.chosen.label!r} as the recount of {self.title}."]
        width = max([len(r.unit) for r in c.rows] + [8])
        out.append(f"{'':<{width}}" + "".join(f"  {ch[:22]:^22}" for ch in c.choices))
        out.append(f"{'Unit':<{width}}" + "  canvass  recount  change" * len(c.choices))
        for r in c.rows:
            cells = []
            for ch in c.choices:
                if r.recount is None:
                    cells.append(f"  {r.canvass[ch]:>7,}  {'open':>7}  {'':>6}")
                else:
                    d = r.recount[ch] - r.canvass[ch]
                    cells.append(f"  {r.canvass[ch]:>7,}  {r.recount[ch]:>7,}  {d:>+6,}")
            tag = {"file": "", "kept": "  (hand-entered, kept)", "open": "  (open)"}[r.source]
            out.append(f"{r.unit:<{width}}" + "".join(cells) + tag)
        out.append("Total: " + "; ".join(
            f"{ch} {c.canvass_total[ch]:,} → {c.recount_total[ch]:,} "
            f"({c.change_total[ch]:+,})" for ch in c.choices))
        out.append(f"{c.units_counted} of {c.units_total} units counted after the load. "
                   + c.result_text)
        if c.envelope_note:
            out.append(c.envelope_note)
        if self.replaced:
            out.append(f"Replaces the earlier load of {len(self.replaced)} unit(s).")
        if self.kept:
            out.append(f"Keeps {len(self.kept)} hand-entered unit(s): {', '.join(self.kept)}.")
        for p in self.problems:
            where = f" ({p.where()})" if p.where() else ""
            out.append(("REFUSED: " if p.refuses else "Listed: ") + p.text + where)
        return out


def _prepare(case: Case, contest_id: int, f: RetabFile, file_contest: int | None
             ) -> RetabPreview:
    conn = case.conn
    # The units as columns; of the recount's model only the units already entered by hand
    # (the load leaves them as they are, and their state says whether they count) and the
    # contest-wide parts: a countywide recount has thousands of units, none entered yet.
    pnames = rr.precinct_name_map(conn)
    table = rr.unit_table(conn, contest_id, pnames)
    # (a case with no tally yet, hand-entered or loaded — the first load of most recounts —
    # has neither: known from two rows looked for, not from a join with every unit)
    entered = rr.has_tallies(conn)
    loaded = rr.loaded_units(conn, contest_id) if entered else {}
    # Hand-entered: a unit not loaded that has an entry (a unit without any is not started,
    # core.recount.unit_state); only those units' states are needed.
    hand_ids = rr.units_with_entries(conn, contest_id) - loaded.keys() if entered else set()
    names = table.units.names
    hand = [n for i, n in zip(table.ids, names, strict=True) if i in hand_ids] \
        if hand_ids else []
    replaced = tuple(n for i, n in zip(table.ids, names, strict=True) if i in loaded) \
        if loaded else ()
    ctx = load_recount(case, contest_id, hand)
    settings = ensure_started(ctx)
    if settings.method is not RecountMethod.RETABULATION:
        raise RecountError(f"The recount of {ctx.title} is a {settings.method.label.lower()}; "
                           "a re-tabulated statement is loaded only into a re-tabulation.")
    if not f.contests:
        raise RetabRefused(f"{f.file} holds no contest results.")
    matches = propose_contest(ctx.totals.contest.key, ctx.layout.choices, f.contests)
    chosen = f.contest(file_contest) if file_contest is not None else matches[0].contest
    records = ctx.model.units
    canvass_precincts, by_choice = rr.contest_canvass_columns(conn, contest_id, pnames)
    plan = plan_load(ctx.layout, table.units, canvass_precincts, chosen,
                     f.table(chosen.index), skip_units=hand)
    kept = {}
    for n in hand:
        st = ctx.model.state(records[n])
        if st.status.counts and st.final is not None:
            kept[n] = st.final
    env: dict[str, int] = dict.fromkeys(ctx.layout.choices, 0)
    for e in ctx.envelopes:
        if e.record.outcome is EnvelopeOutcome.ACCEPTED and e.record.votes is not None:
            for c in ctx.layout.choices:
                env[c] += e.record.votes.votes.get(c, 0)
    comparison = compare_load(ctx.totals, ctx.layout, table.units, by_choice, plan.sheets,
                              kept, env)
    return RetabPreview(contest_id, ctx.title, f, matches, chosen, plan, comparison,
                        replaced, tuple(hand), store.last_hash(conn) or "", ctx, table)


def preview_load(case: Case, contest_id: int, source: RetabFile | Path | str, *,
                 sheet: str | None = None, file_contest: int | None = None) -> RetabPreview:
    """What loading ``source`` into the contest's recount would record; writes nothing.

    ``file_contest``: the index of the file's contest to use (default: the best match).
    """
    f = source if isinstance(source, RetabFile) else read_retab_file(source, sheet=sheet)
    return _prepare(case, contest_id, f, file_contest)


@dataclass(frozen=True)
class LoadResult:
    load_id: int
    loaded: int
    left_for_hand: tuple[str, ...]
    preview: RetabPreview


def load_retab(case: Case, preview: RetabPreview, *, confirm: bool = False) -> LoadResult:
    """Record the re-tabulated figures as the recount's tallies: ONE audited action.

    The plan is made again inside the transaction from the file as read (so a unit
    entered meanwhile is respected). Refused whole, with every problem listed, when the
    file names a precinct or candidate the canvass does not have; units the file lacks or
    leaves blank are listed and loaded only with ``confirm`` (they stay for a hand count).
    """
    cid = preview.contest_id
    f = preview.file
    with store.transaction(case.conn, case.actor, "load re-tabulated results") as tx:
        # The preview holds unless the case changed since (then it is made again, here).
        same = bool(preview.made_on) and store.last_hash(case.conn) == preview.made_on \
            and preview.recount is not None and preview.recount.conn is case.conn
        ctx = preview.recount if same and preview.recount is not None else \
            load_recount(case, cid, [])
        ensure_writable(case, ctx)
        fresh = preview if same else _prepare(case, cid, f, preview.chosen.index)
        ctx = fresh.recount or ctx
        plan = fresh.plan
        if plan.refused:
            bad = [p for p in plan.problems if p.refuses]
            raise RetabRefused(
                f"{f.file} was not loaded: {len(bad)} problem(s) — "
                f"{bad[0].text}" + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else "")
                + " Nothing was changed.", plan.problems)
        if not plan.sheets:
            raise RetabRefused(f"{f.file} was not loaded: it gives no unit's complete "
                               "figures. Nothing was changed.", plan.problems)
        if fresh.needs_confirmation and not confirm:
            listed = [p for p in plan.problems if not p.refuses]
            raise RetabRefused(
                f"{f.file}: {len(listed)} unit(s) are not in the file or have blank figures "
                "(listed); confirm to load the others and count these by hand. Nothing was "
                "changed.", plan.problems)
        load_id = rr.add_load(tx, cid, file=f.file, sha256=f.sha256, family=f.family,
                              sheet=f.sheet, file_contest=preview.chosen.label,
                              units=len(plan.sheets), loaded_at=store.utc_now(),
                              loaded_by=case.actor)
        cids = rr.choice_ids(case.conn, cid)
        now = store.utc_now()
        officer = f"{LOADED_OFFICER}: {f.file}"
        units = fresh.units or rr.unit_table(case.conn, cid)
        ids = units.ids
        tallies = rr.add_load_columns(tx, load_id, [ids[i] for i in plan.index],
                                      plan.tallies, cids, officer, now, case.actor)
        if fresh.replaced:
            id_of = dict(zip(units.units.names, ids, strict=True))
            for unit in fresh.replaced:
                if unit in plan.sheets:
                    rr.set_source_note(tx, id_of[unit], "")
        withdraw_stale_declaration(case, ctx, tx)
        c = fresh.comparison
        tx.update({
            "contest_id": cid, "contest": ctx.title, "load_id": load_id, "file": f.file,
            "sha256": f.sha256, "family": f.family, "sheet": f.sheet,
            "file_contest": preview.chosen.label, "units_loaded": len(plan.sheets),
            "units_total": plan.units_total, "replaced": list(fresh.replaced),
            "kept": list(fresh.kept),
            "left_for_hand": [{"unit": p.unit, "problem": p.text, "row": p.row}
                              for p in plan.problems if not p.refuses],
            "totals": {ch: c.recount_total[ch] for ch in c.choices},
            # each unit's figures are in the load's stored tallies (one row, which the
            # state digest covers); their own digest is recorded here too
            "units": list(plan.units), "tallies_sha256": tallies,
        })
    return LoadResult(load_id, len(plan.sheets), plan.left_for_hand, fresh)


# --------------------------------------------------------------------------------------
# Mixed recounts
# --------------------------------------------------------------------------------------


def hand_count_unit(case: Case, contest_id: int, unit: str, *, note: str) -> None:
    """Set a loaded unit aside for a hand count (a damaged batch, a precinct the tabulator
    could not read): its loaded tally is kept in history, the note says why; the unit is
    then entered like any hand-counted sheet."""
    note = (note or "").strip()
    if not note:
        raise RecountError("Say why this unit is counted by hand instead of loaded (the note "
                           "is kept with the unit).")
    with store.transaction(case.conn, case.actor, "hand count loaded unit") as tx:
        ctx = load_recount(case, contest_id)
        ensure_writable(case, ctx)
        ensure_started(ctx)
        su = ctx.unit(unit)
        load_id = rr.loaded_units(case.conn, contest_id).get(su.id)
        if load_id is None:
            raise RecountError(f"{unit} was not loaded from a re-tabulated file; enter or "
                               "re-enter its sheet as usual.")
        rr.set_aside_loaded(tx, contest_id, su.id, store.utc_now(), case.actor)
        rr.set_source_note(tx, su.id, note)
        withdraw_stale_declaration(case, ctx, tx)
        tx.update({"contest_id": contest_id, "contest": ctx.title, "unit": unit,
                        "load_id": load_id, "note": note})


@dataclass(frozen=True)
class SourceInfo:
    """Where a unit's tally comes from, for the variance view and the report."""

    source: UnitSource
    text: str
    note: str
    load: rr.StoredLoad | None

    @property
    def short(self) -> str:
        """For a table column: where the figures come from, in a few words."""
        if self.source is UnitSource.LOADED and self.load is not None:
            return "loaded"  # the Start panel and the report name the file
        if self.source is UnitSource.HAND:
            return "hand count" + (f" — {self.note}" if self.note else "")
        return "—" + (f" (for a hand count: {self.note})" if self.note else "")


def unit_sources(case: Case, contest_id: int, ctx: Loaded | None = None
                 ) -> dict[str, SourceInfo]:
    """unit name → its source: loaded from FILE (SHA-256 …), hand-entered, or none yet
    (``ctx``: the recount as the caller already read it in this action)."""
    ctx = ctx or load_recount(case, contest_id)
    loaded = rr.loaded_units(case.conn, contest_id)
    by_id = {ld.id: ld for ld in rr.loads(case.conn, contest_id)}
    notes = rr.source_notes(case.conn, contest_id)
    out: dict[str, SourceInfo] = {}
    for su, st in zip(ctx.stored_units, ctx.states, strict=True):
        note = notes.get(su.id, "")
        if su.id in loaded:
            ld = by_id[loaded[su.id]]
            out[su.unit.name] = SourceInfo(UnitSource.LOADED,
                                           f"re-tabulation, loaded from {ld.file}", note, ld)
        elif st.status is not UnitStatus.NOT_STARTED:
            out[su.unit.name] = SourceInfo(
                UnitSource.HAND, "hand-entered" + (f" (replaces the loaded figures: {note})"
                                                   if note else ""), note, None)
        else:
            out[su.unit.name] = SourceInfo(UnitSource.NONE, "not entered yet"
                                           + (f" (set aside for a hand count: {note})"
                                              if note else ""), note, None)
    return out


def loads(case: Case, contest_id: int) -> list[rr.StoredLoad]:
    """Every re-tabulation load of the contest, oldest first."""
    return rr.loads(case.conn, contest_id)


def refusal_problems(problems: Sequence[LoadProblem]) -> list[str]:
    """The problems as lines: refused ones first."""
    order = sorted(problems, key=lambda p: (not p.refuses, p.kind != ProblemKind.NO_CONTEST))
    return [("Refused: " if p.refuses else "Listed: ") + p.text
            + (f" ({p.where()})" if p.where() else "") for p in order]
