"""Timing two sides fairly: run by run, alternately, and the median of the pairwise ratios.

Timing each side in its own block lets the machine's drift between the blocks (another
process, the CPU clock) move the ratio; taking one side's best of five against the other's
single run flatters the first. Here each run times both sides back to back, the order
swapped every run, and the figure is the median of the runs' ratios.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Pairwise:
    baseline_s: float   # median time of the baseline
    ours_s: float       # median time of ours
    ratio: float        # median of the pairwise ratios ours / baseline
    runs: int


def pairwise(baseline: Callable[[], object], ours: Callable[[], object], runs: int = 7,
             setup: Callable[[], object] | None = None) -> Pairwise:
    """Time ``baseline`` and ``ours`` ``runs`` times each, interleaved (the order swapped
    every run); ``setup`` runs untimed before each timed call."""
    def timed(fn: Callable[[], object]) -> float:
        if setup is not None:
            setup()
        t = time.perf_counter()
        fn()
        return time.perf_counter() - t

    base: list[float] = []
    mine: list[float] = []
    for k in range(runs):
        if k % 2:
            mine.append(timed(ours))
            base.append(timed(baseline))
        else:
            base.append(timed(baseline))
            mine.append(timed(ours))
    return Pairwise(statistics.median(base), statistics.median(mine),
                    statistics.median(m / b for m, b in zip(mine, base, strict=True)), runs)
