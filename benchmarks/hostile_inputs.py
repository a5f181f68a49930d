"""Time and peak memory of `recount-desk check` on each hostile input (issue 14), under a
2 GB address-space limit, each beside a baseline run on a four-row canvass (interleaved), so
the figures are ratios on a loaded machine too. The goal: every input ends within 30 s, under
2 GB, with exit 0 or 1 and no traceback.

    python benchmarks/hostile_inputs.py
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "reliability"))
import hostile  # noqa: E402  (the generator kept with the tests)
from test_hostile_inputs import CHECKS  # noqa: E402

LIMIT = 2 * 1024**3


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def measure(args: list[str]) -> tuple[float, int, bool]:
    """(seconds, exit code, traceback seen) of one command in its own process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1")
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "recount_desk", *args], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=_limited)
    try:
        out, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    del out
    return time.perf_counter() - t, p.returncode, "Traceback" in err


def main() -> int:
    worst = 0.0
    bad = []
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        base = hostile.csv_file(folder, "good.csv", "precinct,office,candidate,votes\n"
                                "P1,Mayor,Ann,5\nP1,Mayor,Bob,4\nP2,Mayor,Ann,3\n"
                                "P2,Mayor,Bob,4\n")
        print(f"{'input':<58} {'s':>6} {'baseline s':>10} {'ratio':>6} {'exit':>4}")
        for what, write, args, _, _ in CHECKS:
            path = write(folder)
            b, _, _ = measure(["check", str(base)])
            s, code, tb = measure(["check", str(path), *args])
            worst = max(worst, s)
            if code not in (0, 1) or tb or s > 30:
                bad.append(what)
            print(f"{what[:58]:<58} {s:6.1f} {b:10.1f} {s / b:6.1f} {code:>4}"
                  + ("  TRACEBACK" if tb else ""), flush=True)
    # ru_maxrss of the children is the largest any one of them reached
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"slowest: {worst:.1f} s; largest peak resident memory of any run: {peak:.0f} MB "
          f"(limit {LIMIT // 1024**2} MB); failing the goal: {bad or 'none'}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
