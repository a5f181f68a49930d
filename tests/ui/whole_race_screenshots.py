"""Screenshots of a county's portion (issue 20): the contests table, the whole-race dialog
before and after the other counties' files, with the lieutenant governor's order and the
transmittal, at 1280×720 and 1920×1080.

Run: QT_QPA_PLATFORM=offscreen python -m tests.ui.whole_race_screenshots [folder]
Not a test: it writes PNG files (default resources/screenshots/) for a person to look at.
"""

from __future__ import annotations

import os
import sys
import tempfile
from datetime import datetime
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QScrollArea

from tests.ui.screenshots import settle, shot, wait

TASKBAR = 40


def main(folder: Path) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="rd-whole-shots-"))
    os.environ["RECOUNT_DESK_DATA"] = str(tmp / "data")
    from recount_desk.app import application

    app = application(["shots"])
    from recount_desk.actions import whole_case as wc
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.actions.case import create_case
    from recount_desk.actions.demo_portion import portion_files, portion_spec
    from recount_desk.ui.main_window import MainWindow

    folder.mkdir(parents=True, exist_ok=True)
    spec = portion_spec()
    path = tmp / "Grand 2018.recount"
    with create_case(path, spec.election) as case:
        import_canvass(case, read_file(spec.canvass))
    w = MainWindow(QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat))
    # "Who is using the window?" answered with the roster's first person (the officer).
    w.choose_person = lambda names, _current: names[0]  # type: ignore[method-assign]
    w.show()
    w.open_path(path)
    wait(w.case_opened)
    hd69 = next(r.id for r in w.rows if r.check.totals.contest.key.district == "69")
    for width, height in ((1280, 720), (1920, 1080)):
        w.resize(width, height - TASKBAR)
        w.contests_page.select_contest(hd69)
        shot(w, folder, f"whole_{width}x{height}_contests_portion")
    w.resize(1280, 720 - TASKBAR)
    dlg = w.open_whole_race(hd69)
    assert dlg is not None
    shot(dlg, folder, "whole_dialog_portion")
    dlg.combine_files(portion_files()[1:])
    wait(dlg.changed)
    assert w.case is not None
    wc.record_recount_order(w.case, hd69, ordered_at=datetime(2018, 12, 3, 9, 30),
                            reference="Letter of the Lieutenant Governor, Dec 3, 2018")
    wc.record_transmittal(w.case, hd69, sent_at=datetime(2018, 12, 10, 16, 0),
                          how="Registered mail")
    w.refresh()
    dlg.reload()
    settle()
    shot(dlg, folder, "whole_dialog_whole_race")
    scroll = dlg.findChild(QScrollArea)
    scroll.verticalScrollBar().setValue(scroll.verticalScrollBar().maximum())
    shot(dlg, folder, "whole_dialog_transmitted")
    dlg.close()
    w.contests_page.select_contest(hd69)
    shot(w, folder, "whole_1280x720_contests_whole_race")
    w.close()
    app.processEvents()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else
         Path(__file__).resolve().parents[2] / "resources" / "screenshots")
