"""Time `recount-desk check` on the 4 MB Salt Lake 2018 precinct file against read_csv alone.

Run: python benchmarks/check_csv.py [FILE] [--repeat N]
Prints both times (best of N) and the ratio; the goal is at most 2x.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

DEFAULT = (Path(__file__).parents[1] / "tests" / "data" / "openelections"
           / "20181106__ut__general__salt_lake__precinct.csv")


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    import pandas as pd

    from recount_desk.actions.canvass import check_parsed, read_file

    path = Path(args.file)
    pd.read_csv(path)  # warm caches and imports
    check_parsed(read_file(path))
    baseline = best(lambda: pd.read_csv(path), args.repeat)
    ours = best(lambda: check_parsed(read_file(path)), args.repeat)
    size = path.stat().st_size / 1e6
    print(f"file: {path.name} ({size:.1f} MB)")
    print(f"pandas.read_csv alone : {baseline * 1000:8.1f} ms")
    print(f"recount-desk check    : {ours * 1000:8.1f} ms")
    print(f"ratio                 : {ours / baseline:8.2f}x  (goal <= 2x)")


if __name__ == "__main__":
    main()
