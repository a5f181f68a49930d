"""Exported results read back with the same numbers, and hostile names stay inert text."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
import pytest

from recount_desk.actions import canvass
from recount_desk.actions.case import create_case
from recount_desk.actions.export import ExportError, export_results, neutralise
from recount_desk.cli import main
from recount_desk.core.model import Election, ElectionKind

BAD = Path(__file__).parents[1] / "data" / "bad"
INJECTION = '=HYPERLINK("http://example.invalid/x","Click")'
DDE = "+cmd|' /C calc'!A0"


@pytest.fixture
def hostile_case(tmp_path: Path) -> Path:
    from datetime import date

    path = tmp_path / "hostile.recount"
    with create_case(path, Election("2025 Municipal General", date(2025, 11, 4),
                                    ElectionKind.MUNICIPAL_GENERAL, "Grand County")) as case:
        canvass.import_canvass(case, canvass.read_file(BAD / "formula_injection.csv"))
    return path


@pytest.mark.parametrize(("text", "safe"), [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("Ann Able", "Ann Able"), ("", ""),
], ids=["equals", "plus", "minus", "at", "tab", "cr", "plain", "empty"])
def test_neutralise_prefixes_formula_starts(text: str, safe: str) -> None:
    assert neutralise(text) == safe


def test_csv_export_neutralises_and_keeps_numbers(hostile_case: Path, tmp_path: Path) -> None:
    from recount_desk.actions.case import open_case

    out = tmp_path / "results.csv"
    with open_case(hostile_case, readonly=True) as case:
        export_results(case, out)
    with open(out, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    by_choice = {r["Choice"]: r for r in rows}
    assert set(by_choice) == {"'" + INJECTION, "'" + DDE}
    assert by_choice["'" + INJECTION]["Votes"] == "15"
    assert by_choice["'" + DDE]["Votes"] == "16"
    assert by_choice["'" + DDE]["Contest"] == "Mayor"
    assert by_choice["'" + DDE]["Margin"] == "1"
    assert by_choice["'" + DDE]["Basis"] == "20A-4-401(1)(c)"


def test_xlsx_export_writes_text_cells_never_formulas(hostile_case: Path,
                                                     tmp_path: Path) -> None:
    out = tmp_path / "results.xlsx"
    assert main(["export", str(hostile_case), "-o", str(out)]) == 0
    ws = openpyxl.load_workbook(out).active
    header = [c.value for c in ws[1]]
    assert header[:5] == ["Contest", "District", "Party", "Choice", "Votes"]
    cells = {ws.cell(row=r, column=4).value: ws.cell(row=r, column=4)
             for r in range(2, ws.max_row + 1)}
    assert set(cells) == {INJECTION, DDE}
    assert all(c.data_type == "s" for c in cells.values())
    votes = {ws.cell(row=r, column=4).value: ws.cell(row=r, column=5).value
             for r in range(2, ws.max_row + 1)}
    assert votes == {INJECTION: 15, DDE: 16}
    # No formula element anywhere in the sheet XML.
    import zipfile

    with zipfile.ZipFile(out) as z:
        assert b"<f>" not in z.read("xl/worksheets/sheet1.xml")


def test_export_refuses_other_suffixes(hostile_case: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(hostile_case), "-o", str(tmp_path / "r.pdf")]) == 1
    assert ".csv or .xlsx" in capsys.readouterr().err
    with pytest.raises(ExportError):
        from recount_desk.actions.case import open_case

        with open_case(hostile_case, readonly=True) as case:
            export_results(case, tmp_path / "missing-folder" / "r.csv")
