"""A hand-built workbook of one sheet per contest (session 15): 'US Senate', 'County Sheriff'
…, each sheet one contest named as the sheet, under the same title. Only the first sheet was
read (a warning named the others), so the clerk saw one contest of the election. Such sheets
are read as one election now, each precinct's ballots taken once (not added up sheet by
sheet); sheets of elections ('2024 General', '2024 Primary') are still read one at a time."""

from __future__ import annotations

from pathlib import Path

from workbooks import write_workbook

from recount_desk.formats import read_canvass

STATS = ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %"]
TITLE = "2024 General Election - Canvass Report"


def _sheet(contest: str, names: list[str], counts: list[list[int]],
           ballots: tuple[int, ...] = (700, 600, 500), title: str = TITLE
           ) -> list[list[object]]:
    rows: list[list[object]] = [[title], [], [None] * 4 + [contest], [*STATS, *names]]
    for p, (b, c) in enumerate(zip(ballots, counts, strict=True)):
        rows.append([f"P0{p + 1}", 900, b, round(b / 900, 4), *c])
    return rows


SENATE = _sheet("US Senate", ["Mike Lee", "Evan McMullin"], [[300, 200], [250, 250], [100, 90]])
SHERIFF = _sheet("County Sheriff", ["Cy Cole", "Di Dunn"], [[350, 340], [200, 210], [60, 70]])


def _votes(parsed) -> dict[str, dict[str, int]]:
    return {t.contest.key.title: {c.choice.name: c.votes for c in t.choices}
            for t in parsed.totals}


def test_a_sheet_a_contest_is_read_as_one_election(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "w.xlsx", {"US Senate": SENATE, "County Sheriff": SHERIFF})
    parsed = read_canvass(path)
    assert _votes(parsed) == {"US Senate": {"Mike Lee": 650, "Evan McMullin": 540},
                              "County Sheriff": {"Cy Cole": 610, "Di Dunn": 620}}
    assert any("are read as one election, a contest a sheet" in i.message
               for i in parsed.issues)
    assert not any("result sheets" in i.message for i in parsed.issues)
    assert not parsed.doubtful and not parsed.errors


def test_each_precincts_ballots_are_taken_once_not_added_sheet_by_sheet(tmp_path: Path) -> None:
    # 690 votes in P01 of 700 ballots, then 720 on the sheriff's sheet: more votes than
    # ballots, which ballots added up over the two sheets (1,400) would have hidden.
    over = _sheet("County Sheriff", ["Cy Cole", "Di Dunn"], [[370, 350], [200, 210], [60, 70]])
    parsed = read_canvass(write_workbook(tmp_path / "w.xlsx",
                                         {"US Senate": SENATE, "County Sheriff": over}))
    assert any("720 votes but 700 ballots cast" in i.message for i in parsed.errors)


def test_sheets_that_disagree_on_a_precincts_ballots_are_said_to(tmp_path: Path) -> None:
    other = _sheet("County Sheriff", ["Cy Cole", "Di Dunn"], [[350, 340], [200, 210], [60, 70]],
                   ballots=(700, 650, 500))
    parsed = read_canvass(write_workbook(tmp_path / "w.xlsx",
                                         {"US Senate": SENATE, "County Sheriff": other}))
    said = next(i for i in parsed.issues if "ballots cast, sheet 'US Senate'" in i.message)
    assert "precinct 'P02' 650" in said.message and said.sheet == "County Sheriff"


def test_sheets_of_elections_are_still_read_one_at_a_time(tmp_path: Path) -> None:
    primary = _sheet("US Senate", ["Mike Lee", "Evan McMullin"], [[30, 20], [25, 25], [10, 9]],
                     title="2024 Primary Election - Canvass Report")
    parsed = read_canvass(write_workbook(tmp_path / "w.xlsx",
                                         {"2024 General": SENATE, "2024 Primary": primary}))
    assert list(_votes(parsed)) == ["US Senate"]
    assert any("result sheets" in i.message and "'2024 Primary'" in i.message
               for i in parsed.issues)


def test_sheets_named_as_contests_under_other_titles_are_not_joined(tmp_path: Path) -> None:
    # (the same contest's sheet of another election is no other contest of this one)
    other = _sheet("County Sheriff", ["Cy Cole", "Di Dunn"], [[350, 340], [200, 210], [60, 70]],
                   title="2022 General Election - Canvass Report")
    parsed = read_canvass(write_workbook(tmp_path / "w.xlsx",
                                         {"US Senate": SENATE, "County Sheriff": other}))
    assert list(_votes(parsed)) == ["US Senate"]


def test_sheets_named_as_excel_lets_a_contest_be_named(tmp_path: Path) -> None:
    # (session 17, Washington 2022 laid out a contest a sheet: a sheet's name cannot hold '/'
    # and is cut at 31 characters, so 'County Clerk/Auditor' and the long retention titles
    # were not taken for their sheets' contests, and those sheets were left unread)
    clerk = _sheet("County Clerk/Auditor", ["Susan Lewis", "Pat Kent"], [[400, 90], [300, 80],
                                                                          [120, 40]])
    judge = _sheet("PAIGE PETERSEN Judicial Retention", ["YES", "NO"], [[400, 100], [350, 90],
                                                                        [110, 40]])
    path = write_workbook(tmp_path / "w.xlsx", {"US Senate": SENATE,
                                                "County Clerk Auditor": clerk,
                                                "PAIGE PETERSEN Judicial Retenti": judge})
    parsed = read_canvass(path)
    assert set(_votes(parsed)) == {"US Senate", "County Clerk/Auditor",
                                   "PAIGE PETERSEN Judicial Retention"}
    assert not any("result sheets" in i.message for i in parsed.issues)
