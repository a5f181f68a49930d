"""The window tells the officer when a case was changed outside it, or is read-only, and
keeps and restores backups."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from pytestqt.qtbot import QtBot

from recount_desk.actions import case as case_actions
from recount_desk.actions.case import backups
from recount_desk.ui.main_window import MainWindow

from .conftest import SIGNAL_MS, make_case


def open_in(window: MainWindow, qtbot: QtBot, path: Path) -> None:
    """Open a case and wait for the background check (verification, backup) too."""
    with qtbot.waitSignals([window.case_opened, window.case_checked], timeout=SIGNAL_MS):
        window.open_path(path)


def change_outside(path: Path) -> None:
    """Change the case with SQLite's own tools, with no audit entry."""
    conn = sqlite3.connect(path)
    conn.execute("UPDATE election SET jurisdiction = 'Elsewhere County'")
    conn.commit()
    conn.close()


def test_a_case_changed_outside_shows_a_banner(window: MainWindow, qtbot: QtBot,
                                               tmp_path: Path) -> None:
    path = make_case(tmp_path)
    change_outside(path)
    open_in(window, qtbot, path)
    assert window.banner.isVisible()
    assert "does not match its audit log" in window.banner.text()
    assert "No official report" in window.banner.text()
    assert "Accept the file as it is" in window.banner.text()


def test_accepting_a_case_changed_outside_clears_the_banner(window: MainWindow, qtbot: QtBot,
                                                             tmp_path: Path) -> None:
    path = make_case(tmp_path)
    change_outside(path)
    open_in(window, qtbot, path)
    window.accept_file_as_is("The jurisdiction was corrected by IT; checked by the clerk.")
    assert not window.banner.isVisible()
    assert window.case is not None
    assert case_actions.changed_outside(window.case) == []


def test_a_sound_case_shows_no_banner_and_is_backed_up(window: MainWindow, qtbot: QtBot,
                                                       tmp_path: Path) -> None:
    path = make_case(tmp_path)
    open_in(window, qtbot, path)
    assert not window.banner.isVisible()
    assert len(backups(path)) == 1


def test_a_case_open_elsewhere_is_read_only_with_a_banner(window: MainWindow, qtbot: QtBot,
                                                          tmp_path: Path) -> None:
    path = make_case(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from recount_desk.actions.case import "
         f"open_case; c = open_case({str(path)!r}); print('held', flush=True); "
         "sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        open_in(window, qtbot, path)
        assert window.case is not None
        assert window.case.readonly
        assert "open in another Recount Desk" in window.banner.text()
        assert "READ-ONLY" in window.status_case.text()
    finally:
        holder.communicate("")


def test_restore_a_backup_from_the_window(window: MainWindow, qtbot: QtBot,
                                          tmp_path: Path) -> None:
    path = make_case(tmp_path)
    open_in(window, qtbot, path)
    good = backups(path)[0]
    window.close_case()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE election SET name = 'Tampered'")
    conn.commit()
    conn.close()
    open_in(window, qtbot, path)
    assert window.banner.isVisible()
    with qtbot.waitSignals([window.case_opened, window.case_checked], timeout=SIGNAL_MS):
        window.restore_backup(good)
    assert not window.banner.isVisible()
    assert window.case is not None
    assert window.case.election.name != "Tampered"


def test_the_windows_check_after_opening_is_taken_by_its_own_connection(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    """A case none of whose images is known here (last closed on another workstation) is
    checked in the background once shown; the window's connection then takes that check,
    so the officer's first action does not check the file again."""
    from recount_desk.actions.demo import user_data_dir

    path = make_case(tmp_path)
    for record in (user_data_dir() / "checked").glob("*.json"):
        record.unlink()
    open_in(window, qtbot, path)
    assert window.case is not None and not window.banner.isVisible()
    assert window.case.conn.verified is not None  # type: ignore[attr-defined]


def test_a_case_changed_outside_is_not_taken_as_checked(window: MainWindow, qtbot: QtBot,
                                                        tmp_path: Path) -> None:
    path = make_case(tmp_path)
    change_outside(path)
    open_in(window, qtbot, path)
    assert window.case is not None
    assert window.case.conn.verified is None  # type: ignore[attr-defined]
