"""Creating a case through the New case dialog, with reasons shown beside the fields."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QDate, QDateTime, Qt, QTime
from pytestqt.qtbot import QtBot

from recount_desk.ui.main_window import MainWindow

from .conftest import SIGNAL_MS


def test_new_case_shows_reasons_beside_fields_then_creates_the_case(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    window.settings.setValue("lastFolder", str(tmp_path))
    dlg = window.new_case()
    qtbot.waitExposed(dlg)
    # Create with nothing filled in: each missing field says why, beside it.
    qtbot.mouseClick(dlg.create, Qt.MouseButton.LeftButton)
    assert dlg.isVisible()
    assert "name" in dlg.errors["name"].text().lower()
    assert "county" in dlg.errors["jurisdiction"].text().lower()
    assert dlg.focusWidget() is dlg.name

    qtbot.keyClicks(dlg.name, "2026 General Election")
    assert dlg.errors["name"].text() == ""
    qtbot.keyClick(dlg.name, Qt.Key.Key_Return)  # Enter moves on, it does not create
    assert dlg.isVisible()
    assert dlg.focusWidget() is not dlg.name
    dlg.date.setDate(QDate(2026, 11, 3))
    qtbot.keyClicks(dlg.jurisdiction, "Grand County")
    dlg.canvass_known.setChecked(True)
    dlg.canvass.setDateTime(QDateTime(QDate(2026, 10, 30), QTime(10, 0)))
    assert "before the election" in dlg.errors["canvass_completed"].text()
    dlg.canvass.setDateTime(QDateTime(QDate(2026, 11, 17), QTime(10, 0)))
    assert dlg.errors["canvass_completed"].text() == ""
    qtbot.keyClicks(dlg.officer, "Jane Doe")
    assert dlg.path() == tmp_path / "2026 General Election.recount"

    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        qtbot.mouseClick(dlg.create, Qt.MouseButton.LeftButton)
    assert (tmp_path / "2026 General Election.recount").exists()
    assert window.case is not None
    assert window.case.election.jurisdiction == "Grand County"
    assert "no canvass imported yet" in window.status_case.text()
    assert "Import canvass" in window.contests_page.detail.title.text()
    assert window.act_import.isEnabled()


def test_new_case_refuses_an_existing_file_name(window: MainWindow, qtbot: QtBot,
                                                tmp_path: Path) -> None:
    (tmp_path / "Taken.recount").write_bytes(b"x")
    window.settings.setValue("lastFolder", str(tmp_path))
    dlg = window.new_case()
    qtbot.keyClicks(dlg.name, "Taken")
    assert "exists" in dlg.errors["file"].text()
    dlg.reject()
