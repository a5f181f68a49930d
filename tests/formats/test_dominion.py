"""Dominion Statement of Votes and Summary of Votes, CSV and XLSX (Boulder County CO, 2025)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.formats import ImportFailed, ReadOptions, detect, read_canvass

DATA = Path(__file__).parents[1] / "data" / "formats" / "dominion"
STATEMENT_CSV = DATA / "2025C-Boulder-County-Official-Statement-of-Votes.csv"
STATEMENT_XLSX = DATA / "2025C-Boulder-County-Official-Statement-of-Votes.xlsx"
SUMMARY_CSV = DATA / "2025C-Boulder-County-Official-Summary-of-Votes.csv"
SUMMARY_XLSX = DATA / "2025C-Boulder-County-Official-Summary-of-Votes.xlsx"
BOULDER_COUNCIL = {
    "Nicole Speer": 16165, "Rob Kaplan": 15867, "Montserrat Palacios": 2957, "Rob Smoke": 1499,
    "Maxwell Lord": 2853, "Jennifer Robins": 14781, "Aaron Stone": 2707,
    "Lauren Folkerts": 14222, "Mark Wallach": 17476, "Matt Benjamin": 20276,
    "Rachel Rose Isaacson": 5085,
}


def totals_of(parsed, title: str):
    for t in parsed.totals:
        if t.contest.key.title == title:
            return t
    raise AssertionError(f"{title!r} not in {[t.contest.key for t in parsed.totals]}")


@pytest.mark.parametrize(
    ("path", "precincts"),
    [(STATEMENT_CSV, 198), (STATEMENT_XLSX, 198), (SUMMARY_CSV, 1), (SUMMARY_XLSX, 1)],
    ids=["statement-csv", "statement-xlsx", "summary-csv", "summary-xlsx"],
)
def test_boulder_council_totals_seats_and_over_under(path, precincts):
    found = detect(path)
    assert found[0].family == "dominion"
    parsed = read_canvass(path)
    assert len(parsed.contests) == 32
    assert len(parsed.precincts) == precincts
    t = totals_of(parsed, "City of Boulder Council Candidates")
    assert {c.choice.name: c.votes for c in t.choices} == BOULDER_COUNCIL
    # Undervotes/overvotes repeat on each of the 11 choice rows: counted once, kept apart.
    assert {k.value: v for k, v in t.extras.items()} == {"under": 22288, "over": 65}
    # 4 x 34,109 ballots = 113,888 votes + 22,288 undervotes + 4 x 65 overvotes.
    assert t.contest.seats == 4
    assert t.contest.seats_from_file
    assert totals_of(parsed, "City of Longmont City Council At Large").contest.seats == 2
    assert any("inferred from the ballot arithmetic" in i.message for i in parsed.issues)


def test_statement_adds_up_to_the_summary_for_every_contest():
    def table(parsed):
        return {t.contest.key.title: ({c.choice.name: c.votes for c in t.choices},
                                      dict(t.extras), t.contest.seats) for t in parsed.totals}

    assert table(read_canvass(STATEMENT_CSV)) == table(read_canvass(SUMMARY_CSV))


def test_thousands_separators_and_line_broken_headers(tmp_path):
    path = tmp_path / "sov.csv"
    path.write_text(
        '"Precinct \nCode","Precinct \nNumber","Contest \nTitle","Choice \nName",'
        '"Active \nVoters*","Total \nBallots","Total \nVotes","Total \nUndervotes",'
        '"Total \nOvervotes"\n'
        '"001","9001","Mayor","Ann","3,000","1,500","1,075",5,0\n'
        '"001","9001","Mayor","Bob","3,000","1,500",420,5,0\n'
        '"* Active Voters are total voters in the precinct.",,,,,,,,\n', encoding="utf-8")
    parsed = read_canvass(path)
    assert parsed.family == "dominion"
    t = totals_of(parsed, "Mayor")
    assert {c.choice.name: c.votes for c in t.choices} == {"Ann": 1075, "Bob": 420}
    assert {k.value: v for k, v in t.extras.items()} == {"under": 5, "over": 0}
    assert t.contest.seats == 1  # 1,500 = 1,495 + 5


def test_a_file_without_undervote_columns_is_refused_clearly(tmp_path):
    path = tmp_path / "sov.csv"
    path.write_text("Precinct Code,Contest Title,Choice Name,Total Votes\n001,Mayor,Ann,3\n")
    assert all(d.family != "dominion" for d in detect(path))
    with pytest.raises(ImportFailed, match="not a Dominion Statement of Votes"):
        read_canvass(path, family="dominion")


# --- Variants of the layout, derived from the real Boulder statement -----------------------


def _boulder_rows() -> list[list[str]]:
    import csv

    with open(STATEMENT_CSV, encoding="utf-8-sig", newline="") as f:
        return list(csv.reader(f))


def _write_csv(path: Path, rows: list[list[str]], *, bom: bool = False, crlf: bool = False
               ) -> Path:
    import csv

    with open(path, "w", encoding="utf-8-sig" if bom else "utf-8", newline="") as f:
        csv.writer(f, lineterminator="\r\n" if crlf else "\n").writerows(rows)
    return path


def test_a_byte_order_mark_and_crlf_do_not_hide_the_precinct_code_column(tmp_path):
    rows = _boulder_rows()
    # Only the precinct code is left to tell precincts apart: the BOM sits on that name.
    rows = [[r[0], *r[2:]] for r in rows]
    path = _write_csv(tmp_path / "sov-bom.csv", rows, bom=True, crlf=True)
    assert path.read_bytes().startswith(b"\xef\xbb\xbf\"Precinct Code\"") or \
        path.read_bytes().startswith(b"\xef\xbb\xbfPrecinct Code")
    assert detect(path)[0].label.endswith("(Statement of Votes)")
    parsed = read_canvass(path)
    assert len(parsed.precincts) == 198
    t = totals_of(parsed, "City of Boulder Council Candidates")
    assert {c.choice.name: c.votes for c in t.choices} == BOULDER_COUNCIL
    assert t.contest.seats == 4


def test_another_countys_column_order_and_names(tmp_path):
    # Precinct name only, choice before contest, ballots last, 'Under Votes' with a space,
    # an 'Active Voters' column up front and a party column.
    rows = _boulder_rows()
    head = ["Active Voters", "Precinct", "Choice Name", "Party", "Contest Title", "Total Votes",
            "Under Votes", "Over Votes", "Total Ballots"]
    body = [[r[4], f"Precinct {r[0]}", r[3], "NP" if r[3] else "", r[2], r[6], r[7], r[8],
             r[5]] for r in rows[1:] if len(r) == 9 and r[2]]
    path = _write_csv(tmp_path / "other-county-sov.csv", [head, *body])
    found = detect(path)
    assert found[0].family == "dominion"
    parsed = read_canvass(path)
    assert len(parsed.contests) == 32
    assert len(parsed.precincts) == 198
    t = totals_of(parsed, "City of Boulder Council Candidates")
    assert {c.choice.name: c.votes for c in t.choices} == BOULDER_COUNCIL
    assert {k.value: v for k, v in t.extras.items()} == {"under": 22288, "over": 65}
    assert t.contest.seats == 4


def test_statement_as_xlsx_behind_a_cover_sheet_with_a_title_row(tmp_path):
    import openpyxl

    rows = _boulder_rows()
    wb = openpyxl.Workbook()
    cover = wb.active
    cover.title = "Cover"
    cover.append(["Boulder County 2025 Coordinated Election"])
    ws = wb.create_sheet("Statement")
    ws.append(["Official Statement of Votes"])
    for r in rows:
        ws.append([int(c.replace(",", "")) if j >= 4 and c.replace(",", "").isdigit() else c
                   for j, c in enumerate(r)])
    path = tmp_path / "sov.xlsx"
    wb.save(path)
    parsed = read_canvass(path)
    assert parsed.family == "dominion"
    assert len(parsed.precincts) == 198
    t = totals_of(parsed, "City of Longmont City Council At Large")
    assert t.contest.seats == 2
    assert all(i.sheet in (None, "Statement") for i in parsed.issues)


SMALL_HEAD = ["Precinct Code", "Precinct Number", "Contest Title", "Choice Name", "Vote For",
              "Active Voters", "Total Ballots", "Total Votes", "Total Undervotes",
              "Total Overvotes"]


def test_a_vote_for_column_gives_the_seats_and_a_total_row_is_checked(tmp_path):
    rows = [
        SMALL_HEAD,
        ["001", "1", "Town Board", "Ann", "2", "500", "100", "60", "18", "1"],
        ["001", "1", "Town Board", "Bob", "2", "500", "100", "50", "18", "1"],
        ["001", "1", "Town Board", "Cy", "2", "500", "100", "70", "18", "1"],
        ["002", "2", "Town Board", "Ann", "2", "300", "40", "20", "10", "0"],
        ["002", "2", "Town Board", "Bob", "2", "300", "40", "25", "10", "0"],
        ["002", "2", "Town Board", "Cy", "2", "300", "40", "25", "10", "0"],
        ["Total", "", "Town Board", "Ann", "2", "800", "140", "80", "28", "1"],
        ["Total", "", "Town Board", "Bob", "2", "800", "140", "77", "28", "1"],
        ["Total", "", "Town Board", "Cy", "2", "800", "140", "95", "28", "1"],
    ]
    parsed = read_canvass(_write_csv(tmp_path / "sov.csv", rows))
    t = totals_of(parsed, "Town Board")
    # The total row is the file's official figure (issue 12): Bob 77, not the precincts' 75.
    assert {c.choice.name: c.votes for c in t.choices} == {"Ann": 80, "Bob": 77, "Cy": 95}
    assert t.official
    assert t.contest.seats == 2 and t.contest.seats_from_file
    assert {k.value: v for k, v in t.extras.items()} == {"under": 28, "over": 1}
    assert parsed.precincts == ["001", "002"]
    # Bob's total row says 77, the precincts 75: build() reports it.
    assert any("Bob: precincts add up to 75" in i.message for i in parsed.issues)
    assert not any("inferred from the ballot arithmetic" in i.message for i in parsed.issues)


def test_ballot_arithmetic_that_gives_no_whole_seat_count_is_a_warning(tmp_path):
    rows = [
        SMALL_HEAD[:4] + SMALL_HEAD[5:],
        ["001", "1", "Mayor", "Ann", "500", "100", "60", "5", "0"],
        ["001", "1", "Mayor", "Bob", "500", "100", "30", "5", "0"],
    ]
    parsed = read_canvass(_write_csv(tmp_path / "sov.csv", rows))
    t = totals_of(parsed, "Mayor")
    assert {c.choice.name: c.votes for c in t.choices} == {"Ann": 60, "Bob": 30}
    assert t.contest.seats == 1 and not t.contest.seats_from_file
    assert any("gives no whole number of seats for Mayor" in i.message for i in parsed.issues)


def test_a_count_that_is_not_a_number_names_the_row_and_column(tmp_path):
    rows = [
        SMALL_HEAD[:4] + SMALL_HEAD[5:],
        ["001", "1", "Mayor", "Ann", "500", "100", "6O", "5", "0"],
        ["001", "1", "Mayor", "Bob", "500", "100", "30", "5", "0"],
    ]
    parsed = read_canvass(_write_csv(tmp_path / "sov.csv", rows))
    err = next(i for i in parsed.issues if "'6O'" in i.message)
    assert (err.row, err.column) == (2, "Total Votes")
    assert err.severity.value == "error"


def test_a_sheet_that_does_not_exist_lists_the_sheets(tmp_path):
    with pytest.raises(ImportFailed, match="has no sheet 'Precincts'"):
        read_canvass(STATEMENT_XLSX, options=ReadOptions(sheet="Precincts"))


def test_undervote_and_overvote_choice_rows_are_not_added_to_the_columns_again(tmp_path):
    rows = [
        SMALL_HEAD[:4] + SMALL_HEAD[5:],
        ["001", "1", "Mayor", "Ann", "500", "99", "60", "5", "1"],
        ["001", "1", "Mayor", "Bob", "500", "99", "33", "5", "1"],
        ["001", "1", "Mayor", "Under Votes", "500", "99", "5", "5", "1"],
        ["001", "1", "Mayor", "Over Votes", "500", "99", "1", "5", "1"],
    ]
    parsed = read_canvass(_write_csv(tmp_path / "sov.csv", rows))
    t = totals_of(parsed, "Mayor")
    assert {c.choice.name: c.votes for c in t.choices} == {"Ann": 60, "Bob": 33}
    assert {k.value: v for k, v in t.extras.items()} == {"under": 5, "over": 1}
    assert not [i for i in parsed.issues if i.severity.value != "note"]
