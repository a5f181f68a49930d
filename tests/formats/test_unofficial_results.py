"""A report whose title calls its figures unofficial ('UNOFFICIAL RESULTS', as Electionware
prints before the canvass; 'Unofficial Election Night Results' over a county's own sheet)
is read, but no verdict rests on it and it is not imported into a case: the recount margin
is measured on the canvass (20A-4-304(1); 20A-4-401(1)(d), (2)(a)). Box Elder's 2018
general Summary Results Report (tests/data/formats/ess_summary, see its SOURCES.md) says
'OFFICIAL RESULTS'; the same file saying 'UNOFFICIAL RESULTS' is made from it here, and the
hand-built sheet's rows are made up."""

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

OFFICIAL = Path(__file__).parent.parent / "data" / "formats" / "ess_summary" / \
    "box_elder_2018g_summary.csv"


def _unofficial_copy(tmp_path: Path) -> Path:
    text = OFFICIAL.read_text(encoding="utf-8")
    assert "OFFICIAL RESULTS" in text and "UNOFFICIAL" not in text
    path = tmp_path / "box_elder_election_night.csv"
    path.write_text(text.replace("OFFICIAL RESULTS", "UNOFFICIAL RESULTS"), encoding="utf-8")
    return path


def _said(parsed: ParsedCanvass) -> list[Issue]:
    return [i for i in parsed.issues if "calls its figures unofficial" in i.message]


def _sheet(path: Path, title: str, first: str | None) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = title
    if first is not None:
        ws.append([first])
        ws.append([])
    ws.append(["", "County Commission Seat A", None])
    ws.append(["Precinct", "Pat Able", "Lee Baker"])
    ws.append(["", "REP", "DEM"])
    for name, a, b in (("North 1", 120, 98), ("North 2", 87, 101), ("South 1", 140, 133)):
        ws.append([name, a, b])
    wb.save(path)
    return path


def test_the_official_report_is_read_as_before() -> None:
    parsed = canvass.read_file(OFFICIAL)
    assert parsed.unofficial is None and not _said(parsed)


def test_an_unofficial_report_gets_no_verdict(tmp_path: Path) -> None:
    parsed = canvass.read_file(_unofficial_copy(tmp_path))
    (err,) = _said(parsed)
    assert err.severity is Severity.ERROR and err.contest is None
    assert (err.row, err.column) == (1, "D") and "'UNOFFICIAL RESULTS'" in err.message
    assert parsed.unofficial == "UNOFFICIAL RESULTS"
    # the figures are read as the official report's are, and none is decided
    assert [t.choices for t in parsed.totals] == [
        t.choices for t in canvass.read_file(OFFICIAL).totals]
    result = canvass.check_parsed(parsed, election_date=date(2018, 11, 6))
    contested = [c for c in result.contests if c.decision.verdict not in (
        Verdict.UNCONTESTED, Verdict.PORTION)]
    assert contested and all(c.decision.verdict is Verdict.UNDECIDABLE for c in contested)
    assert all("calls its figures unofficial" in c.decision.explanation for c in contested)
    portions = [c for c in result.contests if c.decision.verdict is Verdict.PORTION]
    assert portions and all("unofficial" in c.decision.doubt for c in portions)


def test_an_unofficial_report_is_not_imported(tmp_path: Path) -> None:
    parsed = canvass.read_file(_unofficial_copy(tmp_path))
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


def test_a_county_sheet_titled_unofficial(tmp_path: Path) -> None:
    path = _sheet(tmp_path / "county results.xlsx", "2024 General",
                  "Unofficial Election Night Results")
    parsed = canvass.read_file(path)
    (err,) = _said(parsed)
    assert (err.sheet, err.row, err.column) == ("2024 General", 1, "A")
    (race,) = parsed.totals
    assert [c.votes for c in race.choices] == [347, 332]
    (check,) = canvass.check_parsed(parsed, election_date=date(2024, 11, 5)).contests
    assert check.decision.verdict is Verdict.UNDECIDABLE


def test_a_sheet_named_unofficial(tmp_path: Path) -> None:
    parsed = canvass.read_file(_sheet(tmp_path / "results.xlsx", "Unofficial Results", None))
    (err,) = _said(parsed)
    assert (err.sheet, err.row) == ("Unofficial Results", None)
    assert err.message.startswith("The sheet's name calls its figures unofficial")
    assert parsed.unofficial == "Unofficial Results"


def test_a_word_in_a_long_sentence_is_no_title(tmp_path: Path) -> None:
    # (a note that mentions the word is not the report calling itself unofficial)
    text = OFFICIAL.read_text(encoding="utf-8").replace(
        "GENERAL ELECTION", "GENERAL ELECTION - these results replace the unofficial "
        "results published on election night", 1)
    path = tmp_path / "box_elder_official.csv"
    path.write_text(text, encoding="utf-8")
    assert not _said(canvass.read_file(path))
