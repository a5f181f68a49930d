"""Screenshots of the report dialog at 1280×800 (default /tmp/shots/report_*.png), for review.

Run: QT_QPA_PLATFORM=offscreen python -m tests.ui.report_screenshots [folder]
Not a test: it writes PNG files for a person to look at.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("RECOUNT_DESK_DATA", tempfile.mkdtemp(prefix="recount-desk-shots-"))

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from tests.ui.screenshots import settle, shot, wait


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/shots")
    folder.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv)
    from recount_desk.ui.main_window import MainWindow

    settings = QSettings(str(Path(tempfile.mkdtemp()) / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings)
    # "Who is using the window?" answered with the roster's first person (the officer).
    w.choose_person = lambda names, _current: names[0]  # type: ignore[method-assign]
    w.resize(1280, 800)
    w.show()
    w.open_demo(fresh=True)
    wait(w.case_opened)
    settle()
    dlg = w.open_report()
    assert dlg is not None
    dlg.resize(1280, 800)
    shot(dlg, folder, "report_1_before")
    dlg.generate()
    wait(dlg.report_generated)
    shot(dlg, folder, "report_2_preview")
    dlg.pages.verticalScrollBar().setValue(dlg.pages.verticalScrollBar().maximum() // 2)
    shot(dlg, folder, "report_3_scrolled")
    sign = dlg.record_signing()
    assert sign is not None
    shot(sign, folder, "report_4_signing")
    sign.accept()
    wait(dlg.signing_recorded)
    shot(dlg, folder, "report_5_signed")
    dlg.generate()
    wait(dlg.report_generated)
    shot(dlg, folder, "report_6_reprint")
    w.close()
    app.processEvents()


if __name__ == "__main__":
    main()
