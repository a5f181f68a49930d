"""A workbook whose first sheet is not the canvass (session 14): a sheet of chart data (the
county's totals of ten contests, as Contest, Candidate, Votes) put before an ES&S export was
read as a long table of those ten contests, offered as done, and the export's other
contests left unread without a word."""

from __future__ import annotations

from pathlib import Path

from workbooks import write_workbook

from recount_desk.formats import ReadOptions, detect, read_canvass
from recount_desk.formats.tabular import read_sheet_text, sheet_names

EXPORT = Path(__file__).parents[1] / "data" / "formats" / "ess_sovc" / \
    "washington_2018g_export.xlsx"


def _chart(n: int) -> list[list[object]]:
    return [["Contest", "Candidate", "Votes"],
            *[[f"Contest {k // 3}", f"Candidate {k}", 100 + k] for k in range(n)]]


def test_an_ess_export_after_a_chart_data_sheet_is_still_found_and_read(tmp_path):
    export = read_sheet_text(EXPORT, sheet_names(EXPORT)[0])
    path = write_workbook(tmp_path / "w.xlsx", {"Chart Data": _chart(30), "Export": export})
    assert detect(path, best_only=True)[0].family == "ess_sovc"
    alone = read_canvass(EXPORT)
    parsed = read_canvass(path)
    assert {t.contest.key: t.total for t in parsed.totals} == \
        {t.contest.key: t.total for t in alone.totals}
    assert any("Only the sheet 'Export' was read" in i.message for i in parsed.issues)


def test_a_long_table_before_a_bigger_sheet_is_doubted(tmp_path):
    other = [["Precinct", "Ann", "Bob"], *[[f"P{k}", k, k + 1] for k in range(60)]]
    path = write_workbook(tmp_path / "l.xlsx", {"Chart Data": _chart(12), "Results": other})
    parsed = read_canvass(path)
    assert parsed.doubtful
    assert parsed.doubts[0].startswith("Only the first sheet, 'Chart Data' (12 rows under its "
                                       "header), was read, as a long table; the workbook's "
                                       "sheet(s) 'Results' (61 rows) hold more rows")
    assert not parsed.errors   # (a warning: imported if the officer says so)
    # The officer's own choice of the sheet is not doubted; nor is a smaller sheet after it.
    assert not read_canvass(path, options=ReadOptions(sheet="Chart Data")).doubtful
    small = write_workbook(tmp_path / "s.xlsx", {"Chart Data": _chart(12),
                                                 "Notes": [["Printed 11/20"], ["by the clerk"]]})
    assert not read_canvass(small).doubtful
