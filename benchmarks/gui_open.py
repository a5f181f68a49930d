"""Times the window: start-up to first paint against a bare PySide6 window, and the overview
of a case holding a 1,000,000-row canvass.

    python benchmarks/gui_open.py [--rows 1000000] [--runs 5]

Prints figures; asserts nothing. Goals (issue 4): first paint at most 2x a bare window; the
overview of a 1,000,000-row case shown in under 1 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gui_common import ROOT, main_window, make_case, open_in, platform_line, write_canvass

# The child prints "painted" at the window's first paint event and quits.
PAINT_FILTER = """
from PySide6.QtCore import QEvent, QObject, QTimer
class FirstPaint(QObject):
    quit_after_paint = True
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            print("painted", flush=True)
            if self.quit_after_paint:
                QTimer.singleShot(0, app.quit)
            obj.removeEventFilter(self)
        return False
"""

BARE = PAINT_FILTER.replace("from PySide6.QtCore", "import sys\nfrom PySide6.QtWidgets import "
                            "QApplication, QMainWindow\napp = QApplication(sys.argv)\n"
                            "from PySide6.QtCore") + """
w = QMainWindow()
w.resize(1280, 800)
f = FirstPaint()
w.installEventFilter(f)
w.show()
app.exec()
"""

APP = """
import sys
from recount_desk.app import application, create_window, parse_args
app = application(sys.argv)
""" + PAINT_FILTER + """
w = create_window(parse_args(["--demo"]))
# The person using the window is the roster's first, unasked (a question would wait forever).
w.choose_person = lambda names, current: names[0]
f = FirstPaint()
f.quit_after_paint = False
w.case_opened.connect(lambda _p: (print("opened", flush=True), app.quit()))
w.installEventFilter(f)
w.show()
app.exec()
"""


def time_child(code: str, env: dict[str, str]) -> tuple[float, float | None]:
    """(seconds to the first paint, seconds to the case shown or None) from process start."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
    assert proc.stdout is not None
    painted = opened = None
    for line in proc.stdout:
        if line.startswith("painted"):
            painted = time.perf_counter() - t0
        elif line.startswith("opened"):
            opened = time.perf_counter() - t0
    proc.wait(timeout=30)
    if painted is None:
        raise SystemExit("the child never painted")
    return painted, opened


def first_paint(runs: int, data_dir: Path) -> None:
    # A private data folder and settings folder: the runs must not touch the user's own.
    env = dict(os.environ, RECOUNT_DESK_DATA=str(data_dir), PYTHONPATH=str(ROOT),
               XDG_CONFIG_HOME=str(data_dir / "config"))
    # Build the demo case once, so every run starts as on a second day of use.
    subprocess.run([sys.executable, "-c", "from recount_desk.actions.demo import "
                    "open_demo_case; open_demo_case().close()"], env=env, cwd=ROOT, check=True)
    time_child(BARE, env)  # warm the file cache
    time_child(APP, env)
    bare = [time_child(BARE, env)[0] for _ in range(runs)]
    runs_app = [time_child(APP, env) for _ in range(runs)]
    b = statistics.median(bare)
    a = statistics.median(p for p, _ in runs_app)
    shown = statistics.median(o for _, o in runs_app if o is not None)
    print(f"first paint, bare PySide6 window : {b * 1000:7.0f} ms (median of {runs})")
    print(f"first paint, Recount Desk window : {a * 1000:7.0f} ms (median of {runs})")
    print(f"ratio                            : {a / b:7.2f}x   (goal <= 2x)")
    print(f"demo case shown in the window    : {shown * 1000:7.0f} ms from process start")


def big_overview(rows: int, folder: Path) -> None:
    choices, precincts = 5, 2000
    src = folder / "synthetic_long.csv"
    t = time.perf_counter()
    write_canvass(src, max(1, rows // (choices * precincts)), precincts, choices, seed=20261103)
    case_path = folder / "big.recount"
    parsed = make_case(case_path, src)
    print(f"setup: {parsed.rows:,}-row canvass written and imported with actions in "
          f"{time.perf_counter() - t:.1f} s")

    from PySide6.QtWidgets import QApplication

    w = main_window(folder, "s")
    app = QApplication.instance()
    t0 = time.perf_counter()
    _elapsed, stall = open_in(w, case_path, until=("case_opened",), timeout_ms=60000)
    w.contests_page.table.viewport().repaint()
    t1 = time.perf_counter()
    n = w.contests_page.model.rowCount()
    print(f"open case + overview shown ({n} contests, {parsed.rows:,} rows): "
          f"{(t1 - t0) * 1000:.0f} ms   (goal < 1000 ms); longest event-loop stall "
          f"{stall * 1000:.0f} ms")
    t0 = time.perf_counter()
    w.refresh()
    w.contests_page.table.viewport().repaint()
    print(f"overview refresh alone (re-read and repaint): {(time.perf_counter() - t0) * 1000:.0f} ms")
    t0 = time.perf_counter()
    w.contests_page.within.setChecked(True)
    w.contests_page.search.setText("Contest 05")
    print(f"two filters applied on the row list: {(time.perf_counter() - t0) * 1000:.0f} ms")
    w.contests_page.within.setChecked(False)
    w.contests_page.search.clear()
    t0 = time.perf_counter()
    w.contests_page.select_row(min(50, n - 1))
    w.contests_page.detail.precincts.viewport().repaint()
    print(f"select a contest (detail + 2,000-precinct table): "
          f"{(time.perf_counter() - t0) * 1000:.0f} ms")
    w.close()
    app.processEvents()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rd-gui-bench-") as tmp:
        folder = Path(tmp)
        os.environ["RECOUNT_DESK_DATA"] = str(folder / "data")
        print(platform_line())
        first_paint(args.runs, folder / "data")
        big_overview(args.rows, folder)


if __name__ == "__main__":
    main()
