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


# ---------------------------------------------------------------------------------------------
# Variants of the Box Elder / Cache / Emery 2024 workbooks, derived from the Beaver file.

SENATE = {"CARLTON E. BOWEN": 214, "JOHN CURTIS": 2605, "CAROLINE GLEICH": 327,
          "LAIRD FETZER HAMBLIN": 0}


def _beaver_variant(tmp_path: Path, order: list[str], *, title_row: bool = False,
                    candidates_by_group: bool = False) -> Path:
    """The real Beaver workbook with only the sheets in ``order``, in that order.

    The real by-group sheets hold only Ballots Cast / Over / Under; ``candidates_by_group``
    writes them instead from the ungrouped sheets, every count split over two groups."""
    from openpyxl import Workbook, load_workbook

    src = load_workbook(BEAVER, read_only=True)
    wb = Workbook()
    wb.remove(wb.active)
    for name in order:
        ws = wb.create_sheet(name)
        if title_row:
            ws.append(["Beaver County 2024 General Election - Official Results"])
        if candidates_by_group and name.endswith(" by Group"):
            rows = list(src[name.removesuffix(" by Group")].iter_rows(values_only=True))
            t = rows[0].index("Total")
            ws.append([*rows[0][:t], "Group", "Total"])
            for row in rows[1:]:
                if row[t] is None:
                    continue
                n = int(row[t])
                ws.append([*row[:t], "In Person", n // 3])
                ws.append([*row[:t], "By Mail Ballot", n - n // 3])
            continue
        for row in src[name].iter_rows(values_only=True):
            ws.append(list(row))
    p = tmp_path / "report.xlsx"
    wb.save(p)
    return p


ALL = ["Summary Results", "Summary Results by Group", "Precinct Results",
       "Precinct Results by Group"]
SHEET_CASES = [
    ("sheets-in-another-order", list(reversed(ALL)), False, "Precinct Results", False),
    ("no-by-group-sheets", ["Precinct Results", "Summary Results"], False, "Precinct Results",
     False),
    ("only-by-group-sheets-with-candidates", ["Summary Results by Group",
                                              "Precinct Results by Group"], False,
     "Precinct Results by Group", True),
    ("title-row-above-the-header", ALL, True, "Precinct Results", False),
]


@pytest.mark.parametrize(("case", "order", "title_row", "sheet", "summed"), SHEET_CASES,
                         ids=[c[0] for c in SHEET_CASES])
def test_workbook_variants_read_the_same_figures(
        tmp_path: Path, case: str, order: list[str], title_row: bool, sheet: str,
        summed: bool) -> None:
    path = _beaver_variant(tmp_path, order, title_row=title_row, candidates_by_group=summed)
    assert detect(path)[0].family == "ess_report"
    pc = read_canvass(path)
    assert len(pc.contests) == 21
    assert len(pc.precincts) == 9
    assert totals_of(pc, "U.S. Senate") == SENATE
    assert totals_of(pc, "State House 70 (Multi-County)") == {"CARL R. ALBRECHT": 2815,
                                                              "ZENO B. PARRY": 173}
    assert pc.errors == []
    assert not [i for i in pc.issues if i.severity is Severity.WARNING], \
        [str(i) for i in pc.issues]
    assert {i.sheet for i in pc.issues if i.sheet} == {sheet}
    assert any("groups are added up" in i.message for i in pc.issues) is summed


def test_summary_that_disagrees_with_precincts_is_caught_through_its_by_group_sheet(
        tmp_path: Path) -> None:
    from openpyxl import load_workbook

    path = _beaver_variant(tmp_path, ["Summary Results by Group", "Precinct Results"],
                           candidates_by_group=True)
    wb = load_workbook(path)
    ws = wb["Summary Results by Group"]
    row = next(r for r in ws.iter_rows(min_row=2)
               if (r[0].value or "").strip() == "U.S. Senate" and r[2].value == "JOHN CURTIS")
    row[6].value = int(row[6].value) + 10   # one group of two
    wb.save(path)
    pc = read_canvass(path)
    hits = [i for i in pc.issues if "do not add up" in i.message]
    assert len(hits) == 1
    assert "JOHN CURTIS: precincts add up to 2,605, the file's total says 2,615" in \
        hits[0].message


def _write_in_report(tmp_path: Path, bare: tuple[int, int], *, over_summary: int = 3) -> Path:
    """Two precincts of a Cache-like report with 'Write-in', 'Write-in: NAME' and
    'Write-in: Invalid' lines, over/under counts and an office name with a trailing space."""
    from openpyxl import Workbook

    precincts = {
        "NORTH LOGAN 1": [("ANN", 10), ("BOB", 7), ("Write-in", bare[0]),
                          ("Write-in: JANE DOE", 2), ("Write-in: Invalid", 1),
                          ("Over Vote Count", 1), ("Under Vote Count", 4), ("Ballots Cast", 25)],
        "NORTH LOGAN 2": [("ANN", 5), ("BOB", 9), ("Write-in", bare[1]),
                          ("Write-in: JANE DOE", 0), ("Write-in: Invalid", 0),
                          ("Over Vote Count", 2), ("Under Vote Count", 0), ("Ballots Cast", 16)],
    }
    wb = Workbook()
    prec = wb.active
    prec.title = "Precinct Results"
    prec.append(["Precinct", "Office Name", "Contest ID", "Ballot Name", "Choice ID", "Party",
                 "Total"])
    summed: dict[str, int] = {}
    for p, lines in precincts.items():
        for choice, n in lines:
            prec.append([p, "County Council ", "CONTEST_7", choice, "", "", n])
            summed[choice] = summed.get(choice, 0) + n
    summed["Over Vote Count"] = over_summary
    summary = wb.create_sheet("Summary Results", 0)
    summary.append(["Office Name", "Contest ID", "Ballot Name", "Choice ID", "Party", "Total"])
    for choice, n in summed.items():
        summary.append(["County Council ", "CONTEST_7", choice, "", "", n])
    p = tmp_path / "cache_report.xlsx"
    wb.save(p)
    return p


@pytest.mark.parametrize(
    ("bare", "expected", "subtotal"),
    [
        ((3, 0), {"ANN": 15, "BOB": 16, "Write-in: JANE DOE": 2}, True),
        ((1, 4), {"ANN": 15, "BOB": 16, "Write-in": 5, "Write-in: JANE DOE": 2}, False),
    ],
    ids=["write-in-line-is-a-subtotal", "write-in-line-is-its-own-count"],
)
def test_write_in_lines_are_counted_once(tmp_path: Path, bare: tuple[int, int],
                                         expected: dict[str, int], subtotal: bool) -> None:
    pc = read_canvass(_write_in_report(tmp_path, bare))
    assert totals_of(pc, "County Council") == expected
    t = pc.totals[0]
    assert {k.value: v for k, v in t.extras.items()} == {"over": 3, "under": 4}
    assert any("'Write-in' line is the sum" in i.message for i in pc.issues) is subtotal
    assert any("1 invalid write-in" in i.message for i in pc.issues)
    assert not [i for i in pc.issues if i.severity is not Severity.NOTE], \
        [str(i) for i in pc.issues]


def test_over_votes_that_disagree_with_the_summary_are_a_warning(tmp_path: Path) -> None:
    pc = read_canvass(_write_in_report(tmp_path, (3, 0), over_summary=5))
    hits = [i for i in pc.issues if "Over/under votes" in i.message]
    assert [h.severity for h in hits] == [Severity.WARNING]
    assert "'County Council' Over Vote Count: precincts 3, summary 5" in hits[0].message


def test_by_group_sheet_without_candidate_votes_is_refused_clearly(tmp_path: Path) -> None:
    from recount_desk.formats import ImportFailed

    # As in the real file: the by-group sheet has only Ballots Cast / Over / Under.
    path = _beaver_variant(tmp_path, ["Summary Results", "Precinct Results by Group"])
    with pytest.raises(ImportFailed) as e:
        read_canvass(path)
    assert e.value.issue.sheet == "Precinct Results by Group"
    assert "no candidate votes" in e.value.issue.message


def test_summary_without_candidate_totals_is_a_warning(tmp_path: Path) -> None:
    path = _beaver_variant(tmp_path, ["Summary Results by Group", "Precinct Results"])
    pc = read_canvass(path)
    assert totals_of(pc, "U.S. Senate") == SENATE
    hits = [i for i in pc.issues if "cannot be checked" in i.message]
    assert [h.severity for h in hits] == [Severity.WARNING]
