"""Workbook facts calamine does not give as values: hidden sheets and Excel error cells."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from .tabular import workbook


def first_visible_sheet(path: Path) -> tuple[str | None, list[str]]:
    """The first sheet a user sees in Excel, and the names of the hidden sheets before it."""
    meta = workbook(path).sheets_metadata
    hidden: list[str] = []
    for m in meta:
        if str(m.visible).rsplit(".", 1)[-1].lower() == "visible":
            return m.name, hidden
        hidden.append(m.name)
    return None, hidden


_CELL_ERROR = re.compile(rb'<c r="([A-Z]+)(\d+)"[^>]*?t="e"[^>]*>(?:<f[^>]*?(?:/>|>.*?</f>))?'
                         rb'<v>([^<]*)</v>', re.S)
_MAX_SHEET_XML = 256 * 1024**2


def excel_error_cells(path: Path, sheet: str | None) -> dict[tuple[int, int], str]:
    """Excel error values (#DIV/0!, #N/A …) of an XLSX sheet by (row, column), 1-based.

    calamine reads an error cell as empty, which would turn a broken formula into 0 votes.
    """
    try:
        with zipfile.ZipFile(path) as z:
            wb = z.read("xl/workbook.xml")
            rels = z.read("xl/_rels/workbook.xml.rels")
            sheets = re.findall(rb'<sheet\b[^>]*?name="([^"]*)"[^>]*?r:id="([^"]*)"', wb)
            if not sheets:
                return {}
            rid = sheets[0][1]
            if sheet is not None:
                rid = next((r for n, r in sheets if n.decode("utf-8") == sheet), rid)
            rel = next((r for r in re.findall(rb"<Relationship\b[^>]*>", rels)
                        if b'Id="' + rid + b'"' in r), None)
            target = re.search(rb'Target="([^"]*)"', rel) if rel else None
            if target is None:
                return {}
            name = target.group(1).decode("utf-8").lstrip("/")
            name = name if name.startswith("xl/") else "xl/" + name
            if z.getinfo(name).file_size > _MAX_SHEET_XML:
                return {}
            data = z.read(name)
    except (OSError, KeyError, zipfile.BadZipFile):
        return {}
    out = {}
    for col, row, value in _CELL_ERROR.findall(data):
        c = 0
        for ch in col.decode():
            c = c * 26 + ord(ch) - 64
        out[(int(row), c)] = value.decode("utf-8", "replace")
    return out
