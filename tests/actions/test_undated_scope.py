"""A check of a file that gives no election date: the district maps are not taken from
today's date (core.scope), but from the year the file's name gives, or not at all."""

from __future__ import annotations

from pathlib import Path

from recount_desk.actions.canvass import check_parsed, read_file
from recount_desk.core.model import Scope
from recount_desk.core.rules import Verdict

ROWS = ("county,precinct,office,district,party,candidate,votes\n"
        "Wayne,P1,State House,73,,Ann Ash,300\n"
        "Wayne,P1,State House,73,,Bo Birch,200\n")


def _house_73(path: Path):  # type: ignore[no-untyped-def]
    path.write_text(ROWS, encoding="utf-8")
    result = check_parsed(read_file(path))
    (c,) = [c for c in result.contests if c.totals.contest.key.district == "73"]
    return c, result


def test_no_date_no_year_no_map(tmp_path: Path) -> None:
    c, result = _house_73(tmp_path / "wayne_results.csv")
    assert c.scope.scope is Scope.MULTICOUNTY and c.scope.assumed
    assert c.decision.verdict is Verdict.PORTION
    assert any("no district map is assumed" in i.message for i in result.issues)


def test_the_year_in_the_name_chooses_the_map(tmp_path: Path) -> None:
    c, result = _house_73(tmp_path / "2022 General Wayne results.csv")
    # In the maps from 2022 House 73 lies in Washington County, not in Wayne: the label is
    # doubtful, and the race is not decided on Wayne's figures either.
    assert c.decision.verdict is Verdict.PORTION
    assert any("district maps of 2022 are used" in i.message for i in result.issues)
    c16, _ = _house_73(tmp_path / "2016 General Wayne results.csv")
    assert c16.scope.scope is Scope.MULTICOUNTY and not c16.scope.assumed
    assert "7 counties" in c16.scope.reason
