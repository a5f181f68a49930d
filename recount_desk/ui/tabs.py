"""Tabs whose pages scroll when the window is smaller than a page needs.

At 200 % text size (or on a small screen) a page's controls need more room than a 1280×720
screen has; without a scroll area the page would force the window past the screen's edge
and what lies beyond could not be reached (WCAG 1.4.4, 1.4.10). Each page sits in a scroll
area that takes no focus of its own (moving the focus scrolls to it); the tab methods speak
of the pages, so callers never see the scroll areas.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QTabWidget, QWidget


class _PageScroll(QScrollArea):
    def __init__(self, page: QWidget) -> None:
        super().__init__()
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setWidget(page)
        page.destroyed.connect(self.deleteLater)


class PageTabs(QTabWidget):
    """A QTabWidget whose pages scroll (see the module's docstring)."""

    def addTab(self, page: QWidget, title: str) -> int:  # type: ignore[override]
        area = _PageScroll(page)
        area.setAccessibleName(f"{title.replace('&&', 'and').replace('&', '')} (scrolled "
                               "page)")
        return super().addTab(area, title)

    def widget(self, index: int) -> QWidget:
        w = super().widget(index)
        return w.widget() if isinstance(w, _PageScroll) else w

    def currentWidget(self) -> QWidget:
        return self.widget(self.currentIndex())

    def indexOf(self, page: QWidget) -> int:  # type: ignore[override]
        for i in range(self.count()):
            if self.widget(i) is page:
                return i
        return super().indexOf(page)

    def setCurrentWidget(self, page: QWidget) -> None:  # type: ignore[override]
        i = self.indexOf(page)
        if i >= 0:
            self.setCurrentIndex(i)
