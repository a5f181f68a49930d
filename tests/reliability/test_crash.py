"""A quick run of the crash harness: ten SIGKILLs during a recount workload lose nothing."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

HARNESS = Path(__file__).parents[2] / "benchmarks" / "crash_harness.py"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_ten_kills_leave_sound_cases_with_every_acknowledged_action(tmp_path: Path) -> None:
    harness = _harness()
    figs = harness.run(kills=10, seed=7, max_delay=1.6, fresh_every=5, folder=tmp_path,
                       quiet=True)
    assert figs.failures == []
    assert figs.kills == 10
    assert figs.survived == 10
    assert figs.lost == 0
    assert figs.acknowledged > 0


def _harness():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("crash_harness", HARNESS)
    assert spec and spec.loader
    harness = importlib.util.module_from_spec(spec)
    sys.modules["crash_harness"] = harness
    spec.loader.exec_module(harness)
    return harness


def test_a_kill_after_a_restore_replaced_the_case_is_judged_by_the_copy_kept_aside(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The harness's own accounting: a worker killed after "restoring", once the restore has
    # put the backup in place, acknowledged actions the case no longer holds but the copy
    # the restore kept aside does — nothing is lost; without that copy they are.
    from recount_desk.actions.case import (
        add_person,
        backup_before_writing,
        backups,
        create_case,
        restore_backup,
    )
    from recount_desk.actions.demo import demo_spec
    from recount_desk.core.people import Role

    monkeypatch.setenv("RECOUNT_DESK_DATA", str(tmp_path / "data"))
    harness = _harness()
    path = tmp_path / "case.recount"
    with create_case(path, demo_spec().election, actor="harness") as case:
        add_person(case, "Officer 1", Role.DEPUTY)
        assert backup_before_writing(case) == []
        add_person(case, "Officer 2", Role.DEPUTY)
        add_person(case, "Officer 3", Role.DEPUTY)
    acked = harness._entries(path)
    aside = restore_backup(path, backups(path)[0])
    assert harness._entries(path) < acked
    assert harness.check_after_kill(path, acked, before_restore=acked) is None
    aside.unlink()
    assert "lost" in (harness.check_after_kill(path, acked, before_restore=acked) or "")
