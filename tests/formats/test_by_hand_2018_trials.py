"""What laying out 2018 county files by hand found (session 17: Davis, Weber, Utah, Salt
Lake, Cache and others' OpenElections files in
the shared corpus's ``openelections-ut/2018/counties/`` as hand-built workbooks, sideways
sheets and stacked tables; the rows below are made up in their layouts):

* Davis's 'Straight Party' tallies (votes by party, no race) were one more contest in a
  hand-built sheet, where every other reader leaves them out by the same words;
* Weber's party row says 'write-in' under its write-ins, and 'Lbt' for Libertarian: the row
  was no party row, so the parties were read as the contests' titles ('Dem', 'Rep', …; the
  gate doubted it, the reading went to the mapping page);
* a suppressed '*' in one candidate's cell hid the whole contest in that precinct, the
  counts beside it too, where they are the precinct's and are read.
"""

from __future__ import annotations

from pathlib import Path

from workbooks import write_workbook

from recount_desk.core.model import Severity
from recount_desk.formats import read_canvass

STATS = ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast"]


def _totals(parsed) -> dict[str, dict[str, int]]:
    return {t.contest.key.title: {c.choice.name: c.votes for c in t.choices}
            for t in parsed.totals}


def _errors(parsed) -> list[str]:
    return [i.message for i in parsed.issues if i.severity is Severity.ERROR]


def test_straight_party_columns_are_no_contest_in_a_hand_built_sheet(tmp_path: Path):
    rows = [["2018 General Election - Official Canvass"], [],
            [None] * 3 + ["Straight Party", None, "U.S. Senate", None],
            [*STATS, "Republican", "Democratic", "Mitt Romney", "Jenny Wilson"],
            [None] * 3 + [None, None, "REP", "DEM"],
            ["BO01", 856, 600, 200, 90, 380, 200],
            ["BO02", 759, 500, 150, 80, 300, 190]]
    parsed = read_canvass(write_workbook(tmp_path / "t.xlsx", {"2018 General": rows}))
    assert parsed.family == "handbuilt"
    assert _totals(parsed) == {"U.S. Senate": {"Mitt Romney": 680, "Jenny Wilson": 390}}
    assert [i.message for i in parsed.issues if "'Straight Party' is no contest" in i.message]
    assert _errors(parsed) == []


def test_straight_party_tables_are_no_contest_when_stacked(tmp_path: Path):
    rows = [["Davis County 2018 General Election"], [],
            ["Straight Party"], ["Precinct", "Republican", "Democratic"],
            ["BO01", 200, 90], ["BO02", 150, 80], [],
            ["U.S. Senate"], ["Precinct", "Mitt Romney", "Jenny Wilson"],
            ["BO01", 380, 200], ["BO02", 300, 190], [],
            ["County Sheriff"], ["Precinct", "Kelly Sparks", "Di Dunn"],
            ["BO01", 400, 150], ["BO02", 320, 150]]
    parsed = read_canvass(write_workbook(tmp_path / "s.xlsx", {"Results": rows}))
    assert parsed.family == "stacked"
    assert set(_totals(parsed)) == {"U.S. Senate", "County Sheriff"}


def test_a_party_row_with_write_in_cells_and_lbt_is_the_party_row(tmp_path: Path):
    # (the band in Weber's order for this trial: contests, parties, names)
    rows = [["2018 General Election - Official Canvass"], [],
            [None] * 3 + ["U.S. Senate", None, None, None, "State House District 10", None,
                          None],
            [None] * 3 + ["Rep", "Dem", "Lbt", "write-in", "Rep", "Dem", "write-in"],
            [*STATS, "Mitt Romney", "Jenny Wilson", "Craig Bowden", "Ryan Daniels",
             "Lawanna Shurtliff", "Lorraine Brown", "Terry Schow"],
            ["OGD01", 900, 600, 300, 200, 40, 2, 250, 260, 30],
            ["OGD02", 800, 500, 250, 200, 30, 1, 220, 230, 25]]
    parsed = read_canvass(write_workbook(tmp_path / "w.xlsx", {"2018 General": rows}))
    assert parsed.family == "handbuilt"
    assert _totals(parsed) == {
        "U.S. Senate": {"Mitt Romney": 550, "Jenny Wilson": 400, "Craig Bowden": 70,
                        "Ryan Daniels": 3},
        "State House District 10": {"Lawanna Shurtliff": 470, "Lorraine Brown": 490,
                                    "Terry Schow": 55}}
    parties = {c.name: c.party for cs in parsed.choices for c in cs}
    assert parties["Craig Bowden"] == "LIB" and parties["Mitt Romney"] == "REP"
    assert parties["Ryan Daniels"] == "" and parties["Terry Schow"] == ""
    assert not parsed.doubts


def test_a_suppressed_cell_beside_counts_hides_that_cell_only(tmp_path: Path):
    rows = [["2018 General Election - Official Canvass"], [],
            [None] * 3 + ["U.S. Senate", None, None],
            [*STATS, "Mitt Romney", "Jenny Wilson", "Tim Aalders"],
            [None] * 3 + ["REP", "DEM", "CON"],
            ["WCO001", 40, 30, 20, 8, "*"],
            ["WCO002", 900, 600, 300, 250, 20],
            ["COUNTY TOTALS", None, None, 320, 258, 22]]
    parsed = read_canvass(write_workbook(tmp_path / "x.xlsx", {"2018 General": rows}))
    assert _totals(parsed) == {"U.S. Senate": {"Mitt Romney": 320, "Jenny Wilson": 258,
                                               "Tim Aalders": 22}}
    # (the counts beside the mark are read; the file's totals give the hidden cell's)
    assert "WCO001" in parsed.precincts
    rows[-1] = ["Total Votes Cast: none"]  # no totals row: the verdict cannot rest on them
    parsed = read_canvass(write_workbook(tmp_path / "y.xlsx", {"2018 General": rows}))
    (senate,) = parsed.totals
    assert {c.choice.name: c.votes for c in senate.choices}["Jenny Wilson"] == 258
    assert [i for i in parsed.issues if "hidden" in i.message and "U.S. Senate" in i.message]


def test_one_choice_in_two_columns_has_its_totals_summed(tmp_path: Path):
    # Carbon 2022 laid out by hand (its OCR'd long file spells the retention's answers 'No'
    # and 'NO' in different precincts): one choice, in two columns, and in the totals row.
    rows = [["2022 General Election - Official Canvass"], [],
            [None] * 3 + ["Judge Ann Able Retention", None, None, None],
            [*STATS, "YES", "NO", "Yes", "No"],
            ["C01", 900, 600, 300, 100, None, None],
            ["C02", 800, 500, None, None, 200, 50],
            ["COUNTY TOTALS", None, None, 300, 100, 200, 50]]
    parsed = read_canvass(write_workbook(tmp_path / "c.xlsx", {"2022 General": rows}))
    (race,) = parsed.totals
    assert {c.choice.name: c.votes for c in race.choices} == {"YES": 500, "NO": 150}
    assert race.official
    assert not [i for i in parsed.issues if "do not add up" in i.message]
    assert not parsed.doubts


def test_stacked_tables_of_a_county_of_400_precincts_and_more(tmp_path: Path):
    # Davis and Utah 2022 as stacked tables: the first table filled the rows the detector
    # looks at, so the second, which tells the layout, was never seen (refused).
    precincts = [f"P{i:03d}" for i in range(450)]
    rows: list[list[object]] = [["Utah County 2022 General Election"], [], ["U.S. Senate"],
                                ["Precinct", "Mike Lee", "Evan McMullin"]]
    rows += [[p, 10, 8] for p in precincts] + [[]]
    rows += [["County Sheriff"], ["Precinct", "Cy Cole", "Di Dunn"]]
    rows += [[p, 9, 7] for p in precincts]
    parsed = read_canvass(write_workbook(tmp_path / "u.xlsx", {"Results": rows}))
    assert parsed.family == "stacked"
    assert _totals(parsed) == {"U.S. Senate": {"Mike Lee": 4500, "Evan McMullin": 3600},
                               "County Sheriff": {"Cy Cole": 4050, "Di Dunn": 3150}}


def test_a_sideways_sheet_of_precincts_named_by_number(tmp_path: Path):
    # Rich County's precincts are 1 to 5, San Juan's 1_1, 1_2, …: under a label that says
    # 'Precinct', rising numbers are the precincts' names (they were counts: refused).
    for names in (["1", "2", "3", "4"], ["1_1", "1_2", "2_1", "3_4"]):
        rows = [["Rich County 2022 General Election Canvass"], [],
                ["Precinct", "Total", *names], [], ["U.S. Senate"],
                ["Mike Lee (REP)", 40, 10, 10, 10, 10],
                ["Evan McMullin (UNA)", 20, 5, 5, 5, 5], [],
                ["County Sheriff"], ["Cy Cole", 36, 9, 9, 9, 9], ["Di Dunn", 16, 4, 4, 4, 4]]
        parsed = read_canvass(write_workbook(tmp_path / "r.xlsx", {"Canvass": rows}))
        assert parsed.family == "sideways"
        assert sorted(parsed.precincts) == sorted(names)
        assert _totals(parsed) == {"U.S. Senate": {"Mike Lee": 40, "Evan McMullin": 20},
                                   "County Sheriff": {"Cy Cole": 36, "Di Dunn": 16}}


def _pdf_pages() -> list[list[object]]:
    # A hand-built sheet as a PDF conversion gives it: the title and the header band again
    # on every page, a 'Page n of m' line, an empty column left by merged cells.
    title = ["2022 General Election - Official Canvass"]
    band = [[None, None, None, None, "U.S. Senate", None, None, None, "County Sheriff", None,
             "County Clerk"],
            ["Precinct Name", None, "Total Reg. Voters", "Total Ballots Cast", "Mike Lee",
             None, "Evan McMullin", None, "Cy Cole", "Di Dunn", "Ann Able"],
            [None, None, None, None, "REP", None, "UNA", None, "REP", "DEM", "REP"]]
    rows: list[list[object]] = [title, *band]
    for page in range(4):
        if page:
            rows += [[f"Page {page} of 4"], title, *band]
        for k in range(12):
            n = page * 12 + k
            rows.append([f"HYR{n:02d}:I", None, 900, 600, 300 + n, None, 200, None, 250, 240,
                         400])
    rows.append(["COUNTY TOTALS", None, None, None, sum(300 + n for n in range(48)), None,
                 9600, None, 12000, 11520, 19200])
    return rows


def test_a_hand_built_sheet_converted_from_a_pdf_is_not_read_sideways(tmp_path: Path):
    # Cache, Davis, Utah and Washington 2022 laid out so were claimed by the sideways
    # reader (75 %): the contests' row taken for precincts, the party row for more, each
    # page's 'Page n of m' line for a contest, the precincts for its choices. Refused there
    # now (a row headed 'Precinct Name' with names across; a "precinct" in two columns),
    # the hand-built reader reads it.
    parsed = read_canvass(write_workbook(tmp_path / "p.xlsx", {"2022 General": _pdf_pages()}))
    assert parsed.family == "handbuilt"
    assert _totals(parsed) == {
        "U.S. Senate": {"Mike Lee": sum(300 + n for n in range(48)), "Evan McMullin": 9600},
        "County Sheriff": {"Cy Cole": 12000, "Di Dunn": 11520},
        "County Clerk": {"Ann Able": 19200}}
    assert _errors(parsed) == []
    assert len(parsed.precincts) == 48
