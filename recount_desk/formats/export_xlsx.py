"""Writing a results table to an XLSX workbook, every text cell as text (never a formula)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def write_table(path: Path, sheet: str, header: Sequence[str],
                rows: Sequence[Sequence[str | int | None]]) -> None:
    """One sheet: a bold header row, then the rows. Strings are stored as strings even when
    they begin with '=', so a name like '=HYPERLINK(…)' can never run as a formula; control
    characters (which XLSX cannot hold) become U+FFFD."""
    from openpyxl import Workbook
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.title = sheet[:31]
    table: list[list[object]] = [list(header)]
    table.extend(list(r) for r in rows)
    for r, values in enumerate(table, start=1):
        for c, v in enumerate(values, start=1):
            cell = ws.cell(row=r, column=c)
            if isinstance(v, str):
                # XLSX cannot hold control characters (openpyxl raises): each is shown as
                # the replacement character, so the cell still says something was there.
                cell.value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", v)
                cell.data_type = "s"  # openpyxl would take a leading '=' as a formula
                cell.quotePrefix = True
            else:
                cell.value = v
            if r == 1:
                cell.font = Font(bold=True)
    ws.freeze_panes = "A2"
    wb.save(path)
