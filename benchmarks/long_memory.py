"""Peak memory of reading a long (OpenElections-style) CSV of N rows: the bytes per row.

    python -m benchmarks.long_memory N [--keep FILE] [--baseline DIR]

The file is made from the real statewide 2018 precinct file's rows (its offices,
candidates and parties; not its totals rows), repeated with new precinct names until it
has N rows, and read
in a fresh process (``read_canvass``, what ``check`` and the import do); the figure is that
process's peak resident memory less what it held before the read, per row. The goal of
issue #16: 5 million rows under 1 GB. ``--baseline DIR`` reads it with DIR's code too.
"""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

SOURCE = "openelections-ut/2018/20181106__ut__general__precinct.csv"


def corpus() -> Path:
    for p in [*Path(__file__).resolve().parents[1:4], Path("/work")]:
        if (p / "shared" / "corpus").is_dir():
            return p / "shared" / "corpus"
    raise SystemExit("the shared corpus is not beside this checkout")


def make(n: int, out: Path) -> None:
    with open(corpus() / SOURCE, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    p = head.index("precinct")
    # The counties' totals rows left out: repeated precincts would no longer add up to them.
    body = [r for r in body if r[p].strip().upper() not in ("TOTAL", "TOTALS")]
    with open(out, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        k = 0
        while k < n:
            copy = k // len(body)
            for r in body[:n - k]:
                r = list(r)
                if copy:
                    r[p] = f"{r[p]} #{copy}"
                w.writerow(r)
            k += min(len(body), n - k)


PROBE = """
import resource, sys, time
from pathlib import Path
from recount_desk.formats import read_canvass
import pandas, numpy  # imported before the 'before' figure
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
parsed = read_canvass(Path(sys.argv[1]))
took = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(before, peak, took, len(parsed.precincts), len(parsed.contests))
"""


def measure(directory: Path, path: Path, n: int) -> str:
    out = subprocess.run([sys.executable, "-c", PROBE, str(path)], cwd=directory,
                         capture_output=True, text=True, check=True).stdout.split()
    before, peak, took = int(out[0]), int(out[1]), float(out[2])
    return (f"peak {peak / 1024:,.0f} MB ({(peak - before) * 1024 / n:,.0f} bytes per row over "
            f"the {before / 1024:,.0f} MB before), {took:.1f} s, {out[3]} precincts, "
            f"{out[4]} contests")


def main() -> None:
    args = sys.argv[1:]
    n = int(args[0])
    keep = Path(args[args.index("--keep") + 1]) if "--keep" in args else \
        Path(f"/tmp/long_{n}.csv")
    if not keep.exists():
        make(n, keep)
    here = Path(__file__).resolve().parents[1]
    print(f"{n:,} rows ({keep.stat().st_size / 1e6:,.0f} MB): {measure(here, keep, n)}")
    if "--baseline" in args:
        base = Path(args[args.index("--baseline") + 1])
        print(f"  baseline {base}: {measure(base, keep, n)}")


if __name__ == "__main__":
    main()
