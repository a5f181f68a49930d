"""File › Proclaimed holidays…: days the governor proclaimed legal holidays (63G-1-301)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from recount_desk.core.calendar import ClosedDay

from ..dates import date_text, parse_date
from .new_case import ERROR_STYLE


def parse_closed_days(text: str) -> tuple[list[ClosedDay], list[str]]:
    """One day per line, "11/24/2026 Day of mourning" (or 2026-11-24, Nov 24, 2026): the
    days, and a problem per bad line."""
    days: list[ClosedDay] = []
    problems: list[str] = []
    for n, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words:
            continue
        # The date is the first word, or the first three ("Nov 24, 2026").
        d, reason = None, ""
        for k in (1, 3):
            d = parse_date(" ".join(words[:k]))
            if d is not None:
                reason = " ".join(words[k:])
                break
        if d is None:
            problems.append(f"Line {n}: “{words[0]}” is not a date like 11/24/2026.")
            continue
        if not reason:
            problems.append(f"Line {n}: give the reason after the date (the proclamation).")
            continue
        days.append(ClosedDay(d, reason))
    return days, problems


class ClosedDaysDialog(QDialog):
    """The case's list of proclaimed holidays, one per line; saving is one audited action."""

    def __init__(self, days: tuple[ClosedDay, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Days proclaimed legal holidays")
        intro = QLabel(
            "Utah Code 63G-1-301 makes a legal holiday of any day the governor proclaims one "
            "(a day of fasting or thanksgiving, or in extraordinary conditions). Such a day "
            "cannot be known in advance: enter it here, one per line as <i>11/24/2026 Day of "
            "mourning</i>, and every deadline of this case counts it. The change is recorded "
            "in the audit log.")
        intro.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setAccessibleName("Days proclaimed legal holidays, one per line")
        self.text.setPlainText("\n".join(f"{date_text(d.day)} {d.reason}" for d in days))
        self.error = QLabel()
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.setWordWrap(True)
        self.error.setAccessibleName("Problem with the days")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addWidget(self.text, 1)
        lay.addWidget(self.error)
        lay.addWidget(buttons)
        self.resize(620, 320)

    def days(self) -> list[ClosedDay]:
        return parse_closed_days(self.text.toPlainText())[0]

    def _accept(self) -> None:
        problems = parse_closed_days(self.text.toPlainText())[1]
        if problems:
            self.error.setText(" ".join(problems))
            return
        self.accept()
