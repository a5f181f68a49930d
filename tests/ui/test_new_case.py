"""Creating a case through the New case dialog, with reasons shown beside the fields."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QDate, QDateTime, Qt, QTime
from pytestqt.qtbot import QtBot

from recount_desk.ui.main_window import MainWindow

from .conftest import SIGNAL_MS


def test_new_case_shows_reasons_beside_fields_then_creates_the_case(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    window.settings.setValue("lastFolder", str(tmp_path))
    dlg = window.new_case()
    qtbot.waitExposed(dlg)
    # Create with nothing filled in: each missing field says why, beside it.
    qtbot.mouseClick(dlg.create, Qt.MouseButton.LeftButton)
    assert dlg.isVisible()
    assert "name" in dlg.errors["name"].text().lower()
    assert "county" in dlg.errors["jurisdiction"].text().lower()
    assert dlg.focusWidget() is dlg.name

    qtbot.keyClicks(dlg.name, "2026 General Election")
    assert dlg.errors["name"].text() == ""
    qtbot.keyClick(dlg.name, Qt.Key.Key_Return)  # Enter moves on, it does not create
    assert dlg.isVisible()
    assert dlg.focusWidget() is not dlg.name
    dlg.date.setDate(QDate(2026, 11, 3))
    qtbot.keyClicks(dlg.jurisdiction, "Grand County")
    dlg.canvass_known.setChecked(True)
    dlg.canvass.setDateTime(QDateTime(QDate(2026, 10, 30), QTime(10, 0)))
    assert "before the election" in dlg.errors["canvass_completed"].text()
    dlg.canvass.setDateTime(QDateTime(QDate(2026, 11, 17), QTime(10, 0)))
    assert dlg.errors["canvass_completed"].text() == ""
    qtbot.keyClicks(dlg.officer, "Jane Doe")
    assert dlg.path() == tmp_path / "2026 General Election.recount"

    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        qtbot.mouseClick(dlg.create, Qt.MouseButton.LeftButton)
    assert (tmp_path / "2026 General Election.recount").exists()
    assert window.case is not None
    assert window.case.election.jurisdiction == "Grand County"
    assert "no canvass imported yet" in window.status_case.text()
    assert "Import canvass" in window.contests_page.detail.title.text()
    assert window.act_import.isEnabled()


def test_new_case_refuses_an_existing_file_name(window: MainWindow, qtbot: QtBot,
                                                tmp_path: Path) -> None:
    (tmp_path / "Taken.recount").write_bytes(b"x")
    window.settings.setValue("lastFolder", str(tmp_path))
    dlg = window.new_case()
    qtbot.keyClicks(dlg.name, "Taken")
    assert "exists" in dlg.errors["file"].text()
    dlg.reject()


def test_election_details_are_edited_as_one_audited_action(
        empty_case: MainWindow, qtbot: QtBot) -> None:
    """File › Election details: the fields start from the case, there is no file to choose,
    Enter on the last field saves, and the change lands in the audit log."""
    window = empty_case
    assert window.case is not None
    before = window.case.election
    dlg = window.edit_election()
    assert dlg is not None
    qtbot.waitExposed(dlg)
    assert dlg.windowTitle() == "Election details"
    assert dlg.name.text() == before.name
    assert dlg.canvass_known.isChecked()
    assert not dlg.file.isVisible()
    dlg.canvass.setDateTime(QDateTime(QDate(2024, 11, 18), QTime(16, 30)))
    dlg.officer.selectAll()
    qtbot.keyClicks(dlg.officer, "Pat Roe, County Clerk")
    with qtbot.waitSignal(dlg.accepted, timeout=SIGNAL_MS):
        qtbot.keyClick(dlg.officer, Qt.Key.Key_Return)
    after = window.case.election
    assert after.officer == "Pat Roe, County Clerk"
    assert after.canvass_completed is not None
    assert (after.canvass_completed.day, after.canvass_completed.hour) == (18, 16)
    assert after.date == before.date
    last = window.case.conn.execute("SELECT action FROM audit ORDER BY seq DESC LIMIT 1"
                                    ).fetchone()[0]
    assert last == "update election"


def test_a_signed_recount_keeps_the_election_date_and_kind(
        demo: MainWindow, qtbot: QtBot) -> None:
    """Once the demo's State House 32 recount is signed, the election's date and kind cannot
    move under it: the officer is told why and nothing changes."""
    from recount_desk.actions import recount as rc

    window = demo
    assert window.case is not None
    hd32 = next(r.id for r in window.rows if "District 32" in r.check.totals.contest.key.label()
                and r.check.totals.contest.key.title == "State House")
    rc.sign_report(window.case, hd32, signed_at=datetime(2016, 12, 6, 11, 0),
                   signers=[m.name for m in rc.board(window.case, hd32).members
                            if m.present], confirmed=True)
    before = window.case.election
    dlg = window.edit_election()
    assert dlg is not None
    dlg.date.setDate(QDate(2016, 11, 9))
    with qtbot.waitSignal(dlg.accepted, timeout=SIGNAL_MS):
        qtbot.mouseClick(dlg.create, Qt.MouseButton.LeftButton)
    assert "reopen them before changing" in window.last_message.text()
    assert window.case.election == before
