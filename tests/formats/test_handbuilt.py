"""Hand-built county workbooks: Juab's three elections in three sheets, and the layout's quirks."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.formats import ImportFailed, ReadOptions, detect, read_canvass

DATA = Path(__file__).parents[1] / "data" / "formats" / "handbuilt"
JUAB = DATA / "Juab Precinct Results.xlsx"


def totals_of(parsed, title: str, party: str = ""):
    for t in parsed.totals:
        if t.contest.key.title == title and t.contest.key.party == party:
            return t
    raise AssertionError(f"{title!r} not in {[t.contest.key for t in parsed.totals]}")


@pytest.mark.parametrize(
    ("sheet", "contests", "precincts", "title", "party", "expected", "primary"),
    [
        (None, 22, 15, "US Senate", "",
         {"Evan McMullin": 714, "Mike Lee": 3886, "James Arther Hansen": 70,
          "Tommy Williams": 61, "Write In": 2}, False),
        ("2022 Primary", 5, 79, "US Senate", "REP",
         {"Mike Lee": 5079, "Becky Edwards": 1624, "Ally Isom": 657}, True),
        ("2021 General", 18, 50, "Erda City Council D1", "",
         {"Scott Droubay": 143, "Dave Judd": 88}, False),
    ],
    ids=["juab-2022-general-default-sheet", "juab-2022-primary", "juab-2021-general"],
)
def test_juab_sheets_give_hand_checked_totals(sheet, contests, precincts, title, party,
                                              expected, primary):
    assert detect(JUAB)[0].family == "handbuilt"
    parsed = read_canvass(JUAB, options=ReadOptions(sheet=sheet))
    assert len(parsed.contests) == contests
    assert len(parsed.precincts) == precincts
    t = totals_of(parsed, title, party)
    assert {c.choice.name: c.votes for c in t.choices} == expected
    assert parsed.primary is primary


def test_juab_default_sheet_names_the_other_elections_and_matches_its_totals_row():
    parsed = read_canvass(JUAB)
    first = parsed.issues[0]
    assert first.sheet == "2022 General"
    assert "'2022 Primary'" in first.message
    assert "'2021 General'" in first.message
    # The 'Totals:' row agrees with the precincts for every contest.
    assert not [i for i in parsed.issues if "do not add up" in i.message]
    # 'US \nHouse \nDist 2' in one header cell is the same contest as 'US House Dist 2'.
    assert len(totals_of(parsed, "US House Dist 2").choices) == 4


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        # 'YES Judicial Rentention' / 'NO \nJudicial Rentention' over the judge's name.
        ("Judicial Rentention: Paige Petersen", {"Yes": 3526, "No": 726}),
        ("Judicial Rentention: F RIchards Smith III", {"Yes": 3494, "No": 729}),
        # 'FOR\n Cons. Amend A' / 'AGAINST Cons. Amend A' over an empty name cell.
        ("Cons. Amend A", {"For": 1087, "Against": 3328}),
        ("Prop #1", {"For": 1884, "Against": 2753}),
    ],
    ids=["retention-petersen", "retention-smith", "amendment-a", "prop-1"],
)
def test_juab_retentions_and_ballot_questions_take_the_stance_from_the_title(title, expected):
    parsed = read_canvass(JUAB)
    t = totals_of(parsed, title)
    assert {c.choice.name: c.votes for c in t.choices} == expected
    assert t.contest.kind.value == "proposition"
    # No contest is named after a stance, and no judge is a candidate in one.
    assert not [c for c in parsed.contests if c.key.title.upper().startswith(("YES ", "NO "))]


def test_detection_is_only_moderately_confident():
    d = next(d for d in detect(JUAB) if d.family == "handbuilt")
    assert 50 <= d.confidence <= 75


def _synthetic(path: Path) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "2020 Canvass"
    for row in (
        ["2020 General Election - Canvass"],
        ["", "", "", "", "US \nHouse \nDist 2", "US House Dist 2", "Governor", "Governor"],
        ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %", "Ann", "Bob",
         "Cy", "Di"],
        ["", "", "", "", "REP", "DEM", "REP", "DEM"],
        ["P1", 100, 50, 0.5, 10, 20, 15, 15],
        ["P2", 5, 3, 0.6, "Suppressed", None, 1, 2],
        ["FEDERAL", 0, 2, "#DIV/0!", 1, 1, None, None],
        ["COUNTY TOTALS", 105, 55, None, 13, 22, 16, 17],
    ):
        ws.append(row)
    wb.save(path)
    return path


def test_suppressed_cells_party_row_and_county_totals(tmp_path):
    parsed = read_canvass(_synthetic(tmp_path / "canvass.xlsx"))
    assert parsed.family == "handbuilt"
    house = totals_of(parsed, "US House Dist 2")
    # Precincts add up to 11 / 21; P2 is suppressed, so COUNTY TOTALS (13 / 22) is used.
    assert {c.choice.name: c.votes for c in house.choices} == {"Ann": 13, "Bob": 22}
    assert {c.choice.name: c.choice.party for c in house.choices} == {"Ann": "REP",
                                                                       "Bob": "DEM"}
    assert any("Suppressed" in i.message for i in parsed.issues)
    gov = totals_of(parsed, "Governor")
    assert {c.choice.name: c.votes for c in gov.choices} == {"Cy": 16, "Di": 17}
    assert "FEDERAL" in parsed.precincts  # federal-only ballots are real votes
    assert "COUNTY TOTALS" not in parsed.precincts


@pytest.mark.parametrize(
    ("file", "sheet", "message"),
    [
        ("2020 General Election Emery Precinct Level Results.xlsx", None,
         "does not recognise this layout"),
        ("Juab Precinct Results.xlsx", "2023 General", "has no sheet '2023 General'"),
    ],
    ids=["emery-cast-vote-list-is-not-a-canvass", "unknown-sheet"],
)
def test_unreadable_files_fail_with_a_clear_sentence(file, sheet, message):
    with pytest.raises(ImportFailed, match=message):
        read_canvass(DATA / file, options=ReadOptions(sheet=sheet))


def _workbook(path: Path, rows: list[list[object]], title: str = "Canvass") -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = title
    for row in rows:
        ws.append(row)
    wb.save(path)
    return path


HEADER = ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %", "Ann", "Bob"]


def test_an_excel_error_under_a_candidate_is_an_error_not_an_empty_cell(tmp_path):
    # openpyxl stores '#DIV/0!' as an error cell (t="e"), which calamine reads as empty.
    path = _workbook(tmp_path / "canvass.xlsx", [
        ["2020 General Election"],
        ["", "", "", "", "Mayor", "Mayor"],
        HEADER,
        ["P1", 100, 50, 0.5, 30, 20],
        ["FEDERAL", 0, 2, "#DIV/0!", 1, 1],
        ["P2", 80, 40, 0.5, "#DIV/0!", 15],
        ["COUNTY TOTALS", 180, 92, None, 31, 36],
    ])
    parsed = read_canvass(path)
    errors = [i for i in parsed.issues if i.severity.value == "error"]
    assert len(errors) == 1  # the FEDERAL row's turnout error is not a vote count
    assert "#DIV/0!" in errors[0].message and "'P2'" in errors[0].message
    assert (errors[0].sheet, errors[0].row, errors[0].column) == ("Canvass", 6, "E")


def test_a_contest_suppressed_in_every_precinct_is_named(tmp_path):
    path = _workbook(tmp_path / "canvass.xlsx", [
        ["", "", "", "", "Mayor", "Mayor", "Council", "Council"],
        [*HEADER, "Cy", "Di"],
        ["P1", 100, 50, 0.5, 30, 20, "Suppressed", None],
        ["P2", 80, 40, 0.5, 25, 15, "Suppressed", None],
        ["COUNTY TOTALS", 180, 90, None, 55, 35, 7, 9],
    ])
    parsed = read_canvass(path)
    assert [c.key.title for c in parsed.contests] == ["Mayor"]
    assert any("'Council' is suppressed in every precinct" in i.message
               and i.severity.value == "warning" for i in parsed.issues)


def test_csv_with_precinct_header_variant_empty_first_column_and_page_lines(tmp_path):
    path = tmp_path / "canvass.csv"
    path.write_text(
        ",2018 General Election Canvass,,,,,\n"
        ",,,,,Senate,Senate\n"
        ",PRECINCT,Reg. Voters,Ballots Cast,Turnout,Mitt Romney,Jenny Wilson\n"
        ",P1,\"1,900\",\"1,400\",74%,\"1,010\",300\n"
        ",Page 1 of 2,,,,,\n"
        ",2018 General Election Canvass,,,,,\n"
        ",,,,,Senate,Senate\n"
        ",PRECINCT,Reg. Voters,Ballots Cast,Turnout,Mitt Romney,Jenny Wilson\n"
        ",P2,800,600,75%,400,190\n"
        ",COUNTY TOTALS,\"2,700\",\"2,000\",74%,\"1,410\",490\n"
        ",Page 2 of 2,,,,,\n", encoding="utf-8")
    parsed = read_canvass(path)
    assert parsed.family == "handbuilt"
    assert parsed.precincts == ["P1", "P2"]
    t = totals_of(parsed, "Senate")
    assert {c.choice.name: c.votes for c in t.choices} == {"Mitt Romney": 1410,
                                                           "Jenny Wilson": 490}
    assert not [i for i in parsed.issues if i.severity.value != "note"]


def test_text_under_the_candidates_is_left_out_with_a_warning(tmp_path):
    path = _workbook(tmp_path / "canvass.xlsx", [
        ["", "", "", "", "Mayor", "Mayor"],
        HEADER,
        ["P1", 100, 50, 0.5, 30, 20],
        ["Note", "", "", "", "see", "attached"],
        ["COUNTY TOTALS", 100, 50, None, 30, 20],
    ])
    parsed = read_canvass(path)
    assert parsed.precincts == ["P1"]
    w = next(i for i in parsed.issues if "has text, not counts" in i.message)
    assert (w.row, w.severity.value) == (4, "warning")


def test_a_header_split_over_two_rows_by_a_pdf_conversion(tmp_path):
    path = _workbook(tmp_path / "canvass.xlsx", [
        ["BEAVER COUNTY 2016 GENERAL ELECTION"],
        ["", "", "", "", "Governor", "Governor"],
        ["Precinct", "Total Reg.", "Total Ballots", "Turn", "Gary Herbert", "Mike Weinholtz"],
        ["Name", "Voters", "Cast", "out %", "(REP)", "(DEM)"],
        ["Beaver North", 1204, 987, 0.82, 700, 200],
        ["Milford", 1010, 800, 0.79, 600, 150],
        ["COUNTY TOTALS", 2214, 1787, None, 1300, 350],
    ])
    parsed = read_canvass(path)
    assert parsed.family == "handbuilt"
    t = totals_of(parsed, "Governor")
    assert {c.choice.name: c.choice.party for c in t.choices} == {"Gary Herbert": "REP",
                                                                   "Mike Weinholtz": "DEM"}
    assert {c.choice.name: c.votes for c in t.choices} == {"Gary Herbert": 1300,
                                                           "Mike Weinholtz": 350}
    assert parsed.precincts == ["Beaver North", "Milford"]


def test_over_under_total_columns_vote_for_and_party_in_the_name(tmp_path):
    title = "Town Council (Vote for 2)"
    path = _workbook(tmp_path / "canvass.xlsx", [
        ["2023 Municipal General Election"],
        ["", "", "", "", *[title] * 6],
        [*HEADER[:4], "Ann Able (REP)", "Bob Baker (DEM)", "Cy Cole", "Write-in", "Over Votes",
         "Under Votes"],
        ["P1", 100, 50, 0.5, 30, 20, 25, 1, 2, 18],
        ["P2", 80, 40, 0.5, 25, 15, 20, 0, 0, 20],
        ["COUNTY TOTALS", 180, 90, None, 55, 35, 45, 1, 2, 38],
    ])
    parsed = read_canvass(path)
    t = totals_of(parsed, "Town Council (Vote for 2)")
    assert {c.choice.name: c.votes for c in t.choices} == {"Ann Able": 55, "Bob Baker": 35,
                                                           "Cy Cole": 45, "Write-in": 1}
    assert {k.value: v for k, v in t.extras.items()} == {"over": 2, "under": 38}
    assert t.contest.seats == 2 and t.contest.seats_from_file
    assert {c.choice.name: c.choice.party for c in t.choices}["Ann Able"] == "REP"
    assert not [i for i in parsed.issues if "do not add up" in i.message]


def test_a_sheet_comparing_counts_is_flagged_not_silently_read_as_candidates(tmp_path):
    path = _workbook(tmp_path / "recount.xlsx", [
        ["2024 Primary Recount"],
        ["", "", "", "", "Jared Hamner", "Jared Hamner", "Jared Hamner"],
        [*HEADER[:4], "Canvass", "Recount", "Difference"],
        ["TE01", 400, 238, 0.6, 120, 121, 1],
    ], title="2024 Primary Recount")
    parsed = read_canvass(path)
    w = next(i for i in parsed.issues if "compare counts" in i.message)
    assert "'Recount'" in w.message and w.severity.value == "warning"
    assert (w.sheet, w.row) == ("2024 Primary Recount", 3)


def test_a_sheet_with_only_a_totals_row_is_read_as_one_county_unit_with_a_warning(tmp_path):
    path = _workbook(tmp_path / "recount.xlsx", [
        ["2024 Primary Election Recount"],
        ["", "", "", "", "GOP for County Commission Seat A", "GOP for County Commission Seat A"],
        [*HEADER[:4], "Jared Hamner", "Scott Wardle"],
        ["COUNTY TOTALS", 9000, 4100, None, 2012, 2009],
    ], title="2024 Primary Recount")
    parsed = read_canvass(path)
    t = totals_of(parsed, "County Commission Seat A", "REP")
    assert {c.choice.name: c.votes for c in t.choices} == {"Jared Hamner": 2012,
                                                           "Scott Wardle": 2009}
    assert parsed.precincts == ["Entire county (totals row)"]
    assert any("totals row but no precinct rows" in i.message and i.severity.value == "warning"
               for i in parsed.issues)


def test_a_contest_title_with_the_word_primary_does_not_make_a_general_a_primary(tmp_path):
    title = "Water Board Primary Seat"
    path = _workbook(tmp_path / "canvass.xlsx", [
        ["2024 General Election - Statement of Votes Cast"],
        ["", "", "", "", title, title],
        HEADER,
        ["", "", "", "", "NP", "REP"],
        ["P1", 100, 50, 0.5, 30, 20],
        ["COUNTY TOTALS", 100, 50, None, 30, 20],
    ])
    parsed = read_canvass(path)
    assert parsed.primary is False
    assert [(c.key.title, c.key.party) for c in parsed.contests] == [(title, "")]
    t = totals_of(parsed, title)
    assert {c.choice.name: c.votes for c in t.choices} == {"Ann": 30, "Bob": 20}


def test_a_stance_word_in_a_title_without_its_opposite_beside_it_is_part_of_the_title(tmp_path):
    title = "Citizens For Parks Board"
    path = _workbook(tmp_path / "canvass.xlsx", [
        ["", "", "", "", "YES Prop 1", "NO Prop 1", title, title],
        [*HEADER[:4], "", "", "Ann", "Bob"],
        ["P1", 100, 50, 0.5, 30, 20, 12, 9],
    ])
    parsed = read_canvass(path)
    assert {c.key.title for c in parsed.contests} == {"Prop 1", title}
    assert {c.choice.name: c.votes for c in totals_of(parsed, title).choices} == {"Ann": 12,
                                                                                 "Bob": 9}
    assert {c.choice.name: c.votes for c in totals_of(parsed, "Prop 1").choices} == {
        "Yes": 30, "No": 20}


def test_a_csv_with_a_short_title_line_and_crlf(tmp_path):
    path = tmp_path / "canvass.csv"
    path.write_bytes(
        b"2018 General Election Canvass\r\n"
        b",,,,Senate,Senate\r\n"
        b"Precinct Name,Total Reg. Voters,Total Ballots Cast,Turn out %,Mitt Romney,"
        b"Jenny Wilson\r\n"
        b"P1,100,60,60%,40,20\r\nP2,90,50,56%,30,20\r\nCOUNTY TOTALS,190,110,,70,40\r\n")
    parsed = read_canvass(path)
    assert parsed.family == "handbuilt"
    assert {c.choice.name: c.votes for c in totals_of(parsed, "Senate").choices} == {
        "Mitt Romney": 70, "Jenny Wilson": 40}


def test_a_csv_resaved_with_a_blank_first_line_reads_the_same_naming_its_real_rows(tmp_path):
    body = (b"2018 General Election Canvass\r\n,,,,Senate,Senate\r\n"
            b"Precinct Name,Total Reg. Voters,Total Ballots Cast,Turn out %,Mitt Romney,"
            b"Jenny Wilson\r\nP1,100,60,60%,40,2x\r\nP2,90,50,56%,30,20\r\n"
            b"COUNTY TOTALS,190,110,,70,40\r\n")
    plain, blank = tmp_path / "canvass.csv", tmp_path / "resaved.csv"
    plain.write_bytes(body)
    blank.write_bytes(b"\r\n" + body)
    assert detect(blank)[0].family == "handbuilt"
    a, b = read_canvass(plain), read_canvass(blank)
    assert {c.choice.name: c.votes for c in totals_of(b, "Senate").choices} == \
        {c.choice.name: c.votes for c in totals_of(a, "Senate").choices}
    bad = [(i.row, i.column) for p in (a, b) for i in p.issues if "'2x'" in i.message]
    assert bad == [(4, "F"), (5, "F")]
