"""Files laid out in ways the readers had not seen, found by trying them as a clerk would
(session 12, second round): each was read wrong and offered as done. Now each reads right,
or is refused, or its contest's verdict is withheld with an error naming where."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from workbooks import write_workbook

from recount_desk.actions.whole import check_files
from recount_desk.core.model import Severity
from recount_desk.formats import ImportFailed, read_canvass, vocab

HEAD = ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %"]


def _book(path: Path, sheets: dict[str, list[list[object]]], hidden: tuple[str, ...] = ()
          ) -> Path:
    return write_workbook(path, sheets, hidden)


def _grid(rows: list[list[object]]) -> list[list[object]]:
    return [["2024 General Election"], ["", "", "", "", "Mayor", "Mayor"],
            [*HEAD, "Ann Able", "Bob Baker"], *rows]


def _mayor(parsed) -> dict[str, int]:
    return {c.choice.name: c.votes for t in parsed.totals for c in t.choices
            if t.contest.key.title == "Mayor"}


def test_a_vote_cell_holding_a_formula_never_calculated_is_an_error_naming_it(tmp_path):
    # openpyxl (and other programs) write formulas without their values: calamine read the
    # cells as blank ("not on this precinct's ballot"), and the votes were dropped unseen.
    # A formula with no value elsewhere (a share, a sum row) costs nothing and is not said.
    path = _book(tmp_path / "f.xlsx", {"2024 General": _grid([
        ["P1", 300, 200, "=C4/B4", 120, 80], ["P2", 200, 100, 0.5, "=20+10", 70],
        ["Total", None, None, None, "=SUM(E4:E5)", "=SUM(F4:F5)"]])})
    parsed = read_canvass(path)
    [err] = parsed.errors
    assert "a formula with no value (=20+10: never calculated" in err.message
    assert (err.row, err.column) == (5, "E")


def test_a_row_of_counts_with_no_precinct_name_is_an_error_and_a_blank_sum_row_is_not(
        tmp_path):
    split = _book(tmp_path / "s.xlsx", {"2024 General": _grid([
        ["P1", 300, 200, 0.66, 120, 80], ["", None, None, None, 15, 9],
        ["P2", 200, 100, 0.5, 30, 70]])})
    parsed = read_canvass(split)
    [err] = [i for i in parsed.errors if "no precinct name" in i.message]
    assert err.row == 5 and err.message.startswith("Row 5 holds counts")
    summed = _book(tmp_path / "t.xlsx", {"2024 General": _grid([
        ["P1", 300, 200, 0.66, 120, 80], ["P2", 200, 100, 0.5, 30, 70],
        ["", None, None, None, 150, 150]])})
    parsed = read_canvass(summed)
    assert not parsed.errors and _mayor(parsed) == {"Ann Able": 150, "Bob Baker": 150}


@pytest.mark.parametrize("label", ["Carried Forward", "Page Total", "Subtotal",
                                   "Brought Forward"])
def test_running_totals_are_not_counted_as_precincts(tmp_path, label):
    path = _book(tmp_path / "c.xlsx", {"2024 General": _grid([
        ["P1", 300, 200, 0.66, 120, 80], [label, None, None, None, 120, 80],
        ["P2", 200, 100, 0.5, 30, 70]])})
    parsed = read_canvass(path)
    assert _mayor(parsed) == {"Ann Able": 150, "Bob Baker": 150}
    assert any("running total" in i.message and repr(label) in i.message
               for i in parsed.issues)
    csv = tmp_path / "c.csv"
    csv.write_text("precinct,office,candidate,votes\nP1,Mayor,Ann,10\nP1,Mayor,Bo,4\n"
                   f"{label},Mayor,Ann,10\n{label},Mayor,Bo,4\nP2,Mayor,Ann,1\nP2,Mayor,Bo,2\n")
    assert [c.votes for c in read_canvass(csv).totals[0].choices] == [11, 6]


def test_a_hidden_sheet_is_not_read_unless_chosen(tmp_path):
    old = _grid([["P1", 300, 200, 0.66, 1, 2]])
    new = _grid([["P1", 300, 200, 0.66, 120, 80]])
    path = _book(tmp_path / "h.xlsx", {"old 2018": old, "2024 General": new},
                 hidden=("old 2018",))
    parsed = read_canvass(path)
    assert parsed.sheet == "2024 General" and _mayor(parsed) == {"Ann Able": 120,
                                                                 "Bob Baker": 80}
    assert any("Hidden sheet(s) 'old 2018'" in i.message for i in parsed.issues)


@pytest.mark.parametrize(("name", "kind"), [
    ("Overvoted", "over"), ("OVERVOTED", "over"), ("Over-Voted", "over"),
    ("Undervoted", "under"), ("Not Voted", "under"), ("No Vote", "under"),
    ("Blank Ballots", "blank"), ("Over/Under", None), ("Over/Under Votes", None),
])
def test_over_and_under_votes_however_spelled_are_no_candidates(name, kind):
    assert vocab.choice_kind(name) == kind


def test_a_file_given_twice_is_counted_once(tmp_path):
    f = tmp_path / "20241105__ut__general__morgan__precinct.csv"
    f.write_text("county,precinct,office,district,party,candidate,votes\n"
                 "Morgan,P1,County Sheriff,,REP,Ann,10\nMorgan,P1,County Sheriff,,DEM,Bo,9\n")
    result = check_files([f, tmp_path / "." / f.name], election_date=date(2024, 11, 5))
    sheriff = next(r for r in result.races if "Sheriff" in r.race.key.title)
    assert sheriff.race.totals is not None and sheriff.race.totals.total == 19
    assert any("more than once" in i.message for i in result.issues)


def test_one_district_written_three_ways_is_one_race(tmp_path):
    f = tmp_path / "d.csv"
    f.write_text("precinct,office,district,candidate,votes\n"
                 "P1,State House,53,Ann,5\nP1,State House,53,Bo,4\n"
                 "P2,State House,053,Ann,5\nP2,State House,053,Bo,4\n"
                 "P3,State House,District 53,Ann,5\nP3,State House,District 53,Bo,4\n")
    [t] = read_canvass(f).totals
    assert t.contest.key.district == "53" and t.total == 27


def test_precincts_named_alike_but_for_leading_zeros_are_an_error(tmp_path):
    f = tmp_path / "z.csv"
    f.write_text("precinct,office,candidate,votes\n001,Mayor,Ann,5\n001,Mayor,Bo,4\n"
                 "1,Mayor,Ann,5\n1,Mayor,Bo,4\n2,Mayor,Ann,1\n2,Mayor,Bo,1\n")
    parsed = read_canvass(f)
    assert any("'001' and '1' are named alike but for leading zeros" in i.message
               for i in parsed.errors)
    assert parsed.doubtful


def test_a_generic_write_in_line_that_is_the_named_ones_sum_is_not_counted_again(tmp_path):
    rows = ("P1,Mayor,Ann,50\nP1,Mayor,Bo,40\nP1,Mayor,Write-in,7\nP1,Mayor,Write-In: Cy,5\n"
            "P1,Mayor,Write-In: Di,2\nP2,Mayor,Ann,30\nP2,Mayor,Bo,44\nP2,Mayor,Write-in,{}\n"
            "P2,Mayor,Write-In: Cy,3\n")
    f = tmp_path / "w.csv"
    f.write_text("precinct,office,candidate,votes\n" + rows.format(3))
    parsed = read_canvass(f)
    assert parsed.totals[0].total == 174
    assert any("generic write-in line" in i.message for i in parsed.issues)
    f.write_text("precinct,office,candidate,votes\n" + rows.format(9))  # not their sum
    assert read_canvass(f).totals[0].total == 190
    assert not any(i.severity is Severity.ERROR for i in read_canvass(f).issues)


def test_a_long_table_with_a_row_per_vote_mode_reads_the_total_rows_or_is_refused(tmp_path):
    f = tmp_path / "m.csv"
    body = ("P1,Mayor,Ann,3,Election Day\nP1,Mayor,Ann,7,Mail\nP1,Mayor,Ann,10,Total\n"
            "P1,Mayor,Bo,1,Election Day\nP1,Mayor,Bo,3,Mail\nP1,Mayor,Bo,4,Total\n")
    f.write_text("precinct,office,candidate,votes,mode\n" + body)
    parsed = read_canvass(f)
    assert [c.votes for c in parsed.totals[0].choices] == [10, 4] and not parsed.errors
    f.write_text("precinct,office,candidate,votes,mode\n"
                 + "".join(ln + "\n" for ln in body.splitlines() if "Total" not in ln))
    with pytest.raises(ImportFailed) as e:
        read_canvass(f)
    assert "no 'Total' rows" in e.value.issue.message and e.value.issue.column == "mode"


def test_a_formula_never_calculated_in_a_sideways_sheet_is_an_error_naming_it(tmp_path):
    rows = [["Garfield County 2024 General Election Canvass"], [],
            [None, "Total", "P1", "P2", "P3", "P4"], ["Registered Voters", 1200, *[300] * 4],
            ["Ballots Cast", 800, *[200] * 4], [], ["County Sheriff"],
            ["Ann Able", 400, 100, "=90+10", 100, 100], ["Bob Baker", 360, *[90] * 4], [],
            ["County Clerk"], ["Cy Cole", 400, *[100] * 4], ["Di Dunn", 360, *[90] * 4]]
    parsed = read_canvass(_book(tmp_path / "s.xlsx", {"Canvass": rows}))
    assert parsed.family == "sideways"
    [err] = parsed.errors
    assert "is a formula with no value (=90+10" in err.message
    assert (err.row, err.column) == (8, "D")


def test_a_sideways_name_wrapped_onto_the_next_row_is_one_name(tmp_path):
    # A PDF conversion puts a long name's second line in a row of its own: read as the next
    # contest's title it made 'McMullin' a contest won by 'Hansen'.
    rows = [["Garfield County 2024 General Election Canvass"], [],
            [None, "Total", "P1", "P2", "P3", "P4"], ["Ballots Cast", 800, *[200] * 4], [],
            ["U.S. Senate"], ["Evan", 400, *[100] * 4], ["McMullin"],
            ["James Arthur", 360, *[90] * 4], ["Hansen"], ["Mike Lee", 40, *[10] * 4], [],
            ["County Sheriff"], ["Cy Cole", 400, *[100] * 4], ["Di Dunn", 360, *[90] * 4]]
    parsed = read_canvass(_book(tmp_path / "w.xlsx", {"Canvass": rows}))
    got = {t.contest.key.title: [c.choice.name for c in t.choices] for t in parsed.totals}
    assert got == {"U.S. Senate": ["Evan McMullin", "James Arthur Hansen", "Mike Lee"],
                   "County Sheriff": ["Cy Cole", "Di Dunn"]}
    assert any("Row 8 ('McMullin') is read as the rest of the name" in i.message
               for i in parsed.issues)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_named_not_called_binary(tmp_path, encoding):
    f = tmp_path / "u.csv"
    f.write_bytes("precinct,office,candidate,votes\nP1,Mayor,Ann,5\n".encode(encoding))
    with pytest.raises(ImportFailed) as e:
        read_canvass(f)
    assert "saved as UTF-16" in e.value.issue.message


def test_a_sideways_report_split_over_page_sheets_is_read_whole(tmp_path):
    def page(precincts: list[str], ann: int, bob: int) -> list[list[object]]:
        n = len(precincts)
        return [["Garfield County 2024 General Election Canvass"], [],
                [None, *precincts], ["Ballots Cast", *[200] * n], [], ["County Sheriff"],
                ["Ann Able", *[ann] * n], ["Bob Baker", *[bob] * n], [], ["County Clerk"],
                ["Cy Cole", *[100] * n], ["Di Dunn", *[90] * n]]
    path = _book(tmp_path / "p.xlsx", {"Page 1": page(["P1", "P2", "P3"], 100, 90),
                                       "Page 2": page(["P4", "P5", "P6"], 10, 90)})
    parsed = read_canvass(path)
    sheriff = {c.choice.name: c.votes for t in parsed.totals for c in t.choices
               if t.contest.key.title == "County Sheriff"}
    assert sheriff == {"Ann Able": 330, "Bob Baker": 540}
    assert len(parsed.precincts) == 6
    assert any("pages of one report" in i.message for i in parsed.issues)
