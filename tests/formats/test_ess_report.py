"""Electionware results workbook report.xlsx (family 2): Beaver County 2024 general."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.core.model import ExtraKind, Severity
from recount_desk.formats import detect, read_canvass

DATA = Path(__file__).parent.parent / "data" / "formats" / "ess_report"
BEAVER = DATA / "beaver_2024g_report.xlsx"


def totals_of(pc, title: str) -> dict[str, int]:
    t = next(t for t in pc.totals if t.contest.key.title == title)
    return {c.choice.name: c.votes for c in t.choices}


def test_report_is_detected_above_the_long_reader() -> None:
    found = detect(BEAVER)
    assert found[0].family == "ess_report"
    assert all(d.confidence < found[0].confidence for d in found[1:])
    assert "long" in {d.family for d in found}


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("U.S. Senate", {"CARLTON E. BOWEN": 214, "JOHN CURTIS": 2605, "CAROLINE GLEICH": 327,
                         "LAIRD FETZER HAMBLIN": 0}),
        ("State House 70 (Multi-County)", {"CARL R. ALBRECHT": 2815, "ZENO B. PARRY": 173}),
    ],
    ids=["us-senate", "multicounty-house-70"],
)
def test_precinct_results_add_up_to_summary_results(title: str, expected: dict[str, int]) -> None:
    pc = read_canvass(BEAVER)
    assert len(pc.contests) == 21
    assert len(pc.precincts) == 9
    assert totals_of(pc, title) == expected
    assert not [i for i in pc.issues if "do not add up" in i.message]
    assert pc.errors == []


def test_ballots_cast_is_a_statistic_and_over_under_are_kept_apart() -> None:
    pc = read_canvass(BEAVER)
    t = next(t for t in pc.totals if t.contest.key.title == "U.S. Senate")
    names = {c.choice.name for c in t.choices}
    assert not names & {"Ballots Cast", "Over Vote Count", "Under Vote Count"}
    assert set(t.extras) == {ExtraKind.OVER, ExtraKind.UNDER}
    assert {c.choice.party for c in t.choices if c.choice.name == "JOHN CURTIS"} == \
        {"REPUBLICAN PARTY"}
    assert any("(Multi-County)" in i.message and i.severity is Severity.NOTE
               for i in pc.issues)


def _tiny_report(tmp_path: Path, count: object) -> Path:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Summary Results"
    ws.append(["Office Name", "Contest ID", "Ballot Name", "Choice ID", "Party", "Total"])
    ws.append(["Mayor ", "C1", "ANN", "1", "", 10])
    ws.append(["Mayor ", "C1", "BOB", "2", "", 7])
    ws2 = wb.create_sheet("Precinct Results")
    ws2.append(["Precinct", "Office Name", "Contest ID", "Ballot Name", "Choice ID", "Party",
                "Total"])
    ws2.append(["P1", "Mayor ", "C1", "ANN", "1", "", 6])
    ws2.append(["P1", "Mayor ", "C1", "BOB", "2", "", 3])
    ws2.append(["P2", "Mayor ", "C1", "ANN", "1", "", 4])
    ws2.append(["P2", "Mayor ", "C1", "BOB", "2", "", count])
    ws2.append(["P2", "Mayor ", "C1", "Write-in: Invalid", "", "", 2])
    p = tmp_path / "report.xlsx"
    wb.save(p)
    return p


@pytest.mark.parametrize(
    ("count", "severity", "words", "row"),
    [
        (5, Severity.WARNING, "do not add up", None),
        ("4 votes", Severity.ERROR, "not a whole number", 5),
    ],
    ids=["precincts-disagree-with-summary", "garbled-count"],
)
def test_damaged_report_gives_a_clear_issue(tmp_path: Path, count: object, severity: Severity,
                                            words: str, row: int | None) -> None:
    pc = read_canvass(_tiny_report(tmp_path, count))
    hits = [i for i in pc.issues if words in i.message and i.severity is severity]
    assert hits, [str(i) for i in pc.issues]
    assert hits[0].row == row
    if row is not None:
        assert hits[0].sheet == "Precinct Results"
    assert totals_of(pc, "Mayor")["ANN"] == 10


def test_matching_tiny_report_has_no_warning_and_drops_invalid_write_ins(tmp_path: Path) -> None:
    pc = read_canvass(_tiny_report(tmp_path, 4))
    # BOB: 3 + 4 = 7, as the Summary Results sheet says.
    assert totals_of(pc, "Mayor") == {"ANN": 10, "BOB": 7}
    assert any("invalid write-in" in i.message for i in pc.issues)
    assert not [i for i in pc.issues if "do not add up" in i.message]
