"""The station's window on a case on the counting-center server: connect, see the other
stations' work, and go read-only (with a banner) while the server cannot be reached."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from recount_desk.actions import recount as rc
from recount_desk.actions.case import open_case
from recount_desk.core.recount import EntryMode, RecountMethod, TallySheet
from recount_desk.ui.main_window import MainWindow
from tests.actions.test_recount_actions import RACE, make_case
from tests.ui.conftest import SIGNAL_MS


@pytest.fixture
def url(pg_server) -> str:  # type: ignore[no-untyped-def]
    where = pg_server.new_database()
    with make_case(where) as case:
        rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT,
                         entry_mode=EntryMode.DOUBLE)
    return str(where)


def test_a_station_connects_sees_the_others_work_and_survives_a_lost_server(
        window: MainWindow, qtbot: QtBot, pg_server, url: str,  # type: ignore[no-untyped-def]
        tmp_path: Path) -> None:
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.connect_server(url)
    case = window.case
    assert case is not None and case.on_server and not case.readonly
    assert "Test County" in window.status_case.text()
    assert window.server_timer.isActive()
    assert "password" not in window.windowTitle()

    # Another station saves a tally: this window shows it at its next look at the server.
    with open_case(url, actor="Dana") as other:
        rc.enter_tally(other, RACE, "P1", entry=1, officer="Dana",
                       sheet=TallySheet(19, {"Ada": 10, "Ben": 9}, 0, 0, 0))
    window.poll_server()
    message = window.statusBar().currentMessage()
    assert "Another station saved work" in message and "Dana" in message
    # Ctrl+Z cannot reach past another station's save (it says so instead).
    assert window.act_undo.text() == "&Undo — not possible for entering a tally sheet"
    assert rc.entry_of(window.case, RACE, "P1", 1) is not None  # type: ignore[arg-type]

    # The server drops this station: read-only with a banner, until it answers again.
    database = url.rsplit("/", 1)[1]
    pg_server.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                    f"datname = '{database}' AND pid <> pg_backend_pid()")
    window.poll_server()
    assert window.server_lost and window.case.readonly  # type: ignore[union-attr]
    assert window.banner.isVisible()
    assert "connection to the counting-center server was lost" in window.banner.text()
    from tests.ui.screenshots import shot

    shot(window, Path(os.environ.get("RECOUNT_DESK_SHOTS", tmp_path)), "station-lost")
    window.poll_server()  # the server is up: the station reconnects
    assert not window.server_lost and not window.case.readonly  # type: ignore[union-attr]
    assert not window.banner.isVisible()
    assert "answers again" in window.statusBar().currentMessage()
    rc.enter_tally(window.case, RACE, "P2", entry=1, officer="tester",  # type: ignore[arg-type]
                   sheet=TallySheet(20, {"Ada": 10, "Ben": 10}, 0, 0, 0))


def test_a_unit_another_station_saved_meanwhile_is_refused_not_replaced(
        window: MainWindow, qtbot: QtBot, url: str) -> None:
    """The form showed P1 without its entry 1; another station saves it first: this
    station's save is refused with who entered it, and the other's entry stays."""
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.connect_server(url)
    page = window.recount_page
    window.tabs.setCurrentWidget(page)
    page.select_contest(RACE)
    page.show_panel("tally")
    tally = page.tally
    unit = tally.current_unit()
    assert unit is not None and tally.number() == 1
    tally.officer.setText("Marcus")
    for f, v in zip(tally.fields.values(), [19, 10, 9, 0, 0, 0], strict=True):
        f.setText(str(v))
    with open_case(url, actor="Dana") as other:
        rc.enter_tally(other, RACE, unit, entry=1, officer="Dana",
                       sheet=TallySheet(20, {"Ada": 11, "Ben": 9}, 0, 0, 0))
    with qtbot.waitSignal(page.action_failed, timeout=SIGNAL_MS) as refused:
        tally.save()
    assert "saved meanwhile by Dana" in refused.args[0]
    got = rc.entry_of(window.case, RACE, unit, 1)  # type: ignore[arg-type]
    assert got is not None and got.officer == "Dana" and got.sheet.ballots == 20
    if window.last_message is not None:
        window.last_message.close()


def test_a_station_shows_another_stations_save_as_soon_as_it_is_committed(
        window: MainWindow, qtbot: QtBot, url: str) -> None:
    """The window hears the server's announcement of each save: the other station's work
    shows without waiting for the look every few seconds (stopped here to prove it)."""
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.connect_server(url)
    window.server_timer.stop()
    assert window.save_watcher is not None
    with open_case(url, actor="Dana") as other:
        rc.enter_tally(other, RACE, "P1", entry=1, officer="Dana",
                       sheet=TallySheet(19, {"Ada": 10, "Ben": 9}, 0, 0, 0))
    qtbot.waitUntil(lambda: "Another station saved work" in
                    window.statusBar().currentMessage(), timeout=SIGNAL_MS)
    assert "Dana" in window.statusBar().currentMessage()
    window.close_case()
    assert window.save_watcher is None
