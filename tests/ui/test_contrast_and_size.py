"""The window in the platform's high-contrast theme and at 200 % text size (Section 508 /
WCAG 1.4.3, 1.4.4): every word readable against its ground, no colour of the window's own
left to fight the theme, and every page reachable on a 1280×720 screen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from recount_desk.actions import recount as rc
from recount_desk.actions.canvass import import_canvass, read_file
from recount_desk.actions.case import add_person, open_case
from recount_desk.actions.contests import overview, set_contest_settings
from recount_desk.core.model import ElectionKind, Scope
from recount_desk.core.people import Role
from recount_desk.core.recount import EntryMode, RecountMethod
from recount_desk.ui import theme
from recount_desk.ui.main_window import MainWindow

from .conftest import SIGNAL_MS, make_case

GRAND = Path(__file__).parent.parent / "data" / "openelections" / \
    "20181106__ut__general__grand__precinct.csv"
HEX = re.compile(r"#[0-9a-fA-F]{3,8}\b")


def _luminance(c: QColor) -> float:
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + \
        0.0722 * channel(c.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def grand_recount(window: MainWindow, qtbot: QtBot, folder: Path) -> int:
    """Grand 2018 with State House 69 (as a county race) in a recount under way."""
    path = make_case(folder, name="Grand 2018", day=date(2018, 11, 6),
                     kind=ElectionKind.GENERAL, canvass=datetime(2018, 11, 20, 10, 0))
    with open_case(path) as case:
        add_person(case, "Dana Whitlock", Role.DEPUTY)
        import_canvass(case, read_file(GRAND))
        row = next(r for r in overview(case) if r.check.totals.contest.key.district == "69")
        c = row.check.totals.contest
        set_contest_settings(case, row.id, seats=c.seats, scope=Scope.COUNTY,
                             voting_method=c.voting_method, pass_rule=c.pass_rule)
        rc.start_recount(case, row.id, method=RecountMethod.HAND_COUNT,
                         entry_mode=EntryMode.DOUBLE)
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    return row.id


def every_page(window: MainWindow, cid: int) -> Iterator[str]:
    """Show each page and each step of the recount in turn; yield its name."""
    for i in range(window.tabs.count()):
        window.tabs.setCurrentIndex(i)
        if window.tabs.currentWidget() is window.recount_page:
            page = window.recount_page
            page.select_contest(cid)
            for key in page.panels:
                page.show_panel(key)
                QApplication.processEvents()
                yield f"Recount › {key}"
        else:
            QApplication.processEvents()
            yield window.tabs.tabText(i)


@pytest.fixture
def contrast_window(window: MainWindow) -> Iterator[MainWindow]:
    window.set_high_contrast(True)
    yield window
    window.set_high_contrast(False)


def test_in_high_contrast_every_word_reads_against_its_ground(
        contrast_window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    w = contrast_window
    cid = grand_recount(w, qtbot, tmp_path)
    assert w.act_contrast.isChecked()
    checked = 0
    for where in every_page(w, cid):
        for lab in w.findChildren(QLabel):
            if not lab.isVisibleTo(w) or not lab.text().strip():
                continue
            lab.repaint()  # a label's rich text loses its own colours as it is painted
            fg = lab.palette().color(lab.foregroundRole())
            bg = lab.palette().color(QPalette.ColorRole.Window)
            assert contrast(fg, bg) >= 7, (where, lab.accessibleName(), lab.text()[:60])
            assert not re.search(r"color\s*:\s*#", lab.text()), (where, lab.text()[:80])
            checked += 1
        for widget in w.findChildren(QWidget):
            assert not HEX.search(widget.styleSheet()), (where, type(widget).__name__,
                                                         widget.styleSheet())
    assert checked > 100
    # The tables drop their tints; the verdict's icon and words still tell it.
    m = w.contests_page.model
    for r in range(m.rowCount()):
        for c in range(m.columnCount()):
            assert m.data(m.index(r, c), Qt.ItemDataRole.BackgroundRole) is None
    assert w.settings.value("view/highContrast", type=bool)


def test_high_contrast_off_gives_the_window_its_colours_back(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    grand_recount(window, qtbot, tmp_path)
    m = window.contests_page.model
    window.set_high_contrast(True)
    window.set_high_contrast(False)
    assert not theme.high_contrast()
    tinted = [m.data(m.index(r, c), Qt.ItemDataRole.BackgroundRole)
              for r in range(m.rowCount()) for c in range(m.columnCount())]
    assert any(t is not None for t in tinted)
    assert not window.settings.value("view/highContrast", type=bool)


def test_at_200_percent_text_every_page_fits_a_1280_by_720_screen(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    before = app.font()
    big = QFont(before)
    big.setPointSizeF(before.pointSizeF() * 2)
    app.setFont(big)
    try:
        cid = grand_recount(window, qtbot, tmp_path)
        window.resize(1280, 680)
        for where in every_page(window, cid):
            need = window.minimumSizeHint()
            assert need.width() <= 1280 and need.height() <= 680, (where, need)
            assert window.width() <= 1280 and window.height() <= 680, where
    finally:
        app.setFont(before)
