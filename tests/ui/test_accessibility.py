"""Every control a keyboard can reach has a name a screen reader says (Section 508 / WCAG
4.1.2), focus is visible, and colour is never the only signal."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from recount_desk.ui.main_window import MainWindow

from .test_recount_pages import grand  # noqa: F401 - the fixture


def unnamed(root: QWidget) -> list[str]:
    """The focusable controls under ``root`` that a screen reader would have no name for
    (its name comes from the accessible name, a buddy label or the control's own text).
    Qt's own parts of a composite control (a spin box's line, a combo box's popup list, a
    calendar's grid) are named through the control they belong to."""
    out = []
    for w in [root, *root.findChildren(QWidget)]:
        if w.focusPolicy() == Qt.FocusPolicy.NoFocus or w.objectName().startswith("qt_"):
            continue
        if w.window() is not root.window() and w.window().windowFlags() & \
                Qt.WindowType.Popup:
            continue
        if any(p.objectName().startswith("qt_") for p in _ancestors(w)):
            continue
        face = QAccessible.queryAccessibleInterface(w)
        name = face.text(QAccessible.Text.Name) if face is not None else ""
        if not name.strip():
            parent = w.parentWidget()
            out.append(f"{type(w).__name__} in {type(parent).__name__ if parent else '-'} "
                       f"{parent.accessibleName() if parent else ''}")
    return out


def _ancestors(w: QWidget) -> list[QWidget]:
    out = []
    p = w.parentWidget()
    while p is not None:
        out.append(p)
        p = p.parentWidget()
    return out


def test_every_focusable_control_of_the_window_has_an_accessible_name(
        demo: MainWindow, qtbot: QtBot) -> None:
    page = demo.recount_page
    demo.tabs.setCurrentWidget(page)
    for key in page.panels:
        page.show_panel(key)
    QApplication.processEvents()
    assert len(demo.findChildren(QWidget)) > 300  # the walk sees the whole window
    assert unnamed(demo) == []


def test_the_dialogs_controls_have_accessible_names(demo: MainWindow, qtbot: QtBot) -> None:
    new = demo.new_case()
    req = demo.record_request(None)
    assert new is not None and req is not None
    for dlg in (new, req):
        qtbot.waitExposed(dlg)
        assert unnamed(dlg) == [], dlg.windowTitle()
        dlg.reject()


def test_focus_is_drawn_and_a_differing_unit_says_so_in_words(
        grand: tuple[MainWindow, int], qtbot: QtBot) -> None:  # noqa: F811
    from recount_desk.actions import recount as rc
    from recount_desk.core.recount import TallySheet

    from .test_recount_pages import FIRST, GLENN, RECOUNT, SECOND, WATKINS, _start

    demo, cid = grand
    assert ":focus" in demo.styleSheet()  # the contests table shows where the keyboard is
    page = demo.recount_page
    _start(qtbot, page)
    unit = "13 Castle Valley 8:69"  # recounted Watkins 91, canvassed 90
    w, g, wi, over, under, ballots = RECOUNT[unit]
    for n, who in ((1, FIRST), (2, SECOND)):
        rc.enter_tally(demo.case, cid, unit, entry=n, officer=who,  # type: ignore[arg-type]
                       sheet=TallySheet(ballots, {WATKINS: w, GLENN: g}, wi, over, under))
    demo.refresh()
    page.select_contest(cid)
    page.show_panel("variance")
    m = page.variance.model
    net = next(c for c in range(m.columnCount()) if m.headerData(c, Qt.Orientation.Horizontal) == "Net")
    assert any(str(m.cell(r, net)).endswith("differs") for r in range(m.rowCount()))
