"""Time `recount-desk check` in-process against pandas.read_csv alone, on real CSV files.

Run: python benchmarks/check_csv.py [FILE ...] [--runs N] [--corpus]

With --corpus every real CSV of ../shared/corpus is timed (one line each); else FILE (the
4 MB Salt Lake 2018 precinct file by default). Both sides run interleaved, run by run
(benchmarks/interleave.py); the ratio is the median of the pairwise ratios. Goal: at most
1.5x on every real CSV of the shared corpus.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# This checkout's code, not whichever one the environment has installed.
sys.path[:0] = [str(ROOT), str(Path(__file__).parent)]
from interleave import pairwise  # noqa: E402

DEFAULT = ROOT / "tests" / "data" / "openelections" / "20181106__ut__general__salt_lake__precinct.csv"
# The shared corpus beside the checkout (../shared, or ../../shared from a worktree).
CORPUS = next((p / "shared" / "corpus" for p in ROOT.parents
               if (p / "shared" / "corpus").is_dir()), ROOT.parent / "shared" / "corpus")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--corpus", action="store_true", help="every CSV of the shared corpus")
    ap.add_argument("--min-kb", type=int, default=0, help="skip files smaller than this")
    ap.add_argument("--cold", action="store_true",
                    help="forget what earlier runs kept (a file's head, names looked up) "
                         "before every run, as for a file checked once")
    args = ap.parse_args()
    import pandas as pd

    from recount_desk.actions.canvass import check_parsed, read_file
    from recount_desk.formats import ImportFailed

    paths = [Path(f) for f in args.files] or ([] if args.corpus else [DEFAULT])
    if args.corpus:
        paths += sorted(p for p in CORPUS.rglob("*.csv") if p.stat().st_size >= args.min_kb * 1024)
    ratios = []
    print(f"{'file':<60} {'MB':>5} {'read_csv ms':>11} {'check ms':>9} {'ratio':>6}")
    for path in paths:
        try:
            pd.read_csv(path)  # warm caches and imports
            check_parsed(read_file(path))
        except (ImportFailed, ValueError, UnicodeError) as e:
            print(f"{path.name[:60]:<60} skipped: {str(e)[:60]}")
            continue
        p = pairwise(lambda f=path: pd.read_csv(f), lambda f=path: check_parsed(read_file(f)),
                     args.runs, setup=forget if args.cold else None)
        ratios.append(p.ratio)
        print(f"{path.name[:60]:<60} {path.stat().st_size / 1e6:5.1f} "
              f"{p.baseline_s * 1000:11.1f} {p.ours_s * 1000:9.1f} {p.ratio:5.2f}x")
    if len(ratios) > 1:
        print(f"{len(ratios)} files: median ratio {statistics.median(ratios):.2f}x, worst "
              f"{max(ratios):.2f}x (goal <= 1.5x on every one)")


# Kept for the process (tables built once), not forgotten by --cold.
_TABLES = {"families", "_by_county"}


def forget() -> None:
    """Every cache of this program that an earlier run filled: the CSV head read for the
    detectors, the workbooks, and the look-ups cached by name (district offices, scopes,
    counties, folded names)."""
    from recount_desk.formats import stages, tabular

    stages._CSV_HEAD.clear()
    tabular.forget_workbooks()
    for name, mod in list(sys.modules.items()):
        if name.startswith("recount_desk."):
            for attr, fn in list(vars(mod).items()):
                if hasattr(fn, "cache_clear") and attr not in _TABLES:
                    fn.cache_clear()


if __name__ == "__main__":
    main()
