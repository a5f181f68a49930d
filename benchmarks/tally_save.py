"""Time saving one tally sheet in a recount of 100, 1,500 and 5,000 units.

Run: python benchmarks/tally_save.py [--units 100 1500 5000] [--runs N]

Each case is one county race of N precincts (two candidates), its recount started with
double entry and every unit's entry 1 made; the timed action is ``enter_tally`` of one
unit's entry 2 (a different unit each run), as the window's Save does it, with its check
before write, its audit entry and its state digest. The baseline is the same save in the
100-unit case, interleaved run by run with the larger case (benchmarks/interleave.py);
the ratio is the median of the pairwise ratios. Goal (issue 13): the 5,000-unit save at
most 1.5x the 100-unit one. Beside it: the SQL statements one save runs.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from datetime import date, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from interleave import pairwise

from recount_desk import store
from recount_desk.actions import recount as rc
from recount_desk.actions.case import Case, add_person, create_case
from recount_desk.core.model import (
    Choice,
    ChoiceTotal,
    Contest,
    ContestKey,
    ContestTotals,
    Election,
    ElectionKind,
    VoteColumn,
)
from recount_desk.core.people import Role
from recount_desk.core.recount import EntryMode, RecountMethod, TallyEntry, TallySheet
from recount_desk.store import recount_repo as rr
from recount_desk.store import repo


def sheet(i: int) -> TallySheet:
    a, b = 100 + i % 37, 90 + i % 41
    return TallySheet(a + b + 3, {"Ada": a, "Ben": b}, 0, 1, 2)


def build(folder: Path, units: int) -> tuple[Case, int, list[str]]:
    """A case whose recount of ``units`` precincts has every entry 1 made (written in one
    transaction through the repository, as the actions would, to keep the setup short)."""
    e = Election("Bench General", date(2024, 11, 5), ElectionKind.GENERAL, "Bench County",
                 datetime(2024, 11, 19, 10, 0), "Bench Clerk")
    path = folder / f"bench-{units}.recount"
    n = 0
    while path.exists():
        n += 1
        path = folder / f"bench-{units}-{n}.recount"
    case = create_case(path, e, actor="Bench Clerk")
    for name in ("Dana", "Marcus"):
        add_person(case, name, Role.DEPUTY)
    precincts = [f"P{i:05d}" for i in range(units)]
    votes = {p: (sheet(i).votes["Ada"] or 0, sheet(i).votes["Ben"] or 0)
             for i, p in enumerate(precincts)}
    race = ContestTotals(Contest(ContestKey("Mayor")),
                         (ChoiceTotal(Choice("Ada"), sum(v[0] for v in votes.values())),
                          ChoiceTotal(Choice("Ben"), sum(v[1] for v in votes.values()))),
                         {}, units)
    columns = [VoteColumn(0, k, range(1, units + 1), [votes[p][k] for p in precincts])
               for k in (0, 1)]
    with store.transaction(case.conn, case.actor, "import canvass") as tx:
        _, digest = repo.insert_canvass(
            tx, file="bench.csv", sha256="0" * 64, family="test", imported_at=store.utc_now(),
            primary=False, precincts=precincts, totals=[race], columns=columns, extras=[],
            issues=[])
        tx["canvass_digest"] = digest
    cid = repo.contests(case.conn)[0].id
    rc.start_recount(case, cid, method=RecountMethod.HAND_COUNT, entry_mode=EntryMode.DOUBLE)
    cids = rr.choice_ids(case.conn, cid)
    with store.transaction(case.conn, case.actor, "enter tally") as tx:
        for i, u in enumerate(rr.units(case.conn, cid)):
            rr.add_entry(tx, u.id, TallyEntry(1, "Dana", sheet(i)), cids, store.utc_now(),
                         case.actor)
        tx["bench"] = "entry 1 of every unit"
    return case, cid, precincts


def saver(case: Case, cid: int, precincts: list[str]):  # type: ignore[no-untyped-def]
    order = itertools.cycle(range(len(precincts)))

    def save() -> None:
        i = next(order)
        rc.enter_tally(case, cid, precincts[i], entry=2, officer="Marcus", sheet=sheet(i))
    return save


def statements(case: Case, save) -> int:  # type: ignore[no-untyped-def]
    count = 0

    def seen(_sql: str) -> None:
        nonlocal count
        count += 1

    case.conn.set_trace_callback(seen)
    try:
        save()
    finally:
        case.conn.set_trace_callback(None)
    return count


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--units", type=int, nargs="+", default=[100, 1500, 5000])
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base_case, base_cid, base_p = build(folder, 100)
        base = saver(base_case, base_cid, base_p)
        base()  # warm the connection (its first check reads the whole case once)
        print(f"{'units':>6} {'100-unit save ms':>17} {'save ms':>8} {'ratio':>6} "
              f"{'statements':>10}")
        for n in args.units:
            case, cid, precincts = build(folder, n)
            ours = saver(case, cid, precincts)
            ours()
            p = pairwise(base, ours, args.runs)
            print(f"{n:>6,} {p.baseline_s * 1000:17.1f} {p.ours_s * 1000:8.1f} "
                  f"{p.ratio:5.2f}x {statements(case, ours):>10}")
            case.close()
        base_case.close()
    print("goal: the 5,000-unit save at most 1.5x the 100-unit save")


if __name__ == "__main__":
    main()
