"""The shared stages of the grid layouts (formats/grid.py), on small grids built here."""

from __future__ import annotations

import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import grid, vocab
from recount_desk.formats.pipeline import IssueLog

SEN = [("US Senate", "", "", "Lee", "REP", "candidate"),
       ("US Senate", "", "", "McMullin", "", "candidate")]
CLERK = [("Clerk", "", "", "Ann", "", "candidate")]


def _count(cells: list[list[str]], choices: list[grid.Choice], **how: object
           ) -> tuple[grid.Counted, IssueLog]:
    log = IssueLog("f.xlsx", "2024 General")
    tally = grid.Tally(log, cap=2)
    got = grid.count(cells, choices, [f"P{i + 1}" for i in range(len(cells))],
                     lambda i, k: (i + 5, "BCD"[k]), tally, **how)  # type: ignore[arg-type]
    tally.close()
    return got, log


def test_a_suppressed_contest_hides_every_cell_of_it_in_that_row_and_only_there():
    got, log = _count([["Suppressed", "", "7"], ["10", "20", "3"]], SEN + CLERK,
                      suppress="contest", hide=True)
    assert [(r[0], r[4], r[7]) for r in got.rows] == [
        ("P1", "Ann", 7), ("P2", "Lee", 10), ("P2", "McMullin", 20), ("P2", "Ann", 3)]
    assert got.suppressed == {("US Senate", "", "")}
    assert got.hidden == {("US Senate", "", ""): {"Lee": ["P1"], "McMullin": ["P1"]}}
    assert got.suppressed_cells == 1 and not log.issues


def test_blank_cells_are_no_rows_unless_blank_is_zero_and_bad_cells_are_named_then_counted():
    cells = [["", "x"], ["1.5", "#"], ["y", "2"]]
    got, log = _count(cells, SEN)
    assert [(r[0], r[4], r[7]) for r in got.rows] == [
        ("P1", "McMullin", 0), ("P2", "Lee", 0), ("P2", "McMullin", 0), ("P3", "Lee", 0),
        ("P3", "McMullin", 2)]
    assert [(i.row, i.column, i.severity) for i in log.issues[:2]] == [
        (5, "C", Severity.ERROR), (6, "B", Severity.ERROR)]
    assert log.issues[-1].message == "… 2 more vote counts are not whole numbers."
    assert got.fractional == {("US Senate", "", "", "Lee"): 1}
    zero, _ = _count([["", "3"]], SEN, blank_is_zero=True)
    assert [r[7] for r in zero.rows] == [0, 3] and zero.sums == [3]


def test_by_column_reads_choice_by_choice_and_a_kindless_column_is_counted_into_no_row():
    got, _ = _count([["1", "2"], ["3", "4"]], [SEN[0], (*SEN[1][:5], "")], by_column=True)
    assert [(r[0], r[4]) for r in got.rows] == [("P1", "Lee"), ("P2", "Lee")]
    assert got.sums == [3, 7]
    cell, _ = _count([["*", "2"]], SEN, suppress="cell")
    assert [r[4] for r in cell.rows] == ["McMullin"] and cell.suppressed_cells == 1


@pytest.mark.parametrize("order", [("contest", "names", "party"), ("party", "contest", "names"),
                                   ("contest", "party", "names"), ("names", "party")])
def test_band_roles_find_the_contest_choice_and_party_rows_in_any_order(order):
    text = {"contest": ["Precinct", "US Senate", "", "Clerk"],
            "names": ["", "Mike Lee", "Evan McMullin", "Ann Able"],
            "party": ["", "REP", "NP", "Democrat"]}
    rows = [["Canvass 2024"], *[text[k] for k in order], ["P1", "1", "2", "3"]]
    h = 1 + order.index("contest" if "contest" in order else "names")
    band, end = grid.band(rows, h, 4)
    assert band == [1 + i for i in range(len(order))] and end == 1 + len(order)
    cells = {i: rows[i] + [""] * (4 - len(rows[i])) for i in band}
    contest_i, name_i, party_i, _kinds = grid.band_roles(cells, band, h, 1)
    assert name_i == 1 + order.index("names")
    assert party_i == 1 + order.index("party")
    assert contest_i == (1 + order.index("contest") if "contest" in order else None)
    assert [vocab.party_of(c) for c in text["party"][1:]] == ["REP", "", "DEM"]


def test_the_other_sheets_note_and_primary_from_a_party_or_the_title():
    issues: list = []
    grid.other_sheets(issues, "f.xlsx", "2024 General", ["2024 Primary"], n=2)
    assert issues[0].severity is Severity.WARNING and "2 result sheets" in issues[0].message
    # What to do is worded by each front end: --sheet on the command line, the wizard's
    # "Sheet to read" in the window.
    from recount_desk.cli import _issue_text
    from recount_desk.core.model import Remedy
    from recount_desk.ui.models import issue_text
    assert issues[0].remedy is Remedy.CHOOSE_SHEET
    assert "--sheet" in _issue_text(issues[0]) and "Sheet to read" in issue_text(issues[0])
    assert "--sheet" not in issue_text(issues[0])
    assert grid.primary_of("2024 General", party=True) is True
    assert grid.primary_of("2024 general canvass") is False
    assert grid.primary_of("canvass") is None


@pytest.mark.parametrize(("name", "expected"), [
    ("REP MIKE LEE", ("MIKE LEE", "REP")), ("Chris Stewart (REP)", ("Chris Stewart", "REP")),
    ("Jo Doe (GOP)", ("Jo Doe", "REP")), ("REP Mike Lee (REP)", ("Mike Lee", "REP")),
    ("Write-in", ("Write-in", "")), ("(REP)", ("(REP)", ""))])
def test_a_choice_names_its_party_before_or_after_its_name(name, expected):
    assert grid.choice_party(name) == expected
