"""core.retab as columns: the plan and the comparison of a load, made column by column for a
countywide statement (session 7), give exactly what they gave when made unit by unit.

``reference_plan`` and ``reference_compare`` below are the unit-by-unit rules as they stood
before (kept here as the yardstick); random files — names spelled otherwise, codes, unknown
and repeated precincts, blank cells, write-ins, over- and under-votes, units of several
precincts, hand-entered units — must give the same sheets, rows, problems (every text) and
comparison either way.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from recount_desk.core.model import (
    Choice,
    ChoiceTotal,
    Contest,
    ContestKey,
    ContestTotals,
)
from recount_desk.core.recount import RecountUnit, SheetLayout, TallySheet
from recount_desk.core.retab import (
    WRITE_IN,
    CanvassColumns,
    FileContest,
    FilePrecinct,
    FileTable,
    LoadProblem,
    ProblemKind,
    SheetColumns,
    UnitColumns,
    UnitComparison,
    _winners,
    compare_load,
    map_choices,
    match_precinct,
    norm_words,
    plan_load,
    precinct_matcher,
)


def reference_plan(layout: SheetLayout, units: Sequence[RecountUnit], canvass_precincts:
              Sequence[str], file_contest: FileContest,
              file_precincts: Sequence[FilePrecinct],
              skip_units: Iterable[str] = ()) -> tuple[dict[str, TallySheet], dict[str, tuple[int, ...]], list[LoadProblem]]:
    """The plan as it was made unit by unit, before the columns (session 7)."""
    choice_map, problems = map_choices(layout, file_contest)
    # A file's precinct is the canvass precinct of its folded full name, as
    # ``match_precinct`` finds it (a full name wins over another's code); the matcher of
    # codes is made only for a name that is not a full name (one fold per name).
    full: dict[str, str] = {}
    for p in canvass_precincts:
        full[norm_words(p)] = p
    by_code: dict[str, str] | None = None
    unit_of = {p: u.name for u in units for p in u.precincts}
    found: dict[str, FilePrecinct] = {}
    for fp in file_precincts:
        hit = full.get(norm_words(fp.name))
        if hit is None:
            if by_code is None:
                by_code = precinct_matcher(canvass_precincts)
            hit = match_precinct(fp.name, by_code)
        if hit is None or hit not in unit_of:
            problems.append(LoadProblem(
                ProblemKind.UNKNOWN_PRECINCT,
                f"Precinct {fp.name!r} is not a precinct of this contest in the canvass: the "
                "file cannot be loaded (its votes would have nowhere to go).",
                precinct=fp.name, row=fp.row))
        elif hit in found:
            problems.append(LoadProblem(
                ProblemKind.DUPLICATE_PRECINCT,
                f"Precinct {fp.name!r} appears twice (also as {found[hit].name!r}"
                + (f", row {found[hit].row}" if found[hit].row is not None else "")
                + "): the file cannot be loaded.", unit_of[hit], fp.name, fp.row))
        else:
            found[hit] = fp
    sheets: dict[str, TallySheet] = {}
    rows: dict[str, tuple[int, ...]] = {}
    skip = set(skip_units)
    mapped = list(choice_map.items())
    has_write_ins = any(v == WRITE_IN for v in choice_map.values())
    # A unit of one precinct whose every candidate is given (most units): its figures as
    # they are, the candidates in the sheet's order.
    plain = {t: fc for fc, t in mapped if t != WRITE_IN}
    whole = set(plain) == set(layout.choices)
    plain_names = [plain[c] for c in layout.choices] if whole else []
    wi_names = [fc for fc, t in mapped if t == WRITE_IN]
    with_wi = layout.write_in_line
    for u in units:
        if u.name in skip:
            continue
        if whole and len(u.precincts) == 1 and (one := found.get(u.precincts[0])) is not None:
            fvotes = one.votes
            vals = [fvotes.get(fc) for fc in plain_names]
            if None not in vals:
                wi: int | None = None
                if has_write_ins:
                    wi = 0
                    for fc in wi_names:
                        v = fvotes.get(fc)
                        if v is not None:
                            wi += v
                sheets[u.name] = TallySheet(None, dict(zip(layout.choices, vals, strict=True)),
                                            wi if with_wi else 0, one.over, one.under)
                rows[u.name] = () if one.row is None else (one.row,)
                continue
        absent = [p for p in u.precincts if p not in found]
        if absent:
            problems.append(LoadProblem(
                ProblemKind.UNIT_MISSING,
                f"{u.name}: the file has no figures for "
                + ("it" if absent == list(u.precincts) else ", ".join(absent))
                + "; count this unit by hand.", u.name, absent[0]))
            continue
        blank: list[str] = []
        votes = dict.fromkeys(layout.choices, 0)
        write_ins: int | None = 0 if has_write_ins else None
        over: int | None = 0
        under: int | None = 0
        unit_rows: list[int] = []
        first_row: int | None = None
        for p in u.precincts:
            fp = found[p]
            if fp.row is not None:
                unit_rows.append(fp.row)
                first_row = fp.row if first_row is None else first_row
            fvotes = fp.votes
            for fc, target in mapped:
                v = fvotes.get(fc)
                if v is None:
                    if target != WRITE_IN:
                        blank.append(f"{p}: {fc}")
                    continue
                if target == WRITE_IN:
                    write_ins = (write_ins or 0) + v
                else:
                    votes[target] += v
            over = None if over is None or fp.over is None else over + fp.over
            under = None if under is None or fp.under is None else under + fp.under
        if blank:
            problems.append(LoadProblem(
                ProblemKind.BLANK_FIGURES,
                f"{u.name}: suppressed or blank figures ({', '.join(blank)}); count this "
                "unit by hand.", u.name, u.precincts[0], first_row))
            continue
        sheets[u.name] = TallySheet(None, votes, write_ins if layout.write_in_line else 0,
                                    over, under)
        rows[u.name] = tuple(unit_rows)
    for row, message in file_contest.warnings:
        problems.append(LoadProblem(
            ProblemKind.READ_WARNING,
            f"Reading the file found a problem in this contest's rows: {message} A recount "
            "is loaded only from figures read as they stand.", row=row))
    if file_contest.suppressed and not any(p.kind is ProblemKind.BLANK_FIGURES
                                           for p in problems):
        problems.append(LoadProblem(
            ProblemKind.SUPPRESSED,
            "The file hides some of this contest's counts (suppressed for voter privacy) and "
            "does not say which precinct's: a hidden count would be recorded as 0. Load the "
            "unsuppressed statement the election system printed for the recount."))
    return sheets, rows, problems


def reference_compare(canvass: ContestTotals, layout: SheetLayout, units: Sequence[RecountUnit],
                 canvass_by_precinct: Mapping[str, Mapping[str, int]],
                 loaded: Mapping[str, TallySheet], kept: Mapping[str, TallySheet],
                 envelope_votes: Mapping[str, int] | None = None) -> dict[str, Any]:
    """The comparison as it was made unit by unit, before the columns (session 7)."""
    rows: list[UnitComparison] = []
    choices = layout.choices
    canvass_total = dict.fromkeys(choices, 0)
    recount_total = dict.fromkeys(choices, 0)
    counted = 0
    nothing: Mapping[str, int] = {}
    for u in units:
        if len(u.precincts) == 1:  # most units are one precinct: its figures as they are
            src = canvass_by_precinct.get(u.precincts[0], nothing)
            canv = {c: src.get(c, 0) for c in choices}
        else:
            canv = dict.fromkeys(choices, 0)
            for p in u.precincts:
                src = canvass_by_precinct.get(p, nothing)
                for c in choices:
                    canv[c] += src.get(c, 0)
        for c in choices:
            canvass_total[c] += canv[c]
        sheet, source = (loaded[u.name], "file") if u.name in loaded else \
            (kept[u.name], "kept") if u.name in kept else (None, "open")
        if sheet is None:
            rows.append(UnitComparison(u.name, canv, None, source))
            continue
        counted += 1
        votes = sheet.votes
        rec = {c: votes.get(c) or 0 for c in choices}  # (TallySheet.choice_votes)
        for c in choices:
            recount_total[c] += rec[c]
        rows.append(UnitComparison(u.name, canv, rec, source))
    env = envelope_votes or {}
    for c in layout.choices:
        recount_total[c] += env.get(c, 0)
    contest = canvass.contest
    canvass_votes = {c.choice.name: c.votes for c in canvass.choices}
    before, before_text = _winners(contest, canvass_votes, canvass)
    if counted < len(units):
        after: tuple[str, ...] | None = None
        text = (f"{len(units) - counted} of {len(units)} units would still be open: whether "
                "the declared result changes is not judged on incomplete figures.")
    else:
        after, after_text = _winners(contest, recount_total, canvass)
        if set(after) == set(before):
            text = f"The declared result does not change: {after_text}."
        else:
            text = f"The declared result CHANGES: {before_text} on the canvass, {after_text} " \
                   "on the recount."
    note = ""
    if env and any(env.values()):
        note = "The recount totals include the accepted absentee envelopes."
    return {"rows": [(r.unit, dict(r.canvass), None if r.recount is None else dict(r.recount),
                      r.source) for r in rows], "canvass_total": canvass_total,
            "recount_total": recount_total, "counted": counted, "total": len(units),
            "before": before, "after": after, "text": text, "note": note}


CANDS = ("Suzanne Harrison", "Lavar Christensen", "Ada Lovelace")
FILE_CANDS = ("SUZANNE HARRISON", "LAVAR CHRISTENSEN", "ADA LOVELACE")


def _case(seed: int) -> dict[str, Any]:
    rnd = random.Random(seed)
    n = rnd.choice([1, 3, 8, 25])
    precincts = [f"{i:02d} Town {i}" if rnd.random() < 0.3 else f"P{i:03d}" for i in range(n)]
    units: list[RecountUnit] = []
    i = 0
    while i < n:  # mostly one precinct a unit, sometimes two
        k = 2 if rnd.random() < 0.15 and i + 1 < n else 1
        units.append(RecountUnit(f"U{i}", tuple(precincts[i:i + k])))
        i += k
    cands = list(FILE_CANDS)
    if rnd.random() < 0.1:
        cands.pop(rnd.randrange(len(cands)))
    if rnd.random() < 0.05:
        cands.append("JOE BLOGGS")
    write_ins = ("WRITE-IN",) if rnd.random() < 0.3 else ()
    fc = FileContest(0, ContestKey("STATE REPRESENTATIVE DIST #32"), tuple(cands), write_ins,
                     suppressed=rnd.random() < 0.1,
                     warnings=((7, "a figure was read as text."),) if rnd.random() < 0.1 else ())
    given = rnd.random() < 0.4  # over- and under-votes in the file
    rows: list[FilePrecinct] = []
    for j, p in enumerate(precincts):
        r = rnd.random()
        if r < 0.05:
            continue  # the unit is not in the file
        name = p
        if r < 0.15:
            name = p.upper()
        elif r < 0.2 and p[0].isdigit():
            name = p.split(" ", 1)[0]  # by its code
        votes = {c: rnd.randrange(0, 500) for c in cands + list(write_ins)
                 if rnd.random() > 0.03}
        rows.append(FilePrecinct(name, None if rnd.random() < 0.1 else 10 + j, votes,
                                 rnd.randrange(5) if given else None,
                                 rnd.randrange(5) if given else None))
        if rnd.random() < 0.03:
            rows.append(FilePrecinct(name.lower(), 900 + j, dict(votes)))
    if rnd.random() < 0.05:
        rows.append(FilePrecinct("Nowhere", 999, {c: 1 for c in cands}))
    rnd.shuffle(rows) if rnd.random() < 0.2 else None
    layout = SheetLayout(CANDS, 1, rnd.random() < 0.8)
    skip = [u.name for u in units if rnd.random() < 0.1]
    return {"layout": layout, "units": units, "precincts": precincts, "fc": fc, "rows": rows,
            "skip": skip, "rnd": rnd}


def _problems(ps: Iterable[LoadProblem]) -> list[tuple[Any, ...]]:
    return [(p.kind, p.text, p.unit, p.precinct, p.row) for p in ps]


@pytest.mark.parametrize("seed", range(400))
def test_the_plan_by_columns_is_the_plan_unit_by_unit(seed: int) -> None:
    c = _case(seed)
    sheets, rows, problems = reference_plan(c["layout"], c["units"], c["precincts"], c["fc"],
                                            c["rows"], c["skip"])
    shapes: list[tuple[Any, Any]] = [(c["units"], c["rows"]),
                                     (UnitColumns.of(c["units"]), FileTable.of(c["rows"]))]
    if all(len(u.precincts) == 1 for u in c["units"]):
        shapes.append((UnitColumns([u.name for u in c["units"]],
                                   one=[u.precincts[0] for u in c["units"]]),
                       FileTable.of(c["rows"])))
    for units, table in shapes:
        plan = plan_load(c["layout"], units, c["precincts"], c["fc"], table, c["skip"])
        assert _problems(plan.problems) == _problems(problems)
        assert dict(plan.sheets) == sheets
        assert list(plan.sheets) == list(sheets)
        assert dict(plan.rows) == rows
        assert [c["units"][i].name for i in plan.index] == list(plan.units)
        assert len(plan.tallies) == len(plan.units)


@pytest.mark.parametrize("seed", range(200))
def test_the_comparison_by_columns_is_the_comparison_unit_by_unit(seed: int) -> None:
    c = _case(seed)
    rnd = c["rnd"]
    layout = c["layout"]
    plan = plan_load(layout, UnitColumns.of(c["units"]), c["precincts"], c["fc"],
                     FileTable.of(c["rows"]), c["skip"])
    by_p = {p: {ch: rnd.randrange(400) for ch in CANDS if rnd.random() > 0.02}
            for p in c["precincts"]}
    seed_rnd = random.Random(seed)  # (the canvass as a case stores it, below)
    chosen = CANDS if seed_rnd.random() < 0.8 else CANDS[:2]  # a choice without figures
    if chosen != CANDS:
        by_p = {p: {ch: v for ch, v in vs.items() if ch in chosen} for p, vs in by_p.items()}
    kept = {u: TallySheet(None, {ch: rnd.randrange(400) for ch in CANDS}) for u in c["skip"]}
    env = {CANDS[0]: 2} if rnd.random() < 0.2 else None
    totals = ContestTotals(Contest(ContestKey("State House", "32")),
                           tuple(ChoiceTotal(Choice(ch), sum(v.get(ch, 0) for v in
                                                             by_p.values())) for ch in CANDS))
    want = reference_compare(totals, layout, c["units"], by_p, dict(plan.sheets), kept, env)
    shapes: list[tuple[Any, Any, Any]] = [
        (c["units"], by_p, dict(plan.sheets)),
        (UnitColumns.of(c["units"]), CanvassColumns.by_precinct(by_p, CANDS), plan.sheets)]
    # the canvass as a case stores it: every choice's figures in the precincts' order (the
    # units' order, or another)
    for order in (list(c["precincts"]), list(reversed(c["precincts"]))):
        shapes.append((UnitColumns.of(c["units"]), CanvassColumns.in_order(
            order, {ch: [by_p[p].get(ch, 0) for p in order] for ch in chosen}), plan.sheets))
    for units, canvass, loaded in shapes:
        got = compare_load(totals, layout, units, canvass, loaded, kept, env)
        assert [(r.unit, dict(r.canvass), None if r.recount is None else dict(r.recount),
                 r.source) for r in got.rows] == want["rows"]
        assert (dict(got.canvass_total), dict(got.recount_total), got.units_counted,
                got.units_total, got.canvass_winners, got.recount_winners, got.result_text,
                got.envelope_note) == (want["canvass_total"], want["recount_total"],
                                       want["counted"], want["total"], want["before"],
                                       want["after"], want["text"], want["note"])


def test_a_plan_of_thousands_is_made_by_columns() -> None:
    names = [f"P{i:05d}" for i in range(3000)]
    table = FileTable(names, list(range(2, 3002)),
                      {c: list(range(3000)) for c in FILE_CANDS}, [None] * 3000,
                      [None] * 3000)
    fc = FileContest(0, ContestKey("STATE REPRESENTATIVE DIST #32"), FILE_CANDS)
    plan = plan_load(SheetLayout(CANDS), UnitColumns(names, one=names), names, fc, table)
    assert not plan.problems and len(plan.sheets) == 3000
    assert plan.tallies.votes[CANDS[1]][17] == 17
    assert plan.sheets["P00017"] == TallySheet(None, dict.fromkeys(CANDS, 17), None)
    assert plan.rows["P00017"] == (19,)
    assert isinstance(plan.tallies, SheetColumns)
