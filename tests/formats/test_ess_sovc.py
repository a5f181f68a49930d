"""ES&S Electionware SOVC export (family 1): real Utah and Pima files, figures checked by hand
against each file's own ``ZZZ,COUNTY TOTALS`` row."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
import pytest

from recount_desk.core.model import ExtraKind, Severity
from recount_desk.formats import detect, read_canvass, vocab
from recount_desk.formats.base import ImportFailed
from recount_desk.formats.tabular import col_letter

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
    # A 'Write-in' column closes each contest (Utah County 2020 general).
    ("utah_2020g_sovc.csv", 72, "U.S. House District 4",
     {"JONIA M BRODERICK": 1343, "BURGESS OWENS": 40595, "JOHN MOLNAR": 2416,
      "BEN MCADAMS": 16003, "Write-in": 114}, False),
    # Primary statistics by party (REGISTERED VOTERS - REPUBLICAN …), no BALLOTS CAST BLANK.
    ("washington_2020p_sovc.csv", 4, "Republican for State House District 71",
     {"WILLIE BILLINGS": 4135, "BRAD LAST": 3960}, True),
    # XLSX; a DEM and a REP race for the same office side by side.
    ("box_elder_2020p_sovc.xlsx", 5, "Republican for U.S. House 1",
     {"KATIE WITT": 2185, "BOB STEVENSON": 3084, "BLAKE DAVID MOORE": 3318,
      "KERRY W. GIBSON": 3389}, True),
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
        (lambda ls: ls[:5], None, None, Severity.ERROR, "COUNTY TOTALS"),
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


# --- Variants built at test time from the real files above ------------------------------------

def read_rows(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8-sig", newline="") as f:
        return [list(r) for r in csv.reader(f)]


def write_csv(rows: list[list[str]], path: Path, *, encoding: str = "utf-8",
              newline: str = "\r\n") -> Path:
    with open(path, "w", encoding=encoding, newline="") as f:
        csv.writer(f, lineterminator=newline).writerows(rows)
    return path


def write_xlsx(rows: list[list[str]], path: Path, *, numbers: str = "int",
               cover: bool = False) -> Path:
    """The rows as a workbook: counts as numbers ('int') or as text cells ('text')."""
    wb = openpyxl.Workbook()
    ws = wb.active
    if cover:
        ws.title = "Notes"
        ws.append(["Exported from Electionware"])
        ws = wb.create_sheet("SOVC")
    for i, r in enumerate(rows):
        out: list[object] = []
        for j, v in enumerate(r):
            if i >= 3 and j >= 3 and numbers == "int" and v.strip().isdigit():
                out.append(int(v))
            else:
                out.append(v if v != "" else None)
        ws.append(out)
    wb.save(path)
    return path


def summary(pc) -> list[tuple]:
    """Everything a verdict depends on, comparable across copies of one file."""
    return [(t.contest.key.title, t.contest.key.district, t.contest.key.party,
             t.contest.seats, tuple((c.choice.name, c.choice.party, c.votes) for c in t.choices),
             tuple(sorted((k.value, v) for k, v in t.extras.items())), t.precincts)
            for t in pc.totals]


def warnings_of(pc) -> list[str]:
    return [i.message for i in pc.issues if i.severity is Severity.WARNING]


@pytest.mark.parametrize(("src", "numbers", "cover"), [
    ("weber_2020g_sovc.csv", "int", False),
    ("weber_2020g_sovc.csv", "text", False),
    ("grand_2020p_sovc.csv", "text", True),
], ids=["weber-numbers", "weber-numbers-as-text", "grand-text-after-a-cover-sheet"])
def test_xlsx_copy_of_a_csv_export_reads_the_same(tmp_path: Path, src: str, numbers: str,
                                                  cover: bool) -> None:
    rows = read_rows(DATA / src)
    xlsx = write_xlsx(rows, tmp_path / "export.xlsx", numbers=numbers, cover=cover)
    assert detect(xlsx)[0].family == "ess_sovc"
    from_csv, from_xlsx = read_canvass(DATA / src), read_canvass(xlsx)
    assert summary(from_xlsx) == summary(from_csv)
    assert from_xlsx.precincts == from_csv.precincts
    assert mismatch(from_xlsx) == [] and from_xlsx.errors == []
    if cover:
        assert any("'Notes'" in i.message for i in from_xlsx.issues)


def test_title_written_once_over_its_columns_is_carried_right(tmp_path: Path) -> None:
    """A re-saved workbook with merged title cells keeps the title only in the first column."""
    rows = read_rows(DATA / "grand_2020p_sovc.csv")
    for c in range(len(rows[0]) - 1, 10, -1):
        if rows[0][c] == rows[0][c - 1]:
            rows[0][c] = ""
    pc = read_canvass(write_xlsx(rows, tmp_path / "merged.xlsx"))
    assert summary(pc) == summary(read_canvass(DATA / "grand_2020p_sovc.csv"))
    notes = [i for i in pc.issues if "no contest title in row 1" in i.message]
    assert notes and notes[0].severity is Severity.NOTE and notes[0].column == "L"


@pytest.mark.parametrize(("encoding", "newline", "note"), [
    ("utf-8-sig", "\r\n", False),
    ("utf-8", "\n", False),
    ("cp1252", "\r\n", True),
], ids=["utf8-bom-crlf", "utf8-lf", "cp1252-crlf"])
def test_encodings_and_line_ends_give_the_same_figures(tmp_path: Path, encoding: str,
                                                       newline: str, note: bool) -> None:
    rows = read_rows(DATA / "grand_2020p_sovc.csv")
    rows[2] = [c.replace("JON HUNTSMAN JR.", "JOSÉ HUNTSMAN JR.") for c in rows[2]]
    pc = read_canvass(write_csv(rows, tmp_path / "g.csv", encoding=encoding, newline=newline))
    assert totals_of(pc, "Republican for Governor and Lieutenant Governor")[
        "JOSÉ HUNTSMAN JR., MICHELLE KAUFUSI"] == 546
    assert len(pc.contests) == 2 and mismatch(pc) == [] and pc.errors == []
    assert any("not UTF-8" in i.message for i in pc.issues) is note


def test_names_garbled_by_a_wrong_encoding_are_mended_and_noted() -> None:
    pc = read_canvass(DATA / "utah_2020ppp_sovc.xlsx")
    dem = totals_of(pc, "DEM Democratic for U.S. President")
    assert dem["JULIÁN CASTRO"] == 23
    assert not any("Ã" in n for n in dem)
    assert any("garbled" in i.message and i.severity is Severity.NOTE for i in pc.issues)


def test_presidential_primary_workbook_reads_its_first_sheet_and_keeps_party_races_apart(
        ) -> None:
    pc = read_canvass(DATA / "utah_2020ppp_sovc.xlsx")
    assert [(c.key.title, c.key.party) for c in pc.contests] == [
        ("DEM Democratic for U.S. President", "DEM"),
        ("REP Republican for U.S. President", "REP")]
    dem = totals_of(pc, "DEM Democratic for U.S. President")
    assert (dem["BERNIE SANDERS"], dem["JOSEPH R. BIDEN"], dem["PETE BUTTIGIEG"]) == \
        (8596, 4359, 1587)
    # 'UNDERVOTE (CANDIDATE WITHDREW)' sits among the candidates but is an under vote.
    assert "UNDERVOTE (CANDIDATE WITHDREW)" not in dem
    t = next(t for t in pc.totals if t.contest.key.party == "DEM")
    assert t.extras[ExtraKind.UNDER] == 25
    assert pc.primary is True and mismatch(pc) == [] and pc.errors == []
    assert any("also has 'SOVC', 'CD4'" in i.message for i in pc.issues)


def _with_over_under(rows: list[list[str]], *, before_write_in: bool) -> tuple[
        list[list[str]], dict[str, tuple[int, int]]]:
    """Washington 2020 layout from Utah County's: OVER VOTES and UNDER VOTES after each
    contest, before its 'Write-in' column or after it. Over votes are 1 in every third
    precinct, under votes fill the contest up to the ballots cast (so the arithmetic holds)."""
    ballots_col = rows[0].index("BALLOTS CAST TOTAL")
    total_row = next(i for i, r in enumerate(rows) if r[1] == "ZZZ")
    runs: list[tuple[str, list[int]]] = []
    for c in range(6, len(rows[0])):
        if runs and runs[-1][0] == rows[0][c]:
            runs[-1][1].append(c)
        else:
            runs.append((rows[0][c], [c]))
    out = [r[:6] for r in rows]
    sums: dict[str, tuple[int, int]] = {}
    for title, cols in runs:
        if not title:
            continue
        has_wi = rows[2][cols[-1]] == "Write-in"
        cand, wi = (cols[:-1], cols[-1:]) if has_wi else (cols, [])
        over_col, under_col = [], []
        tot_over = tot_under = 0
        for i, r in enumerate(rows):
            if i < 3 or i == total_row:
                over_col.append({0: title, 1: "", 2: "OVER VOTES"}.get(i, ""))
                under_col.append({0: title, 1: "", 2: "UNDER VOTES"}.get(i, ""))
                continue
            votes = sum(int(r[c] or 0) for c in cols)
            over = 1 if i % 3 == 0 and votes < int(r[ballots_col]) else 0
            under = int(r[ballots_col]) - votes - over
            over_col.append(str(over))
            under_col.append(str(under))
            tot_over += over
            tot_under += under
        over_col[total_row], under_col[total_row] = str(tot_over), str(tot_under)
        sums[title] = (tot_over, tot_under)
        order = [*cand, "O", "U", *wi] if before_write_in else [*cand, *wi, "O", "U"]
        for k, r in enumerate(out):
            for c in order:
                r.append(over_col[k] if c == "O" else under_col[k] if c == "U" else rows[k][c])
    return out, sums


@pytest.mark.parametrize("before_write_in", [True, False],
                         ids=["over-under-then-write-in", "write-in-then-over-under"])
def test_over_under_and_write_in_columns_after_each_contest(tmp_path: Path,
                                                            before_write_in: bool) -> None:
    rows, sums = _with_over_under(read_rows(DATA / "utah_2020g_sovc.csv"),
                                  before_write_in=before_write_in)
    pc = read_canvass(write_csv(rows, tmp_path / "washington_like_sovc.csv"))
    assert len(pc.contests) == 72
    assert totals_of(pc, "U.S. House District 4") == {
        "JONIA M BRODERICK": 1343, "BURGESS OWENS": 40595, "JOHN MOLNAR": 2416,
        "BEN MCADAMS": 16003, "Write-in": 114}
    t = next(t for t in pc.totals if t.contest.key.title == "U.S. House District 4")
    assert dict(t.extras) == {ExtraKind.OVER: sums["U.S. House District 4"][0],
                              ExtraKind.UNDER: sums["U.S. House District 4"][1]}
    assert all(c.seats == 1 for c in pc.contests)
    assert mismatch(pc) == [] and pc.errors == [] and warnings_of(pc) == []


def test_seats_follow_from_over_and_under_votes_where_the_file_has_them() -> None:
    pc = read_canvass(DATA / "pima_az_2016g_export1.sovc.csv")
    seats = {c.key.title: (c.seats, c.seats_from_file) for c in pc.contests}
    assert seats["STATE REPRESENTATIVE, DIST. 2"] == (2, True)
    assert seats["CORPORATION COMMISSIONER"] == (3, True)
    assert seats["UNITED STATES SENATOR"] == (1, False)
    note = next(i for i in pc.issues if "whole multiple of its ballots cast" in i.message)
    assert "STATE REPRESENTATIVE, DIST. 2: 2 seats" in note.message
    # One precinct only, split: 29 votes on 22 ballots proves nothing but one seat is wrong.
    warned = [i for i in pc.issues if "more votes than ballots" in i.message]
    assert [w.message.split(":")[0] for w in warned] == ["BOARD MEMBER ARIVACA FIRE DISTRICT"]


def _council(tmp_path: Path, title: str) -> Path:
    lines = [
        "COUNTY NUMBER,PRECINCT CODE,PRECINCT NAME,REGISTERED VOTERS TOTAL,BALLOTS CAST TOTAL,"
        f"BALLOTS CAST BLANK,{title},{title},{title}",
        ",,,,,,NON,NON,NON",
        ",,,VOTERS,BALLOTS CAST,BALLOTS CAST,ANN,BOB,CAL",
        "10,1,Moab 1,100,50,0,40,35,20",
        "10,2,Moab 2,100,60,0,30,25,20",
        "10,ZZZ,COUNTY TOTALS,200,110,0,70,60,40",
    ]
    return write_csv([ln.split(",") for ln in lines], tmp_path / "council_sovc.csv")


def test_more_votes_than_ballots_without_over_under_is_a_warning(tmp_path: Path) -> None:
    pc = read_canvass(_council(tmp_path, "CITY COUNCIL"))
    warned = [i for i in pc.issues if "more votes than ballots" in i.message]
    assert len(warned) == 1 and warned[0].severity is Severity.WARNING
    assert "precinct Moab 1: 95 votes on 50 ballots" in warned[0].message
    assert pc.contests[0].seats == 1


def test_vote_for_in_the_title_gives_the_seats(tmp_path: Path) -> None:
    pc = read_canvass(_council(tmp_path, "CITY COUNCIL (Vote For 2)"))
    assert (pc.contests[0].seats, pc.contests[0].seats_from_file) == (2, True)
    assert not [i for i in pc.issues if "more votes than ballots" in i.message]


def test_party_races_sharing_a_title_are_told_apart_by_the_party_row(tmp_path: Path) -> None:
    """Box Elder 2020 primary with the party left out of the titles: row 2 (DEM/REP) and the
    primary's per-party statistics keep the two U.S. House 1 races apart."""
    wb = openpyxl.load_workbook(DATA / "box_elder_2020p_sovc.xlsx")
    ws = wb.worksheets[0]
    for cell in ws[1]:
        if isinstance(cell.value, str) and cell.value.endswith("for U.S. House 1"):
            cell.value = "U.S. House 1"
    wb.save(tmp_path / "be.xlsx")
    pc = read_canvass(tmp_path / "be.xlsx")
    house = {t.contest.key.party: {c.choice.name: c.votes for c in t.choices}
             for t in pc.totals if t.contest.key.title == "U.S. House 1"}
    assert house == {"DEM": {"DARREN PARRY": 489, "JAMIE CHEEK": 378},
                     "REP": {"KATIE WITT": 2185, "BOB STEVENSON": 3084,
                             "BLAKE DAVID MOORE": 3318, "KERRY W. GIBSON": 3389}}
    assert {t.contest.key.district for t in pc.totals} == {""}
    assert len(pc.contests) == 5 and mismatch(pc) == []


def test_no_county_totals_row_is_an_error_the_file_is_probably_cut_short(
        tmp_path: Path) -> None:
    """The export always ends with its county totals row: a file without it was cut short
    (or the row deleted), so its precincts may not be all of them, and no verdict rests on
    them (a copy cut at a precinct's line end reads as a whole canvass otherwise)."""
    rows = [r for r in read_rows(DATA / "weber_2020g_sovc.csv") if r[1:2] != ["ZZZ"]]
    pc = read_canvass(write_csv(rows, tmp_path / "cut_sovc.csv"))
    assert len(pc.contests) == 56
    assert totals_of(pc, "U.S. CONGRESSIONAL DISTRICT 1") == {"DARREN PARRY": 37504,
                                                               "BLAKE DAVID MOORE": 69061}
    [err] = [i for i in pc.errors if "no 'ZZZ, COUNTY TOTALS' row" in i.message]
    assert "cut short" in err.message and err.contest is None and pc.blocking == [err]


def test_blank_and_dash_cells_mean_the_contest_is_not_on_that_ballot(tmp_path: Path) -> None:
    rows = read_rows(DATA / "grand_2020p_sovc.csv")
    ag = [c for c, t in enumerate(rows[0]) if t == "Republican for Attorney General"]
    moab1 = next(i for i, r in enumerate(rows) if r[2] == "Moab 1")
    moab2 = next(i for i, r in enumerate(rows) if r[2] == "Moab 10")
    total = next(i for i, r in enumerate(rows) if r[1] == "ZZZ")
    for c in ag:
        rows[total][c] = str(int(rows[total][c]) - int(rows[moab1][c]) - int(rows[moab2][c]))
        rows[moab1][c], rows[moab2][c] = "", "-"
    pc = read_canvass(write_csv(rows, tmp_path / "blank_sovc.csv"))
    t = next(t for t in pc.totals if t.contest.key.title == "Republican for Attorney General")
    assert t.precincts == 9                 # 11 precincts less the two without the contest
    assert mismatch(pc) == [] and pc.errors == []
    assert any("hold '-'" in i.message and i.severity is Severity.NOTE for i in pc.issues)


def test_running_mate_columns_without_party_prefixes_are_joined_too(tmp_path: Path) -> None:
    rows = read_rows(DATA / "weber_2020g_sovc.csv")
    rows[2] = [vocab.split_party_prefix(c)[0] for c in rows[2]]
    pc = read_canvass(write_csv(rows, tmp_path / "weber_plain.csv"))
    pres = totals_of(pc, "U.S. PRESIDENT/VICE PRESIDENT")
    assert pres["JOSEPH R. BIDEN, KAMALA D. HARRIS"] == 40695
    assert pres["DONALD J. TRUMP, MICHAEL R. PENCE"] == 65949
    assert "GLORIA LA RIVA" in pres and "KAMALA D. HARRIS" not in pres
    assert len(pres) == 9
    gov = totals_of(pc, "GOVERNOR/LT. GOVERNOR")
    assert "SPENCER J. COX, DEIDRE M. HENDERSON" in gov and len(gov) == 4
    assert len(pc.contests) == 56 and mismatch(pc) == []


def test_copy_without_the_party_row_reads_the_same(tmp_path: Path) -> None:
    rows = read_rows(DATA / "grand_2020p_sovc.csv")
    del rows[1]
    p = write_csv(rows, tmp_path / "two_header_rows.csv")
    assert detect(p)[0].family == "ess_sovc"
    pc = read_canvass(p)
    assert summary(pc) == summary(read_canvass(DATA / "grand_2020p_sovc.csv"))
    assert any("two header rows" in i.message for i in pc.issues)
    assert pc.errors == [] and mismatch(pc) == []


@pytest.mark.parametrize(("keep", "words"), [
    (2, "three header rows"), (3, "no precinct rows"),
], ids=["headers-cut", "no-precincts"])
def test_export_cut_short_fails_with_a_clear_message(tmp_path: Path, keep: int,
                                                    words: str) -> None:
    rows = read_rows(DATA / "grand_2020p_sovc.csv")[:keep]
    with pytest.raises(ImportFailed) as e:
        read_canvass(write_csv(rows, tmp_path / "cut.csv"))
    assert words in str(e.value) and "cut.csv" in str(e.value)


def test_a_csv_resaved_with_blank_lines_first_reads_the_same_and_names_its_real_rows(
        tmp_path: Path) -> None:
    src = _two_ut_house(tmp_path)
    lines = src.read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5].replace(",33,22,", ",3x,22,")  # a bad cell, named by its row
    plain, blank = tmp_path / "plain_sovc.csv", tmp_path / "blank_first_sovc.csv"
    plain.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    blank.write_text("\r\n\r\n" + "\r\n".join(lines) + "\r\n", encoding="utf-8")
    assert detect(blank)[0].family == "ess_sovc"
    a, b = read_canvass(plain), read_canvass(blank)
    assert [(t.contest.key, [(c.choice.name, c.votes) for c in t.choices]) for t in a.totals] \
        == [(t.contest.key, [(c.choice.name, c.votes) for c in t.choices]) for t in b.totals]
    rows = {i.message: i.row for i in a.issues}
    shifted = {i.message: i.row for i in b.issues if "blank line" not in i.message}
    assert shifted == {m: (r + 2 if r is not None else None) for m, r in rows.items()}
    assert rows["The vote count '3x' is not a whole number; it is read as 0."] == 6
    assert any(i.message.startswith("The file starts with 2 blank line(s)") and i.row == 3
               for i in b.issues)


def test_rows_after_a_totals_row_at_the_top_are_said_a_few_times_then_counted(tmp_path):
    # The totals row moved above the precincts: each of the 157 precincts after it was
    # warned of, one line each.
    lines = (DATA / "weber_2020g_sovc.csv").read_text().splitlines(keepends=True)
    total = next(i for i, ln in enumerate(lines) if ",ZZZ,COUNTY TOTALS," in ln)
    moved = [*lines[:3], lines[total], *lines[3:total], *lines[total + 1:]]
    (tmp_path / "w.csv").write_text("".join(moved))
    parsed = read_canvass(tmp_path / "w.csv")
    said = [i.message for i in parsed.issues if "after the COUNTY TOTALS row" in i.message]
    assert len(said) == 4 and said[-1].startswith("… and 154 more rows after the COUNTY")


def test_a_candidate_headed_like_a_total_is_an_error_not_left_out(tmp_path: Path) -> None:
    """Pima 2016 with STEIN's column headed 'TOTAL VOTES': it is not the sum of the
    contest's choices, so it is no total; leaving it out would lose her votes unseen."""
    rows = read_rows(DATA / "pima_az_2016g_export1.sovc.csv")
    j = rows[2].index("STEIN")
    rows[2][j] = "TOTAL VOTES"
    pc = read_canvass(write_csv(rows, tmp_path / "export1.sovc.csv"))
    [err] = [i for i in pc.errors if "named like a total" in i.message]
    assert err.column == col_letter(j) and "PRESIDENTIAL ELECTORS" in err.message


def test_write_in_totals_with_no_write_in_column_beside_them_are_the_write_ins(
        tmp_path: Path) -> None:
    """Every 'WRITE-IN' column headed 'Write In Totals': each is its contest's write-ins
    (there are no named write-ins for it to be the sum of), so every figure is the same."""
    src = DATA / "pima_az_2016g_export1.sovc.csv"
    rows = read_rows(src)
    rows[2] = ["Write In Totals" if x == "WRITE-IN" else x for x in rows[2]]
    pc = read_canvass(write_csv(rows, tmp_path / "export1.sovc.csv"))
    whole = read_canvass(src)
    assert not pc.errors
    assert [{c.choice.kind: c.votes for c in t.choices if c.choice.kind.value == "write_in"}
            for t in pc.totals] == \
        [{c.choice.kind: c.votes for c in t.choices if c.choice.kind.value == "write_in"}
         for t in whole.totals]
    assert sum(t.total for t in pc.totals) == sum(t.total for t in whole.totals)
