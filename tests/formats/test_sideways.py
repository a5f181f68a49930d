"""Sideways county workbooks (precincts across, contests stacked down): Garfield 2020 and the
layout's variations; Emery 2020's list of ballot records gets its own sentence."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import (
    Cancelled,
    ImportFailed,
    ReadOptions,
    detect,
    read_canvass,
    sideways,
)

DATA = Path(__file__).parents[1] / "data" / "formats" / "sideways"
GARFIELD = DATA / "2020 General Election Garfield Precinct Level Results.xlsx"
EMERY = DATA / "2020 General Election Emery Precinct Level Results.xlsx"
GARFIELD_PRECINCTS = ["AN 1", "BO 2", "BR 11", "CA 3", "ES 4", "HA 5", "HE 6", "PA 7", "PA 8",
                      "TI 9", "TR 10"]


def totals_of(parsed, title: str, party: str = ""):
    for t in parsed.totals:
        if t.contest.key.title == title and t.contest.key.party == party:
            return t
    raise AssertionError(f"{title!r} not in {[t.contest.key.title for t in parsed.totals]}")


def votes(t) -> dict[str, int]:
    return {c.choice.name: c.votes for c in t.choices}


# --- Garfield 2020 (real) ------------------------------------------------------------------


def test_garfield_is_detected_as_sideways_and_nothing_outranks_it():
    found = detect(GARFIELD)
    assert [d.family for d in found] == ["sideways"]
    assert found[0].confidence >= 70
    assert "11 precinct columns" in found[0].reason


def test_garfield_contests_precincts_and_hand_checked_totals():
    parsed = read_canvass(GARFIELD)
    assert parsed.family == "sideways"
    # 15 races, 9 judicial retentions, Constitutional Amendments A-G.
    assert len(parsed.contests) == 31
    assert parsed.precincts == GARFIELD_PRECINCTS
    pres = totals_of(parsed, "US President & Vice President")
    assert votes(pres) == {
        "Brock Pierce, Karla Ballard": 3, "Kanye West, Michelle Tidball": 2,
        "Joseph R. Biden, Kamala D. Harris": 514, "Don Blankenship, William Mohr": 3,
        "Jo Jorgensen, Jeremy Cohen": 37, "Joe Mchugh, Elizabeth Storm": 3,
        "Howie Hawkins, Angela Walker": 11, "Gloria La Riva": 1,
        "Donald J. Trump, Michael R. Pence": 2158}
    assert {c.choice.name: c.choice.party for c in pres.choices}[
        "Donald J. Trump, Michael R. Pence"] == "REP"
    house = totals_of(parsed, "US HOUSE DISTRICT 2")
    # 'Kael Weston ( DEM)' in the file: the party comes out of the name.
    assert votes(house) == {"Kael Weston": 486, "Chris Stewart": 2013, "J. Robert Latham": 58}
    assert [c.choice.party for c in house.choices] == ["DEM", "REP", "LIB"]
    amend_d = totals_of(parsed, "CONSTITUTIONAL AMENDMENT D")
    assert votes(amend_d) == {"For": 1324, "Against": 1138}
    # ' No' with a leading space in row 98 is the same 'No'.
    assert votes(totals_of(parsed, "RYAN M. HARRIS JUDICIAL RETENTION")) == {"Yes": 1938,
                                                                              "No": 312}
    # A school board seat on one precinct's ballot only (the others are empty cells).
    board = totals_of(parsed, "GARFIELD COUNTY SCHOOL BOARD #1 DISTRICT 1")
    assert votes(board) == {"William Ralph Perkins": 385, "Write-In Michael Savage": 161}
    assert board.precincts == 1
    assert [c.choice.kind.value for c in board.choices] == ["candidate", "write_in"]
    # Two contests with no blank row between them (rows 81-86) stay two contests.
    assert votes(totals_of(parsed, "DIANA HAGEN JUDICIL RETENTION")) == {"Yes": 2041, "No": 256}
    assert votes(totals_of(parsed, "GREGORY KEITH ORME JUDICIAL RETENTION")) == {"Yes": 1975,
                                                                                  "No": 281}
    # Statistics rows (Precincts Counted, Registered Voters, Ballots Cast, turnout) are not
    # contests.
    titles = {c.key.title.lower() for c in parsed.contests}
    assert not {t for t in titles if "voters" in t or "ballots" in t or "precincts" in t}


def test_garfield_agrees_with_its_own_total_column_and_ignores_the_percent_column():
    raw = sideways.read(GARFIELD)
    assert raw.sheet == "2012 Canvas Report"
    # Column B (unheaded) is the county total: read for every one of the 31 contests.
    assert len(raw.file_totals) == 31
    assert raw.file_totals[("US HOUSE DISTRICT 2", "", "")] == {
        "Kael Weston": 486, "Chris Stewart": 2013, "J. Robert Latham": 58}
    parsed = read_canvass(GARFIELD)
    for t in parsed.totals:
        key = (t.contest.key.title, t.contest.key.district, t.contest.key.party)
        assert raw.file_totals[key] == votes(t), key
    assert not [i for i in parsed.issues if "do not add up" in i.message]
    assert not [i for i in parsed.issues if i.severity is Severity.ERROR]
    # Column C holds percentages (0.1875 …): never read as votes.
    assert set(raw.rows["precinct"]) == set(GARFIELD_PRECINCTS)
    assert int(raw.rows["votes"].sum()) == sum(sum(v.values()) for v in raw.file_totals.values())


def test_garfield_sheet_choice():
    parsed = read_canvass(GARFIELD, options=ReadOptions(sheet="2012 Canvas Report"))
    assert len(parsed.contests) == 31
    with pytest.raises(ImportFailed, match="cannot be read as a sideways canvass"):
        read_canvass(GARFIELD, family="sideways", options=ReadOptions(sheet="Sheet1"))
    with pytest.raises(ImportFailed, match="has no sheet 'Canvass'"):
        read_canvass(GARFIELD, family="sideways", options=ReadOptions(sheet="Canvass"))


# --- Emery 2020 (real): a list of ballot records -------------------------------------------


def test_emery_ballot_list_says_what_it_is_and_what_to_export():
    found = detect(EMERY)
    assert [(d.family, d.label) for d in found] == [("sideways", sideways.BALLOT_LIST_LABEL)]
    assert found[0].confidence <= 20
    with pytest.raises(ImportFailed) as e:
        read_canvass(EMERY)
    issue = e.value.issue
    assert "list of 50 ballot records" in issue.message
    assert "holds no vote counts" in issue.message
    assert "export the precinct-level results" in issue.message
    assert issue.sheet == "Ballots"
    assert issue.row == 6
    assert issue.message.count(". ") == 0  # one sentence


# --- The layout family (synthetic) ---------------------------------------------------------

HEAD = ["Contest / Candidate", "Party", "Total", "%", "Hanksville", "Loa", "Torrey"]


def wayne_rows(**cells: object) -> list[list[object]]:
    """A made-up county in the sideways layout; ``cells`` overrides 'ROW:COL' (1-based row,
    column letter) for error cases."""
    rows: list[list[object]] = [
        ["Wayne County"],
        ["2022 General Election - Official Canvass"],
        [],
        HEAD,
        ["Registered Voters", "", 600, "", 100, 300, 200],
        ["Ballots Cast", "", 450, 0.75, 80, 220, 150],
        [],
        ["COUNTY COMMISSION (Vote for 2)"],
        ["Ann Able", "REP", 300, 0.4, 50, 150, 100],                # row 9
        ["Bob Baker", "DEM", 200, 0.27, 30, 100, 70],               # row 10
        ["Cy Cole", "", 250, 0.33, 40, 120, 90],
        ["Over Votes", "", 4, "", 1, 2, 1],
        ["Under Votes", "", 146, "", 39, 68, 39],
        ["Total Votes", "", 750, "", 120, 370, 260],
        ["SCHOOL BOARD"],                                             # no blank row above
        ["Vote For 1"],
        ["Di Dunn", "", 130, "", "", 80, 50],                         # row 17
        ["Write-in", "", 5, "", "", 2, 3],
        [],
        [],
        ["PROPOSITION 1"],
        ["For", "", 260, "", 60, 100, 100],
        ["Against", "", 175, "", 15, 100, 60],
    ]
    for where, value in cells.items():
        r, col = where.split("_")
        rows[int(r) - 1][ord(col) - 65] = value
    return rows


def write_xlsx(path: Path, rows: list[list[object]]) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Canvass"
    for r in rows:
        ws.append(r)
    wb.save(path)
    return path


def write_csv(path: Path, rows: list[list[object]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    return path


@pytest.mark.parametrize("writer", [write_xlsx, write_csv], ids=["xlsx", "csv"])
def test_title_block_party_total_percent_columns_vote_for_and_over_under(tmp_path, writer):
    path = writer(tmp_path / ("wayne.xlsx" if writer is write_xlsx else "wayne.csv"),
                  wayne_rows())
    found = detect(path)
    assert found[0].family == "sideways"
    parsed = read_canvass(path)
    assert parsed.primary is False  # 'General Election' in the title block
    assert parsed.election_name == "Wayne County"
    assert [c.key.title for c in parsed.contests] == ["COUNTY COMMISSION", "SCHOOL BOARD",
                                                     "PROPOSITION 1"]
    assert parsed.precincts == ["Hanksville", "Loa", "Torrey"]
    comm = totals_of(parsed, "COUNTY COMMISSION")
    assert comm.contest.seats == 2 and comm.contest.seats_from_file
    assert votes(comm) == {"Ann Able": 300, "Bob Baker": 200, "Cy Cole": 250}
    assert [c.choice.party for c in comm.choices] == ["REP", "DEM", ""]
    assert {k.value: v for k, v in comm.extras.items()} == {"over": 4, "under": 146}
    board = totals_of(parsed, "SCHOOL BOARD")
    assert board.contest.seats == 1 and board.contest.seats_from_file
    assert votes(board) == {"Di Dunn": 130, "Write-in": 5}
    assert board.precincts == 2  # not on Hanksville's ballot
    assert votes(totals_of(parsed, "PROPOSITION 1")) == {"For": 260, "Against": 175}
    assert not [i for i in parsed.issues if i.severity is not Severity.NOTE], parsed.issues


def test_a_garbled_count_is_an_error_naming_its_row_and_column(tmp_path):
    path = write_xlsx(tmp_path / "wayne.xlsx", wayne_rows(**{"10_F": "1O0"}))
    parsed = read_canvass(path)
    errors = parsed.errors
    assert len(errors) == 1
    e = errors[0]
    assert (e.sheet, e.row, e.column) == ("Canvass", 10, "F")
    assert "'1O0'" in e.message and "'Bob Baker'" in e.message and "'Loa'" in e.message
    # Read as 0, so the precincts no longer add up to the file's Total column.
    comm = totals_of(parsed, "COUNTY COMMISSION")
    # The Total column is the official figure the verdict rests on (issue 12).
    assert votes(comm)["Bob Baker"] == 200
    assert any("do not add up" in i.message and "Bob Baker" in i.message
               for i in parsed.issues)


def test_suppressed_cells_use_the_total_column(tmp_path):
    path = write_xlsx(tmp_path / "wayne.xlsx", wayne_rows(**{"17_G": "****", "18_G": "****"}))
    parsed = read_canvass(path)
    board = totals_of(parsed, "SCHOOL BOARD")
    # Torrey is hidden; the file's Total column (130 / 5) is the contest total.
    assert votes(board) == {"Di Dunn": 130, "Write-in": 5}
    assert any("suppressed" in i.message for i in parsed.issues)


def test_a_report_continued_on_a_second_page_of_precincts(tmp_path):
    rows = [
        ["", "North", "South"],
        ["MAYOR"], ["Ann", 5, 6], ["Bob", 7, 8], [],
        ["COUNCIL"], ["Cy", 1, 2], ["Di", 3, 4], [],
        ["", "East", "West"],
        ["MAYOR"], ["Ann", 10, 20], ["Bob", 30, 40], [],
        ["COUNCIL"], ["Cy", 1, 1], ["Di", 1, 1],
    ]
    parsed = read_canvass(write_xlsx(tmp_path / "pages.xlsx", rows))
    assert parsed.family == "sideways"
    assert parsed.precincts == ["North", "South", "East", "West"]
    assert len(parsed.contests) == 2
    assert votes(totals_of(parsed, "MAYOR")) == {"Ann": 41, "Bob": 85}
    assert votes(totals_of(parsed, "COUNCIL")) == {"Cy": 5, "Di": 9}


def test_a_title_repeated_for_the_same_precincts_is_a_second_contest(tmp_path):
    rows = [["", "North", "South"], ["COUNCIL"], ["Cy", 1, 2], ["Di", 3, 4],
            ["COUNCIL"], ["Ed", 5, 6], ["Flo", 7, 8]]
    parsed = read_canvass(write_xlsx(tmp_path / "twice.xlsx", rows))
    assert [c.key.title for c in parsed.contests] == ["COUNCIL", "COUNCIL (2)"]
    assert any(i.row == 5 and "appears again" in i.message for i in parsed.issues)


def test_a_precinct_rows_table_is_not_claimed(tmp_path):
    rows = [["2022 General"], ["MAYOR"], ["Precinct", "Ann", "Bob"], ["P1", 1, 2],
            ["P2", 3, 4], ["Total", 4, 6], [], ["COUNCIL"], ["Precinct", "Cy", "Di"],
            ["P1", 1, 2], ["P2", 3, 4]]
    path = write_xlsx(tmp_path / "wide.xlsx", rows)
    assert sideways.detect(path, "xlsx") is None


def test_progress_and_cancel(tmp_path):
    path = write_xlsx(tmp_path / "wayne.xlsx", wayne_rows())
    seen: list[tuple[int, int]] = []
    sideways.read(path, ReadOptions(on_progress=lambda d, t: seen.append((d, t))))
    assert seen[-1] == (1, 1)
    with pytest.raises(Cancelled):
        sideways.read(path, ReadOptions(cancelled=lambda: True))


# --- The same Garfield canvass saved other ways ---------------------------------------------


def _garfield_table(parsed) -> dict[str, dict[str, int]]:
    return {t.contest.key.title: votes(t) for t in parsed.totals}


def test_garfield_saved_as_biff_xls_reads_the_same():
    xls = DATA / "garfield_2020_as.xls"
    assert xls.read_bytes()[:4] == b"\xd0\xcf\x11\xe0"
    assert detect(xls)[0].family == "sideways"
    parsed = read_canvass(xls)
    assert parsed.precincts == GARFIELD_PRECINCTS
    assert _garfield_table(parsed) == _garfield_table(read_canvass(GARFIELD))


def test_garfield_as_a_pdf_conversion_reads_the_same(tmp_path):
    """A title in the margin, the table one column to the right, counts as text with
    thousands commas, trailing spaces, a page footer and the precinct header again."""
    import openpyxl

    rows = [list(r) for r in openpyxl.load_workbook(GARFIELD)["2012 Canvas Report"]
            .iter_rows(values_only=True)]
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["GARFIELD COUNTY 2020 GENERAL ELECTION CANVASS"])
    for k, r in enumerate(rows):
        cells = [f"{v:,}" if isinstance(v, int | float) and float(v).is_integer() else
                 (v + "  " if isinstance(v, str) else v) for v in r]
        ws.append([None, *cells])
        if k == 60:
            ws.append([None, "Page 1 of 2"])
            ws.append([None, *rows[0]])
    ws.append([None, "Page 2 of 2"])
    path = tmp_path / "garfield-from-pdf.xlsx"
    wb.save(path)
    parsed = read_canvass(path)
    assert parsed.family == "sideways"
    assert parsed.precincts == GARFIELD_PRECINCTS
    assert _garfield_table(parsed) == _garfield_table(read_canvass(GARFIELD))
    assert votes(totals_of(parsed, "US HOUSE DISTRICT 2")) == {
        "Kael Weston": 486, "Chris Stewart": 2013, "J. Robert Latham": 58}
    assert not [i for i in parsed.issues if i.severity is not Severity.NOTE]


def test_a_csv_resaved_with_a_blank_first_line_reads_the_same_naming_its_real_rows(tmp_path):
    rows = wayne_rows()
    rows[8][4] = "5O"  # row 9: a letter O for a zero
    plain = write_csv(tmp_path / "wayne.csv", rows)
    blank = write_csv(tmp_path / "resaved.csv", [[], *rows])
    assert detect(blank)[0].family == "sideways"
    a, b = read_canvass(plain), read_canvass(blank)
    assert [(t.contest.key, votes(t)) for t in a.totals] == \
        [(t.contest.key, votes(t)) for t in b.totals]
    bad = [(i.row, i.column) for p in (a, b) for i in p.issues if "'5O'" in i.message]
    assert bad == [(9, "E"), (10, "E")]


@pytest.mark.parametrize("writer", [write_xlsx, write_csv], ids=["xlsx", "csv"])
def test_a_statistics_column_among_the_precincts_is_left_out_and_said(tmp_path, writer):
    # A turnout column put between two precincts (found by changing Garfield 2020 by hand):
    # the figures stay those of the precincts, and the reading says which column it left
    # out; the share beside the total ('%') goes unsaid.
    rows = [list(r) for r in wayne_rows()]  # (the header row is the module's own list)
    for k, r in enumerate(rows):
        if len(r) >= 6:
            r.insert(5, "Turnout %" if k == 3 else (0.5 if r[2] != "" else ""))
    ext = ".xlsx" if writer is write_xlsx else ".csv"
    plain = read_canvass(writer(tmp_path / f"plain{ext}", wayne_rows()))
    parsed = read_canvass(writer(tmp_path / f"turnout{ext}", rows))
    assert [votes(t) for t in parsed.totals] == [votes(t) for t in plain.totals]
    assert parsed.precincts == ["Hanksville", "Loa", "Torrey"]
    said = [i for i in parsed.issues if "left out" in i.message and "Turnout %" in i.message]
    assert len(said) == 1 and said[0].column == "F" and said[0].row == 4
    assert not [i for i in plain.issues if "percentages or statistics" in i.message]
