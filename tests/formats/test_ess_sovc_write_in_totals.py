"""An ES&S statement of votes cast whose contest has named write-ins and a 'Write-In Totals'
column beside them (found on Tooele 2022 laid out as a statement, session 16): the total was
checked against the sum of all the contest's choices, so a right one was an error ("0
against 253") that withheld the contest's verdict. It is checked against the write-ins now,
and a wrong one is an error naming the write-ins and the precinct where they differ."""

from __future__ import annotations

import csv
from pathlib import Path

from recount_desk.formats import read_canvass


def _sovc(tmp_path: Path, p2_total: int) -> Path:
    rows = [["COUNTY NUMBER", "PRECINCT CODE", "PRECINCT NAME", "REGISTERED VOTERS TOTAL",
             "BALLOTS CAST TOTAL", "BALLOTS CAST BLANK", *["U.S. Senate"] * 5,
             *["County Sheriff"] * 2],
            ["", "", "", "", "", "", "REP", "DEM", "", "", "", "REP", "DEM"],
            ["", "", "", "VOTERS", "BALLOTS CAST", "BALLOTS CAST", "MIKE LEE", "ANN ROE",
             "Write-In: Cy Cole", "Write-In: Di Dunn", "Write-In Totals", "ED EAST", "FAY FOX"],
            ["11", "0001", "P1", 500, 300, 0, 150, 120, 2, 3, 5, 160, 130],
            ["11", "0002", "P2", 400, 250, 0, 100, 110, 1, 0, p2_total, 120, 120],
            ["11", "ZZZ", "COUNTY TOTALS", 900, 550, 0, 250, 230, 3, 3, 5 + p2_total, 280, 250]]
    path = tmp_path / "t.sovc.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    return path


def test_a_write_in_total_that_is_the_write_ins_sum_is_left_out_with_no_error(tmp_path):
    parsed = read_canvass(_sovc(tmp_path, 1))
    assert parsed.family == "ess_sovc" and not parsed.errors
    senate = parsed.totals[0]
    assert {c.choice.name: c.votes for c in senate.choices} == {
        "MIKE LEE": 250, "ANN ROE": 230, "Write-In: Cy Cole": 3, "Write-In: Di Dunn": 3}


def test_a_write_in_total_that_is_not_their_sum_is_an_error_naming_the_write_ins(tmp_path):
    parsed = read_canvass(_sovc(tmp_path, 0))
    [err] = parsed.errors
    assert "'Write-In Totals'" in err.message and err.column == "K"
    assert "the sum of the contest's write-ins (0 against 1 in precinct 'P2')" in err.message
