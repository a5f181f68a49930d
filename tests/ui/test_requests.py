"""Recording recount requests: a timely one, and a late one that needs a reason."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from recount_desk.core.rules import Office
from recount_desk.ui.dialogs.request import RequestDialog
from recount_desk.ui.main_window import MainWindow

from .conftest import SIGNAL_MS


def _dialog(window: MainWindow, qtbot: QtBot) -> RequestDialog:
    from recount_desk.actions.demo_recount import demo_contest_id

    assert window.case is not None
    window.contests_page.select_contest(demo_contest_id(window.case))  # State House 32
    qtbot.keyClick(window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    dlg = window.findChildren(RequestDialog)[-1]
    qtbot.waitExposed(dlg)
    return dlg


def test_a_timely_request_by_the_losing_candidate_is_recorded(demo: MainWindow,
                                                               qtbot: QtBot) -> None:
    dlg = _dialog(demo, qtbot)
    assert dlg.by_candidate.isChecked()
    assert dlg.candidate.currentText() == "Suzanne Harrison"
    assert dlg.office() is Office.COUNTY_CLERK
    with qtbot.waitSignal(dlg.evaluated, timeout=SIGNAL_MS):
        dlg.set_filed_at(datetime(2016, 11, 28, 16, 45))
    text = dlg.findings.text()
    assert "Filed on time" in text
    assert "20A-4-401(1)(d)(ii)" in text
    assert "within the recount margin of 42" in text
    assert dlg.record_button.isEnabled()
    assert not dlg.reason.isEnabled()
    with qtbot.waitSignal(demo.request_recorded, timeout=SIGNAL_MS):
        qtbot.mouseClick(dlg.record_button, Qt.MouseButton.LeftButton)
    assert "2 requests" in demo.status_case.text()
    assert demo.requests_page.model.rowCount() == 2


def test_a_late_request_is_recorded_only_with_a_reason(demo: MainWindow,
                                                       qtbot: QtBot) -> None:
    dlg = _dialog(demo, qtbot)
    with qtbot.waitSignal(dlg.evaluated, timeout=SIGNAL_MS):
        dlg.set_filed_at(datetime(2016, 11, 29, 17, 5))
    text = dlg.findings.text()
    assert "Late: the deadline was Tue Nov 29, 2016 at 5:00 p.m." in text
    assert "✘ No" in text
    assert not dlg.record_button.isEnabled()
    assert "reason" in dlg.error.text()
    qtbot.keyClicks(dlg.reason, "Clerk's office door was locked at 4:55 p.m.; "
                    "affidavit on file.")
    assert dlg.record_button.isEnabled()
    assert "Accept anyway" in dlg.record_button.text()
    with qtbot.waitSignal(demo.request_recorded, timeout=SIGNAL_MS):
        qtbot.mouseClick(dlg.record_button, Qt.MouseButton.LeftButton)
    model = demo.requests_page.model
    reasons = [model.cell(r, 7) for r in range(model.rowCount())]
    assert any("door was locked" in r for r in reasons)
    timely = [model.cell(r, 4) for r in range(model.rowCount())]
    assert "No" in timely


def test_voters_must_be_ten_and_confirmed(demo: MainWindow, qtbot: QtBot) -> None:
    dlg = _dialog(demo, qtbot)
    dlg.by_voters.setChecked(True)
    for n, row in enumerate(dlg.voter_rows[:10]):
        row.name.setText(f"Voter {n}")
    assert "race recount is requested by the losing candidate" in dlg.findings.text()
    dlg.reject()
