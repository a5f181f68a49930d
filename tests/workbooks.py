"""Workbooks written for tests: sheets of rows as openpyxl appends them (test helper)."""

from __future__ import annotations

from pathlib import Path


def write_workbook(path: Path, sheets: dict[str, list[list[object]]],
                   hidden: tuple[str, ...] = ()) -> Path:
    """An xlsx of ``sheets`` ({title: rows}), in that order; ``hidden``: sheets to hide."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, rows in sheets.items():
        ws = wb.create_sheet(title)
        for r in rows:
            ws.append(r)
        if title in hidden:
            ws.sheet_state = "hidden"
    wb.save(path)
    return path
