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


WEBER = OE / "20181106__ut__general__weber__precinct.csv"


def test_check_prints_the_kind_and_seats_it_assumed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(GRAND)]) == 0
    out = capsys.readouterr().out
    assert "Election kind: Regular general election (from the file:" in out
    assert "Seats: 4 race(s): 0 stated by the file, 0 given with --seats, 4 assumed" in out
    assert "1 seat (assumed)" in out
    data = json.loads(_json(capsys, str(GRAND)))
    assert data["election_kind_source"] == "file"
    assert {c["seats_source"] for c in data["contests"]} == {"assumed"}


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(["check", *args, "--json"])
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("seats", "code", "expect"),
    [(["State House — District 69=2"], 0, {"State House — District 69": 2,
                                           "State House — District 70": 1}),
     (["U.S. Senate=2"], 0, {"U.S. Senate": 2}),
     (["State House=2"], 1, "names 2 contests"),
     (["Mayor=2"], 1, "names no contest")],
    ids=["(1)(e)(v) --seats by full name", "(1)(e)(v) --seats by an unambiguous title",
         "(1)(e)(v) an ambiguous title is refused", "(1)(e)(v) an unknown name is refused"],
)
def test_seats_option_is_keyed_by_the_contest_identity(
        capsys: pytest.CaptureFixture[str], seats: list[str], code: int,
        expect: dict[str, int] | str) -> None:
    args = [a for s in seats for a in ("--seats", s)]
    got = main(["check", str(GRAND), *args, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert got == code
    if isinstance(expect, str):
        assert any(expect in i["message"] and i["severity"] == "error"
                   for i in data["issues"])
        return
    by = {(c["title"] + (f" — District {c['district']}" if c["district"] else "")): c
          for c in data["contests"]}
    for name, n in expect.items():
        assert by[name]["seats"] == n
        assert by[name]["seats_source"] == ("given" if n == 2 else "assumed")


def test_weber_2018_suppressed_counts_cannot_be_decided(
        capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_json(capsys, str(WEBER)))
    by = {(c["title"], c["district"]): c for c in data["contests"]}
    hd8 = by[("State House", "8")]
    assert hd8["verdict"] == "undecidable" and not hd8["decided"]
    assert hd8["within_margin"] is False and hd8["hidden_cells"] == 2
    assert not hd8["official_totals"]
    # State House 12 spans Davis and Weber: Weber's figures are a portion (issue #20).
    assert by[("State House", "12")]["verdict"] == "county_portion"
    # A contest with nothing hidden keeps its plain verdict (here set to a county race).
    data = json.loads(_json(capsys, str(WEBER), "--scope", "State House 12=county"))
    by = {(c["title"], c["district"]): c for c in data["contests"]}
    assert by[("State House", "12")]["verdict"] == "not_eligible"


def test_kind_given_against_the_file_is_pointed_out(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_json(capsys, str(GRAND), "--kind", "municipal_primary"))
    assert data["election_kind"] == "municipal_primary"
    assert data["election_kind_source"] == "given"
    assert any("looks like a regular general election" in i["message"]
               for i in data["issues"])


def test_import_into_a_case_of_another_kind_keeps_a_warning(tmp_path: Path) -> None:
    case = tmp_path / "m.recount"
    assert main(["new", str(case), "--name", "2018", "--date", "2018-11-06", "--kind",
                 "municipal_general", "--jurisdiction", "Moab"]) == 0
    assert main(["import", str(case), str(GRAND)]) == 0
    conn = sqlite3.connect(case)
    msgs = [r[0] for r in conn.execute("SELECT message FROM import_issue")]
    conn.close()
    assert any("looks like a regular general election" in m for m in msgs)
