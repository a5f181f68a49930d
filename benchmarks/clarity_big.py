"""Time the Clarity reader on Salt Lake County's full 27 MB detail.xls (streamed from its zip).

Usage: python benchmarks/clarity_big.py ["path/to/salt lake county.zip"]
The default path is the project corpus (../shared/corpus/…), which a fresh clone lacks.
"""

from __future__ import annotations

import resource
import sys
import time
import zipfile
from pathlib import Path

from recount_desk.formats import clarity, read_canvass
from recount_desk.formats.base import ReadOptions

DEFAULT = (Path(__file__).resolve().parents[2] / "shared" / "corpus" / "formats" /
           "utah-county-sources" / "2022 General Election" / "salt lake county.zip")


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    with zipfile.ZipFile(path) as z:
        size = sum(i.file_size for i in z.infolist())
    t0 = time.perf_counter()
    raw = clarity.read(path, ReadOptions())
    t1 = time.perf_counter()
    parsed = read_canvass(path)
    t2 = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sys.stdout.write(
        f"{path.name}: {size / 1e6:.1f} MB unzipped\n"
        f"  stream + parse (clarity.read): {t1 - t0:.2f} s, {len(raw.rows):,} raw rows\n"
        f"  detect + read + build:         {t2 - t1:.2f} s, {len(parsed.contests)} contests, "
        f"{len(parsed.precincts)} precincts\n"
        f"  peak RSS: {peak:.0f} MB\n")


if __name__ == "__main__":
    main()
