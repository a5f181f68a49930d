"""'-' for a contest not on a precinct's ballot, in county sheets laid out by hand (found on
a hand-built trial workbook, session 16): every one of a contest's cells in a precinct
holding '-' (or 'n/a') was an error per cell, "not a whole number; it is read as 0", and the
file could not be imported, though the figures were right. Now the precinct has no rows of
that contest, as when its cells are empty, with one note naming the contest, the precinct
and the row; a '-' beside counts of the same contest in the same precinct stays an error
(what it stands for is not certain there)."""

from __future__ import annotations

from pathlib import Path

import pytest
from workbooks import write_workbook

from recount_desk.core.model import Severity
from recount_desk.formats import read_canvass

STATS = ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %"]


def _handbuilt(tmp_path: Path, p1_commission: list[object]):
    rows = [["2024 General Election - Canvass Report"], [],
            [None] * 4 + ["US Senate", None, "County Commission Seat A", None],
            [*STATS, "Mike Lee", "Caroline Gleich", "Ann Able", "Bob Baker"],
            [None] * 4 + ["REP", "DEM", "REP", "DEM"],
            ["P01", 900, 700, 0.78, 400, 250, *p1_commission],
            ["P02", 800, 600, 0.75, 300, 250, 300, 280],
            ["P03", 700, 500, 0.71, 250, 200, 240, 230]]
    return read_canvass(write_workbook(tmp_path / "t.xlsx", {"2024 General": rows}))


def _votes(parsed) -> dict[str, dict[str, int]]:
    return {t.contest.key.title: {c.choice.name: c.votes for c in t.choices}
            for t in parsed.totals}


@pytest.mark.parametrize("marks", [["-", "-"], ["n/a", "n/a"], ["\u2013", ""], [" - ", "--"]])
def test_a_contest_marked_not_on_a_precinct_s_ballot_is_read_as_absent_there(tmp_path, marks):
    parsed = _handbuilt(tmp_path, marks)
    assert not [i for i in parsed.issues if i.severity is Severity.ERROR]
    assert _votes(parsed) == {"US Senate": {"Mike Lee": 950, "Caroline Gleich": 700},
                              "County Commission Seat A": {"Ann Able": 540, "Bob Baker": 510}}
    commission = next(t for t in parsed.totals if t.contest.key.title.startswith("County"))
    assert commission.precincts == 2
    notes = [i for i in parsed.issues if "not on that precinct's ballot" in i.message]
    assert len(notes) == 1 and notes[0].severity is Severity.NOTE and notes[0].row == 6
    assert "'County Commission Seat A' in precinct 'P01'" in notes[0].message


def test_a_dash_beside_a_count_of_the_same_contest_is_still_an_error(tmp_path):
    parsed = _handbuilt(tmp_path, [120, "-"])
    errors = [i for i in parsed.issues if i.severity is Severity.ERROR]
    assert [(i.row, i.column) for i in errors] == [(6, "H")]
    assert "'-'" in errors[0].message
    assert not any("not on that precinct's ballot" in i.message for i in parsed.issues)


def test_sideways_and_stacked_sheets_read_a_contest_of_dashes_as_absent_too(tmp_path):
    sideways = [["Garfield County 2024 General Election Canvass"], [],
                [None, "Total", "P1", "P2", "P3"], [], ["U.S. Senate"],
                ["Mike Lee", 90, 30, 30, 30], ["Caroline Gleich", 60, 20, 20, 20], [],
                ["Town Council"], ["Cy Cole", 150, "-", 70, 80], ["Di Dunn", 120, "-", 60, 60]]
    parsed = read_canvass(write_workbook(tmp_path / "s.xlsx", {"Canvass": sideways}))
    assert parsed.family == "sideways"
    assert not [i for i in parsed.issues if i.severity is Severity.ERROR]
    assert _votes(parsed)["Town Council"] == {"Cy Cole": 150, "Di Dunn": 120}
    assert sum("not on that precinct's ballot" in i.message for i in parsed.issues) == 1
    stacked = [["Wayne County 2024 General Election", None, "Official"], [],
               ["US Senate"], ["Vote for 1"], ["Precinct", "Mike Lee", "Evan McMullin"],
               ["P01", 10, 15], ["P02", 11, 16], ["P03", 12, 17], [],
               ["Town Council"], ["Vote for 1"], ["Precinct", "Cy Cole", "Di Dunn"],
               ["P01", "-", "-"], ["P02", 41, 46], ["P03", 42, 47], []]
    parsed = read_canvass(write_workbook(tmp_path / "st.xlsx", {"Results": stacked}))
    assert parsed.family == "stacked"
    assert not [i for i in parsed.issues if i.severity is Severity.ERROR]
    assert _votes(parsed)["Town Council"] == {"Cy Cole": 83, "Di Dunn": 93}
    assert sum("not on that precinct's ballot" in i.message for i in parsed.issues) == 1
