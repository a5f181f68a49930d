"""Time loading a 3,000-precinct re-tabulated export against reading the same file as a canvass.

Run: python benchmarks/retab_load.py [--precincts N] [--repeat N]

The script writes a canvass and a recount export of one race over N precincts (long CSV,
OpenElections columns; the recount differs by one vote in a few precincts), builds a case
holding the canvass with the race's recount started, then times, interleaved run by run:

* baseline: ``actions.canvass.read_file`` of the recount export (reading it as a canvass);
* ours: reading it with ``actions.retab.read_retab_file``, ``preview_load`` (match, plan,
  compare) and ``load_retab`` (the one audited write), on a fresh copy of the case each run.

It prints the best time of each and the ratio; the goal is at most 2x.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from datetime import date, datetime
from pathlib import Path

CANDIDATES = ("Ada Lovelace", "Ben Franklin", "Cy Young")


def write_files(folder: Path, n: int) -> tuple[Path, Path]:
    header = "county,precinct,office,district,party,candidate,votes\n"
    canvass, recount = [header], [header]
    for i in range(n):
        p = f"P{i:05d}"
        for j, c in enumerate(CANDIDATES):
            v = (i * 7 + j * 13) % 400 + 10
            canvass.append(f"Sample,{p},State House,7,,{c},{v}\n")
            recount.append(f"Sample,{p},STATE REPRESENTATIVE DIST #7,,,{c.upper()},"
                           f"{v + (1 if i % 97 == 0 and j == 0 else 0)}\n")
    a, b = folder / "canvass.csv", folder / "recount.csv"
    a.write_text("".join(canvass), encoding="utf-8")
    b.write_text("".join(recount), encoding="utf-8")
    return a, b


def make_case(folder: Path, canvass: Path) -> tuple[Path, int]:
    from recount_desk.actions import canvass as canvass_actions
    from recount_desk.actions import recount as rc
    from recount_desk.actions.case import create_case
    from recount_desk.core.model import Election, ElectionKind
    from recount_desk.core.recount import RecountMethod
    from recount_desk.store import repo

    path = folder / "bench.recount"
    with create_case(path, Election("Bench", date(2024, 11, 5), ElectionKind.GENERAL,
                                    "Sample County", datetime(2024, 11, 19, 10, 0)),
                     actor="bench") as case:
        canvass_actions.import_canvass(case, canvass_actions.read_file(canvass))
        cid = repo.contests(case.conn)[0].id
        rc.start_recount(case, cid, method=RecountMethod.RETABULATION)
    return path, cid


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--precincts", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    from recount_desk.actions import retab
    from recount_desk.actions.canvass import read_file
    from recount_desk.actions.case import open_case

    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        canvass, recount = write_files(folder, args.precincts)
        case_path, cid = make_case(folder, canvass)
        work = folder / "work.recount"

        def baseline() -> float:
            t = time.perf_counter()
            read_file(recount)
            return time.perf_counter() - t

        def ours() -> float:
            for suffix in ("-wal", "-shm"):
                Path(str(work) + suffix).unlink(missing_ok=True)
            shutil.copy(case_path, work)
            with open_case(work, actor="bench") as case:
                t0 = time.perf_counter()
                f = retab.read_retab_file(recount)
                t1 = time.perf_counter()
                preview = retab.preview_load(case, cid, f)
                t2 = time.perf_counter()
                res = retab.load_retab(case, preview)
                t3 = time.perf_counter()
            assert res.loaded == args.precincts, res
            parts.append((t1 - t0, t2 - t1, t3 - t2))
            return t3 - t0

        parts: list[tuple[float, float, float]] = []
        baseline()
        ours()  # warm imports and caches
        base_times, our_times = [], []
        for _ in range(args.repeat):  # interleaved, so a busy machine hurts both alike
            base_times.append(baseline())
            our_times.append(ours())
        b, o = min(base_times), min(our_times)
        read, prev, write = (min(p[k] for p in parts[1:]) for k in range(3))
        print(f"{args.precincts:,} precincts × {len(CANDIDATES)} candidates "
              f"({recount.stat().st_size / 1e3:,.0f} kB); best of {args.repeat}, interleaved")
        print(f"read as a canvass (baseline):      {b * 1000:8.1f} ms")
        print(f"load as the recount, in all:       {o * 1000:8.1f} ms   ratio {o / b:.2f}x")
        print(f"  read the export (retab reader):  {read * 1000:8.1f} ms   ratio "
              f"{read / b:.2f}x")
        print(f"  match and compare (the preview): {prev * 1000:8.1f} ms")
        print(f"  read + preview (before confirm): {(read + prev) * 1000:8.1f} ms   ratio "
              f"{(read + prev) / b:.2f}x (goal: at most 2x)")
        print(f"  the one audited write:           {write * 1000:8.1f} ms   (includes the "
              "case's state digest, checked before and recorded after every action)")


if __name__ == "__main__":
    main()
