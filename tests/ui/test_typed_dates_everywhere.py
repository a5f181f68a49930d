"""Every field of the window that asks a date takes it typed as 11/8/2016, 11/08/2016 or
2016-11-08 (issue 19): a test per dialog, each format."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from recount_desk.actions.demo_portion import portion_spec
from recount_desk.ui.dates import DateTimeField
from recount_desk.ui.dialogs.whole_race import WholeRaceDialog
from recount_desk.ui.main_window import MainWindow

from .conftest import SIGNAL_MS

FORMATS = ["11/8/2016", "11/08/2016", "2016-11-08"]
ELECTION_DAY = date(2016, 11, 8)


def _type(qtbot: QtBot, field: DateTimeField, text: str) -> None:
    """As a clerk does: select what is there, type over it, leave the field."""
    field.edit.selectAll()
    field.edit.del_()
    qtbot.keyClicks(field.edit, text)
    field.edit.editingFinished.emit()


def _read(qtbot: QtBot, field: DateTimeField, text: str) -> date:
    _type(qtbot, field, text)
    assert field.problem() is None, (field.accessibleName(), text, field.problem())
    return field.value().date()


@pytest.mark.parametrize("text", FORMATS, ids=FORMATS)
def test_new_case_dialog(window: MainWindow, qtbot: QtBot, tmp_path: Path, text: str) -> None:
    window.settings.setValue("lastFolder", str(tmp_path))
    dlg = window.new_case()
    assert dlg is not None
    assert _read(qtbot, dlg.date, text) == ELECTION_DAY
    dlg.canvass_known.setChecked(True)
    assert _read(qtbot, dlg.canvass, text) == ELECTION_DAY
    dlg.reject()


@pytest.mark.parametrize("text", FORMATS, ids=FORMATS)
def test_election_details_dialog(demo: MainWindow, qtbot: QtBot, text: str) -> None:
    dlg = demo.edit_election()
    assert dlg is not None
    assert _read(qtbot, dlg.date, text) == ELECTION_DAY
    dlg.canvass_known.setChecked(True)
    assert _read(qtbot, dlg.canvass, text) == ELECTION_DAY
    dlg.reject()


@pytest.mark.parametrize("text", FORMATS, ids=FORMATS)
def test_request_dialog(demo: MainWindow, qtbot: QtBot, text: str) -> None:
    dlg = demo.record_request(None)
    assert dlg is not None
    assert _read(qtbot, dlg.filed_at, text) == ELECTION_DAY
    assert dlg.filed_at_value().date() == ELECTION_DAY
    dlg.reject()


@pytest.mark.parametrize("text", FORMATS, ids=FORMATS)
def test_proclaimed_holidays_dialog(demo: MainWindow, qtbot: QtBot, text: str) -> None:
    dlg = demo.edit_closed_days()
    assert dlg is not None
    dlg.text.setPlainText(f"{text} Day of mourning")
    assert [d.day for d in dlg.days()] == [ELECTION_DAY]
    dlg.reject()


@pytest.mark.parametrize("text", FORMATS, ids=FORMATS)
def test_signing_dialog_of_the_report(demo: MainWindow, qtbot: QtBot, text: str) -> None:
    report = demo.open_report()
    assert report is not None
    with qtbot.waitSignal(report.report_generated, timeout=SIGNAL_MS):
        report.generate_button.click()
    dlg = report.record_signing()
    assert dlg is not None
    assert _read(qtbot, dlg.date, text) == ELECTION_DAY
    assert dlg.signed_at().date() == ELECTION_DAY
    dlg.reject()
    report.close()


@pytest.mark.parametrize("text", FORMATS, ids=FORMATS)
def test_whole_race_dialog(window: MainWindow, qtbot: QtBot, tmp_path: Path,
                           text: str) -> None:
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.actions.case import create_case

    spec = portion_spec()
    path = tmp_path / "grand.recount"
    with create_case(path, spec.election) as case:
        import_canvass(case, read_file(spec.canvass))
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    portion = next(r.id for r in window.rows if r.check.portion)
    window.open_whole_race(portion)
    dlg = next(x for x in window.findChildren(WholeRaceDialog) if x.isVisible())
    qtbot.addWidget(dlg)
    assert _read(qtbot, dlg.ordered_at, text) == ELECTION_DAY
    dlg.reference.setText("Letter of the Lieutenant Governor")
    assert dlg.record_order()  # the transmittal's date is asked once an order is recorded
    assert dlg.sent_at.isEnabled()
    assert _read(qtbot, dlg.sent_at, text) == ELECTION_DAY
    dlg.reject()


@pytest.mark.parametrize("text", FORMATS, ids=FORMATS)
def test_every_date_of_the_recount_page(demo: MainWindow, qtbot: QtBot, text: str) -> None:
    page = demo.recount_page
    demo.tabs.setCurrentWidget(page)
    fields = {"witnesses": (page.witnesses.designated_at, page.witnesses.from_,
                            page.witnesses.to),
              "envelopes": (page.envelopes.postmarked, page.envelopes.received),
              "board": (page.board.convened_at,),
              "declare": (page.declare.drawn_at, page.declare.signed_at)}
    for panel, found in fields.items():
        page.show_panel(panel)
        for f in found:
            assert _read(qtbot, f, text) == ELECTION_DAY
    # Every date field of the page is in the list: a new one needs its line here.
    listed = {id(f) for found in fields.values() for f in found}
    assert {id(f) for f in page.findChildren(DateTimeField)} == listed


def test_a_time_typed_after_the_date_is_kept(demo: MainWindow, qtbot: QtBot) -> None:
    dlg = demo.record_request(None)
    assert dlg is not None
    _type(qtbot, dlg.filed_at, "11/08/2016 4:59 PM")
    assert dlg.filed_at_value() == datetime(2016, 11, 8, 16, 59)
    dlg.reject()
