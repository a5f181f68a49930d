"""Fixtures for the window's tests: a main window with private settings, cases to open."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from recount_desk.actions.case import create_case
from recount_desk.core.model import Election, ElectionKind
from recount_desk.ui.main_window import MainWindow

UI_DATA = Path(__file__).parent.parent / "data" / "ui"
SIGNAL_MS = 20000


@pytest.fixture
def ui_data() -> Path:
    return UI_DATA


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot: QtBot, settings: QSettings) -> Iterator[MainWindow]:
    w = MainWindow(settings)
    # Questions are answered without a modal box (a test that asks about them sets its own
    # answers); every question asked is kept in ``w.asked``.
    w.asked = []  # type: ignore[attr-defined]
    # Whoever is asked "who is using the window" is the roster's first person (the election
    # officer); a test that switches person says so.
    w.choose_person = lambda names, current: names[0]  # type: ignore[method-assign]

    def confirm(title: str, text: str) -> bool:
        w.asked.append((title, text))  # type: ignore[attr-defined]
        return True

    def ask_unsaved(text: str) -> QMessageBox.StandardButton:
        w.asked.append(("unsaved", text))  # type: ignore[attr-defined]
        return QMessageBox.StandardButton.Discard

    w.confirm = confirm  # type: ignore[method-assign]
    w.ask_unsaved = ask_unsaved  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    yield w
    w.close()


@pytest.fixture
def demo(window: MainWindow, qtbot: QtBot) -> MainWindow:
    """The window showing a fresh copy of the demo election."""
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_demo(fresh=True)
    window.activateWindow()  # keyboard shortcuts go to the active window
    qtbot.waitUntil(window.isActiveWindow, timeout=SIGNAL_MS)
    return window


def make_case(folder: Path, *, name: str = "2024 Municipal General", day: date = date(2024, 11, 5),
              kind: ElectionKind = ElectionKind.GENERAL,
              canvass: datetime | None = datetime(2024, 11, 19, 10, 0)) -> Path:
    path = folder / f"{name}.recount"
    with create_case(path, Election(name, day, kind, "Sample County", canvass, "Clerk")):
        pass
    return path


@pytest.fixture
def empty_case(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """The window showing a new 2024 case that holds no canvass."""
    path = make_case(tmp_path)
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    return window
