"""Messages and help texts. Messages open window-modal without blocking the event loop."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QMessageBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)


def show_message(parent: QWidget | None, title: str, text: str,
                 icon: QMessageBox.Icon = QMessageBox.Icon.Warning,
                 details: str | None = None) -> QMessageBox:
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setTextInteractionFlags(box.textInteractionFlags())
    if details:
        box.setDetailedText(details)
    box.setAccessibleName(title)
    box.open()
    return box


class LawTextDialog(QDialog):
    """A law text (plain text or Markdown) in a readable, searchable, printable view."""

    def __init__(self, title: str, path: Path, parent: QWidget | None = None,
                 more: tuple[Path, ...] = ()) -> None:
        """``path``'s text, then each of ``more`` (of the same kind) after it."""
        super().__init__(parent)
        self.setWindowTitle(title)
        self.browser = QTextBrowser()
        self.browser.setAccessibleName(title)
        self.browser.setOpenExternalLinks(False)
        parts = []
        for p in (path, *more):
            try:
                parts.append(p.read_text(encoding="utf-8"))
            except OSError as e:
                parts.append(f"The text could not be read from {p}: {e.strerror}.")
        text = "\n\n---\n\n".join(parts)
        if path.suffix == ".md":
            self.browser.setMarkdown(text)
        else:
            f = QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont)
            f.setPointSizeF(f.pointSizeF() * 1.1)
            self.browser.setFont(QFont(f))
            self.browser.setPlainText(text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.browser)
        lay.addWidget(buttons)
        self.resize(820, 700)
