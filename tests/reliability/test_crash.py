"""A quick run of the crash harness: ten SIGKILLs during a recount workload lose nothing."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

HARNESS = Path(__file__).parents[2] / "benchmarks" / "crash_harness.py"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_ten_kills_leave_sound_cases_with_every_acknowledged_action(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("crash_harness", HARNESS)
    assert spec and spec.loader
    harness = importlib.util.module_from_spec(spec)
    sys.modules["crash_harness"] = harness
    spec.loader.exec_module(harness)
    figs = harness.run(kills=10, seed=7, max_delay=1.6, fresh_every=5, folder=tmp_path,
                       quiet=True)
    assert figs.failures == []
    assert figs.kills == 10
    assert figs.survived == 10
    assert figs.lost == 0
    assert figs.acknowledged > 0
