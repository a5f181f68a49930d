"""Screenshots of the pages issue 19 changed, at the screen sizes clerks use, for review.

Run: QT_QPA_PLATFORM=offscreen python -m tests.ui.window_screenshots [folder]
     QT_SCALE_FACTOR=1.5 QT_QPA_PLATFORM=offscreen python -m tests.ui.window_screenshots [folder]
Not a test: it writes PNG files (default resources/screenshots/) for a person to look at.
The window is sized as on a 1280×720, 1366×768 and 1920×1080 screen (its available area
less a task bar); with QT_SCALE_FACTOR set, the names say so.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings

from tests.ui.screenshots import settle, shot, wait

SIZES = [(1280, 720), (1366, 768), (1920, 1080)]
TASKBAR = 40


def main(folder: Path) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="rd-window-shots-"))
    os.environ["RECOUNT_DESK_DATA"] = str(tmp / "data")
    from recount_desk.app import application

    app = application(["shots"])
    from recount_desk.ui.main_window import MainWindow

    scale = os.environ.get("QT_SCALE_FACTOR", "")
    sizes = SIZES[:1] if scale else SIZES
    tag = f"_scale{scale.replace('.', '_')}" if scale else ""
    folder.mkdir(parents=True, exist_ok=True)
    w = MainWindow(QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat))
    w.confirm = lambda _t, _x: True  # type: ignore[method-assign]
    w.choose_person = lambda names, _current: names[0]  # type: ignore[method-assign]
    w.show()
    w.open_demo(fresh=True)
    wait(w.case_opened)
    page = w.recount_page
    for width, height in sizes:
        f = float(scale or 1)
        w.resize(int(width / f), int((height - TASKBAR) / f))
        settle()
        name = f"{width}x{height}{tag}"
        w.tabs.setCurrentWidget(w.contests_page)
        w.contests_page.search.setText("House 32")
        shot(w, folder, f"window_{name}_contests")
        w.contests_page.search.clear()
        w.tabs.setCurrentWidget(w.requests_page)
        shot(w, folder, f"window_{name}_requests")
        w.tabs.setCurrentWidget(page)
        for key in ("start", "tally", "variance", "envelopes", "board", "declare"):
            page.show_panel(key)
            shot(w, folder, f"window_{name}_recount_{key}")
    if not scale:  # the README's first picture: the overview, House 32 chosen
        w.resize(1280, 800)
        w.tabs.setCurrentWidget(w.contests_page)
        house = next(r.id for r in w.rows if r.check.totals.contest.key.district == "32")
        w.contests_page.select_contest(house)
        settle()
        w.contests_page.table.scrollTo(w.contests_page.table.currentIndex())
        shot(w, folder, "contests")
    # A recount under way: the variance of the units counted so far.
    other = next((r.id for r in w.rows if r.id != page.contest_id
                  and r.check.decision.within_margin), None)
    if other is not None:
        from recount_desk.actions import recount as rc
        from recount_desk.core.recount import EntryMode, RecountMethod

        page.select_contest(other)
        page.act("start", rc.start_recount, method=RecountMethod.RETABULATION,
                 entry_mode=EntryMode.SINGLE)
        page.show_panel("tally")
        tally = page.tally
        tally.officer.setText("Dana Example")
        for fld in tally.fields.values():
            fld.setText("10")
        shot(w, folder, f"window_{sizes[0][0]}x{sizes[0][1]}{tag}_tally_typing")
    w.close()
    app.processEvents()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else
         Path(__file__).resolve().parents[2] / "resources" / "screenshots")
