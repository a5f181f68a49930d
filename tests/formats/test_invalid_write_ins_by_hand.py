"""Invalid write-ins in county sheets laid out by hand (found on Weber 2022's long file laid
out as a hand-built workbook, session 16): 'WRITE-IN: INVALID WRITE-IN' (228 votes) and
'Write-In: Fictitious Entry' were counted as write-in candidates in hand-built, sideways and
stacked sheets, and so in the race's total and its recount threshold, where the long tables
and the ES&S and GEMS readers leave them out: votes for no candidate. Now every reader
leaves them out, with the same note. And a statistic named with its total ('REGISTERED
VOTERS - TOTAL', Sevier 2022 laid out as stacked tables) is no choice of a contest."""

from __future__ import annotations

from pathlib import Path

from workbooks import write_workbook

from recount_desk.core.model import Severity
from recount_desk.formats import read_canvass

NOTE = "invalid write-in vote(s) (e.g. 'Write-In: Invalid Write-In') are not counted"


def _senate(parsed) -> dict[str, int]:
    t = next(t for t in parsed.totals if t.contest.key.title == "US Senate")
    return {c.choice.name: c.votes for c in t.choices}


def _notes(parsed) -> list[str]:
    return [i.message for i in parsed.issues if NOTE in i.message]


def test_a_hand_built_sheet_leaves_invalid_write_ins_out_of_the_race(tmp_path: Path):
    rows = [["2024 General Election - Canvass Report"], [],
            [None] * 4 + ["US Senate", None, None, None],
            ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %",
             "Mike Lee", "Caroline Gleich", "Write-In: Ann Cole", "Write-In: Invalid Write-In"],
            [None] * 4 + ["REP", "DEM", None, None],
            ["P01", 900, 700, 0.78, 400, 250, 3, 20],
            ["P02", 800, 600, 0.75, 300, 250, 2, 8]]
    parsed = read_canvass(write_workbook(tmp_path / "t.xlsx", {"2024 General": rows}))
    assert parsed.family == "handbuilt"
    assert not [i for i in parsed.issues if i.severity is Severity.ERROR]
    assert _senate(parsed) == {"Mike Lee": 700, "Caroline Gleich": 500, "Write-In: Ann Cole": 5}
    assert parsed.totals[0].total == 1205
    assert _notes(parsed) == [f"28 {NOTE} for any candidate."]


def test_sideways_and_stacked_sheets_leave_them_out_too(tmp_path: Path):
    sideways = [["Garfield County 2024 General Election Canvass"], [],
                [None, "Total", "P1", "P2", "P3"], [], ["US Senate"],
                ["Mike Lee", 90, 30, 30, 30], ["Caroline Gleich", 60, 20, 20, 20],
                ["Write-In: Invalid Write-In", 9, 3, 3, 3], [],
                ["Town Council"], ["Cy Cole", 150, 50, 50, 50], ["Di Dunn", 120, 40, 40, 40]]
    parsed = read_canvass(write_workbook(tmp_path / "s.xlsx", {"Canvass": sideways}))
    assert parsed.family == "sideways"
    assert _senate(parsed) == {"Mike Lee": 90, "Caroline Gleich": 60}
    assert _notes(parsed) == [f"9 {NOTE} for any candidate."]
    stacked = [["Wayne County 2024 General Election", None, "Official"], [],
               ["US Senate"], ["Vote for 1"],
               ["Precinct", "Mike Lee", "Caroline Gleich", "Write-In: Invalid Write-In"],
               ["P01", 10, 15, 1], ["P02", 11, 16, 2], ["P03", 12, 17, 0], [],
               ["Town Council"], ["Vote for 1"], ["Precinct", "Cy Cole", "Di Dunn"],
               ["P01", 40, 45], ["P02", 41, 46], ["P03", 42, 47], []]
    parsed = read_canvass(write_workbook(tmp_path / "st.xlsx", {"Results": stacked}))
    assert parsed.family == "stacked"
    assert _senate(parsed) == {"Mike Lee": 33, "Caroline Gleich": 48}
    assert _notes(parsed) == [f"3 {NOTE} for any candidate."]


def test_a_statistic_named_with_its_total_is_no_choice_of_a_stacked_table(tmp_path: Path):
    # Sevier 2022's long file puts 'REGISTERED VOTERS - TOTAL' and 'BALLOTS CAST - TOTAL'
    # under 'Constitutional Amendment A' in some precincts; laid out as stacked tables
    # they became two more choices of the amendment, which then read as a race they won.
    stacked = [["Sevier County 2022 General Election", None, "Official"], [],
               ["Constitutional Amendment A"], ["Vote for 1"],
               ["Precinct", "FOR", "AGAINST", "REGISTERED VOTERS - TOTAL",
                "BALLOTS CAST - TOTAL"],
               ["P01", 10, 15, 700, 468], ["P02", 11, 16, None, None], [],
               ["County Sheriff"], ["Vote for 1"], ["Precinct", "Cy Cole", "Di Dunn"],
               ["P01", 40, 45], ["P02", 41, 46], []]
    parsed = read_canvass(write_workbook(tmp_path / "st.xlsx", {"Results": stacked}))
    assert parsed.family == "stacked"
    amendment = parsed.totals[0]
    assert amendment.contest.kind.value == "proposition"
    assert {c.choice.name: c.votes for c in amendment.choices} == {"FOR": 21, "AGAINST": 31}
