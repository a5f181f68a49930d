"""ES&S Electionware SOVC export (family 1): real Utah and Pima files, figures checked by hand
against each file's own ``ZZZ,COUNTY TOTALS`` row."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.core.model import ExtraKind, Severity
from recount_desk.formats import detect, read_canvass

DATA = Path(__file__).parent.parent / "data" / "formats" / "ess_sovc"


def totals_of(pc, title: str, district: str = "") -> dict[str, int]:
    t = next(t for t in pc.totals if t.contest.key.title == title
             and t.contest.key.district == district)
    return {c.choice.name: c.votes for c in t.choices}


def mismatch(pc) -> list[str]:
    return [i.message for i in pc.issues if "do not add up" in i.message]


CASES = [
    # file, contests, title, expected per-choice totals, primary
    ("grand_2020p_sovc.csv", 2, "Republican for Governor and Lieutenant Governor",
     {"THOMAS E. WRIGHT, ROB BISHOP": 108, "SPENCER J. COX, DEIDRE M. HENDERSON": 242,
      "JON HUNTSMAN JR., MICHELLE KAUFUSI": 546, "GREG HUGHES, VICTOR IVERSON": 490}, True),
    ("weber_2020g_sovc.csv", 56, "U.S. CONGRESSIONAL DISTRICT 1",
     {"DARREN PARRY": 37504, "BLAKE DAVID MOORE": 69061}, False),
    ("washington_2018g_export.xlsx", 35, "United States Senate",
     {"TIM AALDERS": 3352, "CRAIG R. BOWDEN": 1885, "REED C. MCCANDLESS": 911,
      "JENNY WILSON": 11757, "MITT ROMNEY": 42602}, False),
    ("utah_2022p_sovc.csv", 14, "Republican for U.S. Senate",
     {"BECKY EDWARDS": 24520, "ALLY ISOM": 6770, "MIKE LEE": 54306}, True),
    ("pima_az_2016g_export1.sovc.csv", 87, "PRESIDENTIAL ELECTORS",
     {"CLINTON": 29454, "TRUMP": 16922, "JOHNSON": 1479, "STEIN": 585, "WRITE-IN": 597}, False),
]


@pytest.mark.parametrize(("name", "n_contests", "title", "expected", "primary"), CASES,
                         ids=[c[0] for c in CASES])
def test_sovc_export_reads_real_totals_and_agrees_with_county_totals_row(
        name: str, n_contests: int, title: str, expected: dict[str, int], primary: bool) -> None:
    path = DATA / name
    found = detect(path)
    assert found[0].family == "ess_sovc"
    assert all(d.confidence < found[0].confidence for d in found[1:])
    pc = read_canvass(path)
    assert pc.family == "ess_sovc"
    assert len(pc.contests) == n_contests
    assert totals_of(pc, title) == expected
    assert pc.primary is primary
    assert mismatch(pc) == []
    assert pc.errors == []


def test_pima_keeps_over_and_under_votes_apart_and_skips_trailing_x001a_row() -> None:
    pc = read_canvass(DATA / "pima_az_2016g_export1.sovc.csv")
    t = next(t for t in pc.totals if t.contest.key.title == "UNITED STATES SENATOR")
    assert t.extras == {ExtraKind.OVER: 0, ExtraKind.UNDER: 1475}
    assert "OVER VOTES" not in {c.choice.name for c in t.choices}
    assert len(pc.precincts) == 248
    assert not any("x001A" in p for p in pc.precincts)


def test_weber_running_mate_zero_columns_are_joined_to_the_candidate() -> None:
    pc = read_canvass(DATA / "weber_2020g_sovc.csv")
    pres = totals_of(pc, "U.S. PRESIDENT/VICE PRESIDENT")
    assert pres["JOSEPH R. BIDEN, KAMALA D. HARRIS"] == 40695
    assert pres["DONALD J. TRUMP, MICHAEL R. PENCE"] == 65949
    assert "KAMALA D. HARRIS" not in pres
    t = next(t for t in pc.totals if t.contest.key.title == "U.S. PRESIDENT/VICE PRESIDENT")
    assert {c.choice.name: c.choice.party for c in t.choices}["DONALD J. TRUMP, MICHAEL R. PENCE"] \
        == "REP"


def test_multicounty_contest_keeps_its_title_and_is_noted() -> None:
    pc = read_canvass(DATA / "utah_2022p_sovc.csv")
    titles = {c.key.title for c in pc.contests}
    assert "Republican for State School Board 11 (Multi-County)" in titles
    assert any("(Multi-County)" in i.message and i.severity is Severity.NOTE
               for i in pc.issues)


def test_straight_party_is_not_a_contest() -> None:
    pc = read_canvass(DATA / "washington_2018g_export.xlsx")
    assert "Straight Party" not in {c.key.title for c in pc.contests}


def _two_ut_house(tmp_path: Path) -> Path:
    """Grand 2018 style: two adjacent contests both titled UT HOUSE (HD69 and HD70)."""
    lines = [
        "COUNTY NUMBER,PRECINCT CODE,PRECINCT NAME,REGISTERED VOTERS TOTAL,BALLOTS CAST TOTAL,"
        "BALLOTS CAST BLANK,UT HOUSE,UT HOUSE,UT HOUSE,UT HOUSE,COUNCIL,COUNCIL",
        ",,,,,,NON,NON,NON,NON,NON,NON",
        ",,,VOTERS,BALLOTS CAST,BALLOTS CAST,REP CARL ALBRECHT,DEM MARY ANN,"
        "REP CHRISTINE WATKINS,DEM TOM BOB,ANN,JOE",
        "10,1,Moab 1,100,90,0,40,30,0,0,50,20",
        "10,2,Moab 2,100,80,0,35,25,0,0,40,30",
        "10,3,Castle Valley,100,70,0,0,0,33,22,30,25",
        "10,ZZZ,COUNTY TOTALS,300,240,0,75,55,33,22,120,75",
    ]
    p = tmp_path / "grand_like_sovc.csv"
    p.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return p


def test_two_adjacent_same_titled_contests_are_two_contests(tmp_path: Path) -> None:
    pc = read_canvass(_two_ut_house(tmp_path))
    keys = [(c.key.title, c.key.district) for c in pc.contests]
    assert keys == [("UT HOUSE", "#1"), ("UT HOUSE", "#2"), ("COUNCIL", "")]
    assert totals_of(pc, "UT HOUSE", "#1") == {"CARL ALBRECHT": 75, "MARY ANN": 55}
    assert totals_of(pc, "UT HOUSE", "#2") == {"CHRISTINE WATKINS": 33, "TOM BOB": 22}
    assert mismatch(pc) == []


def test_a_split_the_file_does_not_mark_is_a_warning_naming_the_columns(tmp_path: Path) -> None:
    pc = read_canvass(_two_ut_house(tmp_path))
    warned = [i for i in pc.issues if "does not mark where one contest ends" in i.message]
    assert len(warned) == 1
    assert warned[0].severity is Severity.WARNING
    assert ("G–H: REP CARL ALBRECHT, DEM MARY ANN | I–J: REP CHRISTINE WATKINS, DEM TOM BOB"
            in warned[0].message)
    assert warned[0].column == "I"


@pytest.mark.parametrize(
    ("damage", "expect_row", "expect_col", "severity", "words"),
    [
        (lambda ls: [*ls[:5], ls[5].replace(",33,22,", ",3x,22,"), ls[6]], 6, "I",
         Severity.ERROR, "not a whole number"),
        (lambda ls: ls[:5], None, None, Severity.WARNING, "COUNTY TOTALS"),
    ],
    ids=["garbled-cell", "truncated-no-totals-row"],
)
def test_damaged_copy_gives_a_clear_issue_with_its_row(tmp_path: Path, damage, expect_row,
                                                       expect_col, severity, words) -> None:
    src = _two_ut_house(tmp_path)
    lines = src.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "damaged_sovc.csv"
    bad.write_text("\n".join(damage(lines)) + "\n", encoding="utf-8")
    pc = read_canvass(bad)
    hits = [i for i in pc.issues if words in i.message and i.severity is severity]
    assert hits, [str(i) for i in pc.issues]
    assert hits[0].row == expect_row
    assert hits[0].column == expect_col
