"""Write the hostile and broken canvass files of tests/data/bad (deterministic; re-run to refresh).

Every file is built here from raw bytes, raw XML and :mod:`zipfile` — no spreadsheet library —
so the bytes are exactly what the test table describes. Run:

    python tests/data/bad/make_bad.py

The expected message of each file is in ``tests/reliability/test_bad_inputs.py`` and
``EXPECTED.md`` beside this script.
"""

from __future__ import annotations

import random
import struct
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).parent
HEADER = ["county", "precinct", "office", "district", "party", "candidate", "votes"]
STAMP = (2020, 1, 1, 0, 0, 0)

# The good canvass every variant starts from: 2 precincts x 1 race x 2 candidates.
GOOD = [
    ["Grand", "P1", "Mayor", "", "", "Ann Able", "10"],
    ["Grand", "P1", "Mayor", "", "", "Bob Baker", "7"],
    ["Grand", "P2", "Mayor", "", "", "Ann Able", "5"],
    ["Grand", "P2", "Mayor", "", "", "Bob Baker", "9"],
]


def csv_text(rows: list[list[str]], header: list[str] = HEADER) -> str:
    def cell(v: str) -> str:
        if any(ch in v for ch in ',"\n\r'):
            return '"' + v.replace('"', '""') + '"'
        return v
    return "".join(",".join(cell(v) for v in r) + "\r\n" for r in [header, *rows])


def with_votes(votes: list[str]) -> list[list[str]]:
    return [[*r[:6], v] for r, v in zip(GOOD, votes, strict=True)]


def with_names(names: list[str]) -> list[list[str]]:
    return [[*r[:5], n, r[6]] for r, n in zip(GOOD, names, strict=True)]


# ---- minimal XLSX from raw XML ------------------------------------------------------------

def _col(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def cell_xml(ref: str, v: object) -> str:
    if v is None or v == "":
        return ""
    if isinstance(v, tuple):  # raw cell XML body and attributes: (attrs, inner)
        return f'<c r="{ref}" {v[0]}>{v[1]}</c>'
    if isinstance(v, int | float):
        return f'<c r="{ref}"><v>{v}</v></c>'
    return f'<c r="{ref}" t="inlineStr"><is><t xml:space="preserve">{escape(str(v))}</t></is></c>'


def sheet_xml(rows: list[list[object]], *, dimension: str | None = None, extra: str = "",
              tail_rows: str = "") -> str:
    body = []
    for r, row in enumerate(rows, start=1):
        cells = "".join(cell_xml(f"{_col(c)}{r}", v) for c, v in enumerate(row))
        body.append(f'<row r="{r}">{cells}</row>')
    dim = f'<dimension ref="{dimension}"/>' if dimension else ""
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            f'{dim}<sheetData>{"".join(body)}{tail_rows}</sheetData>{extra}</worksheet>')


STYLES = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
          '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
          '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
          '<fills count="2"><fill><patternFill patternType="none"/></fill>'
          '<fill><patternFill patternType="gray125"/></fill></fills>'
          '<borders count="1"><border/></borders>'
          '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
          '</cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" '
          'borderId="0" xfId="0"/><xf numFmtId="3" fontId="0" fillId="1" borderId="0" '
          'xfId="0" applyNumberFormat="1" applyFill="1"/></cellXfs></styleSheet>')


def xlsx_bytes(sheets: list[tuple[str, str, str]]) -> dict[str, str]:
    """Parts of a workbook: sheets are (name, sheet XML, state '' or 'hidden')."""
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rns = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    pns = "http://schemas.openxmlformats.org/package/2006/relationships"
    wb_sheets = "".join(
        f'<sheet name="{escape(n)}" sheetId="{i}" r:id="rId{i}"'
        + (f' state="{st}"' if st else "") + "/>"
        for i, (n, _, st) in enumerate(sheets, start=1))
    rels = "".join(
        f'<Relationship Id="rId{i}" Type="{rns}/worksheet" Target="worksheets/sheet{i}.xml"/>'
        for i in range(1, len(sheets) + 1))
    n = len(sheets) + 1
    rels += f'<Relationship Id="rId{n}" Type="{rns}/styles" Target="styles.xml"/>'
    overrides = "".join(
        f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        for i in range(1, len(sheets) + 1))
    parts = {
        "[Content_Types].xml":
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-'
            'officedocument.spreadsheetml.styles+xml"/>' + overrides + "</Types>",
        "_rels/.rels":
            f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships '
            f'xmlns="{pns}"><Relationship Id="rId1" Type="{rns}/officeDocument" '
            'Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml":
            f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="{ns}" '
            f'xmlns:r="{rns}"><sheets>{wb_sheets}</sheets></workbook>',
        "xl/_rels/workbook.xml.rels":
            f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships '
            f'xmlns="{pns}">{rels}</Relationships>',
        "xl/styles.xml": STYLES,
    }
    for i, (_, xml, _) in enumerate(sheets, start=1):
        parts[f"xl/worksheets/sheet{i}.xml"] = xml
    return parts


def write_zip(path: Path, parts: dict[str, str | bytes]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data in parts.items():
            info = zipfile.ZipInfo(name, STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data.encode("utf-8") if isinstance(data, str) else data)


def simple_xlsx(rows: list[list[object]], **kw: str) -> dict[str, str]:
    return xlsx_bytes([("Sheet1", sheet_xml(rows, **kw), "")])


def good_rows_typed() -> list[list[object]]:
    return [list(HEADER)] + [[*r[:6], int(r[6])] for r in GOOD]


# ---- crafted binaries ---------------------------------------------------------------------

def zip_bomb() -> bytes:
    """A small valid xlsx whose central directory declares a 3.9 GB worksheet."""
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in simple_xlsx(good_rows_typed()).items():
            z.writestr(zipfile.ZipInfo(name, STAMP), data)
        info = zipfile.ZipInfo("xl/worksheets/sheet2.xml", STAMP)
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, b"\0" * 65536)
    data = bytearray(buf.getvalue())
    huge = struct.pack("<I", 0xF0000000)
    # Patch the declared uncompressed size in the central directory and the local header.
    pos = 0
    while True:
        pos = data.find(b"PK\x01\x02", pos)
        if pos < 0:
            break
        name_len = struct.unpack_from("<H", data, pos + 28)[0]
        name = bytes(data[pos + 46: pos + 46 + name_len])
        if name == b"xl/worksheets/sheet2.xml":
            data[pos + 24: pos + 28] = huge
            local = struct.unpack_from("<I", data, pos + 42)[0]
            data[local + 22: local + 26] = huge
        pos += 4
    return bytes(data)


def ole2_encrypted() -> bytes:
    """A minimal Compound File (OLE2) shaped like Excel's password-protected workbook.

    Header sector, one FAT sector, one directory sector with Root Entry, EncryptionInfo and
    EncryptedPackage — the streams Office writes for an encrypted OOXML package.
    """
    sector = 512
    header = bytearray(sector)
    header[0:8] = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
    struct.pack_into("<HHHHH", header, 24, 0x3E, 3, 0xFFFE, 9, 6)
    struct.pack_into("<I", header, 44, 1)          # FAT sectors
    struct.pack_into("<I", header, 48, 1)          # first directory sector
    struct.pack_into("<I", header, 56, 4096)       # mini stream cutoff
    struct.pack_into("<I", header, 60, 0xFFFFFFFE)  # no mini FAT
    struct.pack_into("<I", header, 68, 0xFFFFFFFE)  # no DIFAT sectors
    struct.pack_into("<I", header, 76, 0)          # DIFAT[0]: FAT in sector 0
    for i in range(1, 109):
        struct.pack_into("<I", header, 76 + 4 * i, 0xFFFFFFFF)
    fat = bytearray(b"\xff" * sector)
    struct.pack_into("<III", fat, 0, 0xFFFFFFFD, 0xFFFFFFFE, 0xFFFFFFFE)  # FAT, dir, data

    def entry(name: str, kind: int, child: int, start: int, size: int, left: int = -1,
              right: int = -1) -> bytes:
        e = bytearray(128)
        raw = (name + "\0").encode("utf-16-le")
        e[0:len(raw)] = raw
        struct.pack_into("<HBB", e, 64, len(raw), kind, 1)
        struct.pack_into("<iii", e, 68, left, right, child)
        struct.pack_into("<II", e, 116, start & 0xFFFFFFFF, size)
        return bytes(e)

    directory = (entry("Root Entry", 5, 1, 0xFFFFFFFE, 0)
                 + entry("EncryptionInfo", 2, -1, 2, 0, right=2)
                 + entry("EncryptedPackage", 2, -1, 2, 0)
                 + bytes(128))
    payload = bytes(random.Random(7).randrange(256) for _ in range(sector))
    return bytes(header) + bytes(fat) + directory + payload


def million_rows_xlsx() -> dict[str, str]:
    """Data in rows 1-5, then 200,000 empty formatted rows, a dimension of A1:Z1048576 and a
    styled empty cell at Z1048576 (what Excel writes after 'format whole column')."""
    rows = "".join(f'<row r="{r}" s="1" customFormat="1"/>' for r in range(6, 200_006))
    tail = rows + '<row r="1048576" s="1" customFormat="1"><c r="Z1048576" s="1"/></row>'
    return simple_xlsx(good_rows_typed(), dimension="A1:Z1048576", tail_rows=tail)


def main() -> None:
    rnd = random.Random(20260101)
    out: dict[str, bytes] = {}

    def text(name: str, s: str, enc: str = "utf-8") -> None:
        out[name] = s.encode(enc)

    # Empty and almost empty.
    out["empty.csv"] = b""
    out["empty.xlsx"] = b""
    text("headers_only.csv", csv_text([]))
    text("blank_lines_only.csv", "\r\n\r\n\r\n")
    text("header_then_blank_lines.csv", csv_text([]) + ",,,,,,\r\n" * 3)
    # Not spreadsheets, whatever the name says.
    out["pdf_renamed.xlsx"] = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
                               b"trailer<</Root 1 0 R>>\n%%EOF\n")
    out["png_renamed.xlsx"] = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00"
                               b"\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x00"
                               b"IEND\xaeB`\x82")
    out["jpeg_renamed.xlsx"] = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(32) + b"\xff\xd9"
    text("html_renamed.xls", "<html><head><title>Results</title></head><body><table>"
         "<tr><td>Mayor</td></tr></table></body></html>")
    out["sqlite_renamed.csv"] = b"SQLite format 3\x00" + bytes(rnd.randrange(256)
                                                               for _ in range(1008))
    out["garbage.bin"] = bytes(rnd.randrange(256) for _ in range(4096))
    out["garbage_named.xlsx"] = bytes(rnd.randrange(256) for _ in range(2048))
    out["ole2_garbage.xls"] = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(
        rnd.randrange(256) for _ in range(1528))
    text("random_text.csv", "".join(
        rnd.choice("abcdefghij klmnop,;:\t0123456789\r\n") for _ in range(3000)))
    # Damaged or hostile workbooks.
    out["zip_bomb.xlsx"] = zip_bomb()
    parts = simple_xlsx(good_rows_typed())
    parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"].replace(
        "</sheetData>", "<row r=\"9\"><c r=\"A9\"><v>1</v></sheetData>")
    write_zip(HERE / "invalid_xml.xlsx", dict(parts))
    out["invalid_xml.xlsx"] = (HERE / "invalid_xml.xlsx").read_bytes()
    out["encrypted.xlsx"] = ole2_encrypted()
    write_zip(HERE / "million_rows.xlsx", dict(million_rows_xlsx()))
    out["million_rows.xlsx"] = (HERE / "million_rows.xlsx").read_bytes()
    write_zip(HERE / "zip_without_sheet.xlsx", {"readme.txt": "nothing here"})
    out["zip_without_sheet.xlsx"] = (HERE / "zip_without_sheet.xlsx").read_bytes()
    good = HERE / "_good.xlsx"
    write_zip(good, dict(simple_xlsx(good_rows_typed())))
    whole = good.read_bytes()
    good.unlink()
    out["truncated.xlsx"] = whole[: len(whole) // 2]
    write_zip(HERE / "docx_renamed.xlsx", {
        "[Content_Types].xml": "<Types/>", "word/document.xml": "<w:document/>"})
    out["docx_renamed.xlsx"] = (HERE / "docx_renamed.xlsx").read_bytes()
    write_zip(HERE / "empty_sheet.xlsx", dict(simple_xlsx([])))
    out["empty_sheet.xlsx"] = (HERE / "empty_sheet.xlsx").read_bytes()
    write_zip(HERE / "headers_only.xlsx", dict(simple_xlsx([list(HEADER)])))
    out["headers_only.xlsx"] = (HERE / "headers_only.xlsx").read_bytes()

    # Formulas and error values (cached values as Excel saves them).
    f_rows = good_rows_typed()
    f_rows[1][6] = ("", "<f>4+6</f><v>10</v>")
    f_rows[3][6] = ("", "<f>SUM(2,3)</f><v>5</v>")
    write_zip(HERE / "formulas.xlsx", dict(simple_xlsx(f_rows)))
    e_rows = good_rows_typed()
    e_rows[2][6] = ('t="e"', "<f>7/0</f><v>#DIV/0!</v>")
    write_zip(HERE / "error_div0.xlsx", dict(simple_xlsx(e_rows)))
    n_rows = good_rows_typed()
    n_rows[4][6] = ('t="e"', "<f>VLOOKUP(1,Z:Z,2)</f><v>#N/A</v>")
    write_zip(HERE / "error_na.xlsx", dict(simple_xlsx(n_rows)))
    u_rows = good_rows_typed()
    u_rows[1][6] = ("", "<f>4+6</f>")  # a formula never calculated: no cached value
    write_zip(HERE / "formula_no_cache.xlsx", dict(simple_xlsx(u_rows)))
    for n in ("formulas.xlsx", "error_div0.xlsx", "error_na.xlsx", "formula_no_cache.xlsx"):
        out[n] = (HERE / n).read_bytes()

    # Vote counts that are not counts.
    text("negative_votes.csv", csv_text(with_votes(["10", "-7", "5", "9"])))
    text("fractional_votes.csv", csv_text(with_votes(["10", "7", "5.5", "9"])))
    text("text_votes.csv", csv_text(with_votes(["10", "7", "five", "9"])))
    text("thousands_separators.csv", csv_text(with_votes(["1,210", "7", "5", "2,009"])))
    text("european_thousands.csv", csv_text(with_votes(["1.210", "7", "5", "9"])))
    text("huge_number.csv", csv_text(with_votes(["10", "7", "99999999999999999999999", "9"])))
    text("nan_inf_votes.csv", csv_text(with_votes(["NaN", "7", "inf", "9"])))
    text("percent_votes.csv", csv_text(with_votes(["10", "7", "55%", "9"])))
    neg_x = good_rows_typed()
    neg_x[2][6] = -7
    write_zip(HERE / "negative_votes.xlsx", dict(simple_xlsx(neg_x)))
    out["negative_votes.xlsx"] = (HERE / "negative_votes.xlsx").read_bytes()

    # Duplicates and totals.
    text("duplicate_disagree.csv", csv_text([*GOOD, ["Grand", "P2", "Mayor", "", "",
                                                     "Bob Baker", "90"]]))
    text("duplicate_exact.csv", csv_text([*GOOD, GOOD[3]]))
    text("totals_disagree.csv", csv_text([*GOOD, ["Grand", "Total", "Mayor", "", "",
                                                  "Ann Able", "15"],
                                          ["Grand", "Total", "Mayor", "", "", "Bob Baker",
                                           "61"]]))
    text("ragged_row.csv", csv_text(GOOD[:2]) + "Grand,P2,Mayor,,,Ann Able,5,extra,cells\r\n")
    text("semicolon.csv", csv_text(GOOD).replace(",", ";"))
    text("missing_votes_column.csv", csv_text([r[:6] for r in GOOD], HEADER[:6]))
    text("blank_vote.csv", csv_text(with_votes(["10", "", "5", "9"])))
    text("blank_office.csv", csv_text([GOOD[0], GOOD[1], ["Grand", "P2", "", "", "",
                                                          "Ann Able", "5"], GOOD[3]]))

    # Merged cells: the office written once, merged down; the merged-away cells are empty.
    m_rows = good_rows_typed()
    for r in m_rows[2:]:
        r[2] = ""
    write_zip(HERE / "merged_cells.xlsx", dict(simple_xlsx(
        m_rows, extra='<mergeCells count="1"><mergeCell ref="C2:C5"/></mergeCells>')))
    out["merged_cells.xlsx"] = (HERE / "merged_cells.xlsx").read_bytes()
    # Hidden sheets: an old, hidden draft first; the real canvass second.
    draft = good_rows_typed()
    for r in draft[1:]:
        r[6] = 999
    write_zip(HERE / "hidden_sheet.xlsx", dict(xlsx_bytes([
        ("Old draft", sheet_xml(draft), "hidden"), ("Canvass", sheet_xml(good_rows_typed()), ""),
    ])))
    out["hidden_sheet.xlsx"] = (HERE / "hidden_sheet.xlsx").read_bytes()

    # Encodings.
    accented = with_names(["José Núñez", "Zoë Brontë", "José Núñez", "Zoë Brontë"])
    out["bom.csv"] = b"\xef\xbb\xbf" + csv_text(GOOD).encode("utf-8")
    text("latin1.csv", csv_text(accented), "cp1252")
    text("mojibake.csv", csv_text(accented).encode("utf-8").decode("cp1252"), "utf-8")
    out["utf16.csv"] = b"\xff\xfe" + csv_text(accented).encode("utf-16-le")
    text("tab_separated.csv", csv_text(GOOD).replace(",", "\t"))

    # Hostile names.
    text("markup_names.csv", csv_text(with_names(
        ["<b>Ann Able</b>", "<script>alert(1)</script>", "<b>Ann Able</b>",
         "<script>alert(1)</script>"])))
    inj = '=HYPERLINK("http://example.invalid/x","Click")'
    text("formula_injection.csv", csv_text(with_names([inj, "+cmd|' /C calc'!A0", inj,
                                                       "+cmd|' /C calc'!A0"])))
    long_name = ("Ann " * 2500)[:10_000]
    text("long_name.csv", csv_text(with_names([long_name, "Bob Baker", long_name,
                                               "Bob Baker"])))
    text("rtl_names.csv", csv_text(with_names(
        ["\u05d3\u05d5\u05d3 \u05db\u05d4\u05df", "\u0645\u062d\u0645\u062f \u0639\u0644\u064a",
         "\u05d3\u05d5\u05d3 \u05db\u05d4\u05df", "\u0645\u062d\u0645\u062f \u0639\u0644\u064a"
         ])))
    text("bidi_override.csv", csv_text(with_names(
        ["Ann \u202eelbA", "Bob Baker", "Ann \u202eelbA", "Bob Baker"])))
    text("control_chars.csv", csv_text(with_names(
        ["Ann\x07Able", "Bob\x1bBaker", "Ann\x07Able", "Bob\x1bBaker"])))

    for name, data in out.items():
        (HERE / name).write_bytes(data)


if __name__ == "__main__":
    main()
