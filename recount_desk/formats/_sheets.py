"""Helpers shared by the wide-layout readers: every sheet as text, counts, raw-row frames.

Opening a workbook once and reading every sheet from it (rather than re-opening it per
sheet) matters for the 96-sheet printed SOVC; counts are parsed one way everywhere
("1,075", "145", 145.0 → int; anything else → None).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from .base import RAW_COLUMNS, Cancelled, ReadOptions, fail
from .tabular import cell_text, read_sheet_raw, sheet_names

if TYPE_CHECKING:
    import pandas as pd

RawRow = tuple[str, str, str, str, str, str, str, int]


def iter_sheets(path: Path, names: list[str] | None = None, *,
                options: ReadOptions | None = None, nrows: int | None = None
                ) -> Iterator[tuple[str, list[list[str]]]]:
    """(sheet name, rows of text cells) for each sheet (or each of ``names``), opening the
    workbook once. Progress is reported per sheet; a cancel raises :class:`Cancelled`."""
    wanted = sheet_names(path) if names is None else names
    for i, name in enumerate(wanted):
        if options is not None:
            if options.cancelled():
                raise Cancelled()
            options.on_progress(i, len(wanted))
        rows = read_sheet_raw(path, name)
        if nrows is not None:
            rows = rows[:nrows]
        yield name, [[cell_text(v) for v in r] for r in rows]
    if options is not None:
        options.on_progress(len(wanted), len(wanted))


def workbook_sheet_names(path: Path) -> list[str]:
    return sheet_names(path)


def chosen_sheets(path: Path, names: list[str], sheet: str | None, *,
                  listed: int | None = None) -> list[str]:
    """``names``, or only ``sheet`` when the officer chose one; a sheet the workbook does
    not have is refused naming the sheets it does have (the first ``listed`` of them)."""
    if sheet is None:
        return names
    if sheet not in names:
        raise fail(path, f"The workbook has no sheet {sheet!r}; its sheets are "
                   + ", ".join(repr(n) for n in names[:listed]) + ".")
    return [sheet]


def to_int(text: str) -> int | None:
    """A whole, non-negative count from a cell's text, or None."""
    t = text.replace(",", "").strip()
    if not t:
        return None
    try:
        v = int(t)
    except ValueError:
        try:
            f = float(t)
        except ValueError:
            return None
        if not f.is_integer():
            return None
        v = int(f)
    return v if v >= 0 else None


def frame(rows: list[RawRow]) -> pd.DataFrame:
    """The raw-rows DataFrame (RAW_COLUMNS; text columns, int64 votes)."""
    import pandas as pd

    df = pd.DataFrame(rows, columns=list(RAW_COLUMNS))
    return df.astype({c: str for c in RAW_COLUMNS if c != "votes"} | {"votes": "int64"})


def require_workbook(path: Path, kind: str, what: str) -> None:
    if kind not in ("xlsx", "xls", "ods"):
        raise fail(path, f"This is not an Excel workbook, so it cannot be {what}. Export the "
                   "canvass as XLSX.")
