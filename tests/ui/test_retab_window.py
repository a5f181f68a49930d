"""The re-tabulation load in the window: compare, confirm, one action; source in the variance."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from recount_desk import store
from recount_desk.actions import recount as rc
from recount_desk.actions.canvass import import_canvass, read_file
from recount_desk.actions.case import open_case
from recount_desk.actions.contests import overview
from recount_desk.core.model import ElectionKind
from recount_desk.core.recount import EntryMode, RecountMethod
from recount_desk.ui.main_window import MainWindow
from recount_desk.ui.recount.retab import RetabLoadDialog

from .conftest import SIGNAL_MS, make_case

DATA = Path(__file__).parents[1] / "data" / "retab"
SL_CANVASS = DATA / "20161108__ut__general__salt_lake__precinct__legislature.csv"
SL_RECOUNT = DATA / "SOVC - Salt Lake Recount.xlsx"


@pytest.fixture
def sl(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> tuple[MainWindow, int, Path]:
    path = make_case(tmp_path, name="Salt Lake 2016", day=date(2016, 11, 8),
                     kind=ElectionKind.GENERAL, canvass=datetime(2016, 11, 22, 12, 0))
    with open_case(path) as case:
        import_canvass(case, read_file(SL_CANVASS))
        cid = next(r.id for r in overview(case)
                   if (r.check.totals.contest.key.title, r.check.totals.contest.key.district)
                   == ("State House", "32"))
        rc.start_recount(case, cid, method=RecountMethod.RETABULATION,
                         entry_mode=EntryMode.DOUBLE)
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    window.tabs.setCurrentWidget(window.recount_page)
    window.recount_page.select_contest(cid)
    return window, cid, path


def audit_len(window: MainWindow) -> int:
    assert window.case is not None
    return sum(1 for _ in store.audit_entries(window.case.conn))


def test_the_hd32_recount_loads_from_the_window_after_the_comparison(
        sl: tuple[MainWindow, int, Path], qtbot: QtBot) -> None:
    window, _cid, _path = sl
    page = window.recount_page
    box = page.start.retab_box
    assert box.load_button.isEnabled()
    before = audit_len(window)
    with qtbot.waitSignal(box.dialog_shown, timeout=SIGNAL_MS) as shown:
        box.load(SL_RECOUNT, wait=True)
    dlg = shown.args[0]
    assert isinstance(dlg, RetabLoadDialog)
    assert audit_len(window) == before  # nothing is written before the officer confirms
    assert "STATE REPRESENTATIVE DIST #32" in dlg.contest.currentText()
    assert "e1512f36d03248189670df52b0a461ee0eda11db82f11e23b810bc52f2f8bc49" in \
        dlg.file_label.text()
    assert "does not change" in dlg.result.text()
    assert dlg.model.rowCount() == 40  # 39 units and the total
    assert dlg.load_button.isEnabled()
    assert dlg.load_button.text().replace("&", "") == "Load 39 unit(s)"
    with qtbot.waitSignal(box.loaded, timeout=SIGNAL_MS) as done:
        qtbot.mouseClick(dlg.load_button, Qt.MouseButton.LeftButton)
    assert done.args == [39]
    assert audit_len(window) == before + 1
    st = page.state
    assert st is not None
    assert (st.readiness.units_counted, st.readiness.units_total) == (39, 39)
    assert dict(st.totals) == {"Suzanne Harrison": 8536, "Lavar Christensen": 8541}
    assert "SOVC - Salt Lake Recount.xlsx" in box.info.text()
    # the variance view shows each unit's source
    page.show_panel("variance")
    model = page.variance.model
    source_col = next(c for c in range(model.columnCount())
                      if model.headerData(c, Qt.Orientation.Horizontal) == "Source")
    assert str(model.cell(0, source_col)) == "loaded"


def test_a_hand_count_replaces_one_loaded_unit_with_a_note(
        sl: tuple[MainWindow, int, Path], qtbot: QtBot) -> None:
    window, _cid, _path = sl
    page = window.recount_page
    box = page.start.retab_box
    with qtbot.waitSignal(box.dialog_shown, timeout=SIGNAL_MS) as shown:
        box.load(SL_RECOUNT, wait=True)
    with qtbot.waitSignal(box.loaded, timeout=SIGNAL_MS):
        shown.args[0].accept()
    box.hand_unit.select("SAN088")
    box.hand_note.setText("Tabulator jammed on this precinct's batch; counted by hand")
    qtbot.mouseClick(box.hand_button, Qt.MouseButton.LeftButton)
    st = page.state
    assert st is not None
    assert st.readiness.units_counted == 38
    page.show_panel("variance")
    rows = {page.variance.model.cell(r, 0): r for r in range(page.variance.model.rowCount())}
    col = next(c for c in range(page.variance.model.columnCount())
               if page.variance.model.headerData(c, Qt.Orientation.Horizontal) == "Source")
    assert "(for a hand count: Tabulator jammed" in \
        str(page.variance.model.cell(rows["SAN088"], col))


def test_a_hand_count_recount_cannot_load_but_prints_its_sheets(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    path = make_case(tmp_path, name="SL hand", day=date(2016, 11, 8),
                     kind=ElectionKind.GENERAL, canvass=datetime(2016, 11, 22, 12, 0))
    with open_case(path) as case:
        import_canvass(case, read_file(SL_CANVASS))
        cid = next(r.id for r in overview(case)
                   if (r.check.totals.contest.key.title, r.check.totals.contest.key.district)
                   == ("State House", "32"))
        rc.start_recount(case, cid, method=RecountMethod.HAND_COUNT)
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    window.recount_page.select_contest(cid)
    box = window.recount_page.start.retab_box
    assert not box.load_button.isEnabled()
    out = box.print_sheets(tmp_path / "sheets.pdf")
    assert out is not None and out.stat().st_size > 1000
