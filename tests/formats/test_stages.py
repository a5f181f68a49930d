"""The shared stages of formats.stages: the head read once for every detector, counts per
distinct cell with every bad cell named, a grid melted into raw rows, raw rows as
categoricals."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import dominion, ess_custom, ess_report, ess_summary, long
from recount_desk.formats.pipeline import IssueLog, StagedFamily
from recount_desk.formats.stages import by_value, counts, frame, head_rows, melt, whole


def test_the_head_of_a_long_csv_is_its_first_whole_rows_quoted_newlines_and_all(tmp_path: Path):
    lines = ['county,"Precinct\nCode",office,candidate,votes']
    lines += [f'Kane,P{k:05d},"U.S. Senate, ""special""",Ann {k},{k}' for k in range(3000)]
    p = tmp_path / "big.csv"
    p.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8-sig")
    assert p.stat().st_size > 1 << 16  # longer than the head that is read
    expected = list(csv.reader(io.StringIO(p.read_text(encoding="utf-8-sig"), newline="")))
    head = head_rows(p, "csv", nrows=10_000)
    # Every row of the head is a whole row of the file (the one cut at 64 KB is left out).
    assert head == expected[:len(head)]
    assert 1000 < len(head) < len(expected)
    assert head[0][1] == "Precinct\nCode"
    assert head_rows(p, "csv", nrows=2) == expected[:2]


def test_the_head_of_a_windows_1252_csv_is_read_as_such(tmp_path: Path):
    p = tmp_path / "w.csv"
    p.write_bytes("office,candidate,votes\r\nGovernor,Juli\xe1n,3\r\n".encode("cp1252"))
    assert head_rows(p, "csv") == [["office", "candidate", "votes"], ["Governor", "Julián", "3"]]
    p.write_bytes("office,candidate,votes\r\nGovernor,Jos\xe9".encode("cp1252"))  # at the end
    assert head_rows(p, "csv")[1] == ["Governor", "José"]


def test_a_character_cut_at_the_end_of_the_head_is_not_taken_for_another_encoding(
        tmp_path: Path):
    p = tmp_path / "u.csv"
    row = "Governor,José Núñez,3\n"
    p.write_text("office,candidate,votes\n" + row * 4000, encoding="utf-8")
    head = head_rows(p, "csv", nrows=10_000)
    assert head[1:] == [["Governor", "José Núñez", "3"]] * (len(head) - 1)


def test_whole_counts_as_written_in_canvass_files():
    assert [whole(t) for t in ("1,075", "145", "145.0", " 7 ", "", "-3", "1.5", "x", "nan")] \
        == [1075, 145, 145, 7, None, None, None, None, None]


def test_whole_reads_no_name_or_notation_as_a_count():
    # San Juan's precincts are named '1_1', '1_2', …: Python's int read '1_1' as 11, so a
    # sideways sheet's header of them was a row of counts. Nor is '1,2' twelve, '1e3' a
    # thousand (the long tables refuse it too), '+5' or other scripts' digits a count.
    assert [whole(t) for t in ("1_1", "1_000", "1,2", "12,34", "1e3", "+5", "\u0661\u0662",
                               "0x10", "1 234")] == [None] * 9
    assert [whole(t) for t in ("1,234,567", "1,234.0", "12.00", "007", "0")] == \
        [1234567, 1234, 12, 7, 0]


def test_counts_name_every_bad_cell_in_reading_order_then_how_many_more():
    cells = pd.DataFrame({0: ["1", "x", "", "2,500"] * 4, 1: ["3.5", "4", "5", "?"] * 4})
    log = IssueLog("f.csv", "S")
    rows = np.arange(10, 26)
    values, known = counts(cells, log=log, rows=rows, names=["Total Votes", "Undervotes"],
                           cap=3, check=np.array([True] * 15 + [False]))
    assert values[:4].tolist() == [[1, 0], [0, 4], [0, 5], [2500, 0]]
    assert known[:4].tolist() == [[True, False], [False, True], [False, True], [True, False]]
    issues = log.close()
    shown = [(i.row, i.column, i.message) for i in issues[:3]]
    assert shown == [
        (10, "Undervotes", "The count '3.5' is not a whole number; it is read as 0."),
        (11, "Total Votes", "The count 'x' is not a whole number; it is read as 0."),
        (13, "Undervotes", "The count '?' is not a whole number; it is read as 0."),
    ]
    # 3 bad cells in every 4 rows, 11 in the rows checked (not the last row's '?'):
    # 3 shown, 8 more.
    assert issues[3].message == "… 8 more counts are not whole numbers."
    assert all(i.severity is Severity.ERROR for i in issues) and len(issues) == 4


def test_a_value_is_worked_out_once_per_distinct_cell():
    seen: list[object] = []

    def upper(s: object) -> str:
        seen.append(s)
        return str(s).upper()

    out = by_value(pd.Series(["a", "b", "a", "a", "c", "b"]), upper)
    assert out.tolist() == ["A", "B", "A", "A", "C", "B"]
    assert seen == ["a", "b", "c"]


def test_a_grid_melts_column_by_column_into_raw_rows_of_the_cells_present():
    values = np.array([[5, 7, 1], [6, 0, 2], [9, 8, 3]], dtype=np.int64)
    present = np.array([[True, True, True], [True, False, True], [False, True, True]])
    choices = [("Mayor", "", "", "Ann", "REP", "candidate"),
               ("Mayor", "", "", "Bo", "", "write_in")]
    df = melt(values, present, [0, 1], choices, ["P1", "P2", "P1"])
    assert list(df.columns) == ["precinct", "contest", "district", "party", "choice",
                                "choice_party", "kind", "votes"]
    assert df.astype({c: object for c in df.columns if c != "votes"}).values.tolist() == [
        ["P1", "Mayor", "", "", "Ann", "REP", "candidate", 5],
        ["P2", "Mayor", "", "", "Ann", "REP", "candidate", 6],
        ["P1", "Mayor", "", "", "Bo", "", "write_in", 7],
        ["P1", "Mayor", "", "", "Bo", "", "write_in", 8],
    ]
    assert all(isinstance(df[c].dtype, pd.CategoricalDtype) for c in df.columns if c != "votes")
    assert df["votes"].dtype == np.int64


def test_raw_row_tuples_become_the_same_rows_as_categoricals():
    rows = [("P1", "Gov", "", "", "Ann", "REP", "candidate", 3),
            ("P2", "Gov", "", "", "Over Votes", "", "over", 1)]
    df = frame(rows)
    assert [tuple(r) for r in df.astype(object).itertuples(index=False)] == rows
    assert frame([]).empty and list(frame([]).columns)[-1] == "votes"


def test_the_families_moved_onto_the_stages_read_in_stages():
    for fam in (dominion, ess_custom, ess_report, ess_summary, long):
        assert isinstance(fam, StagedFamily), fam.FAMILY


def test_a_detector_claims_nothing_for_other_kinds_or_damaged_files_and_raises_its_bugs(
        tmp_path):
    from recount_desk.formats.base import fail
    from recount_desk.formats.stages import detector

    seen: list[str] = []

    @detector("csv")
    def detect(path, kind):
        seen.append(kind)
        if path.name == "damaged.csv":
            raise fail(path, "The file is damaged.")
        if path.name == "bug.csv":
            raise KeyError("a bug in the detector")
        return None

    assert detect(tmp_path / "a.xlsx", "xlsx") is None and seen == []  # not looked at
    assert detect(tmp_path / "damaged.csv", "csv") is None and seen == ["csv"]
    with pytest.raises(KeyError):
        detect(tmp_path / "bug.csv", "csv")
    assert detect.__name__ == "detect"


def test_blank_lines_above_a_files_first_line_of_text_are_counted():
    from recount_desk.formats.stages import blank_lead

    assert [blank_lead(r) for r in ([["a"]], [[], ["", " "], ["x", ""]], [[], []])] == [0, 2, 2]
