"""Electionware Statement of Votes Cast custom table (family 4): Davis County 2016 and 2022
primaries. Figures checked by hand against each file's own Totals / Election Total row."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import detect, read_canvass

DATA = Path(__file__).parent.parent / "data" / "formats" / "ess_custom"


def totals_of(pc, title: str) -> dict[str, int]:
    t = next(t for t in pc.totals if t.contest.key.title == title)
    return {c.choice.name: c.votes for c in t.choices}


def precinct_votes(pc, precinct: str, title: str) -> dict[str, int]:
    c = next(i for i, x in enumerate(pc.contests) if x.key.title == title)
    return {ch: v for p, cc, ch, v in pc.vote_rows() if p == precinct and cc == c}


CASES = [
    ("davis_2016p_sovc.xlsx", 5, 201, "U.S. Senate", "",
     {"Misty K Snow": 2504, "Jonathan Swinton": 1742}, None),
    ("davis_2022p_sovc.xlsx", 17, 374, "REP U.S. SENATE", "REP",
     {"BECKY EDWARDS": 18144, "ALLY ISOM": 5284, "MIKE LEE": 28647}, 1),
]


@pytest.mark.parametrize(("name", "n_contests", "n_precincts", "title", "party", "expected",
                          "seats"), CASES, ids=[c[0] for c in CASES])
def test_statement_reads_real_totals_and_agrees_with_its_totals_row(
        name: str, n_contests: int, n_precincts: int, title: str, party: str,
        expected: dict[str, int], seats: int | None) -> None:
    path = DATA / name
    found = detect(path)
    assert found[0].family == "ess_custom"
    assert all(d.confidence < found[0].confidence for d in found[1:])
    pc = read_canvass(path)
    assert len(pc.contests) == n_contests
    assert len(pc.precincts) == n_precincts
    assert totals_of(pc, title) == expected
    contest = next(c for c in pc.contests if c.key.title == title)
    assert contest.key.party == party
    if seats is not None:
        assert (contest.seats, contest.seats_from_file) == (seats, True)
    assert pc.primary is True
    assert not [i for i in pc.issues if "do not add up" in i.message]
    assert pc.errors == []


def test_2016_sub_rows_are_not_double_counted() -> None:
    pc = read_canvass(DATA / "davis_2016p_sovc.xlsx")
    # Bountiful 1: Polling 0 + By Mail 21 + … + By Mail After 2 = Total 23 for Misty K Snow.
    assert precinct_votes(pc, "Bountiful 1", "U.S. Senate") == {"Misty K Snow": 23,
                                                                "Jonathan Swinton": 13}
    assert "Election Total" not in pc.precincts
    assert any("'Total' sub-row" in i.message for i in pc.issues)


def test_dash_means_not_on_the_ballot() -> None:
    pc = read_canvass(DATA / "davis_2016p_sovc.xlsx")
    # 'Rep 20' shows '-' in Bountiful 1: no row at all, not a zero.
    assert precinct_votes(pc, "Bountiful 1", "Rep 20") == {}


def test_garbled_cell_is_an_error_with_row_and_column(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    wb = load_workbook(DATA / "davis_2022p_sovc.xlsx")
    ws = wb.worksheets[0]
    assert ws["C8"].value == "BO01:I-S-"
    assert ws["L8"].value == 57
    ws["L8"] = "5?"
    bad = tmp_path / "garbled.xlsx"
    wb.save(bad)
    pc = read_canvass(bad)
    hits = [i for i in pc.issues if "not a whole number" in i.message]
    assert hits
    assert (hits[0].row, hits[0].column, hits[0].severity) == (8, "L", Severity.ERROR)
    assert hits[0].sheet == "Custom Table Report"


def test_sub_rows_that_do_not_add_up_to_their_total_are_a_warning() -> None:
    pc = read_canvass(DATA / "davis_2016p_sovc.xlsx")
    # Centerville 11 really says so: Herbert/Cox 6 + 117 + 0 + 0 + 8 = 131, Total 130.
    hits = [i for i in pc.issues if "'Centerville 11'" in i.message]
    assert [(h.row, h.column, h.severity) for h in hits] == [(254, "H", Severity.WARNING)]
    assert "add up to 131" in hits[0].message
    assert precinct_votes(pc, "Centerville 11", "Utah Governor")["Herbert/Cox"] == 130
    assert pc.election_date == "2016-06-28"


def _davis_2016_without(tmp_path: Path, drop: set[str], *, repeat_name: bool = False) -> Path:
    """The real Davis 2016 primary with some sub-rows left out (the 4-5 sub-row layout)."""
    from openpyxl import Workbook, load_workbook

    src = load_workbook(DATA / "davis_2016p_sovc.xlsx").worksheets[0]
    wb = Workbook()
    ws = wb.active
    name = None
    for row in src.iter_rows(values_only=True):
        if row[0]:
            name = row[0]
        if isinstance(row[1], str) and row[1].strip() in drop:   # the file has 'Total '
            continue
        if repeat_name and row[1] and name:
            row = (name, *row[1:])
        ws.append(list(row))
    p = tmp_path / "davis_2016_sub_rows.xlsx"
    wb.save(p)
    return p


SUB_ROW_CASES = [
    ("no-total-sub-row", {"Total"}, False, {"Misty K Snow": 2504, "Jonathan Swinton": 1742}),
    ("four-sub-rows-no-total", {"Total", "By Mail After"}, False,
     {"Misty K Snow": 2504 - 104, "Jonathan Swinton": 1742 - 94}),
    ("name-on-every-sub-row", {"Total"}, True, {"Misty K Snow": 2504, "Jonathan Swinton": 1742}),
]


@pytest.mark.parametrize(("case", "drop", "repeat", "expected"), SUB_ROW_CASES,
                         ids=[c[0] for c in SUB_ROW_CASES])
def test_sub_rows_without_a_total_row_are_added_up_once(
        tmp_path: Path, case: str, drop: set[str], repeat: bool,
        expected: dict[str, int]) -> None:
    pc = read_canvass(_davis_2016_without(tmp_path, drop, repeat_name=repeat))
    assert pc.family == "ess_custom"
    assert len(pc.precincts) == 201
    assert "Election Total" not in pc.precincts
    assert totals_of(pc, "U.S. Senate") == expected
    # Bountiful 1: Polling 0 + By Mail 21 + Provisional 0 + Paper 0 (+ By Mail After 2).
    snow = 21 if "By Mail After" in drop else 23
    assert precinct_votes(pc, "Bountiful 1", "U.S. Senate")["Misty K Snow"] == snow
    # The Election Total block, added up the same way, agrees with the precincts.
    assert not [i for i in pc.issues if "do not add up" in i.message]
    assert any("no 'Total' sub-row" in i.message and i.severity is Severity.NOTE
               for i in pc.issues)
    assert pc.errors == []


def _sanpete_2020p(tmp_path: Path, *, cover_sheet: bool = False) -> Path:
    """A small county's primary statement: REP/DEM prefixed merged titles, VOTE FOR n, empty
    cells and '-' where a contest is not on a precinct's ballot, a Totals row."""
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    if cover_sheet:
        ws.title = "Cover"
        ws["A1"] = "Sanpete County 2020 Primary Election"
        ws = wb.create_sheet("Custom Table Report")
    else:
        ws.title = "Custom Table Report"
    ws["A1"], ws["A2"], ws["A3"] = ("Statement of Votes Cast", "2020 Primary Election",
                                    "June 30, 2020")
    ws.cell(5, 2, "STATISTICS")
    ws.merge_cells("B5:E5")
    titles = [("REP U.S. House 4", 1, ["BURGESS OWENS", "KATHLEEN ANDERSON", "JAY MCFARLAND",
                                        "TRENT CHRISTENSEN"]),
              ("DEM U.S. House 4", 1, ["BEN MCADAMS"]),
              ("REP County Commission Seat A ", 2, ["REED HATCH", "SCOTT BARTHOLOMEW",
                                                    "GARY ANDERSON"])]
    col = 6
    for title, seats, names in titles:
        ws.cell(5, col, title)
        if len(names) > 1:
            ws.merge_cells(start_row=5, start_column=col, end_row=5,
                           end_column=col + len(names) - 1)
        ws.cell(6, col, f"VOTE FOR {seats}")
        for k, n in enumerate(names):
            ws.cell(7, col + k, n)
        col += len(names)
    for c, h in enumerate(["Precinct", "Registered Voters", "Total Ballots Cast", "Turnout",
                           "By Mail"], start=1):
        ws.cell(7, c, h)
    data = [
        ("EPHRAIM 1", [800, 400, 0.5, 400], [100, 60, 40, 20], [15], [200, 150, 90]),
        ("EPHRAIM 2", [700, 350, 0.5, 350], [90, 50, 30, 25], ["-"], [180, 120, 100]),
        ("MANTI 1", [600, 300, 0.5, 300], ["80", "40", "35", "15"], [None], [None] * 3),
    ]
    r = 8
    for name, stats, *blocks in data:
        ws.cell(r, 1, name)
        for k, v in enumerate([*stats, *(v for b in blocks for v in b)]):
            ws.cell(r, 2 + k, v)
        r += 1
    ws.cell(r, 1, "Totals")
    for k, v in enumerate([2100, 1050, 0.5, 1050, 270, 150, 105, 60, 15, 380, 270, 190]):
        ws.cell(r, 2 + k, v)
    p = tmp_path / "sanpete_2020p.xlsx"
    wb.save(p)
    return p


@pytest.mark.parametrize("cover_sheet", [False, True], ids=["one-sheet", "cover-sheet-first"])
def test_small_county_primary_with_party_titles_and_vote_for_two(
        tmp_path: Path, cover_sheet: bool) -> None:
    path = _sanpete_2020p(tmp_path, cover_sheet=cover_sheet)
    found = detect(path)
    assert found[0].family == "ess_custom"
    pc = read_canvass(path)
    assert pc.primary is True
    assert pc.election_date == "2020-06-30"
    assert [(c.key.title, c.key.party, c.seats, c.seats_from_file) for c in pc.contests] == [
        ("REP U.S. House 4", "REP", 1, True), ("DEM U.S. House 4", "DEM", 1, True),
        ("REP County Commission Seat A", "REP", 2, True)]
    assert totals_of(pc, "REP U.S. House 4") == {
        "BURGESS OWENS": 270, "KATHLEEN ANDERSON": 150, "JAY MCFARLAND": 105,
        "TRENT CHRISTENSEN": 60}
    assert totals_of(pc, "DEM U.S. House 4") == {"BEN MCADAMS": 15}
    # '-' and empty cells: not on that precinct's ballot, so no row (not a zero).
    assert precinct_votes(pc, "EPHRAIM 2", "DEM U.S. House 4") == {}
    assert precinct_votes(pc, "MANTI 1", "REP County Commission Seat A") == {}
    commission = next(t for t in pc.totals if t.contest.key.party == "REP"
                      and "Commission" in t.contest.key.title)
    assert commission.precincts == 2
    assert not [i for i in pc.issues if i.severity is not Severity.NOTE], \
        [str(i) for i in pc.issues]


def test_totals_row_that_disagrees_is_a_warning(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    path = _sanpete_2020p(tmp_path)
    wb = load_workbook(path)
    ws = wb["Custom Table Report"]
    assert ws["F11"].value == 270
    ws["F11"] = 271
    wb.save(path)
    pc = read_canvass(path)
    hits = [i for i in pc.issues if "do not add up" in i.message]
    assert len(hits) == 1
    assert "BURGESS OWENS: precincts add up to 270, the file's total says 271" in hits[0].message
