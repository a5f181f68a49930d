"""A hand-built sheet with no statistics columns (session 17): 'Precinct' and the
candidates under a row of contests' titles, as many counties type it (the 2022 files of ten
counties laid out so were refused). Read by the hand-built reader, claimed less surely
than with statistics; laid out as a PDF conversion (the band again on every page) it was
claimed by the sideways reader at 75 %, its candidates taken for precincts (Utah 2022)."""

from __future__ import annotations

from pathlib import Path

import pytest
from handbuilt_layouts import Layout, write
from test_plausibility import offered_as_done, right
from workbooks import write_workbook

from recount_desk.core.model import Severity
from recount_desk.formats import detect, read_canvass

TITLE = ["2022 General Election - Official Canvass"]
BAND = [[None, "U.S. Senate", "U.S. Senate", "U.S. Senate", "County Sheriff",
         "County Sheriff"],
        ["Precinct", "Mike Lee", "Evan McMullin", "James Hansen", "Cy Cole", "Di Dunn"],
        [None, "REP", "UNA", "LIB", "REP", "DEM"]]


def _rows(pages: int = 1, per_page: int = 3) -> list[list[object]]:
    rows: list[list[object]] = [TITLE, [], *BAND]
    for page in range(pages):
        if page:
            rows += [[f"Page {page} of {pages}"], TITLE, *BAND]
        for k in range(per_page):
            n = page * per_page + k
            rows.append([f"AF{n:03d}", 300 + n, 200, 10, 250, 240])
    return rows


def _totals(parsed) -> dict[str, dict[str, int]]:
    return {t.contest.key.title: {c.choice.name: c.votes for c in t.choices}
            for t in parsed.totals}


def test_a_sheet_with_no_statistics_columns_reads_by_hand(tmp_path: Path):
    path = write_workbook(tmp_path / "n.xlsx", {"2022 General": _rows()})
    (claim,) = detect(path)
    assert (claim.family, claim.confidence) == ("handbuilt", 40)
    assert "no voter statistics" in claim.reason
    parsed = read_canvass(path)
    assert _totals(parsed) == {
        "U.S. Senate": {"Mike Lee": 903, "Evan McMullin": 600, "James Hansen": 30},
        "County Sheriff": {"Cy Cole": 750, "Di Dunn": 720}}
    parties = {c.name: c.party for cs in parsed.choices for c in cs}
    assert parties["Mike Lee"] == "REP" and parties["Di Dunn"] == "DEM"
    assert not [i for i in parsed.issues if i.severity is Severity.ERROR]
    assert not parsed.doubts


def test_its_pdf_conversion_is_not_read_sideways(tmp_path: Path):
    path = write_workbook(tmp_path / "p.xlsx", {"2022 General": _rows(pages=4, per_page=12)})
    assert [c.family for c in detect(path)] == ["handbuilt"]
    parsed = read_canvass(path)
    assert parsed.family == "handbuilt"
    assert len(parsed.precincts) == 48
    assert _totals(parsed)["County Sheriff"] == {"Cy Cole": 12000, "Di Dunn": 11520}


@pytest.mark.parametrize("layout", [
    Layout(no_stats=True), Layout(no_stats=True, band=("party", "contest", "names")),
    Layout(no_stats=True, band=("contest", "party", "names"), shuffle_rows=True),
    Layout(no_stats=True, modes="total-last"), Layout(no_stats=True, suppressed=True),
], ids=["contest-names-party", "party-contest-names", "contest-party-names-shuffled",
        "vote-modes", "suppressed"])
def test_generated_sheets_with_no_statistics_read_right(tmp_path: Path, layout: Layout):
    exp = write(layout, tmp_path / "g.xlsx")
    parsed = read_canvass(tmp_path / "g.xlsx")
    assert parsed.family == "handbuilt"
    assert right(parsed, exp)
    assert offered_as_done(parsed), parsed.doubts
    assert parsed.detection is not None and parsed.detection.confidence == 40


def test_a_sheet_whose_header_is_not_found_is_named_not_passed_over(tmp_path: Path):
    # Beaver 2024 laid out a contest a sheet: two school board sheets, each on one
    # precinct's ballot, were left out without a word (their one precinct row was taken
    # for too little to be a header's). Now such a sheet reads; one with no header at all
    # is named in a warning, not passed over.
    senate = [TITLE, [], [None, "U.S. Senate", None], ["Precinct", "Mike Lee", "Evan McMullin"],
              [None, "REP", "UNA"], ["BEAVER 1", 300, 200], ["BEAVER 2", 250, 100]]
    board = [TITLE, [], [None, "School Board District 1"], ["Precinct", "Tyler Fails", "Total"],
             [None, "NON", None], ["BEAVER 1", 587, 587]]
    odd = [["School Board District 2"], ["Trista Kerksiek", 505], ["Write-in", 3]]
    path = write_workbook(tmp_path / "s.xlsx", {"U.S. Senate": senate,
                                                "School Board District 1": board,
                                                "District 2": odd})
    parsed = read_canvass(path)
    assert _totals(parsed) == {"U.S. Senate": {"Mike Lee": 550, "Evan McMullin": 300},
                               "School Board District 1": {"Tyler Fails": 587}}
    (warning,) = [i for i in parsed.issues if "'District 2'" in i.message]
    assert warning.severity is Severity.WARNING
    assert "not read" in warning.message and "column mapping" in warning.message
