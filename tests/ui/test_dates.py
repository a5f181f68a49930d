"""Dates typed the way a US clerk writes them, in every dialog that asks for one."""

from __future__ import annotations

from datetime import date, datetime, time
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from recount_desk.actions import recount as rc
from recount_desk.ui.dates import DateTimeField, parse_date, parse_datetime
from recount_desk.ui.main_window import MainWindow

TYPED_DATES = ["11/8/2016", "11/08/2016", "2016-11-08", "Nov 8, 2016", "11/8/16"]


@pytest.mark.parametrize("text", TYPED_DATES, ids=TYPED_DATES)
def test_a_date_typed_the_us_way_is_read(text: str) -> None:
    assert parse_date(text) == date(2016, 11, 8)


@pytest.mark.parametrize("text", ["8201", "11/8", "13/8/2016", "11/31/2016", "2016-13-01",
                                  "Sat Dec 12, 000016", "tomorrow", ""])
def test_what_is_not_a_date_is_refused_not_guessed(text: str) -> None:
    assert parse_date(text) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("11/8/2016 2:30 PM", datetime(2016, 11, 8, 14, 30)),
    ("11/08/2016 2:30 p.m.", datetime(2016, 11, 8, 14, 30)),
    ("2016-11-08 14:30", datetime(2016, 11, 8, 14, 30)),
    ("11/8/2016 9 am", datetime(2016, 11, 8, 9, 0)),
    ("11/8/2016 12:05 AM", datetime(2016, 11, 8, 0, 5)),
    ("Nov 8, 2016 5:00 PM", datetime(2016, 11, 8, 17, 0)),
    ("11/8/2016 13:00 PM", None),
    ("11/8/2016 25:00", None),
], ids=lambda v: str(v))
def test_a_date_and_time_typed_the_us_way_is_read(text: str, expected: datetime | None) -> None:
    assert parse_datetime(text) == expected


def _type(qtbot: QtBot, field: DateTimeField, text: str) -> None:
    field.edit.selectAll()
    field.edit.del_()
    qtbot.keyClicks(field.edit, text)
    field.edit.editingFinished.emit()


@pytest.mark.parametrize("text", TYPED_DATES[:3], ids=TYPED_DATES[:3])
def test_new_case_dialog_takes_a_typed_election_date_and_the_canvass_follows_it(
        window: MainWindow, qtbot: QtBot, tmp_path: Path, text: str) -> None:
    window.settings.setValue("lastFolder", str(tmp_path))
    dlg = window.new_case()
    assert dlg is not None
    _type(qtbot, dlg.date, text)
    assert dlg.election_date() == date(2016, 11, 8)
    assert dlg.date.text() == "11/8/2016"  # written out once read
    dlg.canvass_known.setChecked(True)
    # Not today: two weeks after the election, the latest usual canvass day.
    assert dlg.canvass_completed() == datetime(2016, 11, 22, 10, 0)
    _type(qtbot, dlg.canvass, "11/21/2016 4:15 PM")
    assert dlg.canvass_completed() == datetime(2016, 11, 21, 16, 15)
    _type(qtbot, dlg.date, "11/8/201")  # half typed: said beside the field, not accepted
    assert "11/8/2016" in dlg.errors["date"].text()
    qtbot.keyClicks(dlg.name, "Typed dates")
    qtbot.keyClicks(dlg.jurisdiction, "Sample County")
    dlg.create.click()
    assert dlg.isVisible()
    dlg.reject()


def test_request_dialog_takes_a_typed_filing_time(demo: MainWindow, qtbot: QtBot) -> None:
    dlg = demo.record_request(None)
    assert dlg is not None
    _type(qtbot, dlg.filed_at, "11/21/2018 2:30 PM")
    assert dlg.filed_at_value() == datetime(2018, 11, 21, 14, 30)
    _type(qtbot, dlg.filed_at, "2018-11-27")  # a date alone keeps the time typed
    assert dlg.filed_at_value() == datetime(2018, 11, 27, 14, 30)
    dlg.reject()


def test_recount_records_take_times_typed_when_the_sheets_are_keyed_in_later(
        demo: MainWindow, qtbot: QtBot) -> None:
    page = demo.recount_page
    demo.tabs.setCurrentWidget(page)
    cid = page.contest_id
    assert page.state is not None and page.state.signing is None and cid is not None
    w = page.witnesses
    page.show_panel("witnesses")
    # Not the time the window was opened: the time it is read at, until typed.
    assert abs((w.designated_at.value() - datetime.now()).total_seconds()) < 120
    w.name.setText("Late Keyed")
    w.designated_by.setText("A candidate")
    _type(qtbot, w.designated_at, "11/23/2018 9:05 AM")
    w.add()
    assert demo.case is not None
    got = next(x for x in rc.witnesses(demo.case, cid) if x.name == "Late Keyed")
    assert got.designated_at == datetime(2018, 11, 23, 9, 5)
    # The envelope's postmark is a date alone.
    env = page.envelopes
    _type(qtbot, env.postmarked, "11/05/2018")
    assert env.postmarked.date().toPython() == date(2018, 11, 5)
    # The board's convening, the lot and the signing use the same edit.
    for f in (page.board.convened_at, page.declare.signed_at, page.declare.drawn_at):
        _type(qtbot, f, "11/30/2018 10:00 AM")
        assert f.value() == datetime(2018, 11, 30, 10, 0)
        assert f.default_time == time(10, 0)
