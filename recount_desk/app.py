"""Start-up of the window: the QApplication, the main window, and the first case shown.

The only place that builds the main window. On first run it opens the user's copy of the
demo election (actions.demo), so a new user sees real work at once; later it reopens the
last case. ``recount-desk-gui [--demo] [CASE]``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from recount_desk import __version__

if TYPE_CHECKING:
    from recount_desk.ui.main_window import MainWindow

ORGANIZATION = "Recount Desk"
APPLICATION = "Recount Desk"


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="recount-desk-gui",
                                description="Recount Desk — the window.")
    p.add_argument("case", nargs="?", help="a case file (*.recount) to open")
    p.add_argument("--demo", action="store_true", help="open the demo election")
    p.add_argument("--version", action="version", version=f"Recount Desk {__version__}")
    args, _qt_args = p.parse_known_args(list(argv))
    return args


def application(argv: Sequence[str] | None = None) -> QApplication:
    """The QApplication, created once, with the names QSettings files its preferences under."""
    # Legible at 125-200 % scaling: fractional factors are kept, not rounded.
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(
        Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
    app = QApplication.instance() or QApplication(list(argv or sys.argv))
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationVersion(__version__)
    return app  # type: ignore[return-value]


def create_window(args: argparse.Namespace | None = None, *,
                  open_case: bool = True) -> MainWindow:
    """Build the main window (and, after it is shown, open the first case in a worker)."""
    from recount_desk.ui.main_window import MainWindow

    window = MainWindow()
    if open_case:
        path = Path(args.case) if args and args.case else None
        demo = bool(args and args.demo)
        # After the first paint: the window appears at once, the case follows.
        window.after_first_paint(lambda: window.open_initial(path, demo=demo))
    return window


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv if argv is None else argv)
    args = parse_args(argv[1:])
    app = application(argv)
    window = create_window(args)
    window.show()
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main())
