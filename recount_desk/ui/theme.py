"""High contrast: the platform's high-contrast theme (or View › High contrast) honoured.

Qt gives the platform's high-contrast palette; the window's own colours (tints of verdicts
and statuses, notes and warnings written in a colour) would fight it, dark ink on a black
ground. In high contrast every colour the window set itself gives way to the palette: style
sheets keep their borders and weights but take the palette's colours, and the tables drop
their tints (the verdict's shape and words, never colour alone, still tell it: WCAG 1.4.1).
"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QTableView, QWidget

_STATE = {"on": False}
_MARK = "/* high contrast */"
_COLOR = r"(?:#[0-9a-fA-F]{3,8}\b|rgba?\([^)]*\))"
_BG = re.compile(r"(background(?:-color)?\s*:\s*)" + _COLOR)
_BORDER = re.compile(r"(border[a-z-]*\s*:[^;}]*?)" + _COLOR)
_FG = re.compile(r"((?<![-\w])color\s*:\s*)" + _COLOR)
_INLINE = re.compile(r"(?<![-\w])color\s*:\s*" + _COLOR + r"\s*;?")


def high_contrast() -> bool:
    """Whether the window is shown in high contrast."""
    return _STATE["on"]


def platform_asks() -> bool:
    """The platform's accessibility settings ask for more contrast."""
    app = QGuiApplication.instance()
    if app is None:
        return False
    hints = QGuiApplication.styleHints()  # kept: its accessibility hints belong to it
    access = hints.accessibility()
    return bool(access.contrastPreference() == Qt.ContrastPreference.HighContrast)


def contrast_palette() -> QPalette:
    """White on black with a yellow selection: the usual high-contrast scheme."""
    p = QPalette()
    black, white = QColor("#000000"), QColor("#ffffff")
    for role in (QPalette.ColorRole.Window, QPalette.ColorRole.Base,
                 QPalette.ColorRole.AlternateBase, QPalette.ColorRole.Button,
                 QPalette.ColorRole.ToolTipBase):
        p.setColor(role, black)
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text,
                 QPalette.ColorRole.ButtonText, QPalette.ColorRole.ToolTipText,
                 QPalette.ColorRole.BrightText, QPalette.ColorRole.PlaceholderText):
        p.setColor(role, white)
    p.setColor(QPalette.ColorRole.Highlight, QColor("#ffff00"))
    p.setColor(QPalette.ColorRole.HighlightedText, black)
    p.setColor(QPalette.ColorRole.Link, QColor("#00ffff"))
    p.setColor(QPalette.ColorRole.LinkVisited, QColor("#ff80ff"))
    for group in (QPalette.ColorGroup.Disabled,):
        for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text,
                     QPalette.ColorRole.ButtonText):
            p.setColor(group, role, QColor("#c0c0c0"))
    return p


def in_contrast(sheet: str) -> str:
    """A style sheet with its own colours replaced by the palette's."""
    if not sheet or _MARK in sheet:
        return sheet
    out = _BG.sub(r"\1palette(window)", sheet)
    out = _BORDER.sub(r"\1palette(window-text)", out)
    out = _FG.sub(r"\1palette(window-text)", out)
    return out + _MARK if out != sheet else sheet


class ContrastFilter(QObject):
    """Rewrites every style sheet the window sets, as it is set (a StyleChange follows)."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.StyleChange, QEvent.Type.Polish) and isinstance(obj, QWidget):
            sheet = obj.styleSheet()
            new = in_contrast(sheet)
            if new != sheet:
                obj.setStyleSheet(new)
        elif kind == QEvent.Type.Paint and isinstance(obj, QLabel):
            text = obj.text()
            if "color:" in text:  # a word of rich text in a colour of its own
                obj.setText(_INLINE.sub("", text))
        return False


_FILTER: list[ContrastFilter] = []


def use_high_contrast(on: bool = True) -> None:
    """Show the window in high contrast (the palette, and every colour of its own undone)."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    _STATE["on"] = on
    if on:
        if not _FILTER:
            _FILTER.append(ContrastFilter())
            app.installEventFilter(_FILTER[0])
        if not platform_asks():  # the platform's own high-contrast palette stands
            app.setPalette(contrast_palette())
        for w in app.allWidgets():
            sheet = w.styleSheet()
            if in_contrast(sheet) != sheet:
                w.setStyleSheet(in_contrast(sheet))
            w.update()
    else:
        if _FILTER:
            app.removeEventFilter(_FILTER.pop())
        app.setPalette(app.style().standardPalette())


class _RowHeights(QObject):
    """Keeps a table's rows as high as its text needs (see ``fit_row_height``)."""

    def __init__(self, table: QTableView) -> None:
        super().__init__(table)
        self.table = table
        table.installEventFilter(self)
        self.fit()

    def fit(self) -> None:
        t = self.table
        t.verticalHeader().setDefaultSectionSize(
            max(t.fontMetrics().height(), t.iconSize().height(), 16) + 8)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FontChange:
            self.fit()
        return False


#: Rows looked at, beyond those in view, to fit a table's columns to their contents: enough
#: for the widths, without reading every cell of a 3,000-unit table.
WIDTH_SAMPLE = 200


def fit_columns(table: QTableView) -> None:
    """Fit the columns to their contents when the table took another shape (other columns,
    rows added or removed): not again when only values changed, as after each saved sheet,
    so the columns do not jump and a re-read of 3,000 units does not measure every cell."""
    model = table.model()
    cols = model.columnCount()
    shape = repr((model.rowCount(), [str(model.headerData(c, Qt.Orientation.Horizontal))
                                     for c in range(cols)]))
    if table.property("rd_fitted_shape") == shape:
        return
    table.resizeColumnsToContents()
    table.setProperty("rd_fitted_shape", shape)


def fit_row_height(table: QTableView) -> None:
    """Rows as high as the text needs (the style's default leaves a third more: fewer
    contests above the fold at 1280×720), again whenever the font changes (200 % text)."""
    _RowHeights(table)
