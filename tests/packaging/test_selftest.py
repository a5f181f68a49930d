"""`recount-desk --self-test`: the demo election end to end, and every failure named."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from recount_desk import selftest
from recount_desk.actions import verify as verify_actions
from recount_desk.cli import main


def test_self_test_passes_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--self-test"]) == 0
    out = capsys.readouterr().out
    for step in ("demo", "verdicts", "report", "verify report", "verify case"):
        assert f"\n{step}: ok — " in out
    assert "State House — District 32" in out
    assert "Self-test passed" in out


def test_failed_step_is_named_and_exits_one(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(path: Path | str) -> verify_actions.VerifyResult:
        return verify_actions.VerifyResult(Path(path).name, False, 6,
                                           ["audit entry 3 is broken: hash mismatch"], 3)

    monkeypatch.setattr(verify_actions, "verify_case", broken)
    assert main(["--self-test"]) == 1
    out = capsys.readouterr().out
    assert "verify case: FAILED — " in out
    assert "audit entry 3 is broken" in out
    assert "Self-test FAILED (verify case)" in out


def test_a_build_without_the_report_fails_the_report_steps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # None in sys.modules makes the import fail as if the module were not in the build.
    monkeypatch.setitem(sys.modules, "recount_desk.actions.report", None)
    ok, lines = selftest.run_self_test()
    assert not ok
    assert "report: FAILED — not available in this build" in lines
    assert "verify report: NOT RUN — an earlier step failed" in lines
    assert lines[-1].startswith("Self-test FAILED (report, verify report)")


def test_an_unexpected_error_in_a_step_is_reported_not_raised(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(case: object) -> list[object]:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(selftest.contest_actions, "overview", boom)
    ok, lines = selftest.run_self_test()
    assert not ok
    assert "verdicts: FAILED — RuntimeError: disk on fire" in lines
    assert "report: NOT RUN — an earlier step failed" in lines


def test_the_users_data_folder_is_left_alone() -> None:
    mine = Path(os.environ["RECOUNT_DESK_DATA"])
    ok, _ = selftest.run_self_test()
    assert ok
    assert os.environ["RECOUNT_DESK_DATA"] == str(mine)
    assert not any(mine.iterdir())


def test_a_command_is_still_required_without_self_test(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2
    assert "--self-test" in capsys.readouterr().err
