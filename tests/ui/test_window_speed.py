"""What the window does to stay quick keeps it right: columns fitted from the longest texts
show every text whole, the recount page's contest list (one model) finds every contest, and
a case is shown in turns without mixing in another case opened meanwhile."""

from __future__ import annotations

import csv
from datetime import date, datetime
from pathlib import Path

import pytest
from PySide6.QtGui import QFontMetrics
from pytestqt.qtbot import QtBot

from recount_desk.actions.canvass import import_canvass, read_file
from recount_desk.actions.case import open_case
from recount_desk.core.model import ElectionKind
from recount_desk.ui.main_window import MainWindow
from recount_desk.ui.models import CONTEST_COLUMNS

from .conftest import SIGNAL_MS, make_case

GRAND = Path(__file__).parent.parent / "data" / "openelections" / \
    "20181106__ut__general__grand__precinct.csv"


def grand_case(folder: Path) -> Path:
    path = make_case(folder, name="Grand 2018", day=date(2018, 11, 6),
                     kind=ElectionKind.GENERAL, canvass=datetime(2018, 11, 20, 10, 0))
    with open_case(path) as case:
        import_canvass(case, read_file(GRAND))
    return path


def synthetic_case(folder: Path, contests: int) -> Path:
    """Many contests; one far down the list (at an odd row) with a long candidate's name."""
    src = folder / "many.csv"
    with open(src, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["county", "precinct", "office", "district", "party", "candidate", "votes"])
        for c in range(contests):
            for p in range(3):
                for k, votes in enumerate((100 + c, 50 + p)):
                    name = f"Candidate {c}-{k}"
                    if c == 437 and k == 0:
                        name = "Maximiliana Bartholomew-Featherstonehaugh Christiansen"
                    w.writerow(["Synthetic", f"P{p}", f"Contest {c:04d}", "", "", name, votes])
    path = make_case(folder, name="Many 2024")
    with open_case(path) as case:
        import_canvass(case, read_file(src))
    return path


@pytest.mark.parametrize("contests", [30, 900], ids=["few", "many"])
def test_every_column_is_wide_enough_for_its_longest_text(
        window: MainWindow, qtbot: QtBot, tmp_path: Path, contests: int) -> None:
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(synthetic_case(tmp_path, contests))
    page = window.contests_page
    rows = page.all_rows()
    assert len(rows) == contests
    fm = QFontMetrics(page.table.font())

    def fitted() -> None:
        for c, col in enumerate(CONTEST_COLUMNS):
            longest = max(fm.horizontalAdvance(col.text(r)) for r in rows)
            width = page.table.columnWidth(c)
            assert width >= min(longest, 240 - 12), (col.title, width, longest)
            assert width <= 240, col.title

    qtbot.waitUntil(fitted, timeout=SIGNAL_MS)
    winners = next(c for c, col in enumerate(CONTEST_COLUMNS)
                   if col.title.startswith("Winner"))
    if contests > 437:
        assert page.table.columnWidth(winners) == 240  # the long name, capped


def test_the_recount_page_lists_every_contest_and_finds_each(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(grand_case(tmp_path))
    page = window.recount_page
    assert page.contest.count() == len(window.rows)
    for r in window.rows[::7]:
        page.select_contest(r.id)
        assert page.contest_id == r.id
        assert page.contest.currentText().startswith(r.check.totals.contest.key.label())


def test_a_case_opened_while_another_is_being_shown_wins_whole(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    first = grand_case(tmp_path)
    second = make_case(tmp_path, name="Empty 2024")
    opened: list[str] = []
    window.case_opened.connect(opened.append)
    window._attach(first)  # the first case attached, the turns showing it still to come
    window._attach(second)
    qtbot.waitUntil(lambda: str(second) in opened, timeout=SIGNAL_MS)
    qtbot.wait(50)
    assert opened == [str(second)]  # the first case's turns stopped when the second came
    assert window.case is not None and window.case.path == second
    assert window.rows == []
    assert window.contests_page.model.rowCount() == 0
    assert window.recount_page.contest.count() == 0
    assert "Empty 2024" in window.windowTitle()
