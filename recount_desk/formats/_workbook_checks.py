"""Workbook facts calamine does not give as values: hidden sheets and Excel error cells."""

from __future__ import annotations

import io
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


def hidden_sheets(path: Path) -> list[str]:
    """The names of a workbook's hidden sheets (Excel shows them only when unhidden)."""
    return [m.name for m in workbook(path).sheets_metadata
            if str(m.visible).rsplit(".", 1)[-1].lower() != "visible"]


_MAX_SHEET_XML = 256 * 1024**2
_REL_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def sheet_part(z: zipfile.ZipFile, sheet: str | None) -> str | None:
    """The zip member holding ``sheet`` (the first sheet if None or not found), read with an
    XML parser: sheet names are XML text ("Votes &amp; Totals"), elements may be prefixed
    ("x:sheet") and attributes in any order."""
    from defusedxml.ElementTree import fromstring

    wb = fromstring(z.read("xl/workbook.xml"))
    sheets = [(el.get("name"), el.get(_REL_ID)) for el in wb.iter()
              if _local(el.tag) == "sheet"]
    if not sheets:
        return None
    rid = next((r for n, r in sheets if n == sheet), sheets[0][1])
    rels = fromstring(z.read("xl/_rels/workbook.xml.rels"))
    target = next((el.get("Target") for el in rels.iter()
                   if _local(el.tag) == "Relationship" and el.get("Id") == rid), None)
    if not target:
        return None
    name = str(target).lstrip("/")
    return name if name.startswith("xl/") else "xl/" + name


def excel_error_cells(path: Path, sheet: str | None) -> dict[tuple[int, int], str]:
    """Excel error values (#DIV/0!, #N/A …) of an XLSX sheet by (row, column), 1-based,
    and formulas that hold no value ("=SUM(E5:E11)": a program that writes formulas
    without calculating them leaves them so).

    calamine reads an error cell as empty, and a formula with no value too, which would
    turn a broken formula into 0 votes and an uncalculated one into a precinct not on the
    ballot. The sheet is parsed once, in a stream (linear in its size whatever its cells
    hold); an error cell without a cached value is "#VALUE!" (Excel shows one once
    recalculated).
    """
    from defusedxml.ElementTree import iterparse

    try:
        with zipfile.ZipFile(path) as z:
            name = sheet_part(z, sheet)
            if name is None or z.getinfo(name).file_size > _MAX_SHEET_XML:
                return {}
            data = z.read(name)
            errors = b't="e"' in data or b"t='e'" in data
            if not errors and not _BARE_FORMULA.search(data):
                return {}  # no error cell and no formula without a value: no parse
            out: dict[tuple[int, int], str] = {}
            with io.BytesIO(data) as f:
                for _, el in iterparse(f, events=("end",)):
                    if _local(el.tag) != "c":
                        continue
                    value = next((v.text or "" for v in el if _local(v.tag) == "v"), "")
                    formula = next((x.text or "" for x in el if _local(x.tag) == "f"), None)
                    ref = _split_ref(el.get("r") or "")
                    if ref is not None and el.get("t") == "e":
                        out[ref] = value or "#VALUE!"
                    elif ref is not None and formula is not None and not value.strip() \
                            and el.get("t") not in ("s", "str", "inlineStr"):
                        out[ref] = "=" + formula  # (a formula never calculated)
                    el.clear()
            return out
    except (OSError, KeyError, zipfile.BadZipFile, ValueError, SyntaxError):
        return {}  # a damaged part: calamine's own read says what is wrong


_REF = re.compile(r"([A-Z]{1,3})([0-9]{1,7})$")
# A formula followed by no value: </f></c>, or an empty <v/> or <v></v> after it.
_BARE_FORMULA = re.compile(rb"</(?:[\w.-]+:)?f>\s*(?:<(?:[\w.-]+:)?v\s*/>|"
                           rb"<(?:[\w.-]+:)?v>\s*</(?:[\w.-]+:)?v>)?\s*</(?:[\w.-]+:)?c>|"
                           rb"<(?:[\w.-]+:)?f\b[^>]*/>\s*</(?:[\w.-]+:)?c>")


def _split_ref(ref: str) -> tuple[int, int] | None:
    m = _REF.match(ref)
    return None if m is None else (int(m.group(2)), col_number(m.group(1)))


def col_number(letters: str | bytes) -> int:
    """The 1-based number of a column's letters: 'A' (or b'A') -> 1, 'AA' -> 27."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ch if isinstance(ch, int) else ord(ch)) - 64
    return n


# calamine builds a sheet as one rectangle from A1 to its farthest cell (about 32 bytes a
# cell): one value typed in XFD1048576 asks for 549 GB and the process aborts. Sheets whose
# rectangle is larger than this are refused before calamine sees them.
MAX_CELLS = 30_000_000
_COLS = re.compile(rb'\br="([A-Z]{1,3})[0-9]')
_ROWS = re.compile(rb'<(?:[\w.-]+:)?row\b[^>]*?\br="([0-9]+)"')


def sheet_extent(path: Path, sheet: str | None) -> tuple[int, int] | None:
    """(rows, columns) of the rectangle calamine would build for an XLSX sheet, from the
    sheet's cell references; None when the sheet cannot be found (calamine then says)."""
    try:
        with zipfile.ZipFile(path) as z:
            name = sheet_part(z, sheet)
            if name is None:
                return None
            data = z.read(name)
    except (OSError, KeyError, zipfile.BadZipFile, ValueError, SyntaxError):
        return None
    return _extent(data)


def _extent(data: bytes) -> tuple[int, int]:
    cols = max((col_number(c) for c in set(_COLS.findall(data))), default=0)
    rows = max((int(r) for r in _ROWS.findall(data)), default=0)
    # A cell may name a row beyond its <row> element's: look for any longer row number.
    longer = re.compile(rb'\br="[A-Z]{1,3}([0-9]{%d,})"' % (len(str(rows)) + 1))
    rows = max([rows, *(int(r) for r in longer.findall(data))])
    dim = re.search(rb'<(?:[\w.-]+:)?dimension\b[^>]*?\bref="[A-Z]*[0-9]*:?([A-Z]+)([0-9]+)"',
                    data[:4096])
    if dim:  # calamine may size its buffer from the declared dimension
        cols, rows = max(cols, col_number(dim.group(1))), max(rows, int(dim.group(2)))
    return rows, cols


_ODS_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_ODS_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_ODS_EXTENTS: dict[tuple[str, int, int], dict[str, tuple[int, int]]] = {}


class HostileXml(ValueError):
    """A workbook part with a DTD or entity declarations (no spreadsheet program writes
    them; they are how an XML bomb is made)."""


def ods_extents(path: Path) -> dict[str, tuple[int, int]]:
    """(rows, columns) of the rectangle calamine would build for each sheet of an ODS file,
    up to its farthest cell that holds something: ``table:number-rows-repeated`` and
    ``number-columns-repeated`` let an 800-byte file ask for a billion cells. ``content.xml``
    is streamed through expat (C); a DTD (entity declarations) raises :class:`HostileXml`;
    a damaged file gives {} (calamine's own read then says what is wrong)."""
    import xml.parsers.expat

    st = path.stat()
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    if key in _ODS_EXTENTS:
        return _ODS_EXTENTS[key]
    walk = _OdsWalk()
    p = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    p.StartElementHandler = walk.start
    p.EndElementHandler = walk.end
    p.StartDoctypeDeclHandler = _refuse_dtd
    p.EntityDeclHandler = _refuse_dtd
    try:
        with zipfile.ZipFile(path) as z, z.open("content.xml") as f:
            p.ParseFile(f)
        out = walk.out
    except (OSError, KeyError, zipfile.BadZipFile, xml.parsers.expat.ExpatError):
        out = {}
    _ODS_EXTENTS.clear()
    _ODS_EXTENTS[key] = out
    return out


def _refuse_dtd(*_: object) -> None:
    raise HostileXml("a DTD or entity declaration")


def _repeat(attrs: dict[str, str], name: str) -> int:
    try:
        return max(1, int(attrs.get(f"{_ODS_TABLE} {name}", "1")))
    except ValueError:
        return 1


class _OdsWalk:
    """Expat handlers that follow rows and cells (with their repeats) of each table."""

    def __init__(self) -> None:
        self.out: dict[str, tuple[int, int]] = {}
        self.table = ""
        self.row = self.rows = self.cols = 0       # rows passed; extent of filled cells
        self.row_repeat = 1
        self.col = self.row_cols = 0               # columns passed in the row; filled extent
        self.row_filled = False
        self.in_cell = 0                            # depth inside a cell (0: outside)
        self.cell_repeat = 1
        self.cell_filled = False

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        if self.in_cell:
            self.in_cell += 1
            self.cell_filled = True  # a cell with content (text:p, an annotation…)
        elif tag == f"{_ODS_TABLE} table":
            self.table = attrs.get(f"{_ODS_TABLE} name", "")
            self.row = self.rows = self.cols = 0
        elif tag == f"{_ODS_TABLE} table-row":
            self.col = self.row_cols = 0
            self.row_repeat = _repeat(attrs, "number-rows-repeated")
            self.row_filled = False
        elif tag in (f"{_ODS_TABLE} table-cell", f"{_ODS_TABLE} covered-table-cell"):
            self.in_cell = 1
            self.cell_repeat = _repeat(attrs, "number-columns-repeated")
            self.cell_filled = f"{_ODS_OFFICE} value-type" in attrs

    def end(self, tag: str) -> None:
        if self.in_cell > 1:
            self.in_cell -= 1
        elif self.in_cell == 1:
            self.in_cell = 0
            self.col += self.cell_repeat
            if self.cell_filled:
                self.row_filled = True
                self.row_cols = self.col
        elif tag == f"{_ODS_TABLE} table-row":
            self.row += self.row_repeat
            if self.row_filled:
                self.rows = self.row
                self.cols = max(self.cols, self.row_cols)
        elif tag == f"{_ODS_TABLE} table":
            self.out[self.table] = (self.rows, self.cols)
