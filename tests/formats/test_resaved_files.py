"""Real files of every family, changed as a clerk's re-save changes them: the reading has the
same figures, or the file is refused, doubted or read with an error — never other figures
presented as a good reading (issue 16: "never misread silently").

The changes: a banner and a blank row above every sheet, a blank column before every
sheet, a line of text below every sheet, the sheets in the other order (a workbook's first
sheet is what is read when none is chosen: the reading must say which), and for CSV files
Windows line ends, a byte-order mark, blank lines at the end and a line of text below.
Found this way: Clarity's pages all named after a banner (fixed), a footer read as a
precinct (fixed).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import ImportFailed, read_canvass
from recount_desk.formats.canvass import ParsedCanvass

DATA = Path(__file__).resolve().parents[1] / "data"
WORKBOOKS = [
    DATA / "formats" / "clarity" / "SaltLake_2020 Precinct2.xlsx",
    DATA / "formats" / "dominion" / "2025C-Boulder-County-Official-Summary-of-Votes.xlsx",
    DATA / "formats" / "ess_custom" / "davis_2022p_sovc.xlsx",
    DATA / "formats" / "ess_report" / "beaver_2024g_report.xlsx",
    DATA / "formats" / "ess_sovc" / "box_elder_2020p_sovc.xlsx",
    DATA / "formats" / "handbuilt" / "Juab Precinct Results.xlsx",
    DATA / "formats" / "sideways" / "2020 General Election Garfield Precinct Level Results.xlsx",
    DATA / "formats" / "slco_sovc" / "Salt Lake UT 18P_SOVC_Final.xlsx",
]
CSVS = [
    DATA / "formats" / "dominion" / "2025C-Boulder-County-Official-Summary-of-Votes.csv",
    DATA / "formats" / "ess_sovc" / "washington_2020p_sovc.csv",
    DATA / "formats" / "ess_summary" / "box_elder_2018p_summary.csv",
    DATA / "openelections" / "20181106__ut__general__grand__precinct.csv",
    DATA / "openelections" / "20181106__ut__general__county.csv",
]

Rows = list[list[object]]
SHEET_CHANGES: dict[str, Callable[[Rows], Rows]] = {
    "banner": lambda rows: [["Official Canvass Results - printed 11/22/2022"], [], *rows],
    "blank column": lambda rows: [[None, *r] for r in rows],
    "footer": lambda rows: [*rows, [], ["Report generated 11/22/2022 4:15 PM by the clerk"]],
}
TEXT_CHANGES: dict[str, Callable[[str], str]] = {
    "CRLF": lambda text: "\r\n".join(text.splitlines()) + "\r\n",
    "BOM": lambda text: "\ufeff" + text,
    "blank lines at the end": lambda text: text.rstrip("\n") + "\n\n\n",
    "footer": lambda text: text.rstrip("\n") + "\n\nReport generated 11/22/2022\n",
}


def reading(path: Path) -> tuple[str, object]:
    """("refused" | "doubted" | "errors", None) or ("read", the figures)."""
    try:
        parsed = read_canvass(path)
    except ImportFailed:
        return "refused", None
    if parsed.doubtful:
        return "doubted", None
    # (an error bound to one contest withholds its verdict; the figures still compare)
    if any(i.severity is Severity.ERROR and i.contest is None for i in parsed.issues):
        return "errors", None
    return "read", figures(parsed)


def figures(parsed: ParsedCanvass) -> tuple[object, ...]:
    return (len(parsed.precincts), sorted(
        (t.contest.key.label(), c.choice.name, c.votes) for t in parsed.totals
        for c in t.choices))


@functools.cache
def sheets_of(src: Path) -> tuple[tuple[str, Rows], ...]:
    """Every sheet's name and values, read once per file."""
    wb = openpyxl.load_workbook(src, data_only=True, read_only=True)
    return tuple((ws.title, [list(r) for r in ws.iter_rows(values_only=True)])
                 for ws in wb.worksheets)


def rebuilt(src: Path, dst: Path, change: Callable[[Rows], Rows] | None,
            reverse: bool = False) -> Path:
    out = openpyxl.Workbook(write_only=True)
    sheets = sheets_of(src)
    for title, rows in sheets[::-1] if reverse else sheets:
        o = out.create_sheet(title)
        for r in change(rows) if change else rows:
            o.append(r)
    out.save(dst)
    return dst


def same_or_said(base: tuple[str, object], got: tuple[str, object], what: str) -> None:
    assert base[0] == "read", f"the file itself does not read cleanly: {base[0]}"
    if got[0] == "read":
        assert got[1] == base[1], f"{what}: other figures, read as if good"


@pytest.mark.parametrize("src", WORKBOOKS, ids=lambda p: p.parent.name)
def test_a_re_saved_workbook_reads_the_same_or_is_refused(src: Path, tmp_path: Path) -> None:
    base = reading(src)
    copy = reading(rebuilt(src, tmp_path / f"copy{src.suffix}", None))
    assert copy == base, "the workbook written again as it is reads otherwise"
    for name, change in SHEET_CHANGES.items():
        got = reading(rebuilt(src, tmp_path / f"{name}{src.suffix}", change))
        same_or_said(base, got, name)


@pytest.mark.parametrize("src", [p for p in WORKBOOKS if len(sheets_of(p)) > 1],
                         ids=lambda p: p.parent.name)
def test_a_workbook_with_its_sheets_in_the_other_order_says_which_it_read(
        src: Path, tmp_path: Path) -> None:
    path = rebuilt(src, tmp_path / f"reversed{src.suffix}", None, reverse=True)
    base, got = reading(src), reading(path)
    if got[0] == "read" and got[1] != base[1]:
        parsed = read_canvass(path)
        assert parsed.sheet, "another sheet was read and the reading does not say which"
        assert any(parsed.sheet in i.message and "was read" in i.message
                   for i in parsed.issues), "another sheet was read without a word"


@pytest.mark.parametrize("src", CSVS, ids=lambda p: p.name[:40])
def test_a_re_saved_csv_reads_the_same_or_is_refused(src: Path, tmp_path: Path) -> None:
    base = reading(src)
    text = src.read_bytes().decode("utf-8-sig")
    for name, change in TEXT_CHANGES.items():
        path = tmp_path / f"{name}{src.suffix}"
        path.write_bytes(change(text).encode("utf-8"))
        same_or_said(base, reading(path), name)
