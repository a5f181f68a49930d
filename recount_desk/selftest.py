"""The installation self-test (``recount-desk --self-test``): the demo election end to end, offline.

It proves on a clerk's workstation, with no network and no Python installed, that the
program can do its job: open a fresh copy of the bundled demo election in a temporary
folder, compute every verdict, find the contest inside the recount margin, write the
board's report PDF, verify that PDF against the case, and verify the case file itself.
It calls only ``recount_desk.actions`` (the same functions as the window and the CLI) and
touches nothing of the user's: the demo copy and the PDF live in a temporary folder that
is removed afterwards.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from recount_desk import __version__
from recount_desk.actions import case as case_actions
from recount_desk.actions import contests as contest_actions
from recount_desk.actions import demo as demo_actions
from recount_desk.actions import verify as verify_actions

DATA_ENV = "RECOUNT_DESK_DATA"
T = TypeVar("T")


class StepFailed(Exception):
    """A self-test step found something wrong; the message says what."""


@dataclass
class _State:
    folder: Path
    case_path: Path | None = None
    contest_id: int | None = None
    contest_label: str = ""
    report_path: Path | None = None
    extras: dict[str, Any] = field(default_factory=dict)


@contextmanager
def _private_data_folder(folder: Path) -> Iterator[None]:
    """Point the user data folder at ``folder`` so the user's own demo copy is untouched."""
    before = os.environ.get(DATA_ENV)
    os.environ[DATA_ENV] = str(folder)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(DATA_ENV, None)
        else:
            os.environ[DATA_ENV] = before


def _need(value: T | None) -> T:
    """A value an earlier step provides (the runner does not start a step without it)."""
    if value is None:
        raise StepFailed("an earlier step did not provide what this one needs")
    return value


def _report_actions() -> Any:
    """``recount_desk.actions.report``, or a failure that says the build lacks it."""
    try:
        return importlib.import_module("recount_desk.actions.report")
    except ModuleNotFoundError as e:
        if e.name != "recount_desk.actions.report":
            raise
        raise StepFailed("not available in this build") from e


def _step_demo(st: _State) -> str:
    with demo_actions.open_demo_case(fresh=True) as case:
        st.case_path = Path(case.path)
        name = f"{case.election.name}, {case.election.jurisdiction}"
    if not st.case_path.is_file():
        raise StepFailed(f"the demo case was not written to {st.case_path}")
    return f"opened a fresh copy of the demo election ({name})"


def _step_verdicts(st: _State) -> str:
    with case_actions.open_case(_need(st.case_path), readonly=True) as case:
        rows = contest_actions.overview(case)
    if not rows:
        raise StepFailed("the demo case has no contests")
    # A contest inside the margin, or a county's portion with a recount on record.
    close = [r for r in rows if r.check.decision.within_margin or r.requests]
    if not close:
        raise StepFailed(f"{len(rows)} contests, none inside the recount margin or recounted "
                         "(the demo has one)")
    chosen = next((r for r in close if r.requests), close[0])
    st.contest_id = chosen.id
    st.contest_label = chosen.check.totals.contest.key.label()
    d = chosen.check.decision
    return (f"{len(rows)} contests, {len(close)} inside the recount margin or recounted — "
            f"{st.contest_label}: margin {d.margin}, threshold {d.threshold} ({d.basis})")


def _step_report(st: _State) -> str:
    report = _report_actions()
    out = st.folder / "self-test report.pdf"
    with case_actions.open_case(_need(st.case_path)) as case:
        case.person = case.roster.election_officer  # the report is made by the officer
        # The demo's recounted contest; the close contest found above if there is none.
        recounted = report.reportable_contests(case)
        if recounted:
            st.contest_id = recounted[0]
            st.contest_label = _label(case, recounted[0])
        made = report.make_report(case, _need(st.contest_id), out)
    st.report_path = Path(made.path)
    if not st.report_path.is_file() or st.report_path.stat().st_size == 0:
        raise StepFailed(f"no PDF was written to {st.report_path}")
    with st.report_path.open("rb") as f:
        if f.read(5) != b"%PDF-":
            raise StepFailed(f"{st.report_path.name} is not a PDF")
    return (f"wrote {st.report_path.name} ({made.size:,} bytes) for {st.contest_label}, "
            f"fingerprint {made.code}")


def _label(case: case_actions.Case, contest_id: int) -> str:
    return contest_actions.contest_check(case, contest_id).check.totals.contest.key.label()


def _step_verify_report(st: _State) -> str:
    report = _report_actions()
    with case_actions.open_case(_need(st.case_path), readonly=True) as case:
        check = report.verify_report(case, _need(st.report_path))
    if not check.ok:
        raise StepFailed(check.summary())
    return check.summary()


def _step_verify_case(st: _State) -> str:
    result = verify_actions.verify_case(_need(st.case_path))
    if not result.ok:
        raise StepFailed(result.summary())
    return f"integrity check passed, {result.entries} audit entries chained"


# (name, what it needs from earlier steps, the step)
_STEPS: list[tuple[str, tuple[str, ...], Callable[[_State], str]]] = [
    ("demo", (), _step_demo),
    ("verdicts", ("case_path",), _step_verdicts),
    ("report", ("case_path", "contest_id"), _step_report),
    ("verify report", ("report_path",), _step_verify_report),
    ("verify case", ("case_path",), _step_verify_case),
]


def run_self_test() -> tuple[bool, list[str]]:
    """Run every step; return whether all passed and one line per step (and a summary)."""
    lines = [f"Recount Desk {__version__} self-test (Python {sys.version.split()[0]}, "
             f"{sys.platform}{', frozen' if getattr(sys, 'frozen', False) else ''})"]
    failed: list[str] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="recount-desk-selftest-") as tmp:
        folder = Path(tmp)
        st = _State(folder)
        with _private_data_folder(folder):
            for name, needs, step in _STEPS:
                missing = [n for n in needs if getattr(st, n) is None]
                if missing:
                    failed.append(name)
                    lines.append(f"{name}: NOT RUN — an earlier step failed")
                    continue
                try:
                    lines.append(f"{name}: ok — {step(st)}")
                except StepFailed as e:
                    failed.append(name)
                    lines.append(f"{name}: FAILED — {e}")
                # The self-test is the boundary that must name any failure, expected or not.
                except Exception as e:
                    failed.append(name)
                    lines.append(f"{name}: FAILED — {type(e).__name__}: {e}")
    elapsed = time.perf_counter() - start
    if failed:
        lines.append(f"Self-test FAILED ({', '.join(failed)}) in {elapsed:.1f} s.")
    else:
        lines.append(f"Self-test passed: {len(_STEPS)} steps in {elapsed:.1f} s.")
    return not failed, lines


def main() -> int:
    """Print the self-test and return the exit code (0 when every step passed)."""
    ok, lines = run_self_test()
    for line in lines:
        print(line, flush=True)
    return 0 if ok else 1
