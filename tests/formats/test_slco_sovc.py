"""Salt Lake County SOVC workbooks: 2018 (six rows per precinct) and the 2024 printed SOVC."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import ImportFailed, detect, read_canvass, slco_sovc

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
    assert parsed.election_name == "2018 Primary Election"
    assert parsed.election_date == "2018-06-26"  # 'June 26th, 2018' in the title rows
    # ALT001, U.S. Senate: the 'Total' row (7 / 7), not the sum of all four rows (14 / 14).
    raw = slco_sovc.read(SOVC_2018).rows
    alt = raw[(raw.precinct == "ALT001") & (raw.contest == "U.S. SENATE")]
    assert dict(zip(alt.choice, alt.votes, strict=True)) == {"MITT ROMNEY": 7, "MIKE KENNEDY": 7}
    assert not [i for i in parsed.issues if "do not add up" in i.message]
    assert not [i for i in parsed.issues if i.severity is not Severity.NOTE]
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


def test_2024_printed_sovc_is_a_general_election_dated_from_its_cover_sheet():
    parsed = read_canvass(SOVC_2024)
    assert parsed.primary is False
    assert parsed.election_date == "2024-11-05"


# --- 2016-2018 layout, built at test time (the 2016 HD32 recount workbook has this layout) ---

TYPES = ("Polling", "Vote Centers", "Vote By Mail", "Early Voting", "In-Office")
HD32 = "STATE REPRESENTATIVE DIST #32"
HD32_CANDIDATES = ("LAVAR CHRISTENSEN (REP)", "SUZANNE HARRISON (DEM)")
# precinct -> counting group -> (Christensen, Harrison)
HD32_VOTES = {
    "DRA001": {"Polling": (1, 2), "Vote Centers": (0, 1), "Vote By Mail": (100, 90),
               "Early Voting": (5, 4), "In-Office": (1, 0)},
    "DRA002": {"Polling": (3, 1), "Vote Centers": (2, 2), "Vote By Mail": (200, 150),
               "Early Voting": (7, 3), "In-Office": (0, 1)},
    "SDY001": {"Polling": (0, 0), "Vote Centers": (1, 0), "Vote By Mail": (50, 60),
               "Early Voting": (2, 2), "In-Office": (0, 0)},
}
HD32_TOTALS = {"LAVAR CHRISTENSEN": 372, "SUZANNE HARRISON": 316}
SENATE = "U.S. SENATE"
SENATE_CANDIDATES = ("MIKE LEE (REP)", "MISTY K. SNOW (DEM)", "Write-in")
SENATE_VOTES = {p: {t: (a + b, a, b // 2) for t, (a, b) in g.items()}
                for p, g in HD32_VOTES.items()}


def _sum(groups):
    return tuple(sum(col) for col in zip(*groups.values(), strict=True))


def write_sovc_2016(path: Path, *, toc: bool | str = True, header_row: int = 9,
                    extra_title_lines: tuple[str, ...] = (), senate: bool = False,
                    drop: tuple[tuple[str, str], ...] = (), edit: dict | None = None,
                    extra_rows: tuple[tuple[str, str, tuple[int, ...]], ...] = (),
                    percent_label: str | None = None) -> Path:
    """A Salt Lake County SOVC workbook in the 2016-2018 layout (TOC, one sheet per contest,
    title rows from row 2 merged B:F, header, six rows per precinct, 'Election Total').

    ``drop``: (precinct, type) rows left out; ``edit``: {(precinct, type): votes} overrides
    written instead of the true figures (the totals still come from the true ones). Counts
    are written as numbers for the first candidate and as text ('145') for the others, as
    in re-saved workbooks."""
    import openpyxl

    top = ["Statement of Votes Cast", "2016 General Election", "November 8th, 2016",
           "Salt Lake County, UT"]
    wb = openpyxl.Workbook()
    first = wb.active
    contests = [(HD32, HD32_CANDIDATES, HD32_VOTES)]
    if senate:
        contests.append((SENATE, SENATE_CANDIDATES, SENATE_VOTES))
    if toc:
        first.title = "TOC"
        for i, t in enumerate(top if toc != "bare" else []):
            first.cell(2 + i, 2, t)
        first.cell(2, 7, "Disclaimer: the data in the Acrobat PDF file will be the most "
                   "accurate.")
        first.cell(8, 2, "Table of Contents")
        for i, (title, _, _) in enumerate(contests):
            first.cell(9 + i, 2, "●")
            first.cell(9 + i, 3, title)
    for n, (title, candidates, votes) in enumerate(contests):
        ws = first if (not toc and n == 0) else wb.create_sheet()
        ws.title = title[:31]
        lines = [*top, "", title, *extra_title_lines]
        for i, t in enumerate(lines):
            ws.cell(2 + i, 2, t)
            ws.merge_cells(start_row=2 + i, start_column=2, end_row=2 + i, end_column=6)
        ws.cell(header_row - 1, 2, "Table of Contents")
        header = ["Precinct", "Type", "Reg. Voters", "Cards Cast", "Total Votes"]
        for c in candidates:
            header += [c, percent_label]
        for j, h in enumerate(header):
            ws.cell(header_row, 2 + j, h)
        row = header_row + 1

        def put(precinct, typ, v, ws=ws):
            nonlocal row
            ws.cell(row, 2, precinct)
            ws.cell(row, 3, typ)
            ws.cell(row, 4, 1000)
            ws.cell(row, 5, sum(v))
            ws.cell(row, 6, sum(v))
            for k, x in enumerate(v):
                ws.cell(row, 7 + 2 * k, x if k == 0 else str(x))
                ws.cell(row, 8 + 2 * k, x / max(sum(v), 1))
            row += 1

        grand = {t: (0,) * len(candidates) for t in (*TYPES, "Total")}
        for precinct, groups in votes.items():
            for typ, v in (*groups.items(), ("Total", _sum(groups))):
                grand[typ] = tuple(a + b for a, b in zip(grand[typ], v, strict=True))
                if (precinct, typ) in drop:
                    continue
                put(precinct, typ, (edit or {}).get((precinct, typ), v))
        for precinct, typ, v in extra_rows:
            put(precinct, typ, v)
        for typ, v in grand.items():
            put("Election Total", typ, v)
    wb.save(path)
    return path


def _errors(parsed):
    return [i for i in parsed.issues if i.severity is not Severity.NOTE]


@pytest.mark.parametrize(
    ("kwargs", "contests"),
    [
        ({}, 1),
        ({"senate": True}, 2),
        ({"toc": False}, 1),
        ({"toc": "bare"}, 1),
        ({"header_row": 12, "extra_title_lines": ("RECOUNT", "Vote For 1")}, 1),
        ({"drop": (("SDY001", "Polling"), ("SDY001", "In-Office"))}, 1),
        ({"percent_label": "%"}, 1),
    ],
    ids=["one-contest-sheet", "two-contest-sheets", "single-sheet-without-toc",
         "toc-without-title-lines",
         "header-at-row-12", "precinct-lacks-two-types", "percent-columns-labelled"],
)
def test_2016_general_sovc_counts_only_total_rows(tmp_path, kwargs, contests):
    path = write_sovc_2016(tmp_path / "SOVC - Salt Lake Recount.xlsx", **kwargs)
    assert detect(path)[0].family == "slco_sovc"
    parsed = read_canvass(path)
    assert len(parsed.contests) == contests
    t = totals_of(parsed, HD32)
    assert {c.choice.name: c.votes for c in t.choices} == HD32_TOTALS
    assert {c.choice.name: c.choice.party for c in t.choices} == {
        "LAVAR CHRISTENSEN": "REP", "SUZANNE HARRISON": "DEM"}
    assert parsed.primary is False
    assert parsed.election_date == "2016-11-08"
    assert parsed.precincts == ["DRA001", "DRA002", "SDY001"]
    # The Election Total agrees with the precincts; nothing but notes.
    assert _errors(parsed) == []
    if contests == 2:
        senate = totals_of(parsed, SENATE)
        assert {c.choice.name: c.votes for c in senate.choices} == {
            "MIKE LEE": 688, "MISTY K. SNOW": 372, "Write-in": 156}
        assert [c.choice.kind.value for c in senate.choices][-1] == "write_in"


def test_2016_vote_for_line_gives_the_seats(tmp_path):
    path = write_sovc_2016(tmp_path / "sovc.xlsx", header_row=12,
                           extra_title_lines=("Vote For 2",))
    t = totals_of(read_canvass(path), HD32)
    assert t.contest.seats == 2
    assert t.contest.seats_from_file


def test_2016_precinct_without_total_row_adds_its_groups_with_a_warning(tmp_path):
    path = write_sovc_2016(tmp_path / "sovc.xlsx", drop=(("DRA002", "Total"),))
    parsed = read_canvass(path)
    t = totals_of(parsed, HD32)
    assert {c.choice.name: c.votes for c in t.choices} == HD32_TOTALS
    [w] = _errors(parsed)
    assert w.severity is Severity.WARNING
    assert "1 precinct(s) have no 'Total' row (first 'DRA002')" in w.message
    assert w.sheet == HD32
    assert w.row == 10 + 6  # DRA002's first row: the header is at row 9, DRA001 has six rows


def test_2016_total_row_that_is_not_the_sum_of_its_groups_is_reported(tmp_path):
    path = write_sovc_2016(tmp_path / "sovc.xlsx", edit={("DRA001", "Total"): (117, 97)})
    parsed = read_canvass(path)
    t = totals_of(parsed, HD32)
    # The precincts' 'Total' rows no longer add up to the Election Total, which is the
    # file's official figure (issue 12); the file is refused anyway for the bad row.
    assert {c.choice.name: c.votes for c in t.choices}["LAVAR CHRISTENSEN"] == 372
    messages = [i.message for i in _errors(parsed)]
    assert any("the 'Total' row is not the sum of the counting-group rows" in m
               and "'DRA001'" in m for m in messages)
    assert any("do not add up" in m and "382" in m and "372" in m for m in messages)


def test_2016_unknown_row_type_is_one_warning_not_one_per_row(tmp_path):
    extra = tuple((p, "Provisional Paper", (1, 1)) for p in HD32_VOTES)
    path = write_sovc_2016(tmp_path / "sovc.xlsx", extra_rows=extra)
    parsed = read_canvass(path)
    assert {c.choice.name: c.votes for c in totals_of(parsed, HD32).choices} == HD32_TOTALS
    [w] = _errors(parsed)
    assert "3 row(s) have the unknown Type 'Provisional Paper'" in w.message
    assert w.column == "Type"


def test_2016_text_that_is_not_a_count_names_sheet_row_and_column(tmp_path):
    import openpyxl

    path = write_sovc_2016(tmp_path / "sovc.xlsx")
    wb = openpyxl.load_workbook(path)
    wb[HD32]["I15"] = "n/a"  # DRA001 Total, Harrison
    wb.save(path)
    parsed = read_canvass(path)
    bad = [i for i in parsed.issues if "not a whole number" in i.message]
    assert [(i.sheet, i.row, i.column) for i in bad] == [(HD32, 15, "SUZANNE HARRISON (DEM)")]
