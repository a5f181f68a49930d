"""Salt Lake County SOVC workbooks: 2018 (six rows per precinct) and the 2024 printed SOVC."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.formats import ImportFailed, detect, read_canvass

DATA = Path(__file__).parents[1] / "data" / "formats" / "slco_sovc"
SOVC_2018 = DATA / "Salt Lake UT 18P_SOVC_Final.xlsx"
SOVC_2024 = DATA / "slco-2024-general-sovc-trimmed.xlsx"


def totals_of(parsed, title: str, party: str = ""):
    for t in parsed.totals:
        if t.contest.key.title == title and t.contest.key.party == party:
            return t
    raise AssertionError(f"{title!r} not in {[t.contest.key for t in parsed.totals]}")


@pytest.mark.parametrize(
    ("path", "contests", "title", "party", "expected"),
    [
        (SOVC_2018, 7, "U.S. SENATE", "REP", {"MITT ROMNEY": 74008, "MIKE KENNEDY": 23858}),
        (SOVC_2018, 7, "U.S. REPRESENTATIVE #3", "REP",
         {"JOHN CURTIS": 18340, "CHRISTOPHER N. HERROD": 5803}),
        (SOVC_2024, 4, "U.S. SENATE", "",
         {"CARLTON E. BOWEN": 19410, "JOHN CURTIS": 238607, "CAROLINE GLEICH": 237322,
          "LAIRD FETZER HAMBLIN": 113}),
        (SOVC_2024, 4, "MATTHEW B. DURRANT", "", {"YES": 305338, "NO": 115074}),
    ],
    ids=["2018p-senate", "2018p-house3", "2024g-senate", "2024g-retention"],
)
def test_real_files_give_hand_checked_totals(path, contests, title, party, expected):
    assert detect(path)[0].family == "slco_sovc"
    parsed = read_canvass(path)
    assert len(parsed.contests) == contests
    t = totals_of(parsed, title, party)
    assert {c.choice.name: c.votes for c in t.choices} == expected


def test_2018_only_total_rows_count_and_agree_with_election_total():
    parsed = read_canvass(SOVC_2018)
    assert parsed.primary is True
    # ALT001, U.S. Senate: the 'Total' row (7 / 7), not the sum of all six rows.
    c = next(i for i, t in enumerate(parsed.totals) if t.contest.key.title == "U.S. SENATE")
    p = parsed.precincts.index("ALT001")
    votes = {parsed.choices[c][ch].name: v for pi, ci, ch, v in zip(
        parsed.vote_precinct, parsed.vote_contest, parsed.vote_choice, parsed.vote_count,
        strict=True) if pi == p and ci == c}
    assert votes == {"MITT ROMNEY": 7, "MIKE KENNEDY": 7}
    assert not [i for i in parsed.issues if "do not add up" in i.message]
    # The sheet name is mangled ('_x0009_'); the title on the sheet is used.
    assert totals_of(parsed, "STATE SENATE DISTRICT #2", "DEM")


def test_2024_suppressed_precincts_use_the_county_total_row():
    parsed = read_canvass(SOVC_2024)
    pres = totals_of(parsed, "U.S. PRESIDENT")
    got = {c.choice.name: c.votes for c in pres.choices}
    # Precincts add up to 221,452 for Trump; 46 suppressed precincts; County - Total says:
    assert got["DONALD J. TRUMP / JD VANCE"] == 221555
    assert got["KAMALA D. HARRIS / TIM WALZ"] == 273658
    assert got["PETER SONSKI / LAUREN MICHELLE ONAK"] == 129  # a qualified write-in
    assert pres.contest.seats == 1
    assert pres.contest.seats_from_file
    notes = [i for i in parsed.issues if "46 precinct(s) are suppressed" in i.message]
    assert notes
    assert notes[0].sheet == "Sheet2"
    assert any("suppressed for voter privacy" in i.message and "221,452" in i.message
               for i in parsed.issues)
    assert "Total Votes" not in got


def test_2024_percent_and_total_columns_are_not_votes():
    parsed = read_canvass(SOVC_2024)
    house = totals_of(parsed, "U.S. HOUSE DISTRICT 1")
    assert {c.choice.name: c.votes for c in house.choices} == {
        "BILL CAMPBELL": 29469, "DANIEL R. COTTAM": 1412, "BLAKE D. MOORE": 12957}


def test_a_sovc_without_contest_sheets_fails_clearly(tmp_path):
    import openpyxl

    wb = openpyxl.Workbook()
    wb.active.title = "TOC"
    wb.active["B2"] = "Statement of Votes Cast"
    wb.create_sheet("U.S. SENATE")["B2"] = "nothing here"
    path = tmp_path / "sovc.xlsx"
    wb.save(path)
    with pytest.raises(ImportFailed, match="No contest sheet of a Salt Lake County Statement"):
        read_canvass(path, family="slco_sovc")
