"""Issue #12 on the command line: proclaimed holidays, the kind and seats check assumes."""

from __future__ import annotations

import json
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from recount_desk.actions import case as case_actions
from recount_desk.actions import contests as contest_actions
from recount_desk.cli import main
from recount_desk.core.calendar import ClosedDay

OE = Path(__file__).parents[1] / "data" / "openelections"
GRAND = OE / "20181106__ut__general__grand__precinct.csv"


def _new(tmp_path: Path) -> Path:
    case = tmp_path / "e.recount"
    assert main(["new", str(case), "--name", "2026 General", "--date", "2026-11-03",
                 "--kind", "general", "--jurisdiction", "Grand County",
                 "--canvass-completed", "2026-11-17T10:00"]) == 0
    return case


@pytest.mark.parametrize(
    ("args", "code", "shown"),
    [(["--closed-day", "2026-11-24=Day of mourning"], 0, "2026-11-24 Day of mourning"),
     (["--closed-day", "2026-11-26=Thanksgiving again"], 1, "already closed"),
     (["--closed-day", "2026-11-28=A Saturday"], 1, "already closed")],
    ids=["63G-1-301 proclaimed day is entered", "63G-1-301 a legal holiday is refused",
         "68-3-7 a Saturday is refused"],
)
def test_proclaimed_holidays_are_an_audited_case_setting(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], code: int,
        shown: str) -> None:
    case = _new(tmp_path)
    capsys.readouterr()
    assert main(["election", str(case), *args]) == code
    io = capsys.readouterr()
    assert shown in (io.out if code == 0 else io.err)
    conn = sqlite3.connect(case)
    actions = [r[0] for r in conn.execute("SELECT action FROM audit ORDER BY seq")]
    conn.close()
    assert actions[-1] == ("set closed days" if code == 0 else "create case")
    assert main(["verify", str(case)]) == 0


def test_a_proclaimed_day_moves_the_case_deadlines(tmp_path: Path) -> None:
    path = _new(tmp_path)
    assert main(["import", str(path), str(GRAND)]) == 0
    with case_actions.open_case(path) as case:
        before = contest_actions.overview(case)[0].check.deadline
        case_actions.set_closed_days(case, [ClosedDay(date(2026, 11, 24), "Day of mourning")])
        after = contest_actions.overview(case)[0].check.deadline
        assert case.closed_days[0].reason == "Day of mourning"
    assert before is not None and before.startswith("2026-11-24T17:00")
    assert after is not None and after.startswith("2026-11-25T17:00")
    assert main(["election", str(path), "--no-closed-days"]) == 0
    with case_actions.open_case(path) as case:
        assert case.closed_days == ()


def test_check_takes_proclaimed_days(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(GRAND), "--json", "--date", "2026-11-03",
                 "--canvass-completed", "2026-11-17", "--closed-day", "2026-11-24=Mourning"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {c["deadline"] for c in out["contests"]} == {"2026-11-25T17:00"}
