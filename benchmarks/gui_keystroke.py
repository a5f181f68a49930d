"""Times the window's own MainWindow offscreen: a keystroke in the contests search box, the
"within the margin" toggle, and the longest stall of the event loop after opening a case.

    python benchmarks/gui_keystroke.py [--contests 100 1000] [--runs 3]

Each keystroke is timed with the events it causes processed (filter, table reset, detail
pane, repaint). The baseline, run interleaved with it, is the least any window must do for
the same keystroke: the same rows filtered and put in the same table model, shown in a bare
QTableView. Prints figures and ratios; asserts nothing. Goals (issue 19): a keystroke under
30 ms at 1,000 contests; no stall of the event loop over 50 ms after opening.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY") \
        and sys.platform.startswith("linux"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

TYPED = "contest 05"


def write_canvass(path: Path, contests: int, precincts: int = 20, choices: int = 3) -> None:
    rnd = random.Random(20161108)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["county", "precinct", "office", "district", "party", "candidate", "votes"])
        for c in range(contests):
            for p in range(precincts):
                for k in range(choices):
                    w.writerow(["Synthetic", f"P{p:03d}", f"Contest {c:04d}", "", "",
                                f"Candidate {c}-{k}", rnd.randint(0, 400)])


def make_case(folder: Path, contests: int) -> Path:
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.actions.case import create_case
    from recount_desk.core.model import Election, ElectionKind

    src = folder / f"synthetic_{contests}.csv"
    write_canvass(src, contests)
    path = folder / f"keystroke_{contests}.recount"
    election = Election("Synthetic 2026 General", date(2026, 11, 3), ElectionKind.GENERAL,
                        "Synthetic County", datetime(2026, 11, 17, 10), "Benchmark")
    with create_case(path, election) as case:
        import_canvass(case, read_file(src))
    return path


class StallMeter:
    """The longest gap between ticks of a 5 ms timer: how long the event loop was stuck."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.last = 0.0
        self.worst = 0.0

    def start(self) -> None:
        self.last = time.perf_counter()
        self.worst = 0.0
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.worst = max(self.worst, now - self.last)
        self.last = now

    def stop(self) -> float:
        self.timer.stop()
        return self.worst


def run(contests: int, runs: int, folder: Path) -> None:
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QLineEdit, QTableView

    from recount_desk.actions.case import open_case
    from recount_desk.actions.contests import overview
    from recount_desk.ui.main_window import MainWindow
    from recount_desk.ui.models import ContestsTableModel
    from recount_desk.ui.pages.contests import SHOW_ALL, filter_rows

    path = make_case(folder, contests)
    app = QApplication.instance()
    assert app is not None

    w = MainWindow(QSettings(str(folder / f"s{contests}.ini"), QSettings.Format.IniFormat))
    w.resize(1280, 800)
    w.show()
    app.processEvents()
    _ = w.contests_page  # the pages are built at the first paint, before any case is opened
    app.processEvents()
    meter = StallMeter()
    loop = QEventLoop()
    w.case_checked.connect(lambda _p: loop.quit())
    QTimer.singleShot(120000, loop.quit)
    meter.start()
    w.open_path(path)
    loop.exec()
    stall = meter.stop()
    page = w.contests_page

    # The baseline: the same filter into the same model, in a bare table.
    with open_case(path, readonly=True) as case:
        rows = overview(case)
    bare_edit, bare_view, bare_model = QLineEdit(), QTableView(), ContestsTableModel()
    bare_view.setModel(bare_model)
    bare_view.resize(1280, 400)
    bare_view.show()
    bare_edit.textChanged.connect(lambda t: bare_model.set_rows(
        filter_rows(rows, within_only=False, show=SHOW_ALL, text=t)))
    bare_edit.show()

    def keystrokes(edit: QLineEdit) -> list[float]:
        out = []
        edit.clear()
        app.processEvents()
        for ch in TYPED:
            t0 = time.perf_counter()
            QTest.keyClicks(edit, ch)
            app.processEvents()
            out.append(time.perf_counter() - t0)
        return out

    app_times: list[float] = []
    bare_times: list[float] = []
    for _ in range(runs):  # interleaved, so both see the same machine
        app_times += keystrokes(page.search)
        bare_times += keystrokes(bare_edit)
    page.search.clear()
    toggles = []
    for _ in range(runs * 2):
        t0 = time.perf_counter()
        page.within.toggle()
        app.processEvents()
        toggles.append(time.perf_counter() - t0)
    a, b = statistics.median(app_times), statistics.median(bare_times)
    print(f"{contests:5d} contests  keystroke median {a * 1000:6.1f} ms, worst "
          f"{max(app_times) * 1000:6.1f} ms   bare table {b * 1000:5.1f} ms   ratio "
          f"{a / b:5.2f}x   (goal < 30 ms)")
    print(f"{'':16s}'within the margin' toggle median "
          f"{statistics.median(toggles) * 1000:6.1f} ms")
    print(f"{'':16s}longest event-loop stall from open to verified: {stall * 1000:6.1f} ms"
          "   (goal <= 50 ms)")
    w.close()
    bare_view.close()
    bare_edit.close()
    app.processEvents()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--contests", type=int, nargs="+", default=[100, 1000])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rd-keystroke-") as tmp:
        folder = Path(tmp)
        os.environ["RECOUNT_DESK_DATA"] = str(folder / "data")
        from recount_desk.app import application

        application(["bench"])
        print(f"Python {sys.version.split()[0]}, QT_QPA_PLATFORM="
              f"{os.environ.get('QT_QPA_PLATFORM', '(default)')}; typing {TYPED!r}")
        for n in args.contests:
            run(n, args.runs, folder)


if __name__ == "__main__":
    main()
