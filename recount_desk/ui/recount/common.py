"""Small pieces the recount panels share: a number field where empty is not zero, helpers."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import QRegularExpression
from PySide6.QtGui import QFont, QRegularExpressionValidator
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QWidget

from recount_desk.core.calendar import utah_local

from ..dates import DateTimeField

# A tally field holds digits only (thousands separators are allowed and ignored); empty is a
# valid state — "not entered yet" — so that Enter still moves on from an empty field.
_DIGITS = QRegularExpression(r"^[0-9][0-9,]{0,11}$|^$")

NOTE_STYLE = "color: #5a4500;"
WARN_STYLE = ("QLabel { background: #fff4ce; color: #3d2e00; border: 1px solid #c9a400; "
              "padding: 4px; }")
OK_STYLE = "QLabel { color: #1d5e20; }"
LOCK_STYLE = ("QLabel { background: #e8eefc; color: #10264d; border: 1px solid #6d8fd6; "
              "padding: 6px; }")


class NumberField(QLineEdit):
    """A count on the tally sheet. Empty means not entered yet, which is not zero."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setValidator(QRegularExpressionValidator(_DIGITS, self))
        self.setPlaceholderText("not entered")
        self.setAccessibleName(name)
        self.setMaximumWidth(150)
        f = self.font()
        f.setPointSizeF(f.pointSizeF() * 1.15)
        f.setStyleHint(QFont.StyleHint.Monospace)
        self.setFont(f)

    def value(self) -> int | None:
        t = self.text().replace(",", "").strip()
        return int(t) if t else None

    def set_value(self, v: int | None) -> None:
        self.setText("" if v is None else str(v))


def heading(text: str) -> QLabel:
    lab = QLabel(text)
    f = lab.font()
    f.setPointSizeF(f.pointSizeF() * 1.2)
    f.setBold(True)
    lab.setFont(f)
    lab.setWordWrap(True)
    return lab


def wrap_label(text: str = "", name: str = "", style: str = "") -> QLabel:
    lab = QLabel(text)
    lab.setWordWrap(True)
    if name:
        lab.setAccessibleName(name)
    if style:
        lab.setStyleSheet(style)
    return lab


def line_edit(name: str, placeholder: str = "") -> QLineEdit:
    e = QLineEdit()
    e.setAccessibleName(name)
    if placeholder:
        e.setPlaceholderText(placeholder)
    return e


class ValueCombo(QComboBox):
    """A combo box that hands back the Python value of each item (Qt would turn an enum
    into plain text)."""

    def __init__(self, items: Sequence[tuple[object, str]], name: str) -> None:
        super().__init__()
        self.values = [v for v, _ in items]
        for _, label in items:
            self.addItem(label)
        self.setAccessibleName(name)

    def value(self) -> Any:
        i = self.currentIndex()
        return self.values[i] if 0 <= i < len(self.values) else None

    def select(self, value: object) -> None:
        if value in self.values:
            self.setCurrentIndex(self.values.index(value))


def combo(items: Sequence[tuple[object, str]], name: str) -> ValueCombo:
    return ValueCombo(items, name)


def datetime_edit(name: str, when: datetime | None = None) -> DateTimeField:
    """A date and time typed as a US clerk writes it; without ``when`` it gives the time
    it is read at until someone types in it (a sheet keyed in later takes the real time)."""
    return DateTimeField(name, when, follow_now=when is None)


def py_datetime(e: DateTimeField) -> datetime:
    return e.value()


def when_text(dt: datetime | None) -> str:
    if dt is None:
        return "—"
    hour = dt.hour % 12 or 12
    ampm = "a.m." if dt.hour < 12 else "p.m."
    return f"{dt:%b} {dt.day}, {dt.year} {hour}:{dt.minute:02d} {ampm}"


def stamp_text(iso: str | None) -> str:
    """A stored ISO time stamp as the clerk reads it."""
    if not iso:
        return "—"
    try:
        # Stored stamps are UTC; the clerk reads Utah time, as the report prints it.
        return when_text(utah_local(datetime.fromisoformat(iso)))
    except ValueError:
        return iso
