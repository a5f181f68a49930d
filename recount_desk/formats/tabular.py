"""Opening files: what a file really is (whatever its name says), and reading sheets as text.

Spreadsheets are read with pandas: CSV with ``read_csv``, XLSX/XLS/ODS with the calamine
engine (python-calamine, Rust, several times faster than openpyxl); a SpreadsheetML 2003
workbook (XML, as Clarity's ``detail.xls`` is) is streamed sheet by sheet with a C XML
parser (:func:`iter_spreadsheetml`). Every cell comes back as text ("" for empty) so that
readers decide what a number is and report what is not.
"""

from __future__ import annotations

import csv
import errno
import io
import re
import stat
import zipfile
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from .base import Cancelled, ImportFailed, fail

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

NOT_UTF8_NOTE = ("The file is not UTF-8; it was read as Windows-1252 (Latin-1). Check accented "
                 "names.")
MAX_UNZIPPED = 2 * 1024**3  # a canvass xlsx this large is a zip bomb, not a canvass


def _malformed(path: Path, e: Exception) -> ImportFailed:
    """pandas' "Error tokenizing data … line N, saw M" as our message, with its row."""
    msg = str(e)
    row = None
    m = re.search(r"EOF inside string starting at row (\d+)", msg)
    if m:  # (pandas counts the file's lines from 0)
        return fail(path, "The CSV file ends inside a quoted cell (a quote opened near row "
                    f"{int(m.group(1)) + 1} is never closed): the file seems cut short, as a "
                    "copy or download stopped part-way leaves it. Copy or export the file "
                    "again and import that copy.", row=int(m.group(1)) + 1)
    if "line " in msg:
        try:
            row = int(msg.split("line ")[1].split(",")[0])
        except ValueError:
            row = None
    return fail(path, "The CSV file is malformed: a row has more fields than the header.",
                row=row)


# What Path.exists() takes for "no such file" (pathlib's _IGNORED_ERRNOS).
_NO_FILE = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP})


def _encodings(path: Path) -> tuple[str, str]:
    """The encodings a CSV is tried in, in order: UTF-8 (with its byte-order mark where the
    file begins with one), then Windows-1252. Plain "utf-8" where there is no mark: pandas
    decodes it in its own parser, "utf-8-sig" through Python's codec (13 % slower on a 4 MB
    county file); the two read a file without the mark alike."""
    with open(path, "rb") as f:
        bom = f.read(3) == b"\xef\xbb\xbf"
    return ("utf-8-sig" if bom else "utf-8", "cp1252")


def sniff(path: Path) -> str:
    """'csv', 'xlsx', 'xls', 'ods', 'spreadsheetml', 'xml', 'zip', or raises ImportFailed."""
    try:  # (one stat for what exists(), is_dir() and is_file() would each ask)
        mode: int | None = path.stat().st_mode
    except OSError as e:
        if e.errno not in _NO_FILE:  # as Path.exists() lets other errors through
            raise
        mode = None
    except ValueError:  # a name the system cannot take (Path.exists() says False)
        mode = None
    if mode is None:
        if path.is_symlink():
            raise fail(path, "This is a symbolic link to nothing (or a loop of links), not "
                       "a file.")
        raise fail(path, "The file does not exist.")
    if stat.S_ISDIR(mode):
        raise fail(path, "This is a folder, not a file.")
    if not stat.S_ISREG(mode):  # a FIFO or a device: reading it could wait forever
        raise fail(path, "This is not a regular file (a pipe or a device); export the "
                   "canvass to a file and import that.")
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError as e:
        raise fail(path, f"The file cannot be read: {e.strerror}.") from e
    if not head:
        raise fail(path, "The file is empty. Export the canvass again from the election system.")
    if head.startswith(b"%PDF"):
        raise fail(path, "This is a PDF document, not a spreadsheet. Export the canvass as "
                   "CSV or Excel (XLSX) from the election system instead.")
    if head[:8] in (b"\x89PNG\r\n\x1a\n",) or head[:3] == b"\xff\xd8\xff" or head[:4] in (
            b"GIF8", b"II*\x00", b"MM\x00*"):
        raise fail(path, "This is a picture, not a spreadsheet. Export the canvass as CSV or "
                   "Excel (XLSX) from the election system.")
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or _utf16_without_bom(head[:1024]):
        raise fail(path, "This text file is saved as UTF-16 (Excel's 'Unicode Text'). Save it "
                   "again as 'CSV UTF-8 (Comma delimited)' and import that copy.")
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        if b"E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P\x00a\x00c\x00k\x00a\x00g\x00e" in \
                _read_all(path, 1 << 16):
            raise fail(path, "This workbook is protected with a password. Open it in Excel, "
                       "remove the password (File › Info › Protect Workbook), save, and "
                       "import it again.")
        return "xls"
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return _zip_kind(path)
    low = head.lstrip(b"\xef\xbb\xbf").lstrip().lower()
    if low.startswith(b"<?xml") or low.startswith(b"<workbook") or low.startswith(b"<election"):
        if b"urn:schemas-microsoft-com:office:spreadsheet" in _read_all(path, 1 << 16):
            return "spreadsheetml"
        return "xml"
    if low.startswith((b"<html", b"<!doctype html", b"<head", b"<frameset")) or (
            b"<html" in low[:512]):
        raise fail(path, "This is a web page (HTML), not a spreadsheet; an Excel 'web page' "
                   "export keeps its data in other files. Export the canvass as CSV or XLSX.")
    if b"\x00" in head[:1024]:
        raise fail(path, "This file is not text and not a spreadsheet Recount Desk knows "
                   "(binary data). Export the canvass as CSV or XLSX.")
    return "csv"


def _utf16_without_bom(head: bytes) -> bool:
    """Text saved as UTF-16 with no byte-order mark: every other byte a zero, the others
    printable (ASCII text in either byte order)."""
    if len(head) < 8:
        return False
    for zeros, text in ((head[1::2], head[0::2]), (head[0::2], head[1::2])):
        if zeros.count(0) >= 0.9 * len(zeros) and \
                all(32 <= b < 127 or b in (9, 10, 13) for b in text[:256]):
            return True
    return False


def _read_all(path: Path, limit: int) -> bytes:
    with open(path, "rb") as f:
        return f.read(limit)


def _zip_kind(path: Path) -> str:
    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            total = sum(i.file_size for i in z.infolist())
    except zipfile.BadZipFile as e:
        raise fail(path, "The file is damaged: it looks like an Excel workbook but cannot be "
                   "opened (bad zip). Export it again.") from e
    if total > MAX_UNZIPPED:
        raise fail(path, f"The workbook unpacks to {total / 1024**3:.1f} GB, far more than any "
                   "canvass; it is refused as unsafe (a 'zip bomb').")
    if "xl/workbook.xml" in names:
        return "xlsx"
    if "content.xml" in names and "mimetype" in names:
        return "ods"
    if any(n.lower().endswith((".xls", ".xml", ".xlsx", ".csv")) for n in names):
        return "zip"
    raise fail(path, "This zip archive holds no spreadsheet. Export the canvass as CSV or XLSX.")


def read_csv_text(path: Path, *, header: int | None = 0, nrows: int | None = None,
                  sep: str | None = ",", dtype: object = str, skiprows: int = 0
                  ) -> tuple[pd.DataFrame, str | None]:
    """A CSV as text cells. Returns the frame and a note when the encoding was not UTF-8.
    ``dtype=object`` gives plain Python strings (faster to factorize than pandas' str).
    ``skiprows``: lines above the table left out (the blank lines a re-save put first)."""
    import pandas as pd

    note = None
    for enc in _encodings(path):
        try:
            df = pd.read_csv(path, dtype=dtype, keep_default_na=False, header=header,
                             encoding=enc, nrows=nrows, sep=sep, skip_blank_lines=False,
                             on_bad_lines="error", engine="c" if sep else "python",
                             skiprows=skiprows or None)
            if enc == "cp1252":
                note = NOT_UTF8_NOTE
            return df, note
        except UnicodeDecodeError:
            continue
        except pd.errors.EmptyDataError as e:
            raise fail(path, "The file has no rows.") from e
        except pd.errors.ParserError as e:
            raise _malformed(path, e) from e
    raise fail(path, "The file's text cannot be decoded.")


# From this size on a CSV's text columns are parsed as categories: below it pandas' fixed
# cost per categorical column (its look for numbers among the categories, their sorting)
# outweighs what it saves per cell (a 0.2 MB county file: 0.7 ms slower; a 4 MB one: 10 ms
# faster).
CATEGORIES_FROM = 1 << 20


def read_csv_coded(path: Path, *, dtype: dict[str, object], chunksize: int = 1 << 18,
                   keep: Collection[str] | None = None, skiprows: int = 0,
                   categories: bool | None = None
                   ) -> tuple[list[str], int, dict[str, tuple[np.ndarray, list[str]]],
                              str | None]:
    """A CSV read a chunk of rows at a time, each column kept as codes into its distinct
    texts (``cell_text`` of each cell; whole numbers as their digits), in order of first
    appearance: (header, rows, {column: (int32 codes, texts)}, encoding note). Only the
    codes of the whole file are held, never its millions of cells as Python strings — the
    memory of a categorical column, at the speed of one parse. ``dtype``: as for
    ``read_csv`` (a column left out is inferred: whole numbers stay numbers). ``keep``: the
    columns to code (the others are parsed, so that a malformed row is still refused, but
    not coded); every column when None. ``skiprows``: as for :func:`read_csv_text`.
    ``categories``: parse the text columns as categories (None: from
    :data:`CATEGORIES_FROM` bytes on); the codes and texts are the same either way."""
    if categories is None:
        categories = path.stat().st_size >= CATEGORIES_FROM
    if not categories:
        return _read_csv_coded(path, dtype, chunksize, keep, skiprows)
    try:
        return _read_csv_coded(path, {c: ("category" if t is object else t)
                                      for c, t in dtype.items()}, chunksize, keep, skiprows)
    except _Converted:
        return _read_csv_coded(path, dtype, chunksize, keep, skiprows)


class _Converted(Exception):
    """A column read as categories whose texts pandas turned into numbers or truth values
    (it does so where every distinct text of a chunk reads as one: '007' and '7' would both
    be 7): read as text instead."""


def _read_csv_coded(path: Path, parse_as: dict[str, object], chunksize: int,
                    keep: Collection[str] | None, skiprows: int
                    ) -> tuple[list[str], int, dict[str, tuple[np.ndarray, list[str]]],
                               str | None]:
    import numpy as np
    import pandas as pd

    for enc in _encodings(path):
        header: list[str] = []
        seen: dict[str, dict[str, int]] = {}
        parts: dict[str, list[np.ndarray]] = {}
        n = 0
        try:
            # Text columns as categories: the parser hashes each cell's bytes and makes a
            # Python string only of each chunk's distinct texts (a tenth of the time of a
            # string per cell); low_memory=False: the chunk in one piece, not in pieces
            # whose categories pandas would then have to unite.
            with pd.read_csv(path, dtype=parse_as, keep_default_na=False, encoding=enc,
                             skip_blank_lines=False, on_bad_lines="error", engine="c",
                             chunksize=chunksize, skiprows=skiprows or None,
                             low_memory=False) as reader:
                for chunk in reader:
                    if not header:
                        header = [str(c) for c in chunk.columns]
                        seen = {c: {} for c in header}
                        parts = {c: [] for c in header}
                    for c, name in zip(chunk.columns, header, strict=True):
                        if keep is not None and name not in keep:
                            continue
                        column = chunk[c]
                        if isinstance(column.dtype, pd.CategoricalDtype):
                            categories = column.cat.categories
                            if not (categories.dtype == object
                                    or isinstance(categories.dtype, pd.StringDtype)):
                                raise _Converted(name)
                            # (codes renumbered in order of first appearance)
                            codes, first = pd.factorize(column.cat.codes.to_numpy())
                            cats = categories.to_numpy(dtype=object)[first]
                            texts = [cell_text(u) for u in cats.tolist()]
                            known = seen[name]
                            lookup = np.fromiter((known.setdefault(t, len(known))
                                                  for t in texts), dtype=np.int32,
                                                 count=len(texts))
                            parts[name].append(lookup[codes])
                            continue
                        arr = column.to_numpy()
                        if arr.dtype.kind in "iu":
                            codes, nums = pd.factorize(arr)
                            texts = [str(v) for v in nums.tolist()]
                        elif arr.dtype.kind == "O":
                            codes, objs = factorize_text(arr)
                            texts = [cell_text(u) for u in objs]
                        else:
                            raise NotText(name)
                        known = seen[name]
                        lookup = np.fromiter((known.setdefault(t, len(known)) for t in texts),
                                             dtype=np.int32, count=len(texts))
                        parts[name].append(lookup[codes])
                    n += len(chunk)
            if not header:  # a header and no rows: one empty read gives the names
                header = [str(c) for c in read_csv_text(path, nrows=0, dtype=object,
                                                        skiprows=skiprows)[0].columns]
                seen = {c: {} for c in header}
                parts = {c: [] for c in header}
            coded = {c: (np.concatenate(parts[c]) if parts[c] else np.zeros(0, np.int32),
                         list(seen[c])) for c in header if keep is None or c in keep}
            return header, n, coded, (NOT_UTF8_NOTE if enc == "cp1252" else None)
        except UnicodeDecodeError:
            continue
        except pd.errors.EmptyDataError as e:
            raise fail(path, "The file has no rows.") from e
        except pd.errors.ParserError as e:
            raise _malformed(path, e) from e
    raise fail(path, "The file's text cannot be decoded.")


class NotText(ValueError):
    """A column the parser read as other numbers than whole ones (fractions)."""


def read_csv_rows(path: Path, limit: int | None = None, *, strip: bool = True,
                  shared: bool = False) -> tuple[list[list[str]], str | None]:
    """A CSV as rows of stripped text cells (ragged rows kept as they are), and a note when
    the encoding was not UTF-8. For layouts that are not one table (stacked blocks, several
    header rows). ``strip=False``: the cells as the file has them (for a reader that
    strips each distinct line's cells itself); ``shared``: as for :func:`split_csv_text`."""
    for enc in ("utf-8-sig", "cp1252"):
        try:
            if limit is None:  # the whole file: its lines split where that is the same
                with open(path, "rb") as fb:
                    text = fb.read().decode(enc)
                got = split_csv_text(text, strip=strip, shared=shared)
                rows = got if got is not None else [
                    [c.strip() for c in r] if strip else r
                    for r in csv.reader(io.StringIO(text, newline=""))]
            else:
                with open(path, encoding=enc, newline="") as f:
                    rows = []
                    for i, r in enumerate(csv.reader(f)):
                        if i >= limit:
                            break
                        rows.append([c.strip() for c in r] if strip else r)
            return rows, (None if enc == "utf-8-sig" else NOT_UTF8_NOTE)
        except UnicodeDecodeError:
            continue
        except csv.Error as e:
            raise fail(path, f"The CSV file is malformed ({e}).") from e
    raise fail(path, "The file's text cannot be decoded.")


def _edge_space(text: str) -> bool:
    """Whether a cell of the lines of ``text`` may start or end with white space (True
    where unsure: any white space but a space or a tab, as str.strip() would strip it):
    where not, its cells need no stripping. One pass over the text's bytes."""
    import numpy as np

    b = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    if not len(b):
        return False
    # \v \f \r \x1c-\x1f, and the lead bytes of U+0085, U+00A0 (C2), U+1680 (E1),
    # U+2000-U+205F (E2) and U+3000 (E3).
    odd = (b == 0x0B) | (b == 0x0C) | (b == 0x0D) | ((b >= 0x1C) & (b <= 0x1F)) | \
        (b == 0xC2) | (b == 0xE1) | (b == 0xE2) | (b == 0xE3)
    if odd.any():
        return True
    blank = (b == 0x20) | (b == 0x09)
    cut = (b == 0x2C) | (b == 0x0A)
    return bool(blank[0] or blank[-1] or (cut[:-1] & blank[1:]).any()
                or (blank[:-1] & cut[1:]).any())


def split_csv_text(text: str, *, strip: bool = False, shared: bool = False
                   ) -> list[list[str]] | None:
    """The rows ``csv.reader`` gives of a text without NUL, lone carriage returns or blank
    lines, several times faster: a line without quotes split at its commas, the lines with
    quotes read by the csv module together, each on its own (so that a quoted field that
    runs over a line end, which would join two of them, makes this give None). None for
    any other text (then the csv module reads it whole). ``strip``: every cell stripped
    of white space, as ``cell.strip()``. ``shared`` (where not stripped): the lines without
    quotes that are the same text split once, into one list they share (for a reader that
    tells each distinct line what it is once; the rows must not be changed)."""
    if "\x00" in text:
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "" in lines:
        return None
    if '"' not in text:
        if strip and _edge_space(text):
            return [[c.strip() for c in line.split(",")] for line in lines]
        if shared:
            return _split_shared(lines, iter(()))
        return [line.split(",") for line in lines]
    got = _quoted_rows(lines)
    if got is None:
        return None
    read = got[1]
    if strip:
        read = [[c.strip() for c in r] for r in read]
        if _edge_space("\n".join(line for line in lines if '"' not in line)):
            parsed = iter(read)
            return [next(parsed) if '"' in line else [c.strip() for c in line.split(",")]
                    for line in lines]
    parsed = iter(read)
    if shared:
        return _split_shared(lines, parsed)
    return [next(parsed) if '"' in line else line.split(",") for line in lines]


def _quoted_rows(lines: list[str]) -> tuple[list[int], list[list[str]]] | None:
    """The places of the ``lines`` with quotes, and those lines read by the csv module, each
    on its own; None where that cannot be the file's reading: a line the module refuses, or
    a quoted field left open at a line's end, which takes in the line end (the last line's)
    or the next quoted line (one row fewer): the file's rows are not its lines."""
    at = [i for i, line in enumerate(lines) if '"' in line]
    try:
        read = list(csv.reader([lines[i] + "\n" for i in at]))
    except csv.Error:
        return None
    if len(read) != len(at) or (read and any("\n" in cell for cell in read[-1])):
        return None
    return at, read


def split_csv_cells(text: str) -> tuple[list[str], int] | None:
    """The cells of the rows :func:`split_csv_text` gives, one row after another in one
    list, and the rows' width, where every row has that width (two cells or more); else
    None (where it gives None too). One split of the whole text, not one per line (and no
    row's list): the last cell of every row ends with "\\x00", what marked its line end
    (a text with a NUL is declined), for the caller to cut off once per distinct text."""
    if "\x00" in text:
        return None
    end = "\n"
    if "\r" in text:
        end = "\r\n"
        crlf = text.count(end)
        if text.count("\r") != crlf:
            return None
        if text.count("\n") != crlf or '"' in text:  # (some lines end in "\n" alone)
            text, end = text.replace(end, "\n"), "\n"
    if not text.endswith(end):
        text += end
    n = text.count(end)
    if '"' not in text:  # (the line ends replaced as they stand: one pass)
        flat = text.replace(end, "\x00,").split(",")
    else:
        lines = text.split("\n")
        got = _quoted_rows(lines)
        if got is None:
            return None
        at, read = got
        flat = []
        done = 0
        for i, row in zip(at, read, strict=True):
            if i > done:
                flat += ("\x00,".join(lines[done:i]) + "\x00,").split(",")
                flat.pop()
            flat += row
            flat[-1] += "\x00"
            done = i + 1
        flat += ("\x00,".join(lines[done:])).split(",")  # (lines[-1] is "")
    flat.pop()  # (the "" after the last line end)
    width = len(flat) // n
    # Each line's last cell holds its one mark: where the n cells at every ``width``-th
    # place hold all n marks, every line has ``width`` cells (a blank line has one).
    if width < 2 or len(flat) != n * width or \
            "".join(flat[width - 1::width]).count("\x00") != n:
        return None
    return flat, width


def _split_shared(lines: list[str], quoted: Iterator[list[str]]) -> list[list[str]]:
    """The lines split at their commas, each distinct one once (the same list for the same
    text); a line with quotes takes the next of the rows ``quoted`` the csv module read
    (the first of them for the same text)."""
    cells: dict[str, list[str]] = {}
    return [cells.setdefault(line, next(quoted)) if '"' in line else cells[line]
            if line in cells else cells.setdefault(line, line.split(",")) for line in lines]


def col_letter(i: int) -> str:
    """Spreadsheet column name of 0-based column ``i``: 0 -> A, 26 -> AA."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def sheet_names(path: Path, kind: str = "xlsx") -> list[str]:
    return list(workbook(path).sheet_names)


def _workbook_error(path: Path, e: Exception) -> Exception:
    text = str(e)
    if "password" in text.lower() or "encrypt" in text.lower():
        return fail(path, "This workbook is protected with a password. Remove the password in "
                    "Excel, save, and import it again.")
    return fail(path, f"The workbook is damaged and cannot be read ({text.splitlines()[0][:160]})."
                " Open it in Excel, save it again as XLSX, and import that copy.")


# calamine parses a whole sheet even for one row, and opening a big workbook costs too, so
# the last workbook and its last few sheets are kept: every family's detect() and then the
# chosen reader share one parse of each sheet.
_WB_CACHE: dict[tuple[str, int, int], Any] = {}
_RAW_CACHE: dict[tuple[tuple[str, int, int], str], list[list[object]]] = {}
_KEEP_SHEETS = 4


def _file_key(path: Path) -> tuple[str, int, int]:
    st = path.stat()
    return (str(path.resolve()), st.st_mtime_ns, st.st_size)


def forget_workbooks() -> None:
    """Drop the kept workbooks and sheets (a benchmark's cold start; memory after import)."""
    _WB_CACHE.clear()
    _RAW_CACHE.clear()


def workbook(path: Path) -> Any:
    """The calamine workbook of ``path`` (the last one opened is kept)."""
    from python_calamine import CalamineWorkbook

    key = _file_key(path)
    wb = _WB_CACHE.get(key)
    if wb is None:
        if _is_ods(path):
            # calamine reads every sheet of an .ods as it opens it: size them all first.
            from ._workbook_checks import HostileXml, ods_extents

            try:
                extents = ods_extents(path)
            except HostileXml as e:
                raise fail(path, "The spreadsheet's content declares a DTD or XML entities, "
                           "which no spreadsheet program writes (it is how an 'XML bomb' is "
                           "made); it is refused as unsafe. Save it again from the "
                           "spreadsheet program and import that copy.") from e
            for sheet, extent in extents.items():
                _refuse_extent(path, sheet, extent)
        try:
            wb = CalamineWorkbook.from_path(str(path))
        except Exception as e:  # calamine raises its own error types for damaged files
            raise _workbook_error(path, e) from e
        _WB_CACHE.clear()
        _WB_CACHE[key] = wb
    return wb


def read_sheet_raw(path: Path, sheet: str | int = 0) -> list[list[object]]:
    """One sheet's cells as calamine gives them (str, float, int, bool, date, None)."""
    wb = workbook(path)
    if isinstance(sheet, int):
        names = list(wb.sheet_names)
        if not 0 <= sheet < len(names):
            raise fail(path, f"The workbook has no sheet number {sheet + 1}.")
        sheet = str(names[sheet])
    key = (_file_key(path), sheet)
    if key in _RAW_CACHE:
        return _RAW_CACHE[key]
    _refuse_vast_sheet(path, sheet)
    try:
        rows: list[list[object]] = wb.get_sheet_by_name(sheet).to_python(
            skip_empty_area=False)
    except Exception as e:  # calamine raises its own error types for damaged files
        raise _workbook_error(path, e) from e
    while len(_RAW_CACHE) >= _KEEP_SHEETS:
        _RAW_CACHE.pop(next(iter(_RAW_CACHE)))
    _RAW_CACHE[key] = rows
    return rows


def _refuse_vast_sheet(path: Path, sheet: str) -> None:
    """A sheet whose farthest cell makes calamine's rectangle too large to build (one value
    in XFD1048576 would abort the whole process) is refused with where that cell is."""
    from ._workbook_checks import sheet_extent

    try:
        with open(path, "rb") as f:
            if f.read(2) != b"PK":
                return  # .xls is bounded (65,536 x 256)
    except OSError:
        return
    # An .ods sheet is sized by its repeated rows and columns, an .xlsx one by its cells'
    # references.
    if _is_ods(path):
        return  # every sheet was sized when the workbook was opened
    _refuse_extent(path, sheet, sheet_extent(path, sheet))


def _is_ods(path: Path) -> bool:
    try:
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
    except (OSError, zipfile.BadZipFile):
        return False
    return "content.xml" in names and "mimetype" in names and "xl/workbook.xml" not in names


def _refuse_extent(path: Path, sheet: str, extent: tuple[int, int] | None) -> None:
    from ._workbook_checks import MAX_CELLS

    if extent is None or extent[0] * extent[1] <= MAX_CELLS:
        return
    rows, cols = extent
    raise fail(path, f"The sheet reaches cell {col_letter(cols - 1)}{rows} ({rows:,} rows by "
               f"{cols:,} columns, {rows * cols:,} cells), far beyond any canvass: something "
               "was typed or formatted far from the table. In Excel or LibreOffice press "
               "Ctrl+End to find it, delete the rows and columns after the table, save, and "
               "import again.", sheet=sheet, row=rows, column=col_letter(cols - 1))


def read_sheet_text(path: Path, sheet: str | int = 0, *, nrows: int | None = None
                    ) -> list[list[str]]:
    """One sheet as rows of text cells (numbers without a trailing '.0')."""
    rows = read_sheet_raw(path, sheet)
    if nrows is not None:
        rows = rows[:nrows]
    return [[cell_text(v) for v in r] for r in rows]


def cell_text(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        if v != v:  # NaN: an empty cell in a numeric column
            return ""
        if v.is_integer():
            return str(int(v))
        return repr(v)
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    return str(v).strip()


def frame_from_rows(rows: list[list[str]], header_row: int) -> pd.DataFrame:
    """A text DataFrame from sheet rows, using ``rows[header_row]`` as the column names."""
    import pandas as pd

    header = [h.strip() for h in rows[header_row]]
    width = len(header)
    body = [(r + [""] * (width - len(r)))[:width] for r in rows[header_row + 1:]]
    return pd.DataFrame(body, columns=header, dtype=str)


_SMALL = 1 << 11


def factorize_text(values: np.ndarray) -> tuple[np.ndarray, list[object]]:
    """``pandas.factorize`` for a column of Python objects, equal values sharing one code,
    in order of first appearance; empty cells (None, NaN) are one value, None.

    pandas' CSV parser hands out one string object per distinct text in each chunk it reads,
    so the column is first factorized by object identity (integers: several times faster
    than hashing a million strings), and only the few distinct objects are then compared
    by value.
    """
    import ctypes

    import numpy as np
    import pandas as pd

    arr = np.ascontiguousarray(values, dtype=object)
    if len(arr) == 0:
        return np.zeros(0, dtype=np.intp), []
    id_codes: np.ndarray | None = None
    distinct: Any = ()
    if len(arr) > _SMALL:  # (below that, the four calls cost more than they save)
        # The object pointers, read in place (the array keeps them alive while this runs).
        ids = np.ctypeslib.as_array((ctypes.c_ssize_t * len(arr)).from_address(
            arr.ctypes.data))
        head = ids[:4096]
        if len(pd.unique(head)) <= len(head) // 4:
            id_codes, distinct = pd.factorize(ids)
    if id_codes is None or len(distinct) > len(arr) // 4:
        # Not a parser's shared strings (a spreadsheet reader makes one object per cell).
        # Empty cells (None, NaN) get a code of their own, in its place of first appearance.
        codes, uniques = pd.factorize(arr)
        out = list(uniques)
        empty = codes < 0
        if empty.any():
            first = int(empty.argmax())
            at = int(codes[:first].max()) + 1 if first else 0
            codes = np.where(empty, at, codes + (codes >= at))
            out.insert(at, None)
        return codes, out
    # Any row of each object will do to fetch it (they all hold the same object).
    where = np.empty(len(distinct), dtype=np.intp)
    where[id_codes] = np.arange(len(arr))
    remap, found = pd.factorize(arr[where], use_na_sentinel=False)
    uniques = [None if u is None or u != u else u for u in found]  # NaN: an empty cell
    if len(uniques) == len(distinct):
        return id_codes, uniques  # no two objects with one text: codes stand
    return remap[id_codes], uniques


# --- SpreadsheetML 2003 (an XML workbook, as Clarity's detail.xls is) ---------------------

SS_NS = "urn:schemas-microsoft-com:office:spreadsheet"
_SS = "{" + SS_NS + "}"


def iter_spreadsheetml(source: IO[bytes], cancelled: Callable[[], bool] | None = None
                       ) -> Iterator[tuple[str, list[list[str]]]]:
    """Stream a SpreadsheetML 2003 workbook: yield (sheet name, rows of text cells), one sheet
    at a time. ``ss:Index`` and ``ss:MergeAcross`` are honoured (a merged value sits in its
    first column, the columns it covers are ""). DTDs and entities are refused.

    Only the end of each row does work (its cells are walked by the C elements, not one
    parser event each), and the parser's events are taken a chunk at a time: this is what
    keeps the read near the C parser's own speed."""
    from ._xml import end_elements

    rows: list[list[str]] = []
    name = ""
    a_index, a_merge, a_name = _SS + "Index", _SS + "MergeAcross", _SS + "Name"
    t_cell, t_row, t_ws, t_data = _SS + "Cell", _SS + "Row", _SS + "Worksheet", _SS + "Data"
    for batch in end_elements(source):
        for el in batch:
            tag = el.tag
            if tag == t_row:
                idx = el.get(a_index)
                if idx is not None:
                    n_row = _ss_number(idx, "row ss:Index", name, _MAX_ROWS)
                    while len(rows) < n_row - 1:
                        rows.append([])
                cells: list[str] = []
                for cell in el:
                    if cell.tag != t_cell:
                        continue
                    idx = cell.get(a_index)
                    if idx is not None:
                        col = _ss_number(idx, "cell ss:Index", name, _MAX_COLS) - 1
                        if col > len(cells):
                            cells.extend([""] * (col - len(cells)))
                    data = cell.find(t_data)
                    if data is None:
                        text = ""
                    elif len(data):  # rich text: <Font>, <B> … inside the value
                        text = "".join(data.itertext()).strip()
                    else:
                        text = (data.text or "").strip()
                    cells.append(text)
                    merge = cell.get(a_merge)
                    if merge:
                        n = _ss_number(merge, "ss:MergeAcross", name, _MAX_COLS)
                        if len(cells) + n > _MAX_COLS:
                            raise SheetTooLarge(f"sheet {name!r}: a cell merged across {n:,} "
                                                "columns reaches past the last column a sheet "
                                                "can have")
                        cells.extend([""] * n)
                rows.append(cells)
                el.clear()
            elif tag == t_ws:
                yield el.get(a_name, ""), rows
                rows = []
                el.clear()
                if cancelled is not None and cancelled():
                    raise Cancelled()


# Excel's own limits: a row or column number beyond them is a damaged or hostile file (a
# row index of 2e9 would make two billion empty rows).
_MAX_ROWS, _MAX_COLS = 1_048_576, 16_384


class SheetTooLarge(ValueError):
    """A SpreadsheetML index or merge beyond what a sheet can hold; the message says where."""


def _ss_number(text: str, what: str, sheet: str, limit: int) -> int:
    t = text.strip()
    if not t.isdigit() or not 0 <= int(t) <= limit:
        raise SheetTooLarge(f"sheet {sheet!r}: the {what} {t[:20]!r} is not a whole number "
                            f"from 0 to {limit:,}")
    return int(t)
