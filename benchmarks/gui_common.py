"""What the window benchmarks share: offscreen Qt, synthetic canvasses and cases made with the
actions, the app's own MainWindow with private settings, opening a case in it while the
event loop's longest stall is measured, and a Grand County 2018 case with a recount started.
"""

from __future__ import annotations

import csv
import os
import random
import sys
import time
from datetime import date, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY") \
        and sys.platform.startswith("linux"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

GRAND_2018 = ROOT / "tests" / "data" / "openelections" / \
    "20181106__ut__general__grand__precinct.csv"


def platform_line() -> str:
    return (f"Python {sys.version.split()[0]}, QT_QPA_PLATFORM="
            f"{os.environ.get('QT_QPA_PLATFORM', '(default)')}")


def write_canvass(path: Path, contests: int, precincts: int, choices: int,
                  seed: int = 20161108) -> None:
    """A long CSV: every contest in every precinct, random votes."""
    rnd = random.Random(seed)
    width = len(str(max(precincts - 1, 1)))
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["county", "precinct", "office", "district", "party", "candidate", "votes"])
        for c in range(contests):
            for p in range(precincts):
                for k in range(choices):
                    w.writerow(["Synthetic", f"P{p:0{width}d}", f"Contest {c:04d}", "", "",
                                f"Candidate {c}-{k}", rnd.randint(0, 400)])


def make_case(path: Path, source: Path) -> Any:
    """A new case at ``path`` holding the canvass read from ``source``; returns the parsed
    canvass (its ``rows`` count)."""
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.actions.case import create_case
    from recount_desk.core.model import Election, ElectionKind

    election = Election("Synthetic 2026 General", date(2026, 11, 3), ElectionKind.GENERAL,
                        "Synthetic County", datetime(2026, 11, 17, 10), "Benchmark")
    with create_case(path, election) as case:
        parsed = read_file(source)
        import_canvass(case, parsed)
    return parsed


def make_grand_recount(path: Path) -> int:
    """A Grand County 2018 case whose State House 69 (set to a race within the county by the
    officer) has a double-entry recount started; returns the contest's id."""
    from recount_desk.actions import recount as rc
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.actions.case import add_person, create_case
    from recount_desk.actions.contests import overview, set_contest_settings
    from recount_desk.core.model import Election, ElectionKind, Scope
    from recount_desk.core.people import Role
    from recount_desk.core.recount import EntryMode, RecountMethod

    election = Election("Grand 2018 General", date(2018, 11, 6), ElectionKind.GENERAL,
                        "Grand County", datetime(2018, 11, 20, 10), "Benchmark")
    with create_case(path, election) as case:
        add_person(case, "Dana Whitlock", Role.DEPUTY)
        import_canvass(case, read_file(GRAND_2018))
        row = next(r for r in overview(case)
                   if r.check.totals.contest.key.title == "State House"
                   and r.check.totals.contest.key.district == "69")
        c = row.check.totals.contest
        set_contest_settings(case, row.id, seats=c.seats, scope=Scope.COUNTY,
                             voting_method=c.voting_method, pass_rule=c.pass_rule)
        rc.start_recount(case, row.id, method=RecountMethod.HAND_COUNT,
                         entry_mode=EntryMode.DOUBLE)
        return row.id


class StallMeter:
    """The longest gap between ticks of a 5 ms timer: how long the event loop was stuck.

    ``worst_cpu`` is the GUI thread's own processor time in that gap: on a machine shared
    with other work the gap can be several times the window's work in it (the thread
    waits for a processor), and the two figures tell load from work."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.last = self.last_cpu = 0.0
        self.worst = self.worst_cpu = 0.0

    def start(self) -> None:
        self.last, self.last_cpu = time.perf_counter(), time.thread_time()
        self.worst = self.worst_cpu = 0.0
        self.timer.start()

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        if now - self.last > self.worst:
            self.worst, self.worst_cpu = now - self.last, cpu - self.last_cpu
        self.last, self.last_cpu = now, cpu

    def stop(self) -> float:
        self.timer.stop()
        return self.worst


def main_window(folder: Path, name: str) -> Any:
    """The app's own MainWindow with private settings, 1280×800, shown and painted, its pages
    built (they are built at the first paint, before any case is opened)."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from recount_desk.app import application
    from recount_desk.ui.main_window import MainWindow

    app = application(["bench"])
    w = MainWindow(QSettings(str(folder / f"{name}.ini"), QSettings.Format.IniFormat))
    # The person using the window is the roster's first (the election officer), unasked.
    w.choose_person = lambda names, current: names[0]
    w.resize(1280, 800)
    w.show()
    app.processEvents()
    _ = w.contests_page
    QApplication.processEvents()
    return w


def open_in(window: Any, path: Path, until: tuple[str, ...] = ("case_opened", "case_checked"),
            timeout_ms: int = 120000, meter: StallMeter | None = None) -> tuple[float, float]:
    """Open ``path`` in the window and wait for every signal in ``until`` (``case_opened``:
    every page shown; ``case_checked``: the verification after opening done). Returns
    (seconds from the call to the last signal, longest stall of the event loop meanwhile);
    ``meter``, when given, keeps the stall's figures (its ``worst_cpu``)."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    waiting = set(until)

    def arrived(name: str) -> None:
        waiting.discard(name)
        if not waiting:
            loop.quit()

    slots = {name: (lambda _p, n=name: arrived(n)) for name in until}
    for name, slot in slots.items():
        getattr(window, name).connect(slot)
    QTimer.singleShot(timeout_ms, loop.quit)
    meter = meter or StallMeter()
    meter.start()
    t0 = time.perf_counter()
    window.open_path(path)
    loop.exec()
    elapsed = time.perf_counter() - t0
    stall = meter.stop()
    for name, slot in slots.items():
        getattr(window, name).disconnect(slot)
    if waiting:
        raise SystemExit(f"{path.name}: no {', '.join(sorted(waiting))} within "
                         f"{timeout_ms / 1000:.0f} s")
    return elapsed, stall
