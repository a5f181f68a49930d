"""Import speed: our import into a case file vs the raw readers, side by side in one run.

Generates (seeded) a long-format XLSX of 300,000 rows and a CSV of 1,000,000 rows, then
prints: our import into a case file; pandas.read_excel(engine="openpyxl") alone; raw
calamine reading alone; pandas.read_csv alone; and peak memory of the CSV import (measured
in a child process). Goals: XLSX import within 1.5x of raw calamine and >= 4x faster than
the openpyxl path; CSV import within 3x of read_csv; < 1 GB peak for the 1M-row CSV.

Each figure is the best of --repeat runs (default 5; the openpyxl baseline runs once),
measured in a fresh process after one warm-up run.

Run: python benchmarks/import_xlsx.py [--xlsx-rows N] [--csv-rows N] [--skip-openpyxl]
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path


def generate(rows: int, seed: int = 2026) -> list[tuple[str, str, str, str, str, int]]:
    rnd = random.Random(seed)
    contests = [(f"Contest {i:03d}", str(i % 30), [f"Candidate {i}-{k}" for k in range(4)])
                for i in range(200)]
    out = []
    precinct = 0
    while len(out) < rows:
        precinct += 1
        for title, district, names in rnd.sample(contests, 25):
            for n in names:
                out.append((f"P{precinct:05d}", title, district, "NON", n, rnd.randint(0, 900)))
                if len(out) >= rows:
                    return out
    return out


HEADER = ("precinct", "office", "district", "party", "candidate", "votes")


def write_csv(path: Path, rows: list) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(",".join(HEADER) + "\n")
        f.writelines(",".join(map(str, r)) + "\n" for r in rows)


def write_xlsx(path: Path, rows: list) -> None:
    import openpyxl

    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Results")
    ws.append(HEADER)
    for r in rows:
        ws.append(r)
    wb.save(path)


def best_of(fn, repeat: int, setup=None) -> float:
    """Best of ``repeat`` runs: the least disturbed by whatever else the machine is doing.
    ``setup`` runs, untimed, before each."""
    best = float("inf")
    for _ in range(repeat):
        if setup is not None:
            setup()
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def import_into_case(src: Path, folder: Path) -> None:
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.actions.case import create_case
    from recount_desk.core.model import Election, ElectionKind

    case_path = folder / f"bench-{time.perf_counter_ns()}.recount"
    with create_case(case_path, Election("Bench", date(2026, 11, 3), ElectionKind.GENERAL,
                                         "Bench County")) as case:
        import_canvass(case, read_file(src))


def measure(what: str, src: Path, folder: Path, repeat: int) -> None:
    """One measurement in this (fresh) process, printed as seconds, or KB for "peak"."""
    import pandas as pd
    from python_calamine import CalamineWorkbook

    runs = {
        "ours": lambda: import_into_case(src, folder),
        "calamine": lambda: CalamineWorkbook.from_path(str(src)).get_sheet_by_index(0)
        .to_python(),
        "openpyxl": lambda: pd.read_excel(src, engine="openpyxl"),
        "read_csv": lambda: pd.read_csv(src),
    }
    if what == "peak":
        import_into_case(src, folder)
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        return
    if what == "openpyxl":  # half a minute a run: once, no warm-up
        print(best_of(runs[what], 1))
        return
    runs[what]()  # warm-up: imports, and the file in the disk cache
    # Before each run of ours, the workbook kept from the run before is dropped (untimed):
    # every run reads the file from disk, as a user's import does.
    from recount_desk.formats.tabular import forget_workbooks

    print(best_of(runs[what], repeat, setup=forget_workbooks if what == "ours" else None))


def in_child(what: str, src: Path, folder: Path, repeat: int) -> float:
    out = subprocess.run([sys.executable, __file__, "--measure", what, str(src), str(folder),
                          "--repeat", str(repeat)],
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--xlsx-rows", type=int, default=300_000)
    ap.add_argument("--csv-rows", type=int, default=1_000_000)
    ap.add_argument("--skip-openpyxl", action="store_true")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each, best is shown "
                    "(the openpyxl baseline, at half a minute a run, runs once)")
    ap.add_argument("--measure", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        what, src, folder = args.measure
        measure(what, Path(src), Path(folder), args.repeat)
        return

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        xlsx, csv = folder / "long.xlsx", folder / "long.csv"
        print(f"generating {args.xlsx_rows:,}-row XLSX and {args.csv_rows:,}-row CSV …")
        write_xlsx(xlsx, generate(args.xlsx_rows))
        write_csv(csv, generate(args.csv_rows))

        # Each figure comes from a fresh process, so one measurement's garbage never
        # slows the next; all of them in this one run, side by side.
        ours_x = in_child("ours", xlsx, folder, args.repeat)
        raw_cal = in_child("calamine", xlsx, folder, args.repeat)
        opx = None if args.skip_openpyxl else in_child("openpyxl", xlsx, folder, 1)
        ours_c = in_child("ours", csv, folder, args.repeat)
        read_csv = in_child("read_csv", csv, folder, args.repeat)
        peak_mb = in_child("peak", csv, folder, 1) / 1024

    print(f"XLSX {args.xlsx_rows:,} rows")
    print(f"  our import into a case file        {ours_x:7.2f} s")
    print(f"  raw calamine reading alone         {raw_cal:7.2f} s   ours/calamine = "
          f"{ours_x / raw_cal:.2f}x (goal <= 1.5x)")
    if opx is not None:
        print(f"  pandas.read_excel(openpyxl) alone  {opx:7.2f} s   openpyxl/ours = "
              f"{opx / ours_x:.2f}x (goal >= 4x)")
    print(f"CSV {args.csv_rows:,} rows")
    print(f"  our import into a case file        {ours_c:7.2f} s")
    print(f"  pandas.read_csv alone              {read_csv:7.2f} s   ours/read_csv = "
          f"{ours_c / read_csv:.2f}x (goal <= 3x)")
    print(f"  peak memory of the CSV import      {peak_mb:7.0f} MB (goal < 1024 MB)")


if __name__ == "__main__":
    main()
