"""Saving a tally sheet off the GUI thread (issue 13): the sheet stays shown and locked until
the save is acknowledged, a refusal is shown, a second save cannot start meanwhile, and
quitting waits for the save."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from recount_desk import store
from recount_desk.actions import recount as rc
from recount_desk.actions.case import open_case
from recount_desk.core.recount import UnitStatus
from recount_desk.ui.main_window import MainWindow
from recount_desk.ui.recount.tally import TallyEntryPanel

from .conftest import SIGNAL_MS
from .test_recount_pages import FIRST, _page, _row, _start, grand  # noqa: F401 - fixture


@pytest.fixture
def in_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every save in a worker, as in a recount of 1,000 units or on a server."""
    monkeypatch.setattr(TallyEntryPanel, "BACKGROUND_FROM_UNITS", 0)


def _typed(window: MainWindow, qtbot: QtBot, under_extra: int = 0) -> tuple[TallyEntryPanel,
                                                                               str, list[int]]:
    page = _page(window)
    _start(qtbot, page)
    page.show_panel("tally")
    tally = page.tally
    unit = tally.current_unit()
    assert unit is not None
    tally.officer.setText(FIRST)
    values = _row(unit, 1)
    values[-1] += under_extra
    for f, v in zip(tally.fields.values(), values, strict=True):
        f.setText(str(v))
    return tally, unit, values


def _tally_actions(window: MainWindow) -> int:
    assert window.case is not None
    return sum(1 for e in store.audit_entries(window.case.conn) if e.action == "enter tally")


@pytest.mark.usefixtures("in_worker")
def test_a_save_in_a_worker_keeps_the_sheet_shown_until_it_is_acknowledged(
        grand: tuple[MainWindow, int], qtbot: QtBot) -> None:  # noqa: F811
    window, cid = grand
    tally, unit, values = _typed(window, qtbot)
    assert tally.background()
    with qtbot.waitSignal(tally.tally_saved, timeout=SIGNAL_MS) as saved:
        qtbot.keyClick(tally.fields["under"], Qt.Key.Key_Return)
        # The save is under way: the sheet is shown as typed, and locked.
        assert tally.saving and not tally.form.isEnabled()
        assert [f.value() for f in tally.fields.values()] == values
        tally.save()  # a second save cannot start while one is running
        assert "still being saved" in window.statusBar().currentMessage()
    assert saved.args == [unit, 1]
    assert not tally.saving and tally.form.isEnabled()
    got = rc.entry_of(window.case, cid, unit, 1)
    assert got is not None and got.officer == FIRST and got.sheet.ballots == values[0]
    assert _tally_actions(window) == 1  # one save, not two
    assert f"{unit}: entry 1 saved by {FIRST}" in window.statusBar().currentMessage()
    assert tally.current_unit() != unit  # moved on to the next unit, as a save in place does
    assert window.undo_stack.canUndo()


@pytest.mark.usefixtures("in_worker")
def test_a_refusal_from_the_worker_is_shown_and_the_typed_numbers_stay(
        grand: tuple[MainWindow, int], qtbot: QtBot) -> None:  # noqa: F811
    window, cid = grand
    tally, unit, values = _typed(window, qtbot, under_extra=3)
    with qtbot.waitSignal(tally.save_finished, timeout=SIGNAL_MS):
        qtbot.keyClick(tally.fields["under"], Qt.Key.Key_Return)
    assert not tally.saving and tally.form.isEnabled()
    assert tally.note.isVisible()  # the check failed: a note is asked for
    assert "write a note" in tally.check.text()
    assert [f.value() for f in tally.fields.values()] == values
    assert tally.current_unit() == unit
    assert rc.entry_of(window.case, cid, unit, 1) is None
    assert _tally_actions(window) == 0


@pytest.mark.usefixtures("in_worker")
def test_a_refusal_by_the_roster_is_shown_from_the_worker(
        grand: tuple[MainWindow, int], qtbot: QtBot) -> None:  # noqa: F811
    window, cid = grand
    tally, unit, values = _typed(window, qtbot)
    tally.officer.setText("Mickey Mouse")
    with qtbot.waitSignal(tally.save_finished, timeout=SIGNAL_MS):
        tally.save()
    assert "not on this case's roster" in _page(window).last_error
    assert [f.value() for f in tally.fields.values()] == values
    assert rc.entry_of(window.case, cid, unit, 1) is None


@pytest.mark.usefixtures("in_worker")
def test_quitting_waits_for_a_save_under_way(
        grand: tuple[MainWindow, int], qtbot: QtBot) -> None:  # noqa: F811
    window, cid = grand
    tally, unit, values = _typed(window, qtbot)
    assert window.case is not None
    path = window.case.path
    tally.save()
    assert tally.saving
    window.close()  # asks nothing: the save under way is waited for, then acknowledged
    assert not tally.saving
    assert not any(q[0] == "unsaved" for q in window.asked)  # type: ignore[attr-defined]
    with open_case(path, readonly=True) as case:
        got = rc.entry_of(case, cid, unit, 1)
        assert got is not None and got.sheet.under == values[-1]
        assert rc.unit_list(case, cid)[0].status is UnitStatus.AWAITING_SECOND


def test_a_small_recount_on_a_local_file_saves_in_place(
        grand: tuple[MainWindow, int], qtbot: QtBot) -> None:  # noqa: F811
    window, cid = grand
    tally, unit, _values = _typed(window, qtbot)
    assert not tally.background()  # 8 units on a local file
    tally.save()
    assert not tally.saving
    assert rc.entry_of(window.case, cid, unit, 1) is not None


@pytest.mark.usefixtures("in_worker")
def test_a_refused_sheet_comes_back_as_typed_though_the_page_moved_on(
        grand: tuple[MainWindow, int], qtbot: QtBot) -> None:  # noqa: F811
    window, cid = grand
    tally, unit, values = _typed(window, qtbot, under_extra=3)
    page = _page(window)
    other = next(r.id for r in window.rows if r.id != cid)
    tally.save()
    assert not page.contest.isEnabled()  # the contest cannot be changed from its list
    page.select_contest(other)  # but the Contests page can still point elsewhere
    assert [f.value() for f in tally.fields.values()] == values  # the sheet stays shown
    with qtbot.waitSignal(tally.save_finished, timeout=SIGNAL_MS):
        pass
    assert page.contest_id == cid and page.contest.isEnabled()
    assert tally.current_unit() == unit and tally.number() == 1
    assert [f.value() for f in tally.fields.values()] == values
    assert tally.officer.text() == FIRST
    assert tally.note.isVisible()
    assert rc.entry_of(window.case, cid, unit, 1) is None


@pytest.mark.usefixtures("in_worker")
def test_the_contest_is_read_again_in_the_worker_not_on_the_gui_thread(
        grand: tuple[MainWindow, int], qtbot: QtBot,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """After a save in a worker the page shows the recount the worker read after its write
    (a few hundred ms at 3,000 units), and the window does not read it again; what it shows
    is the saved entry."""
    import threading

    window, cid = grand
    tally, unit, _values = _typed(window, qtbot)
    reads: list[bool] = []
    real = rc.recount_state

    def counted(*a, **k):  # type: ignore[no-untyped-def]
        reads.append(threading.current_thread() is threading.main_thread())
        return real(*a, **k)

    monkeypatch.setattr(rc, "recount_state", counted)
    with qtbot.waitSignal(tally.tally_saved, timeout=SIGNAL_MS):
        qtbot.keyClick(tally.fields["under"], Qt.Key.Key_Return)
    assert reads == [False]  # once, in the worker
    page = _page(window)
    assert page.state is not None and page.state.contest_id == cid
    row = next(r for r in page.state.units if r.name == unit)
    assert row.first_officer == FIRST
