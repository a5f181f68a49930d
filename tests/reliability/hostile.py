"""Hostile inputs, generated (a few KB each) instead of kept as files: the red team's crashes,
hangs and silent wrong figures (issue 14). ``python tests/reliability/hostile.py DIR`` writes
them all to DIR; the tests call the writers directly.
"""

from __future__ import annotations

import os
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

_CT = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
       '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
       '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
       'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
       '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
       'officedocument.spreadsheetml.sheet.main+xml"/>{sheets}</Types>')
_SHEET_CT = ('<Override PartName="/xl/worksheets/sheet{n}.xml" ContentType="application/'
             'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>')
_RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http:'
         '//schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" '
         'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
         'officeDocument" Target="xl/workbook.xml"/></Relationships>')
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELNS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def xlsx(path: Path, sheets: list[tuple[str, str]], *, prefix: str = "",
         hidden_first: bool = False) -> Path:
    """A minimal workbook: (sheet name as XML text, the <sheetData> inner XML) per sheet.
    ``prefix``: write the main namespace with a prefix ("x") as some writers do."""
    p = f"{prefix}:" if prefix else ""
    ns = f'xmlns{":" + prefix if prefix else ""}="{MAIN}"'
    wb = (f'<?xml version="1.0" encoding="UTF-8"?><{p}workbook {ns} xmlns:r="{RELNS}">'
          f'<{p}sheets>' + "".join(
              f'<{p}sheet name="{name}" sheetId="{i}"'
              + (' state="hidden"' if hidden_first and i == 1 else "") + f' r:id="rId{i}"/>'
              for i, (name, _) in enumerate(sheets, start=1)) + f"</{p}sheets></{p}workbook>")
    rels = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
            'openxmlformats.org/package/2006/relationships">' + "".join(
                f'<Relationship Id="rId{i}" Type="{RELNS}/worksheet" '
                f'Target="worksheets/sheet{i}.xml"/>' for i in range(1, len(sheets) + 1))
            + "</Relationships>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CT.format(sheets="".join(
            _SHEET_CT.format(n=i) for i in range(1, len(sheets) + 1))))
        z.writestr("_rels/.rels", _RELS)
        z.writestr("xl/workbook.xml", wb)
        z.writestr("xl/_rels/workbook.xml.rels", rels)
        for i, (_, data) in enumerate(sheets, start=1):
            z.writestr(f"xl/worksheets/sheet{i}.xml",
                       f'<?xml version="1.0" encoding="UTF-8"?><{p}worksheet {ns}>'
                       f"<{p}sheetData>{data}</{p}sheetData></{p}worksheet>")
    return path


def _s(ref: str, text: str, p: str = "") -> str:
    return f'<{p}c r="{ref}" t="inlineStr"><{p}is><{p}t>{text}</{p}t></{p}is></{p}c>'


def _n(ref: str, value: object, p: str = "") -> str:
    return f'<{p}c r="{ref}"><{p}v>{value}</{p}v></{p}c>'


def long_rows(rows: list[tuple[str, str, str, object]], *, p: str = "",
              error_at: int | None = None, error_xml: str = "") -> str:
    """A long table (precinct, office, candidate, votes) as <sheetData> rows; the votes of
    row ``error_at`` (1-based data row) replaced by ``error_xml``."""
    out = [f'<{p}row r="1">' + "".join(_s(f"{c}1", h, p) for c, h in zip(
        "ABCD", ["precinct", "office", "candidate", "votes"], strict=True)) + f"</{p}row>"]
    for i, (pr, office, cand, votes) in enumerate(rows, start=2):
        cells = [_s(f"A{i}", pr, p), _s(f"B{i}", office, p), _s(f"C{i}", cand, p)]
        cells.append(error_xml.format(ref=f"D{i}") if error_at == i - 1 else _n(f"D{i}",
                                                                                   votes, p))
        out.append(f'<{p}row r="{i}">' + "".join(cells) + f"</{p}row>")
    return "".join(out)


GOOD_ROWS = [("P1", "Mayor", "Ann Able", 10), ("P1", "Mayor", "Bob Baker", 8),
             ("P2", "Mayor", "Ann Able", 5), ("P2", "Mayor", "Bob Baker", 8)]


def far_cell_xlsx(folder: Path) -> Path:
    """2 KB: one value in XFD1048576 (calamine would allocate 17 billion cells)."""
    return xlsx(folder / "far_cell.xlsx",
                [("Sheet1", long_rows(GOOD_ROWS) + '<row r="1048576">'
                  + _n("XFD1048576", 1) + "</row>")])


def error_cell_reordered_xlsx(folder: Path) -> Path:
    return xlsx(folder / "error_reordered.xlsx", [("Sheet1", long_rows(
        GOOD_ROWS, error_at=2, error_xml='<c t="e" s="0" r="{ref}"><v>#DIV/0!</v></c>'))])


def error_cell_prefixed_xlsx(folder: Path) -> Path:
    return xlsx(folder / "error_prefixed.xlsx", [("Sheet1", long_rows(
        GOOD_ROWS, p="x:", error_at=2,
        error_xml='<x:c r="{ref}" t="e"><x:f>1/0</x:f><x:v>#DIV/0!</x:v></x:c>'))],
        prefix="x")


def error_cell_ampersand_sheet_xlsx(folder: Path) -> Path:
    """The error cell is on the first visible sheet, named with an "&" (XML text "&amp;"),
    after a hidden one (the sheet looked up by name was missed, and the hidden one read)."""
    return xlsx(folder / "error_ampersand.xlsx", [
        ("Notes", long_rows(GOOD_ROWS)),
        ("Votes &amp; Totals", long_rows(
            GOOD_ROWS, error_at=3, error_xml='<c r="{ref}" t="e"><v>#N/A</v></c>'))],
        hidden_first=True)


def formula_cells_xlsx(folder: Path, n: int = 8000) -> Path:
    """The table, then 8,000 formula error cells without a cached value far to its right (a
    regex scanning to the end of the sheet per cell made this quadratic)."""
    junk = "".join(f'<row r="{i}"><c r="H{i}" t="e"><f>A{i}/0</f></c></row>'
                   for i in range(100, 100 + n))
    return xlsx(folder / "formula_cells.xlsx", [("Sheet1", long_rows(GOOD_ROWS) + junk)])


def clarity_xml(folder: Path, votes: str, name: str) -> Path:
    """A Clarity detail.xml whose first count is ``votes`` as written."""
    path = folder / f"detail_{name}.xml"
    path.write_text(
        '<?xml version="1.0" encoding="utf-8"?><ElectionResult><Timestamp>11/20/2026 '
        '10:00:00 AM MST</Timestamp><ElectionName>2026 General</ElectionName><ElectionDate>'
        '11/3/2026</ElectionDate><Region>Grand</Region><Contest key="1" text="Mayor" '
        'voteFor="1" isQuestion="false" precinctsReporting="2" precinctsParticipating="2" '
        'precinctsReported="2" precinctsReportingPercent="100.00"><Choice key="1" '
        f'text="Ann Able" totalVotes="15"><VoteType name="Election Day" votes="15">'
        f'<Precinct name="P1" votes="{votes}"/><Precinct name="P2" votes="5"/></VoteType>'
        '</Choice><Choice key="2" text="Bob Baker" totalVotes="16"><VoteType name="Election '
        'Day" votes="16"><Precinct name="P1" votes="8"/><Precinct name="P2" votes="8"/>'
        '</VoteType></Choice></Contest></ElectionResult>', encoding="utf-8")
    return path


def spreadsheetml(folder: Path, attr: str, name: str) -> Path:
    """A SpreadsheetML (Clarity detail.xls) sheet with one cell carrying ``attr``."""
    path = folder / f"ssml_{name}.xls"
    path.write_text(
        '<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" '
        'xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet"><Worksheet ss:Name="1">'
        f'<Table><Row><Cell {attr}><Data ss:Type="String">Mayor</Data></Cell></Row></Table>'
        '</Worksheet></Workbook>', encoding="utf-8")
    return path


def csv_file(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def many_contests_csv(folder: Path, n: int = 30000) -> Path:
    """30,000 contests (the "spelled two ways" check was quadratic)."""
    lines = ["precinct,office,candidate,votes"]
    for i in range(n):
        lines += [f"P{i % 7},Office {i:05d},Ann Able,{i % 50 + 3}",
                  f"P{i % 7},Office {i:05d},Bob Baker,{i % 40 + 1}"]
    return csv_file(folder, "many_contests.csv", "\n".join(lines) + "\n")


def fifo(folder: Path, name: str) -> Path:
    path = folder / name
    os.mkfifo(path)
    return path


WRITERS: dict[str, Callable[[Path], Path]] = {
    "far_cell": far_cell_xlsx,
    "error_reordered": error_cell_reordered_xlsx,
    "error_prefixed": error_cell_prefixed_xlsx,
    "error_ampersand": error_cell_ampersand_sheet_xlsx,
    "formula_cells": formula_cells_xlsx,
    "many_contests": many_contests_csv,
}

if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "hostile")
    out.mkdir(parents=True, exist_ok=True)
    for write in WRITERS.values():
        print(write(out))
