"""Screenshots of each Recount screen at 1280×800 into /tmp/shots/recount_*.png, for review.

Run: QT_QPA_PLATFORM=offscreen python -m tests.ui.recount_screenshots [folder]
Not a test: it writes PNG files for a person to look at. The demo's finished recount of
State House District 32 (Salt Lake County 2016) fills every panel; a second contest shows a recount just started.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings

from tests.ui.screenshots import settle, shot, wait


def main(folder: Path) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="rd-recount-shots-"))
    os.environ["RECOUNT_DESK_DATA"] = str(tmp / "data")
    from recount_desk.app import application

    app = application(["shots"])
    from recount_desk.ui.main_window import MainWindow

    folder.mkdir(parents=True, exist_ok=True)
    w = MainWindow(QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat))
    # "Who is using the window?" answered with the roster's first person (the officer).
    w.choose_person = lambda names, _current: names[0]  # type: ignore[method-assign]
    w.resize(1280, 800)
    w.show()
    w.open_demo(fresh=True)
    wait(w.case_opened)
    settle()
    page = w.recount_page
    demo_id = next(r.id for r in w.rows
                   if r.check.totals.contest.key.label().startswith("State House")
                   and r.check.totals.contest.key.district == "32")
    page.select_contest(demo_id)
    w.tabs.setCurrentWidget(page)
    for n, key in enumerate(page.panels, start=1):
        page.show_panel(key)
        if key == "tally":
            page.tally.second.setChecked(True)
        if key == "variance":
            page.variance.view.selectRow(5)
        shot(w, folder, f"recount_{n:02d}_{key}")
    # The warning that needs a note, on the demo's tally sheet.
    page.show_panel("tally")
    page.tally.first.setChecked(True)
    page.tally.fields["under"].setText("99")
    page.tally.save()
    shot(w, folder, "recount_10_tally_warning_note")
    page.tally.load_current()
    # Another contest: nothing started yet.
    other = next(r.id for r in w.rows if r.id != demo_id)
    page.select_contest(other)
    page.show_panel("start")
    shot(w, folder, "recount_11_not_started")
    w.close()
    app.quit()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/shots"))
