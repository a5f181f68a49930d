"""The Clarity reader against a bare C ``iterparse`` of the same detail.xls, and (given a
baseline checkout) against the reader as it was: interleaved run by run, the median of the
pairwise ratios (benchmarks/interleave.py).

    python -m benchmarks.clarity_vs_iterparse ["salt lake county.zip"] [--baseline DIR]

The goal of issue #16: the reader within 1.5x a C iterparse of the file. ``--baseline DIR``
also times DIR's ``recount_desk`` (another checkout, run in a subprocess per run so the two
versions never share a module).
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path
from xml.etree.ElementTree import iterparse

from benchmarks.interleave import pairwise
from recount_desk.formats import clarity
from recount_desk.formats.base import ReadOptions

# The shared corpus beside the checkout (../shared, or ../../shared from a worktree).
DEFAULT = next((p / "shared" / "corpus" / "formats" / "utah-county-sources" /
                "2022 General Election" / "salt lake county.zip"
                for p in Path(__file__).resolve().parents[1:4]
                if (p / "shared" / "corpus").is_dir()), Path("salt lake county.zip"))


def c_iterparse(path: Path) -> int:
    """Every element of detail.xls, streamed from the zip and cleared: the floor."""
    n = 0
    with zipfile.ZipFile(path) as z:
        member = next(m for m in z.namelist() if m.lower().endswith((".xls", ".xml")))
        with z.open(member) as f:
            for _, el in iterparse(f, events=("end",)):
                n += 1
                el.clear()
    return n


def _in(directory: Path, path: Path) -> float:
    code = ("import time,sys; from pathlib import Path; t=time.perf_counter();"
            "from recount_desk.formats import clarity; from recount_desk.formats.base import "
            "ReadOptions; clarity.read(Path(sys.argv[1]), ReadOptions());"
            "print(time.perf_counter()-t)")
    out = subprocess.run([sys.executable, "-c", code, str(path)], cwd=directory, check=True,
                         capture_output=True, text=True).stdout
    return float(out.split()[-1])


def main() -> None:
    args = sys.argv[1:]
    base = None
    if "--baseline" in args:
        k = args.index("--baseline")
        base = Path(args[k + 1])
        del args[k:k + 2]
    path = Path(args[0]) if args else DEFAULT
    r = pairwise(lambda: c_iterparse(path), lambda: clarity.read(path, ReadOptions()), runs=5)
    print(f"{path.name}: C iterparse {r.baseline_s:.2f} s, clarity.read {r.ours_s:.2f} s, "
          f"median pairwise ratio {r.ratio:.2f}x over {r.runs} runs")
    if base is not None:
        here = Path(__file__).resolve().parents[1]
        times: dict[str, list[float]] = {"baseline": [], "ours": []}
        for k in range(5):
            order = [("baseline", base), ("ours", here)]
            for side, d in (order if k % 2 == 0 else order[::-1]):
                times[side].append(_in(d, path))
        ratios = sorted(o / b for o, b in zip(times["ours"], times["baseline"], strict=True))
        print(f"  against {base}: baseline {sorted(times['baseline'])[2]:.2f} s, ours "
              f"{sorted(times['ours'])[2]:.2f} s, median pairwise ratio {ratios[2]:.2f}x "
              "(each run in its own process)")


if __name__ == "__main__":
    main()
