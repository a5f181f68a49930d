"""Time combining the 29 counties' 2018 files into whole races against reading them one by one.

Run: python benchmarks/whole_races.py [FOLDER] [--repeat N]

The baseline reads and checks each county's file on its own (what `recount-desk check FILE`
does 29 times); the measured job is `recount-desk check FILE … FILE` on all 29 at once
(reading, matching contests and candidates, adding up, deciding). Both run interleaved,
side by side, best of N; the goal is at most 2x. FOLDER defaults to the trimmed copies in
tests/data (district races only); give ../shared/corpus/openelections-ut/2018/counties for
the full files.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

DEFAULT = Path(__file__).parents[1] / "tests" / "data" / "openelections" / "trimmed" / "2018"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", nargs="?", default=str(DEFAULT))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    from recount_desk.actions.canvass import check_parsed, read_file
    from recount_desk.actions.whole import check_files

    files = sorted(p for p in Path(args.folder).glob("*.csv") if "__general__" in p.name)

    def one_by_one() -> None:
        for f in files:
            check_parsed(read_file(f))

    def combined() -> None:
        check_files(files)

    one_by_one()  # warm caches and imports
    combined()
    base, ours = [], []
    for _ in range(args.repeat):
        t = time.perf_counter()
        one_by_one()
        base.append(time.perf_counter() - t)
        t = time.perf_counter()
        combined()
        ours.append(time.perf_counter() - t)
    b, o = min(base), min(ours)
    print(f"{len(files)} files in {args.folder}")
    print(f"one by one (read + check each): {b * 1000:8.1f} ms")
    print(f"combined into whole races:      {o * 1000:8.1f} ms")
    print(f"ratio: {o / b:.2f}x (goal: at most 2x)")


if __name__ == "__main__":
    main()
