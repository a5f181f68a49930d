"""Hand-built county workbooks whose statistics columns are headed in a county's own short
words ('Voters', 'Ballots', 'Percent'; 'Total Voters', 'Total Votes Cast', 'Voter Turnout'):
they were "not recognised" (trial workbooks, session 16), though laid out as the common
hand-built sheet. They read as it does now, the statistics left out of the choices."""

from __future__ import annotations

from pathlib import Path

import pytest
from workbooks import write_workbook

from recount_desk.core.model import Severity
from recount_desk.formats import read_canvass


@pytest.mark.parametrize("stats", [["Voters", "Ballots", "Percent"],
                                   ["Total Voters", "Total Votes Cast", "Voter Turnout"],
                                   ["Total Reg. Voters", "Total Ballots Cast", "Turn out %"]])
def test_statistics_in_a_county_s_short_words_are_statistics(tmp_path: Path, stats):
    rows = [["2024 General Election - Canvass Report"], [],
            [None] * 4 + ["US Senate", None, "County Sheriff", None],
            ["Precinct Name", *stats, "Mike Lee", "Caroline Gleich", "Cy Cole", "Di Dunn"],
            [None] * 4 + ["REP", "DEM", "REP", "DEM"],
            ["P01", 900, 700, 0.78, 400, 250, 330, 300],
            ["P02", 800, 600, 0.75, 300, 250, 300, 280]]
    parsed = read_canvass(write_workbook(tmp_path / "t.xlsx", {"2024 General": rows}))
    assert parsed.family == "handbuilt" and not parsed.doubtful
    assert not [i for i in parsed.issues if i.severity is Severity.ERROR]
    assert {t.contest.key.title: {c.choice.name: c.votes for c in t.choices}
            for t in parsed.totals} == {
        "US Senate": {"Mike Lee": 700, "Caroline Gleich": 500},
        "County Sheriff": {"Cy Cole": 630, "Di Dunn": 580}}
