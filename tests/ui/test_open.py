"""Opening case files: the demo, bad files with clear messages, recent files, layout."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from recount_desk.ui.main_window import MainWindow

from .conftest import SIGNAL_MS


def test_demo_opens_with_one_contest_within_the_margin(demo: MainWindow) -> None:
    rows = demo.contests_page.all_rows()
    assert len(rows) == 34
    assert "1 contest(s) within the recount margin" in demo.status_margin.text()
    assert "Salt Lake County" in demo.status_case.text()
    assert "2,267 vote rows" in demo.status_case.text()


def test_a_file_that_is_not_a_case_gets_a_clear_message(window: MainWindow, qtbot: QtBot,
                                                        tmp_path: Path, ui_data: Path) -> None:
    with qtbot.waitSignal(window.case_open_failed, timeout=SIGNAL_MS) as got:
        window.open_path(ui_data / "tie_2024.csv")
    assert "is not a Recount Desk case file" in got.args[0]
    assert window.last_message is not None
    assert "not a Recount Desk case file" in window.last_message.text()
    window.last_message.close()
    other = tmp_path / "other.recount"
    sqlite3.connect(other).execute("CREATE TABLE t(x)").connection.close()
    with qtbot.waitSignal(window.case_open_failed, timeout=SIGNAL_MS) as got:
        window.open_path(other)
    assert "SQLite database but not a Recount Desk case file" in got.args[0]
    assert window.case is None


def test_recent_files_and_layout_are_remembered(demo: MainWindow, qtbot: QtBot,
                                                settings: QSettings) -> None:
    demo.contests_page.splitter.setSizes([200, 500])
    sizes = demo.contests_page.splitter.sizes()
    demo.tabs.setCurrentIndex(1)
    demo.close()
    again = MainWindow(settings)
    qtbot.addWidget(again)
    again.show()
    # The pages are built just after the window's first paint.
    qtbot.waitUntil(lambda: again.tabs.count() >= 2)
    assert again.tabs.currentIndex() == 1
    again.tabs.setCurrentIndex(0)

    def share(s: list[int]) -> float:
        return s[0] / max(1, sum(s))

    qtbot.waitUntil(lambda: abs(share(again.contests_page.splitter.sizes())
                                - share(sizes)) < 0.05)
    recent = [a.text() for a in again.recent_menu.actions()]
    assert recent and "Demo" in recent[0]
    assert str(settings.value("lastCase")).endswith(".recount")


def test_save_a_copy_writes_a_whole_case(demo: MainWindow, qtbot: QtBot,
                                         tmp_path: Path) -> None:
    dest = tmp_path / "usb" / "copy.recount"
    dest.parent.mkdir()
    with qtbot.waitSignal(demo.copy_saved, timeout=SIGNAL_MS):
        demo.save_copy(dest)
    with qtbot.waitSignal(demo.case_opened, timeout=SIGNAL_MS):
        demo.open_path(dest)
    assert len(demo.contests_page.all_rows()) == 34
