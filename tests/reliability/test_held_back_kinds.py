"""The kinds of county files set aside for acceptance, built from the corpus README's words.

The real Tooele 2024, Cache 2020, Summit 2020, Beaver 2016, Emery 2016/2018 and Uintah 2018
files are not in the repository; each test builds (or loads a small committed copy of) a
file with the feature the README describes and asserts what the reader must make of it.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from recount_desk.formats import ImportFailed, ReadOptions, detect, read_canvass

DATA = Path(__file__).parents[1] / "data" / "formats"


def totals_of(parsed, title: str, party: str = ""):
    for t in parsed.totals:
        if t.contest.key.title == title and t.contest.key.party == party:
            return t
    raise AssertionError(f"{title!r} not in {[t.contest.key for t in parsed.totals]}")


def votes(t) -> dict[str, int]:
    return {c.choice.name: c.votes for c in t.choices}


def _sheet_rows(title: str, contest: str, names: list[str], counts: list[list[int]],
                party: str = "") -> list[list[object]]:
    """A Tooele/Juab-style sheet: title, header with the contest over each candidate, names
    below, precincts, and a closing totals row."""
    head = [" Precinct name", "Reg. Voters", "Ballots Cast", "Turn out %"]
    title_cells = [f"{party} for {contest}" if party else contest] * len(names)
    rows: list[list[object]] = [[title], [], [*head, *title_cells],
                                ["Candidate", "", "", "", *names]]
    for k, c in enumerate(counts, start=1):
        rows.append([f"TE{k:02d}", 400, sum(c), round(sum(c) / 400, 4), *c])
    rows.append(["", "", "", "Totals:", *(sum(col) for col in zip(*counts, strict=True))])
    return rows


# --- Tooele 2024: nine sheets, one of them '2024 Primary Recount' --------------------------

TOOELE_SHEETS = {
    "2024 General": ("2024 General Election - Statement of Votes Cast", "County Commission Seat A",
                     ["Jared Hamner", "Kendall Thomas"], [[210, 150], [180, 190]], ""),
    "2024 Primary": ("2024 Primary Election - Statement of Votes Cast", "County Commission Seat A",
                     ["Jared Hamner", "Scott Wardle"], [[120, 118], [101, 104]], "GOP"),
    "2024 Primary Recount": ("2024 Primary Election Recount", "County Commission Seat A",
                             ["Jared Hamner", "Scott Wardle"], [[121, 118], [101, 105]], "GOP"),
    "2023 Municipal General": ("2023 Municipal General Election", "Tooele City Mayor",
                               ["Debbie Winn", "Ed Hansen"], [[300, 280], [250, 262]], ""),
    "2023 Municipal Primary": ("2023 Municipal Primary Election", "Tooele City Council",
                               ["A Able", "B Baker", "C Cole"], [[90, 80, 70], [60, 50, 40]],
                               ""),
    "2022 General": ("2022 General Election", "US Senate", ["Mike Lee", "Evan McMullin"],
                     [[500, 300], [450, 320]], ""),
    "2022 Primary": ("2022 Primary Election", "US Senate", ["Mike Lee", "Becky Edwards"],
                     [[200, 90], [180, 95]], "GOP"),
    "2021 General": ("2021 General Election", "Erda City Council D1",
                     ["Scott Droubay", "Dave Judd"], [[143, 88], [10, 12]], ""),
}


@pytest.fixture
def tooele(tmp_path) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, (title, contest, names, counts, party) in TOOELE_SHEETS.items():
        ws = wb.create_sheet(name)
        for row in _sheet_rows(title, contest, names, counts, party):
            ws.append(row)
    wb.create_sheet("Notes").append(["Canvass approved by the county commission."])
    path = tmp_path / "Tooele 2024 Canvass.xlsx"
    wb.save(path)
    return path


def test_tooele_without_a_pick_reads_the_first_election_and_lists_every_other_sheet(tooele):
    assert detect(tooele)[0].family == "handbuilt"
    parsed = read_canvass(tooele)
    assert votes(totals_of(parsed, "County Commission Seat A")) == {"Jared Hamner": 390,
                                                                    "Kendall Thomas": 340}
    first = parsed.issues[0]
    assert first.severity.value == "warning"
    assert first.sheet == "2024 General"
    for other in [*list(TOOELE_SHEETS)[1:], "Notes"]:
        assert repr(other) in first.message


def test_tooele_the_user_picks_the_primary_recount_sheet(tooele):
    parsed = read_canvass(tooele, options=ReadOptions(sheet="2024 Primary Recount"))
    t = totals_of(parsed, "County Commission Seat A", "REP")
    assert votes(t) == {"Jared Hamner": 222, "Scott Wardle": 223}
    assert parsed.primary is True
    assert parsed.precincts == ["TE01", "TE02"]
    assert not [i for i in parsed.issues if "do not add up" in i.message]
    assert not [i for i in parsed.issues if "several result sheets" in i.message
                or "result sheets" in i.message]


def test_tooele_a_sheet_that_is_not_there_lists_the_sheets(tooele):
    with pytest.raises(ImportFailed, match="'2024 Primary Recount'"):
        read_canvass(tooele, options=ReadOptions(sheet="2024 Recount"))


# --- Cache 2020 .xls (BIFF): canvass plus provisional statistics ---------------------------

CACHE = DATA / "handbuilt" / "cache_2020_like.xls"


def test_cache_xls_reads_the_canvass_and_says_the_provisional_sheet_holds_no_results():
    assert CACHE.read_bytes()[:4] == b"\xd0\xcf\x11\xe0"  # a real BIFF/OLE2 workbook
    assert detect(CACHE)[0].family == "handbuilt"
    parsed = read_canvass(CACHE)
    assert parsed.precincts == ["Logan 01", "Logan 02", "Hyde Park 01"]
    assert votes(totals_of(parsed, "President")) == {"Joseph R. Biden": 1050,
                                                     "Donald J. Trump": 1900, "Write In": 10}
    assert votes(totals_of(parsed, "Prop #4")) == {"For": 1720, "Against": 1170}
    assert not [i for i in parsed.issues if "do not add up" in i.message]
    note = parsed.issues[0]
    assert "'Provisional Statistics' (ballot statistics, no contest results)" in note.message


def test_cache_picking_the_provisional_statistics_sheet_says_what_it_is():
    with pytest.raises(ImportFailed) as e:
        read_canvass(CACHE, options=ReadOptions(sheet="Provisional Statistics"))
    msg = str(e.value)
    assert "ballot summary, not a canvass" in msg
    assert "choose another sheet ('Canvass')" in msg


# --- Summit 2020 .xls: a ballot summary only -----------------------------------------------


def test_summit_ballot_summary_is_refused_in_one_sentence_saying_what_to_export():
    path = DATA / "handbuilt" / "summit_2020_like.xls"
    assert detect(path)[0].label.startswith("Ballot summary")
    with pytest.raises(ImportFailed) as e:
        read_canvass(path)
    msg = e.value.issue.message
    assert msg.startswith("This is a ballot summary, not a canvass")
    assert "Statement of Votes Cast" in msg
    assert msg.count(". ") == 0  # one sentence
    assert e.value.issue.sheet == "Ballot Summary"


def test_a_ballot_summary_csv_is_refused_the_same_way(tmp_path):
    path = tmp_path / "summary.csv"
    path.write_text("Ballot Summary,,,\nPrecinct,Registered Voters,Ballots Cast,Turnout %\n"
                    "P1,100,60,60%\nP2,200,90,45%\nTotal,300,150,50%\n", encoding="utf-8")
    with pytest.raises(ImportFailed, match="ballot summary, not a canvass"):
        read_canvass(path)


# --- Beaver 2016: a PDF converted to xlsx (merged cells, pages) ----------------------------

BEAVER_CANDIDATES = [("G", "Hillary Clinton", "President"), ("I", "Donald J. Trump", "President"),
                     ("K", "Chris Stewart", "US House \nDist 2"),
                     ("M", "Charlene Albarran", "US House \nDist 2")]
BEAVER_PAGES = [
    [("Beaver North", "1,204", "987", "82%", ["150", "780", "801", "120"]),
     ("Beaver South", "998", "845", "85%", ["130", "650", "690", "101"])],
    [("Milford", "1,010", "800", "79%", ["90", "660", "655", "88"]),
     ("Minersville", "512", "430", "84%", ["40", "370", "360", "50"])],
]


def _beaver(path: Path) -> Path:
    """Column A empty, precinct names merged over B:C, each candidate merged over two
    columns, counts as text with thousands commas, the title and header again on page 2,
    'Page n of m' footers."""
    import openpyxl
    from openpyxl.utils import column_index_from_string, get_column_letter

    def pair(col: str) -> str:
        return get_column_letter(column_index_from_string(col) + 1)

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Table 1"
    r = 1
    for n, page in enumerate(BEAVER_PAGES, start=1):
        ws[f"B{r}"] = "BEAVER COUNTY 2016 GENERAL ELECTION"
        ws.merge_cells(f"B{r}:N{r}")
        ws[f"B{r + 1}"] = "OFFICIAL CANVASS"
        ws.merge_cells(f"B{r + 1}:N{r + 1}")
        ws[f"G{r + 2}"] = "President"
        ws.merge_cells(f"G{r + 2}:J{r + 2}")
        ws[f"K{r + 2}"] = "US House \nDist 2"
        ws.merge_cells(f"K{r + 2}:N{r + 2}")
        r += 3
        ws[f"B{r}"] = "Precinct Name"
        ws.merge_cells(f"B{r}:C{r}")
        ws[f"D{r}"], ws[f"E{r}"], ws[f"F{r}"] = ("Total Reg.\nVoters", "Total Ballots\nCast",
                                                 "Turn out %")
        for col, name, _ in BEAVER_CANDIDATES:
            ws[f"{col}{r}"] = name
            ws.merge_cells(f"{col}{r}:{pair(col)}{r}")
        r += 1
        for prec, reg, bal, turn, counts in page:
            ws[f"B{r}"] = prec
            ws.merge_cells(f"B{r}:C{r}")
            ws[f"D{r}"], ws[f"E{r}"], ws[f"F{r}"] = reg, bal, turn
            for (col, _, _), v in zip(BEAVER_CANDIDATES, counts, strict=True):
                ws[f"{col}{r}"] = v
                ws.merge_cells(f"{col}{r}:{pair(col)}{r}")
            r += 1
        if n == len(BEAVER_PAGES):
            ws[f"B{r}"] = "COUNTY TOTALS"
            ws.merge_cells(f"B{r}:C{r}")
            ws[f"D{r}"], ws[f"E{r}"] = "3,724", "3,062"
            for (col, _, _), v in zip(BEAVER_CANDIDATES, ["410", "2,460", "2,506", "359"],
                                      strict=True):
                ws[f"{col}{r}"] = v
            r += 1
        ws[f"B{r}"] = f"Page {n} of {len(BEAVER_PAGES)}"
        ws.merge_cells(f"B{r}:N{r}")
        r += 2
    wb.save(path)
    return path


def test_beaver_pdf_conversion_with_merged_cells_and_repeated_pages(tmp_path):
    path = _beaver(tmp_path / "Beaver 2016 General.xlsx")
    with zipfile.ZipFile(path) as z:
        assert len(re.findall(rb"<mergeCell ", z.read("xl/worksheets/sheet1.xml"))) > 20
    assert detect(path)[0].family == "handbuilt"
    parsed = read_canvass(path)
    assert parsed.precincts == ["Beaver North", "Beaver South", "Milford", "Minersville"]
    assert votes(totals_of(parsed, "President")) == {"Hillary Clinton": 410,
                                                     "Donald J. Trump": 2460}
    assert votes(totals_of(parsed, "US House Dist 2")) == {"Chris Stewart": 2506,
                                                           "Charlene Albarran": 359}
    # The COUNTY TOTALS row agrees; nothing but notes is raised.
    assert not [i for i in parsed.issues if i.severity.value != "note"]


def test_beaver_wide_table_printed_across_pages_changes_columns_at_each_header(tmp_path):
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    for row in (
        ["BEAVER COUNTY 2016 GENERAL ELECTION"],
        ["", "", "", "", "President", ""],
        ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %",
         "Hillary Clinton", "Donald J. Trump"],
        ["Beaver North", 1204, 987, 0.82, 150, 780],
        ["Milford", 1010, 800, 0.79, 90, 660],
        ["COUNTY TOTALS", 2214, 1787, None, 240, 1440],
        ["Page 1 of 2"],
        ["", "Governor", ""],
        ["Precinct Name", "Gary Herbert", "Mike Weinholtz"],
        ["Beaver North", 700, 200],
        ["Milford", 600, 150],
        ["COUNTY TOTALS", 1300, 350],
        ["Page 2 of 2"],
    ):
        ws.append(row)
    path = tmp_path / "beaver-across.xlsx"
    wb.save(path)
    parsed = read_canvass(path)
    assert parsed.precincts == ["Beaver North", "Milford"]
    assert votes(totals_of(parsed, "President")) == {"Hillary Clinton": 240,
                                                     "Donald J. Trump": 1440}
    assert votes(totals_of(parsed, "Governor")) == {"Gary Herbert": 1300, "Mike Weinholtz": 350}
    assert not [i for i in parsed.issues if i.severity.value != "note"]


# --- Emery 2016/2018 .htm: an Excel web-page frameset whose sheet pages are missing --------

EMERY_FRAMESET = """<html xmlns:o="urn:schemas-microsoft-com:office:office"
xmlns:x="urn:schemas-microsoft-com:office:excel" xmlns="http://www.w3.org/TR/REC-html40">
<head>
<meta name="Excel Workbook Frameset">
<meta http-equiv=Content-Type content="text/html; charset=windows-1252">
<meta name=ProgId content=Excel.Sheet>
<meta name=Generator content="Microsoft Excel 14">
<link rel=File-List href="2016%20General_files/filelist.xml">
</head>
<frameset rows="*,39" border=0 width=0 frameborder=no framespacing=0>
 <frame src="2016%20General_files/sheet001.htm" name="frSheet">
 <frame src="2016%20General_files/tabstrip.htm" name="frTabs" marginwidth=0 marginheight=0>
 <noframes><body><p>This page uses frames, but your browser doesn't support them.</p></body>
 </noframes>
</frameset>
</html>
"""


@pytest.mark.parametrize("name", ["2016 General.htm", "2018 General.htm"])
def test_emery_excel_frameset_without_its_pages_is_refused_in_one_sentence(tmp_path, name):
    path = tmp_path / name
    path.write_text(EMERY_FRAMESET, encoding="cp1252")
    with pytest.raises(ImportFailed) as e:
        read_canvass(path)
    assert "web page (HTML)" in e.value.issue.message
    assert "Export the canvass as CSV or XLSX" in e.value.issue.message
    assert e.value.issue.file == name


# --- Uintah 2018: an xlsx with invalid XML that openpyxl refuses ---------------------------


def _uintah(tmp_path: Path, name: str, damage) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "2018 General"
    for row in (["2018 General Election Uintah County"],
                ["", "", "", "", "US Senate", "US Senate"],
                ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %",
                 "Mitt Romney", "Jenny Wilson"],
                ["VE01", 100, 50, 0.5, 30, 20], ["VE02", 10, 5, 0.5, 3, 2],
                ["COUNTY TOTALS", 110, 55, 0.5, 33, 22]):
        ws.append(row)
    good = tmp_path / "good.xlsx"
    wb.save(good)
    path = tmp_path / name
    with zipfile.ZipFile(good) as zin, zipfile.ZipFile(path, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = damage(data)
            zout.writestr(info, data)
    return path


@pytest.mark.parametrize(
    "damage",
    [lambda d: d.replace(b"Mitt Romney", b"Mitt\x02Romney"),       # a control character
     lambda d: d.replace(b'<c r="A4"', b'<c r="A4" r="A4"', 1)],    # a repeated attribute
    ids=["control-character", "duplicate-attribute"],
)
def test_uintah_invalid_xml_that_calamine_can_read_is_read(tmp_path, damage):
    import openpyxl

    path = _uintah(tmp_path, "Uintah 2018.xlsx", damage)
    with pytest.raises(Exception, match=r"not well-formed|duplicate attribute"):
        openpyxl.load_workbook(path)
    parsed = read_canvass(path)
    assert parsed.family == "handbuilt"
    assert votes(totals_of(parsed, "US Senate")) == {"Mitt Romney": 33, "Jenny Wilson": 22}


def test_uintah_invalid_xml_that_calamine_cannot_read_is_one_sentence(tmp_path):
    path = _uintah(tmp_path, "Uintah 2018.xlsx",
                   lambda d: d.replace(b"VE01", b"VE01&nbsp;"))
    with pytest.raises(ImportFailed) as e:
        read_canvass(path)
    msg = e.value.issue.message
    assert msg.startswith("The workbook is damaged and cannot be read")
    assert "save it again as XLSX" in msg
    assert e.value.issue.file == "Uintah 2018.xlsx"


def test_beaver_pdf_conversion_with_one_sheet_per_page_reads_every_page(tmp_path):
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    head = ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %",
            "Hillary Clinton", "Donald J. Trump"]
    pages = {
        "Table 1": [["BEAVER COUNTY 2016 GENERAL ELECTION"], ["", "", "", "", "President", ""],
                    head, ["Beaver North", "1,204", "987", "82%", "150", "780"]],
        # Page 2 repeats the header but not the title.
        "Table 2": [["", "", "", "", "President", ""], head,
                    ["Milford", "1,010", "800", "79%", "90", "660"],
                    ["COUNTY TOTALS", "2,214", "1,787", "", "240", "1,440"]],
    }
    for name, rows in pages.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    path = tmp_path / "beaver-pages.xlsx"
    wb.save(path)
    parsed = read_canvass(path)
    assert parsed.precincts == ["Beaver North", "Milford"]
    assert votes(totals_of(parsed, "President")) == {"Hillary Clinton": 240,
                                                     "Donald J. Trump": 1440}
    note = parsed.issues[0]
    assert "pages of one report" in note.message and "'Table 2'" in note.message
    assert not [i for i in parsed.issues if i.severity.value != "note"]
