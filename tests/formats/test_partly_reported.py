"""A report whose head says not every precinct had reported when it was made ('Precincts
Reported 24 of 25', '96.00%', as summary and election-night reports print it) is read, but
no verdict rests on it and it is not imported: its figures are a count under way, and the
recount margin is measured on the canvass (20A-4-304(1); 20A-4-401(1)(d), (2)(a)). Box
Elder's 2018 general Summary Results Report (tests/data/formats/ess_summary, see its
SOURCES.md) prints no such line; one is written into a copy of it here. The hand-built
sheet's rows are made up."""

from __future__ import annotations

import hashlib
from datetime import date, datetime
from pathlib import Path

import pytest
from openpyxl import Workbook

from recount_desk.actions import canvass
from recount_desk.actions.case import create_case, open_case
from recount_desk.core.model import Election, ElectionKind, Issue, Severity
from recount_desk.core.rules import Verdict
from recount_desk.formats.canvass import ParsedCanvass
from recount_desk.formats.plausibility import partly_reported

OFFICIAL = Path(__file__).parent.parent / "data" / "formats" / "ess_summary" / \
    "box_elder_2018g_summary.csv"
STATS = "STATISTICS,,,\n,TOTAL,,\n"


def _copy(tmp_path: Path, line: str) -> Path:
    text = OFFICIAL.read_text(encoding="utf-8")
    assert text.count(STATS) >= 1 and "Reported" not in text
    path = tmp_path / "box_elder_report.csv"
    path.write_text(text.replace(STATS, STATS + line + "\n", 1), encoding="utf-8")
    return path


def _said(parsed: ParsedCanvass) -> list[Issue]:
    return [i for i in parsed.issues if "not every precinct had reported" in i.message]


@pytest.mark.parametrize(("line", "figure", "column"), [
    ("Precincts Reported,24 of 25,96.00%,", "24 of 25", "B"),
    ("Precincts Reported: 24 of 25 (96.00%),,,", "24 of 25", "A"),
    ("Precincts Reporting,,96.00%,", "96.00%", "C"),
    ("Polling Places Reported,\"1,203 / 1,210\",,", "1,203 / 1,210", "B"),
])
def test_a_report_made_before_every_precinct_reported_gets_no_verdict(
        tmp_path: Path, line: str, figure: str, column: str) -> None:
    parsed = canvass.read_file(_copy(tmp_path, line))
    (err,) = _said(parsed)
    assert err.severity is Severity.ERROR and err.contest is None
    assert (err.row, err.column) == (7, column) and repr(figure) in err.message
    # the figures are read as before, and none is decided
    assert [t.choices for t in parsed.totals] == [
        t.choices for t in canvass.read_file(OFFICIAL).totals]
    result = canvass.check_parsed(parsed, election_date=date(2018, 11, 6))
    contested = [c for c in result.contests if c.decision.verdict not in (
        Verdict.UNCONTESTED, Verdict.PORTION)]
    assert contested and all(c.decision.verdict is Verdict.UNDECIDABLE for c in contested)


@pytest.mark.parametrize("line", [
    "Precincts Reported,25 of 25,100.00%,",
    "Precincts Reporting,,100%,",
    "Precincts Counted,11,,",  # a bare number: not compared with the precincts read
    "Precincts Reported,see note,24 of 25,",  # the figure beside the label is none
])
def test_a_report_of_every_precinct_or_of_no_figure_is_read_as_before(tmp_path: Path,
                                                                       line: str) -> None:
    parsed = canvass.read_file(_copy(tmp_path, line))
    assert not _said(parsed)
    assert [t.choices for t in parsed.totals] == [
        t.choices for t in canvass.read_file(OFFICIAL).totals]


def test_a_report_made_before_every_precinct_reported_is_not_imported(tmp_path: Path) -> None:
    parsed = canvass.read_file(_copy(tmp_path, "Precincts Reported,24 of 25,96.00%,"))
    path = tmp_path / "box_elder.recount"
    case = create_case(path, Election("2018 General", date(2018, 11, 6), ElectionKind.GENERAL,
                                      "Box Elder County", datetime(2018, 11, 20, 10, 0),
                                      "Clerk"), actor="clerk")
    case.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with open_case(path, actor="clerk") as case, \
            pytest.raises(canvass.ImportRefused, match="Nothing was changed"):
        canvass.import_canvass(case, parsed)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_a_county_sheet_whose_head_says_precincts_reported(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "2024 General"
    ws.append(["Precincts Reported", "2 of 3"])
    ws.append([])
    ws.append(["", "County Commission Seat A", None])
    ws.append(["Precinct", "Pat Able", "Lee Baker"])
    ws.append(["", "REP", "DEM"])
    for name, a, b in (("North 1", 120, 98), ("North 2", 87, 101), ("South 1", 140, 133)):
        ws.append([name, a, b])
    path = tmp_path / "county results.xlsx"
    wb.save(path)
    parsed = canvass.read_file(path)
    (err,) = _said(parsed)
    assert (err.sheet, err.row, err.column) == ("2024 General", 1, "B")


def test_only_short_labels_are_read() -> None:
    long = ("Results are final once all precincts reported and the board met, which it "
            "did on 24 of 25 days")
    assert partly_reported([[long]], "f.csv", None) is None
    assert partly_reported([["Precincts Completed", "", "3 of 4"]], "f.csv", None) is not None
