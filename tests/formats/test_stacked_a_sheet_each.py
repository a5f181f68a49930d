"""A county workbook of one contest a sheet, each sheet a titled table of the precincts
(session 17: the counties' 2022 files laid out so were refused, 'not recognised'): read as
one election by the stacked reader; a sheet with no table is passed over with a note; one
contest on two sheets, or sheets under other titles (other elections), are not read so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from workbooks import write_workbook

from recount_desk.core.model import Severity
from recount_desk.formats import ImportFailed, read_canvass

TITLE = "2022 General Election - Canvass Report"


def _sheet(contest: str, names: list[str], counts: list[list[int]], title: str = TITLE
           ) -> list[list[object]]:
    rows: list[list[object]] = [[title], [], [contest], ["Precinct", *names, "Total"]]
    for p, c in enumerate(counts):
        rows.append([f"P0{p + 1}", *c, sum(c)])
    rows.append(["Total", *(sum(col) for col in zip(*counts, strict=True)),
                 sum(map(sum, counts))])
    return rows


SENATE = _sheet("U.S. Senate", ["Mike Lee", "Evan McMullin"], [[300, 200], [250, 250],
                                                                [100, 90]])
SHERIFF = _sheet("County Sheriff", ["Cy Cole", "Di Dunn"], [[350, 340], [200, 210], [60, 70]])
CLERK = _sheet("County Clerk", ["Ann Able"], [[500], [420], [150]])


def _totals(parsed) -> dict[str, dict[str, int]]:
    return {t.contest.key.title: {c.choice.name: c.votes for c in t.choices}
            for t in parsed.totals}


def test_a_contest_a_sheet_is_one_election(tmp_path: Path):
    path = write_workbook(tmp_path / "w.xlsx", {"U.S. Senate": SENATE,
                                                "Notes": [["Unofficial until canvassed"]],
                                                "County Sheriff": SHERIFF,
                                                "County Clerk": CLERK})
    parsed = read_canvass(path)
    assert parsed.family == "stacked"
    assert _totals(parsed) == {"U.S. Senate": {"Mike Lee": 650, "Evan McMullin": 540},
                               "County Sheriff": {"Cy Cole": 610, "Di Dunn": 620},
                               "County Clerk": {"Ann Able": 1070}}
    assert all(t.official for t in parsed.totals)   # (each sheet's totals row)
    assert sorted(parsed.precincts) == ["P01", "P02", "P03"]
    notes = [i.message for i in parsed.issues if i.severity is Severity.NOTE]
    assert any("are read as one election, a contest a sheet" in m for m in notes)
    assert any("'Notes' hold no table of precincts" in m for m in notes)
    assert not [i for i in parsed.issues if i.severity is Severity.ERROR]


def test_one_contest_on_two_sheets_is_refused(tmp_path: Path):
    path = write_workbook(tmp_path / "w.xlsx", {"Senate": SENATE, "Senate again": SENATE})
    with pytest.raises(ImportFailed, match=re.escape("'U.S. Senate' is on two sheets, "
                                                     "'Senate' and 'Senate again'")):
        read_canvass(path)


def test_sheets_under_other_titles_are_not_one_election(tmp_path: Path):
    # (two elections' sheets, a table each: not one election's contests)
    path = write_workbook(tmp_path / "w.xlsx", {
        "2022 General": SENATE,
        "2022 Primary": _sheet("County Sheriff", ["Cy Cole", "Di Dunn"],
                               [[350, 340], [200, 210], [60, 70]],
                               title="2022 Primary Election - Canvass Report")})
    with pytest.raises(ImportFailed):
        read_canvass(path, family="stacked")


def test_a_chosen_sheet_of_such_a_workbook_is_its_contest(tmp_path: Path):
    from recount_desk.formats.base import ReadOptions

    path = write_workbook(tmp_path / "w.xlsx", {"U.S. Senate": SENATE,
                                                "County Sheriff": SHERIFF})
    parsed = read_canvass(path, family="stacked", options=ReadOptions(sheet="County Sheriff"))
    assert _totals(parsed) == {"County Sheriff": {"Cy Cole": 610, "Di Dunn": 620}}
